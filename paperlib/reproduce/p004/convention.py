"""Paper 004's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p004.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """One reading of paper 004's Table II: a value of every axis of ``operating_point.CONVENTION_AXES``, in its
    order."""

    #: What the printed "T_r = 0.1 second" is: ``"printed_rtt"`` (the round trip) or ``"one_way_delay"``.
    rtt_meaning: str
    #: Bytes in the KB of the 50 KB object: 1000 or 1024.
    kilo: int
    #: Initial window x (segments).
    initial_window: int
    #: Closed form of Eqs. (5)/(6): ``"printed"`` (floor in gamma) or ``"corrected"``.
    form: str
    #: How the authors went from their value to two printed decimals (:mod:`paperlib.rounding`).
    rounding: str
    #: Objects in one transfer: 1 (one 50 KB object) or 5 (Table II's five objects sent as one).
    objects_per_transfer: int
