"""The Mah/Christiansen browser workload: exact moments and distribution functions against seeded samples.

Parametric family (M) and Mah's measured CDFs (data/001/mah, MAH). About 10 s.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies
from scipy import stats

from paperlib.models import web_traffic
from paperlib.validate import ParameterError

M = web_traffic.model({"family": "parametric"})
MAH = web_traffic.model()
N = 400_000


def _z(sample, exact):
    return (sample.mean() - exact) / (sample.std() / np.sqrt(sample.size))


def test_reply_mean_and_cdf_match_samples():
    x = web_traffic.sample_replies(N, M, np.random.default_rng(1), whole=False)
    assert abs(_z(x, web_traffic.reply_mean(M))) < 5
    assert stats.kstest(x, lambda v: web_traffic.reply_cdf(v, M)).statistic < 0.004
    # the tail: P(size > 100 kB) from the mixture's CDF
    assert (x > 1e5).mean() == pytest.approx(1 - web_traffic.reply_cdf(1e5, M), abs=0.002)


def test_reply_mean_by_quadrature_of_the_cdf():
    # E[X] = integral of the survival function, by brute force on a fine log grid
    grid = np.concatenate([[0.0], np.logspace(-2, np.log10(M["reply_max_bytes"]), 400_001)])
    survival = 1 - web_traffic.reply_cdf(grid, M)
    assert np.trapezoid(survival, grid) == pytest.approx(web_traffic.reply_mean(M), rel=1e-4)


def test_requests_think_and_objects_match_their_laws():
    rng = np.random.default_rng(2)
    req = web_traffic.sample_requests(N, M, rng).astype(float)
    assert abs(_z(req, web_traffic.request_mean(M))) < 5 + 0.5 / (req.std() / np.sqrt(N))  # rounding to whole bytes
    assert np.median(req) == pytest.approx(M["request_median_bytes"], abs=2)
    think = web_traffic.sample_think(N, M, rng)
    assert abs(_z(think, web_traffic.think_mean(M))) < 5
    assert np.median(think) == pytest.approx(M["think_median_s"], rel=0.01)
    k = web_traffic.sample_objects_per_page(N, M, rng)
    assert abs(_z(k.astype(float), web_traffic.objects_per_page_mean(M))) < 5
    values, counts = np.unique(k, return_counts=True)
    assert counts[:8] / N == pytest.approx(web_traffic.objects_per_page_pmf(values[:8], M), abs=0.003)
    assert web_traffic.objects_per_page_pmf(np.arange(1, 2000), M).sum() == pytest.approx(1.0)
    assert np.median(k) == 1  # Mah: the median page is one object


def test_sample_browsers_is_seeded_and_consistent():
    a = web_traffic.sample_browsers(M, 50, 300.0, np.random.default_rng(3), n_groups=6)
    b = web_traffic.sample_browsers(M, 50, 300.0, np.random.default_rng(3), n_groups=6)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert a["browser_group"].tolist() == [i % 6 for i in range(50)]
    assert a["browser_pages"].sum() == len(a["page_first"]) == len(a["page_think_s"])
    assert a["page_objects"].sum() == len(a["req_bytes"]) == len(a["reply_bytes"])
    # every browser gets exactly the pages whose think-time-only start falls before the horizon
    for i in range(50):
        first, n = a["browser_first_page"][i], a["browser_pages"][i]
        starts = a["browser_start_s"][i] + np.concatenate([[0], np.cumsum(a["page_think_s"][first:first + n])])
        assert np.all(starts[:n] < 300.0) and starts[n] >= 300.0


def test_residual_start_has_the_equilibrium_mean():
    # renewal theory: the residual think time at a random instant has mean E[T^2] / (2 E[T])
    d = web_traffic.sample_browsers(M, 200_000, 1.0, np.random.default_rng(4))
    sigma2 = 2 * np.log(M["think_mean_s"] / M["think_median_s"])
    exact = M["think_mean_s"] * np.exp(sigma2) / 2
    assert d["browser_start_s"].mean() == pytest.approx(exact, rel=0.03)


@settings(max_examples=40, deadline=None)
@given(alpha=strategies.floats(0.8, 2.5), tail=strategies.floats(0.0, 0.5), sigma=strategies.floats(0.2, 2.0))
def test_reply_cdf_is_a_distribution_function(alpha, tail, sigma):
    m = web_traffic.model({"family": "parametric", "reply_tail_alpha": alpha, "reply_tail_prob": tail,
                           "reply_body_sigma": sigma})
    x = np.logspace(0, 8, 300)
    f = web_traffic.reply_cdf(x, m)
    assert np.all(np.diff(f) >= -1e-12) and f[-1] == pytest.approx(1.0) and f[0] >= 0
    assert 0 < web_traffic.reply_mean(m) <= m["reply_max_bytes"]


@settings(max_examples=40, deadline=None)
@given(think=strategies.floats(1.0, 100.0), page_time=strategies.floats(0.0, 10.0))
def test_offered_load_falls_with_think_and_page_time(think, page_time):
    m = web_traffic.model({"family": "parametric", "think_median_s": think, "think_mean_s": 2 * think})
    slower = web_traffic.model({"family": "parametric", "think_median_s": think * 1.5, "think_mean_s": 3 * think})
    assert web_traffic.offered_bps_per_browser(slower, page_time) < web_traffic.offered_bps_per_browser(m, page_time)
    assert web_traffic.offered_bps_per_browser(m, page_time + 1) < web_traffic.offered_bps_per_browser(m, page_time)


def test_bad_parameters_are_named():
    with pytest.raises(ParameterError, match="reply_tail_prob"):
        web_traffic.model({"reply_tail_prob": 1.5})
    with pytest.raises(ParameterError, match="unknown traffic model parameter"):
        web_traffic.model({"reply_alpha": 1.2})
    with pytest.raises(ParameterError, match="think_mean_s"):
        web_traffic.model({"think_mean_s": 5.0})
    with pytest.raises(ParameterError, match="n_browsers"):
        web_traffic.sample_browsers(M, 0, 10.0, np.random.default_rng(0))


# --- Mah's CDFs -------------------------------------------------------------------------------

TOY = web_traffic.EmpiricalCDF("toy", np.array([1.0, 3.0, 7.0]), np.array([1, 1, 2]), np.array([0.25, 0.5, 1.0]))


def test_ns2_lookup_and_interpolation_by_hand():
    # ns-2 ranvar.cc: the first point with cdf >= u; u <= cdf[0] gives the first value
    u = np.array([0.1, 0.25, 0.3, 0.5, 0.75, 1.0])
    assert TOY.quantile(u, "discrete").tolist() == [1, 1, 3, 3, 7, 7]
    # linear: u = 0.3 lies between (0.25, 1) and (0.5, 3): 1 + 0.05 * 2 / 0.25 = 1.4; u = 0.75: 3 + 0.25 * 4 / 0.5 = 5
    assert TOY.quantile(u, "linear") == pytest.approx([1, 1, 1.4, 3, 5, 7])
    # means: discrete 1/4 + 3/4 + 7/2 = 4.5; linear 1/4 (atom) + 2/4 (U(1,3)) + 5/2 (U(3,7)) = 3.25
    assert TOY.mean("discrete") == pytest.approx(4.5) and TOY.mean("linear") == pytest.approx(3.25)
    # E[X^2] discrete: 1/4 + 9/4 + 49/2 = 27; residual mean = E[X^2] / (2 E[X]) = 3
    assert TOY.moment(2, "discrete") == pytest.approx(27.0)
    # nothing beyond the last point
    assert TOY.quantile(np.random.default_rng(0).random(10_000), "linear").max() <= 7


@pytest.mark.parametrize("reading", web_traffic.MAH_READINGS)
def test_mah_means_match_samples(reading):
    m = web_traffic.model({"mah_reading": reading})
    rng = np.random.default_rng(5)
    for quantity, exact in (("request", web_traffic.request_mean(m)), ("reply", web_traffic.reply_mean(m)),
                            ("think", web_traffic.think_mean(m))):
        x = web_traffic.mah_tables()[quantity].sample(N, rng, reading)
        assert abs(_z(x, exact)) < 5, quantity
    # whole objects per page (rounded as http.tcl rounds): mean within 5 standard errors + 0.01 for the rounding
    k = web_traffic.sample_objects_per_page(N, m, rng).astype(float)
    assert abs(k.mean() - web_traffic.objects_per_page_mean(m)) < 5 * k.std() / np.sqrt(N) + 0.01
    res = web_traffic.mah_tables()["think"].residual(N, rng, reading)
    t = web_traffic.mah_tables()["think"]
    assert res.mean() == pytest.approx(t.moment(2, reading) / (2 * t.mean(reading)), rel=0.02)


def test_mah_data_as_measured():
    # Mah (1997): median think time about 15 s, median reply about 2 kB, median page one file
    t = web_traffic.mah_tables()
    assert 14 < t["think"].quantile(0.5) < 17 and 1900 < t["reply"].quantile(0.5) < 2300
    assert t["objects"].quantile(0.5) == 1 and t["think"].values[0] > 1.0  # Mah's 1 s think threshold
    # http.tcl's reading adds the primary: exactly one more object per page
    assert web_traffic.objects_per_page_mean(web_traffic.model({"mah_objects": "plus_primary"})) == pytest.approx(
        web_traffic.objects_per_page_mean(MAH) + 1)


def test_offered_load_is_the_renewal_reward_rate_of_samples():
    # think-time-only rate 8 E[K] E[S] / E[T], against a brute-force long run of one browser's cycles
    rng = np.random.default_rng(6)
    n = 300_000
    k = web_traffic.sample_objects_per_page(n, MAH, rng)
    bits = 8.0 * web_traffic.sample_replies(int(k.sum()), MAH, rng).astype(float).sum()
    rate = bits / web_traffic.sample_think(n, MAH, rng).sum()
    assert rate == pytest.approx(web_traffic.offered_bps_per_browser(MAH), rel=0.05)


def test_idle_browsers_get_no_pages():
    d = web_traffic.sample_browsers(MAH, 20_000, 30.0, np.random.default_rng(7))
    idle = d["browser_start_s"] >= 30.0
    assert idle.mean() > 0.9 and np.all(d["browser_pages"][idle] == 0)


@pytest.mark.parametrize("line,match", [
    ("1 2", "2 columns"), ("1 x 0.5", "column count"), ("1 1.5 1", "whole number"), ("1 1 1.2", r"not in \(0, 1\]")])
def test_malformed_cdf_names_row_and_column(tmp_path, line, match):
    path = tmp_path / "Bad.cdf"
    path.write_text(f"0 1 0.5\n{line}\n")
    with pytest.raises(web_traffic.MahDataError, match=match):
        web_traffic.read_cdf(path)


def test_cdf_must_follow_its_counts(tmp_path):
    path = tmp_path / "Bad.cdf"
    path.write_text("0 1 0.25\n1 1 1\n")  # counts 1, 1 make the first cdf 0.5
    with pytest.raises(web_traffic.MahDataError, match="row 1, column cdf"):
        web_traffic.read_cdf(path)
