"""Mean response time of HTTP over TCP and over SCTP with multiple packet losses.

Paper: 002, Lee, Atiquzzaman & Sivagurunathan, "Mean response time
estimation for HTTP over SCTP in wireless environment", Section II (terminology,
model, "ALGORITHM FOR OBJECT TRANSFER TIME") and Table I. Most sub-equations were
lost in the extraction; the reconstruction below follows the research note
``research_002_000.md`` Sec. 1 (Kurose-Ross slow-start latency with w1 = 1 and
Cardwell-Savage-Anderson's E[d_ss] with gamma = 2, which the surviving glyphs,
the terminology list and the printed Table II support).

Notation (SI inside): O = ``obj_bits``, MSS = ``mss_bits``, R = ``rate_bps``,
RTT = ``rtt_s`` (the round-trip *delay*, without the transmission time MSS/R,
which is added separately), p = ``p`` in [0, 1), s = MSS/R (seconds per packet),
M = ``objects``, PI = ``pipeline_depth``. Sizes printed in KB are converted by the
caller (:mod:`paperlib.units`), which also decides whether a KB is 1000 or 1024
bytes: KB = 1000 is the convention that lands on Table II.

Reconstruction, equation by equation (numbering inferred from the text order):

* N = O/MSS packets (printed unrounded; ``n_mode="ceil"`` rounds up), and
  a = Np expected losses, made an integer by ``a_mode`` (default ceil, as the
  same author's paper 000 prints alpha = ceil(np); a = 0 when p = 0).
* Eq. (1): x = (1 - (1-p)^N)(1-p)/p + 1, the number of the packet at which the
  loss occurs (x - 1 packets precede it): Cardwell's E[d_ss] plus the lost
  packet, clipped at x <= N. :func:`expected_packets_before_loss`.
* Eqs. (2)-(4): SC(n) = P (RTT + s) - (2^P - 1) s, P = max(0, min(Q, K - 1)),
  Q = floor(log2(1 + RTT/s)) + 1, K = lg(n + 1): the Kurose-Ross idle time of
  slow start with w1 = 1 (Kurose-Ross latency minus 2 RTT and O/R, which the
  paper counts elsewhere). lg is log2 (``log_mode="continuous"``, the "~" of
  Eq. (5)) or ceil(log2) (``"ceil"``, Kurose-Ross's K exactly).
  :func:`slow_start_idle_time_s`, :func:`stall_bound`.
* Eqs. (5)-(6): K ~ log2(x + 1) and Sx = SC(x).
* Eq. (7): Ath = 2T - 1 packets sent until the window reaches the threshold T
  (1 + 2 + ... + T). :func:`packets_until_threshold`.
* Eqs. (8)-(10): C = lg(x + 1) the window holding packet x, y = 2^(C-1) its
  size, b = x - y the packets of window C sent before the lost one. Continuous:
  y = (x+1)/2 (Cardwell's E[W_ss]) and y - b = 1. :func:`loss_window`.
* Eq. (11) (printed): HOB = (y - b) MSS/R; continuous: HOB = MSS/R.
  :func:`hob_time_s`.
* Eq. (12) (printed): Tx = Sx + (x+1) s + HOB + TOdetect, TOdetect = 1.5 RTT
  (three duplicate ACKs); then N <- N - x + (y - b), T <- T/2 (and T <- y first
  if y > T).
* Eqs. (13)-(15) (loss in congestion avoidance, x + 1 > Ath): L = x - Ath,
  Sth = SC(Ath), TL = Sth + (x+1) s + L RTT + TOdetect (+ HOB by default, see
  ``hob_in_ca``: the algorithm adds HOB_i to tot_hob there without printing it
  in Eq. (15)); then N <- N - x + 1, T <- (T + L)/2.
* Algorithm steps (8)-(12), losses 2..a: TL = (x+1) s + L RTT + HOB + TOdetect,
  L = max(0, x - Ath) with the current threshold (no new slow start after a
  fast retransmit; ``post_loss_slow_start`` adds one); the last step i = a + 1 sends the
  rest, x = N, without HOB or TOdetect. :func:`object_transfer_time`.
* Table I: TCP = IT + RTT + OT if PI >= M, else IT + (M/PI)(RTT + OT); SCTP as
  printed IT + RTT + (OT - tot_hob), or (default) IT + M (RTT + OT - tot_hob).
  :func:`response_time_tcp_s`, :func:`response_time_sctp_s`.

One implementation: every sub-equation is one private array function (``_sc``, ``_xloss_grid``,
``_loss_window``, ...) and the algorithm's loop is :func:`_transfer_grid`, run over a whole grid by
:func:`response_times_grid` and on a grid of one point by :func:`object_transfer_time` (which also
records the trace) and the Table I functions; the public per-quantity functions call the same array
functions.

With the defaults and T = inf the loop collapses to a closed form (research
note 1.2 (f)): OT = SC(x1) + (N + 3a + 1) s + 1.5 a RTT and tot_hob = a s, so
TCP - SCTP = M a s under ``sctp_total="times_M"`` with PI = 1.

Parameters the paper never gives, and the values chosen:

* IT (connection set-up and HTML transfer): 2 RTT (one RTT for the handshake, one
  for the HTML request/response, the HTML transfer neglected; Kurose-Ross's
  "2 RTT for connection establishment and request"). Table II implies
  0.46-0.48 s at RTT = 0.256 s with KB = 1000. ``it_s`` overrides it.
* PI: 1. With PI >= M the TCP total is ~4.7 s per page, far below every printed
  value (14.9-25.8 s), which need ~M times the per-object time.
* Initial threshold T: infinite (paper 000, same author and model, sets
  th(1) = inf; the Linux 2.6 testbed starts with an effectively infinite
  ssthresh). Any T >= 16 gives the same result for the paper's 25-packet objects.
* KB: decided by the caller (see above); 1000 reproduces Table II.

Departures and known limits:

* L = max(0, x - Ath) in every phase. The printed Eq. (13) is used unclipped only
  where x + 1 > Ath, so x - Ath > -1; a negative packet count would subtract up
  to one RTT, which has no meaning; the research note clips it only after the
  first loss.
* At fixed a the model is flat in p except through SC(x1) (closed form above):
  p moves only x1, which cancels everywhere else. SC(x1) grows with x1 while
  P < Q, so raising p at fixed a can *lower* the response time; it rises only
  when a steps up (the tests pin a counterexample and the weaker invariant:
  non-decreasing in p whenever a(p) increases).
  The printed rise of 0.5 s between p = 0.4 % and 2 % (Table II) is not
  reproduced.
* With the continuous log, P = min(Q, log2(x+1) - 1) mixes an integer Q with a
  fractional P: when a faster link raises Q by one, SC jumps up by up to
  0.086 (RTT + MSS/R), so the response time is not monotone in the rate at
  those points (exact Kurose-Ross, ``log_mode="ceil"``, is continuous there).
  Between such points it is non-increasing in the rate; it is non-decreasing
  in RTT and in the object size.
* Switches other than the defaults lose more: with a finite initial threshold
  a loss can *shorten* the transfer (Eq. (15) charges one RTT per packet of the
  linear phase, and after the loss (T + L)/2 lifts the threshold above the
  remaining packets, which step (11) then sends at link rate); with
  ``log_mode="ceil"`` HOB and the resent y - b packets shrink as x grows inside
  a window, so a larger object can finish sooner.
* Table III (response time versus RTT) is not reproducible by any convention of
  the reconstruction; the model does not attempt to fit it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.models import blocks
from paperlib.models import reading as readings  # the module; ``reading`` names a ModelReading parameter here
from paperlib.models.reading import READING_002, ModelReading

LOG_MODES = readings.LOG_MODES
A_MODES = readings.A_MODES
N_MODES = readings.N_MODES
#: Paper 002's names of the last step's size (``ModelReading.final_chunk``).
FINAL_CHUNKS = ("x+1", "N")
HOB_IN_CA = readings.HOB_IN_CA
SCTP_TOTALS = readings.SCTP_TOTALS

#: TOdetect in round trips: three duplicate ACKs (Eqs. (12), (15)).
TODETECT_RTTS = 1.5
#: Round trips of IT when ``it_s`` is None: handshake plus HTML request/response.
DEFAULT_IT_RTTS = 2.0

# Shaved before ceil() and added before floor() of a log2 (as in slow_start_latency,
# so that log_mode="ceil" agrees with its closed form at exact powers of two).
_EPS = 1e-9
# Relative shave before ceil() of a count (N p, O/MSS) that should be an integer.
_REL = 1e-12
#: Most expected losses a = N p one object may have: the algorithm loops once per loss (pure Python,
#: a few microseconds each), so a larger a means an object size that is no web object.
MAX_LOSSES = 100_000


# --- array cores (no validation): the one implementation of each equation -----------------------
# Every quantity below is computed by these functions on NumPy arrays; a single point is an array of one
# element (object_transfer_time and the Table I functions call the grid on one point).


def _lg(v, log_mode: str):
    """Return lg(v): log2, or ceil(log2) with ``log_mode="ceil"`` (Eqs. (4), (5), (8))."""
    lg = np.log2(v)
    return np.ceil(lg - _EPS) if log_mode == "ceil" else lg


def _n_packets(obj, mss, n_mode: str):
    """Return N = O/MSS, whole packets with ``n_mode="ceil"`` (algorithm step (2))."""
    n = obj / mss
    return np.ceil(n * (1 - _REL)) if n_mode == "ceil" else n


def _losses(n, p, a_mode: str) -> np.ndarray:
    """Return a = Np made whole by ``a_mode`` (ceil, or half up), 0 where p = 0 (algorithm step (2))."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.ceil(n * p * (1 - _REL)) if a_mode == "ceil" else np.floor(n * p + 0.5)
    return np.where(p == 0, 0, a).astype(int)


def _counts_grid(obj, mss, p, n_mode: str, a_mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Return (N, a) of :func:`_n_packets` and :func:`_losses` (also paper 000's Algorithm 1, lines 02-03)."""
    n = _n_packets(obj, mss, n_mode)
    return n, _losses(n, p, a_mode)


def _stall_bound(s, rtt):
    """Return Q = floor(log2(1 + RTT/s)) + 1 (Eqs. (2)-(3)), s = MSS/R."""
    return np.floor(np.log2(1.0 + rtt / s) + _EPS) + 1.0


def _sc(n, s, rtt, q, log_mode: str):
    """Return SC(n) = P (RTT + s) - (2^P - 1) s, P = max(0, min(Q, lg(n + 1) - 1)); 0 where n <= 0 (Eqs. (2)-(4))."""
    with np.errstate(invalid="ignore"):
        big_p = np.maximum(0.0, np.minimum(q, _lg(n + 1.0, log_mode) - 1.0))
        return np.where(n <= 0, 0.0, big_p * (rtt + s) - (2.0**big_p - 1.0) * s)


def _xloss_grid(left: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Return x of Eq. (1) for the ``left`` packets still to send: N where p = 0, clipped at x <= N."""
    with np.errstate(divide="ignore", invalid="ignore"):
        # 1 - (1-p)^N without cancellation for tiny p
        lost_by_n = -np.expm1(left * np.log1p(-p))
        return np.where(p == 0, left, np.minimum(left, lost_by_n * (1.0 - p) / p + 1.0))


def _loss_window(x, log_mode: str):
    """Return (C, y, b) of Eqs. (8)-(10); continuous: C = log2(x+1), y = 2^(C-1) = (x+1)/2 exactly, b = x - y."""
    if log_mode == "continuous":
        c = np.log2(x + 1.0)
        y = (x + 1.0) / 2.0
    else:
        c = _lg(x + 1.0, log_mode)
        y = 2.0 ** (c - 1.0)
    return c, y, x - y


def _transfer_grid(obj, mss, rate, rtt, p, th, reading: ModelReading, trace: list | None = None):
    """Return (N, a, OT, tot_hob) arrays: the algorithm's loop over losses, run once over a whole grid of points.

    Paper: 002, "ALGORITHM FOR OBJECT TRANSFER TIME". The one implementation of the loop: step i of every
    point at once, for i = 1 .. max(a) + 1; a point whose own loop has ended (i > a + 1) is masked, so each
    point gets the operations of its own loop. :func:`object_transfer_time` runs it on one point.
    With a list ``trace``, one dict of arrays per step is appended to it (``active``, ``last``, ``in_ss``,
    ``n_packets``, ``x``, ``L``, ``hob_s``, ``added_s``).
    """
    n_mode, a_mode, log_mode = reading.n_mode, reading.a_mode, reading.log_mode
    post_loss_slow_start, final_chunk, hob_in_ca = reading.post_loss_slow_start, reading.final_chunk, reading.hob_in_ca
    s = mss / rate
    n, a = _counts_grid(obj, mss, p, n_mode, a_mode)
    validate.at_most("obj_bits", "the expected losses a = N p of one object (one loop pass each)",
                     a.max(initial=0), MAX_LOSSES, "a smaller object, a larger segment or a lower loss ratio")
    q = _stall_bound(s, rtt)
    to = TODETECT_RTTS * rtt

    left = n.astype(float).copy()
    ot = np.zeros_like(left)
    tot_hob = np.zeros_like(left)
    for i in range(1, int(a.max(initial=0)) + 2):
        active = i <= a + 1
        last = i == a + 1
        x = np.where(last, left, _xloss_grid(left, p))  # steps (5)/(6) and (9)/(10)
        ath = 2.0 * th - 1.0  # Eq. (7)
        in_ss = x + 1.0 <= ath
        with np.errstate(invalid="ignore"):
            big_l = np.where(in_ss, 0.0, np.maximum(0.0, x - ath))  # Eq. (13), clipped
        chunk = x * s if final_chunk == "N" else (x + 1.0) * s
        chunk = np.where(last, chunk, (x + 1.0) * s)
        _, y, b = _loss_window(x, log_mode)  # Eqs. (8)-(10)
        hob_step = np.where(last, 0.0, (y - b) * s)  # Eq. (11)
        if i == 1:
            # Eq. (12): loss in slow start; Eqs. (14)-(15): loss in congestion avoidance
            added_ss = _sc(x, s, rtt, q, log_mode) + chunk + np.where(last, 0.0, hob_step + to)
            hob_ca = hob_step if hob_in_ca == "computed" else np.zeros_like(hob_step)
            added_ca = _sc(ath, s, rtt, q, log_mode) + chunk + big_l * rtt + np.where(last, 0.0, to + hob_ca)
            added = np.where(in_ss, added_ss, added_ca)
            hob = np.where(in_ss, hob_step, hob_ca)
            th_ss = np.where(y > th, y, th) / 2.0
            th_new = np.where(in_ss, th_ss, (th + big_l) / 2.0)
            left_new = np.where(in_ss, left - x + (y - b), left - x + 1.0)
        else:  # steps (8)-(12)
            added = chunk + big_l * rtt
            if post_loss_slow_start:
                added = added + _sc(np.where(in_ss, x, ath), s, rtt, q, log_mode)
            added = added + np.where(last, 0.0, hob_step + to)
            hob = hob_step
            th_new = (th + big_l) / 2.0
            left_new = left - x + 1.0
        if trace is not None:
            trace.append({"active": active, "last": last, "in_ss": in_ss, "n_packets": left, "x": x, "L": big_l,
                          "hob_s": hob, "added_s": added})
        update = active & ~last
        ot = ot + np.where(active, added, 0.0)
        tot_hob = tot_hob + np.where(active, hob, 0.0)
        th = np.where(update, th_new, th)
        left = np.where(update, left_new, left)
    return n.astype(float), a, ot, tot_hob


def _tcp_total(it, rtt, ot, objects, pipeline_depth):
    """Return Table I's TCP row: IT + RTT + OT if PI >= M, else IT + (M/PI)(RTT + OT)."""
    return np.where(pipeline_depth >= objects, it + (rtt + ot), it + objects / pipeline_depth * (rtt + ot))


def _sctp_total(it, rtt, ot, tot_hob, objects, sctp_total: str):
    """Return Table I's SCTP row: as printed IT + RTT + (OT - tot_hob), or IT + M (RTT + OT - tot_hob)."""
    if sctp_total == "printed":
        return it + rtt + (ot - tot_hob)
    return it + objects * (rtt + ot - tot_hob)


# --- validation --------------------------------------------------------------------------------


def _one(name: str, arr: np.ndarray) -> float:
    if arr.size != 1:
        raise validate.ParameterError(
            f"{name} must be a single number here, got shape {arr.shape}; use response_times_grid for arrays"
        )
    return float(arr.reshape(-1)[0])


def _check_point(obj_bits, mss_bits, rate_bps, rtt_s, p):
    return (
        _one("obj_bits", validate.positive("obj_bits", obj_bits)),
        _one("mss_bits", validate.positive("mss_bits", mss_bits)),
        _one("rate_bps", validate.positive("rate_bps", rate_bps)),
        _one("rtt_s", validate.non_negative("rtt_s", rtt_s)),
        _one("p", validate.probability("p", p)),
    )


def _check_reading(reading) -> ModelReading:
    readings.check(reading).require_final_chunk(FINAL_CHUNKS, "paper 002")
    return reading


# --- one function per quantity -----------------------------------------------------------------


def packets_in_object(obj_bits, mss_bits, *, n_mode: str = "exact") -> np.ndarray:
    """Return N, the number of packets of an object.

    Paper: 002, Sec. II-B and algorithm step (2): N = O/MSS.

    Parameters
    ----------
    obj_bits : object size O (bits)
    mss_bits : maximum segment size MSS (bits)
    n_mode : ``"exact"`` (default, O/MSS unrounded as printed) or ``"ceil"``
        (whole packets, the last one short, as paper 000's n = ceil(theta/mtu))
    """
    validate.choice("n_mode", n_mode, N_MODES)
    obj = validate.positive("obj_bits", obj_bits)
    mss = validate.positive("mss_bits", mss_bits)
    return np.asarray(_n_packets(obj, mss, n_mode), dtype=float)


def expected_losses(n_packets, p, *, a_mode: str = "ceil") -> np.ndarray:
    """Return a, the expected number of lost packets of an object, as a whole number.

    Paper: 002, Sec. II-B and algorithm step (2): a = Np (binomial mean).

    Assumes: the algorithm's test "i = a + 1" needs a whole a; ``a_mode="ceil"``
    (default) takes ceil(Np) as paper 000 does (so every p > 0 means at least one
    loss), ``"round"`` rounds half up. a = 0 when p = 0.
    """
    validate.choice("a_mode", a_mode, A_MODES)
    n = validate.positive("n_packets", n_packets)
    pp = validate.probability("p", p)
    return _losses(*np.broadcast_arrays(n, pp), a_mode).astype(float)


def expected_packets_before_loss(n_packets, p) -> np.ndarray:
    """Return x, the expected number of the packet at which the first loss occurs.

    Paper: 002, Eq. (1) (algorithm steps (6) and (10)), reconstructed as
    Cardwell-Savage-Anderson's E[d_ss] plus the lost packet:
    x = (1 - (1-p)^N)(1-p)/p + 1, clipped at x <= N (and x = N when p = 0).
    x - 1 packets are delivered before the loss.

    Assumes: independent losses with probability p per packet (Bernoulli).

    Parameters
    ----------
    n_packets : packets N still to send (need not be whole)
    p : packet loss probability, in [0, 1)
    """
    n = validate.positive("n_packets", n_packets)
    pp = validate.probability("p", p)
    return np.asarray(_xloss_grid(*np.broadcast_arrays(n, pp)), dtype=float)


def stall_bound(mss_bits, rate_bps, rtt_s) -> np.ndarray:
    """Return Q, the number of times the server would stall for an infinite object.

    Paper: 002, Eqs. (2)-(3) (terminology "Q"), Kurose-Ross with w1 = 1:
    Q = floor(log2(1 + RTT R/MSS)) + 1 (paper 004's Eq. (4) with x = 1).
    """
    mss = validate.positive("mss_bits", mss_bits)
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    return np.asarray(_stall_bound(mss / rate, rtt), dtype=float)


def slow_start_idle_time_s(n_packets, mss_bits, rate_bps, rtt_s, log_mode: str = "continuous") -> np.ndarray:
    """Return SC, the server's idle time in slow start while it sends ``n_packets`` packets (s).

    Paper: 002, Eqs. (2)-(4) (SC), (5)-(6) (Sx = SC(x)) and (14) (Sth = SC(Ath)):
    SC(n) = P (RTT + MSS/R) - (2^P - 1) MSS/R with P = max(0, min(Q, K - 1)),
    K = lg(n + 1) and Q from :func:`stall_bound`.

    Assumes: slow start from one packet (w1 = 1), one ACK per packet, no loss
    during these n packets; RTT excludes the transmission time. This is
    Kurose-Ross's latency minus 2 RTT and n MSS/R. SC >= 0 for both log modes;
    with ``"continuous"`` it is not monotone in n near P = Q (see module notes).

    Parameters
    ----------
    n_packets : packets sent in slow start (0 gives 0)
    mss_bits : MSS (bits)
    rate_bps : link rate R (bit/s)
    rtt_s : round-trip delay RTT (s), without transmission time
    log_mode : ``"continuous"`` (default, K = log2(n+1), the "~" of Eq. (5)) or
        ``"ceil"`` (K = ceil(log2(n+1)), Kurose-Ross exactly)
    """
    validate.choice("log_mode", log_mode, LOG_MODES)
    n = validate.non_negative("n_packets", n_packets)
    mss = validate.positive("mss_bits", mss_bits)
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    s = mss / rate
    return np.asarray(_sc(n, s, rtt, _stall_bound(s, rtt), log_mode), dtype=float)


def packets_until_threshold(threshold) -> np.ndarray:
    """Return Ath = 2T - 1, the packets sent in slow start until the window reaches T.

    Paper: 002, Eq. (7) (reconstructed): windows 1, 2, 4, ..., T hold
    2T - 1 packets (also Cardwell's Eq. (11) inverted, gamma = 2, w1 = 1).
    ``inf`` (no threshold) gives ``inf``.
    """
    th = validate.positive_or_inf("threshold", threshold)
    return 2.0 * th - 1.0


def loss_window(x, log_mode: str = "continuous") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (C, y, b): the window number holding packet x, its size, and its packets before x.

    Paper: 002, Eqs. (8)-(10), reconstructed: C = lg(x + 1), y = 2^(C-1),
    b = x - y. With ``log_mode="continuous"`` (default) y = (x+1)/2, Cardwell's
    E[W_ss], and y - b = 1; with ``"ceil"`` C is a whole window number and
    y - b = 2^C - x lies in [1, x].

    Assumes: slow start from one packet, window k holding 2^(k-1) packets.
    """
    validate.choice("log_mode", log_mode, LOG_MODES)
    xx = validate.positive("x", x)
    c, y, b = _loss_window(xx, log_mode)
    return np.asarray(c, dtype=float), np.asarray(y, dtype=float), np.asarray(b, dtype=float)


def hob_time_s(x, mss_bits, rate_bps, log_mode: str = "continuous") -> np.ndarray:
    """Return HOB, the head-of-line blocking time of one loss at packet x (s).

    Paper: 002, Eq. (11) (printed): HOB = (y - b) MSS/R, with y, b from
    :func:`loss_window`. Continuous reading: HOB = MSS/R.

    Assumes: the y - b packets from the lost one to the end of window C wait for
    the retransmission (TCP's in-order delivery); SCTP's other streams do not.
    """
    _, y, b = loss_window(x, log_mode)
    s = validate.positive("mss_bits", mss_bits) / validate.positive("rate_bps", rate_bps)
    return (y - b) * s


@dataclass(frozen=True)
class ObjectTransferTime:
    """The transfer of one object (paper 002's algorithm): OT, the HOB total, the losses, and a trace.

    ``trace`` has one dict per step i = 1..a+1 with keys ``i``, ``phase``
    (``"slow-start"``, ``"congestion-avoidance"`` or ``"final"``), ``n_packets``
    (N before the step), ``x``, ``L``, ``hob_s`` (HOB_i) and ``added_s`` (the
    step's Tx or TL); ``pandas.DataFrame(result.trace)`` shows it.
    """

    ot_s: float
    tot_hob_s: float
    losses: int
    n_packets: float
    trace: list = field(default_factory=list, compare=False)


def object_transfer_time(
    obj_bits,
    mss_bits,
    rate_bps,
    rtt_s,
    p,
    *,
    reading: ModelReading = READING_002,
) -> ObjectTransferTime:
    """Return OT, tot_hob, a and the per-step trace of one object's transfer.

    Paper: 002, "ALGORITHM FOR OBJECT TRANSFER TIME", Eqs. (1)-(15)
    (research note Sec. 1.2). Step i = 1 adds Tx (Eq. 12, loss in slow start,
    x + 1 <= Ath) or TL (Eq. 15, loss in congestion avoidance); steps 2..a add
    TL = (x+1) MSS/R + L RTT + HOB + TOdetect; step a + 1 sends the remaining N
    packets without HOB or TOdetect. Cost O(a).

    Assumes: a = Np losses (a whole number, see ``a_mode``), each at the
    expected position x of Eq. (1) among the packets still to send; every loss
    detected by three duplicate ACKs (TOdetect = 1.5 RTT), never a timeout; no
    receiver-window limit; RTT excludes transmission time.

    Parameters
    ----------
    obj_bits : object size O (bits)
    mss_bits : MSS (bits)
    rate_bps : link rate R server -> client (bit/s)
    rtt_s : round-trip delay RTT (s), without the transmission time MSS/R
    p : packet loss probability in [0, 1)
    reading : the switches (:class:`paperlib.models.reading.ModelReading`; default
        :data:`~paperlib.models.reading.READING_002`, paper 002 as printed where printed):
        ``log_mode`` ``"continuous"`` (log2 for K in SC (Eqs. 4-6, 14) and for C (Eq. 8): the "~"
        of Eq. (5), Cardwell's continuous log and the printed TCP-SCTP gaps favour it; HOB =
        MSS/R per loss) or ``"ceil"`` (HOB ~ 0.95 s per loss at the paper's point);
        ``a_mode`` ``"ceil"`` (a = ceil(Np), paper 000's alpha) or ``"round"`` (half up; a = 0
        below Np = 0.5); ``n_mode`` ``"exact"`` (N = O/MSS as printed) or ``"ceil"``;
        ``initial_threshold`` T in packets (``inf``: paper 000's th(1) = inf; no loss is then
        ever in congestion avoidance, since T/2 and (T + L)/2 stay infinite);
        ``post_loss_slow_start`` False (as printed: fast retransmit, no new slow start) or True
        (add SC(x), or SC(Ath) in congestion avoidance, to every step after the first, as paper
        000's timeouts do); ``final_chunk`` ``"x+1"`` (as printed: (x+1) MSS/R with x = N) or
        ``"N"`` (paper 000's form; then p = 0 is exactly the loss-free slow-start latency);
        ``hob_in_ca`` ``"computed"`` (a first loss in congestion avoidance adds HOB from Eqs.
        (8)-(11) to TL and to tot_hob, as step (11) does, so that TCP - SCTP = tot_hob always)
        or ``"zero"`` (Eq. (15) as printed). Steps after the first always compute HOB.
    """
    point = _check_point(obj_bits, mss_bits, rate_bps, rtt_s, p)
    _check_reading(reading)
    steps: list[dict] = []
    n, a, ot, tot_hob = _transfer_grid(*(np.array([v], dtype=float) for v in (*point, reading.initial_threshold)),
                                       reading, trace=steps)
    trace = [{"i": i, "phase": "final" if step["last"][0] else ("slow-start" if step["in_ss"][0]
                                                               else "congestion-avoidance"),
              **{k: float(step[k][0]) for k in ("n_packets", "x", "L", "hob_s", "added_s")}}
             for i, step in enumerate(steps, start=1)]
    return ObjectTransferTime(ot_s=float(ot[0]), tot_hob_s=float(tot_hob[0]), losses=int(a[0]), n_packets=float(n[0]),
                              trace=trace)


def _one_point(obj_bits, mss_bits, rate_bps, rtt_s, p, it_s, **keywords) -> pd.Series:
    """Return :func:`response_times_grid`'s row of one point (validated as a single point first)."""
    obj, mss, rate, rtt, pp = _check_point(obj_bits, mss_bits, rate_bps, rtt_s, p)
    point = {"obj_bits": [obj], "mss_bits": [mss], "rate_bps": [rate], "rtt_s": [rtt], "p": [pp],
             "it_s": [_it(it_s, rtt)]}
    return response_times_grid(point, **keywords).iloc[0]


def _it(it_s, rtt: float) -> float:
    if it_s is None:
        return DEFAULT_IT_RTTS * rtt
    return _one("it_s", validate.non_negative("it_s", it_s))


def response_time_tcp_s(
    obj_bits,
    mss_bits,
    rate_bps,
    rtt_s,
    p,
    *,
    objects: int = 5,
    pipeline_depth: int = 1,
    it_s: float | None = None,
    reading: ModelReading = READING_002,
) -> float:
    """Return the mean response time of HTTP over TCP for M objects (s).

    Paper: 002, Table I: IT + RTT + OT if PI >= M, else IT + (M/PI)(RTT + OT),
    OT from :func:`object_transfer_time`.

    Assumes: M objects of identical size (assumption (1)) fetched on one
    persistent connection, PI at a time; head-of-line blocking is part of OT.

    Parameters
    ----------
    obj_bits, mss_bits, rate_bps, rtt_s, p : as :func:`object_transfer_time`
    objects : M, the number of referenced objects (default 5, the paper's)
    pipeline_depth : PI, the depth of the HTTP/1.1 pipeline (default 1: only
        M/PI = M reproduces the size of Table II; PI >= M gives ~4.7 s)
    it_s : IT, connection set-up and HTML transfer (s); None (default) = 2 RTT
    reading : the switches, as :func:`object_transfer_time` (``sctp_total`` is not read here)
    """
    m = _one("objects", validate.positive_integer("objects", objects))
    pi = _one("pipeline_depth", validate.positive_integer("pipeline_depth", pipeline_depth))
    return float(_one_point(obj_bits, mss_bits, rate_bps, rtt_s, p, it_s, objects=m, pipeline_depth=pi,
                            reading=reading)["tcp_s"])


def response_time_sctp_s(
    obj_bits,
    mss_bits,
    rate_bps,
    rtt_s,
    p,
    *,
    objects: int = 5,
    it_s: float | None = None,
    reading: ModelReading = READING_002,
) -> float:
    """Return the mean response time of HTTP over SCTP for M objects (s).

    Paper: 002, Table I. ``reading.sctp_total="printed"``: IT + RTT + (OT - tot_hob),
    as printed. ``sctp_total="times_M"`` (default): IT + M (RTT + OT - tot_hob).

    The default departs from the print because the printed form cannot be what
    produced the paper's numbers: at Table II's operating point it gives 4.58 s
    against the printed 20.81 s (it counts one object, while the TCP row counts
    M/PI of them), and the printed TCP - SCTP gaps (0.51-0.52 s with one loss
    per object, 0.98 s with two) are M tot_hob, not tot_hob. Only the M-times
    form reproduces Table II (20.84 s at p = 1 %, research note Sec. 1.4).

    Assumes: the M objects go on M streams of one association; a loss delays
    only its own stream, so each object's time is OT minus its HOB.

    Parameters
    ----------
    obj_bits, mss_bits, rate_bps, rtt_s, p : as :func:`object_transfer_time`
    objects : M (default 5)
    it_s : IT (s); None (default) = 2 RTT
    reading : the switches, as :func:`object_transfer_time`, and ``sctp_total``:
        ``"times_M"`` (default) or ``"printed"``
    """
    m = _one("objects", validate.positive_integer("objects", objects))
    return float(_one_point(obj_bits, mss_bits, rate_bps, rtt_s, p, it_s, objects=m, reading=reading)["sctp_s"])


#: Columns every point needs, and the per-point columns that override the keywords.
GRID_COLUMNS = ("obj_bits", "mss_bits", "rate_bps", "rtt_s", "p")
GRID_OPTIONAL = ("objects", "pipeline_depth", "it_s", "initial_threshold")


def response_times_grid(
    points,
    *,
    objects: int = 5,
    pipeline_depth: int = 1,
    it_s: float | None = None,
    reading: ModelReading = READING_002,
) -> pd.DataFrame:
    """Return OT, tot_hob, a, and the TCP and SCTP response times at every parameter point.

    Paper: 002, algorithm and Table I (as :func:`response_time_tcp_s` and
    :func:`response_time_sctp_s`, point by point).

    ``points`` is a DataFrame, or a mapping of column name -> scalar/array
    (broadcast together, then flattened), with columns ``obj_bits``,
    ``mss_bits``, ``rate_bps``, ``rtt_s``, ``p``; optional columns ``objects``,
    ``pipeline_depth``, ``it_s`` override the keywords of the same name per point,
    ``initial_threshold`` the reading's. Other columns are carried through. Every column is
    validated once, as a whole; the algorithm's loop runs once over the whole grid
    (:func:`_transfer_grid`, max(a) + 1 vectorised steps).

    Returns the points (same index for a DataFrame) plus ``n_packets``,
    ``losses``, ``ot_s``, ``tot_hob_s``, ``tcp_s`` and ``sctp_s``. Keywords as
    :func:`response_time_tcp_s` and :func:`response_time_sctp_s`.
    """
    if isinstance(points, pd.DataFrame):
        frame = points.copy()
    else:
        try:
            items = dict(points)
        except (TypeError, ValueError):
            raise validate.ParameterError(
                f"points must be a DataFrame or a mapping of column -> values, got {type(points).__name__}"
            ) from None
        try:
            arrays = np.broadcast_arrays(*[np.asarray(v) for v in items.values()])
        except ValueError:
            shapes = {k: np.shape(v) for k, v in items.items()}
            raise validate.ParameterError(f"points columns do not broadcast together: {shapes}") from None
        frame = pd.DataFrame({k: a.reshape(-1) for k, a in zip(items, arrays, strict=True)})
    for name in GRID_COLUMNS:
        if name not in frame.columns:
            raise validate.ParameterError(f"points needs a column {name!r}; it has {list(frame.columns)}")
    _check_reading(reading)

    size = len(frame)
    obj = validate.positive("obj_bits", frame["obj_bits"].to_numpy())
    mss = validate.positive("mss_bits", frame["mss_bits"].to_numpy())
    rate = validate.positive("rate_bps", frame["rate_bps"].to_numpy())
    rtt = validate.non_negative("rtt_s", frame["rtt_s"].to_numpy())
    pp = validate.probability("p", frame["p"].to_numpy())

    def column_or(name, default, check):
        values = frame[name].to_numpy() if name in frame.columns else np.full(size, default, dtype=float)
        return check(name, values)

    m = column_or("objects", objects, validate.positive_integer)
    pi = column_or("pipeline_depth", pipeline_depth, validate.positive_integer)
    th = column_or("initial_threshold", reading.initial_threshold, validate.positive_or_inf)
    if "it_s" in frame.columns:
        it = validate.non_negative("it_s", frame["it_s"].to_numpy())
    elif it_s is None:
        it = DEFAULT_IT_RTTS * rtt
    else:
        it = np.full(size, _one("it_s", validate.non_negative("it_s", it_s)))

    n_out, a_out, ot_out, hob_out = blocks.concatenated(
        lambda *block: _transfer_grid(*block, reading), (obj, mss, rate, rtt, pp, th.astype(float)))

    tcp = _tcp_total(it, rtt, ot_out, m, pi)
    sctp = _sctp_total(it, rtt, ot_out, hob_out, m, reading.sctp_total)
    return frame.assign(n_packets=n_out, losses=a_out, ot_s=ot_out, tot_hob_s=hob_out, tcp_s=tcp, sctp_s=sctp)
