"""Paper 005's object and page transfer times (paperlib.models.page_transfer).

Three kinds of check: reference points derived by hand; the closed form against a brute-force
construction (every loss position enumerated for pages of 2-3 objects, on the segment-by-segment
slow-start schedule of paperlib.models.slow_start_schedule); hypothesis invariants.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib.models import handshake, http_response_time, multiuser_waiting, page_transfer, slow_start_latency
from paperlib.models.slow_start_schedule import schedule_latency_s, segment_send_times
from paperlib.validate import ParameterError

S = 12_000  # a 1500-byte segment, bits
RATE = 1.2e6  # S / RATE = 0.01 s per segment


# --- one object: paper 004's Eq. (5) with the stack's handshake --------------------------


def test_object_latency_by_hand():
    # Paper 004's Figure 1 example (tests/test_models_slow_start_latency.py): 14 segments, x = 2, 1 Mbit/s,
    # T_r = 0.1 s: 14 * 0.012 + stalls 0.088 + 0.064 = 0.32 s after the set-up. With TCP + TLS 1.3 (2 RTT
    # of handshake + 1 of request) the set-up is 0.3 s: 0.62 s; QUIC 0-RTT (0 + 1): 0.42 s; SCTP (1 + 1): 0.52
    # s, paper 004's own LT_sctp.
    for stack, expected in (("tcp_tls13", 0.62), ("quic_0rtt", 0.42), ("sctp", 0.52)):
        h = handshake.handshake_rtts(stack)
        assert page_transfer.object_latency_s(14 * S, S, 1e6, 0.1, 2, h) == pytest.approx(expected)
    assert page_transfer.object_latency_s(14 * S, S, 1e6, 0.1, 2, 1) == slow_start_latency.sctp_latency_s(
        14 * S, S, 1e6, 0.1, 2)


@given(st.floats(1e3, 3e6), st.sampled_from([536 * 8, 1460 * 8, S]), st.floats(1e4, 1e9), st.floats(0, 1),
       st.integers(1, 16), st.sampled_from([0, 1, 2, 3]))
def test_object_latency_matches_the_schedule(obj, mss, rate, rtt, x, h):
    # the segment-by-segment schedule with setup_rtts = h + 1 (the last segment may be short)
    expected = schedule_latency_s(obj, mss, rate, rtt, x, setup_rtts=h + 1)
    assert page_transfer.object_latency_s(obj, mss, rate, rtt, x, h) == pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- the sending order: paper 000's round robin ----------------------------------------


def _round_robin_order(packets):
    """Return the owner of every packet position (0-based objects), by playing the round robin out."""
    left = list(packets)
    order = []
    while any(left):
        for i, k in enumerate(left):
            if k:
                order.append(i)
                left[i] -= 1
    return order


def _sequential_order(packets):
    return [i for i, k in enumerate(packets) for _ in range(k)]


def _last_positions(order, objects):
    """Return the 1-based position of every object's last packet in ``order``."""
    return [max(j + 1 for j, owner in enumerate(order) if owner == i) for i in range(objects)]


def test_last_positions_by_hand():
    # Fig. 2 of paper 000: 4 objects of 3 packets, a b c d a b c d a b c d: the last packets at 9, 10, 11, 12
    assert page_transfer.last_packet_positions([3, 3, 3, 3]).tolist() == [9, 10, 11, 12]
    # sizes 1, 3, 2: round 1 a b c, round 2 b c, round 3 b -> a ends at 1, c at 5, b at 6
    assert page_transfer.last_packet_positions([1, 3, 2]).tolist() == [1, 6, 5]
    assert page_transfer.last_packet_positions([1, 3, 2], "sequential").tolist() == [1, 4, 6]


@given(st.lists(st.integers(1, 12), min_size=1, max_size=8))
def test_last_positions_match_the_played_out_order(packets):
    for order, play in (("round_robin", _round_robin_order), ("sequential", _sequential_order)):
        expected = _last_positions(play(packets), len(packets))
        assert page_transfer.last_packet_positions(packets, order).tolist() == expected


@given(st.integers(1, 30), st.integers(1, 30))
def test_mean_last_position_is_paper_000s_eq_6(m, n):
    # equal objects: the mean of c_i = (n - 1) m + i over i = 1..m is (2 m n - m + 1)/2, Eq. (6) with tau = 1
    c = page_transfer.last_packet_positions([n] * m)
    assert c.mean() == pytest.approx(float(multiuser_waiting.mean_turnaround_time_same(m, n, 1.0)))


# --- a page: reference point by hand -----------------------------------------------------


def _two_objects(p, **reading):
    # two objects of 3 segments, 0.01 s each, T_r = 0.1 s, x = 10 (all six segments in the first window),
    # TCP + TLS 1.3 (h = 2)
    return page_transfer.object_completion_s([3 * S, 3 * S], S, RATE, 0.1, p, 10, 2, **reading)


def test_page_by_hand_loss_free():
    # round robin: object 1 at positions 1, 3, 5, object 2 at 2, 4, 6 -> c = (5, 6). No stall (window 10 >= 6):
    # L(c) = 3 T_r + c * 0.01 = 0.35 and 0.36 s, in both readings
    for blocking in page_transfer.BLOCKINGS:
        assert _two_objects(0.0, blocking=blocking) == pytest.approx([0.35, 0.36])


def test_page_by_hand_one_loss_printed():
    # p = 1/6: a = N p = 1 loss among the 6 packets. "printed": D = TOdetect + MSS/R = 0.15 + 0.01 = 0.16 s on
    # every later packet, H = HOB = 0.01 s on the blocked objects.
    # shared: object 1 (c = 5): 0.35 + (5/6)(0.16) + (5/6)(0.01) = 0.491667; object 2 (c = 6): 0.36 + 0.17 = 0.53
    assert _two_objects(1 / 6, blocking="shared") == pytest.approx([0.35 + 5 / 6 * 0.17, 0.53])
    # independent: object 1: 0.35 + (5/6)(0.16) + (3/6)(0.01) = 0.488333; object 2: 0.36 + 0.16 + 0.005 = 0.525
    assert _two_objects(1 / 6, blocking="independent") == pytest.approx([0.35 + 5 / 6 * 0.16 + 0.005, 0.525])


def test_page_by_hand_one_loss_recovery():
    # "recovery": D = MSS/R = 0.01 s, H = TOdetect = 0.15 s.
    # shared: 0.35 + (5/6)(0.01 + 0.15) = 0.483333 and 0.36 + 0.16 = 0.52
    assert _two_objects(1 / 6, blocking="shared", loss_cost="recovery") == pytest.approx(
        [0.35 + 5 / 6 * 0.16, 0.52])
    # independent: 0.35 + (5/6)(0.01) + (3/6)(0.15) = 0.433333 and 0.36 + 0.01 + 0.075 = 0.445
    assert _two_objects(1 / 6, blocking="independent", loss_cost="recovery") == pytest.approx(
        [0.35 + 5 / 6 * 0.01 + 0.075, 0.445])
    # the mean and the last object (c = 6 is object 2)
    mean = page_transfer.mean_object_time_s([3 * S, 3 * S], S, RATE, 0.1, 1 / 6, 10, 2, blocking="independent",
                                            loss_cost="recovery")
    assert mean == pytest.approx((0.35 + 5 / 6 * 0.01 + 0.075 + 0.445) / 2)
    last = page_transfer.last_object_time_s([3 * S, 3 * S], S, RATE, 0.1, 1 / 6, 10, 2, blocking="independent",
                                            loss_cost="recovery")
    assert last == pytest.approx(0.445)


@given(st.floats(1.0, 500.0), st.floats(1e4, 1e9))
def test_printed_hold_is_paper_002s_hob(x, rate):
    # "printed": H = HOB of paper 002's Eq. (11), (y - b) MSS/R with y - b = 1 in 002's continuous reading,
    # wherever the loss falls (x); D's detection time is 002's TOdetect of Eq. (12), 1.5 round trips
    assert float(http_response_time.hob_time_s(x, S, rate)) == pytest.approx(S / rate, rel=1e-12)
    assert page_transfer.TODETECT_RTTS == http_response_time.TODETECT_RTTS == 1.5


def test_ceil_losses_are_paper_000s_alpha():
    # N p = 6 * 0.1 = 0.6: a = ceil(0.6) = 1, the same page as p = 1/6 with a = N p = 1
    ceil = _two_objects(0.1, blocking="shared", a_mode="ceil")
    assert ceil == pytest.approx(_two_objects(1 / 6, blocking="shared"))
    # and a = N p = 0.6 with the mean: 0.6 of the one-loss delays
    mean = _two_objects(0.1, blocking="shared")
    assert mean == pytest.approx([0.35 + 0.6 * 5 / 6 * 0.17, 0.36 + 0.6 * 0.17])


def test_equal_objects_without_stalls_follow_paper_000s_eq_6():
    # T_r = 0, a window larger than the page: L(c) = c MSS/R, so the mean over M objects of n packets is
    # Eq. (6)'s mean turnaround (2 M n - M + 1)/2 tau with tau = MSS/R. M = 4, n = 3: 10.5 tau = 0.105 s
    mean = page_transfer.mean_object_time_s([3 * S] * 4, S, RATE, 0.0, 0.0, 16, 0, blocking="shared")
    assert mean == pytest.approx(float(multiuser_waiting.mean_turnaround_time_same(4, 3, S / RATE)))
    assert mean == pytest.approx(0.105)


# --- brute force: every loss position, on the segment schedule ----------------------------


def _brute_force(packets, order, rate, rtt, x, h, losses, blocking, loss_cost):
    """Return every object's completion time averaged over ``losses`` (a list of (weight, set of lost positions)).

    Plain Python: the order played out, the loss-free finish times from the segment schedule, and each
    loss's delay added to every object it reaches (D: its last packet at or after the loss) and its hold to
    every object it blocks (shared: any of its packets at or after the loss; independent: the lost packet is
    its own).
    """
    play = _round_robin_order if order == "round_robin" else _sequential_order
    owners = play(packets)
    total = len(owners)
    _, finish = segment_send_times(total * S, S, rate, rtt, x)
    positions = {i: [j + 1 for j, o in enumerate(owners) if o == i] for i in range(len(packets))}
    segment, todetect = S / rate, 1.5 * rtt
    delay, hold = (todetect + segment, segment) if loss_cost == "printed" else (segment, todetect)
    times = [0.0] * len(packets)
    for weight, lost in losses:
        for i, own in positions.items():
            t = (h + 1) * rtt + finish[own[-1] - 1]
            for j in lost:
                if own[-1] >= j:
                    t += delay
                if (blocking == "shared" and any(k >= j for k in own)) or (blocking == "independent"
                                                                           and owners[j - 1] == i):
                    t += hold
            times[i] += weight * t
    return times


def _uniform_subsets(total, a):
    subsets = list(itertools.combinations(range(1, total + 1), a))
    return [(1 / len(subsets), set(s)) for s in subsets]


def _bernoulli_subsets(total, p):
    return [(p ** len(s) * (1 - p) ** (total - len(s)), set(s))
            for r in range(total + 1) for s in itertools.combinations(range(1, total + 1), r)]


PAGES = [[2, 3], [3, 3], [1, 2, 3], [4, 1, 2]]
READINGS = list(itertools.product(page_transfer.BLOCKINGS, page_transfer.LOSS_COSTS, page_transfer.ORDERS))


@pytest.mark.parametrize("packets", PAGES)
@pytest.mark.parametrize(("blocking", "loss_cost", "order"), READINGS)
def test_closed_form_is_the_average_over_every_placement_of_a_losses(packets, blocking, loss_cost, order):
    # a = 1 and 2 losses placed at every subset of the N positions (equally likely); p = a/N so that the
    # model's a = N p is a. A window of 2 and T_r = 0.05 s at 1.2 Mbit/s: the schedule stalls, so the
    # loss-free part is paper 004's Eq. (5) on the prefix of c_i packets, not a multiple of MSS/R.
    total = sum(packets)
    for a in (1, 2):
        expected = _brute_force(packets, order, RATE, 0.05, 2, 1, _uniform_subsets(total, a), blocking, loss_cost)
        model = page_transfer.object_completion_s([k * S for k in packets], S, RATE, 0.05, a / total, 2, 1,
                                                  blocking=blocking, loss_cost=loss_cost, order=order)
        assert model == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("packets", PAGES)
@pytest.mark.parametrize(("blocking", "loss_cost", "order"), READINGS)
def test_closed_form_is_the_expectation_over_bernoulli_losses(packets, blocking, loss_cost, order):
    # every subset of lost packets, weighted p^k (1-p)^(N-k): a = N p is the exact expectation
    total = sum(packets)
    for p in (0.03, 0.3):
        expected = _brute_force(packets, order, RATE, 0.05, 3, 2, _bernoulli_subsets(total, p), blocking, loss_cost)
        model = page_transfer.object_completion_s([k * S for k in packets], S, RATE, 0.05, p, 3, 2,
                                                  blocking=blocking, loss_cost=loss_cost, order=order)
        assert model == pytest.approx(expected, rel=1e-12)


# --- vectorised over rate x RTT x loss x initial window -----------------------------------


def test_grid_is_the_points():
    page = [40 * S, 7 * S, 3 * S]
    rates, rtts, ps, windows = np.array([1e6, 1e7]), np.array([0.01, 0.2]), np.array([0.0, 0.02]), np.array([1, 4, 10])
    grid = page_transfer.object_completion_s(page, S, rates[:, None, None, None], rtts[:, None, None],
                                             ps[:, None], windows, 1, blocking="shared")
    assert grid.shape == (2, 2, 2, 3, 3)
    for (i, rate), (j, rtt), (k, p), (m, x) in itertools.product(*map(enumerate, (rates, rtts, ps, windows))):
        point = page_transfer.object_completion_s(page, S, rate, rtt, p, x, 1, blocking="shared")
        assert grid[i, j, k, m] == pytest.approx(point, rel=1e-14)


# --- invariants --------------------------------------------------------------------------

pages = st.lists(st.integers(1, 60), min_size=1, max_size=6).map(lambda ks: [k * S for k in ks])
rates = st.floats(1e4, 1e9)
rtts = st.floats(0.0, 1.0)
losses = st.floats(0.0, 0.3)
windows = st.integers(1, 12)
readings = st.sampled_from(READINGS)


def _times(page, rate, rtt, p, x, h, reading):
    blocking, loss_cost, order = reading
    return page_transfer.object_completion_s(page, S, rate, rtt, p, x, h, blocking=blocking, loss_cost=loss_cost,
                                             order=order)


@settings(max_examples=100)
@given(pages, rates, rtts, windows, st.sampled_from(page_transfer.ORDERS))
def test_readings_equal_without_loss(page, rate, rtt, x, order):
    times = [_times(page, rate, rtt, 0.0, x, 1, (b, c, order)) for b, c in itertools.product(
        page_transfer.BLOCKINGS, page_transfer.LOSS_COSTS)]
    for other in times[1:]:
        assert other == pytest.approx(times[0], rel=1e-15)


@settings(max_examples=100)
@given(pages, rates, rtts, losses, windows, st.sampled_from(page_transfer.LOSS_COSTS),
       st.sampled_from(page_transfer.ORDERS))
def test_shared_never_faster_than_independent(page, rate, rtt, p, x, loss_cost, order):
    shared = _times(page, rate, rtt, p, x, 2, ("shared", loss_cost, order))
    independent = _times(page, rate, rtt, p, x, 2, ("independent", loss_cost, order))
    assert (shared >= independent * (1 - 1e-12)).all()


@settings(max_examples=100)
@given(pages, rates, rtts, losses, losses, windows, readings)
def test_monotone_in_loss(page, rate, rtt, p1, p2, x, reading):
    lo, hi = sorted((p1, p2))
    assert (_times(page, rate, rtt, lo, x, 1, reading) <= _times(page, rate, rtt, hi, x, 1, reading)
            * (1 + 1e-12)).all()


@settings(max_examples=100)
@given(pages, rates, rtts, rtts, losses, windows, readings)
def test_monotone_in_rtt(page, rate, r1, r2, p, x, reading):
    lo, hi = sorted((r1, r2))
    assert (_times(page, rate, lo, p, x, 1, reading) <= _times(page, rate, hi, p, x, 1, reading)
            * (1 + 1e-12)).all()


@settings(max_examples=100)
@given(pages, rates, rates, rtts, losses, windows, readings)
def test_a_faster_link_is_never_slower(page, r1, r2, rtt, p, x, reading):
    lo, hi = sorted((r1, r2))
    assert (_times(page, hi, rtt, p, x, 1, reading) <= _times(page, lo, rtt, p, x, 1, reading)
            * (1 + 1e-12)).all()


@settings(max_examples=100)
@given(pages, rates, rtts, losses, windows, windows, readings)
def test_a_larger_initial_window_is_never_slower(page, rate, rtt, p, x1, x2, reading):
    small, large = sorted((x1, x2))
    assert (_times(page, rate, rtt, p, large, 1, reading) <= _times(page, rate, rtt, p, small, 1, reading)
            * (1 + 1e-12)).all()


@settings(max_examples=100)
@given(pages, st.integers(0, 5), st.integers(1, 40), rates, rtts, losses, windows, readings)
def test_a_larger_object_never_helps(page, which, extra, rate, rtt, p, x, reading):
    # one object grows by ``extra`` segments: no object of the page (mean and last) finishes sooner
    grown = list(page)
    grown[which % len(page)] += extra * S
    before, after = _times(page, rate, rtt, p, x, 1, reading), _times(grown, rate, rtt, p, x, 1, reading)
    assert after.mean() >= before.mean() * (1 - 1e-12)
    assert after.max() >= before.max() * (1 - 1e-12)


@settings(max_examples=100)
@given(pages, rates, rtts, losses, windows, readings)
def test_each_handshake_round_trip_adds_one_rtt(page, rate, rtt, p, x, reading):
    # TCP + TLS 1.2 (3) against QUIC 0-RTT (0): three round trips more for every object
    tls12 = _times(page, rate, rtt, p, x, handshake.handshake_rtts("tcp_tls12"), reading)
    resumed = _times(page, rate, rtt, p, x, handshake.handshake_rtts("quic_0rtt"), reading)
    assert tls12 - resumed == pytest.approx(np.full(len(page), 3 * rtt), abs=1e-9 * (1 + tls12.max()))


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ParameterError, match="page_bits"):
        page_transfer.object_completion_s([[S]], S, RATE, 0.1, 0.0, 2, 1, blocking="shared")
    with pytest.raises(ParameterError, match="mss_bits"):
        page_transfer.object_completion_s([S], [S, S], RATE, 0.1, 0.0, 2, 1, blocking="shared")
    with pytest.raises(ParameterError, match="blocking"):
        page_transfer.object_completion_s([S], S, RATE, 0.1, 0.0, 2, 1, blocking="some")
    with pytest.raises(ParameterError, match="initial_window"):
        page_transfer.object_completion_s([S], S, RATE, 0.1, 0.0, 2.5, 1, blocking="shared")
    with pytest.raises(ParameterError, match="p"):
        page_transfer.object_completion_s([S], S, RATE, 0.1, 1.0, 2, 1, blocking="shared")
    assert math.isfinite(page_transfer.last_object_time_s([S], S, RATE, 0.1, 0.0, 2, 1, blocking="shared"))
