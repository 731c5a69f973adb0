"""Brute-force slow-start schedule: every segment and every ACK, one by one.

The check of paper 004's closed form (Eqs. (1)-(5)): the server sends
``ceil(L_obj/L_mtu)`` segments (the last one short) over a link of rate mu;
the congestion window starts at ``x`` segments and grows by one segment per
ACK (slow start, no ssthresh, no loss); the ACK of a segment reaches the
server T_r after the segment's last bit left it. A segment is sent when the
link is free and the window allows it. The latency counts ``setup_rtts``
round trips before the first segment (handshake and request) plus the time
until the last bit leaves the server; the last bit's one-way trip to the
client is the second half of the request/response round trip already counted.

Plain Python on purpose: it is the independent construction the vectorised
closed form is tested against, not a fast path.
"""

from __future__ import annotations

import math

from paperlib import validate

#: Most segments one schedule may hold: about 1.5 s and 100 MB of plain Python per schedule.
MAX_SEGMENTS = 1_000_000
#: Smallest segment: one byte (bits). A smaller "segment" has no physical meaning.
MIN_SEGMENT_BITS = 8.0


def segment_count(obj_bits: float, mtu_bits: float) -> int:
    """Return ``ceil(L_obj/L_mtu)``, the segments of the schedule; raise if a segment is under a byte
    or the schedule would exceed :data:`MAX_SEGMENTS` (checked before any list is built)."""
    obj = float(validate.positive("obj_bits", obj_bits))
    mtu = float(validate.positive("mtu_bits", mtu_bits))
    if mtu < MIN_SEGMENT_BITS:
        raise validate.ParameterError(f"mtu_bits must be at least one byte ({MIN_SEGMENT_BITS:g} bits), got {mtu!r}")
    validate.at_most("obj_bits", "the schedule's segment count L_obj/L_mtu", obj / mtu, MAX_SEGMENTS,
                     "a larger object or a smaller segment")
    return math.ceil(obj / mtu - 1e-12)


def segment_send_times(obj_bits: float, mtu_bits: float, rate_bps: float, rtt_s: float, initial_window: int):
    """Return ``(start, finish)`` lists: when each segment starts and ends leaving the server (s)."""
    obj = float(validate.positive("obj_bits", obj_bits))
    mtu = float(validate.positive("mtu_bits", mtu_bits))
    rate = float(validate.positive_or_inf("rate_bps", rate_bps))
    rtt = float(validate.non_negative("rtt_s", rtt_s))
    x = int(validate.positive_integer("initial_window", initial_window))
    n = segment_count(obj, mtu)
    sizes = [mtu] * (n - 1) + [obj - (n - 1) * mtu]
    start: list[float] = []
    finish: list[float] = []
    link_free = 0.0
    for j in range(n):
        # After a ACKs the window is x + a, so segment j (0-based) may go once
        # j < acked + window = x + 2a, i.e. after ACK number floor((j - x)/2) (0-based).
        if j < x:
            released = 0.0
        else:
            released = finish[(j - x) // 2] + rtt
        t = max(link_free, released)
        start.append(t)
        link_free = t + sizes[j] / rate
        finish.append(link_free)
    return start, finish


def schedule_latency_s(
    obj_bits: float,
    mtu_bits: float,
    rate_bps: float,
    rtt_s: float,
    initial_window: int,
    *,
    setup_rtts: float = 2,
) -> float:
    """Return the transfer latency of one object by explicit segment/ACK schedule (s)."""
    _, finish = segment_send_times(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
    return setup_rtts * float(rtt_s) + finish[-1]


def schedule_stalls(obj_bits: float, mtu_bits: float, rate_bps: float, rtt_s: float, initial_window: int) -> int:
    """Return how many times the link goes idle during the transfer (the closed form's gamma)."""
    start, finish = segment_send_times(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
    scale = max(finish[-1], 1e-300)
    return sum(1 for j in range(1, len(start)) if start[j] - finish[j - 1] > 1e-12 * scale)
