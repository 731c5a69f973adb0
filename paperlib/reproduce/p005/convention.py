"""Paper 005's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p005.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """One reading of paper 005: the KB of the Almanac, its rounding, and the page model's fixed readings."""

    #: Bytes in the Almanac's KB: 1000 or 1024.
    kilo: int
    #: How the Almanac's KB were printed (:mod:`paperlib.rounding`).
    rounding: str
    #: Cost of a loss: ``"recovery"`` (``operating_point.FIXED_REASONS``).
    loss_cost: str
    #: Sending order of the objects' packets: ``"round_robin"``.
    order: str
    #: Losses of a page: ``"mean"`` (a = N p).
    a_mode: str

    def reading(self) -> dict[str, str]:
        """Return the page model's keywords (``loss_cost``, ``order``, ``a_mode``) of this reading."""
        return {"loss_cost": self.loss_cost, "order": self.order, "a_mode": self.a_mode}
