"""Seed 001 (Seok, FIFO vs RED web response time): Table 3 from the published calibration line.

The paper fits throughput y against the number of browsers x, y = 2.9327 x - 125.0857
(SigmaPlot), and inverts it for the loads of its experiments (Table 3). Neither the unit of
y nor the rounding is stated; :func:`table3_search` tries them systematically. What the
search shows (tests/test_p001.py): the printed browser counts follow only if y is the load
in kbit/s of a 10 Mbit/s link (or, equivalently, in units of 10 kbit/s at 100 Mbit/s), and
the third row, printed "95%", is the 98% load of the text (95% would need 3282 browsers),
and x was truncated, not rounded (2770.51 prints as 2770).

This module covers Table 3 only; the traffic model, the testbed simulation and the rest of
the paper are future work (issue: paper 001).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import conventions, units, validate
from paperlib.data import Paper

PAPER = "001"

#: What y of the calibration line may be measured in (bit/s per unit), and the link the
#: loads are shares of (bit/s), candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    "y_unit_bps": [1e6, 1e3, 1.0, 1e4],  # Mbit/s, kbit/s, bit/s, 10 kbit/s
    "link_bps": [100e6, 10e6],  # the 100 Mbit/s of the text, or a tenth of it
    "load_column": ["printed", "text"],  # the third load as printed (95%) or as the text says (98%)
    "browser_rounding": ["half_up", "truncate", "ceil"],
    "rounding": ["half_up"],  # the printed counts are whole numbers: compared exactly
}


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


def table3(paper: Paper, conv: dict) -> pd.DataFrame:
    """Return Table 3 regenerated under ``conv``: load, target throughput in y units, x, browsers."""
    slope = paper.text_value("calib_slope").value
    intercept = paper.text_value("calib_intercept").value
    load = loads(paper, conv["load_column"])
    y = load * conv["link_bps"] / conv["y_unit_bps"]
    x = browsers_for_throughput(y, slope, intercept)
    return pd.DataFrame({"load": load, "y": y, "x": x, "browsers": _whole(x, conv["browser_rounding"])})


def table3_search(paper: Paper) -> pd.DataFrame:
    """Return every reading of the line's units and rounding scored on Table 3's three counts, best first."""
    printed = list(paper.tables["table3"].cells["The Number of Browsers"])
    results = conventions.search(CONVENTION_AXES, lambda **c: table3(paper, c)["browsers"].to_numpy(), printed)
    return conventions.rank(results, CONVENTION_AXES)
