"""Paper 003's printed derived numbers regenerated: one table, each printed number beside its regenerated value.

The slides' numbers that follow from stated inputs are listed by
:func:`paperlib.reproduce.p003.derived.printed_cells` (text values, the modified table's class
probabilities, the results table's queue/F and efficiency columns); the queue and throughput columns
of the results table are measured in an ATM ABR simulation and are not regenerable (their ledger rows
say so, :mod:`paperlib.reproduce.p003.ledger_rows`).
"""

from __future__ import annotations

import pandas as pd

from paperlib import corrections
from paperlib.data import Paper
from paperlib.reproduce.p003.derived import derived_values, printed_cells
from paperlib.reproduce.p003.operating_point import Convention
from paperlib.reproduce.p003.workload import PAPER


def corrections_table() -> pd.DataFrame:
    """Return the corrections of paper 003's print (:mod:`paperlib.corrections`), one row each, all their fields."""
    return corrections.table(PAPER)


def derived_table(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return each printed derived number beside its regenerated value (columns number, row, printed, regenerated)."""
    values = derived_values(paper, conv)
    return pd.DataFrame(
        [{"number": c.column, "row": c.row, "printed": c.published, "regenerated": values[c.key]}
         for c in printed_cells(paper)]
    )
