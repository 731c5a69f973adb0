"""Paper 000's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p000.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """Paper 000's one reading of Tables 1-3: a candidate of every axis of ``operating_point.CONVENTION_AXES``, in its
    order.

    ``operating_point.chosen_convention`` makes it from the search; ``operating_point.ledger_convention`` is the same
    with ``waiting`` = ``operating_point.LEDGER_WAITING``.
    """

    waiting: str  # "eq4" (Eq. (4) as printed) or "tabulated" (the law the tables follow), operating_point.WAITING_LAWS
    kilo: int  # bytes per KB of theta = 13.5 KB (units.DECIMAL or units.BINARY)
    n_mode: str  # "ceil": n = ceil(theta/mtu) whole packets are sent; "exact": theta/mtu
    log_mode: str  # slow-start windows "continuous" (002's "~") or "ceil" (whole windows)
    timeout: str  # time to detect a loss, one of model.TIMEOUTS
    setup_rtts: int  # connection set-up round trips added to E(T)
    final_chunk: str  # R sends "N" or "N+1" packets
    rounding: str  # print rounding of the tables ("half_up" or "truncate")


# --- operating points ---------------------------------------------------------------------
