"""Transfer time of one object and of a multi-object page over today's transports, with losses.

Paper: 005, built from the equations of papers 000, 002 and 004 (``docs/reconstruction-005.md`` Sec. 2 and 4): paper
004's slow-start latency for any initial window (:mod:`paperlib.models.slow_start_latency`, Eqs.
(1)-(5)), paper 002's per-loss terms (:mod:`paperlib.models.http_response_time`: TOdetect and the
retransmitted packet of Eq. (12), HOB of Eq. (11), a = Np losses) and paper 000's packet round-robin
among objects (:mod:`paperlib.models.multiuser_waiting`, Fig. 2 and Eqs. (3)-(6)), with the handshake
of each stack from :mod:`paperlib.models.handshake`.

**One object** (:func:`object_latency_s`): paper 004's Eq. (5) with the stack's set-up,
setup_rtts = h + 1 (h round trips of handshake before the request, one for the request/response):
LT = (h + 1) T_r + L_obj/mu + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu. Nothing is
re-implemented: it is :func:`slow_start_latency.transfer_latency_s` with that ``setup_rtts``.

**A page** of objects i = 1..M (sizes O_i) on one connection with one congestion window (HTTP/2 over
TCP, HTTP/3 over QUIC and SCTP streams alike), all requested at once:

* n_i = ceil(O_i / MSS) packets per object (paper 000, Algorithm 1 line 02), N = sum n_i, every
  packet full-sized.
* The objects' packets leave in ``order``: ``"round_robin"`` (paper 000, Fig. 2: one packet of every
  unfinished object per round, in request order; HTTP/2 and HTTP/3 with equal priorities) or
  ``"sequential"`` (object after object, the papers' pipelined HTTP/1.1). c_i is the position of
  object i's last packet: round robin c_i = sum_j min(n_j, n_i - 1) + #{j <= i : n_j >= n_i}
  (equal n_i = n gives c_i = (n - 1) M + i, Fig. 2), sequential c_i = n_1 + ... + n_i
  (:func:`last_packet_positions`).
* Loss-free, object i is complete when its last packet is: the latency of the first c_i packets,
  paper 004's Eq. (5) for c_i MSS bits (the slow-start schedule of a prefix is the prefix of the
  schedule): L(c_i) = :func:`object_latency_s` (c_i MSS). With equal sizes and round robin, the mean
  of c_i over the objects is paper 000's Eq. (6) mean turnaround in packets, (2 M n - M + 1)/2.
* Losses: a losses among the page's N packets, at positions uniform over the packets (independent
  losses given their number). ``a_mode="mean"`` (default) takes a = N p, the binomial mean (paper
  002's "a = Np"); ``"ceil"`` takes paper 000's alpha = ceil(N p). Every term below is linear in the
  number of losses, so with ``"mean"`` the result is the exact expectation over independent
  (Bernoulli) losses of probability p, which is why it is the default: the papers round a up because
  their per-loss loop needs a whole number of passes; this closed form does not.
* Each loss costs two terms, read two ways (``loss_cost``):

  - ``"printed"`` (paper 002 as printed): every packet sent after the loss leaves later by
    TOdetect + MSS/R, the detection time 1.5 T_r and the retransmitted packet of Eq. (12)
    (Tx = Sx + (x + 1) MSS/R + HOB + TOdetect: the "+1" is the retransmission); the objects the loss
    blocks wait HOB = (y - b) MSS/R more (Eq. (11) at the loss position x of Eq. (1),
    :func:`http_response_time.hob_time_s`; y - b = 1 in 002's continuous reading, so HOB = MSS/R).
  - ``"recovery"``: the sender keeps sending while it detects the loss (fast retransmit, no stall of
    its own); every later packet leaves MSS/R later (the retransmission takes the link), and the
    objects the loss blocks wait TOdetect = 1.5 T_r for the retransmission. The same two terms of
    Eq. (12), with the detection time moved from the sender to the blocked objects.

* Which objects a loss blocks (``blocking``): ``"shared"`` (one loss stalls every object: HTTP/2 over
  one TCP connection, the papers' pipelined TCP; in-order delivery holds every packet behind the lost
  one, so a loss at position j blocks every object with c_i >= j) or ``"independent"`` (HTTP/3 streams,
  SCTP streams: a loss blocks only the object it belongs to). In paper 002 this is the TCP - SCTP
  difference of Table I (SCTP = TCP minus tot_hob).

With a losses uniform over N positions, the expected number of losses at positions <= c_i is
a c_i / N and the expected number in object i's own packets a n_i / N. So the expected completion
time of object i is

    T_i = L(c_i) + (a c_i / N) D + (a B_i / N) H,    B_i = c_i (shared) or n_i (independent),

with the sender's delay and the blocked objects' hold (D, H) = (TOdetect + MSS/R, HOB) for
``"printed"`` and (MSS/R, TOdetect) for ``"recovery"``
(:func:`object_completion_s`). At p = 0 both readings are paper 004's latencies L(c_i); since
c_i >= n_i, ``"shared"`` is never faster than ``"independent"``.

Assumes: losses independent of the window (the window is the loss-free one: paper 002 after a fast
retransmit neither restarts slow start nor, with its threshold T = inf, enters congestion avoidance;
the model keeps 004's loss-free stalls rather than 002's SC(x1), which drops the stalls after the
first loss and makes 002 non-monotone in p); every loss recovered by one retransmission detected
after 1.5 T_r (no timeout); the per-loss delays add (as 002's OT and tot_hob add them); rtt is the
propagation round trip T_r without serialisation; no receiver-window limit; one connection.
:func:`mean_object_time_s` is the mean over the page's objects of T_i (the papers' mean response
time); :func:`last_object_time_s` is T_i of the object whose last packet leaves last (c_i = N): the
page load time in the ``"shared"`` reading (there every loss before an object's end delays it, so that
object finishes last in every draw of the losses), and a lower bound of the expected page load time in
the ``"independent"`` reading (another object may draw more losses and finish later).

SI inside: bits, seconds, bit/s. Every function broadcasts over rate x RTT x loss x initial window x
handshake (numpy broadcasting, no per-point loop) and puts the page's objects on a trailing axis.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import handshake, http_response_time, slow_start_latency

BLOCKINGS = ("shared", "independent")
LOSS_COSTS = ("printed", "recovery")
ORDERS = ("round_robin", "sequential")
A_MODES = ("mean", "ceil")
#: TOdetect in round trips: three duplicate ACKs (paper 002, Eqs. (12), (15)).
TODETECT_RTTS = http_response_time.TODETECT_RTTS


def object_latency_s(obj_bits, mss_bits, rate_bps, rtt_s, initial_window, handshake_rtts) -> np.ndarray:
    """Return one object's loss-free latency (s): the stack's handshake, the request, and paper 004's slow start.

    Paper: 004, Eq. (5) with setup_rtts = h + 1 (:func:`paperlib.models.slow_start_latency.transfer_latency_s`,
    its corrected form): (h + 1) T_r + L_obj/mu + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu.
    h from :func:`paperlib.models.handshake.handshake_rtts` (``handshake.setup_rtts`` is h + 1).

    Assumes: as 004's Eq. (5) (no loss, slow start from x segments without threshold, one ACK per
    segment, ``rtt_s`` without serialisation), and the handshake of ``data/005/handshake_rtts.csv``.

    Parameters
    ----------
    obj_bits : object size L_obj (bits)
    mss_bits : segment size L_mtu (bits)
    rate_bps : link rate mu (bit/s)
    rtt_s : round-trip time T_r (s)
    initial_window : initial window x (whole segments, e.g. :func:`handshake.initial_window_segments`)
    handshake_rtts : round trips before the first request byte, h (e.g. :func:`handshake.handshake_rtts`)
    """
    h = validate.non_negative("handshake_rtts", handshake_rtts)
    return slow_start_latency.transfer_latency_s(obj_bits, mss_bits, rate_bps, rtt_s, initial_window,
                                                 setup_rtts=h + handshake.REQUEST_RTTS)


def packets_per_object(page_bits, mss_bits) -> np.ndarray:
    """Return n_i = ceil(O_i / MSS), the whole packets of every object of the page (paper 000, Algorithm 1 line 02).

    Parameters
    ----------
    page_bits : the objects' sizes O_i (bits), a 1-D sequence
    mss_bits : segment size MSS (bits), one number
    """
    sizes = validate.positive("page_bits", page_bits)
    if sizes.ndim != 1:
        raise validate.ParameterError(f"page_bits must be a 1-D sequence of object sizes, got shape {sizes.shape}")
    mss = validate.scalar("mss_bits", mss_bits, validate.positive)
    return np.ceil(sizes / mss * (1 - 1e-12))  # an exact multiple is not rounded up by float noise


def last_packet_positions(packets, order: str = "round_robin") -> np.ndarray:
    """Return c_i, the position (1..N) of every object's last packet in the connection's sending order.

    Paper: 000, Fig. 2 (packet round-robin among the objects, in request order, a finished object
    skipped): c_i = sum_j min(n_j, n_i - 1) + #{j <= i : n_j >= n_i} (rounds 1..n_i - 1 of every
    object, then the objects up to i still sending in round n_i); equal n gives (n - 1) M + i.
    ``order="sequential"``: c_i = n_1 + ... + n_i.

    Parameters
    ----------
    packets : n_i, whole packets per object (1-D, from :func:`packets_per_object`)
    order : ``"round_robin"`` (default) or ``"sequential"``
    """
    validate.choice("order", order, ORDERS)
    n = validate.positive_integer("packets", packets)
    if n.ndim != 1:
        raise validate.ParameterError(f"packets must be 1-D, got shape {n.shape}")
    if order == "sequential":
        return np.cumsum(n)
    earlier_or_same = np.arange(n.size)[:, None] >= np.arange(n.size)[None, :]  # [i, j]: j <= i
    rounds_before = np.minimum(n[None, :], n[:, None] - 1).sum(axis=1)
    still_sending = ((n[None, :] >= n[:, None]) & earlier_or_same).sum(axis=1)
    return rounds_before + still_sending


def _losses(n_total: float, p: np.ndarray, a_mode: str) -> np.ndarray:
    """Return a, the page's losses: N p (``"mean"``) or ceil(N p) (``"ceil"``, paper 000's alpha)."""
    a = n_total * p
    return a if a_mode == "mean" else np.ceil(a * (1 - 1e-12))


def object_completion_s(
    page_bits,
    mss_bits,
    rate_bps,
    rtt_s,
    p,
    initial_window,
    handshake_rtts,
    *,
    blocking: str,
    loss_cost: str = "printed",
    order: str = "round_robin",
    a_mode: str = "mean",
) -> np.ndarray:
    """Return T_i, every object's expected completion time (s), on a trailing axis of the objects.

    Paper: 005's page model (module docstring): T_i = L(c_i) + (a c_i/N) D + (a B_i/N) H, with L paper
    004's Eq. (5) (:func:`object_latency_s` of the first c_i packets), c_i from paper 000's round robin
    (:func:`last_packet_positions`), a = N p (002) or ceil(N p) (000), (D, H) from paper 002's Eqs.
    (11)-(12) and B_i = c_i (``blocking="shared"``) or n_i (``"independent"``).

    Assumes: as the module docstring.

    Parameters
    ----------
    page_bits : the objects' sizes O_i (bits), 1-D, in request order (e.g. ``web_page.WebPage.object_bits``)
    mss_bits : segment size MSS (bits), one number
    rate_bps : link rate R (bit/s)
    rtt_s : round-trip time T_r (s), without serialisation
    p : packet loss probability in [0, 1)
    initial_window : initial window x (whole segments)
    handshake_rtts : round trips before the first request byte, h
    blocking : ``"shared"`` (one loss stalls every object not yet complete) or ``"independent"`` (only
        its own)
    loss_cost : ``"printed"`` (default: 002's TOdetect on the sender, HOB on the blocked objects) or
        ``"recovery"`` (the retransmission on the sender, TOdetect on the blocked objects)
    order : ``"round_robin"`` (default) or ``"sequential"``
    a_mode : ``"mean"`` (default, a = N p, the exact expectation) or ``"ceil"`` (a = ceil(N p))

    Returns
    -------
    An array of shape broadcast(rate, rtt, p, initial_window, handshake) + (M,).
    """
    validate.choice("blocking", blocking, BLOCKINGS)
    validate.choice("loss_cost", loss_cost, LOSS_COSTS)
    validate.choice("a_mode", a_mode, A_MODES)
    n = packets_per_object(page_bits, mss_bits)
    c = last_packet_positions(n, order)
    mss = float(np.asarray(mss_bits, dtype=float))
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    pp = validate.probability("p", p)
    x = validate.positive_integer("initial_window", initial_window)
    h = validate.non_negative("handshake_rtts", handshake_rtts)
    try:
        rate, rtt, pp, x, h = np.broadcast_arrays(rate, rtt, pp, x, h)
    except ValueError:
        raise validate.ParameterError("rate_bps, rtt_s, p, initial_window and handshake_rtts do not broadcast "
                                      "together") from None
    grid = (..., None)  # the objects' trailing axis
    loss_free = object_latency_s(c * mss, mss, rate[grid], rtt[grid], x[grid], h[grid])
    n_total = float(n.sum())
    losses_per_packet = _losses(n_total, pp, a_mode) / n_total  # a / N
    segment_s = mss / rate  # MSS/R
    todetect_s = TODETECT_RTTS * rtt
    if loss_cost == "printed":
        # paper 002: HOB of Eq. (11) at the loss position x of Eq. (1); (y - b) MSS/R = MSS/R in its continuous reading
        hob_s = http_response_time.hob_time_s(http_response_time.expected_packets_before_loss(n_total, pp), mss, rate)
        delay_s, stall_s = todetect_s + segment_s, hob_s  # Eq. (12)'s TOdetect and retransmission on the sender
    else:
        delay_s, stall_s = segment_s, todetect_s
    blocked = c if blocking == "shared" else n
    return loss_free + losses_per_packet[grid] * (c * delay_s[grid] + blocked * stall_s[grid])


def mean_object_time_s(page_bits, mss_bits, rate_bps, rtt_s, p, initial_window, handshake_rtts,
                       **reading) -> np.ndarray:
    """Return the mean over the page's objects of their expected completion times (s).

    Paper: 005's page model; with equal objects, round robin and p = 0, the mean of c_i is paper 000's
    Eq. (6) mean turnaround (2 M n - M + 1)/2 packets. Arguments and keywords (``blocking``,
    ``loss_cost``, ``order``, ``a_mode``) as :func:`object_completion_s`; shape without the objects' axis.
    """
    times = object_completion_s(page_bits, mss_bits, rate_bps, rtt_s, p, initial_window, handshake_rtts, **reading)
    return times.mean(axis=-1)[()]


def last_object_time_s(page_bits, mss_bits, rate_bps, rtt_s, p, initial_window, handshake_rtts,
                       **reading) -> np.ndarray:
    """Return the expected completion time (s) of the object whose last packet leaves last (c_i = N).

    Paper: 005's page model. The page load time in the ``"shared"`` reading; a lower bound of the
    expected page load time in the ``"independent"`` one (module docstring). Arguments and keywords as
    :func:`object_completion_s`.
    """
    order = reading.get("order", "round_robin")
    last = int(np.argmax(last_packet_positions(packets_per_object(page_bits, mss_bits), order)))
    times = object_completion_s(page_bits, mss_bits, rate_bps, rtt_s, p, initial_window, handshake_rtts, **reading)
    return times[..., last][()]
