"""Paper 002's ``Convention``: the type of one reading of the paper, in a module that imports nothing of its package.

The search and the choice of the reading are in :mod:`paperlib.reproduce.p002.operating_point` (which re-exports
the type); the modules it imports take the type from here, so the package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import conventions


@dataclass(frozen=True)
class Convention(conventions.Convention):
    """Paper 002's one reading of Tables II-III: one field per axis of ``operating_point.CONVENTION_AXES``, in its
    order.

    ``kilo`` (bytes per KB), ``log_mode``, ``sctp_total``, ``pipeline_depth`` (PI), ``it_rtts`` (IT in round
    trips), ``final_chunk``, ``a_mode``, ``n_mode``, ``post_loss_slow_start`` and ``rounding`` (of the print);
    the model's switches among them reach the model through :mod:`paperlib.reproduce.p002.model_reading`.
    """

    kilo: int
    log_mode: str
    sctp_total: str
    pipeline_depth: int
    it_rtts: int
    final_chunk: str
    a_mode: str
    n_mode: str
    post_loss_slow_start: bool
    rounding: str
