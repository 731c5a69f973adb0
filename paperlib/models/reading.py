"""How the per-object loss algorithm of papers 002 and 000 is read where the extraction lost it.

Paper: 002, "ALGORITHM FOR OBJECT TRANSFER TIME" and Table I; paper 000, Eq. (2) and
Algorithm 1 (its narrowband rewrite). Both models (:mod:`paperlib.models.http_response_time`,
:mod:`paperlib.models.narrowband_response`) take one :class:`ModelReading` instead of a list of
keyword switches; :data:`READING_002` and :data:`READING_000` are each paper's documented
defaults. The switches and what each value means:

* ``log_mode``: ``"continuous"`` (log2, the "~" of 002's Eq. (5), Cardwell) or ``"ceil"``
  (ceil(log2), whole Kurose-Ross windows) for the number of slow-start windows.
* ``a_mode``: the expected losses a = N p made whole, ``"ceil"`` (000's alpha = ceil(np)) or
  ``"round"`` (half up).
* ``n_mode``: N = O/MSS ``"exact"`` (002, unrounded) or ``"ceil"`` (000's whole packets).
* ``final_chunk``: the last step's packets. Paper 002 writes ``"x+1"`` ((x + 1) MSS/R with x = N,
  as printed) or ``"N"``; paper 000 writes ``"N"`` (R sends N(alpha+1) packets) or ``"N+1"``
  (002's last step). Each model accepts its own paper's two names.
* ``hob_in_ca``: 002 only; ``"computed"`` (a first loss in congestion avoidance adds HOB) or
  ``"zero"`` (Eq. (15) as printed). Paper 000 has no HOB and ignores it.
* ``post_loss_slow_start``: a new slow start after every loss (000's timeouts) or not (002's fast
  retransmit).
* ``initial_threshold``: the initial slow-start threshold T in packets (``inf`` in both papers;
  002's grid may override it per point). Paper 000 fixes th(1) = inf and refuses any other value.
* ``sctp_total``: 002's Table I SCTP row, ``"times_M"`` (IT + M (RTT + OT - tot_hob)) or
  ``"printed"`` (IT + RTT + OT - tot_hob). Paper 000 ignores it.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from paperlib import validate

LOG_MODES = ("continuous", "ceil")
A_MODES = ("ceil", "round")
N_MODES = ("exact", "ceil")
#: Every name of the last step's size: 002's ("x+1", "N") and 000's ("N", "N+1").
FINAL_CHUNKS = ("x+1", "N", "N+1")
HOB_IN_CA = ("computed", "zero")
SCTP_TOTALS = ("times_M", "printed")


@dataclass(frozen=True)
class ModelReading:
    """One reading of the 002/000 per-object algorithm: the switches the extraction left open.

    Paper: 002, algorithm and Table I; paper 000, Eq. (2) (module docstring: every switch).
    Validated on construction; a bad value raises :class:`paperlib.validate.ParameterError`
    naming the switch. ``dataclasses.replace(reading, a_mode="round")`` or
    :meth:`with_changes` gives a variant (validated again).
    """

    log_mode: str = "continuous"
    a_mode: str = "ceil"
    n_mode: str = "exact"
    final_chunk: str = "x+1"
    hob_in_ca: str = "computed"
    post_loss_slow_start: bool = False
    initial_threshold: float = math.inf
    sctp_total: str = "times_M"

    def __post_init__(self):
        validate.choice("log_mode", self.log_mode, LOG_MODES)
        validate.choice("a_mode", self.a_mode, A_MODES)
        validate.choice("n_mode", self.n_mode, N_MODES)
        validate.choice("final_chunk", self.final_chunk, FINAL_CHUNKS)
        validate.choice("hob_in_ca", self.hob_in_ca, HOB_IN_CA)
        validate.choice("sctp_total", self.sctp_total, SCTP_TOTALS)
        object.__setattr__(self, "post_loss_slow_start", validate.flag("post_loss_slow_start",
                                                                       self.post_loss_slow_start))
        threshold = validate.scalar("initial_threshold", self.initial_threshold, validate.positive_or_inf)
        object.__setattr__(self, "initial_threshold", threshold)

    def with_changes(self, **changes) -> ModelReading:
        """Return this reading with some switches changed (an unknown name raises, naming it)."""
        unknown = sorted(set(changes) - set(SWITCHES))
        if unknown:
            raise validate.ParameterError(f"unknown model switch(es) {unknown}; the switches are {list(SWITCHES)}")
        return dataclasses.replace(self, **changes)

    def with_conventions(self, conventions) -> ModelReading:
        """Return this reading with every switch that ``conventions`` names taken from it.

        ``conventions`` is a mapping or a paper's :class:`paperlib.conventions.Convention` (read through its
        ``as_dict()``). Other names (a paper's ``kilo``, ``it_rtts``, ...) are not switches and are left alone.
        """
        named = conventions.as_dict() if hasattr(conventions, "as_dict") else conventions
        return self.with_changes(**{k: named[k] for k in SWITCHES if k in named})

    def require_final_chunk(self, allowed: tuple[str, ...], paper: str) -> None:
        """Raise naming ``final_chunk`` unless it is one of ``allowed`` (the names ``paper`` uses)."""
        if self.final_chunk not in allowed:
            raise validate.ParameterError(
                f"final_chunk must be one of {allowed!r} for {paper}'s model, got {self.final_chunk!r}")


#: The names of the switches, in field order.
SWITCHES = tuple(f.name for f in dataclasses.fields(ModelReading))

#: Paper 002's documented defaults (http_response_time).
READING_002 = ModelReading()
#: Paper 000's documented defaults (narrowband_response): whole packets, R sends N packets, a slow start
#: after every timeout.
READING_000 = ModelReading(n_mode="ceil", final_chunk="N", post_loss_slow_start=True)


def check(reading) -> ModelReading:
    """Return ``reading`` if it is a :class:`ModelReading`; raise naming the parameter otherwise."""
    if not isinstance(reading, ModelReading):
        raise validate.ParameterError(
            f"reading must be a paperlib.models.reading.ModelReading, got {type(reading).__name__} {reading!r:.80}")
    return reading


__all__ = ["ModelReading", "READING_000", "READING_002", "SWITCHES", "check"]
