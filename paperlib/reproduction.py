"""What a paper notebook's stages found, as one frozen value: the notebook shows it and closes it.

Every paper package has a ``reproduce`` module whose stages do the paper's work; a notebook calls them and shows
what they return, and names no file::

    r = reproduce.model(run)                           # the model: tables, figures and the ledger rows it makes
    r.tables["convention_search.csv"].head(12)         # display cells, prose between them
    r = reproduce.with_ns3(run, r, replications=3, ...)          # a paper that simulates in ns-3
    r = reproduce.with_real_stacks(run, r, emulation="reduced")  # a paper that re-runs on real stacks
    frame = notebook.close_paper(run, r)               # the ledger (r.rows) and the provenance stamp

A stage writes each table and figure as it makes it (atomically, stamped; :class:`Outputs`) and returns the
:class:`Reproduction` it was given with them added, by the name of the file it wrote (``table2_regenerated.csv``,
``latency_vs_bandwidth.png``). A check a stage skips (the ns-3 check with no replications, a real-stack grid that
could not run) leaves a note saying why, not a branch in the notebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pandas as pd

from paperlib.atomic import atomic_write_csv
from paperlib.conventions import Convention
from paperlib.data import Paper
from paperlib.figures import save_figure
from paperlib.ledger import Row
from paperlib.provenance import Stamp


class ReproductionError(KeyError):
    """A table, figure or note asked of a :class:`Reproduction` that it does not hold (the message names it)."""

    def __str__(self) -> str:  # KeyError quotes its message; this one is a sentence
        return str(self.args[0])


def _frozen(mapping: Mapping) -> Mapping:
    """Return ``mapping`` as a read-only view of a copy (a frozen Reproduction's tables cannot be swapped)."""
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, kw_only=True)
class Reproduction:
    """One paper's results so far: what the ledger needs and what the notebook shows.

    ``search`` and ``convention`` are the paper's convention search and its chosen convention
    (:mod:`paperlib.conventions`); ``simulations`` the paper's record of its ns-3 runs and ``real_stacks`` its
    :class:`~paperlib.emulation.notebook.Emulated` runs (None where a stage did not run them); ``rows`` the
    ledger rows of everything so far. ``tables`` and ``figures`` hold each output by the name of the file the
    stage wrote in the run's output folder (a table shown but written by another module, such as
    ``emulation_runs.csv``, is there by that file's name too); ``notes`` the Markdown sentences to show, by
    name; ``stamp_parameters`` what :func:`paperlib.notebook.close_paper` adds to the provenance stamp
    (``emulation="reduced"``). A paper with more to carry from one stage to the next subclasses this.
    """

    paper: Paper
    search: pd.DataFrame
    convention: Convention
    simulations: object | None = None
    real_stacks: object | None = None
    rows: tuple[Row, ...] = ()
    tables: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    figures: Mapping[str, Path] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    stamp_parameters: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self):
        for name in ("tables", "figures", "notes", "stamp_parameters"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "rows", tuple(self.rows))

    def table(self, name: str) -> pd.DataFrame:
        """Return the table written as ``name`` (a file name, ``convention_search.csv``)."""
        return _look_up(self.tables, name, "table")

    def note(self, name: str):
        """Return note ``name`` as Markdown for the notebook to show."""
        from IPython.display import Markdown

        return Markdown(_look_up(self.notes, name, "note"))

    def image(self, name: str):
        """Return the figure written as ``name`` (``latency_vs_bandwidth.png``) as an image to show."""
        from IPython.display import Image

        return Image(str(_look_up(self.figures, name, "figure")))

    def images(self, names: Iterable[str]) -> list:
        """Return the figures of ``names`` that a stage wrote, in that order, as images to show (a figure a
        stage did not draw, such as a real-stack figure of a grid that did not run, is left out)."""
        return [self.image(name) for name in names if name in self.figures]

    def claim_verdicts(self) -> dict[str, dict[str, str]]:
        """Return the status of each claim of the rows so far, by claim id and then by the evidence it was judged on
        (:data:`paperlib.ledger.EVIDENCE`): ``{"c3": {"model": "refuted", "real stacks": "inconclusive"}}``."""
        verdicts: dict[str, dict[str, str]] = {}
        for row in self.rows:
            if row.claim_id:
                verdicts.setdefault(row.claim_id, {})[row.evidence] = row.status
        return verdicts

    def adding(self, outputs: Outputs, **fields) -> Reproduction:
        """Return a copy with ``outputs``' tables, figures and notes added (a name already held is replaced) and
        ``fields`` set (``rows=...``, ``simulations=...``)."""
        return dataclasses.replace(self, tables={**self.tables, **outputs.tables},
                                   figures={**self.figures, **outputs.figures}, notes={**self.notes, **outputs.notes},
                                   **fields)


def _look_up(mapping: Mapping, name: str, kind: str):
    """Return ``mapping[name]``; a missing name raises naming it and what there is."""
    try:
        return mapping[name]
    except KeyError:
        raise ReproductionError(f"no {kind} {name!r} in this reproduction; it holds {sorted(mapping)}") from None


class Outputs:
    """What one stage writes into the run's output folder, collected for :meth:`Reproduction.adding`.

    Each table is written as CSV and each figure as a stamped PNG, atomically, when it is given; the
    stage's return value then holds them by file name.
    """

    def __init__(self, out: Path, stamp: Stamp):
        self.out, self.stamp = Path(out), stamp
        self.tables: dict[str, pd.DataFrame] = {}
        self.figures: dict[str, Path] = {}
        self.notes: dict[str, str] = {}

    def table(self, name: str, frame: pd.DataFrame) -> pd.DataFrame:
        """Write ``frame`` as ``<out>/<name>`` (``name`` ends in ``.csv``) and keep it; return it."""
        _check_name(name, ".csv")
        atomic_write_csv(self.out / name, frame)
        self.tables[name] = frame
        return frame

    def written(self, name: str, frame: pd.DataFrame | None) -> pd.DataFrame | None:
        """Keep ``frame``, which another module wrote as ``<out>/<name>``, to show it (nothing when None)."""
        _check_name(name, ".csv")
        if frame is not None:
            self.tables[name] = frame
        return frame

    def figure(self, name: str, fig) -> Path:
        """Write the matplotlib figure ``fig`` as ``<out>/<name>`` (a stamped PNG; ``name`` ends in ``.png``), close
        it and keep its path; return the path."""
        _check_name(name, ".png")
        path = save_figure(fig, self.out / name, self.stamp)
        self.figures[name] = path
        return path

    def note(self, name: str, text: str) -> str:
        """Keep the Markdown sentence(s) ``text`` as note ``name``; return it."""
        self.notes[name] = text
        return text


def _check_name(name: str, suffix: str) -> None:
    """Raise unless ``name`` is a plain file name ending in ``suffix`` (an output never leaves the output folder)."""
    if not name.endswith(suffix) or Path(name).name != name:
        raise ValueError(f"output name {name!r}: expected a file name ending in {suffix!r}")
