"""The opening and the closing every paper notebook shares.

A paper notebook is a thin sequence of calls between two of these::

    run = notebook.open_paper("004", parameters=dict(obj_size_bytes=obj_size_bytes, ...),
                              output_dir=output_dir, check=what_if.check, seed=None)
    ...                                   # load tables, call paperlib, show tables and figures
    notebook.close_paper(run, rows)       # ledger rows + provenance stamp, written atomically

:func:`open_paper` checks the parameters before anything is written (``check`` raises
:class:`paperlib.validate.ParameterError` naming the parameter), loads the paper's published
data, makes the output folder's path and the provenance :class:`~paperlib.provenance.Stamp`,
and sets the display options all notebooks use. :func:`close_paper` writes the notebook's partial
ledger and ``provenance.json`` and returns the rows as a table. A notebook that writes its ledger
in two steps (the model rows, then the rows of a real-stack run) calls :func:`close_paper` twice
with all rows so far and the extra parameters of the second step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from paperlib import ledger
from paperlib.data import Paper, load_paper
from paperlib.provenance import Stamp
from paperlib.validate import ParameterError

#: pandas display options of every paper notebook (wide tables, no wrapping).
DISPLAY_OPTIONS = {"display.width": 200, "display.max_columns": 30, "display.max_colwidth": 80}


@dataclass(frozen=True)
class PaperRun:
    """One notebook run of one paper: its published data, output folder and provenance stamp."""

    paper: Paper
    out: Path
    stamp: Stamp

    @property
    def parameters(self) -> dict:
        """The run's parameters as stamped on every output."""
        return dict(self.stamp.parameters)


def notebook_path(paper_id: str, root: Path | None = None) -> str:
    """Return the repository-relative path of paper ``paper_id``'s notebook (``notebooks/<id>_*.ipynb``)."""
    root = root or Path(__file__).resolve().parents[1]
    found = sorted((root / "notebooks").glob(f"{paper_id}_*.ipynb"))
    if len(found) != 1:
        raise ParameterError(f"paper {paper_id!r}: expected one notebook notebooks/{paper_id}_*.ipynb, "
                             f"found {[f.name for f in found]}")
    return f"notebooks/{found[0].name}"


def open_paper(
    paper_id: str,
    *,
    parameters: Mapping[str, object],
    output_dir: str | Path,
    check: Callable[..., object] | None = None,
    seed: int | None = None,
) -> PaperRun:
    """Start a paper notebook: check ``parameters``, load the paper, return its :class:`PaperRun`.

    ``check(**parameters)`` runs first and must raise :class:`~paperlib.validate.ParameterError`
    naming a bad parameter; nothing is read or written before it passes. ``seed`` is the run's
    base seed (``None`` for a deterministic run) and is stamped on every output.
    """
    if check is not None:
        check(**parameters)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ParameterError(f"seed must be a non-negative integer or None, got {seed!r}")
    for option, value in DISPLAY_OPTIONS.items():
        pd.set_option(option, value)
    paper = load_paper(paper_id)
    stamp = Stamp(notebook=notebook_path(paper_id), parameters=dict(parameters), seed=seed)
    return PaperRun(paper=paper, out=Path(output_dir), stamp=stamp)


def close_paper(run: PaperRun, rows: Iterable[ledger.Row], **extra_parameters) -> pd.DataFrame:
    """Write the run's partial ledger (``<out>/ledger.csv``) and provenance stamp; return the ledger columns.

    ``extra_parameters`` (e.g. ``emulation="reduced"``) are added to the stamp of this write.
    """
    stamp = replace(run.stamp, parameters={**run.stamp.parameters, **extra_parameters})
    frame = ledger.write_partial(list(rows), stamp, run.out / "ledger.csv")
    stamp.write(run.out)
    return frame[list(ledger.COLUMNS)]
