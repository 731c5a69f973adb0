"""Paper 000's Tables 1-3 regenerated: every printed model cell beside its regenerated W.

:func:`regenerate` scores the 72 printed model cells (W_sctp, W_tcp) under one convention;
:func:`regenerated_tables` lays the regenerated columns beside the printed tables;
:func:`error_summary` gives the relative error per printed block.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.ledger import classify
from paperlib.reproduce.p000.operating_point import (
    MODEL_COLUMNS,
    TABLES,
    Convention,
    label_column,
    model_cells,
    operating_points,
    regenerate_cells,
    response_times,
    web_object,
)


def printed(paper: Paper) -> dict[str, pd.DataFrame]:
    """Return Tables 1-3 as printed, by their source and title (``Table 1: ...``)."""
    return {f"{paper.tables[name].source}: {paper.tables[name].title}": paper.tables[name].cells for name in TABLES}


def regenerate(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return every printed model cell with its regenerated W (chosen law and Eq. (4)) and its status."""
    cells = model_cells(paper)
    rt = response_times(operating_points(paper), web_object(paper), conv)
    w = regenerate_cells(cells, rt, conv.waiting)
    eq4 = regenerate_cells(cells, rt, "eq4")
    tab = regenerate_cells(cells, rt, "tabulated")
    return pd.DataFrame({
        "table": [c.table for c in cells], "block": [c.label for c in cells], "m": [c.m for c in cells],
        "column": [c.column for c in cells], "published": [c.published for c in cells],
        "compare_as": [c.compare_as for c in cells], "regenerated": w, "W by Eq. (4)": eq4, "W tabulated law": tab,
        "rel_error": w / np.array([float(c.compare_as) for c in cells]) - 1,
        "status": [classify(v, c.compare_as, conv.rounding) for v, c in zip(w, cells, strict=True)],
    })


def regenerated_tables(paper: Paper, conv: Convention) -> dict[str, pd.DataFrame]:
    """Return Tables 1-3 as printed with the regenerated model columns beside them."""
    regen = regenerate(paper, conv)
    out = {}
    for table in TABLES:
        frame = paper.tables[table].cells.copy()
        col = label_column(paper, table)
        sub = regen[regen["table"] == table]
        for c in MODEL_COLUMNS:
            vals = sub[sub["column"] == c].set_index(["block", "m"])
            keys = list(zip(frame[col], frame["m"].astype(int), strict=True))
            frame[f"{c} regenerated"] = [round(float(vals.loc[k, "regenerated"]), 3) for k in keys]
            frame[f"{c} by Eq. (4)"] = [round(float(vals.loc[k, "W by Eq. (4)"]), 2) for k in keys]
        order = [col, "m", "W_{sctp}", "W_{sctp} regenerated", "W_{sctp} by Eq. (4)", "T_{sctp}",
                 "W_{tcp}", "W_{tcp} regenerated", "W_{tcp} by Eq. (4)", "T_{tcp}"]
        out[table] = frame[order]
    return out


def error_summary(regen: pd.DataFrame) -> pd.DataFrame:
    """Return, per table, block and model column of :func:`regenerate`, the mean relative error and the statuses."""
    return regen.groupby(["table", "block", "column"], sort=False).agg(
        mean_rel_error=("rel_error", "mean"), statuses=("status", lambda s: ", ".join(sorted(set(s)))))
