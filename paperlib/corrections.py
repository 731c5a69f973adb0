"""Corrections of printed numbers: typos fixed in code, each with its reason.

Published data stays as printed in ``data/``. A correction names the printed
text, what it is read as, and why; the ledger row of every affected number
carries the reason, so a reader sees both the print and the correction. Each paper
keeps its own corrections in its package, ``paperlib.reproduce.p<id>.corrections``
(``CORRECTIONS``, a tuple of :class:`Correction`); this module finds them there.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Correction:
    """One printed cell or text value read differently from its print."""

    paper: str
    where: str  # e.g. "results.csv row 10, Efficiency" or "text_values avg_file_size"
    printed: str
    read_as: str
    reason: str

    def note(self) -> str:
        """Return the sentence the ledger's reason column carries."""
        return f"corrected: printed {self.printed!r} read as {self.read_as!r} ({self.reason})"


def for_paper(paper: str) -> list[Correction]:
    """Return every correction of ``paper``: its package's ``corrections.CORRECTIONS`` (none without that part)."""
    from paperlib import registry

    return list(registry.declared(paper, "CORRECTIONS", (), "corrections"))


def table(paper: str):
    """Return the corrections of ``paper`` as a table, one row each, all their fields (a notebook shows it)."""
    import pandas as pd

    return pd.DataFrame([c.__dict__ for c in for_paper(paper)], columns=[f.name for f in fields(Correction)])


def correction(paper: str, where: str) -> Correction | None:
    """Return the correction of ``where`` in ``paper``, if there is one."""
    for c in for_paper(paper):
        if c.where == where:
            return c
    return None


def all_corrections() -> tuple[Correction, ...]:
    """Return the corrections of every registered paper, in paper order (:data:`paperlib.data.PAPERS`)."""
    from paperlib.data import PAPERS

    return tuple(c for paper in PAPERS for c in for_paper(paper))


def __getattr__(name: str):
    """Return :func:`all_corrections` for the deprecated module attribute ``CORRECTIONS`` (kept for one release)."""
    if name == "CORRECTIONS":
        return all_corrections()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
