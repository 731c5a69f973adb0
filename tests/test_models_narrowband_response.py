"""Paper 000's single-user response time, Eq. (2): a reference point, limits against papers 002 and 004, invariants.

The operating point of Tables 1-3: theta = 13.5 KB (KB = 1000 -> 108 000 bit), mtu = 536 B = 4288 bit,
mu = 40 kbit/s, rtt = 0.256 s, p = 1 %. Then s = mtu/mu = 4288/40 000 = 0.1072 s, rtt + s = 0.3632 s,
and the default timeout is 1.5 rtt = 0.384 s.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.models import http_response_time, narrowband_response
from paperlib.models.reading import READING_000, SWITCHES
from paperlib.models.slow_start_latency import transfer_latency_s
from paperlib.validate import ParameterError

variant = READING_000.with_changes  # the paper's default reading with some switches changed

OBJ = 13_500 * 8  # bits
MTU = 536 * 8  # bits
R = 40e3  # bit/s
RTT = 0.256  # s
S = MTU / R  # 0.1072 s

objs = st.floats(1e3, 1e6)
mtus = st.sampled_from([536 * 8, 1460 * 8, 1500 * 8])
rates = st.floats(1e3, 1e8)
rtts = st.floats(0.0, 2.0)
ps = st.one_of(st.just(0.0), st.floats(1e-6, 0.3))
windows = st.integers(1, 8)


# --- the reference point, derived by hand -----------------------------------------------------


def test_operating_point_sctp_step_by_step():
    # n = ceil(13 500/536 = 25.19) = 26 packets; alpha = ceil(26 * 0.01 = 0.26) = 1 loss.
    # Eq. (1) of 002: 0.99^26 = 0.770043, x1 = (1 - 0.770043) * 0.99/0.01 + 1 = 0.229957 * 99 + 1 = 23.76573.
    res = narrowband_response.response_time_trace(OBJ, MTU, R, RTT, 0.01, narrowband_response.SCTP_INITIAL_WINDOW)
    assert (res.n_packets, res.losses) == (26, 1)
    first, rest = res.phases
    assert first["x"] == pytest.approx(23.76573, abs=1e-5)
    # First slow start from cwnd = 2: beta_2 = floor(log2((1 + 0.256/0.1072)/2)) + 1 = floor(0.7605) + 1 = 1;
    # P = min(1, log2(23.766/2 + 1) - 1 = 2.687) = 1, ST = 1 * 0.3632 - 2 * (2 - 1) * 0.1072 = 0.1488 s.
    assert first["stall_s"] == pytest.approx(0.1488, abs=1e-12)
    # Phase 1 (slow start, th(1) = inf): 0.1488 + (23.76573 + 1) * 0.1072 + 0.384 = 0.1488 + 2.65489 + 0.384 = 3.18769
    assert first["added_s"] == pytest.approx(3.18769, abs=1e-5)
    # Eq. (1): cwnd at the loss y = (x1 + 2)/2 = 12.88286, th(2) = max(y/2, 2) = 6.44143, A_th = 2 th - 1 = 11.88286;
    # N(2) = 26 - 23.76573 + 1 = 3.23427 < A_th: R in slow start from cwnd = 1 (Q = floor(log2 3.388) + 1 = 2):
    # P = min(2, log2(4.23427) - 1 = 1.08211) = 1.08211, ST = 1.08211 * 0.3632 - (2^1.08211 - 1) * 0.1072 = 0.27327 s,
    # R = 0.27327 + 3.23427 * 0.1072 = 0.27327 + 0.34671 = 0.61998 s.
    assert (first["window"], rest["A_th"], rest["n_packets"]) == pytest.approx((12.88286, 11.88286, 3.23427), abs=1e-5)
    assert rest["stall_s"] == pytest.approx(0.27327, abs=1e-5)
    assert rest["added_s"] == pytest.approx(0.61998, abs=1e-5)
    # E = 3.18769 + 0.61998 = 3.80767 s. Closed form: (n + 2 alpha) s + alpha TO + stalls
    # = 28 * 0.1072 + 0.384 + 0.1488 + 0.27327 = 3.0016 + 0.384 + 0.42207 = 3.80767.
    assert res.response_s == pytest.approx(3.80767, abs=1e-5)
    assert float(narrowband_response.sctp_response_time_s(OBJ, MTU, R, RTT, 0.01)) == res.response_s


def test_operating_point_tcp_differs_only_in_the_first_window():
    # TCP from cwnd = 1: Q = 2, P = min(2, log2(24.766) - 1 = 3.63) = 2, ST = 2 * 0.3632 - 3 * 0.1072 = 0.4048 s
    # (0.256 s more than SCTP's 0.1488: one round trip). y = (x1 + 1)/2 = 12.38286, A_th = 11.38286 > N(2) = 3.23427,
    # so R is the same 0.61998 s: E_tcp = 3.80767 + 0.256 = 4.06367 s.
    res = narrowband_response.response_time_trace(OBJ, MTU, R, RTT, 0.01, narrowband_response.TCP_INITIAL_WINDOW)
    assert res.phases[0]["stall_s"] == pytest.approx(0.4048, abs=1e-12)
    assert res.response_s == pytest.approx(4.06367, abs=1e-5)
    assert float(narrowband_response.tcp_response_time_s(OBJ, MTU, R, RTT, 0.01)) == pytest.approx(4.06367, abs=1e-5)


def test_operating_point_under_p000s_chosen_convention():
    # n = 13 500/536 = 25.1866 (n_mode exact), alpha = ceil(0.2519) = 1, x1 = 23.1399 (002's Eq. (1), as in
    # test_models_http_response_time); ST_2(x1) = 0.1488 (P = beta_2 = 1); TO = 1 rtt = 0.256 s;
    # N(2) = 25.1866 - 23.1399 + 1 = 3.0467 < A_th = x1/2 = 11.57: P = log2(4.0467) - 1 = 1.01666,
    # ST = 1.01666 * 0.3632 - (2^1.01666 - 1) * 0.1072 = 0.25955 s; transmission (N + 2) s = 27.1866 * 0.1072 = 2.91440.
    # E = 0.1488 + 0.256 + 0.25955 + 2.91440 = 3.57875 s.
    e = narrowband_response.response_time_s(OBJ, MTU, R, RTT, 0.01, 2, timeout_s=RTT, reading=variant(n_mode="exact"))
    assert float(e) == pytest.approx(3.57875, abs=1e-4)


def test_no_slow_start_after_the_timeout_is_paper_002s_reading():
    # post_loss_slow_start=False drops R's ST(N(2)) = 0.27327: 3.80767 - 0.27327 = 3.53440 s
    e = narrowband_response.response_time_s(OBJ, MTU, R, RTT, 0.01, 2, reading=variant(post_loss_slow_start=False))
    assert float(e) == pytest.approx(3.53440, abs=1e-5)


def test_rounded_alpha_means_no_loss_at_one_percent():
    # a_mode="round": alpha = round(0.26) = 0, so E = ST_2(26) + 26 s: P = min(1, log2 14 - 1) = 1 -> 0.1488;
    # 0.1488 + 26 * 0.1072 = 0.1488 + 2.7872 = 2.9360 s
    e = narrowband_response.response_time_s(OBJ, MTU, R, RTT, 0.01, 2, reading=variant(a_mode="round"))
    assert float(e) == pytest.approx(2.9360, abs=1e-12)


def test_a_congestion_avoidance_remainder():
    # p = 0.2, n = 26: alpha = ceil(5.2) = 6 losses; each later phase restarts from cwnd = 1 with a finite
    # threshold, so some phase or R must leave slow start (x >= A_th) once the window at the loss is small.
    res = narrowband_response.response_time_trace(OBJ, MTU, R, RTT, 0.2, 2)
    assert res.losses == 6
    assert len(res.phases) == 7
    assert sum(ph["added_s"] for ph in res.phases) == pytest.approx(res.response_s)
    assert any(ph["phase"] == "congestion-avoidance" for ph in res.phases)
    for ph in res.phases:
        if ph["phase"] == "congestion-avoidance":
            assert ph["L"] == pytest.approx(ph["x"] - ph["A_th"])
            assert ph["A_th"] >= 2 * narrowband_response.THRESHOLD_MIN_PACKETS - 1  # th >= 2 (Eq. (1)) -> A_th >= 3


# --- limits and agreement with papers 002 and 004 ----------------------------------------------


@given(objs, mtus, rates, rtts, windows, st.integers(0, 4))
def test_p_zero_is_paper_004s_loss_free_latency(obj, mtu, rate, rtt, w, setup):
    # alpha = 0: E = setup rtt + ST_w(N) + N s with N = theta/mtu, which is paper 004's Eq. (5)
    # setup rtt + L_obj/mu + gamma (rtt + s) - w (2^gamma - 1) s exactly when windows are whole (log_mode="ceil").
    lt = float(transfer_latency_s(obj, mtu, rate, rtt, w, setup_rtts=setup))
    exact_ceil = variant(n_mode="exact", log_mode="ceil")
    e = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, 0.0, w, setup_rtts=setup, reading=exact_ceil))
    assert e == pytest.approx(lt, rel=1e-12, abs=1e-12)
    # with n = ceil(theta/mtu) whole packets it is 004's latency of ceil(theta/mtu) full packets
    whole = math.ceil(obj / mtu - 1e-9) * mtu
    lt_whole = float(transfer_latency_s(whole, mtu, rate, rtt, w, setup_rtts=setup))
    e_whole = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, 0.0, w, setup_rtts=setup,
                                                        reading=variant(log_mode="ceil")))
    assert e_whole == pytest.approx(lt_whole, rel=1e-9, abs=1e-9)


@given(st.floats(0.0, 500.0), mtus, rates, rtts)
def test_stall_time_at_window_one_is_paper_002s_sc(n, mtu, rate, rtt):
    for mode in ("continuous", "ceil"):
        ours = float(narrowband_response.slow_start_stall_time_s(n, mtu, rate, rtt, 1, mode))
        theirs = float(http_response_time.slow_start_idle_time_s(n, mtu, rate, rtt, mode))
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


@given(st.floats(1.0, 500.0))
def test_window_at_loss_at_window_one_is_paper_002s_y(x):
    for mode in ("continuous", "ceil"):
        _, y, _ = http_response_time.loss_window(x, mode)
        assert float(narrowband_response.window_at_loss(x, 1, mode)) == pytest.approx(float(y), rel=1e-12)


@given(objs, mtus, rates, rtts)
def test_sctp_never_above_tcp_without_loss(obj, mtu, rate, rtt):
    # a first window of 2 never finishes later than a first window of 1 (Kurose-Ross, whole windows)
    s = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, 0.0, 2, reading=variant(log_mode="ceil")))
    t = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, 0.0, 1, reading=variant(log_mode="ceil")))
    assert s <= t + 1e-12


# --- invariants ------------------------------------------------------------------------------------


@given(objs, mtus, rates, rtts, ps, windows)
def test_at_least_transmission_and_timeouts(obj, mtu, rate, rtt, p, w):
    # Every phase sends x + 1 packets and N <- N - x + 1, so n + 2 alpha packets are sent in all;
    # E = (n + 2 alpha) s + alpha TO + stalls + L rtt >= (n + 2 alpha) s + alpha TO, and the terms add up.
    res = narrowband_response.response_time_trace(obj, mtu, rate, rtt, p, w)
    floor = (res.n_packets + 2 * res.losses) * mtu / rate + res.losses * 1.5 * rtt
    assert res.response_s >= floor * (1 - 1e-12) - 1e-12
    assert sum(ph["added_s"] for ph in res.phases) == pytest.approx(res.response_s, rel=1e-12, abs=1e-12)


@given(objs, mtus, rates, rtts, ps, windows, st.floats(0.0, 5.0), st.floats(0.0, 5.0))
def test_timeout_adds_alpha_times_its_length(obj, mtu, rate, rtt, p, w, to, extra):
    a = narrowband_response.response_time_trace(obj, mtu, rate, rtt, p, w, timeout_s=to)
    b = narrowband_response.response_time_trace(obj, mtu, rate, rtt, p, w, timeout_s=to + extra)
    assert b.response_s - a.response_s == pytest.approx(a.losses * extra, rel=1e-9, abs=1e-9)


@given(objs, mtus, rates, rtts, ps, windows)
def test_setup_and_final_chunk_shift_by_one_rtt_and_one_packet(obj, mtu, rate, rtt, p, w):
    e = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, p, w))
    with_setup = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, p, w, setup_rtts=1))
    assert with_setup == pytest.approx(e + rtt, rel=1e-12)
    one_more = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, p, w, reading=variant(final_chunk="N+1")))
    assert one_more == pytest.approx(e + mtu / rate, rel=1e-12)


@given(objs, mtus, rates, rtts, st.floats(0.0, 1.0), ps, windows, st.sampled_from(["continuous", "ceil"]))
def test_non_decreasing_in_rtt(obj, mtu, rate, rtt, extra, p, w, mode):
    # rtt moves no packet count (x, th, A_th do not depend on it); every stall and L rtt and TO = 1.5 rtt grow with it
    a = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, p, w, reading=variant(log_mode=mode)))
    b = float(narrowband_response.response_time_s(obj, mtu, rate, rtt + extra, p, w, reading=variant(log_mode=mode)))
    assert b >= a * (1 - 1e-12) - 1e-12


@given(objs, mtus, rates, st.floats(1.0, 100.0), rtts, ps, windows)
def test_non_increasing_in_rate_with_whole_windows(obj, mtu, rate, factor, rtt, p, w):
    # each term is a Kurose-Ross latency ST(k) + k s (non-increasing in the rate, paper 004) plus packets, L rtt, TO
    a = float(narrowband_response.response_time_s(obj, mtu, rate, rtt, p, w, reading=variant(log_mode="ceil")))
    b = float(narrowband_response.response_time_s(obj, mtu, rate * factor, rtt, p, w, reading=variant(log_mode="ceil")))
    assert b <= a * (1 + 1e-12) + 1e-12


def test_vectorised_equals_point_by_point():
    rate = np.array([40e3, 400e3, 3e6])
    p = np.array([[0.0], [0.004], [0.05]])
    grid = narrowband_response.response_time_s(OBJ, MTU, rate, RTT, p, 2)
    assert grid.shape == (3, 3)
    for i in range(3):
        for j in range(3):
            one = narrowband_response.response_time_trace(OBJ, MTU, rate[j], RTT, float(p[i, 0]), 2)
            assert grid[i, j] == one.response_s


@pytest.mark.parametrize("kwargs, name", [
    ({"p": 1.0}, "p"), ({"initial_window": 0}, "initial_window"), ({"rtt_s": -1.0}, "rtt_s"),
    ({"timeout_s": -0.1}, "timeout_s"), ({"final_chunk": "x+1"}, "final_chunk"), ({"n_mode": "floor"}, "n_mode"),
    ({"rate_bps": 0.0}, "rate_bps"), ({"initial_window": 1.5}, "initial_window"),
])
def test_impossible_parameters_are_named(kwargs, name):
    args = {"obj_bits": OBJ, "mtu_bits": MTU, "rate_bps": R, "rtt_s": RTT, "p": 0.01, "initial_window": 2}
    switches = {k: v for k, v in kwargs.items() if k in SWITCHES}
    args.update({k: v for k, v in kwargs.items() if k not in SWITCHES})
    with pytest.raises(ParameterError, match=name):
        narrowband_response.response_time_s(**args, reading=variant(**switches))
