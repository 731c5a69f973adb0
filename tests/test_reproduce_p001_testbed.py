"""Paper 001's testbed plan: Table 2's pairs, Table 1 on ns-3, sweep points, profiles (no simulation)."""

import pytest

from paperlib.reproduce.p001 import testbed
from paperlib.sim import web_testbed
from paperlib.validate import ParameterError


def test_table2_pairs_and_the_testbed_default_agree(paper):
    assert testbed.pairs(paper) == [list(p) for p in web_testbed.PAIRS_SHORT_S]


def test_queue_configurations_map_table1_onto_ns3(paper):
    q = testbed.queue_configs(paper)
    assert list(q) == ["FIFO-60", "FIFO-120", "FIFO-180", "RED-A-480", "RED-B-480", "RED-C-480",
                       "RED-A-240", "RED-B-240", "RED-C-240", "RED-A-180"]
    assert q["RED-A-480"] == {"queue": "red", "queue_packets": 480, "red_min_th": 5.0, "red_max_th": 90.0,
                              "red_weight": 1 / 128, "red_max_p": 1 / 20, "red_gentle": False}
    assert q["RED-B-240"]["red_max_p"] == 0.1 and q["RED-B-240"]["queue_packets"] == 240
    assert q["RED-A-180"]["red_max_th"] == 90.0 and q["FIFO-60"] == {"queue": "fifo", "queue_packets": 60}


def test_experiment_points_cover_every_configuration(paper):
    prof = testbed.profile("scaled")
    browsers = {0.8: 100, 0.9: 110, 0.98: 120}
    pts = testbed.experiment_points(paper, prof, browsers)
    assert len(pts) == 10 * 3 * 2 * prof.reps
    assert len({tuple(sorted((k, str(v)) for k, v in p.items())) for p in pts}) == len(pts)
    long = [p for p in pts if p["latency"] == "long"]
    assert {p["latency_scale"] for p in long} == {3.0}
    assert {p["browsers"] for p in pts if p["load"] == 0.98} == {120}
    for p in pts:  # every point is a valid testbed parameter set
        web_testbed._check({**web_testbed.DEFAULTS, **p})
    with pytest.raises(ParameterError, match="configs"):
        testbed.experiment_points(paper, prof, browsers, configs=["FIFO-999"])
    with pytest.raises(ParameterError, match="profile"):
        testbed.profile("huge")
    scaled, full = testbed.scale_pairs(paper, browsers, sim_time_s=20.0)
    assert [p["browsers"] * 10 for p in scaled] == [p["browsers"] for p in full]
    assert {p["bottleneck_bps"] for p in full} == {10 * p["bottleneck_bps"] for p in scaled}


def test_profiles_share_one_plan_and_differ_in_workload(paper):
    scaled, sens = testbed.profile("scaled"), testbed.profile("sensitivity")
    assert scaled.traffic == testbed.DEFAULT_WORKLOAD and sens.traffic["family"] == "parametric"
    assert scaled.reps >= 10  # the CI rule needs 10 replications to decide anything
    # calibration counts are fractions of the predicted count for 100%: 10 Mbit/s / 0.091 kbit/s = about 110 000
    assert 100_000 < max(scaled.calibration_counts()) / 1.2 < 120_000
    pts = testbed.experiment_points(paper, scaled, {0.8: 100, 0.9: 110, 0.98: 120})
    key = lambda p: (p["load"], p["latency"], p["rep"])  # noqa: E731
    seeds = {}
    for p in pts:  # common random numbers: one workload seed per (load, latency, rep), shared by all configurations
        seeds.setdefault(key(p), set()).add(p["workload_seed"])
    assert all(len(v) == 1 for v in seeds.values()) and len({next(iter(v)) for v in seeds.values()}) == len(seeds)
