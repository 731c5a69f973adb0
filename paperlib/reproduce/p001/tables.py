"""Paper 001's Table 3 regenerated from the published calibration line y = 2.9327 x - 125.0857.

The paper fits throughput y against the number of browsers x (SigmaPlot) and inverts the line
for the loads of its experiments (Table 3). :func:`table3` inverts it under one reading of the
line's units and rounding; which reading reproduces the printed counts is the search of
:mod:`~paperlib.reproduce.p001.operating_point` (its ``Convention``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import units, validate
from paperlib.data import Paper
from paperlib.reproduce.p001.convention import Convention


def browsers_for_throughput(y, slope: float, intercept: float) -> np.ndarray:
    """Return x of the calibration line y = slope x + intercept for throughput(s) ``y`` (line inverted)."""
    y = np.asarray(y, dtype=float)
    if slope == 0:
        raise validate.ParameterError("slope must not be 0: the line cannot be inverted")
    return (y - intercept) / slope


def _whole(x: np.ndarray, rule: str) -> np.ndarray:
    if rule == "half_up":
        return np.floor(x + 0.5)
    if rule == "truncate":
        return np.trunc(x)
    return np.ceil(x)


def loads(paper: Paper, load_column: str) -> np.ndarray:
    """Return the three loads (fractions): as printed in Table 3, or as the text names them (80, 90, 98 %)."""
    if load_column == "printed":
        return np.array([units.parse_quantity(c).to_si() for c in paper.tables["table3"].cells["Traffic Load"]])
    return np.array([paper.text_value(k).to_si() for k in ("load_80", "load_90", "load_98")])


def table3(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return Table 3 regenerated under ``conv``: load, target throughput in y units, x, browsers."""
    slope = paper.text_value("calib_slope").value
    intercept = paper.text_value("calib_intercept").value
    load = loads(paper, conv.load_column)
    y = load * conv.link_bps / conv.y_unit_bps
    x = browsers_for_throughput(y, slope, intercept)
    return pd.DataFrame({"load": load, "y": y, "x": x, "browsers": _whole(x, conv.browser_rounding)})


def table3_beside_printed(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return :func:`table3` under ``conv`` with the printed counts (``published``) and load labels beside it."""
    printed = paper.tables["table3"].cells
    return table3(paper, conv).assign(published=printed["The Number of Browsers"].astype(int).to_numpy(),
                                      printed_load=printed["Traffic Load"].to_numpy())


def tables123(paper: Paper) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Return the published Tables 1 (RED parameters), 2 (pair latencies) and 3 (browser counts) as printed."""
    return tuple(paper.tables[k].cells for k in ("table1", "table2", "table3"))


def queue_configuration_table(qconf: dict[str, dict]) -> pd.DataFrame:
    """Return the queue configurations (Table 1 on ns-3's RED, and FIFO) one per row, with ns-3's ``LInterm``.

    ``qconf`` is :func:`paperlib.reproduce.p001.testbed.queue_configs`; ``LInterm (1/max_p)`` is
    ns-3's name for the inverse of Table 1's ``max``.
    """
    table = pd.DataFrame(qconf).T.rename_axis("configuration")
    if "red_max_p" in table:
        table["LInterm (1/max_p)"] = 1 / table["red_max_p"].astype(float)
    return table
