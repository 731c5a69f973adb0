"""Object transfer latency of HTTP over SCTP/TCP in the initial slow-start phase.

Paper: 004, Lee & Atiquzzaman, "Web object transfer latency over SCTP in
the initial slow-start phase", Eqs. (1)-(6). The model is the Kurose-Ross /
Cardwell loss-free slow-start latency with an initial window of ``x`` segments.

Notation (SI inside): ``obj_bits`` = L_obj, ``mtu_bits`` = L_mtu, ``rate_bps`` = mu,
``rtt_s`` = T_r, ``initial_window`` = x (segments). The k-th window holds
``x * 2**(k-1)`` segments (the paper writes 2^(y+k-1) with y = log2 x).

Reconstruction of the garbled extraction (the corrected form is what
:func:`transfer_latency_s` computes by default; ``form="printed"`` keeps the
paper's printed closed form):

* Eq. (1), windows needed: alpha = min{k : x + 2x + ... + 2^(k-1) x >= L_obj/L_mtu}
  = ceil(log2(L_obj/(x L_mtu) + 1)). The paper prints
  ceil(log2(L_obj/L_mtu + x)) - log2 x, equal to ours whenever x is a power of 2.
* Eq. (2), stall after window k: the first ACK of window k returns
  L_mtu/mu + T_r after the window starts; sending the window takes
  x 2^(k-1) L_mtu/mu; the stall is the (positive) difference
  L_mtu/mu + T_r - 2^(y+k-1) L_mtu/mu. (The text's "the time ... until the
  reception of acknowledgement of the first segment is 2^(log2 x+k-1) L_mtu/mu
  + T_r" is garbled: it must be L_mtu/mu + T_r, or Eq. (2) would not follow;
  and its "stall for the first window is T_r" for x = 2 disagrees with Eq. (2),
  which gives T_r - L_mtu/mu; the schedule agrees with Eq. (2).)
* Eq. (4), stalls of an infinite object: beta = max{k : stall_k >= 0}
  = floor(log2((1 + mu T_r / L_mtu) / x)) + 1 (printed: floor(log2(1 + mu T_r/L_mtu))
  + 1 - log2 x, equal for x a power of 2). If no window stalls, beta = 0 (the
  max over an empty set of positive k): the printed closed form can go negative
  and is clipped at 0.
* Eq. (5): gamma = min{alpha - 1, beta}; LT = 2 T_r + L_obj/mu
  + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu.
  **Error in the printed Eq. (5)/(6):** the second argument of gamma's min is
  printed floor(log2(L_obj/L_mtu + x)) - log2 x - 1, a *floor* where Eq. (1)'s
  alpha - 1 has a *ceil*. Whenever L_obj/L_mtu + x is not a power of two the
  printed form drops the last stall. The round-by-round schedule
  (:mod:`paperlib.models.slow_start_schedule`) agrees with the ceil; the floor
  is a typo of the paper (or of its own computation).
* Eq. (6): TCP on a real OS sends less than its initial window, which the paper
  accounts for by two additional round trips: LT_tcp = LT_sctp + 2 T_r.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import compiled

FORMS = ("corrected", "printed")

# The windows of Eqs. (1) and (4) are whole numbers read off a log2 of a ratio of floats, and a ratio that
# is a power of two in exact arithmetic can come out a hair above or below it: Eq. (1) shaves _EPS off the
# log before its ceil(), Eq. (4) adds _EPS before its floor(). The corrected form takes the exact binary
# exponent of the ratio scaled by 2^-_EPS or 2^_EPS (the same tolerance: log2(v) - eps = log2(v 2^-eps)),
# which needs no log2 and gives the compiled path (closed_forms.c) the same bits.
_EPS = 1e-9
_SHAVE = 2.0**-_EPS
_NUDGE = 2.0**_EPS


def _floor_log2(u: np.ndarray) -> np.ndarray:
    """Return floor(log2(u)) of a positive normal float array, exactly: its binary exponent (as ``closed_forms.c``).

    Inf and NaN give 1024, subnormals -1023; the callers clip counts below 0 to 0 and treat inf themselves.
    """
    bits = np.asarray(u, dtype=np.float64).view(np.int64)  # same item size: a view for any strides
    return ((bits >> 52) & 0x7FF) - 1023


def _exact_pow2(g: np.ndarray) -> np.ndarray:
    """Return 2^g exactly for whole numbers 0 <= g <= 1023 (an integer array), from its bits (as ``closed_forms.c``)."""
    return np.asarray((np.asarray(g, dtype=np.int64) + 1023) << 52).view(np.float64)


def _alpha_minus_1(obj: np.ndarray, mtu: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Return alpha - 1 = ceil(log2(L_obj/(x L_mtu) + 1) - eps) - 1 (Eq. (1)) of validated arrays, as integers."""
    return _floor_log2((obj / (x * mtu) + 1.0) * _SHAVE)


def _beta(mtu: np.ndarray, rate: np.ndarray, rtt: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Return beta = floor(log2((1 + mu T_r / L_mtu)/x) + eps) + 1 (Eq. (4)) of validated arrays, as integers.

    Not clipped at 0; mu T_r = inf gives 1025 and mu = inf with T_r = 0 (NaN) gives 1025 too: callers treat
    both (:func:`stall_bound`, :func:`_latency_corrected_numpy`).
    """
    with np.errstate(invalid="ignore", over="ignore"):
        return _floor_log2((rate * rtt / mtu + 1.0) / x * _NUDGE) + 1


def _check(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window):
    obj = validate.positive("obj_bits", obj_bits)
    mtu = validate.positive("mtu_bits", mtu_bits)
    rate = validate.positive_or_inf("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    x = validate.positive_integer("initial_window", initial_window)
    return obj, mtu, rate, rtt, x


def _check_printed_window(x: np.ndarray) -> None:
    y = np.log2(x)
    if (np.abs(y - np.round(y)) > _EPS).any():
        bad = (x[np.abs(y - np.round(y)) > _EPS].flat[0] if x.ndim else x).item()
        raise validate.ParameterError(
            f"initial_window must be a power of 2 for the printed Eqs. (1)-(6) (they use log2 x "
            f"as an integer), got {bad!r}; use form='corrected' for any initial window"
        )


def windows_needed(obj_bits, mtu_bits, initial_window, *, form: str = "corrected") -> np.ndarray:
    """Return alpha, the number of slow-start windows that carry the object.

    Paper: 004, Eq. (1). ``form="printed"`` evaluates the printed closed
    form ceil(log2(L_obj/L_mtu + x)) - log2 x (x must be a power of 2).
    """
    validate.choice("form", form, FORMS)
    obj = validate.positive("obj_bits", obj_bits)
    mtu = validate.positive("mtu_bits", mtu_bits)
    x = validate.positive_integer("initial_window", initial_window)
    if form == "printed":
        _check_printed_window(x)
        return np.ceil(np.log2(obj / mtu + x) - _EPS) - np.round(np.log2(x))
    return (_alpha_minus_1(obj, mtu, x) + 1).astype(float)


def stall_time_s(k, mtu_bits, rate_bps, rtt_s, initial_window) -> np.ndarray:
    """Return the server stall after window ``k`` (may be negative: no stall then).

    Paper: 004, Eq. (2): L_mtu/mu + T_r - x 2^(k-1) L_mtu/mu.
    """
    k = validate.positive_integer("k", k)
    mtu = validate.positive("mtu_bits", mtu_bits)
    rate = validate.positive_or_inf("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    x = validate.positive_integer("initial_window", initial_window)
    seg_time = mtu / rate
    return seg_time + rtt - x * 2.0 ** (k - 1) * seg_time


def stall_bound(mtu_bits, rate_bps, rtt_s, initial_window, *, form: str = "corrected") -> np.ndarray:
    """Return beta, the number of windows after which the server stalls for an infinite object.

    Paper: 004, Eq. (4). Never negative: beta = 0 when not even the first
    window stalls. For ``rate_bps = inf`` every window stalls (beta = inf).
    """
    validate.choice("form", form, FORMS)
    mtu = validate.positive("mtu_bits", mtu_bits)
    rate = validate.positive_or_inf("rate_bps", rate_bps)
    rtt = validate.non_negative("rtt_s", rtt_s)
    x = validate.positive_integer("initial_window", initial_window)
    with np.errstate(invalid="ignore"):
        bdp_segments = rate * rtt / mtu  # mu T_r / L_mtu (inf * 0 -> nan, handled below)
        if form == "printed":
            _check_printed_window(x)
            beta = np.floor(np.log2(1 + bdp_segments) + _EPS) + 1 - np.round(np.log2(x))
        else:
            beta = np.where(np.isfinite(bdp_segments), _beta(mtu, rate, rtt, x), bdp_segments)
    beta = np.where(np.isinf(rate) & (rtt > 0), np.inf, beta)
    # mu = inf and T_r = 0: every "stall" is 0 - nothing to wait for.
    beta = np.where(np.isnan(beta), 0.0, beta)
    return np.maximum(beta, 0.0)


def stall_count(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, *, form: str = "corrected") -> np.ndarray:
    """Return gamma = min(alpha - 1, beta), the number of times the server stalls.

    Paper: 004, text after Eq. (4) and Eq. (5). ``form="printed"`` uses
    the printed floor(log2(L_obj/L_mtu + x)) - log2 x - 1 for alpha - 1 (see
    the module docstring: a floor where Eq. (1) has a ceil).
    """
    obj, mtu, rate, rtt, x = _check(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
    beta = stall_bound(mtu, rate, rtt, x, form=form)
    if form == "printed":
        alpha_minus_1 = np.floor(np.log2(obj / mtu + x) + _EPS) - np.round(np.log2(x)) - 1
    else:
        alpha_minus_1 = windows_needed(obj, mtu, x) - 1
    return np.maximum(np.minimum(alpha_minus_1, beta), 0.0)


def _latency_corrected_numpy(obj, mtu, rate, rtt, x, setup) -> np.ndarray:
    """Return Eq. (5), corrected form, of validated arrays: the NumPy path, the same operations as ``closed_forms.c``.

    gamma = max(min(alpha - 1, beta), 0) from Eqs. (1) and (4) (:func:`_alpha_minus_1`, :func:`_beta`), as
    :func:`stall_count`; with mu = inf, beta = inf where T_r > 0 and 0 where T_r = 0 (:func:`stall_bound`).

    This is the source of truth of Eq. (5): it reads as the equation, beside Eqs. (1), (4) and the printed
    form in this module, runs wherever NumPy does, and is what the reference points and the schedule are
    checked against (``tests/test_models_slow_start_latency.py``). ``latency_chunk`` in ``closed_forms.c``
    exists for speed only: NumPy makes one pass over the arrays per operation and per range check, the C
    loop one pass for all, several times faster on large grids (``make bench``). It repeats these
    operations in the same order, and ``tests/test_models_compiled.py`` checks that both paths agree on a
    property-based sample; a change here is made there too.
    """
    alpha_minus_1 = _alpha_minus_1(obj, mtu, x)
    gamma = np.minimum(alpha_minus_1, _beta(mtu, rate, rtt, x))
    if rate.max() == np.inf:  # rates are checked: no NaN
        gamma = np.where(rate == np.inf, np.where(rtt > 0, alpha_minus_1, 0), gamma)
    gamma = np.maximum(gamma, 0)
    seg = mtu / rate  # L_mtu/mu
    stall = gamma * (rtt + seg) - (_exact_pow2(gamma) - 1.0) * x * seg
    return obj / rate + setup * rtt + stall


def _latency_corrected(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, setup_rtts) -> np.ndarray:
    """Return Eq. (5), corrected form: the compiled path (:mod:`paperlib.models.compiled`) or the NumPy path.

    The compiled path checks and computes in one pass; if a point fails a check, the full checks
    (:func:`_check`) raise, naming the parameter and the first bad value, as the NumPy path does first.
    """
    if compiled.library() is not None:
        names = ("obj_bits", "mtu_bits", "rate_bps", "rtt_s", "initial_window", "setup_rtts")
        args = (obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, setup_rtts)
        try:
            operands = [validate.numbers(name, value) for name, value in zip(names, args, strict=True)]
        except validate.ParameterError:  # name the first bad argument in the order of the full checks
            _check(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
            raise
        with np.errstate(invalid="ignore"):
            out = compiled.evaluate("slow_start_latency", operands, (_SHAVE, _NUDGE))
        if out is not None:
            return out
    obj, mtu, rate, rtt, x = _check(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
    setup = validate.non_negative("setup_rtts", setup_rtts)
    with np.errstate(invalid="ignore"):  # mu = inf: inf * 0 in beta, masked by its where()
        return _latency_corrected_numpy(obj, mtu, rate, rtt, x, setup)


def transfer_latency_s(
    obj_bits,
    mtu_bits,
    rate_bps,
    rtt_s,
    initial_window,
    *,
    setup_rtts: float = 2,
    form: str = "corrected",
) -> np.ndarray:
    """Return the object transfer latency in seconds, vectorised over all arguments.

    Paper: 004, Eq. (5) (``setup_rtts=2``, SCTP) and Eq. (6) (``setup_rtts=4``, TCP):
    setup_rtts T_r + L_obj/mu + gamma (T_r + L_mtu/mu) - x (2^gamma - 1) L_mtu/mu.

    Assumes: no loss; the transfer ends in the initial slow start (no
    ssthresh, no receiver-window limit); one ACK per segment; ACK transmission
    time neglected; ``rtt_s`` is the propagation round trip T_r (without
    serialisation).

    Parameters
    ----------
    obj_bits : object size L_obj (bits)
    mtu_bits : segment size L_mtu (bits)
    rate_bps : link rate mu server -> client (bit/s); ``inf`` allowed (the limit)
    rtt_s : round-trip time T_r (s)
    initial_window : initial window x (segments, whole number >= 1)
    setup_rtts : round trips before the first data byte is counted (2: SCTP's
        four-way handshake with the request on COOKIE-ECHO, plus the request/response)
    form : ``"corrected"`` (default, agrees with the schedule for any x) or
        ``"printed"`` (the paper's closed form as printed; x a power of 2)

    The corrected form runs on the compiled path where gcc is available (:mod:`paperlib.models.compiled`,
    one pass over the arrays) and on NumPy otherwise; both give the same bits.
    """
    validate.choice("form", form, FORMS)
    if form == "corrected":
        # a NumPy scalar for scalar arguments
        return _latency_corrected(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, setup_rtts)[()]
    obj, mtu, rate, rtt, x = _check(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window)
    setup = validate.non_negative("setup_rtts", setup_rtts)
    gamma = np.array(stall_count(obj, mtu, rate, rtt, x, form=form), dtype=float)
    seg_time = mtu / rate
    with np.errstate(invalid="ignore"):
        stall = gamma * (rtt + seg_time) - (np.exp2(gamma) - 1.0) * x * seg_time
    out = obj / rate + setup * rtt + stall
    return out[()]  # a NumPy scalar for scalar arguments, as before


def sctp_latency_s(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, *, form: str = "corrected"):
    """Return LT_sctp, paper 004 Eq. (5), in seconds (see :func:`transfer_latency_s`)."""
    return transfer_latency_s(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, setup_rtts=2, form=form)


def tcp_latency_s(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, *, form: str = "corrected"):
    """Return LT_tcp, paper 004 Eq. (6), in seconds: Eq. (5) plus two round trips.

    Assumes: as Eq. (5), plus the paper's empirical premise that TCP on a real
    operating system needs two more round trips than SCTP for the same data.
    """
    return transfer_latency_s(obj_bits, mtu_bits, rate_bps, rtt_s, initial_window, setup_rtts=4, form=form)
