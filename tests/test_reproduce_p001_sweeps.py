"""Paper 001's sweeps: the points each one runs, through the sweep runner (a stand-in simulation, no ns-3)."""

import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p001 import sweeps, testbed

PAPER = load_paper("001")


def stand_in(params: dict, seed: int) -> dict:
    """A stand-in for the testbed: reports the browsers it was given as its throughput."""
    return {"throughput_bps": float(params["browsers"])}


def test_calibration_runs_every_count_and_repetition(tmp_path):
    prof = testbed.profile("scaled")
    prof = type(prof)(**{**prof.as_dict(), "calibration_browsers": (10, 20)})
    runs = sweeps.calibration(PAPER, prof, "rtt", simulate=stand_in, cache_dir=tmp_path, scheduler="synchronous")
    # 2 counts x 2 calibration repetitions of the profile
    assert runs["throughput_bps"].tolist() == [10.0, 10.0, 20.0, 20.0]


def test_table3_counts_run_the_printed_counts(tmp_path):
    runs = sweeps.table3_counts(PAPER, testbed.profile("scaled"), "rtt", simulate=stand_in, cache_dir=tmp_path,
                                scheduler="synchronous")
    assert runs["throughput_bps"].tolist() == [2770.0, 3111.0, 3384.0]  # Table 3 as printed


def test_experiments_and_checks_run_their_points(tmp_path):
    prof = testbed.profile("scaled")
    prof = type(prof)(**{**prof.as_dict(), "reps": 1})
    browsers = {0.8: 1, 0.9: 2, 0.98: 3}
    opts = dict(simulate=stand_in, cache_dir=tmp_path, scheduler="synchronous")
    runs = sweeps.experiments(PAPER, prof, browsers, ["FIFO-60"], "rtt", **opts)
    assert len(runs) == 3 * 2 and sweeps.plan_sentence(len(runs), ["FIFO-60"], prof, browsers).startswith("6 runs")
    alt = sweeps.latency_check(PAPER, prof, browsers, "rtt", **opts)
    assert set(alt["latency_reading"]) == {"one_way"} and set(alt["load"]) == {0.8}
    scaled, full = sweeps.scale_check(PAPER, prof, browsers, "rtt", 20.0, **opts)
    assert (full["throughput_bps"] == 10 * scaled["throughput_bps"]).all()  # full scale: ten times the browsers


def test_small_helpers():
    assert sweeps.other_latency_reading("rtt") == "one_way" and sweeps.other_latency_reading("one_way") == "rtt"
    assert sweeps.runs_scale_check(testbed.profile("scaled")) and not sweeps.runs_scale_check(testbed.profile("full"))
    with sweeps.shared_cluster("synchronous") as scheduler:  # an explicit scheduler is passed through
        assert scheduler == "synchronous"


@pytest.mark.parametrize("reading", ["rtt", "one_way"])
def test_latency_check_uses_the_other_reading(reading):
    points = testbed.latency_check_points(PAPER, testbed.profile("scaled"), {0.8: 1, 0.9: 1, 0.98: 1},
                                          sweeps.other_latency_reading(reading))
    assert {p["latency_reading"] for p in points} == {sweeps.other_latency_reading(reading)}
