"""Paper 000's mean difference ratio DIFF_mean (Eq. (9)) under the printed and the plausible definitions.

:func:`diff_mean` evaluates every definition of :data:`DIFF_DEFINITIONS` on four columns;
:func:`diff_mean_table` on the published tables (as printed and corrected) and on the regenerated W,
:func:`diff_mean_by_table` table by table; :func:`published_pairs` gives the four published columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.reproduce.p000.operating_point import (
    MODEL_COLUMNS,
    PROTOCOL_OF,
    SOURCES,
    TABLES,
    Convention,
    printed_cells,
)
from paperlib.reproduce.p000.tables import regenerate

#: Definitions of the mean difference ratio; the first is Eq. (9) as printed.
DIFF_DEFINITIONS = (
    "Eq. (9) as printed: sum_rows [(Ws-Ts)/Ws + (Wt-Tt)/Wt] / n",
    "signed, mean of the 2n terms",
    "absolute, per row: sum_rows [|Ws-Ts|/Ws + |Wt-Tt|/Wt] / n",
    "absolute, mean of the 2n terms",
    "absolute, experiment as reference: mean |W-T|/T",
)
#: The definition the claims are judged by: "differences ... below about 4% on average" is an
#: average size of the difference, so absolute; Eq. (9)'s W reference and one term per pair.
PRIMARY_DIFF = DIFF_DEFINITIONS[3]


def diff_mean(ws, ts, wt, tt) -> dict[str, float]:
    """Return DIFF_mean (%) under each definition of :data:`DIFF_DEFINITIONS`.

    Paper: 000, Eq. (9): DIFF = sum_{i=1}^{n} [(Ws - Ts)/Ws + (Wt - Tt)/Wt] / n x 100, n rows.
    Printed, the sum of two ratios per row divided by the number of rows is up to twice a mean
    ratio, and signed ratios of opposite sign cancel.
    """
    ws, ts, wt, tt = (np.asarray(v, dtype=float) for v in (ws, ts, wt, tt))
    a, b = (ws - ts) / ws, (wt - tt) / wt
    n = len(ws)
    return {
        DIFF_DEFINITIONS[0]: 100 * float((a + b).sum() / n),
        DIFF_DEFINITIONS[1]: 100 * float((a + b).sum() / (2 * n)),
        DIFF_DEFINITIONS[2]: 100 * float((np.abs(a) + np.abs(b)).sum() / n),
        DIFF_DEFINITIONS[3]: 100 * float((np.abs(a) + np.abs(b)).sum() / (2 * n)),
        DIFF_DEFINITIONS[4]: 100 * float(np.mean(np.concatenate([np.abs(ws - ts) / ts, np.abs(wt - tt) / tt]))),
    }


def published_columns(paper: Paper, corrected: bool, tables=TABLES) -> dict[str, np.ndarray]:
    """Return the four published columns (W_sctp, T_sctp, W_tcp, T_tcp) of ``tables``, row by row.

    ``corrected``: the cells as read after the corrections (3.27 read as 3.67), else as printed.
    """
    cells = [c for c in printed_cells(paper) if c.table in tables]
    return {col: np.array([float(c.compare_as if corrected else c.published) for c in cells if c.column == col])
            for col in PROTOCOL_OF}


def published_pairs(paper: Paper, corrected: bool = True) -> tuple[np.ndarray, ...]:
    """Return the published (W_sctp, T_sctp, W_tcp, T_tcp) of Tables 1-3 (36 rows each)."""
    cols = published_columns(paper, corrected)
    return cols["W_{sctp}"], cols["T_{sctp}"], cols["W_{tcp}"], cols["T_{tcp}"]


def diff_mean_table(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return DIFF_mean (%) over Tables 1-3 by each definition, for the published W and for the regenerated W.

    The published W as printed and corrected (3.27 read as 3.67), always against the published T.
    """
    printed = published_columns(paper, corrected=False)
    fixed = published_columns(paper, corrected=True)
    regen = regenerate(paper, conv)
    rw = {c: regen[regen["column"] == c]["regenerated"].to_numpy() for c in MODEL_COLUMNS}
    cols = {
        "published W vs T (as printed)": diff_mean(printed["W_{sctp}"], printed["T_{sctp}"], printed["W_{tcp}"],
                                                   printed["T_{tcp}"]),
        "published W vs T (3.27 read as 3.67)": diff_mean(fixed["W_{sctp}"], fixed["T_{sctp}"], fixed["W_{tcp}"],
                                                          fixed["T_{tcp}"]),
        "regenerated W vs published T": diff_mean(rw["W_{sctp}"], printed["T_{sctp}"], rw["W_{tcp}"],
                                                  printed["T_{tcp}"]),
    }
    frame = pd.DataFrame(cols)
    frame.index.name = "definition"
    return frame.reset_index()


def diff_mean_by_table(paper: Paper) -> pd.DataFrame:
    """Return DIFF_mean (%) of the published tables (as printed) table by table, by each definition."""
    rows = {}
    for table in TABLES:
        cols = published_columns(paper, corrected=False, tables=(table,))
        rows[SOURCES[table]] = diff_mean(cols["W_{sctp}"], cols["T_{sctp}"], cols["W_{tcp}"], cols["T_{tcp}"])
    frame = pd.DataFrame(rows)
    frame.index.name = "definition"
    return frame.reset_index()
