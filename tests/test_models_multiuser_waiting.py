"""Paper 000's multi-user model (Eqs. 3-8) against reference points, invariants and the round-robin schedule."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.models import compiled, multiuser_waiting
from paperlib.models.multiuser_waiting import round_robin_schedule
from paperlib.validate import ParameterError

users = st.integers(1, 40)
packets = st.integers(1, 40)
taus = st.floats(1e-3, 1e3)
groups = st.lists(st.tuples(st.integers(1, 10), taus), min_size=1, max_size=5)
multi_groups = st.lists(st.tuples(st.integers(1, 10), taus), min_size=2, max_size=5)
REL = 1e-9


def close(value, reference, scale):
    """Return whether ``value`` is ``reference`` within pytest.approx's tolerance for a waiting time.

    The schedule's waiting is finish - n tau, a difference of float sums, so its error is relative to
    the finish times (``scale``), not to the waiting itself.
    """
    return pytest.approx(reference, rel=REL, abs=REL * scale) == value


def schedule_means(sizes, times, n):
    """Return (mean waiting, mean turnaround, mean own service) of the explicit schedule."""
    df = round_robin_schedule(sizes, times, n)
    return df.waiting_time.mean(), df.turnaround_time.mean(), (n * df.packet_time).mean()


def split(group_list):
    return [g[0] for g in group_list], [g[1] for g in group_list]


# --- reference points, derived by hand -------------------------------------------------


def test_figure_2_schedule():
    # Fig. 2: m = 4 users a-d, n = 3 packets, tau = 1: a1 b1 c1 d1 | a2 b2 c2 d2 | a3 b3 c3 d3.
    # Finish: a 9, b 10, c 11, d 12 (user r finishes at (n-1)m + r). Waiting = finish - 3:
    # 6, 7, 8, 9; a's 6 is the text's (b1 + c1 + d1) + (b2 + c2 + d2).
    df = round_robin_schedule(4, 1.0, 3)
    assert list(df.finish_time) == [9.0, 10.0, 11.0, 12.0]
    assert list(df.waiting_time) == [6.0, 7.0, 8.0, 9.0]
    # total waiting 6+7+8+9 = 30, mean 7.5; total turnaround 9+10+11+12 = 42, mean 10.5
    assert df.waiting_time.sum() == 30.0
    assert df.waiting_time.mean() == 7.5
    assert df.turnaround_time.sum() == 42.0
    assert df.turnaround_time.mean() == 10.5


def test_figure_2_closed_forms():
    # Eq. (3): sum_{i=1}^{4} (4-i) + 4*2*3 = 6 + 24 = 30 (tau = 1)
    assert multiuser_waiting.total_waiting_time_same(4, 3, 1.0) == 30.0
    # Eq. (4): 30/4 = (m-1)(2n-1)/2 = 3*5/2 = 7.5
    assert multiuser_waiting.mean_waiting_time_same(4, 3, 1.0) == 7.5
    # Eq. (5): 4 * [4*2 + 5/2] = 4 * 10.5 = 42
    assert multiuser_waiting.total_turnaround_time_same(4, 3, 1.0) == 42.0
    # Eq. (6): (2*4*3 - 4 + 1)/2 = 21/2 = 10.5
    assert multiuser_waiting.mean_turnaround_time_same(4, 3, 1.0) == 10.5
    # in units of tau: tau = 0.2 s scales everything, 7.5 * 0.2 = 1.5 s
    assert multiuser_waiting.mean_waiting_time_same(4, 3, 0.2) == pytest.approx(1.5)


def test_two_group_example_schedule():
    # Groups (2 users, tau = 1), (3 users, tau = 2), n = 3. Round length D = 2*1 + 3*2 = 8.
    # Round 3 starts at 16: a1 ends 17, a2 18, b1 20, b2 22, b3 24.
    df = round_robin_schedule([2, 3], [1.0, 2.0], 3)
    assert list(df.finish_time) == [17.0, 18.0, 20.0, 22.0, 24.0]
    # waits = finish - n tau_i: 17-3, 18-3, 20-6, 22-6, 24-6 = 14, 15, 14, 16, 18; total 77, mean 15.4
    assert list(df.waiting_time) == [14.0, 15.0, 14.0, 16.0, 18.0]
    assert df.waiting_time.mean() == pytest.approx(15.4)
    # turnarounds 17+18+20+22+24 = 101, mean 20.2
    assert df.turnaround_time.mean() == pytest.approx(20.2)


def test_two_group_example_corrected_and_printed():
    # Same groups. Corrected Eq. (7): (n-1) sum m_i[(m_i-1)tau_i + sum_{j!=i} m_j tau_j]
    #   = 2 * [2*(1*1 + 6) + 3*(2*2 + 2)] = 2 * (14 + 18) = 64;
    #   + sum_i [m_i prior_i + sum_{r<=m_i} (r-1) tau_i] = (0 + (0+1)*1) + (3*2 + (0+1+2)*2) = 1 + 12 = 13;
    #   (64 + 13)/5 = 77/5 = 15.4.
    assert multiuser_waiting.mean_waiting_time_diff([2, 3], [1.0, 2.0], 3) == pytest.approx(15.4)
    # Printed Eq. (7): (n-1) sum m_i(m_i-1)tau_i = 2*(2 + 12) = 28; cross sum_{i, j!=i} m_i tau_j
    #   = 2*2 + 3*1 = 7; last: i=1: 0 + (0+1+2+3+4)*1 = 10, i=2: 3*2 + 10*2 = 26 -> 36.
    #   (28 + 7 + 36)/5 = 71/5 = 14.2
    assert multiuser_waiting.mean_waiting_time_diff([2, 3], [1.0, 2.0], 3, form="printed") == pytest.approx(14.2)
    # Corrected Eq. (8): m(n-1)D = 5*2*8 = 80; + sum_i [m_i prior_i + sum_{r<=m_i} r tau_i]
    #   = (0 + (1+2)*1) + (3*2 + (1+2+3)*2) = 3 + 18 = 21; 101/5 = 20.2
    assert multiuser_waiting.mean_turnaround_time_diff([2, 3], [1.0, 2.0], 3) == pytest.approx(20.2)
    # Printed Eq. (8): 80 + [0 + 15*1] + [6 + 15*2] = 80 + 51 = 131; 131/5 = 26.2
    assert multiuser_waiting.mean_turnaround_time_diff([2, 3], [1.0, 2.0], 3, form="printed") == pytest.approx(26.2)


@pytest.mark.parametrize(
    "sizes, times, n, true_w, printed_w, true_t, printed_t",
    [
        # derived above
        ([2, 3], [1.0, 2.0], 3, 15.4, 14.2, 20.2, 26.2),
        # (2,1), (2,3), n = 3: D = 2*1 + 2*3 = 8; round 3 from 16: 17, 18, 21, 24;
        # waits 17-3, 18-3, 21-9, 24-9 = 14, 15, 12, 15 -> 56/4 = 14; turnarounds 80/4 = 20.
        # Printed (7): 2*(2*1*1 + 2*1*3) = 16; cross 2*3 + 2*1 = 8; last i=1: 0 + (0+1+2+3)*1 = 6,
        # i=2: 2*2 + 6*3 = 22 -> 28; (16 + 8 + 28)/4 = 52/4 = 13.
        # Printed (8): 4*2*8 = 64; i=1: 0 + (1+2+3+4)*1 = 10, i=2: 4 + 10*3 = 34; 108/4 = 27.
        ([2, 2], [1.0, 3.0], 3, 14.0, 13.0, 20.0, 27.0),
        # one group of 4 split in two equal groups (2,1),(2,1): schedule as Fig. 2: W 7.5, T 10.5.
        # Printed (7): 2*(2 + 2) + (2 + 2) + [(0 + 6) + (2*2 + 6)] = 8 + 4 + 16 = 28, /4 = 7;
        # printed (8): 4*2*4 = 32 + [10] + [4 + 10] = 56, /4 = 14.
        ([2, 2], [1.0, 1.0], 3, 7.5, 7.0, 10.5, 14.0),
        # (1,1), (2,2), (1,5), n = 2: D = 1 + 4 + 5 = 10; round 2 from 10: 11, 13, 15, 20;
        # waits 11-2, 13-4, 15-4, 20-10 = 9, 9, 11, 10 -> 39/4 = 9.75; turnarounds 59/4 = 14.75.
        # Printed (7): 1*(2*1*2) = 4; cross 1*7 + 2*6 + 1*3 = 22; last sum m_i prior_i = 0 + 2 + 5 = 7
        # plus (0+1+2+3)*(1+2+5) = 48 -> 55; (4 + 22 + 55)/4 = 81/4 = 20.25.
        # Printed (8): 4*1*10 = 40; 7 + (1+2+3+4)*8 = 87; 127/4 = 31.75.
        ([1, 2, 1], [1.0, 2.0, 5.0], 2, 9.75, 20.25, 14.75, 31.75),
    ],
)
def test_group_examples_of_the_research_note(sizes, times, n, true_w, printed_w, true_t, printed_t):
    sched_w, sched_t, _ = schedule_means(sizes, times, n)
    assert sched_w == pytest.approx(true_w)
    assert sched_t == pytest.approx(true_t)
    assert multiuser_waiting.mean_waiting_time_diff(sizes, times, n) == pytest.approx(true_w)
    assert multiuser_waiting.mean_turnaround_time_diff(sizes, times, n) == pytest.approx(true_t)
    assert multiuser_waiting.mean_waiting_time_diff(sizes, times, n, form="printed") == pytest.approx(printed_w)
    assert multiuser_waiting.mean_turnaround_time_diff(sizes, times, n, form="printed") == pytest.approx(printed_t)
    # the printed forms are wrong here: both differ from the schedule
    assert abs(printed_w - sched_w) > 0.4 and abs(printed_t - sched_t) > 3


def test_algorithm_1_helpers():
    # Line 2: theta = 13.5 KB, mtu = 536 B -> 13500/536 = 25.19 -> n = 26 (KB = 1000);
    # with KB = 1024: 13824/536 = 25.79 -> also 26.
    assert multiuser_waiting.packets_per_object(13_500 * 8, 536 * 8) == 26
    assert multiuser_waiting.packets_per_object(13_824 * 8, 536 * 8) == 26
    # an exact multiple stays exact even when the float ratio is 3.0000000000000004
    assert 0.30000000000000004 / 0.1 > 3
    assert multiuser_waiting.packets_per_object(0.30000000000000004, 0.1) == 3
    # a sliver of an object is still one packet
    assert multiuser_waiting.packets_per_object(1.0, 536 * 8) == 1
    # Line 10: tau = E(T)/n, e.g. E(T) = 3.9 s, n = 26 -> 0.15 s
    assert multiuser_waiting.packet_response_time_s(3.9, 26) == pytest.approx(0.15)


def test_single_user_turnaround_is_the_single_user_response_time():
    # m = 1: nobody to wait for, W = 0, and T = n tau = n * E(T)/n = E(T) (Algorithm 1 line 10 inverted)
    tau = multiuser_waiting.packet_response_time_s(3.9, 26)
    assert multiuser_waiting.mean_waiting_time_same(1, 26, tau) == 0.0
    assert multiuser_waiting.mean_turnaround_time_same(1, 26, tau) == pytest.approx(3.9)


def test_tables_follow_the_tabulated_law_not_eq_4():
    # Table 1, p = 1 %, W_sctp at m = 5, 10, 20, 30: 3.19, 3.59, 3.78, 3.85;
    # Table 3, rtt = 55 ms, W_sctp: 2.31, 2.60, 2.74, 2.79. n = ceil(13.5 KB / 536 B) = 26.
    # Fit the one free constant (tau) by least squares: the (m-1)/m law leaves residuals within
    # print rounding (<= 0.005 + fit), Eq. (4) (proportional to m - 1) misses by more than 1 s.
    m = np.array([5, 10, 20, 30])
    for printed in ([3.19, 3.59, 3.78, 3.85], [2.31, 2.60, 2.74, 2.79]):
        printed = np.array(printed)
        for law, worst in ((multiuser_waiting.mean_waiting_time_tabulated, 0.006),
                           (multiuser_waiting.mean_waiting_time_same, None)):
            shape = law(m, 26, 1.0)
            scale = (printed * shape).sum() / (shape * shape).sum()
            residual = np.abs(printed - scale * shape).max()
            if worst is None:
                assert residual > 1.0
            else:
                assert residual <= worst
    # the law's ratios: W(10)/W(5) = (9/10)/(4/5) = 1.125, W(30)/W(5) = (29/30)/(4/5) = 1.2083
    tabulated = multiuser_waiting.mean_waiting_time_tabulated
    ratio = tabulated(np.array([10, 30]), 26, 1.0) / tabulated(5, 26, 1.0)
    assert ratio == pytest.approx([1.125, 29 / 24])
    # Eq. (4)'s: 9/4 = 2.25 and 29/4 = 7.25
    eq4 = multiuser_waiting.mean_waiting_time_same
    ratio4 = eq4(np.array([10, 30]), 26, 1.0) / eq4(5, 26, 1.0)
    assert ratio4 == pytest.approx([2.25, 7.25])


def test_whole_grid_at_once_equals_point_by_point():
    m = np.array([1, 4, 17])[:, None, None]
    n = np.array([1, 3, 26])[None, :, None]
    tau = np.array([0.01, 0.15, 2.0])[None, None, :]
    for f in (
        multiuser_waiting.total_waiting_time_same,
        multiuser_waiting.mean_waiting_time_same,
        multiuser_waiting.total_turnaround_time_same,
        multiuser_waiting.mean_turnaround_time_same,
        multiuser_waiting.mean_waiting_time_tabulated,
    ):
        grid = f(m, n, tau)
        assert grid.shape == (3, 3, 3)
        for i, j, k in np.ndindex(grid.shape):
            assert grid[i, j, k] == f(m.flat[i], n.flat[j], tau.flat[k])


def test_groups_vectorised_over_n_and_over_a_batch_of_packet_times():
    sizes = [2, 3, 1]
    batch = np.array([[1.0, 2.0, 0.5], [0.3, 0.3, 4.0]])
    n = np.array([1, 2, 7])[:, None]
    for f in (multiuser_waiting.mean_waiting_time_diff, multiuser_waiting.mean_turnaround_time_diff):
        for form in multiuser_waiting.FORMS:
            grid = f(sizes, batch, n, form=form)
            assert grid.shape == (3, 2)
            for i, j in np.ndindex(grid.shape):
                assert grid[i, j] == pytest.approx(float(f(sizes, batch[j], int(n.flat[i]), form=form)), rel=1e-12)


# --- the closed forms against the brute-force schedule --------------------------------


@given(users, packets, taus)
def test_eqs_3_to_6_equal_the_schedule(m, n, tau):
    df = round_robin_schedule(m, tau, n)
    assert close(float(multiuser_waiting.total_waiting_time_same(m, n, tau)), df.waiting_time.sum(), m * m * n * tau)
    assert close(float(multiuser_waiting.mean_waiting_time_same(m, n, tau)), df.waiting_time.mean(), m * n * tau)
    total = multiuser_waiting.total_turnaround_time_same(m, n, tau)
    mean = multiuser_waiting.mean_turnaround_time_same(m, n, tau)
    assert float(total) == pytest.approx(df.turnaround_time.sum(), rel=REL)
    assert float(mean) == pytest.approx(df.turnaround_time.mean(), rel=REL)


@given(groups, packets)
def test_corrected_eqs_7_and_8_equal_the_schedule(group_list, n):
    sizes, times = split(group_list)
    sched_w, sched_t, _ = schedule_means(sizes, times, n)
    assert close(float(multiuser_waiting.mean_waiting_time_diff(sizes, times, n)), sched_w, sched_t)
    assert float(multiuser_waiting.mean_turnaround_time_diff(sizes, times, n)) == pytest.approx(sched_t, rel=REL)


@given(users, packets, taus, st.sampled_from(multiuser_waiting.FORMS))
def test_one_group_reduces_eqs_7_and_8_to_eqs_4_and_6(m, n, tau, form):
    # p = 1: the cross term is empty and m_1 = m, so the printed upper limit m is right too
    assert float(multiuser_waiting.mean_waiting_time_diff([m], [tau], n, form=form)) == pytest.approx(
        float(multiuser_waiting.mean_waiting_time_same(m, n, tau)), rel=REL, abs=1e-9
    )
    assert float(multiuser_waiting.mean_turnaround_time_diff([m], [tau], n, form=form)) == pytest.approx(
        float(multiuser_waiting.mean_turnaround_time_same(m, n, tau)), rel=REL
    )


@given(multi_groups, packets)
def test_printed_eq_8_overstates_every_multi_group_case(group_list, n):
    # The printed sum_{j=1}^{m} j tau_i instead of sum_{r=1}^{m_i} r tau_i adds
    # sum_i tau_i [m(m+1) - m_i(m_i+1)] / (2m) > 0 as soon as p >= 2.
    sizes, times = split(group_list)
    _, sched_t, _ = schedule_means(sizes, times, n)
    m = sum(sizes)
    excess = sum(t * (m * (m + 1) - s * (s + 1)) for s, t in zip(sizes, times, strict=True)) / (2 * m)
    printed = float(multiuser_waiting.mean_turnaround_time_diff(sizes, times, n, form="printed"))
    assert printed > sched_t
    assert printed - sched_t == pytest.approx(excess, rel=1e-7)


# --- invariants --------------------------------------------------------------------------


@given(groups, packets)
def test_turnaround_minus_waiting_is_the_mean_own_service(group_list, n):
    # every user's turnaround - waiting = n tau_i, so T - W = n sum_i m_i tau_i / m
    sizes, times = split(group_list)
    sched_w, sched_t, own = schedule_means(sizes, times, n)
    assert sched_t - sched_w == pytest.approx(own, rel=1e-7)
    closed = float(multiuser_waiting.mean_turnaround_time_diff(sizes, times, n)
                   - multiuser_waiting.mean_waiting_time_diff(sizes, times, n))
    assert closed == pytest.approx(n * sum(s * t for s, t in zip(sizes, times, strict=True)) / sum(sizes), rel=1e-7)


@given(users, packets, taus)
def test_equal_tau_turnaround_minus_waiting_is_n_tau(m, n, tau):
    diff = float(multiuser_waiting.mean_turnaround_time_same(m, n, tau)
                 - multiuser_waiting.mean_waiting_time_same(m, n, tau))
    assert diff == pytest.approx(n * tau, rel=1e-9)


@given(users, packets, taus)
def test_non_negative_and_zero_for_one_user(m, n, tau):
    assert float(multiuser_waiting.mean_waiting_time_same(m, n, tau)) >= 0
    assert (float(multiuser_waiting.mean_waiting_time_same(m, n, tau)) == 0) == (m == 1)
    assert float(multiuser_waiting.mean_waiting_time_tabulated(m, n, tau)) >= 0


@given(users, packets, taus)
def test_mean_waiting_non_decreasing_in_m_and_n(m, n, tau):
    base = float(multiuser_waiting.mean_waiting_time_same(m, n, tau))
    assert float(multiuser_waiting.mean_waiting_time_same(m + 1, n, tau)) >= base
    assert float(multiuser_waiting.mean_waiting_time_same(m, n + 1, tau)) >= base
    t_base = float(multiuser_waiting.mean_turnaround_time_same(m, n, tau))
    assert float(multiuser_waiting.mean_turnaround_time_same(m + 1, n, tau)) >= t_base
    assert float(multiuser_waiting.mean_turnaround_time_same(m, n + 1, tau)) >= t_base


@given(groups, packets)
def test_groups_mean_waiting_non_decreasing_in_n_and_in_a_user_appended_last(group_list, n):
    sizes, times = split(group_list)
    base = float(multiuser_waiting.mean_waiting_time_diff(sizes, times, n))
    assert float(multiuser_waiting.mean_waiting_time_diff(sizes, times, n + 1)) >= base * (1 - 1e-12)
    # One more user at the end of the last group: every other user's packets of the first n-1
    # rounds wait behind one more packet, and the newcomer waits n*D (D = old round length),
    # more than anyone waited before; so the mean cannot fall.
    longer = sizes[:-1] + [sizes[-1] + 1]
    assert float(multiuser_waiting.mean_waiting_time_diff(longer, times, n)) >= base * (1 - 1e-12)


@given(users, packets, taus)
def test_tabulated_law_is_eq_4_divided_by_m(m, n, tau):
    assert float(multiuser_waiting.mean_waiting_time_tabulated(m, n, tau)) == pytest.approx(
        float(multiuser_waiting.mean_waiting_time_same(m, n, tau)) / m, rel=1e-12, abs=1e-12
    )


# --- bad input fails naming the parameter ------------------------------------------------


@pytest.mark.parametrize(
    "f",
    [
        multiuser_waiting.total_waiting_time_same,
        multiuser_waiting.mean_waiting_time_same,
        multiuser_waiting.total_turnaround_time_same,
        multiuser_waiting.mean_turnaround_time_same,
        multiuser_waiting.mean_waiting_time_tabulated,
    ],
)
@pytest.mark.parametrize(
    "args, name",
    [
        ((0, 3, 1.0), "m"),  # zero users
        ((2.5, 3, 1.0), "m"),
        ((4, 0, 1.0), "n"),
        ((4, 3, 0.0), "tau"),
        ((4, 3, -1.0), "tau"),
        ((4, 3, float("nan")), "tau"),
    ],
)
def test_equal_tau_bad_parameters_are_named(f, args, name):
    with pytest.raises(ParameterError, match=f"^{name} "):
        f(*args)


@pytest.mark.parametrize("f", [multiuser_waiting.mean_waiting_time_diff, multiuser_waiting.mean_turnaround_time_diff])
@pytest.mark.parametrize(
    "args, pattern",
    [
        (([2, 0], [1.0, 2.0], 3), "^group_sizes must"),  # a group of zero users
        (([2, 1.5], [1.0, 2.0], 3), "^group_sizes must"),
        (([], [], 3), "^group_sizes is empty"),
        (([2, 3], [1.0, 0.0], 3), "^packet_times must"),
        (([2, 3], [1.0, -2.0], 3), "^packet_times must"),
        (([2, 3], [1.0, 2.0], 0), "^n must"),
        (([2, 3], [1.0], 3), "^group_sizes and packet_times"),
        (([2, 3, 4], [1.0, 2.0], 3), "^group_sizes and packet_times"),
    ],
)
def test_group_bad_parameters_are_named(f, args, pattern):
    with pytest.raises(ParameterError, match=pattern):
        f(*args)


@pytest.mark.parametrize(
    "args, pattern",
    [
        (([0], [1.0], 3), "^group_sizes must"),
        (([[2, 3]], [[1.0, 2.0]], 3), "^group_sizes must be 1-D"),
        (([2, 3], [1.0], 3), "^group_sizes and packet_times"),
        (([2, 3], [1.0, -1.0], 3), "^packet_times must"),
        (([2, 3], [1.0, 2.0], 0), "^n_packets must"),
        (([2, 3], [1.0, 2.0], [2, 3]), "^n_packets must be a single"),
    ],
)
def test_schedule_bad_parameters_are_named(args, pattern):
    with pytest.raises(ParameterError, match=pattern):
        round_robin_schedule(*args)


def test_unknown_form_is_named():
    for f in (multiuser_waiting.mean_waiting_time_diff, multiuser_waiting.mean_turnaround_time_diff):
        with pytest.raises(ParameterError, match="^form must be one of"):
            f([2, 3], [1.0, 2.0], 3, form="as tabulated")


def test_algorithm_1_helper_bad_parameters_are_named():
    with pytest.raises(ParameterError, match="^mtu_bits must"):
        multiuser_waiting.packets_per_object(1e5, 0)
    with pytest.raises(ParameterError, match="^obj_bits must"):
        multiuser_waiting.packets_per_object(-1.0, 536 * 8)
    with pytest.raises(ParameterError, match="^response_time_s must"):
        multiuser_waiting.packet_response_time_s(0.0, 26)
    with pytest.raises(ParameterError, match="^n must"):
        multiuser_waiting.packet_response_time_s(3.9, 2.5)


@given(users, packets, taus)
def test_eq_4_closed_form_is_eq_3_over_m(m, n, tau):
    # Eq. (4) is evaluated as (m-1)(2n-1) tau / 2 (one rounding); Eq. (3) / m rounds a few times more, so the two
    # agree to a few units in the last place: e.g. m = 4, n = 3, tau = 0.2: 3 * 5 * 0.2 / 2 = 1.5 = 30 * 0.2 / 4.
    assert float(multiuser_waiting.mean_waiting_time_same(m, n, tau)) == pytest.approx(
        float(multiuser_waiting.total_waiting_time_same(m, n, tau)) / m, rel=1e-14, abs=0)


def test_eq_4_both_paths_equal_the_halved_product_elementwise():
    # ((m-1)(n-1/2)) tau is (m-1)(2n-1) tau / 2 bit for bit (exact products, halving commutes with rounding),
    # on the compiled path (chunks of 512 points: an odd length exercises the seams) and on the NumPy path
    rng = np.random.default_rng(0)
    m, n = rng.integers(1, 50, 300_001).astype(float), rng.integers(1, 50, 300_001).astype(float)
    tau = rng.uniform(0.001, 2.0, 300_001)
    expected = (m - 1) * (2 * n - 1) * tau * 0.5
    assert np.array_equal(multiuser_waiting.mean_waiting_time_same(m, n, tau), expected)
    with compiled.numpy_only():
        assert np.array_equal(multiuser_waiting.mean_waiting_time_same(m, n, tau), expected)
