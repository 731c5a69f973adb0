"""Paper 001's decision rule on its own: the t-interval of per-replication margins, and the shared readings.

Every expected number is derived by hand in the comment beside its assert (t quantiles from tables).
"""

import math

import numpy as np
import pytest

from paperlib.reproduce.p001 import decision_rule
from paperlib.reproduce.p001.decision_rule import around, decide, increasing, less, same, spread


def test_ten_margins_above_zero_are_supported_with_the_hand_derived_interval():
    # margins 1..10: mean 5.5, s = sqrt(sum((k - 5.5)^2) / 9) = sqrt(82.5 / 9) = 3.0277,
    # t(0.975, 9) = 2.2622, half-width 2.2622 x 3.0277 / sqrt(10) = 2.1659: [3.334, 7.666]
    d = decide(np.arange(1, 11))
    assert d.status == "supported" and d.n == 10 and d.n_needed == 10
    assert (d.mean, d.low, d.high) == pytest.approx((5.5, 3.334, 7.666), abs=1e-3)


def test_ten_margins_below_zero_are_refuted():
    # the mirror image: mean -5.5, interval [-7.666, -3.334] below 0
    d = decide(-np.arange(1, 11))
    assert d.status == "refuted" and d.high == pytest.approx(-3.334, abs=1e-3)


def test_an_interval_straddling_zero_is_inconclusive_with_the_replications_that_would_decide_it():
    # margins -4..5: mean 0.5, s = 3.0277 (the same spread shifted): half-width 2.1659 > 0.5;
    # the fewest n with t(0.975, n - 1) x 3.0277 / sqrt(n) < 0.5: n = 143 gives 1.97681 x 3.0277 / 11.958 = 0.50050
    # (not below), n = 144 gives 1.97669 x 3.0277 / 12 = 0.49873 (below): 144
    d = decide(np.arange(1, 11) - 5.0)
    assert d.status == "inconclusive" and d.n_needed == 144
    assert d.low == pytest.approx(0.5 - 2.1659, abs=1e-3)


def test_fewer_than_ten_replications_never_decide():
    # margins 1..9: interval [5 - 2.306 x 2.7386 / 3, ...] = [2.895, 7.105] is above 0, but 9 < MIN_REPS
    d = decide(np.arange(1, 10))
    assert decision_rule.MIN_REPS == 10 and d.status == "inconclusive" and d.low > 0
    # the replications needed are never below MIN_REPS: at n = 4, 3.1824 x 2.7386 / 2 = 4.358 < 5 (at n = 3,
    # 4.3027 x 2.7386 / 1.732 = 6.80 is not), so 4, reported as 10
    assert d.n_needed == 10


def test_non_finite_margins_are_left_out_and_one_margin_decides_nothing():
    d = decide([1.0, float("nan"), float("inf")])
    assert d.status == "untestable" and d.n == 1 and d.mean == 1.0 and math.isnan(d.low)  # no interval at all
    assert decide([]).n == 0 and math.isnan(decide([]).mean)


def test_the_sentence_opens_every_claim_reason():
    # margins +0.1 (6 times), -0.1 (4 times): mean 0.02, s = sqrt((6 x 0.08^2 + 4 x 0.12^2) / 9) = 0.1033,
    # half-width 2.2622 x 0.1033 / sqrt(10) = 0.0739: [-0.054, +0.094]; the fewest n with
    # t(0.975, n - 1) x 0.1033 / sqrt(n) < 0.02: n = 104 gives 1.98326 x 0.10328 / 10.198 = 0.020085 (not below),
    # n = 105 gives 1.98304 x 0.10328 / 10.247 = 0.019987: 105
    d = decide([0.1] * 6 + [-0.1] * 4)
    pooled = decision_rule.Reading(False, None, "r", -0.1)
    assert d.sentence(pooled) == ("margin over 10 replications: mean +0.020, 95% CI [-0.054, +0.094]; the interval "
                                  "straddles 0 (pooled reading: refuted); about 105 replications would decide it")
    # three equal margins: s = 0, any n >= 2 decides, reported as MIN_REPS
    assert decide([0.1] * 3).sentence(pooled).endswith(
        "; fewer than 10 replications; about 10 replications would decide it")
    assert decide([0.1]).sentence(pooled).endswith("; fewer than 2 replications, so no interval")


def test_almost_the_same_is_a_spread_within_ten_percent():
    # 100 and 109: spread 0.09, margin 0.10 - 0.09 = 0.01; 100 and 111: margin -0.01
    r = same({"g": {"a": 100.0, "b": 109.0}}, "x")
    assert r.holds and r.margin == pytest.approx(0.01) and r.regenerated == pytest.approx(0.09)
    r = same({"g": {"a": 100.0, "b": 111.0}, "h": {"a": 1.0, "b": 1.0}}, "x")
    assert not r.holds and r.margin == pytest.approx(-0.01)  # the largest spread of the groups decides
    assert spread([2.0, 3.0, 4.0]) == pytest.approx(1.0)  # 4 / 2 - 1


def test_increasing_takes_the_smallest_relative_step():
    # 100 -> 120 -> 150: steps 0.2 and 0.25, margin 0.2; 100 -> 90: step -0.1
    r = increasing({"s": {"80%": 100.0, "90%": 120.0, "98%": 150.0}}, "x")
    assert r.holds and r.margin == pytest.approx(0.2)
    r = increasing({"s": {"80%": 100.0, "90%": 120.0}, "t": {"80%": 100.0, "90%": 90.0}}, "x")
    assert not r.holds and r.margin == pytest.approx(-0.1) and "not increasing: t" in r.reason


def test_around_is_within_twenty_percent_and_less_than_around_below_the_bound():
    # 130 around 150: |130 / 150 - 1| = 0.1333, margin 0.2 - 0.1333 = 0.0667
    r = around(130.0, 150.0, "x")
    assert r.holds and r.margin == pytest.approx(0.2 - 20 / 150) and r.regenerated == 130.0
    assert not around(190.0, 150.0, "x").holds  # 190 / 150 - 1 = 0.267 > 0.2
    # less than around 500: met up to 600; at 590 the margin is 600 / 590 - 1 = 0.0169, at 610 it is -0.0164
    assert around(590.0, 500.0, "x", upper_bound=True).margin == pytest.approx(600 / 590 - 1)
    assert not around(610.0, 500.0, "x", upper_bound=True).holds


def test_less_needs_more_than_ten_percent():
    # 80 vs 100: 80 x 1.1 = 88 < 100, margin 100 / 88 - 1 = 0.1364, regenerated 80 / 100 - 1 = -0.2
    r = less(("a", 80.0), ("b", 100.0), "x")
    assert r.holds and r.margin == pytest.approx(100 / 88 - 1) and r.regenerated == pytest.approx(-0.2)
    # 95 vs 100: 95 x 1.1 = 104.5 > 100, margin 100 / 104.5 - 1 = -0.0431
    r = less(("a", 95.0), ("b", 100.0), "x")
    assert not r.holds and r.margin == pytest.approx(100 / 104.5 - 1)
