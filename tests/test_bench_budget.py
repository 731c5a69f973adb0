"""make bench's cold-run floor (bench/bench_budget.py) comes from each paper's last cold run, not from a warm rerun.

A run of :mod:`paperlib.run_progress` counts the sweep points its process tree computed and read from the cache
(:func:`paperlib.run_progress.note_sweep`, called by :func:`paperlib.sweep.run_sweep`); its record keeps the last
successful cold run beside the last run. The records here are fabricated (``write_record``) or written by runs of
small Python one-liners with a synchronous sweep: a few seconds in all.
"""

import importlib.util
import io
import json
import sys
from pathlib import Path

import pytest

from paperlib import run_progress

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench" / "bench_budget.py"
PY = sys.executable


@pytest.fixture(scope="module")
def budget():
    spec = importlib.util.spec_from_file_location("bench_budget", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(times: Path, paper: str) -> dict:
    return json.loads((times / f"{paper}.json").read_text())


def _sweeps(points: int, cached: int) -> dict:
    return {"sweeps": 1, "points": points, "cached": cached, "computed": points - cached}


# --- run_progress: what a run records ------------------------------------------------------------------------


def test_a_run_whose_sweeps_computed_every_point_is_cold_and_a_rerun_that_read_them_is_warm(tmp_path):
    """Two runs of one command that sweeps three points into one cache: the first computes them (cold), the second
    reads them (warm); the record of the second keeps the first as the last cold run."""
    cache = tmp_path / "cache"
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import sweep_helpers; from paperlib.sweep import run_sweep; "
            "run_sweep(sweep_helpers.square, [{'x': x} for x in range(3)], cache_dir=sys.argv[2], "
            "scheduler='synchronous', progress=False)")
    command = [PY, "-c", code, str(Path(__file__).parent), str(cache)]
    times = tmp_path / "times"
    records = []
    for _ in range(2):
        assert run_progress.run("007", command, tmp_path / "007.log", times_dir=times, locks_dir=tmp_path,
                                out=io.StringIO()) == 0, (tmp_path / "007.log").read_text()
        records.append(_record(times, "007"))
    first, second = records
    # first run: 3 points, none cached -> cold, and its own last cold run
    assert first["sweeps"] == {"sweeps": 1, "points": 3, "cached": 0, "computed": 3} and first["cold"] is True
    assert first["last_cold"]["seconds"] == first["seconds"] and first["last_cold"]["command"] == command
    # second run: the same 3 points, all cached -> warm; the last cold run is still the first one
    assert second["sweeps"] == {"sweeps": 1, "points": 3, "cached": 3, "computed": 0} and second["cold"] is False
    assert second["last_cold"] == first["last_cold"]
    assert second["started"] > first["started"]


def test_a_run_without_sweeps_is_cold(tmp_path):
    """Nothing read from a cache: everything the run shows was computed by it."""
    times = tmp_path / "times"
    assert run_progress.run("007", [PY, "-c", "pass"], tmp_path / "007.log", times_dir=times, locks_dir=tmp_path,
                            out=io.StringIO()) == 0
    record = _record(times, "007")
    assert record["sweeps"] == {"sweeps": 0, "points": 0, "cached": 0, "computed": 0} and record["cold"] is True


def test_a_partly_cached_run_is_warm_and_a_failed_cold_run_is_not_kept(tmp_path):
    run_progress.write_record("007", ["x"], 600.0, True, 1.0, tmp_path, cpu_seconds=1000.0, sweeps=_sweeps(10, 0))
    run_progress.write_record("007", ["x"], 50.0, True, 2.0, tmp_path, cpu_seconds=60.0, sweeps=_sweeps(10, 9))
    run_progress.write_record("007", ["x"], 30.0, False, 3.0, tmp_path, cpu_seconds=20.0, sweeps=_sweeps(10, 0))
    record = _record(tmp_path, "007")
    assert record["cold"] is True and not record["ok"]  # cold but failed: not the last cold run
    assert record["last_cold"] == {"command": ["x"], "seconds": 600.0, "cpu_seconds": 1000.0, "started": 1.0,
                                   "run_id": None}


def test_a_record_written_before_runs_were_tallied_knows_neither(tmp_path):
    run_progress.write_record("007", ["x"], 60.0, True, 0.0, tmp_path, cpu_seconds=6.0)
    record = _record(tmp_path, "007")
    assert record["cold"] is None and record["last_cold"] is None


def test_note_sweep_appends_one_line_per_sweep_and_read_tally_sums_them(tmp_path, monkeypatch):
    tally = tmp_path / "tally.jsonl"
    run_progress.note_sweep(4, 0, 4)  # no tally file named: nothing written
    assert not tally.exists()
    monkeypatch.setenv(run_progress.SWEEP_TALLY, str(tally))
    run_progress.note_sweep(4, 0, 4, "a")
    run_progress.note_sweep(6, 5, 1, "b")
    # 4 + 6 = 10 points, 0 + 5 = 5 cached, 4 + 1 = 5 computed, in 2 sweeps
    assert run_progress.read_tally(tally) == {"sweeps": 2, "points": 10, "cached": 5, "computed": 5}
    assert run_progress.read_tally(tmp_path / "none.jsonl") == {"sweeps": 0, "points": 0, "cached": 0, "computed": 0}
    tally.write_text('{"points": 1}\n')
    with pytest.raises(ValueError, match="tally.jsonl, line 1: not a sweep's counts"):
        run_progress.read_tally(tally)


# --- bench_budget: the floor from the cold runs --------------------------------------------------------------


def test_the_floor_is_the_last_cold_runs_cpu_over_the_cores_and_a_warm_rerun_does_not_change_it(budget, tmp_path):
    # 001 cold: 100 s wall, 200 CPU-s (two cores busy); 000 cold: 60 s on a link, 6 CPU-s; then a warm rerun of
    # 001 (1 min wall, 30 CPU-s, its sweeps read from the cache). A failed run of 002 does not count.
    # Floor on 2 cores from the cold runs: walls 100 + 60 = 160 s, CPU 200 + 6 = 206 s, 206 / 2 = 103 s.
    run_progress.write_record("001", ["x"], 100.0, True, 0.0, tmp_path, cpu_seconds=200.0, sweeps=_sweeps(8, 0))
    run_progress.write_record("000", ["x"], 60.0, True, 0.0, tmp_path, cpu_seconds=6.0, sweeps=_sweeps(0, 0))
    run_progress.write_record("002", ["x"], 5.0, False, 0.0, tmp_path, cpu_seconds=1.0, sweeps=_sweeps(1, 0))
    cold = budget.overlap_floor(tmp_path, cores=2)
    run_progress.write_record("001", ["x"], 60.0, True, 1.0, tmp_path, cpu_seconds=30.0, sweeps=_sweeps(8, 8))
    floor = budget.overlap_floor(tmp_path, cores=2)
    assert floor["measured"] and set(floor["last"]) == set(floor["cold"]) == {"000", "001"}
    assert floor["wall_s"] == 160.0 and floor["cpu_s"] == 206.0 and floor["floor_s"] == 103.0
    assert (floor["wall_s"], floor["cpu_s"], floor["floor_s"]) == (cold["wall_s"], cold["cpu_s"], cold["floor_s"])
    # the last run of 001 is the warm rerun, shown as such
    assert floor["last"]["001"] == {"seconds": 60.0, "cpu_seconds": 30.0, "cold": False, "sweeps": _sweeps(8, 8)}
    assert floor["cold"]["001"]["seconds"] == 100.0 and floor["cold"]["001"]["cpu_seconds"] == 200.0


def test_bench_prints_the_last_cold_run_beside_the_last_run_saying_which_is_which(budget, tmp_path, capsys):
    run_progress.write_record("001", ["x"], 600.0, True, 0.0, tmp_path, cpu_seconds=1080.0, sweeps=_sweeps(8, 0))
    run_progress.write_record("001", ["x"], 60.0, True, 1.0, tmp_path, cpu_seconds=30.0, sweeps=_sweeps(8, 6))
    budget.print_floor(budget.overlap_floor(tmp_path, cores=2), tmp_path, 2)
    lines = capsys.readouterr().out.splitlines()
    # cold: 600 s = 10.0 min wall, 1080 CPU-s = 18.0 CPU-min, 1080 / 600 = 1.80 cores busy
    assert lines[1] == "  001: last cold run 10.0 min wall, 18.0 CPU-min (1.80 cores busy)"
    # last: 60 s = 1.0 min, 30 CPU-s = 0.5 CPU-min, 0.50 cores busy; 2 of 8 points computed, 6 cached
    assert lines[2] == ("       last run      1.0 min wall, 0.5 CPU-min (0.50 cores busy), warm (2 of 8 sweep points "
                        "computed, the rest cached)")
    # the floor: 1080 CPU-s / 2 cores = 540 s = 9.0 min, 90% of the 10.0 min wall
    assert "takes at least 9.0 min on 2 cores (90% of the walls' sum)" in lines[3]


def test_no_floor_without_a_cold_run_with_its_cpu_time(budget, tmp_path, capsys):
    run_progress.write_record("001", ["x"], 100.0, True, 0.0, tmp_path)  # no CPU time, cold or warm not known
    run_progress.write_record("003", ["x"], 60.0, True, 0.0, tmp_path, cpu_seconds=30.0, sweeps=_sweeps(4, 4))
    floor = budget.overlap_floor(tmp_path, cores=2)
    assert not floor["measured"] and floor["cold"] == {"001": None, "003": None}
    assert not budget.overlap_floor(tmp_path / "none", cores=2)["measured"]
    budget.print_floor(floor, tmp_path, 2)
    out = capsys.readouterr().out
    assert "001: last cold run none recorded" in out and "cold or warm not recorded" in out
    assert "no floor: 001, 003 without a cold run" in out
