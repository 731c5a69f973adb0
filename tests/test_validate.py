"""Argument checks that fail naming the parameter (paperlib.validate).

Booleans and strings given for numbers are checked in tests/test_bad_input.py (with the notebooks'
parameter checks); here: each check's range, its limits and the element it names.
"""

import re

import numpy as np
import pytest
from hypothesis import given, strategies

from paperlib import validate
from paperlib.validate import ParameterError

finite_positive = strategies.floats(1e-300, 1e300)


def shown(value: float) -> str:
    """Return a pattern for ``value`` as a message shows it: a Python float's repr, never np.float64(...)."""
    return f"{re.escape(repr(float(value)))}$"


@given(strategies.lists(finite_positive, min_size=1, max_size=8))
def test_positive_returns_the_values_unchanged(values):
    out = validate.positive("x", values)
    assert out.dtype == float and out.tolist() == values


@given(strategies.lists(finite_positive, min_size=1, max_size=8), strategies.integers(0, 7),
       strategies.sampled_from([0.0, -1.0, -0.0, np.inf, -np.inf]))
def test_positive_names_the_first_bad_element(values, at, bad):
    values.insert(min(at, len(values)), bad)
    with pytest.raises(ParameterError, match=f"^rate_bps must be positive and finite, got {shown(bad)}"):
        validate.positive("rate_bps", values)


def test_the_ranges_at_their_limits():
    # positive_or_inf: infinity is a rate (mu -> inf), zero is not
    assert validate.positive_or_inf("mu", np.inf) == np.inf
    with pytest.raises(ParameterError, match="^mu must be positive, got 0.0"):
        validate.positive_or_inf("mu", 0.0)
    # non_negative: zero (and -0.0, which equals it) is allowed, infinity is not
    assert validate.non_negative("rtt_s", [0.0, -0.0]).tolist() == [0.0, 0.0]
    with pytest.raises(ParameterError, match=f"^rtt_s must be non-negative and finite, got {shown(np.inf)}"):
        validate.non_negative("rtt_s", np.inf)
    # probability: [0, 1), so a loss ratio of 1 (nothing arrives) is refused
    assert validate.probability("p", [0.0, 0.999]).tolist() == [0.0, 0.999]
    with pytest.raises(ParameterError, match=r"^p must be in \[0, 1\), got " + shown(1.0)):
        validate.probability("p", [0.5, 1.0])
    # positive_integer: 3.0 is a whole number, 2.5 and 0 are not
    assert validate.positive_integer("m", 3.0) == 3.0
    with pytest.raises(ParameterError, match="^m must be a whole number >= 1, got " + shown(2.5)):
        validate.positive_integer("m", [1, 2.5])
    with pytest.raises(ParameterError, match="^m must be positive"):
        validate.positive_integer("m", 0)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_nan_and_empty_are_named():
    with pytest.raises(ParameterError, match="^rtt_s contains NaN"):
        validate.non_negative("rtt_s", [0.1, float("nan")])
    # inf - inf is NaN in a sum, but neither element is: the message is the range's (naming the first, inf)
    with pytest.raises(ParameterError, match="^rtt_s must be non-negative and finite, got " + shown(np.inf)):
        validate.non_negative("rtt_s", [np.inf, -np.inf])
    with pytest.raises(ParameterError, match="^rates is empty"):
        validate.positive("rates", [])
    with pytest.raises(ParameterError, match="^x must be a number or an array of numbers"):
        validate.positive("x", [[1.0], [2.0, 3.0]])  # ragged


def test_choice_flag_and_scalar():
    assert validate.choice("queue", "red", ("fifo", "red")) == "red"
    with pytest.raises(ParameterError, match=r"^queue must be one of \('fifo', 'red'\), got 'RED'"):
        validate.choice("queue", "RED", ("fifo", "red"))
    assert validate.flag("pipelined", np.bool_(True)) is True
    with pytest.raises(ParameterError, match="^pipelined must be True or False, got 1"):
        validate.flag("pipelined", 1)
    assert validate.scalar("rtt_s", np.float64(0.2), validate.positive) == 0.2
    for many in ([0.1], (0.1, 0.2), np.array([0.1])):
        with pytest.raises(ParameterError, match="^rtt_s must be a single number"):
            validate.scalar("rtt_s", many)
    with pytest.raises(ParameterError, match="^rtt_s must be positive"):
        validate.scalar("rtt_s", -1.0, validate.positive)


def test_at_most_is_the_cost_bound():
    validate.at_most("obj_bits", "the segment count", 1e6, 1e6)  # at the limit: accepted
    with pytest.raises(ParameterError, match=r"^obj_bits: the segment count would be 1e\+06, above the limit of 1e\+05 "
                                             r"\(a smaller object\)$"):
        validate.at_most("obj_bits", "the segment count", 1e6, 1e5, "a smaller object")
    with pytest.raises(ParameterError, match="would be nan"):  # an estimate that is NaN is not "at most" anything
        validate.at_most("obj_bits", "the segment count", float("nan"), 1e5)


def test_a_grid_is_checked_as_a_list_of_at_most_max_size_values():
    assert validate.grid("rates_bps", None, validate.positive, 3) is None
    assert validate.grid("rates_bps", 5.0, validate.positive, 3).tolist() == [5.0]
    assert validate.grid("rates_bps", [1, 2, 3], validate.positive, 3).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ParameterError, match="rates_bps: the number of values would be 4"):
        validate.grid("rates_bps", [1, 2, 3, 4], validate.positive, 3)
    with pytest.raises(ParameterError, match="rates_bps must be a list of numbers"):
        validate.grid("rates_bps", [[1, 2], [3, 4]], validate.positive, 10)
    with pytest.raises(ParameterError, match="rates_bps"):
        validate.grid("rates_bps", [1, -2], validate.positive, 10)
