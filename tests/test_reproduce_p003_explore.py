"""Paper 003's explorer: the fast path (linear in the mix) equals the model; the printed loads at the paper's point.

The explorer starts with paper 003's convention search (once per process).
"""

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.reproduce.p003 import explore
from paperlib.reproduce.p003.workload import conv_workloads


@pytest.fixture(scope="module")
def explorer_003():
    return explore.explorer()


@pytest.fixture(scope="module")
def paper_conv():
    paper, conv, *_ = explore.context()  # the convention search runs once per process
    return paper, conv


def test_uniform_reading_by_hand(explorer_003, paper_conv):
    _, conv = paper_conv
    c = explorer_003.curves("think time", within_class="uniform")
    i = np.argmin(abs(c.x - 10.0))
    # uniform within class: mean file 5 x base; SPECweb96 mean = 0.35 (0.5) + 0.5 (5) + 0.14 (50) + 0.01 (500)
    # = 14.675 kB; a page of 5 files = 73.375 kB = 73.375 x size_kilo x 8 bit; per user at think time t:
    # 73.375 x size_kilo x 8 / t bit/s (size_kilo 1000: 58.7 kbit/s at 10 s; the slides print 60 kbps)
    expected_kbps = 73.375 * conv.size_kilo * 8 / c.x[i] / 1e3
    assert c.lines[0][1][i] == pytest.approx(expected_kbps)


@lru_cache(maxsize=None)
def _workloads(reading):
    paper, conv, *_ = explore.context()
    return conv_workloads(paper, conv, within_class=reading)


@given(think_s=st.floats(0.5, 120.0), share=st.floats(0.0, 1.0),
       reading=st.sampled_from(("uniform", "binomial", "truncated_poisson")))
def test_fast_path_equals_the_model(think_s, share, reading):
    ex = explore.explorer()
    w = _workloads(reading)
    original, modified = explore.load_per_user_bps(w, think_s, share)
    c = ex.curves("class mix", think_s=think_s, within_class=reading)
    at = np.linspace(0.0, 1.0, 10_000)
    y0 = np.interp(share, at, c.lines[0][1])  # the curves are linear in the share: interpolation is exact
    y1 = np.interp(share, at, c.lines[1][1])
    assert y0 == pytest.approx(original / 1e3, rel=1e-9) and y1 == pytest.approx(modified / 1e3, rel=1e-9)


def test_printed_loads_show_at_the_paper_point(explorer_003):
    c = explorer_003.curves("think time")
    # the slides: 60 kbps per user (SPECweb96), 0.48 Mbps = 480 kbps (modified), at 10 s
    assert sorted((float(x[0]), float(y[0])) for _, x, y in c.points) == [(10.0, 60.0), (10.0, 480.0)]
    assert explorer_003.curves("think time", share=0.2).points == []  # another mix: the printed numbers do not apply
    assert len(explorer_003.curves("class mix").points) == 2
    assert explorer_003.curves("class mix", think_s=5.0).points == []


def test_the_printed_mix_is_the_workload(paper_conv):
    paper, conv = paper_conv
    w = conv_workloads(paper, conv)
    same = explore.mixed(w, float(w.original.class_probs[-1]))
    assert np.allclose(same.original.class_probs, w.original.class_probs)
    assert np.allclose(same.modified.class_probs, w.modified.class_probs)  # the slides' rule, printed table
    with pytest.raises(ValueError, match="share"):
        explore.mixed(w, 1.5)


def test_the_explorer_names_the_paper(explorer_003):
    assert explorer_003.name == "003" and explorer_003.title.startswith("Paper 003: mean load of one user")
