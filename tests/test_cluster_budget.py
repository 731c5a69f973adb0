"""make bench's run budgets (bench/bench_budget.py): sums of the sweeps' run records, the per-point cost formula."""

import importlib.util
import json
from pathlib import Path

import pytest
import sweep_helpers

from paperlib.sweep import run_sweep

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_budget.py"


@pytest.fixture(scope="module")
def budget():
    spec = importlib.util.spec_from_file_location("bench_budget", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cold_budget_sums_the_timed_points_of_each_sweep(budget, tmp_path):
    run_sweep(sweep_helpers.gated, [{"x": x} for x in range(3)], cache_dir=tmp_path, scheduler="synchronous",
              progress=False)
    record = json.loads(next((tmp_path / "runs").glob("*.json")).read_text())
    out = budget.cold_budget(tmp_path)
    # not a paper's simulation: the budget names it by its simulate function
    assert list(out) == ["sweep_helpers.gated"]
    assert out["sweep_helpers.gated"]["timed"] == 3 and out["sweep_helpers.gated"]["points"] == 3
    assert out["sweep_helpers.gated"]["seconds"] == pytest.approx(sum(p["seconds"] for p in record["seconds"]))
    assert out["sweep_helpers.gated"]["cpu_seconds"] == pytest.approx(sum(p["cpu_seconds"] for p in record["seconds"]))


def test_records_name_their_paper(budget, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    # an emulated sweep names its paper in its parameters; an ns-3 simulation by its module
    emulated = {"simulate": "paperlib.emulation.experiments.run_point", "points": 2,
                "seconds": [{"params": {"paper": "004"}, "seed": 1, "seconds": 2.0, "cpu_seconds": 0.5},
                            {"params": {"paper": "004"}, "seed": 2, "seconds": 3.0, "cpu_seconds": 0.25}]}
    ns3 = {"simulate": "paperlib.sim.web_testbed.simulate", "points": 5,
           "seconds": [{"params": {}, "seed": 1, "seconds": 7.0, "cpu_seconds": 6.5}]}
    (runs / "a.json").write_text(json.dumps(emulated))
    (runs / "b.json").write_text(json.dumps(ns3))
    assert budget.cold_budget(tmp_path) == {"001": {"seconds": 7.0, "cpu_seconds": 6.5, "timed": 1, "points": 5},
                                            "004": {"seconds": 5.0, "cpu_seconds": 0.75, "timed": 2, "points": 2}}


def test_plan_seconds_scales_by_simulated_seconds_and_browsers(budget):
    # a = 1 s, b = 0.5 s per simulated second, measured with 10 browsers:
    # 4 simulated s with 20 browsers -> (1 + 0.5 * 4) * 20 / 10 = 6 s; 2 s with 10 browsers -> (1 + 1) * 1 = 2 s
    points = [{"sim_time_s": 4.0, "browsers": 20}, {"sim_time_s": 2.0, "browsers": 10}]
    assert budget.plan_seconds(points, 1.0, 0.5, 10) == pytest.approx(8.0)


def test_full_plan_has_the_default_plans_runs_at_ten_times_the_browsers(budget):
    scaled, full = budget.plan_001("scaled"), budget.plan_001("full")
    assert len(full) == len(scaled)  # the same plan (Table 3 counts and calibration fractions scale too)
    # the full profile's bottleneck is 10x the default's, so each load needs about 10x the browsers
    ratio = sum(p["browsers"] for p in full) / sum(p["browsers"] for p in scaled)
    assert 9.5 < ratio < 10.5


def test_mser5_finds_a_transient_and_none_in_a_flat_series(budget):
    import numpy as np

    rng = np.random.default_rng(1)
    flat = 10 + rng.normal(0, 1, 400)
    # a flat series needs no truncation beyond a batch or two
    assert budget.mser5_truncation_s(flat, 0.1) <= 1.0
    # the first 100 samples (10 s at 0.1 s) climb from 0 to 10: MSER-5 cuts near their end, never at 0
    ramp = flat.copy()
    ramp[:100] = np.linspace(0, 10, 100) + rng.normal(0, 1, 100)
    assert 5.0 <= budget.mser5_truncation_s(ramp, 0.1) <= 12.0
    with pytest.raises(ValueError, match="fewer than two batches"):
        budget.mser5_truncation_s([1, 2, 3], 0.1)


def test_warmup_table_without_cached_runs_is_empty(budget, tmp_path):
    assert budget.warmup_table(tmp_path).empty


def test_warmup_table_reads_the_cached_experiment_runs(budget, tmp_path):
    import numpy as np

    folder = tmp_path / "paperlib.sim.web_testbed.simulate"
    folder.mkdir()
    flat = [float(v) for v in 10 + np.random.default_rng(2).normal(0, 1, 400)]
    times = [round(0.1 * k, 1) for k in range(400)]
    for k, params in enumerate([{"load": 0.9, "queue": "fifo", "warmup_s": 10.0},
                                {"browsers": 1000, "warmup_s": 10.0}]):  # a calibration run: no load, left out
        entry = {"params": repr(params), "result": repr({"queue_sample_times_s": times, "queue_samples": flat})}
        (folder / f"{k}.json").write_text(json.dumps(entry))
    table = budget.warmup_table(tmp_path)
    assert table[["load", "queue", "runs", "warmup_s"]].values.tolist() == [[0.9, "fifo", 1, 10.0]]
    assert table.median_s.iloc[0] <= 1.0
