"""The opening and the closing every paper notebook shares.

A paper notebook is its paper's stages between two of these::

    run = notebook.open_paper(PAPER, parameters=dict(obj_size_bytes=obj_size_bytes, ...),
                              output_dir=output_dir, check=what_if.check, seed=None)
    r = reproduce.model(run)              # the paper's stages (paperlib/reproduce/p<id>/reproduce.py) ...
    r.table("convention_search.csv")      # ... and display cells showing what they returned
    frame = notebook.close_paper(run, r)  # ledger rows + provenance stamp, written atomically
    notebook.finding(frame, PAPER)        # the paper's verdict paragraph

:func:`open_paper` checks the parameters before anything is written (``check`` raises
:class:`paperlib.validate.ParameterError` naming the parameter), loads the paper's published
data, makes the output folder's path and the provenance :class:`~paperlib.provenance.Stamp`,
and sets the display options all notebooks use. A stage writes through :meth:`PaperRun.outputs`
(:mod:`paperlib.reproduction`). :func:`close_paper` writes the ledger of the stages' rows and
``provenance.json`` and returns the rows as a table. What a run needs for the length of the notebook
(paper 001's one Dask cluster for all its sweeps) a stage takes with :meth:`PaperRun.hold`;
:func:`close_paper` releases it, so no notebook opens or closes such a thing itself.

Only ``make reproduce`` writes ``figures/``: it runs each notebook through
:mod:`paperlib.run_notebook`, which hands the kernel a staging folder (``figures/.<paper>.staging``)
and swaps it in with a run manifest once the run succeeded. A notebook run any other way (opened
in JupyterLab, run with plain papermill or nbclient) writes into its ``output_dir`` default,
``scratch/<paper>/`` (see :data:`SCRATCH`); :func:`open_paper` refuses an ``output_dir`` inside
``figures/`` that is not a staging folder, so an interactive run can never leave outputs that fail
the next ``make reproduce``'s manifest check.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from paperlib import ledger, run_progress
from paperlib.data import Paper, load_paper
from paperlib.parameters import Parameters
from paperlib.provenance import Stamp
from paperlib.reproduction import Outputs, Reproduction
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parents[1]
#: Where the paper notebooks write when run interactively (their ``output_dir`` default, ``scratch/<paper>``).
SCRATCH = REPO / "scratch"
#: The generated outputs of ``make reproduce``, written only through :mod:`paperlib.run_notebook`'s staging.
FIGURES = REPO / "figures"

#: The ledger's columns a notebook reads (its own and the structured ones; the provenance left out).
SHOWN_COLUMNS = list(ledger.COLUMNS + ledger.STRUCTURED_COLUMNS)
#: pandas display options of every paper notebook (wide tables, no wrapping).
DISPLAY_OPTIONS = {"display.width": 200, "display.max_columns": 30, "display.max_colwidth": 80}


@dataclass(frozen=True)
class PaperRun:
    """One notebook run of one paper: its published data, output folder, provenance stamp and checked parameters."""

    paper: Paper
    out: Path
    stamp: Stamp
    #: what the paper's ``what_if.check`` returned (:class:`paperlib.parameters.Parameters`), None without a check
    checked: Parameters | None = None
    #: what the run holds until :func:`close_paper` (:meth:`hold`)
    held: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, repr=False, compare=False)

    def hold(self, context):
        """Enter the context manager ``context`` for the rest of the run and return what it gives; :func:`close_paper`
        exits it. (A run that fails before it leaves it to the kernel's end: a local Dask cluster closes then.)"""
        return self.held.enter_context(context)

    def outputs(self) -> Outputs:
        """Return a new collector of what a stage writes into this run's output folder, stamped with its stamp."""
        return Outputs(self.out, self.stamp)

    @property
    def parameters(self) -> dict:
        """The run's parameters as stamped on every output."""
        return dict(self.stamp.parameters)


def notebook_path(paper_id: str, root: Path | None = None) -> str:
    """Return the repository-relative path of paper ``paper_id``'s notebook (``notebooks/<id>_*.ipynb``)."""
    root = root or REPO
    found = sorted((root / "notebooks").glob(f"{paper_id}_*.ipynb"))
    if len(found) != 1:
        raise ParameterError(f"paper {paper_id!r}: expected one notebook notebooks/{paper_id}_*.ipynb, "
                             f"found {[f.name for f in found]}")
    return f"notebooks/{found[0].name}"


def is_staging(folder: Path) -> bool:
    """Return whether ``folder`` is a staging folder of :mod:`paperlib.run_notebook` (``.<name>.staging``)."""
    return folder.name.startswith(".") and folder.name.endswith(".staging")


def check_output_dir(output_dir: str | Path) -> Path:
    """Return ``output_dir`` as given; raise if it would write into ``figures/`` outside a staged run.

    ``figures/<paper>/`` holds the outputs of ``make reproduce``, each folder with a run manifest
    that the next ``make reproduce`` checks; files written straight into it (by a notebook run in
    JupyterLab, or by papermill without :mod:`paperlib.run_notebook`) would fail that check.
    A relative path is taken against the kernel's working directory (the notebook's folder).
    """
    path = Path(output_dir).expanduser().resolve()
    try:
        inside = path.relative_to(FIGURES)
    except ValueError:
        return Path(output_dir)
    if not inside.parts or not is_staging(FIGURES / inside.parts[0]):
        raise ParameterError(
            f"output_dir: {path} is inside figures/, which only make reproduce writes (staged, with a run "
            f"manifest); run this notebook interactively with its default output_dir (scratch/<paper>) or "
            f"another folder, or write figures/ with `python -m paperlib.run_notebook NOTEBOOK OUT.ipynb "
            f"-p output_dir figures/<paper>`")
    return Path(output_dir)


def open_paper(
    paper_id: str,
    *,
    parameters: Mapping[str, object],
    output_dir: str | Path,
    check: Callable[..., Parameters] | None = None,
    seed: int | None = None,
) -> PaperRun:
    """Start a paper notebook: check ``parameters``, load the paper, return its :class:`PaperRun`.

    ``check(**parameters)`` (the paper's ``what_if.check``) runs first and must raise
    :class:`~paperlib.validate.ParameterError` naming a bad parameter; nothing is read or written before it
    passes. What it returns is the run's ``checked`` parameters. ``seed`` is the run's
    base seed (``None`` for a deterministic run) and is stamped on every output. An ``output_dir``
    inside ``figures/`` other than :mod:`paperlib.run_notebook`'s staging folder is refused
    (:func:`check_output_dir`).

    A kernel that ``make reproduce`` runs at the idle priority gives its session's scheduler group the lowest
    weight (:func:`paperlib.run_progress.lowest_group_when_idle`): its simulations then yield to an emulated run's
    applications, which run in sessions of their own.
    """
    check_output_dir(output_dir)
    run_progress.lowest_group_when_idle()
    checked = check(**parameters) if check is not None else None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ParameterError(f"seed must be a non-negative integer or None, got {seed!r}")
    for option, value in DISPLAY_OPTIONS.items():
        pd.set_option(option, value)
    paper = load_paper(paper_id)
    stamp = Stamp(notebook=notebook_path(paper_id), parameters=dict(parameters), seed=seed)
    return PaperRun(paper=paper, out=Path(output_dir), stamp=stamp, checked=checked)


def close_paper(run: PaperRun, results: Reproduction | Iterable[ledger.Row], **extra_parameters) -> pd.DataFrame:
    """Write the run's partial ledger (``<out>/ledger.csv``) and provenance stamp; return the ledger's columns
    and its structured ones (:data:`paperlib.ledger.SCHEMA`), which :mod:`paperlib.verdicts` and the summaries
    read, without the provenance.

    ``results`` is what the paper's stages returned (a :class:`~paperlib.reproduction.Reproduction`: its rows,
    its ``stamp_parameters`` added to the stamp) or the rows themselves. ``extra_parameters`` (e.g.
    ``emulation="reduced"``) are added to the stamp of this write. What the run holds (:meth:`PaperRun.hold`)
    is released first.
    """
    run.held.close()
    if isinstance(results, Reproduction):
        extra_parameters = {**results.stamp_parameters, **extra_parameters}
        rows = results.rows
    else:
        rows = results
    stamp = replace(run.stamp, parameters={**run.stamp.parameters, **extra_parameters})
    frame = ledger.write_partial(list(rows), stamp, run.out / "ledger.csv")
    stamp.write(run.out)
    return frame[SHOWN_COLUMNS]


def ledger_table(run: PaperRun, rows: Iterable[ledger.Row]) -> pd.DataFrame:
    """Return ``rows`` as :func:`close_paper` would return them, without writing anything (a stage's summary
    sentences read the rows so far)."""
    return ledger.to_frame(list(rows), run.stamp)[SHOWN_COLUMNS]


def finding(frame: pd.DataFrame, paper_id: str):
    """Return paper ``paper_id``'s finding from its closed ledger ``frame`` (:func:`close_paper`'s table) as Markdown:
    the paragraph the README and the report give it (:func:`paperlib.verdicts.paper_verdicts`)."""
    from IPython.display import Markdown

    from paperlib.verdicts import paper_verdicts

    found = [v for v in paper_verdicts(frame) if v.paper == paper_id]
    if not found:
        raise ParameterError(f"paper {paper_id!r}: no rows of it in the ledger given")
    return Markdown(found[0].paragraph())


def titled(frames: Mapping[str, pd.DataFrame]) -> list:
    """Return each table of ``frames`` after its title in bold, for ``display(*titled(...))``: a notebook shows a
    group of tables without a loop."""
    from IPython.display import Markdown

    return [shown for title, frame in frames.items() for shown in (Markdown(f"**{title}**"), frame)]
