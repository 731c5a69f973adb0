"""The brute-force slow-start schedule, segment by segment (paperlib.models.slow_start_schedule).

Its agreement with paper 004's closed form is in test_models_slow_start_latency.py; its cost bounds
in test_bad_input.py. Here: schedules derived by hand, and invariants of the construction itself.
"""

import pytest
from hypothesis import given, strategies

from paperlib.models import slow_start_schedule

S = 12_000  # a 1500-byte segment, bits
T = S / 1.2e6  # 0.01 s to send one at 1.2 Mbit/s


def test_segment_count():
    # ceil(L_obj / L_mtu); an exact multiple is not rounded up by floating-point noise
    assert slow_start_schedule.segment_count(S, S) == 1 and slow_start_schedule.segment_count(S + 1, S) == 2
    assert slow_start_schedule.segment_count(3 * S, S) == 3
    assert slow_start_schedule.segment_count(0.1 * 3 * 80, 8.0) == 3  # 24.000000000000004 / 8 = 3.0000000000000004


def test_five_segments_from_a_window_of_one_by_hand():
    # x = 1, T_r = 0.1 s, 0.01 s per segment. Segment 0: 0 -> 0.01. Its ACK returns at 0.11 and opens the
    # window to 2: segments 1 (0.11 -> 0.12) and 2 (0.12 -> 0.13). The ACK of segment 1 returns at 0.22 (window 3,
    # 2 acked: segments 3 and 4 may go): 3 at 0.22 -> 0.23, 4 at 0.23 -> 0.24.
    start, finish = slow_start_schedule.segment_send_times(5 * S, S, 1.2e6, 0.1, 1)
    assert start == pytest.approx([0.0, 0.11, 0.12, 0.22, 0.23])
    assert finish == pytest.approx([0.01, 0.12, 0.13, 0.23, 0.24])
    # two idle gaps (0.01 -> 0.11 and 0.13 -> 0.22); latency 2 T_r + 0.24 = 0.44 s
    assert slow_start_schedule.schedule_stalls(5 * S, S, 1.2e6, 0.1, 1) == 2
    assert slow_start_schedule.schedule_latency_s(5 * S, S, 1.2e6, 0.1, 1) == pytest.approx(0.44)
    assert slow_start_schedule.schedule_latency_s(5 * S, S, 1.2e6, 0.1, 1, setup_rtts=0) == pytest.approx(0.24)


def test_short_last_segment_and_a_window_that_holds_everything():
    # 2.5 segments, x = 4: three segments back to back, the last half as long: 0.01, 0.02, 0.025 s
    start, finish = slow_start_schedule.segment_send_times(2.5 * S, S, 1.2e6, 0.1, 4)
    assert start == pytest.approx([0.0, 0.01, 0.02]) and finish == pytest.approx([0.01, 0.02, 0.025])
    assert slow_start_schedule.schedule_stalls(2.5 * S, S, 1.2e6, 0.1, 4) == 0


def test_infinite_rate_waits_one_round_trip_per_window():
    # mu -> inf: windows of 1 and 2 segments leave at 0 and T_r; latency 2 T_r + T_r = 0.3 s, one stall
    assert slow_start_schedule.schedule_latency_s(3 * S, S, float("inf"), 0.1, 1) == pytest.approx(0.3)
    assert slow_start_schedule.schedule_stalls(3 * S, S, float("inf"), 0.1, 1) == 1


objs = strategies.floats(1e3, 2e6)
rates = strategies.floats(1e4, 1e9)
rtts = strategies.floats(0.0, 1.0)
windows = strategies.integers(1, 16)


@given(objs, rates, rtts, windows)
def test_never_faster_than_the_link_and_segments_never_overlap(obj, rate, rtt, x):
    start, finish = slow_start_schedule.segment_send_times(obj, S, rate, rtt, x)
    # one segment on the link at a time: each segment finishes before the next one starts
    assert all(f0 <= s1 + 1e-12 for f0, s1 in zip(finish[:-1], start[1:], strict=True))
    assert finish[-1] >= obj / rate * (1 - 1e-9)
    assert slow_start_schedule.schedule_latency_s(obj, S, rate, rtt, x) >= 2 * rtt + obj / rate * (1 - 1e-9)


@given(objs, rates, rtts, windows, strategies.integers(1, 16))
def test_a_larger_initial_window_is_never_slower(obj, rate, rtt, x, more):
    # every segment is released by an earlier (or the same) ACK, so no segment leaves later
    wider = slow_start_schedule.schedule_latency_s(obj, S, rate, rtt, x + more)
    assert wider <= slow_start_schedule.schedule_latency_s(obj, S, rate, rtt, x) * (1 + 1e-12)


@given(objs, rates, windows)
def test_no_round_trip_means_no_stall(obj, rate, x):
    assert slow_start_schedule.schedule_stalls(obj, S, rate, 0.0, x) == 0
    assert slow_start_schedule.schedule_latency_s(obj, S, rate, 0.0, x) == pytest.approx(obj / rate, rel=1e-9)
