"""Paper 005's page from the Web Almanac 2024 (paperlib.models.web_page): the distribution and the page."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.models import web_page
from paperlib.validate import ParameterError

KB = 1000 * 8  # bits of a KB with kilo = 1000


def test_printed_percentiles_are_read():
    # data/005/requests_per_page.csv: desktop 24/42/71/115/176, mobile 22/39/66/109/170
    assert web_page.requests_percentiles("desktop").tolist() == [24, 42, 71, 115, 176]
    assert web_page.requests_percentiles("mobile").tolist() == [22, 39, 66, 109, 170]
    assert web_page.requests_percentiles("desktop").index.tolist() == [0.10, 0.25, 0.50, 0.75, 0.90]


def test_quantile_passes_through_the_printed_percentiles():
    q = [0.10, 0.25, 0.50, 0.75, 0.90]
    assert web_page.requests_quantile(q, "desktop") == pytest.approx([24, 42, 71, 115, 176], rel=1e-12)
    assert web_page.requests_quantile(q, "mobile") == pytest.approx([22, 39, 66, 109, 170], rel=1e-12)


def test_quantile_is_log_linear_between_percentiles():
    # halfway between p10 and p25 (q = 0.175) log-linear gives the geometric mean sqrt(24 * 42) = 31.749...
    assert web_page.requests_quantile(0.175, "desktop") == pytest.approx(math.sqrt(24 * 42), rel=1e-12)
    # a linear interpolation would give (24 + 42)/2 = 33: the two readings differ by more than a request
    assert abs(web_page.requests_quantile(0.175, "desktop") - 33) > 1


def test_tails_extrapolate_the_end_segments():
    # q = 0: the first segment's slope ln(42/24)/0.15 carried 0.10 below p10: 24 (24/42)^(0.10/0.15)
    # = 24 * exp(-0.5596 * 2/3) = 24 * 0.68862 = 16.527
    assert web_page.requests_quantile(0.0, "desktop") == pytest.approx(24 * (24 / 42) ** (2 / 3), rel=1e-12)
    assert web_page.requests_quantile(0.0, "desktop") == pytest.approx(16.527, abs=1e-3)
    # q = 1: the last segment's slope ln(176/115)/0.15 carried 0.10 above p90: 176 (176/115)^(2/3) = 233.73
    assert web_page.requests_quantile(1.0, "desktop") == pytest.approx(176 * (176 / 115) ** (2 / 3), rel=1e-12)
    assert web_page.requests_quantile(1.0, "desktop") == pytest.approx(233.73, abs=1e-2)


@given(st.floats(0, 1), st.floats(0, 1))
def test_quantile_is_increasing(a, b):
    # non-decreasing everywhere; strictly increasing where q moves by more than float noise
    lo, hi = sorted((a, b))
    for device in web_page.DEVICES:
        assert web_page.requests_quantile(lo, device) <= web_page.requests_quantile(hi, device)
        if hi - lo > 1e-9:
            assert web_page.requests_quantile(lo, device) < web_page.requests_quantile(hi, device)


@pytest.mark.parametrize("device", web_page.DEVICES)
def test_sampling_reproduces_the_printed_percentiles(device):
    # 20 000 draws. The standard error of a sample quantile is sqrt(q (1-q)/n) Q'(q); the steepest case is
    # desktop p90: Q' = 176 ln(176/115)/0.15 = 499 requests per unit q, sqrt(0.09/20000) = 0.00212, so 1.06
    # requests (mobile: 170 ln(170/109)/0.15 = 503, 1.07). Three standard errors plus the half request of
    # rounding to a whole count: every sample percentile within 3.7 of the printed one.
    counts = web_page.sample_request_counts(np.random.default_rng(5), 20_000, device)
    printed = web_page.requests_percentiles(device)
    sample = np.percentile(counts, 100 * printed.index.to_numpy())
    assert np.abs(sample - printed.to_numpy()).max() <= 3.7
    # and the fraction of pages under the printed median is one half within three standard errors
    # (3 sqrt(0.25/20000) = 0.0106), counting a page with exactly the median as half under
    below = (counts < printed[0.5]).mean() + 0.5 * (counts == printed[0.5]).mean()
    assert below == pytest.approx(0.5, abs=0.0106)


def test_sampling_is_reproducible_and_whole():
    a = web_page.sample_request_counts(np.random.default_rng(7), 50, "mobile")
    b = web_page.sample_request_counts(np.random.default_rng(7), 50, "mobile")
    assert a.tolist() == b.tolist() and a.dtype.kind == "i"
    # the support is [round(Q(0)), round(Q(1))] = [15, 229] on mobile (22 (22/39)^(2/3) = 15.02, 170 (170/109)^(2/3)
    # = 228.6)
    assert a.min() >= 15 and a.max() <= 229


def test_content_mix_by_hand():
    mix = web_page.content_mix("desktop", "homepage", kilo=1000)
    # requests_by_type.csv, desktop: HTML 2, fonts 4, CSS 8, images 18, JavaScript 24 (56 typed of 71)
    assert mix["requests"].to_dict() == {"HTML": 2, "fonts": 4, "CSS": 8, "images": 18, "JavaScript": 24}
    # HTML: 18 KB over 2 requests = 9 KB = 72 000 bits per object; images 1,054 KB / 18 = 468 444.4 bits
    assert mix.loc["HTML", "object_bits"] == 9 * KB
    assert mix.loc["images", "object_bits"] == pytest.approx(1054 * KB / 18)
    assert mix["share"].sum() == pytest.approx(1.0) and mix.loc["JavaScript", "share"] == pytest.approx(24 / 56)
    # kilo = 1024 scales every size by 1.024
    binary = web_page.content_mix("desktop", "homepage", kilo=1024)
    assert binary["object_bits"].to_numpy() == pytest.approx(1.024 * mix["object_bits"].to_numpy())


def test_median_page_by_hand():
    page = web_page.median_page("desktop", "homepage", kilo=1000)
    # 71 requests x shares 2/56, 4/56, 8/56, 18/56, 24/56 = 2.536, 5.071, 10.143, 22.821, 30.429: floors
    # 2, 5, 10, 22, 30 (69), the 2 left go to the largest remainders, images (.821) and HTML (.536)
    counts = {t: page.content_types.count(t) for t in ("HTML", "fonts", "CSS", "images", "JavaScript")}
    assert counts == {"HTML": 3, "fonts": 5, "CSS": 10, "images": 23, "JavaScript": 30}
    assert page.objects == 71 and page.content_types[0] == "HTML"
    # weight: 3*9 + 5*32.75 + 10*9.75 + 23*58.556 + 30*25.542 KB = 27 + 163.75 + 97.5 + 1346.78 + 766.25
    # = 2401.28 KB (the printed median page weight, 2,652 KB, is not this construction's target)
    assert page.total_bits / KB == pytest.approx(27 + 163.75 + 97.5 + 23 * 1054 / 18 + 30 * 613 / 24)
    assert page.total_bits / KB == pytest.approx(2401.28, abs=0.01)


@given(st.integers(1, 400), st.sampled_from(web_page.DEVICES))
def test_type_counts_sum_to_the_page(requests, device):
    shares = web_page.content_mix(device, "homepage", kilo=1000)["share"].to_numpy()
    counts = web_page.type_counts(requests, shares)
    assert counts.sum() == requests
    assert (np.abs(counts - requests * shares) < 1 + 1e-9).all()


@given(st.integers(1, 300), st.integers(1, 300))
def test_more_requests_never_a_lighter_page(a, b):
    small, large = sorted((a, b))
    for page_type in web_page.PAGE_TYPES:
        light = web_page.page_of(small, "mobile", page_type, kilo=1000)
        heavy = web_page.page_of(large, "mobile", page_type, kilo=1000)
        assert light.total_bits <= heavy.total_bits * (1 + 1e-12)


def test_sample_pages_follow_the_counts():
    pages = web_page.sample_pages(np.random.default_rng(3), 4, "desktop", "inner page", kilo=1024)
    counts = web_page.sample_request_counts(np.random.default_rng(3), 4, "desktop")
    assert [p.objects for p in pages] == counts.tolist()


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ParameterError, match="device"):
        web_page.requests_percentiles("tablet")
    with pytest.raises(ParameterError, match="q must be in"):
        web_page.requests_quantile(1.5, "desktop")
    with pytest.raises(ParameterError, match="kilo"):
        web_page.content_mix("desktop", "homepage", kilo=1010)
    with pytest.raises(ParameterError, match="content_types"):
        web_page.WebPage(object_bits=np.array([1.0, 2.0]), content_types=("HTML",))
