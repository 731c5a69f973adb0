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

def test_a_measured_cell_is_sized_for_five_percent_of_its_print():
    # pilot (9, 10, 11, 10, 10): sd = sqrt(2 / 4) = 0.7071; printed 20, so the effect is 1.0: the plan is that of
    # replications_for_power(0.7071, 1.0), and it says what it is sized for
    plan = replications.measured_plan([9.0, 10.0, 11.0, 10.0, 10.0], 20.0)
    assert math.isclose(plan.spread, math.sqrt(0.5)) and math.isclose(plan.effect, 1.0)
    assert plan.n == replications.replications_for_power(math.sqrt(0.5), 1.0).n
    assert "a 5% difference from the print" in plan.describe()
    # identical runs need only the pilot; a negative print is sized by its size
    assert replications.measured_plan([3.0, 3.0], 4.0).n == replications.PILOT
    assert replications.measured_plan([9.0, 10.0, 11.0, 10.0, 10.0], -20.0).n == plan.n


def test_a_measured_cell_never_plans_below_its_pilot_or_above_the_cap_but_says_what_it_needs():
    # a pilot of 7 runs (more than PILOT) is never planned below 7; two wildly different runs cap at MEASURED_CAP;
    # a pilot larger than the cap is the plan
    assert replications.measured_plan([1.0] * 6 + [1.0001], 100.0).n == 7
    wide = replications.measured_plan([10.0, 20.0], 15.0)
    assert wide.n == replications.MEASURED_CAP == replications.CAP == 20 and wide.capped and wide.n_needed > 20
    assert replications.measured_plan([10.0, 20.0] * 6, 15.0, cap=8).n == 12


@given(st.lists(st.floats(0.1, 100.0), min_size=2, max_size=12), st.floats(0.5, 200.0))
def test_a_measured_plan_is_the_power_rule_at_five_percent(values, printed):
    plan = replications.measured_plan(values, printed)
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    rule = replications.replications_for_power(sd, 0.05 * printed, pilot=max(replications.PILOT, len(values)),
                                               cap=max(replications.MEASURED_CAP, len(values)))
    assert (plan.n, plan.n_needed) == (rule.n, rule.n_needed)
    assert max(replications.PILOT, len(values)) <= plan.n <= max(replications.MEASURED_CAP, len(values))


@pytest.mark.parametrize("values, printed, name", [([1.0], 2.0, "values"), ([1.0, float("nan")], 2.0, "values"),
                                                   ([1.0, 2.0], 0.0, "printed"), ([1.0, 2.0], float("inf"), "printed"),
                                                   ([1.0, 2.0], True, "printed")])
def test_a_measured_plan_names_its_bad_input(values, printed, name):
    with pytest.raises(ParameterError, match=name):
        replications.measured_plan(values, printed)
