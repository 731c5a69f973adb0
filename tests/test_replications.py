"""The replication rule: a pilot's spread and the model's effect give the replications (paperlib.replications)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from paperlib import replications
from paperlib.validate import ParameterError


def test_one_spread_at_one_effect_needs_ten():
    # (t(0.975, n-1) + t(0.8, n-1)) / sqrt(n) <= 1:
    # n = 9:  (2.3060 + 0.8889) / 3      = 1.0650 > 1
    # n = 10: (2.2622 + 0.8834) / 3.1623 = 0.9947 <= 1  -> 10
    plan = replications.replications_for_power(1.0, 1.0)
    assert (plan.n, plan.n_needed, plan.capped) == (10, 10.0, False)


def test_a_small_effect_is_capped_and_says_what_it_needs():
    # effect 0.1 at spread 1: about ((1.96 + 0.84) / 0.1)^2 = 784 by the normal quantiles; the t quantiles at
    # n ~ 800 are a little larger, so a few more: 787
    plan = replications.replications_for_power(1.0, 0.1)
    assert plan.n == replications.CAP and plan.capped and plan.n_needed == 787.0
    assert "787" in plan.describe()


def test_a_large_effect_needs_only_the_pilot():
    # at n = 5: (2.7764 + 0.9410) / sqrt(5) = 1.662 <= 10
    plan = replications.replications_for_power(1.0, 10.0)
    assert plan.n == replications.PILOT and not plan.capped


def test_no_effect_needs_no_finite_number():
    plan = replications.replications_for_power(1.0, 0.0)
    assert plan.n == replications.CAP and math.isinf(plan.n_needed) and "no finite number" in plan.describe()


def test_no_spread_needs_only_the_pilot():
    assert replications.replications_for_power(0.0, 0.5).n == replications.PILOT


@given(st.floats(0.01, 10), st.floats(0.01, 10))
def test_the_plan_is_the_smallest_n_with_the_power(spread, effect):
    plan = replications.replications_for_power(spread, effect)

    def power_reached(n):
        return (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)) * spread / math.sqrt(n) <= effect

    if not plan.capped:
        assert power_reached(plan.n)
        assert plan.n == replications.PILOT or not power_reached(plan.n - 1)
    else:
        assert not power_reached(replications.CAP)


@pytest.mark.parametrize("kwargs, name", [
    (dict(spread=-1.0, effect=1.0), "spread"), (dict(spread=float("nan"), effect=1.0), "spread"),
    (dict(spread=1.0, effect=True), "effect"), (dict(spread=1.0, effect=1.0, pilot=1), "pilot"),
    (dict(spread=1.0, effect=1.0, cap=3), "cap"), (dict(spread=1.0, effect=1.0, power=1.0), "power"),
])
def test_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        replications.replications_for_power(**kwargs)


# --- a published measurement measured again: the effect is 5% of the print -----------------------------------------

def test_a_measured_cell_runs_the_fixed_replications_and_reports_the_power_rule_beside_them():
    # pilot (9, 10, 11, 10, 10): sd = sqrt(2 / 4) = 0.7071; printed 20, so the effect is 1.0: the cell runs
    # MEASURED_REPLICATIONS (20) whatever the pilot shows, and n_needed is replications_for_power(0.7071, 1.0)'s:
    # n = 6: (2.571 + 0.920) 0.7071 / 2.449 = 1.008 > 1, n = 7:
    # (2.447 + 0.906) 0.7071 / 2.646 = 0.896: 7
    plan = replications.measured_plan([9.0, 10.0, 11.0, 10.0, 10.0], 20.0)
    assert math.isclose(plan.spread, math.sqrt(0.5)) and math.isclose(plan.effect, 1.0)
    assert (plan.n, plan.n_needed, plan.fixed, plan.capped) == (replications.MEASURED_REPLICATIONS, 7.0, True, False)
    assert plan.n_needed == replications.replications_for_power(math.sqrt(0.5), 1.0).n_needed
    assert plan.describe() == ("20 replications in all, fixed beforehand; power 80% at a 5% difference from the "
                               "print 1 needs 7 at the pilot's spread 0.707")
    # identical runs change nothing (the pilot does not choose n); a negative print is sized by its size
    assert replications.measured_plan([3.0, 3.0], 4.0).n == replications.MEASURED_REPLICATIONS == 20
    assert replications.measured_plan([9.0, 10.0, 11.0, 10.0, 10.0], -20.0) == plan


def test_a_measured_cell_runs_its_pilot_if_larger_and_says_when_the_power_rule_asks_more():
    # two wildly different runs: the power rule asks more than 20 (capped says so); a pilot larger than the fixed
    # number is the plan; runs sets the fixed number
    wide = replications.measured_plan([10.0, 20.0], 15.0)
    assert wide.n == 20 and wide.capped and wide.n_needed > 20 and "needs" in wide.describe()
    assert replications.measured_plan([10.0, 20.0] * 12, 15.0).n == 24
    assert replications.measured_plan([10.0, 20.0] * 6, 15.0, runs=8).n == 12
    assert replications.measured_plan([9.0, 10.0, 11.0], 20.0, runs=10).n == 10


@given(st.lists(st.floats(0.1, 100.0), min_size=2, max_size=30), st.floats(0.5, 200.0))
def test_a_measured_plan_is_fixed_and_its_need_is_the_power_rule_at_five_percent(values, printed):
    plan = replications.measured_plan(values, printed)
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    rule = replications.replications_for_power(sd, 0.05 * printed, pilot=max(replications.PILOT, len(values)),
                                               cap=10**6)
    assert plan.n_needed == rule.n_needed
    assert plan.n == max(replications.MEASURED_REPLICATIONS, len(values))


@pytest.mark.parametrize("values, printed, name", [([1.0], 2.0, "values"), ([1.0, float("nan")], 2.0, "values"),
                                                   ([1.0, 2.0], 0.0, "printed"), ([1.0, 2.0], float("inf"), "printed"),
                                                   ([1.0, 2.0], True, "printed")])
def test_a_measured_plan_names_its_bad_input(values, printed, name):
    with pytest.raises(ParameterError, match=name):
        replications.measured_plan(values, printed)
    with pytest.raises(ParameterError, match="runs"):
        replications.measured_plan([1.0, 2.0], 2.0, runs=1)


def test_a_question_runs_the_fixed_number_and_reports_the_power_rule_s():
    # spread 1, effect 1: the power rule asks for replications_for_power(1.0, 1.0)'s number; the plan runs 20
    plan = replications.question_plan(1.0, 1.0, pilot_n=5)
    assert plan.n == replications.QUESTION_REPLICATIONS == 20 and plan.fixed
    assert plan.n_needed == replications.replications_for_power(1.0, 1.0).n_needed
    assert "20 replications in all, fixed beforehand" in plan.describe()
    # a pilot larger than the fixed number keeps its size
    assert replications.question_plan(1.0, 1.0, pilot_n=25).n == 25
    with pytest.raises(ParameterError, match="pilot_n"):
        replications.question_plan(1.0, 1.0, pilot_n=1)


def test_a_pilot_without_two_kept_runs_still_runs_the_fixed_number():
    plan = replications.unsized_plan(20.0)
    # 20 runs, sized for nothing: no spread, no number the power rule would ask; 5% of the print 20 is 1.0
    assert (plan.n, plan.fixed, plan.effect) == (replications.MEASURED_REPLICATIONS, True, 1.0)
    assert math.isnan(plan.spread) and math.isnan(plan.n_needed) and not plan.capped
    assert plan.describe() == ("20 replications in all, fixed beforehand; the pilot kept fewer than two runs, so no "
                               "spread to size a test from")
    with pytest.raises(ParameterError, match="printed"):
        replications.unsized_plan(0.0)


def test_a_measured_cell_near_an_edge_of_the_band_runs_a_second_stage():
    plan = replications.measured_plan([15.0, 16.0, 15.0, 16.0, 15.0], 14.63)
    assert plan.n == 20 and plan.first_stage is None
    # 20 values alternating 15.0 and 16.0: mean 15.5, sd sqrt(20 x 0.25 / 19) = 0.513, half-width
    # t(.975, 19) 0.513 / sqrt(20) = 2.093 x 0.1147 = 0.240; the print 14.63's band is [13.8985, 15.3615], its edge
    # nearest 15.5 is 15.3615, 0.1385 away: less than 2 x 0.240, so the cell runs 40, and its plan says so
    near = replications.second_stage(plan, [15.0, 16.0] * 10, 14.63)
    assert (near.n, near.first_stage) == (40, 20)
    assert "a second stage to 40 after 20" in near.describe()
    # a second look is the last: the extended plan is returned as it is
    assert replications.second_stage(near, [15.0, 16.0] * 20, 14.63) is near
    # 17.0 and 17.2: mean 17.1, half-width 0.048, 1.74 beyond the edge: clear, nothing added
    assert replications.second_stage(plan, [17.0, 17.2] * 10, 14.63) is plan
    # inside the band and clear of both edges (14.6 +/- 0.048): nothing added either; fewer than two values: nothing
    assert replications.second_stage(plan, [14.5, 14.7] * 10, 14.63) is plan
    assert replications.second_stage(plan, [15.4], 14.63) is plan


def test_the_second_stage_reads_the_distance_not_the_side():
    plan = replications.measured_plan([10.0, 10.1], 10.0)
    # the same spread (half-width 0.048) just inside the band's upper edge 10.5 and just outside it: both run a
    # second stage, whichever status the first stage would give
    inside = replications.second_stage(plan, [10.35, 10.55] * 10, 10.0)
    outside = replications.second_stage(plan, [10.45, 10.65] * 10, 10.0)
    assert inside.first_stage == outside.first_stage == 20
