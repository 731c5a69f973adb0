"""The replications that would decide an interval straddling its threshold (paperlib.decide).

t quantiles from tables: t(0.975, 1) = 12.706, t(0.975, 2) = 4.3027, t(0.975, 3) = 3.1824, t(0.975, 4) = 2.7764,
t(0.975, 5) = 2.5706, t(0.975, 6) = 2.4469.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib import decide


def test_one_sd_one_unit_away_needs_seven_replications():
    # t(n - 1) x 1 / sqrt(n) at n = 2..7: 12.706 / 1.414 = 8.98, 4.3027 / 1.732 = 2.48, 3.1824 / 2 = 1.59,
    # 2.7764 / 2.236 = 1.24, 2.5706 / 2.449 = 1.049, 2.4469 / 2.646 = 0.925: the first below 1 is n = 7
    assert decide.replications_to_decide(1.0, 1.0) == 7
    assert decide.half_width(1.0, 6) == pytest.approx(1.0494, abs=1e-4)
    assert decide.half_width(1.0, 7) == pytest.approx(0.9248, abs=1e-4)


def test_limits_no_spread_decides_at_two_a_mean_on_its_threshold_never():
    assert decide.replications_to_decide(0.5, 0.0) == 2  # a zero-width interval decides at once
    assert decide.replications_to_decide(0.0, 1.0) == math.inf  # no n moves the interval off a mean on its threshold


def test_huge_numbers_are_capped_and_said_as_more_than():
    # (1.96 x 1 / 0.001)^2 = 3.8 million > 100000: more than the cap
    assert decide.replications_to_decide(0.001, 1.0) == math.inf
    assert decide.replications_text(math.inf) == "more than 100000 replications would decide it"
    assert decide.replications_text(37.0) == "about 37 replications would decide it"
    # with a cap of 6, n = 7 of the first test is too many
    assert decide.replications_to_decide(1.0, 1.0, cap=6) == math.inf


def test_an_interval_given_by_its_half_width_recovers_its_spread():
    # mean 0.2 +/- 0.5 over 4: s = 0.5 x 2 / 3.1824 = 0.31422; t(n - 1) x 0.31422 / sqrt(n) against 0.2:
    # n = 11: 2.2281 x 0.31422 / 3.3166 = 0.2111 (not below), n = 12: 2.2010 x 0.31422 / 3.4641 = 0.1996: 12
    assert decide.sd_from_half_width(0.5, 4) == pytest.approx(0.31422, abs=1e-5)
    assert decide.replications_from_interval(0.2, 0.5, 4, 0.0) == 12
    # the same distance from a threshold of 1 (mean 1.2): the same number
    assert decide.replications_from_interval(1.2, 0.5, 4, 1.0) == 12
    assert decide.straddle_text(0.2, 0.5, 0.0, 12.0, 4) == (
        "the 95% interval [-0.3, 0.7] straddles 0: about 12 replications would decide it at the measured spread "
        "(4 now)")


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="distance"):
        decide.replications_to_decide(-1.0, 1.0)
    with pytest.raises(ValueError, match="sd"):
        decide.replications_to_decide(1.0, math.nan)
    with pytest.raises(ValueError, match="n must be at least 2"):
        decide.half_width(1.0, 1)


@given(st.floats(0.01, 10.0), st.floats(0.01, 10.0))
def test_the_number_is_the_first_n_whose_half_width_is_below_the_distance(distance, sd):
    n = decide.replications_to_decide(distance, sd)
    if math.isinf(n):
        assert decide.half_width(sd, decide.MAX_REPLICATIONS) >= distance
        return
    n = int(n)
    assert decide.half_width(sd, n) < distance
    assert n == 2 or decide.half_width(sd, n - 1) >= distance


@given(st.floats(0.01, 10.0), st.floats(0.01, 10.0), st.floats(1.01, 4.0))
def test_farther_from_the_threshold_never_needs_more(distance, sd, factor):
    assert decide.replications_to_decide(distance * factor, sd) <= decide.replications_to_decide(distance, sd)


@given(st.floats(0.0, 100.0), st.integers(2, 1000))
def test_half_width_and_its_spread_are_inverse(sd, n):
    assert decide.sd_from_half_width(decide.half_width(sd, n), n) == pytest.approx(sd, rel=1e-9, abs=1e-12)


def test_an_interval_is_clear_of_its_threshold_at_two_half_widths():
    # [0.1, 0.5] around 0.3: half-width 0.2, 0.3 from 0 < 2 x 0.2 = 0.4: decided (excludes 0) but not clear
    assert not decide.clear_of(0.3, 0.1, 0.5)
    # [0.3, 0.7] around 0.5: 0.5 >= 0.4: clear
    assert decide.clear_of(0.5, 0.3, 0.7)
    # an interval straddling its threshold is never clear; the side does not matter
    assert not decide.clear_of(0.0, -0.1, 0.1) and decide.clear_of(-0.5, -0.7, -0.3)
    # a threshold other than 0: [15.3, 17.1] around 16.2 against 15.36: 0.84 < 2 x 0.9
    assert not decide.clear_of(16.2, 15.3, 17.1, threshold=15.36)
    # fewer than two replications give a nan interval: not clear
    assert not decide.clear_of(0.4, math.nan, math.nan)


def test_clear_of_names_its_bad_input():
    with pytest.raises(ValueError, match="half_widths"):
        decide.clear_of(0.5, 0.3, 0.7, half_widths=0.5)
    with pytest.raises(ValueError, match="high end"):
        decide.clear_of(0.5, 0.7, 0.3)


@given(st.floats(-10, 10), st.floats(0.001, 5), st.floats(1, 4))
def test_a_clear_interval_excludes_its_threshold(mean, half, widths):
    # clear at k >= 1 half-widths implies |mean| >= half: the interval lies on one side of 0 (or touches it)
    if decide.clear_of(mean, mean - half, mean + half, half_widths=widths):
        assert mean - half >= -1e-12 or mean + half <= 1e-12
