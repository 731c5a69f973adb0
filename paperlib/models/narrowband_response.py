"""Mean response time of one web object over SCTP or TCP in a narrowband network (paper 000, Eq. (2)).

Paper: 000, Y.-J. Lee, "Modeling and performance evaluation of mean
waiting time for multiple web access in the narrowband network", section 2
(Fig. 1, Eqs. (1)-(2), the definition of R) and Algorithm 1 lines 02-09.

Paper 000's single-user model is the per-object algorithm of its companion
paper, paper 002 (:mod:`paperlib.models.http_response_time`; research note
``docs/reconstruction-002-000.md`` Sec. 1), rewritten as a sum and adapted to
a narrowband link where three duplicate ACKs never arrive, so that every loss
is a timeout (research note Sec. 2.3). This module composes 002's public
functions (x of Eq. (1), Ath of Eq. (7), the packet and loss counts) with seed
004's Kurose-Ross stall bound for any initial window
(:mod:`paperlib.models.slow_start_latency`). What 000 changes, equation by
equation (000 numbers first, 002 numbers in brackets):

* Algorithm 1 line 02: n = ceil(theta/mtu) whole packets [002: N = O/MSS
  unrounded]. ``n_mode="ceil"`` (default) or ``"exact"``.
* Algorithm 1 line 03: alpha = ceil(np) [002: a = Np, not made whole].
  ``a_mode="ceil"`` (default, as printed) or ``"round"``.
* Algorithm 1 line 04: th(1) = inf [002: T never given]. With th(1) = inf the
  first loss is always in slow start (000: "the first packet loss ... occurs
  always during slow-start phase").
* Fig. 1 and section 4: the first slow start begins with cwnd = 2 mtu for SCTP
  and 1 mtu for TCP ("except the number of initial windows, HTTP over TCP model
  is basically same as HTTP over SCTP") [002: one window of 1 for both, and
  HOB as the only TCP/SCTP difference; 000 has no HOB]. The stall time
  ST(k) of k packets sent in slow start from a window w is Kurose-Ross's
  (paper 004 Eqs. (1), (4), (5) with x = w): ST = P (rtt + s) - w (2^P - 1) s,
  P = max(0, min(beta_w, lg(k/w + 1) - 1)), beta_w = floor(log2((1 + rtt/s)/w)) + 1,
  s = mtu/mu; lg is log2 (``log_mode="continuous"``, 002's "~") or
  ceil(log2) (``"ceil"``, Kurose-Ross exactly). At w = 1 it is 002's SC of
  Eqs. (2)-(6). :func:`slow_start_stall_time_s`.
* Eq. (1): after every loss, a timeout: th(k+1) = max(cwnd/2, 2 mtu) and
  cwnd = 1 mtu, so every later phase restarts slow start from one packet
  [002: fast retransmit, T <- T/2, no new slow start, TOdetect = 1.5 RTT].
  cwnd at a slow-start loss is the window y holding packet x (continuous:
  y = (x + w)/2, Cardwell's E[W_ss] for a first window w; 002's y = (x+1)/2 at
  w = 1); at a congestion-avoidance loss it is th + L (002's (T + L)/2 rule).
  :func:`window_at_loss`.
* Eq. (2): E(T) = sum_{k=1}^{alpha} [beta E(T_slow^k) + (1 - beta) E(T_cong^k)] + R,
  beta = 1 iff x(k) < A_th(k) [002's test: x + 1 <= Ath]. With x(k) the
  expected number of the lost packet among the N(k) still to send (002's
  Eq. (1), Cardwell's E[d_ss] + 1) and A_th(k) = 2 th(k) - 1 (002's Eq. (7),
  slow start from one packet; inf while th = inf):

      E(T_slow^k) = ST(x) + (x + 1) s + TO               (002's Eq. (12) without HOB)
      E(T_cong^k) = ST(A_th) + (x + 1) s + L rtt + TO,   L = x - A_th   (002's Eq. (15))

  then N(k+1) = N(k) - x(k) + 1 (the lost packet is sent again).
* R (the text after Eq. (2)): if N(alpha+1) < A_th(alpha+1),
  R = ST(N) + N s; otherwise R = ST(A_th) + N s + (N - A_th) rtt
  [002's last step counts (x+1) packets with x = N: ``final_chunk="N+1"``].

Parameters paper 000 never gives, and the defaults chosen:

* TO, the time to detect a loss by timeout. 000 calls it a timeout and gives
  no value; the default is 002's detection time 1.5 RTT (``timeout_s=None``).
  The reproduction searches it (paper 000's package, its convention search).
* The set-up before the first packet: Eq. (2) has no set-up term
  (``setup_rtts=0``); 000's words "total time ... to connect to a web server
  and download an object" would add one or two round trips.
* ``post_loss_slow_start=False`` drops ST from every phase after the first
  (002's reading), to show what 000's timeouts add.

With p = 0 (alpha = 0) E(T) = setup_rtts rtt + ST(n) + n s, paper 004's loss-free
latency with initial window w (exactly, for ``log_mode="ceil"``).

SI inside: bits, seconds, bit/s. Every function broadcasts over its array
arguments; the loop over losses runs max(alpha) times for the whole array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from paperlib import validate
from paperlib.models import blocks, http_response_time
from paperlib.models import reading as readings
from paperlib.models.reading import READING_000, ModelReading

LOG_MODES = http_response_time.LOG_MODES
A_MODES = http_response_time.A_MODES
N_MODES = http_response_time.N_MODES
#: Paper 000's names of R's size (``ModelReading.final_chunk``).
FINAL_CHUNKS = ("N", "N+1")

#: Initial congestion window in packets (paper 000, Fig. 1: "its initial value is 2 x mtu").
SCTP_INITIAL_WINDOW = 2
#: TCP's: "except the number of initial windows, HTTP over TCP model is basically same" (section 4).
TCP_INITIAL_WINDOW = 1
#: Lower bound of the new threshold after a loss, Eq. (1): max(cwnd/2, 2 x mtu).
THRESHOLD_MIN_PACKETS = 2.0
#: Timeout detection in round trips when ``timeout_s`` is None: paper 002's TOdetect.
DEFAULT_TIMEOUT_RTTS = http_response_time.TODETECT_RTTS

_EPS = 1e-9


def _lg(v: np.ndarray, log_mode: str) -> np.ndarray:
    lg = np.log2(v)
    return np.ceil(lg - _EPS) if log_mode == "ceil" else lg


def slow_start_stall_time_s(n_packets, mtu_bits, rate_bps, rtt_s, initial_window, log_mode: str = "continuous"):
    """Return ST, the server's idle time while it sends ``n_packets`` in slow start from ``initial_window`` (s).

    Paper: 000, ST(.) in the definition of R (section 2); Kurose-Ross's
    stall sum as in paper 004 Eqs. (1), (4), (5) with x = w:
    ST = P (rtt + s) - w (2^P - 1) s, P = max(0, min(beta_w, lg(n/w + 1) - 1)),
    beta_w = floor(log2((1 + rtt/s)/w)) + 1 (:func:`slow_start_latency.stall_bound`),
    s = mtu/rate. ``log_mode="ceil"`` is paper 004's corrected form exactly
    (:func:`slow_start_latency.stall_count`); ``"continuous"`` (002's "~")
    lets the number of windows be fractional. At w = 1 this is paper 002's SC
    (:func:`http_response_time.slow_start_idle_time_s`) in both modes.

    Assumes: no loss while these packets are sent, one ACK per packet, the
    window doubles every round trip, rtt excludes the transmission time.

    Parameters
    ----------
    n_packets : packets sent in slow start (0 gives 0; need not be whole)
    mtu_bits : packet size mtu (bits)
    rate_bps : link rate mu (bit/s)
    rtt_s : round-trip delay rtt (s), without transmission time
    initial_window : first window w of this slow start (whole number of packets >= 1)
    log_mode : ``"continuous"`` (default) or ``"ceil"``
    """
    validate.choice("log_mode", log_mode, LOG_MODES)
    n = validate.non_negative("n_packets", n_packets)
    mtu = validate.positive("mtu_bits", mtu_bits)
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    w = validate.positive_integer("initial_window", initial_window)
    return _stall_time(*np.broadcast_arrays(n, mtu, rate, rtt, w), log_mode)


def _stall_time(n, mtu, rate, rtt, w, log_mode: str) -> np.ndarray:
    """ST of :func:`slow_start_stall_time_s` for validated arrays of one shape (finite rates), without re-validating.

    beta_w and, for ``"ceil"``, alpha - 1 are paper 004's Eqs. (4) and (1) with the tolerance of
    :func:`slow_start_latency.stall_bound` and :func:`slow_start_latency.windows_needed` (finite rate), taken
    here as log2 -/+ 1e-9 and there as the exact exponent of the ratio scaled by 2^-/+1e-9: the same counts
    except where log2 lands within an ulp of the tolerance's edge.
    """
    s = mtu / rate
    with np.errstate(invalid="ignore"):
        beta = np.floor(np.log2((1 + rate * rtt / mtu) / w) + _EPS) + 1  # paper 004 Eq. (4)
    beta = np.maximum(beta, 0.0)
    some = n > 0
    safe_n = np.where(some, n, 1.0)
    if log_mode == "ceil":
        alpha_minus_1 = np.ceil(np.log2(safe_n * mtu / mtu / w + 1) - _EPS) - 1  # paper 004 Eq. (1)
        stalls = np.maximum(np.minimum(alpha_minus_1, beta), 0.0)
    else:
        stalls = np.maximum(0.0, np.minimum(beta, _lg(safe_n / w + 1.0, log_mode) - 1.0))
    st = stalls * (rtt + s) - w * (2.0**stalls - 1.0) * s
    return np.where(some, st, 0.0)


def window_at_loss(x, initial_window, log_mode: str = "continuous") -> np.ndarray:
    """Return y, the congestion window (packets) holding packet x of a slow start from ``initial_window``.

    Paper: 000, Eq. (1) (cwnd at the loss, halved into th(k+1)); paper 002,
    Eqs. (8)-(9) generalised to a first window w: windows w, 2w, 4w, ... hold
    w (2^C - 1) packets, so C = lg(x/w + 1) and y = w 2^(C-1). Continuous:
    y = (x + w)/2 (Cardwell's E[W_ss] = (d + w1)/2 for gamma = 2); at w = 1 this
    is 002's :func:`http_response_time.loss_window`.

    Parameters
    ----------
    x : number of the lost packet in this slow start (> 0)
    initial_window : first window w (whole number >= 1)
    log_mode : ``"continuous"`` (default) or ``"ceil"``
    """
    validate.choice("log_mode", log_mode, LOG_MODES)
    return _window(validate.positive("x", x), validate.positive_integer("initial_window", initial_window), log_mode)


def _window(x: np.ndarray, w: np.ndarray, log_mode: str) -> np.ndarray:
    """Return the window y of :func:`window_at_loss`, for arrays already validated."""
    if log_mode == "continuous":
        return (x + w) / 2.0
    return w * 2.0 ** (_lg(x / w + 1.0, log_mode) - 1.0)


def _threshold_packets(th: np.ndarray) -> np.ndarray:
    """Return A_th = 2 th - 1 where th is finite, inf where it is not.

    Paper: 002, Eq. (7) (:func:`http_response_time.packets_until_threshold`).
    """
    finite = np.isfinite(th)
    with np.errstate(invalid="ignore"):
        return np.where(finite, 2.0 * th - 1.0, np.inf)


@dataclass(frozen=True)
class ResponseTime:
    """E(T) of one object by paper 000's Eq. (2), with its parts.

    ``phases`` has one dict per term of Eq. (2): ``k`` (1..alpha, then
    ``"R"``), ``phase`` (``"slow-start"`` or ``"congestion-avoidance"``),
    ``n_packets`` (N(k) before the phase), ``x`` (the lost packet, or N for R),
    ``A_th``, ``L``, ``window`` (cwnd at the loss), ``stall_s`` (ST),
    ``added_s`` (the term).
    """

    response_s: float
    n_packets: float
    losses: int
    phases: list = field(default_factory=list, compare=False)


def _check_reading(reading) -> ModelReading:
    readings.check(reading).require_final_chunk(FINAL_CHUNKS, "paper 000")
    if reading.initial_threshold != math.inf:
        raise validate.ParameterError(
            f"initial_threshold must be inf for paper 000's model (Algorithm 1 line 04: th(1) = inf), "
            f"got {reading.initial_threshold!r}")
    return reading


def _eq2(obj, mtu, rate, rtt, p, w1, to, setup, reading: ModelReading, *, trace: bool):
    """Return (E, n, alpha, phases of element 0): the loop of Eq. (2) over arrays of equal shape."""
    n_mode, a_mode, log_mode = reading.n_mode, reading.a_mode, reading.log_mode
    final_chunk, post_loss_slow_start = reading.final_chunk, reading.post_loss_slow_start
    s = mtu / rate
    n, alpha = http_response_time._counts_grid(obj, mtu, p, n_mode, a_mode)  # Algorithm 1 lines 02-03 (002's N, a)
    alpha = alpha.astype(float)
    remaining = n.copy()
    th = np.full(n.shape, np.inf)
    w = w1.copy()
    total = setup * rtt
    phases = []
    validate.at_most("obj_bits", "the expected losses alpha = ceil(n p) (one loop pass each)",
                     float(alpha.max(initial=0)), http_response_time.MAX_LOSSES,
                     "a smaller object, a larger packet or a lower loss ratio")
    for k in range(1, int(alpha.max(initial=0)) + 1):
        active = k <= alpha
        x = http_response_time._xloss_grid(remaining, p)  # 002's Eq. (1)
        a_th = _threshold_packets(th)
        in_ss = x < a_th
        big_l = np.where(in_ss, 0.0, x - a_th)  # Eq. (13) of 002; a_th is finite wherever it is used
        restart = (k == 1) or post_loss_slow_start
        stall = np.zeros(n.shape)
        if restart:
            stall = _stall_time(np.where(in_ss, x, a_th), mtu, rate, rtt, w, log_mode)
        added = stall + (x + 1.0) * s + big_l * rtt + to
        y = np.where(in_ss, _window(x, w, log_mode), th + big_l)
        if trace and active.flat[0]:
            phases.append({"k": k, "phase": "slow-start" if in_ss.flat[0] else "congestion-avoidance",
                           "n_packets": float(remaining.flat[0]), "x": float(x.flat[0]), "A_th": float(a_th.flat[0]),
                           "L": float(big_l.flat[0]), "window": float(y.flat[0]), "stall_s": float(stall.flat[0]),
                           "added_s": float(added.flat[0])})
        total = total + np.where(active, added, 0.0)
        th = np.where(active, np.maximum(y / 2.0, THRESHOLD_MIN_PACKETS), th)
        remaining = np.where(active, remaining - x + 1.0, remaining)
        w = np.where(active, 1.0, w)
    # R: the N(alpha+1) packets left, without further loss
    a_th = _threshold_packets(th)
    in_ss = remaining < a_th
    big_l = np.where(in_ss, 0.0, remaining - a_th)
    restart = (alpha == 0) | bool(post_loss_slow_start)
    stall = np.where(restart, _stall_time(np.where(in_ss, remaining, a_th), mtu, rate, rtt, w, log_mode), 0.0)
    chunk = remaining if final_chunk == "N" else remaining + 1.0
    added = stall + chunk * s + big_l * rtt
    if trace:
        phases.append({"k": "R", "phase": "slow-start" if in_ss.flat[0] else "congestion-avoidance",
                       "n_packets": float(remaining.flat[0]), "x": float(remaining.flat[0]),
                       "A_th": float(a_th.flat[0]), "L": float(big_l.flat[0]), "window": math.nan,
                       "stall_s": float(stall.flat[0]), "added_s": float(added.flat[0])})
    return total + added, n, alpha, phases


def response_time_s(
    obj_bits,
    mtu_bits,
    rate_bps,
    rtt_s,
    p,
    initial_window,
    *,
    timeout_s=None,
    setup_rtts=0,
    reading: ModelReading = READING_000,
) -> np.ndarray:
    """Return E(T), the mean response time of one object by paper 000's Eq. (2) (s), vectorised.

    Paper: 000, Eq. (2), the definition of R, Eq. (1) and Algorithm 1
    lines 02-09 (the module docstring lists every difference from paper 002).

    Assumes: alpha = ceil(np) losses (``a_mode``), each at the expected
    position x of paper 002's Eq. (1) among the packets still to send, each
    detected by a timeout (never three duplicate ACKs: narrowband), after which
    cwnd = 1 and th = max(cwnd/2, 2); th(1) = inf; no receiver-window limit;
    rtt excludes the transmission time mtu/mu.

    Parameters
    ----------
    obj_bits : object size theta (bits)
    mtu_bits : packet size mtu (bits)
    rate_bps : link rate mu (bit/s)
    rtt_s : round-trip delay rtt (s)
    p : packet loss probability, in [0, 1)
    initial_window : first window of the first slow start (packets):
        :data:`SCTP_INITIAL_WINDOW` = 2 or :data:`TCP_INITIAL_WINDOW` = 1
    timeout_s : time to detect each loss (s); None (default) = 1.5 rtt, paper 002's TOdetect
    setup_rtts : round trips before the first packet (default 0: Eq. (2) has no set-up term)
    reading : the switches (:class:`paperlib.models.reading.ModelReading`; default
        :data:`~paperlib.models.reading.READING_000`): ``n_mode`` ``"ceil"`` (default, n =
        ceil(theta/mtu), Algorithm 1 line 02) or ``"exact"`` (theta/mtu); ``a_mode`` ``"ceil"``
        (default, alpha = ceil(np), line 03) or ``"round"``; ``log_mode`` ``"continuous"``
        (default, 002's reading) or ``"ceil"`` (Kurose-Ross windows); ``final_chunk`` ``"N"``
        (default, R sends N(alpha+1) packets) or ``"N+1"`` (002's last step);
        ``post_loss_slow_start`` True (default, 000: slow start after every timeout) or False
        (002). ``initial_threshold`` must stay inf; ``hob_in_ca`` and ``sctp_total`` are 002's
        and not read.
    """
    _check_reading(reading)
    obj = validate.positive("obj_bits", obj_bits)
    mtu = validate.positive("mtu_bits", mtu_bits)
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    pp = validate.probability("p", p)
    w1 = validate.positive_integer("initial_window", initial_window)
    setup = validate.non_negative("setup_rtts", setup_rtts)
    to = DEFAULT_TIMEOUT_RTTS * rtt if timeout_s is None else validate.non_negative("timeout_s", timeout_s)
    try:
        arrays = np.broadcast_arrays(obj, mtu, rate, rtt, pp, w1, to, setup)
    except ValueError:
        raise validate.ParameterError("the arguments of response_time_s do not broadcast together") from None
    shape = arrays[0].shape
    flat = [np.array(a, dtype=float).reshape(-1) for a in arrays]
    (total,) = blocks.concatenated(lambda *block: (_eq2(*block, reading, trace=False)[0],), flat)
    return total.reshape(shape)


def response_time_trace(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window, *, timeout_s=None, setup_rtts=0,
                        reading: ModelReading = READING_000) -> ResponseTime:
    """Return E(T) of one point with the terms of Eq. (2) (one dict per loss, then R).

    Paper: 000, Eq. (2). Arguments and reading as :func:`response_time_s`,
    every argument a single number.
    """
    args = dict(obj_bits=obj_bits, mtu_bits=mtu_bits, rate_bps=rate_bps, rtt_s=rtt_s, p=p,
                initial_window=initial_window)
    for name, value in args.items():
        if np.size(value) != 1:
            raise validate.ParameterError(f"{name} must be a single number here, got shape {np.shape(value)}")
    total = float(response_time_s(**args, timeout_s=timeout_s, setup_rtts=setup_rtts, reading=reading))
    rtt = float(rtt_s)
    to = DEFAULT_TIMEOUT_RTTS * rtt if timeout_s is None else float(timeout_s)
    one = [np.array([float(v)]) for v in (obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window, to, setup_rtts)]
    _, n, alpha, phases = _eq2(*one, reading, trace=True)
    return ResponseTime(response_s=total, n_packets=float(n[0]), losses=int(alpha[0]), phases=phases)


def sctp_response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, **options) -> np.ndarray:
    """Return E(T_sctp) (s): :func:`response_time_s` with the SCTP initial window 2 (paper 000, Fig. 1)."""
    return response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, SCTP_INITIAL_WINDOW, **options)


def tcp_response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, **options) -> np.ndarray:
    """Return E(T_tcp) (s): :func:`response_time_s` with TCP's initial window 1 (paper 000, section 4)."""
    return response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, TCP_INITIAL_WINDOW, **options)
