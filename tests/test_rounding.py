"""Printed precision and the rounding rules a regenerated value is printed with (paperlib.rounding)."""

import pytest

from paperlib.rounding import printed_decimals, round_to


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
