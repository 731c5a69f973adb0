"""Paper 001's operating point: the one reading of the calibration line that reproduces Table 3.

The paper fits throughput y against the number of browsers x, y = 2.9327 x - 125.0857
(SigmaPlot), and inverts it for the loads of its experiments (Table 3). Neither the unit of
y nor the rounding is stated; :func:`convention_search` tries them systematically. What the
search shows (tests/test_reproduce_p001_operating_point.py): the printed browser counts follow
only if y is the load in kbit/s of a 10 Mbit/s link (or, equivalently, in units of 10 kbit/s at
100 Mbit/s), and the third row, printed "95%", is the 98% load of the text (95% would need 3281
browsers, x = 3281.99 truncated), and x was truncated, not rounded (2770.51 prints as 2770).

The simulated testbed's operating point (profiles, loads, latency reading, workload) is
:mod:`~paperlib.reproduce.p001.testbed`'s.
"""

from __future__ import annotations

import pandas as pd

from paperlib import conventions
from paperlib.data import Paper
from paperlib.reproduce.p001 import tables
from paperlib.reproduce.p001.convention import Convention

#: What y of the calibration line may be measured in (bit/s per unit), and the link the
#: loads are shares of (bit/s), candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    "y_unit_bps": [1e6, 1e3, 1.0, 1e4],  # Mbit/s, kbit/s, bit/s, 10 kbit/s
    "link_bps": [100e6, 10e6],  # the 100 Mbit/s of the text, or a tenth of it
    "load_column": ["printed", "text"],  # the third load as printed (95%) or as the text says (98%)
    "browser_rounding": ["half_up", "truncate", "ceil"],
    "rounding": ["half_up"],  # the printed counts are whole numbers: compared exactly
}


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return every reading of the line's units and rounding scored on Table 3's three counts, best first."""
    printed = list(paper.tables["table3"].cells["The Number of Browsers"])
    results = conventions.search(
        CONVENTION_AXES, lambda **choice: tables.table3(paper, Convention(**choice))["browsers"].to_numpy(), printed)
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> Convention:
    """Return the reading of the line that reproduces Table 3 (the search's best, by the project rule).

    ``search`` is :func:`convention_search`'s frame when the caller has it (``None``: searched here).
    """
    search = convention_search(paper) if search is None else search
    return Convention.from_choice(conventions.choose(search, CONVENTION_AXES))
