"""Paper 004's closed form (Eqs. 1-6) against reference points, invariants and the brute-force schedule."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from paperlib.models import slow_start_latency as m
from paperlib.models.slow_start_schedule import schedule_latency_s, schedule_stalls
from paperlib.validate import ParameterError

S = 1500 * 8  # a 1500-byte segment, bits

objs = st.floats(1e3, 1e8)
mtus = st.sampled_from([536 * 8, 1460 * 8, 1500 * 8, 9000 * 8])
rates = st.floats(1e3, 1e10)
rtts = st.floats(0.0, 2.0)
windows = st.integers(1, 16)
pow2_windows = st.sampled_from([1, 2, 4, 8, 16])


# --- reference points, derived by hand -------------------------------------------


def test_table_ii_28_kbps_row():
    # x = 4, T_r = 0.2 s, L_obj = 50 kB = 400 000 bit, L_mtu = 12 000 bit, mu = 28 kbit/s.
    # beta = floor(log2((1 + 28000*0.2/12000) / 4)) + 1 = floor(log2(0.367)) + 1 = -2 + 1 < 0 -> 0 stalls.
    # LT_sctp = 2*0.2 + 400000/28000 = 0.4 + 14.285714... = 14.685714...
    assert m.sctp_latency_s(400_000, S, 28e3, 0.2, 4) == pytest.approx(14.685714285714, abs=1e-9)
    # Eq. (6) adds 2 T_r = 0.4 s
    assert m.tcp_latency_s(400_000, S, 28e3, 0.2, 4) == pytest.approx(15.085714285714, abs=1e-9)


def test_figure_1_example():
    # Figure 1: x = 2, L_obj/L_mtu = 14 segments -> windows of 2, 4, 8: alpha = 3.
    assert m.windows_needed(14 * S, S, 2) == 3
    # mu = 1 Mbit/s (L_mtu/mu = 0.012 s), T_r = 0.1 s: stalls after windows 1 and 2 are
    # T_r - L_mtu/mu = 0.088 s and T_r - 3 L_mtu/mu = 0.064 s (Eq. 2); gamma = min(alpha-1, beta) = 2.
    assert m.stall_time_s(1, S, 1e6, 0.1, 2) == pytest.approx(0.088)
    assert m.stall_time_s(2, S, 1e6, 0.1, 2) == pytest.approx(0.064)
    assert m.stall_count(14 * S, S, 1e6, 0.1, 2) == 2
    # LT = 2*0.1 + 14*0.012 + 0.088 + 0.064 = 0.2 + 0.168 + 0.152 = 0.52 s
    assert m.sctp_latency_s(14 * S, S, 1e6, 0.1, 2) == pytest.approx(0.52)
    assert schedule_latency_s(14 * S, S, 1e6, 0.1, 2) == pytest.approx(0.52)
    # 14 + 2 = 16 is a power of two, so the printed floor equals Eq. (1)'s ceiling here
    assert m.sctp_latency_s(14 * S, S, 1e6, 0.1, 2, form="printed") == pytest.approx(0.52)


def test_printed_closed_form_drops_the_last_stall():
    # 13 segments, x = 2: windows 2, 4, 7 -> alpha = 3, so alpha - 1 = 2 stalls are possible.
    # Printed Eq. (5): floor(log2(13 + 2)) - log2 2 - 1 = 3 - 1 - 1 = 1: one stall only.
    assert m.stall_count(13 * S, S, 1e6, 0.1, 2) == 2
    assert m.stall_count(13 * S, S, 1e6, 0.1, 2, form="printed") == 1
    # Corrected: 0.2 + 13*0.012 + 0.088 + 0.064 = 0.508 s. Printed drops 0.064 s: 0.444 s.
    assert m.sctp_latency_s(13 * S, S, 1e6, 0.1, 2) == pytest.approx(0.508)
    assert m.sctp_latency_s(13 * S, S, 1e6, 0.1, 2, form="printed") == pytest.approx(0.444)
    # The schedule: window 3 starts when the first ACK of window 2 returns,
    # 0.112 + 0.012 + 0.1 = 0.224 s, and sends 7 segments until 0.308 s; + 2 T_r = 0.508 s.
    assert schedule_latency_s(13 * S, S, 1e6, 0.1, 2) == pytest.approx(0.508)
    assert schedule_stalls(13 * S, S, 1e6, 0.1, 2) == 2


def test_infinite_rate_limit():
    # mu -> inf: no transmission time; every one of the alpha - 1 windows waits a full T_r.
    # 50 kB / 1500 B = 33.3 segments, x = 4: windows 4, 8, 16, 32 -> alpha = 4; LT = 2 T_r + 3 T_r = 1.0 s.
    assert m.sctp_latency_s(400_000, S, np.inf, 0.2, 4) == pytest.approx(1.0)
    assert m.sctp_latency_s(400_000, S, 1e15, 0.2, 4) == pytest.approx(1.0, rel=1e-9)


def test_whole_grid_at_once_equals_point_by_point():
    obj = np.array([1e4, 4e5, 3e6])[:, None, None]
    rate = np.array([28e3, 1e6, 1e8])[None, :, None]
    x = np.array([1, 3, 4, 10])[None, None, :]
    grid = m.sctp_latency_s(obj, S, rate, 0.15, x)
    assert grid.shape == (3, 3, 4)
    for i, j, k in np.ndindex(grid.shape):
        assert grid[i, j, k] == m.sctp_latency_s(obj.flat[i], S, rate.flat[j], 0.15, x.flat[k])


# --- invariants -----------------------------------------------------------------


@given(objs, mtus, rates, rtts, windows)
def test_latency_is_at_least_setup_plus_transmission(obj, mtu, rate, rtt, x):
    lt = float(m.sctp_latency_s(obj, mtu, rate, rtt, x))
    assert lt >= 2 * rtt + obj / rate - 1e-9 * lt
    assert lt >= 0


@given(objs, mtus, rates, st.floats(1.0, 1e3), rtts, windows)
def test_monotone_non_increasing_in_rate(obj, mtu, rate, factor, rtt, x):
    slow = float(m.sctp_latency_s(obj, mtu, rate, rtt, x))
    fast = float(m.sctp_latency_s(obj, mtu, rate * factor, rtt, x))
    assert fast <= slow * (1 + 1e-12) + 1e-12


@given(objs, mtus, rates, rtts, st.floats(0.0, 2.0), windows)
def test_monotone_non_decreasing_in_rtt(obj, mtu, rate, rtt, extra, x):
    assert float(m.sctp_latency_s(obj, mtu, rate, rtt + extra, x)) >= float(
        m.sctp_latency_s(obj, mtu, rate, rtt, x)
    ) * (1 - 1e-12)


@given(objs, st.floats(1.0, 100.0), mtus, rates, rtts, windows)
def test_monotone_non_decreasing_in_object_size(obj, factor, mtu, rate, rtt, x):
    assert float(m.sctp_latency_s(obj * factor, mtu, rate, rtt, x)) >= float(
        m.sctp_latency_s(obj, mtu, rate, rtt, x)
    ) * (1 - 1e-12)


@given(objs, mtus, rtts, windows)
def test_rate_to_infinity_limit(obj, mtu, rtt, x):
    alpha = float(m.windows_needed(obj, mtu, x))
    assert float(m.sctp_latency_s(obj, mtu, np.inf, rtt, x)) == pytest.approx((alpha + 1) * rtt, abs=1e-12)
    # and the finite-rate latency approaches it from above
    assert float(m.sctp_latency_s(obj, mtu, 1e14, rtt, x)) >= (alpha + 1) * rtt - 1e-9


@given(objs, mtus, windows)
def test_alpha_is_the_least_number_of_windows(obj, mtu, x):
    alpha = int(m.windows_needed(obj, mtu, x))
    n = obj / mtu
    assert x * (2**alpha - 1) >= n - 1e-9 * n
    assert alpha == 1 or x * (2 ** (alpha - 1) - 1) < n


@pytest.mark.parametrize("k", [1, 2, 5, 10, 30])
def test_windows_and_stall_bound_tolerate_a_relative_1e_9(k):
    # Eq. (1): n/x + 1 = 2^k exactly needs k windows (x (2^k - 1) = n segments); a ratio 5e-10 relative above
    # it (rounding of unit conversions) still counts as k, one 5e-9 above needs k + 1 (the tolerance is a
    # factor 2^1e-9 = 1 + 6.9e-10)
    x = 2.0
    n = x * (2.0**k - 1)
    assert m.windows_needed(n * S, S, x) == k
    assert m.windows_needed(n * S * (1 + 5e-10 * 2**k / (2**k - 1)), S, x) == k
    assert m.windows_needed(n * S * (1 + 5e-9 * 2**k / (2**k - 1)), S, x) == k + 1
    # Eq. (4): (1 + mu T_r / L)/x = 2^(k-1) gives beta = k; 5e-10 relative below still k, 5e-9 below k - 1
    bdp = x * 2.0 ** (k - 1) - 1  # mu T_r / L in segments, with mu = L / (1 s): T_r = bdp seconds
    assert m.stall_bound(S, S, bdp, x) == k
    assert m.stall_bound(S, S, bdp - 5e-10 * (bdp + 1), x) == k
    assert m.stall_bound(S, S, bdp - 5e-9 * (bdp + 1), x) == k - 1


# --- the closed form against the brute-force schedule ----------------------------


@given(objs.filter(lambda o: o < 2e7), mtus, rates, rtts, windows)
def test_corrected_closed_form_equals_the_schedule(obj, mtu, rate, rtt, x):
    closed = float(m.sctp_latency_s(obj, mtu, rate, rtt, x))
    brute = schedule_latency_s(obj, mtu, rate, rtt, x)
    assert closed == pytest.approx(brute, rel=1e-9, abs=1e-12)


@given(objs.filter(lambda o: o < 2e7), mtus, rates, rtts, pow2_windows)
def test_printed_closed_form_never_exceeds_the_schedule(obj, mtu, rate, rtt, x):
    printed = float(m.sctp_latency_s(obj, mtu, rate, rtt, x, form="printed"))
    brute = schedule_latency_s(obj, mtu, rate, rtt, x)
    assert printed <= brute * (1 + 1e-9) + 1e-12
    n_plus_x = obj / mtu + x
    if math.log2(n_plus_x).is_integer():  # floor == ceil: the printed form is then right
        assert printed == pytest.approx(brute, rel=1e-9, abs=1e-12)


@given(st.integers(3, 500), rates, st.floats(0.01, 2.0), pow2_windows)
def test_printed_form_is_wrong_exactly_when_it_drops_a_real_stall(n_segments, rate, rtt, x):
    obj = n_segments * S
    assume(not math.log2(n_segments + x).is_integer())
    printed = float(m.sctp_latency_s(obj, S, rate, rtt, x, form="printed"))
    brute = schedule_latency_s(obj, S, rate, rtt, x)
    alpha = int(m.windows_needed(obj, S, x))
    last_possible_stall = float(m.stall_time_s(alpha - 1, S, rate, rtt, x)) if alpha > 1 else -1.0
    if last_possible_stall > 1e-12:
        assert brute - printed == pytest.approx(last_possible_stall, rel=1e-9)
    else:
        assert printed == pytest.approx(brute, rel=1e-9, abs=1e-12)


# --- bad input fails naming the parameter ---------------------------------------


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(rate_bps=-1.0), "rate_bps"),
        (dict(rate_bps=0.0), "rate_bps"),
        (dict(obj_bits=0.0), "obj_bits"),
        (dict(mtu_bits=-8.0), "mtu_bits"),
        (dict(rtt_s=-0.1), "rtt_s"),
        (dict(rtt_s=float("nan")), "rtt_s"),
        (dict(initial_window=0), "initial_window"),
        (dict(initial_window=2.5), "initial_window"),
    ],
)
def test_impossible_parameters_are_named(kwargs, name):
    args = dict(obj_bits=4e5, mtu_bits=S, rate_bps=1e6, rtt_s=0.2, initial_window=2) | kwargs
    with pytest.raises(ParameterError, match=name):
        m.sctp_latency_s(**args)


def test_printed_form_needs_a_power_of_two_window():
    with pytest.raises(ParameterError, match="initial_window must be a power of 2"):
        m.sctp_latency_s(4e5, S, 1e6, 0.2, 3, form="printed")
    assert m.sctp_latency_s(4e5, S, 1e6, 0.2, 3) > 0  # the corrected form takes any x


def test_unknown_form_is_named():
    with pytest.raises(ParameterError, match="form must be one of"):
        m.sctp_latency_s(4e5, S, 1e6, 0.2, 2, form="approximate")
