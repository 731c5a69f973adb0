"""Loss-free lower bounds from brute-force schedules, against closed forms derived by hand (< 5 s)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies

from paperlib.models import lower_bounds
from paperlib.models.slow_start_latency import sctp_latency_s


def test_any_order_waiting_bound_is_half_the_others_objects():
    # sequential service: the k-th user waits for k-1 objects; mean (m-1)/2 x theta/mu = 2 x 2.7 s at m = 5
    assert lower_bounds.mean_waiting_lower_bound_s(5, 108_000, 40_000) == pytest.approx(5.4)
    bounds = lower_bounds.mean_waiting_lower_bound_s(np.array([1, 30]), 108_000, 40_000)
    assert bounds == pytest.approx([0.0, 14.5 * 2.7])


@given(m=strategies.integers(1, 12), packets=strategies.integers(1, 30), last=strategies.floats(0.05, 1.0),
       rate=strategies.floats(1e3, 1e8))
@settings(max_examples=60, deadline=None)
def test_round_robin_bound_closed_form(m, packets, last, rate):
    # user r waits for (n-1)(m-1) full packets and (r-1) last packets: mean (m-1)[(n-1) mtu + last/2] / mu
    mtu = 4288.0
    obj = (packets - 1) * mtu + last * mtu
    expected = (m - 1) * ((packets - 1) * mtu + last * mtu / 2) / rate
    assert lower_bounds.round_robin_waiting_s(m, obj, mtu, rate) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    # and it is never below the bound of any order of service
    bound = lower_bounds.mean_waiting_lower_bound_s(m, obj, rate)
    assert lower_bounds.round_robin_waiting_s(m, obj, mtu, rate) >= bound * (1 - 1e-12) - 1e-9


def test_transfer_bound_without_stalls_is_setup_plus_transmission():
    # 50 KB at 28 kbit/s, 1500 B segments, window 4 (1.71 s of sending) > a 0.1 s round trip: no stall
    bound = lower_bounds.transfer_latency_lower_bound_s(400_000, 12_000, 28_000, 0.1, 4)
    assert bound == pytest.approx(0.2 + 400_000 / 28_000)
    # the page bound: 3 round trips, then M objects back to back
    assert lower_bounds.page_response_lower_bound_s(5, 108_000, 4288, 40_000, 0.055, 4) == pytest.approx(0.165 + 13.5)


@given(obj=strategies.floats(1e3, 1e7), rate=strategies.floats(1e4, 1e9), rtt=strategies.floats(0.0, 1.0),
       x=strategies.sampled_from([1, 2, 4, 8]))
@settings(max_examples=60, deadline=None)
def test_paper_004_model_is_never_below_its_bound(obj, rate, rtt, x):
    # Eq. (5), corrected, under its own parameters equals the schedule, so it is never below it
    bound = lower_bounds.transfer_latency_lower_bound_s(obj, 12_000, rate, rtt, x)
    assert float(sctp_latency_s(obj, 12_000, rate, rtt, x)) >= bound * (1 - 1e-9)


def test_check_not_below_names_the_cell():
    with pytest.raises(lower_bounds.BoundViolation,
                       match=r"regenerated value 0.5 s is below .* bound 0.6 s \(cell 1; 1 cells"):
        lower_bounds.check_not_below([1.0, 0.5], [0.9, 0.6], "demo")
