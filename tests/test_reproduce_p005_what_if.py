"""Paper 005's notebook parameters: strict checks naming the parameter, and the what-if grid."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib.parameters import Parameters
from paperlib.reproduce.p005 import what_if
from paperlib.validate import ParameterError


def test_the_defaults_are_kept_as_none_and_the_grid_fills_them():
    q = what_if.check()
    assert isinstance(q, Parameters)
    assert q["emulation"] == "off" and q["device"] == "desktop" and q["rates_bps"] is None
    w = what_if.what_if()
    np.testing.assert_array_equal(w.iw_segments, [2, 3, 4, 10])
    # None: the heat map's grid, 0.5 to 100 Mbit/s and 10 to 400 ms (findings.HEATMAP_RATES_BPS, HEATMAP_RTTS_S)
    assert w.rates_bps[0] == pytest.approx(0.5e6) and w.rates_bps[-1] == pytest.approx(100e6)
    assert w.rtts_s[0] == pytest.approx(0.010) and w.rtts_s[-1] == pytest.approx(0.400)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("emulation", "sometimes", "emulation must be one of"),
    ("device", "tablet", "device must be one of"),
    ("rates_bps", [1e6, -1], "rates_bps must be"),
    ("rates_bps", [0.5], "rates_bps must be at least 1 bit/s"),
    ("rates_bps", True, "rates_bps"),
    ("rtts_s", [1e6], "rtts_s"),
    ("losses", [0.0, 1.0], "losses must be in"),
    ("losses", "0.1", "losses"),
    ("iw_segments", [2.5], "iw_segments must be a whole number"),
    ("iw_segments", [10**9], "iw_segments"),
    ("output_dir", 3, "output_dir"),
    ("rates_bps", [[1e6, 2e6]], "rates_bps must be a list of numbers"),
    ("rates_bps", list(range(1, 2000)), "rates_bps"),
])
def test_a_bad_parameter_is_named(name, value, message):
    with pytest.raises(ParameterError, match=message):
        what_if.check(**{name: value})


def test_a_grid_too_large_is_refused_before_any_work():
    # 1000 rates x 1000 RTTs = 1 million cells of the heat map > MAX_CELLS (200 000)
    with pytest.raises(ParameterError, match="rates_bps"):
        what_if.check(rates_bps=list(range(1, 1001)), rtts_s=[0.001 * i for i in range(1000)])
    # 1000 losses x 1000 windows = 1 million cells of the loss figure; 1000 rates x 21 default RTTs = 21 000 pass
    with pytest.raises(ParameterError, match="losses"):
        what_if.check(losses=[i / 2000 for i in range(1000)], iw_segments=list(range(1, 1001)))
    what_if.check(rates_bps=list(range(1, 1001)))


def test_every_parameter_is_keyword_only():
    with pytest.raises(TypeError):
        what_if.check("off")


@settings(max_examples=30, deadline=None)
@given(rates=st.lists(st.floats(1, 1e10), min_size=1, max_size=5),
       losses=st.lists(st.floats(0, 0.99), min_size=1, max_size=5))
def test_any_valid_grid_is_accepted_and_sorted(rates, losses):
    w = what_if.what_if(rates_bps=rates, losses=losses)
    assert list(w.rates_bps) == sorted(rates) and list(w.losses) == sorted(losses)
