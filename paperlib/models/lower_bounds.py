"""Loss-free physical lower bounds on the published times, from brute-force schedules.

Every latency, response, waiting or turnaround time a paper prints must be at least what the same
bytes take over the same link, with the same round-trip time and initial window, when nothing is
lost. The bounds here come from explicit schedules (segment by segment, ACK by ACK in
:mod:`paperlib.models.slow_start_schedule`; user by user in
:func:`paperlib.models.multiuser_waiting.round_robin_schedule`), never from the model a paper is
tested with, so a published time below its bound is impossible as printed under the stated
parameters, whatever the model; a regenerated time below it is a bug (:func:`check_not_below`).

Where a paper leaves a parameter open, the bound takes the reading that gives the *smallest*
bound (the largest initial window, the shortest round trip, no transfer for an HTML page of
unstated size), so "below the bound" holds under every reading; callers say which reading.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models.multiuser_waiting import round_robin_schedule
from paperlib.models.slow_start_schedule import schedule_latency_s


class BoundViolation(ValueError):
    """A regenerated time below its loss-free physical lower bound."""


def transfer_latency_lower_bound_s(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, *, setup_rtts: float = 2):
    """Return the loss-free latency of one transfer (s): ``setup_rtts`` round trips, then slow start.

    Paper: 004 (Eq. (5)'s 2 T_r: handshake and request) and 002 (IT and the requests).

    Assumes: no loss, no delayed ACK, the window grows by one segment per ACK from
    ``initial_window`` segments with no ssthresh (the fastest slow start), one connection; the
    last bit's one-way trip is the second half of the request's round trip (already counted).
    Vectorised over ``rate_bps`` and ``rtt_s`` by a loop over the schedule (plain Python inside).

    Parameters
    ----------
    obj_bits : bits to transfer
    mtu_bits : segment size (bits)
    rate_bps : link rate (bit/s)
    rtt_s : round-trip time excluding transmission (s)
    initial_window : initial window (segments)
    setup_rtts : round trips before the first data segment can leave the server
    """
    rate, rtt = np.broadcast_arrays(np.asarray(rate_bps, dtype=float), np.asarray(rtt_s, dtype=float))
    out = np.array([schedule_latency_s(obj_bits, mtu_bits, r, t, initial_window, setup_rtts=setup_rtts)
                    for r, t in zip(rate.ravel(), rtt.ravel(), strict=True)])
    return out.reshape(rate.shape) if rate.ndim else float(out[0])


def page_response_lower_bound_s(objects, obj_bits, mtu_bits, rate_bps, rtt_s, initial_window):
    """Return the loss-free response time of an HTML page with ``objects`` embedded objects (s).

    Paper: 002, Table I (IT = "initial connection setup and HTML transfer time", then the M
    objects).

    Assumes: one connection (or association) for everything; set-up 1 round trip; the HTML
    request/response 1 round trip with an empty page (its size is never given); the request of
    the objects 1 round trip; then all ``objects`` objects back to back in one loss-free slow
    start (full pipelining: any other order takes at least as long). Hence 3 round trips plus the
    schedule of ``objects x obj_bits``.
    """
    k = int(validate.positive_integer("objects", objects))
    return transfer_latency_lower_bound_s(k * float(obj_bits), mtu_bits, rate_bps, rtt_s, initial_window,
                                          setup_rtts=3)


def mean_waiting_lower_bound_s(m, obj_bits, rate_bps):
    """Return the least mean waiting time of m users, each fetching one object over a shared link (s).

    Paper: 000, section 3 (waiting time = time the link spends on other users' packets before
    a user's last packet; Eqs. (3)-(4)).

    Assumes: all m users ask at time 0, no loss, the link carries only their objects. Whatever
    the order of service, the k-th user to finish has had the link spend at least (k-1) whole
    objects on others first, so the mean is at least (m-1)/2 x theta/mu; the schedule that
    attains it serves the objects one after another, which is :func:`round_robin_schedule` with
    one "packet" per object of time theta/mu (the brute-force construction used here). The
    paper's packet round-robin (Fig. 2) waits about twice as long (:func:`round_robin_waiting_s`).

    Parameters
    ----------
    m : number of users (whole numbers >= 1; array)
    obj_bits : object size theta (bits)
    rate_bps : link rate mu (bit/s; broadcast against m)
    """
    ms, rate = np.broadcast_arrays(validate.positive_integer("m", m), validate.positive("rate_bps", rate_bps))
    obj = float(validate.positive("obj_bits", obj_bits))
    out = np.array([round_robin_schedule(int(k), obj / r, 1)["waiting_time"].mean() for k, r in
                    zip(ms.ravel(), rate.ravel(), strict=True)])
    return out.reshape(ms.shape) if ms.ndim else float(out[0])


def round_robin_waiting_s(m, obj_bits, mtu_bits, rate_bps) -> float:
    """Return the loss-free mean waiting time of m users under the paper's packet round-robin (s).

    Paper: 000, Fig. 2 (a_1 b_1 c_1 d_1 a_2 ...). Each packet takes its own transmission
    time (mtu/mu, the last one of an object shorter); no idle time. Shown beside the bound of
    :func:`mean_waiting_lower_bound_s`, which holds for any order of service.
    """
    k = int(validate.positive_integer("m", m))
    obj, mtu = float(validate.positive("obj_bits", obj_bits)), float(validate.positive("mtu_bits", mtu_bits))
    rate = float(validate.positive("rate_bps", rate_bps))
    n = int(np.ceil(obj / mtu - 1e-9))
    sizes = [mtu] * (n - 1) + [obj - (n - 1) * mtu]
    clock, finish = 0.0, [0.0] * k
    for size in sizes:
        for user in range(k):
            clock += size / rate
            finish[user] = clock
    own = obj / rate
    return float(np.mean([f - own for f in finish]))


def check_not_below(values, bounds, what: str) -> None:
    """Raise :class:`BoundViolation` if any regenerated value is below its bound (relative slack 1e-9)."""
    v, b = np.broadcast_arrays(np.asarray(values, dtype=float), np.asarray(bounds, dtype=float))
    bad = np.flatnonzero(v < b * (1 - 1e-9))
    if bad.size:
        i = int(bad[0])
        raise BoundViolation(f"{what}: regenerated value {v.flat[i]:.6g} s is below its loss-free physical bound "
                             f"{b.flat[i]:.6g} s (cell {i}; {bad.size} cells in all): the model is wrong there")
