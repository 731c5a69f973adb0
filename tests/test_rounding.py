"""Printed precision and the rounding rules a regenerated value is printed with (paperlib.rounding)."""

import pytest
from hypothesis import given, strategies

from paperlib.rounding import matches_printed, printed_decimals, printed_interval, round_to


def test_printed_precision():
    assert printed_decimals("14.68") == 2
    assert printed_decimals("2770") == 0
    assert printed_decimals("-125.0857") == 4


def test_rounding_rules():
    assert round_to(14.6857, 2, "half_up") == 14.69
    assert round_to(14.6857, 2, "truncate") == 14.68
    # 1.1 is 1.100000000000000088... in binary; truncation must still print 1.10, not 1.09
    assert round_to(1.1, 2, "truncate") == 1.1
    assert round_to(0.125, 2, "half_up") == 0.13
    with pytest.raises(ValueError, match="rounding rule"):
        round_to(1.0, 2, "bankers")


def test_printed_interval_by_hand():
    # "14.68" half up: everything in [14.675, 14.685) prints so; truncated: [14.68, 14.69)
    assert printed_interval("14.68") == pytest.approx((14.675, 14.685))
    assert printed_interval("14.68", "truncate") == pytest.approx((14.68, 14.69))
    # a negative print truncated toward zero: -1.5 is the print of (-1.6, -1.5]
    assert printed_interval("-1.5", "truncate") == pytest.approx((-1.6, -1.5))
    assert printed_interval("2770") == (2769.5, 2770.5)
    with pytest.raises(ValueError, match="rounding rule"):
        printed_interval("1.0", "bankers")


@given(strategies.integers(-99_999, 99_999), strategies.sampled_from([0, 1, 2, 3]), strategies.floats(0.001, 0.999),
       strategies.sampled_from(["half_up", "truncate"]))
def test_every_value_of_the_interval_prints_as_the_print(digits, decimals, u, rule):
    printed = f"{digits / 10**decimals:.{decimals}f}"
    if rule == "truncate" and printed.startswith("-"):
        return  # truncation of a negative print is the half-open interval the other way round
    # inside the interval; its ends are left out: half_up rounds a negative half away from zero, so
    # -0.5 prints as -1 and the lower end of "0"'s [-0.5, 0.5) does not print as "0"
    lo, hi = printed_interval(printed, rule)
    assert matches_printed(lo + u * (hi - lo), printed, rule)
