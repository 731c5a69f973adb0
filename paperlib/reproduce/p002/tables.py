"""Paper 002's Tables II and III: the printed rows, and the model rows regenerated beside them."""

from __future__ import annotations

import pandas as pd

from paperlib.data import Paper
from paperlib.reproduce.p002.operating_point import Convention, operating_points, regenerate

#: The printed rows of Tables II and III: label -> (protocol, kind).
ROWS = {
    "TCP (Model) (Sec)": ("tcp", "model"),
    "TCP (Experimental) (Sec)": ("tcp", "experiment"),
    "SCTP (Model) (Sec)": ("sctp", "model"),
    "SCTP (Experimental) (Sec)": ("sctp", "experiment"),
}

#: The ledger's source of each table.
SOURCES = {"table2": "Table II", "table3": "Table III"}


def regenerated_tables(paper: Paper, conv: Convention) -> dict[str, pd.DataFrame]:
    """Return Tables II and III as printed, with the regenerated model rows beside them."""
    points = operating_points(paper)
    r = regenerate(points, conv)
    out = {}
    for table in ("table2", "table3"):
        printed = paper.tables[table].cells.set_index("Protocol")
        sub = r[r["table"] == table].set_index("column")
        frame = printed.copy()
        frame.loc["TCP (Model, regenerated)"] = sub["tcp_s"].round(3).astype(str)
        frame.loc["SCTP (Model, regenerated)"] = sub["sctp_s"].round(3).astype(str)
        frame.loc["losses a per object"] = sub["losses"].astype(int).astype(str)
        out[table] = frame
    return out


def write_regenerated(regenerated: dict[str, pd.DataFrame], out) -> None:
    """Write each table of :func:`regenerated_tables` as ``<table>_regenerated.csv`` through ``out`` (the stage's
    :class:`paperlib.reproduction.Outputs`: atomically, and kept with the stage's other tables)."""
    for name, frame in regenerated.items():
        out.table(f"{name}_regenerated.csv", frame.reset_index())
