"""Paper 003's conventions: the open readings of the slides, the systematic search, and the one it chose.

The slides state their inputs (:func:`paperlib.reproduce.p003.derived.inputs`) but not the conventions
the derived numbers follow. :data:`CONVENTION_AXES` lists them (candidates in order of a-priori
plausibility): the base of kB in the class tables and in the printed averages, what a MB is, the
within-class distribution, files per batch of the original workload, the ATM header stack, the line
framing behind "78%", the rate the feedback delay F is counted at in cells, intermediate rounding and the
print rounding. :func:`convention_search` scores every combination on every printed derived number
(:func:`paperlib.reproduce.p003.derived.printed_cells`); :func:`chosen_convention` picks one by the rule of
:mod:`paperlib.conventions`, and that one :class:`Convention` is used for every row of the paper.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import conventions, units
from paperlib.data import Paper
from paperlib.models import atm_overhead
from paperlib.models.specweb96 import WITHIN_CLASS
from paperlib.reproduce.p003.convention import Convention
from paperlib.reproduce.p003.derived import F_LINE_RATES, derived_values, inputs, printed_cells
from paperlib.reproduce.p003.workload import Workloads, conv_workloads, workload_keys

#: The open conventions, candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    "size_kilo": [units.DECIMAL, units.BINARY],  # bytes in a kB of the class tables
    "mega": ["kilo*kilo", "1000 kB"],  # a MB of the class tables: kilo^2 bytes, or 1000 of its kB
    "report_kilo": [units.DECIMAL, units.BINARY],  # kB / kb of the printed averages
    "within_class": list(WITHIN_CLASS),
    "files_per_batch": [5, 1],  # files per user per inter-batch time, original workload
    "header_stack": list(atm_overhead.HEADER_STACKS),
    "framing": list(atm_overhead.FRAMINGS),  # physical framing behind "78% of link rate"
    "f_line_rate": list(F_LINE_RATES),  # the rate the feedback delay F is counted in cells at
    "round_intermediate": [False, True],  # 78% rounded before "x 45 Mbps" and before the efficiency column
    "rounding": ["half_up", "truncate"],
}


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return every combination of conventions scored on every printed derived number, best first."""
    cells = printed_cells(paper)
    given = inputs(paper)
    memo: dict[tuple, Workloads] = {}

    def regenerate(**switches):
        """Return the printed cells' regenerated values under ``switches`` (workloads memoised by their conventions)."""
        conv = Convention.from_choice(switches)
        key = tuple(workload_keys(conv).values())
        if key not in memo:
            memo[key] = conv_workloads(paper, conv)
        values = derived_values(paper, conv, given=given, workload_pair=memo[key])
        return np.array([values[c.key] for c in cells])

    results = conventions.search(CONVENTION_AXES, regenerate, [c.compare_as for c in cells])
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> Convention:
    """Return the one convention used for every derived number of paper 003 (``search``: a finished search)."""
    choice = conventions.choose(convention_search(paper) if search is None else search, CONVENTION_AXES)
    return Convention.from_choice(choice)
