"""Paper 001's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p001.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """One reading of the calibration line: the axes of ``operating_point.CONVENTION_AXES``, in their order."""

    y_unit_bps: float  # bit/s per unit of y
    link_bps: float  # the link the loads are shares of (bit/s)
    load_column: str  # "printed": Table 3's load labels; "text": the loads the text names
    browser_rounding: str  # how x becomes whole browsers: "half_up", "truncate" or "ceil"
    rounding: str  # the rounding rule the printed counts are compared under
