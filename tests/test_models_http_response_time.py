"""Paper 002's response-time model (reconstructed algorithm and Table I): reference points, limits, invariants.

The operating point of Tables II/III: RTT = 0.256 s, O = 13.5 KB (KB = 1000 -> 108 000 bit),
R = 40 kbit/s, MSS = 536 B = 4288 bit, M = 5. Then s = MSS/R = 4288/40 000 = 0.1072 s and
RTT/s = 2.3881, so Q = floor(log2 3.3881) + 1 = floor(1.7605) + 1 = 2.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from paperlib.models import http_response_time
from paperlib.models.reading import READING_002, SWITCHES, ModelReading
from paperlib.models.slow_start_latency import transfer_latency_s
from paperlib.validate import ParameterError

variant = READING_002.with_changes  # the paper's default reading with some switches changed

O = 13_500 * 8  # bits
MSS = 536 * 8  # bits
R = 40e3  # bit/s
RTT = 0.256  # s
S = MSS / R  # 0.1072 s per packet

objs = st.floats(1e3, 1e6)
msss = st.sampled_from([536 * 8, 1460 * 8, 1500 * 8])
rates = st.floats(1e3, 1e8)
rtts = st.floats(0.0, 2.0)
ps = st.one_of(st.just(0.0), st.floats(1e-6, 0.3))


def tcp(obj, mss, rate, rtt, p, **kw):
    return http_response_time.response_time_tcp_s(obj, mss, rate, rtt, p, **kw)


def sctp(obj, mss, rate, rtt, p, **kw):
    return http_response_time.response_time_sctp_s(obj, mss, rate, rtt, p, **kw)


# --- the research note's hand computation (Sec. 1.4), KB = 1000 ---------------------------------


def test_operating_point_step_by_step():
    # N = 13 500 / 536 = 25.1866 packets; a = ceil(25.1866 * 0.01) = ceil(0.2519) = 1
    assert http_response_time.packets_in_object(O, MSS) == pytest.approx(25.186567, abs=1e-6)
    assert http_response_time.expected_losses(13_500 / 536, 0.01) == 1
    # Eq. (1): 0.99^25.1866 = exp(25.1866 ln 0.99) = exp(-0.253133) = 0.776364,
    # x = (1 - 0.776364) * 0.99/0.01 + 1 = 0.223636 * 99 + 1 = 23.1399
    assert http_response_time.expected_packets_before_loss(13_500 / 536, 0.01) == pytest.approx(23.1399, abs=1e-4)
    # Q = 2 (module docstring); K = log2(24.1399) = 4.5934 -> P = min(2, 3.5934) = 2:
    # Sx = 2 (0.256 + 0.1072) - (2^2 - 1) 0.1072 = 0.7264 - 0.3216 = 0.4048 s (ceil: K = 5, same P)
    assert http_response_time.stall_bound(MSS, R, RTT) == 2
    assert http_response_time.slow_start_idle_time_s(23.1399, MSS, R, RTT) == pytest.approx(0.4048, abs=1e-12)
    assert http_response_time.slow_start_idle_time_s(23.1399, MSS, R, RTT, "ceil") == pytest.approx(0.4048, abs=1e-12)
    # Eqs. (8)-(10), continuous: C = log2(24.1399) = 4.59335, y = 2^3.59335 = 24.1399/2 = 12.06995,
    # b = 23.1399 - 12.06995 = 11.06995, y - b = 1 -> Eq. (11): HOB = 1 * 0.1072 s
    c, y, b = http_response_time.loss_window(23.1399)
    assert (float(c), float(y), float(b)) == pytest.approx((4.59335, 12.06995, 11.06995), abs=1e-5)
    assert http_response_time.hob_time_s(23.1399, MSS, R) == pytest.approx(0.1072, abs=1e-12)

    res = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.01)
    assert res.losses == 1
    # Eq. (12): Tx1 = 0.4048 + 24.1399 * 0.1072 (= 2.5878) + 0.1072 + 1.5 * 0.256 (= 0.384) = 3.4838 s;
    # N <- 25.1866 - 23.1399 + 1 = 3.0467; last step x = N: TL = 4.0467 * 0.1072 = 0.4338 s
    assert [t["phase"] for t in res.trace] == ["slow-start", "final"]
    assert [t["x"] for t in res.trace] == pytest.approx([23.1399, 3.0467], abs=1e-4)
    assert [t["hob_s"] for t in res.trace] == pytest.approx([0.1072, 0.0], abs=1e-12)
    assert [t["added_s"] for t in res.trace] == pytest.approx([3.4838, 0.4338], abs=1e-4)
    # OT = 3.4838 + 0.4338 = 3.9176 s; closed form SC(x1) + (N + 3a + 1) s + 1.5 a RTT
    # = 0.4048 + 2.7 (= N s = O/R = 108 000/40 000) + 4 * 0.1072 + 0.384 = 3.9176 exactly; tot_hob = 0.1072
    assert res.ot_s == pytest.approx(3.9176, abs=1e-12)
    assert res.tot_hob_s == pytest.approx(0.1072, abs=1e-12)
    assert pd.DataFrame(res.trace).shape == (2, 7)


def test_operating_point_totals_recommended_defaults():
    # IT = 2 RTT = 0.512 s, PI = 1 < M = 5:
    # TCP = 0.512 + 5 (0.256 + 3.9176) = 0.512 + 5 * 4.1736 = 0.512 + 20.868 = 21.380 s (printed Table II: 21.33)
    assert tcp(O, MSS, R, RTT, 0.01) == pytest.approx(21.380, abs=1e-9)
    # SCTP (times_M) = 0.512 + 5 (4.1736 - 0.1072) = 0.512 + 20.332 = 20.844 s (printed: 20.81)
    assert sctp(O, MSS, R, RTT, 0.01) == pytest.approx(20.844, abs=1e-9)


def test_operating_point_printed_table_i_forms():
    # PI >= M: TCP = IT + RTT + OT = 0.512 + 0.256 + 3.9176 = 4.6856 s
    assert tcp(O, MSS, R, RTT, 0.01, pipeline_depth=5) == pytest.approx(4.6856, abs=1e-9)
    # printed SCTP: IT + RTT + (OT - tot_hob) = 0.512 + 0.256 + 3.8104 = 4.5784 s (far below the printed 20.81)
    assert sctp(O, MSS, R, RTT, 0.01, reading=variant(sctp_total="printed")) == pytest.approx(4.5784, abs=1e-9)
    # an explicit IT replaces 2 RTT: 0.462 + 20.868 = 21.330 (the IT Table II's TCP value implies)
    assert tcp(O, MSS, R, RTT, 0.01, it_s=0.462) == pytest.approx(21.330, abs=1e-9)


def test_table_ii_columns_under_the_recommended_defaults():
    # p = 0.4 %, 1 %, 2 %: a = ceil(25.1866 p) = ceil(0.10), ceil(0.25), ceil(0.50) = 1, and
    # x1 = 24.909, 23.140, 20.541 (Eq. 1) all exceed 2^(Q+1) - 1 = 7, so P = Q = 2 and SC = 0.4048 each
    # time: the closed form OT = SC(x1) + (N + 4) s + 1.5 RTT gives the same 21.380 / 20.844 (flat in p).
    for p in (0.004, 0.01, 0.02):
        assert tcp(O, MSS, R, RTT, p) == pytest.approx(21.380, abs=1e-9)
        assert sctp(O, MSS, R, RTT, p) == pytest.approx(20.844, abs=1e-9)
    # p = 5 %: a = ceil(1.2593) = 2; 0.95^25.1866 = exp(-1.29190) = 0.27477, x1 = 0.72523 * 19 + 1 = 14.779,
    # P = min(2, log2(15.779) - 1 = 2.98) = 2 -> SC = 0.4048;
    # OT = 0.4048 + 2.7 + (3*2 + 1) 0.1072 + 1.5 * 2 * 0.256 = 0.4048 + 2.7 + 0.7504 + 0.768 = 4.6232 s
    # TCP = 0.512 + 5 (4.8792) = 24.908 (printed 25.84); SCTP = 0.512 + 5 (4.8792 - 0.2144) = 23.836 (printed 24.86)
    assert tcp(O, MSS, R, RTT, 0.05) == pytest.approx(24.908, abs=1e-9)
    assert sctp(O, MSS, R, RTT, 0.05) == pytest.approx(23.836, abs=1e-9)


def test_operating_point_other_conventions():
    # KB = 1024: N = 13 824/536 = 25.7910, N s = 2.7648; OT = 0.4048 + 2.7648 + 0.4288 + 0.384 = 3.9824;
    # TCP = 0.512 + 5 * 4.2384 = 21.704; SCTP = 21.704 - 5 * 0.1072 = 21.168
    assert tcp(13_824 * 8, MSS, R, RTT, 0.01) == pytest.approx(21.704, abs=1e-9)
    assert sctp(13_824 * 8, MSS, R, RTT, 0.01) == pytest.approx(21.168, abs=1e-9)
    # N = ceil(25.19) = 26: N s = 2.7872; OT = 4.0048; TCP = 0.512 + 5 * 4.2608 = 21.816; SCTP = 21.280
    assert tcp(O, MSS, R, RTT, 0.01, reading=variant(n_mode="ceil")) == pytest.approx(21.816, abs=1e-9)
    assert sctp(O, MSS, R, RTT, 0.01, reading=variant(n_mode="ceil")) == pytest.approx(21.280, abs=1e-9)
    # final chunk N s instead of (N+1) s: one packet less per object, TCP 21.380 - 5 * 0.1072 = 20.844
    assert tcp(O, MSS, R, RTT, 0.01, reading=variant(final_chunk="N")) == pytest.approx(20.844, abs=1e-9)


def test_operating_point_ceiling_reading():
    # C = ceil(log2 24.1399) = 5, y = 16, b = 23.1399 - 16 = 7.1399, y - b = 8.8601 -> HOB = 0.94980 s;
    # Tx1 = 0.4048 + 2.58780 + 0.94980 + 0.384 = 4.32640; N <- 25.1866 - 23.1399 + 8.8601 = 10.9067;
    # final (10.9067 + 1) 0.1072 = 1.27640; OT = 5.60280;
    # TCP = 0.512 + 5 (5.85880) = 29.806; SCTP = 0.512 + 5 (5.85880 - 0.94980) = 25.057
    res = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.01, reading=variant(log_mode="ceil"))
    assert res.tot_hob_s == pytest.approx(0.94980, abs=1e-5)
    assert res.ot_s == pytest.approx(5.60280, abs=1e-5)
    assert tcp(O, MSS, R, RTT, 0.01, reading=variant(log_mode="ceil")) == pytest.approx(29.806, abs=1e-3)
    assert sctp(O, MSS, R, RTT, 0.01, reading=variant(log_mode="ceil")) == pytest.approx(25.057, abs=1e-3)


def test_operating_point_post_loss_slow_start():
    # the final 3.0466 packets restart slow start: P = log2(4.0466) - 1 = 1.01666 (< Q = 2),
    # SC = 1.01666 * 0.3632 - (2^1.01666 - 1) 0.1072 = 0.36925 - 0.10970 = 0.25955 s;
    # TCP = 21.380 + 5 * 0.25955 = 22.678
    assert tcp(O, MSS, R, RTT, 0.01, reading=variant(post_loss_slow_start=True)) == pytest.approx(22.678, abs=1e-3)


def test_operating_point_finite_threshold():
    # T0 = 16: Ath = 31 >= x1 + 1 = 24.14, a slow-start loss; T <- 8, Ath = 15 >= 4.05: same OT as T0 = inf
    res = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.01, reading=variant(initial_threshold=16))
    assert res.ot_s == pytest.approx(3.9176)
    # T0 = 8: Ath = 15 < 24.14, the first loss is in congestion avoidance. Eq. (14): Sth = SC(15),
    # P = min(2, log2 16 - 1 = 3) = 2 -> 0.4048; Eq. (13): L = 23.1399 - 15 = 8.1399;
    # Eq. (15): TL = 0.4048 + 2.58780 + 8.1399 * 0.256 (= 2.08383) + 0.384 = 5.46043 (+ HOB 0.1072 if computed);
    # N <- 3.0466, T <- (8 + 8.1399)/2 = 8.07 (Ath = 15.14 > 4.05): final 0.43380. OT = 5.89423 (research: 5.89)
    zero = http_response_time.object_transfer_time(
        O, MSS, R, RTT, 0.01, reading=variant(initial_threshold=8, hob_in_ca="zero")
    )
    assert zero.ot_s == pytest.approx(5.89423, abs=1e-5)
    assert zero.tot_hob_s == 0
    assert zero.trace[0]["phase"] == "congestion-avoidance"
    assert zero.trace[0]["L"] == pytest.approx(8.1399, abs=1e-4)
    computed = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.01, reading=variant(initial_threshold=8))
    assert computed.ot_s == pytest.approx(5.89423 + 0.1072, abs=1e-5)
    assert computed.tot_hob_s == pytest.approx(0.1072)


def test_grid_equals_point_by_point():
    pts = {"obj_bits": np.array([O, 4e5])[:, None], "mss_bits": MSS, "rate_bps": [R, 4e5, 3e6],
           "rtt_s": RTT, "p": 0.02}  # fmt: skip
    grid = http_response_time.response_times_grid(pts)
    assert len(grid) == 6
    for row in grid.itertuples():
        args = (row.obj_bits, row.mss_bits, row.rate_bps, row.rtt_s, row.p)
        assert row.tcp_s == tcp(*args)
        assert row.sctp_s == sctp(*args)
        assert row.ot_s == http_response_time.object_transfer_time(*args).ot_s
    # a DataFrame keeps its index and extra columns; per-point columns override the keywords
    frame = pd.DataFrame({"obj_bits": [O, O], "mss_bits": MSS, "rate_bps": R, "rtt_s": RTT, "p": [0.01, 0.01],
                          "objects": [5, 1], "label": ["a", "b"]}, index=[10, 20])  # fmt: skip
    out = http_response_time.response_times_grid(frame, reading=variant(sctp_total="printed"), pipeline_depth=5)
    assert list(out.index) == [10, 20] and list(out["label"]) == ["a", "b"]
    assert out["tcp_s"].tolist() == pytest.approx([4.6856, 4.6856])
    assert out["sctp_s"].tolist() == pytest.approx([4.5784, 4.5784])
    assert out.loc[10, "tcp_s"] == tcp(O, MSS, R, RTT, 0.01, objects=5, pipeline_depth=5)


# --- limits ---------------------------------------------------------------------------------------


@given(objs, msss, rates, rtts)
def test_p_zero_is_the_loss_free_kurose_ross_latency(obj, mss, rate, rtt):
    # No loss: a = 0, one step with x = N: OT = SC(N) + N MSS/R (final_chunk="N"). paper 004's Eq. (5) with
    # x = 1 is 2 RTT + O/R + gamma (RTT + s) - (2^gamma - 1) s with gamma = min(alpha - 1, beta),
    # alpha = ceil(log2(N + 1)) = K and beta = floor(log2(1 + R RTT/MSS)) + 1 = Q: the same SC with P = gamma,
    # exactly when K is the ceiling (log_mode="ceil"). So OT = LT_004(x = 1) - 2 RTT.
    kr = float(transfer_latency_s(obj, mss, rate, rtt, 1)) - 2 * rtt
    ot = http_response_time.object_transfer_time(
        obj, mss, rate, rtt, 0.0, reading=variant(log_mode="ceil", final_chunk="N")
    ).ot_s
    assert ot == pytest.approx(kr, rel=1e-12, abs=1e-12)
    # the printed final chunk counts (N + 1) packets: one MSS/R more
    ot_printed = http_response_time.object_transfer_time(
        obj, mss, rate, rtt, 0.0, reading=variant(log_mode="ceil")
    ).ot_s
    assert ot_printed == pytest.approx(kr + mss / rate, rel=1e-12, abs=1e-12)
    # continuous K = log2(N + 1) agrees whenever P saturates at Q (or N + 1 is a power of two)
    n = obj / mss
    if math.log2(n + 1) - 1 >= float(http_response_time.stall_bound(mss, rate, rtt)):
        ot_cont = http_response_time.object_transfer_time(
            obj, mss, rate, rtt, 0.0, reading=variant(final_chunk="N")
        ).ot_s
        assert ot_cont == pytest.approx(kr, rel=1e-12, abs=1e-12)


def test_continuous_sc_equals_kurose_ross_at_whole_windows_only():
    # RTT = 0: Q = floor(log2 1) + 1 = 1. n = 3 packets: K = log2 4 = 2 both ways, P = 1:
    # SC = 1 (0 + s) - (2 - 1) s = 0. n = 2: continuous P = log2 3 - 1 = 0.585,
    # SC = 0.585 s - (1.5 - 1) s = 0.0850 s; ceil K = 2, P = 1, SC = 0. So continuous SC is not
    # monotone in n (0.085 s at 2 packets, 0 at 3) - the reason for the non-monotonicities below.
    assert http_response_time.slow_start_idle_time_s(3, 1.0, 1.0, 0.0) == pytest.approx(0.0, abs=1e-15)
    assert http_response_time.slow_start_idle_time_s(2, 1.0, 1.0, 0.0) == pytest.approx(
        math.log2(3) - 1 - 0.5, abs=1e-15
    )
    assert http_response_time.slow_start_idle_time_s(2, 1.0, 1.0, 0.0, "ceil") == pytest.approx(0.0, abs=1e-15)
    assert http_response_time.slow_start_idle_time_s(0, 1.0, 1.0, 0.3) == 0.0


def test_threshold_packets():
    # windows 1 + 2 + 4 + 8 = 15 = 2 * 8 - 1
    assert http_response_time.packets_until_threshold(8) == 15
    assert http_response_time.packets_until_threshold(math.inf) == math.inf


def test_first_loss_jump_at_p_zero_plus():
    # a = ceil(N p) = 1 for every p > 0 (research note (e)): x1 -> N + 1, clipped to N, so
    # OT(0+) = SC(N) + (N + 1) s + s + 1.5 RTT (the loss) + (1 + 1) s (the one packet left)
    # = OT(0) + 3 s + 1.5 RTT = 3.2120 + 0.3216 + 0.384 = 3.9176 at the operating point
    # (OT(0) = 0.4048 + 2.7 + 0.1072 = 3.2120).
    assert http_response_time.object_transfer_time(O, MSS, R, RTT, 0.0).ot_s == pytest.approx(3.2120, abs=1e-12)
    assert http_response_time.object_transfer_time(O, MSS, R, RTT, 1e-12).ot_s == pytest.approx(3.9176, abs=1e-9)
    # a_mode="round": a = round(25.19 p) = 0 below p = 0.5/25.19 = 1.99 %: no jump
    res = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.019, reading=variant(a_mode="round"))
    assert res.ot_s == pytest.approx(3.2120, abs=1e-12)
    assert http_response_time.object_transfer_time(O, MSS, R, RTT, 0.020, reading=variant(a_mode="round")).losses == 1


# --- invariants that hold (defaults) ------------------------------------------------------------


@given(objs, msss, rates, rtts, ps)
def test_non_negative_and_at_least_the_transmission(obj, mss, rate, rtt, p):
    res = http_response_time.object_transfer_time(obj, mss, rate, rtt, p)
    assert res.ot_s >= obj / rate - 1e-12 * res.ot_s
    assert 0 <= res.tot_hob_s <= res.ot_s
    assert sctp(obj, mss, rate, rtt, p) >= 0
    assert tcp(obj, mss, rate, rtt, p) >= 0


@given(objs, msss, rates, rtts, ps, st.integers(1, 8))
def test_closed_form_of_the_defaults(obj, mss, rate, rtt, p, objects):
    # Research note 1.2 (f): continuous log, T0 = inf: the x's cancel except in SC(x1),
    # OT = SC(x1) + (N + 3a + 1) s + 1.5 a RTT and tot_hob = a s; so TCP - SCTP = M a s.
    res = http_response_time.object_transfer_time(obj, mss, rate, rtt, p)
    n, s, a = obj / mss, mss / rate, res.losses
    x1 = float(http_response_time.expected_packets_before_loss(n, p))
    sc = float(http_response_time.slow_start_idle_time_s(x1, mss, rate, rtt))
    assert res.ot_s == pytest.approx(sc + (n + 3 * a + 1) * s + 1.5 * a * rtt, rel=1e-9)
    assert res.tot_hob_s == pytest.approx(a * s, rel=1e-9)
    gap = tcp(obj, mss, rate, rtt, p, objects=objects) - sctp(obj, mss, rate, rtt, p, objects=objects)
    assert gap == pytest.approx(objects * a * s, rel=1e-9, abs=1e-12)


@given(objs, msss, rates, rtts, ps, st.floats(0.0, 2.0))
def test_non_decreasing_in_rtt(obj, mss, rate, rtt, p, extra):
    # SC grows with RTT (P RTT at fixed Q; a step up of Q adds a non-negative amount), and so do
    # TOdetect, L RTT and IT = 2 RTT.
    for f in (tcp, sctp):
        assert f(obj, mss, rate, rtt + extra, p) >= f(obj, mss, rate, rtt, p) * (1 - 1e-12)


@given(objs, st.floats(1.0, 10.0), msss, rates, rtts, ps)
def test_non_decreasing_in_object_size(obj, factor, mss, rate, rtt, p):
    # OT = SC(x1) + (N + 3a + 1) s + ...: a only steps up with N; x1 grows with N at slope <= 1, and where
    # continuous SC falls with x1 it falls by at most 0.19 s per packet (SC = f(P), f'(P) >= (1 - 2 ln 2)(RTT + s)
    # and dP/dx1 = 1/((x1 + 1) ln 2) with x1 + 1 > 2 (RTT + s)/s there), so the N s term wins.
    # (Not true with log_mode="ceil": see the counterexample below.)
    for f in (tcp, sctp):
        assert f(obj * factor, mss, rate, rtt, p) >= f(obj, mss, rate, rtt, p) * (1 - 1e-12)


@given(objs, msss, rates, st.floats(1.0, 10.0), rtts, ps)
def test_non_increasing_in_rate_at_equal_q(obj, mss, rate, factor, rtt, p):
    # While Q is unchanged, P depends on x1 only (not on s), and d/ds [SC + (N + 3a + 1) s]
    # = P + 1 - 2^P + N + 3a + 1 > 0 because 2^P <= (x1 + 1)/2 <= (N + 1)/2.
    assume(http_response_time.stall_bound(mss, rate, rtt) == http_response_time.stall_bound(mss, rate * factor, rtt))
    for f in (tcp, sctp):
        assert f(obj, mss, rate * factor, rtt, p) <= f(obj, mss, rate, rtt, p) * (1 + 1e-12)


@given(objs, msss, rates, st.floats(1.0, 10.0), rtts, ps)
def test_non_increasing_in_rate_with_ceiling_log(obj, mss, rate, factor, rtt, p):
    # Whole P: SC is Kurose-Ross's stall sum, each stall s + RTT - 2^(k-1) s is 0 when Q steps up,
    # and (x1 + 1) s + SC(x1) grows with s because 2^P <= 2^(K-1) < x1 + 1; HOB, L RTT are >= 0 multiples.
    kw = dict(reading=variant(log_mode="ceil"))
    for f in (tcp, sctp):
        assert f(obj, mss, rate * factor, rtt, p, **kw) <= f(obj, mss, rate, rtt, p, **kw) * (1 + 1e-12)


@st.composite
def same_loss_count(draw):
    """Two loss ratios p1 < p2 with the same a = ceil(N p)."""
    obj, mss = draw(st.floats(2e4, 1e6)), draw(msss)
    n = obj / mss
    a = draw(st.integers(1, max(1, min(5, int(n * 0.3)))))
    u1 = draw(st.floats(0.01, 0.98))
    u2 = draw(st.floats(u1 + 0.01, 0.99))
    return obj, mss, (a - 1 + u1) / n, (a - 1 + u2) / n


@given(same_loss_count(), rates, rtts)
def test_flat_in_p_at_fixed_a_once_p_saturates(pair, rate, rtt):
    # At fixed a the defaults depend on p only through SC(x1); once P = Q at both loss ratios
    # (x1 + 1 >= 2^(Q+1)) SC(x1) = Q (RTT + s) - (2^Q - 1) s for both, and the response time is flat in p.
    obj, mss, p1, p2 = pair
    n, q = obj / mss, float(http_response_time.stall_bound(mss, rate, rtt))
    assume(http_response_time.expected_losses(n, p1) == http_response_time.expected_losses(n, p2))
    assume(math.log2(float(http_response_time.expected_packets_before_loss(n, p2)) + 1) - 1 >= q)
    for f in (tcp, sctp):
        assert f(obj, mss, rate, rtt, p2) == pytest.approx(f(obj, mss, rate, rtt, p1), rel=1e-12)


@st.composite
def more_losses(draw):
    """Two loss ratios p1 < p2 with a(p1) < a(p2) (p1 may be 0, a = 0)."""
    obj, mss = draw(st.floats(1e3, 1e6)), draw(msss)
    n = obj / mss
    top = max(1, min(8, int(n * 0.3)))
    a2 = draw(st.integers(1, top))
    a1 = draw(st.integers(0, a2 - 1))
    p1 = 0.0 if a1 == 0 else (a1 - 1 + draw(st.floats(0.01, 1.0))) / n
    p2 = (a2 - 1 + draw(st.floats(0.01, 1.0))) / n
    assume(p2 < 1)
    return obj, mss, p1, p2


@given(more_losses(), rates, rtts)
def test_non_decreasing_in_p_across_a_change_of_a(pair, rate, rtt):
    # The weaker invariant that holds (defaults: continuous log, T0 = inf): each extra expected loss
    # adds 3 s + 1.5 RTT per object, more than SC(x1) falls while x1 shrinks from p1 to p2. SC falls by at
    # most (RTT + 0.31 s) log2((x1(p1) + 1)/(x1(p2) + 1)), so it suffices that this ratio stays below 2^1.5
    # per extra loss; it is about 2.3 at most for large N (an estimate, not a proof: checked here and on
    # 94 000 random wide-range pairs). Fails with a finite threshold or the ceiling log (see below).
    obj, mss, p1, p2 = pair
    assert http_response_time.expected_losses(obj / mss, p1) < http_response_time.expected_losses(obj / mss, p2)
    for f in (tcp, sctp):
        assert f(obj, mss, rate, rtt, p2) >= f(obj, mss, rate, rtt, p1) * (1 - 1e-12)


@given(objs, msss, rates, rtts, ps, st.integers(1, 10), st.sampled_from(["continuous", "ceil"]))
def test_sctp_never_above_tcp_without_pipelining(obj, mss, rate, rtt, p, objects, log_mode):
    # PI = 1, times_M: TCP - SCTP = IT + M (RTT + OT) - IT - M (RTT + OT - tot_hob) = M tot_hob >= 0
    kw = dict(objects=objects, reading=variant(log_mode=log_mode))
    t, s_ = tcp(obj, mss, rate, rtt, p, pipeline_depth=1, **kw), sctp(obj, mss, rate, rtt, p, **kw)
    hob = http_response_time.object_transfer_time(obj, mss, rate, rtt, p, reading=variant(log_mode=log_mode)).tot_hob_s
    assert s_ <= t * (1 + 1e-12)  # equal when tot_hob = 0, up to rounding
    assert t - s_ == pytest.approx(objects * hob, rel=1e-9, abs=1e-9)


# --- documented counterexamples: properties that do NOT hold --------------------------------------


def test_counterexample_more_loss_can_be_faster_at_fixed_a():
    # R = 400 kbit/s (Table IV's range): s = 0.01072 s, RTT/s = 23.88, Q = floor(log2 24.88) + 1 = 5.
    # p = 1 % and 3 % both give a = ceil(0.25), ceil(0.76) = 1 loss. OT = SC(x1) + (N + 4) s + 1.5 RTT, so only
    # SC(x1) differs, and P = log2(x1 + 1) - 1 < Q = 5: SC still grows with x1, and x1 falls as p rises.
    #   p = 1 %: x1 = 23.1399, P = 3.59335, 2^P = 12.06997, SC = 3.59335 * 0.26672 - 11.06997 * 0.01072 = 0.83975
    #   p = 3 %: 0.97^25.1866 = 0.46431, x1 = 0.53569 * 32.333 + 1 = 18.3200, P = 3.27203, 2^P = 9.66002,
    #            SC = 3.27203 * 0.26672 - 8.66002 * 0.01072 = 0.77988
    # (N + 4) s + 1.5 RTT = 29.18657 * 0.01072 + 0.384 = 0.69688 -> OT = 1.53663 and 1.47676;
    # TCP = 0.512 + 5 (0.256 + OT) = 9.47514 at 1 % but 9.17580 at 3 %: 0.30 s *less* with three times the loss.
    fast = 400e3
    assert (
        http_response_time.expected_losses(13_500 / 536, 0.01)
        == http_response_time.expected_losses(13_500 / 536, 0.03)
        == 1
    )
    assert tcp(O, MSS, fast, RTT, 0.01) == pytest.approx(9.47514, abs=1e-5)
    assert tcp(O, MSS, fast, RTT, 0.03) == pytest.approx(9.17580, abs=1e-5)
    assert sctp(O, MSS, fast, RTT, 0.03) < sctp(O, MSS, fast, RTT, 0.01)


def test_counterexample_a_loss_can_shorten_the_transfer_with_a_finite_threshold():
    # T0 = 8 (Ath = 15), N = 100 packets of 4288 bit at 40 kbit/s, RTT = 0.256 s.
    # p = 0: one congestion-avoidance step, each of L = 100 - 15 = 85 packets costs an RTT (Eq. 15):
    #   OT = SC(15) + 101 s + 85 RTT = 0.4048 + 10.8272 + 21.76 = 32.9920 s.
    # p = 1 %: x1 = (1 - 0.99^100) 99 + 1 = 63.7628, L = 48.7628,
    #   TL1 = 0.4048 + 64.7628 s + 48.7628 RTT + 0.384 + HOB 0.1072 = 20.32185; then T <- (8 + 48.76)/2 = 28.38,
    #   Ath = 55.76 > 37.24 + 1 = the rest, which therefore goes at link rate: 38.2372 s = 4.09903.
    #   OT = 24.42088 s, 8.57 s *less* than without loss: after the loss the printed update (T + L)/2 lifts
    #   the threshold above the remaining packets, and step (11) charges no slow start for them.
    obj = 100 * MSS
    th8 = variant(initial_threshold=8)
    assert http_response_time.object_transfer_time(obj, MSS, R, RTT, 0.0, reading=th8).ot_s == pytest.approx(32.992)
    lossy = http_response_time.object_transfer_time(obj, MSS, R, RTT, 0.01, reading=variant(initial_threshold=8))
    assert lossy.losses == 1
    assert lossy.ot_s == pytest.approx(24.42088, abs=1e-5)
    assert tcp(obj, MSS, R, RTT, 0.01, reading=th8) < tcp(obj, MSS, R, RTT, 0.0, reading=th8)


def test_counterexample_faster_link_can_be_slower_where_q_steps_up():
    # MSS = 1000 bit, RTT = 0.1 s, N = 5 packets, p = 0 (OT = SC(5) + 6 s).
    #   R = 9 900 bit/s: s = 0.10101, RTT/s = 0.99, Q = floor(log2 1.99) + 1 = 1, P = min(1, log2 6 - 1) = 1,
    #                    SC = RTT = 0.1, OT = 0.1 + 0.60606 = 0.70606
    #   R = 10 100 bit/s: s = 0.09901, RTT/s = 1.01, Q = 2, P = log2 6 - 1 = 1.58496 (2^P = 3),
    #                    SC = 1.58496 * 0.19901 - 2 * 0.09901 = 0.11740, OT = 0.11740 + 0.59406 = 0.71146
    # TCP = 0.2 + 5 (0.1 + OT): 4.23030 -> 4.25731 s with a 2 % faster link. The fractional P (continuous log)
    # meets an integer Q: when Q steps up, SC jumps by s 2^q [(P - q) - (2^(P-q) - 1)] > 0 for q < P < q + 1.
    assert tcp(5000, 1000, 9_900, 0.1, 0.0) == pytest.approx(4.23030, abs=1e-5)
    assert tcp(5000, 1000, 10_100, 0.1, 0.0) == pytest.approx(4.25731, abs=1e-5)
    # Kurose-Ross's whole P has no jump: extra stall s + RTT - 2 s = RTT - s ~ 0; SC = 2 * 0.19901 - 3 * 0.09901
    # = 0.10099, OT = 0.69505, TCP = 0.2 + 5 * 0.79505 = 4.17525 < 4.23030
    assert tcp(5000, 1000, 10_100, 0.1, 0.0, reading=variant(log_mode="ceil")) == pytest.approx(4.17525, abs=1e-5)
    assert tcp(5000, 1000, 9_900, 0.1, 0.0, reading=variant(log_mode="ceil")) == pytest.approx(4.23030, abs=1e-5)


def test_counterexample_ceiling_reading_not_monotone_in_object_size():
    # log_mode="ceil", a = 1: OT = SC(x1) + (x1 + 1) s + (2^C - x1) s + TOdetect + (N - 2 x1 + 2^C + 1) s
    # = SC(x1) + (N + 2 + 2^(C+1) - 2 x1) s + 1.5 RTT: within one window C, x1 counts twice against N once.
    #   13.5 KB: N = 25.1866, x1 = 23.1399, C = 5: OT = 0.4048 + (25.1866 + 66 - 46.2799) 0.1072 + 0.384 = 5.60280
    #   14.5 KB: N = 27.0522, 0.99^N = 0.76195, x1 = 24.5677, C = 5: OT = 0.4048 + 43.9169 * 0.1072 + 0.384 = 5.49669
    small = http_response_time.object_transfer_time(
        13_500 * 8, MSS, R, RTT, 0.01, reading=variant(log_mode="ceil")
    ).ot_s
    large = http_response_time.object_transfer_time(
        14_500 * 8, MSS, R, RTT, 0.01, reading=variant(log_mode="ceil")
    ).ot_s
    assert small == pytest.approx(5.60280, abs=1e-5)
    assert large == pytest.approx(5.49669, abs=1e-5)
    # the default continuous reading is monotone here: N s grows by 1000 * 8 / 40 000 = 0.2 s, SC stays 0.4048
    assert http_response_time.object_transfer_time(14_500 * 8, MSS, R, RTT, 0.01).ot_s == pytest.approx(
        3.9176 + 0.2, abs=1e-9
    )


# --- bad input fails naming the parameter -------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(p=1.0), "p"),
        (dict(p=-0.01), "p"),
        (dict(p=float("nan")), "p"),
        (dict(rate_bps=0.0), "rate_bps"),
        (dict(rate_bps=-1.0), "rate_bps"),
        (dict(mss_bits=0.0), "mss_bits"),
        (dict(obj_bits=0.0), "obj_bits"),
        (dict(obj_bits=-8.0), "obj_bits"),
        (dict(rtt_s=-0.1), "rtt_s"),
        (dict(objects=0), "objects"),
        (dict(objects=2.5), "objects"),
        (dict(pipeline_depth=0), "pipeline_depth"),
        (dict(it_s=-1.0), "it_s"),
        (dict(initial_threshold=0.0), "initial_threshold"),
        (dict(log_mode="floor"), "log_mode"),
        (dict(a_mode="floor"), "a_mode"),
        (dict(n_mode="round"), "n_mode"),
        (dict(final_chunk="x"), "final_chunk"),
        (dict(hob_in_ca="half"), "hob_in_ca"),
        (dict(post_loss_slow_start="yes"), "post_loss_slow_start"),
        (dict(obj_bits=[O, O]), "obj_bits"),
    ],
)
def test_impossible_parameters_are_named(kwargs, name):
    args = dict(obj_bits=O, mss_bits=MSS, rate_bps=R, rtt_s=RTT, p=0.01) | kwargs
    with pytest.raises(ParameterError, match=name):
        switches = {k: args.pop(k) for k in SWITCHES if k in args}  # a bad switch fails in ModelReading
        http_response_time.response_time_tcp_s(**args, reading=variant(**switches))


def test_sctp_and_grid_name_their_parameters():
    with pytest.raises(ParameterError, match="sctp_total"):
        sctp(O, MSS, R, RTT, 0.01, reading=variant(sctp_total="per_object"))
    with pytest.raises(ParameterError, match="objects"):
        sctp(O, MSS, R, RTT, 0.01, objects=0)
    with pytest.raises(ParameterError, match="p must be in"):
        http_response_time.response_times_grid(
            {"obj_bits": O, "mss_bits": MSS, "rate_bps": R, "rtt_s": RTT, "p": [0.01, 1.0]}
        )
    with pytest.raises(ParameterError, match="rtt_s"):
        http_response_time.response_times_grid({"obj_bits": O, "mss_bits": MSS, "rate_bps": R, "p": 0.01})
    with pytest.raises(ParameterError, match="pipeline_depth"):
        http_response_time.response_times_grid({"obj_bits": O, "mss_bits": MSS, "rate_bps": R, "rtt_s": RTT, "p": 0.01,
                               "pipeline_depth": [1, 0]})  # fmt: skip
    with pytest.raises(ParameterError, match="n_packets"):
        http_response_time.expected_packets_before_loss(0.0, 0.01)
    with pytest.raises(ParameterError, match="threshold"):
        http_response_time.packets_until_threshold(-1)


# --- a point's result does not depend on the grid around it: the loop over many points (each masked after its
# own a + 1 steps) gives what the same loop gives on that point alone (object_transfer_time: a grid of one) --

switches = st.fixed_dictionaries(
    {
        "log_mode": st.sampled_from(http_response_time.LOG_MODES),
        "a_mode": st.sampled_from(http_response_time.A_MODES),
        "n_mode": st.sampled_from(http_response_time.N_MODES),
        "final_chunk": st.sampled_from(http_response_time.FINAL_CHUNKS),
        "hob_in_ca": st.sampled_from(http_response_time.HOB_IN_CA),
        "post_loss_slow_start": st.booleans(),
        "initial_threshold": st.sampled_from([np.inf, 4.0, 8.0, 64.0]),
    }
)
points = st.lists(
    st.tuples(
        st.floats(1e3, 1e6), st.floats(1e2, 1.2e4), st.floats(1e4, 1e8), st.floats(0.0, 1.0), st.floats(0.0, 0.3)
    ),
    min_size=1,
    max_size=8,
)


@given(points, switches)
def test_a_point_of_a_grid_equals_the_point_alone(pts, sw):
    obj, mss, rate, rtt, p = (np.array(c) for c in zip(*pts, strict=True))
    reading = ModelReading(**sw)
    grid = http_response_time.response_times_grid(
        {"obj_bits": obj, "mss_bits": mss, "rate_bps": rate, "rtt_s": rtt, "p": p}, reading=reading
    )
    for k in range(len(pts)):
        one = http_response_time.object_transfer_time(obj[k], mss[k], rate[k], rtt[k], p[k], reading=reading)
        assert grid["losses"].iloc[k] == one.losses
        # same operations in the same order; a vectorised ufunc may round a lane differently in the last bit
        assert np.isclose(grid["ot_s"].iloc[k], one.ot_s, rtol=1e-12, atol=0)
        assert np.isclose(grid["tot_hob_s"].iloc[k], one.tot_hob_s, rtol=1e-12, atol=1e-15)
