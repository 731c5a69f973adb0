"""Paper 003's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p003.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """One reading of the slides, applied to every derived number of paper 003 (the axes of
    ``operating_point.CONVENTION_AXES``).

    ``str()`` prints it as the mapping of its switches, :meth:`describe` as the ledger reasons' ``key=value, ...``.
    """

    #: bytes in a kB of the class tables (1000 or 1024)
    size_kilo: int
    #: a MB of the class tables: ``"kilo*kilo"`` bytes, or ``"1000 kB"`` (1000 of its kB)
    mega: str
    #: bytes (bits) in a kB (kb) of the printed averages
    report_kilo: int
    #: the within-class distribution of the nine files (:data:`paperlib.models.specweb96.WITHIN_CLASS`)
    within_class: str
    #: files a user of the original workload fetches per inter-batch time
    files_per_batch: int
    #: the headers a TCP segment carries in its AAL5 frame (:data:`paperlib.models.atm_overhead.HEADER_STACKS`)
    header_stack: str
    #: the physical framing behind "78% of link rate" (:data:`paperlib.models.atm_overhead.FRAMINGS`)
    framing: str
    #: the line rate the feedback delay F is counted in cells at (a key of ``derived.F_LINE_RATES``)
    f_line_rate: str
    #: whether the 78% is rounded to a whole percent before it is multiplied out
    round_intermediate: bool
    #: the print rounding (:mod:`paperlib.rounding`)
    rounding: str
