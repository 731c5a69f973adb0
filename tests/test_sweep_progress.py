"""Progress on long work (issue 34, item 4): the sweeps' progress lines on make reproduce's terminal.

The estimate of the time left (:func:`paperlib.sweep_progress.time_left_s`), the lines and when a paper prints
them (:class:`paperlib.run_progress.SweepLines`), the events file between the sweep runner and run_progress, and
the events the sweep runner writes. All in this process or in small Python one-liners: a few seconds in all.
"""

import io
import json
import sys

import pytest
import sweep_helpers
from hypothesis import given
from hypothesis import strategies as st

from paperlib import run_progress
from paperlib.run_progress import HEARTBEAT_S, SweepLines, progress_every_s, sweep_end_line, sweep_line, tenth
from paperlib.sweep import run_sweep
from paperlib.sweep_progress import PROGRESS_FILE, ProgressFeed, time_left_s

PY = sys.executable


# --- the estimate ------------------------------------------------------------------------------

def test_time_left_is_the_remaining_points_at_the_timed_rate_over_the_workers():
    # two timed points of cost 1: 10 s and 20 s, so 15 s per unit of cost; three points of cost 1 remain on
    # two workers: 3 * 15 / 2 = 22.5 s
    assert time_left_s([1, 1, 1], [None, None, None], [(1, 10.0), (1, 20.0)], workers=2) == 22.5


def test_time_left_weighs_the_points_by_cost_and_takes_a_points_earlier_time_when_known():
    # rate: (8 + 24) s / (2 + 6) = 4 s per unit; remaining: cost 3 without an earlier run (3 * 4 = 12 s) and a
    # point that took 5 s before; four workers but two points, so two at once: (12 + 5) / 2 = 8.5 s
    assert time_left_s([3, 1], [None, 5.0], [(2, 8.0), (6, 24.0)], workers=4) == 8.5


def test_time_left_without_a_rate_is_known_only_from_earlier_runs():
    # nothing timed: two points with earlier runs of 30 s and 50 s, one worker: 80 s
    assert time_left_s([1, 1], [30.0, 50.0], [], workers=1) == 80.0
    # one point with nothing to go by: no estimate at all (no number made up)
    assert time_left_s([1, 1], [30.0, None], [], workers=1) is None
    # timed points of zero cost give no rate either
    assert time_left_s([1], [None], [(0, 3.0)], workers=1) is None
    # nothing left
    assert time_left_s([], [], [], workers=3) == 0.0


def test_time_left_rejects_bad_input():
    with pytest.raises(ValueError, match="known_s"):
        time_left_s([1, 1], [None], [(1, 1.0)], workers=1)
    with pytest.raises(ValueError, match="workers"):
        time_left_s([1], [None], [(1, 1.0)], workers=0)


@given(costs=st.lists(st.floats(0.1, 100), min_size=1, max_size=8), timed_s=st.floats(0.1, 1000),
       workers=st.integers(1, 8), k=st.floats(0.5, 10))
def test_time_left_scales_with_the_timed_seconds(costs, timed_s, workers, k):
    """Points that took k times as long predict k times the time left."""
    known = [None] * len(costs)
    base = time_left_s(costs, known, [(1.0, timed_s)], workers)
    assert time_left_s(costs, known, [(1.0, k * timed_s)], workers) == pytest.approx(k * base)


# --- the lines ---------------------------------------------------------------------------------

def test_a_sweep_line_says_runs_done_out_of_planned_those_from_the_cache_and_the_time_left():
    # 390 s = 6 min 30 s
    assert (sweep_line("001", "001 experiments", 12, 40, 8, 390.0)
            == "[001] sweep  001 experiments: 12/40 runs done (8 from the cache), about 6 min 30 s left")
    assert sweep_line("003", "web", 0, 5, 0, None) == "[003] sweep  web: 0/5 runs done, time left not known yet"
    assert sweep_line("003", "web", 4, 5, 0, 0.0) == "[003] sweep  web: 4/5 runs done, past its estimate"
    assert sweep_line("003", "web", 4, 5, 0, 0.3) == "[003] sweep  web: 4/5 runs done, about 1 s left"
    # 725 s = 12 min 05 s
    assert sweep_end_line("001", "calib", 40, 0, 725.0) == "[001] sweep  calib: 40/40 runs done in 12 min 05 s"
    assert sweep_end_line("001", "calib", 40, 3, None) == "[001] sweep  calib: 40/40 runs done (3 from the cache)"


@pytest.mark.parametrize("done, planned, expected", [(0, 40, 0), (3, 40, 0), (4, 40, 1), (39, 40, 9), (40, 40, 10),
                                                     (1, 3, 3), (2, 3, 6)])
def test_tenth_counts_whole_tenths(done, planned, expected):
    # 10 * done // planned: 10 * 3 // 40 = 0, 10 * 4 // 40 = 1, 10 * 39 // 40 = 9, 10 * 2 // 3 = 6
    assert tenth(done, planned) == expected


def _event(kind, t, done, planned=10, cached=0, left_s=None, sweep_id="s1", name="sweep"):
    return {"event": kind, "id": sweep_id, "sweep": name, "planned": planned, "cached": cached, "done": done,
            "workers": 1, "left_s": left_s, "t": t}


def test_a_paper_prints_a_line_at_most_every_30_s_and_only_with_news():
    lines = SweepLines("001", every_s=30, last_t=0.0)  # its start line at t = 0
    assert lines.feed(_event("start", 5.0, 0, left_s=100.0)) == []  # 5 s after the start line
    # 31 s after the start line, the sweep computes and was not shown; 100 s estimated at t = 5: 100 - 26 = 74 s
    assert lines.tick(31.0) == ["[001] sweep  sweep: 0/10 runs done, about 1 min 14 s left"]
    assert lines.feed(_event("point", 40.0, 1, left_s=90.0)) == []  # a further tenth, but 9 s after the last line
    assert lines.tick(60.0) == []  # 29 s
    # 62 - 31 = 31 s and two tenths since the line showing none: the event's own estimate, 80 s
    assert lines.feed(_event("point", 62.0, 2, left_s=80.0)) == [
        "[001] sweep  sweep: 2/10 runs done, about 1 min 20 s left"]
    assert lines.tick(200.0) == []  # no further tenth, and 138 s is less than the heartbeat's 300 s
    # 362 - 62 = 300 s without a line while it computes: the line again, 80 s estimated 300 s ago
    assert 62.0 + HEARTBEAT_S == 362.0
    assert lines.tick(362.0) == ["[001] sweep  sweep: 2/10 runs done, past its estimate"]
    assert lines.feed(_event("end", 370.0, 10, left_s=0.0)) == []  # 8 s after the last line
    # the end 30 s after the last line; it took 370 - 5 = 365 s = 6 min 05 s
    assert lines.tick(392.0) == ["[001] sweep  sweep: 10/10 runs done in 6 min 05 s"]
    assert lines.tick(900.0) == []  # nothing runs: nothing to say


def test_a_sweep_that_ends_before_it_is_shown_prints_nothing():
    lines = SweepLines("002", every_s=30, last_t=0.0)
    assert lines.feed(_event("start", 2.0, 3, cached=3)) == []
    assert lines.feed(_event("point", 9.0, 4)) == []
    assert lines.feed(_event("end", 12.0, 10, cached=3)) == []
    assert lines.tick(100.0) == []


def test_with_no_least_time_every_tenth_and_the_end_show_at_their_events():
    """``WEBPERF_PROGRESS_EVERY=0`` (what tests/test_make_run.py sets): every event with news is shown as it comes;
    the last point's event brings no line of its own, the end does."""
    lines = SweepLines("900", every_s=0, last_t=0.0)
    shown = [*lines.feed(_event("start", 1.0, 0, planned=2)),
             *lines.feed(_event("point", 2.0, 1, planned=2, left_s=1.2)),
             *lines.feed(_event("point", 3.0, 2, planned=2, left_s=0.0)),
             *lines.feed(_event("end", 3.0, 2, planned=2)), *lines.tick(4.0)]
    assert shown == ["[900] sweep  sweep: 0/2 runs done, time left not known yet",
                     "[900] sweep  sweep: 1/2 runs done, about 1 s left",
                     "[900] sweep  sweep: 2/2 runs done in 2 s"]  # 3 - 1 = 2 s


def test_an_end_whose_start_was_not_seen_gives_no_time():
    lines = SweepLines("004", every_s=0, last_t=0.0)
    assert lines.feed(_event("point", 1.0, 1, planned=2)) == [
        "[004] sweep  sweep: 1/2 runs done, time left not known yet"]
    assert lines.feed(_event("end", 2.0, 2, planned=2)) == ["[004] sweep  sweep: 2/2 runs done"]


@pytest.mark.parametrize("text, expected", [(None, 30.0), ("10", 10.0), ("0", 0.0), ("2.5", 2.5)])
def test_the_least_time_between_lines_comes_from_the_environment(text, expected):
    environ = {} if text is None else {run_progress.PROGRESS_EVERY: text}
    assert progress_every_s(environ) == expected


@pytest.mark.parametrize("text", ["soon", "-1", "nan", "inf", ""])
def test_a_bad_least_time_is_refused_naming_the_variable(text):
    with pytest.raises(ValueError, match=run_progress.PROGRESS_EVERY):
        progress_every_s({run_progress.PROGRESS_EVERY: text})


# --- the events file ---------------------------------------------------------------------------

def test_the_feed_reads_whole_lines_as_they_come_and_skips_what_is_not_an_event(tmp_path):
    path = tmp_path / "progress.jsonl"
    feed = ProgressFeed(path)
    assert feed.read() == []  # no file yet: no sweep has started
    start = json.dumps(_event("start", 1.0, 0))
    with open(path, "w") as fh:
        fh.write(start + "\n" + start[:20])  # a whole line and the beginning of the next
    assert feed.read() == [_event("start", 1.0, 0)]
    with open(path, "a") as fh:
        fh.write(start[20:] + "\n" + "not json\n" + json.dumps({**_event("point", 2.0, 11)}) + "\n")
    # the line ended now, then one that is not JSON and one with more runs done than planned (11 of 10)
    assert feed.read() == [_event("start", 1.0, 0)]
    assert feed.skipped == 2


# --- the sweep runner's events -----------------------------------------------------------------

def _events(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_sweep_writes_its_events_and_estimates_from_the_times_it_recorded(tmp_path, monkeypatch):
    progress, cache = tmp_path / "progress.jsonl", tmp_path / "cache"
    monkeypatch.setenv(PROGRESS_FILE, str(progress))
    points = [{"x": x} for x in (1, 2, 3)]
    run_sweep(sweep_helpers.square, points, cache_dir=cache, scheduler="synchronous", progress=False, desc="sq")
    events = _events(progress)
    assert [(e["event"], e["done"], e["planned"], e["cached"], e["sweep"], e["workers"]) for e in events] == [
        ("start", 0, 3, 0, "sq", 1), ("point", 1, 3, 0, "sq", 1), ("point", 2, 3, 0, "sq", 1),
        ("point", 3, 3, 0, "sq", 1), ("end", 3, 3, 0, "sq", 1)]
    assert events[0]["left_s"] is None  # a cold cache: nothing to go by
    assert len({e["id"] for e in events}) == 1
    seconds = {json.loads(p.read_text())["params"]["x"]: json.loads(p.read_text())["seconds"]
               for p in (cache / "sweep_helpers.square").glob("*.json")}
    # after x = 1 (cost 1 by sweep_helpers.sweep_cost) the rate is its time; x = 2 and 3 remain: (2 + 3) * t1
    assert events[1]["left_s"] == pytest.approx(5 * seconds[1], abs=0.06)  # rounded to 0.1 s, the time to 1 ms

    progress.unlink()
    run_sweep(sweep_helpers.square, points, cache_dir=cache, scheduler="synchronous", progress=False)
    assert not progress.exists()  # every point from the cache: nothing runs, nothing to report

    run_sweep(sweep_helpers.square, [*points, {"x": 4}], cache_dir=cache, scheduler="synchronous", progress=False)
    start = _events(progress)[0]
    assert (start["event"], start["done"], start["planned"], start["cached"]) == ("start", 3, 4, 3)
    assert start["sweep"] == "sweep_helpers.square"  # no desc: module.function
    # the rate of the recorded points, (t1 + t2 + t3) / (1 + 2 + 3) per unit of cost, for x = 4 (cost 4)
    rate = (seconds[1] + seconds[2] + seconds[3]) / 6
    assert start["left_s"] == pytest.approx(4 * rate, abs=0.06)


def test_a_point_run_before_under_another_code_version_gives_its_own_time(tmp_path, monkeypatch):
    progress, cache = tmp_path / "progress.jsonl", tmp_path / "cache"
    run_sweep(sweep_helpers.square, [{"x": 5}], cache_dir=cache, code_version="a", scheduler="synchronous",
              progress=False)
    [entry] = [json.loads(p.read_text()) for p in (cache / "sweep_helpers.square").glob("*.json")]
    monkeypatch.setenv(PROGRESS_FILE, str(progress))
    run_sweep(sweep_helpers.square, [{"x": 5}], cache_dir=cache, code_version="b", scheduler="synchronous",
              progress=False)
    start = _events(progress)[0]
    assert start["left_s"] == pytest.approx(entry["seconds"], abs=0.06)  # the same point's time under version a


# --- run_progress shows them -------------------------------------------------------------------

#: A command that writes a sweep's events as the sweep runner would, at fixed times 1 s apart.
FAKE_SWEEP = """
import json, os, time
t = time.time()
with open(os.environ["WEBPERF_SWEEP_PROGRESS"], "a") as fh:
    events = [("start", 1, None), ("point", 2, 2.0), ("point", 3, 0.0), ("end", 3, None)]
    for i, (kind, done, left) in enumerate(events):
        fh.write(json.dumps({"event": kind, "id": "1.1", "sweep": "fake", "planned": 3, "cached": 1, "done": done,
                             "workers": 1, "left_s": left, "t": t + i}) + "\\n")
"""


def test_run_prints_the_sweeps_lines_between_its_start_and_end_lines(tmp_path):
    out = io.StringIO()
    code = run_progress.run("950", [PY, "-c", FAKE_SWEEP], tmp_path / "950.log", times_dir=tmp_path / "times",
                            locks_dir=tmp_path / "locks", out=out, every_s=0)
    assert code == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[950] start  ") and lines[-1].startswith("[950] done   in ")
    # 1 of 3 from the cache at the start (a third: 3 tenths), then 2 of 3 (6 tenths) with 2 s left, the end 3 s
    # after the start; the last point's own event brings no line
    assert lines[1:-1] == ["[950] sweep  fake: 1/3 runs done (1 from the cache), time left not known yet",
                           "[950] sweep  fake: 2/3 runs done (1 from the cache), about 2 s left",
                           "[950] sweep  fake: 3/3 runs done (1 from the cache) in 3 s"]


def test_run_without_sweeps_prints_only_its_start_and_end(tmp_path):
    out = io.StringIO()
    run_progress.run("951", [PY, "-c", "pass"], tmp_path / "951.log", times_dir=tmp_path / "times",
                     locks_dir=tmp_path / "locks", out=out, every_s=0)
    assert [line.split()[:2] for line in out.getvalue().splitlines()] == [["[951]", "start"], ["[951]", "done"]]


def test_the_real_stack_runs_report_through_the_same_runner(tmp_path, monkeypatch):
    """The emulation's sweeps (paperlib.emulation.experiments.run, one testbed per point) go through run_sweep, so
    they report too; a stand-in for the testbed's run_point keeps this test off the network namespaces."""
    from paperlib.emulation import experiments

    progress = tmp_path / "progress.jsonl"
    monkeypatch.setenv(PROGRESS_FILE, str(progress))
    monkeypatch.setattr(experiments, "run_point", sweep_helpers.square)
    experiments.run([{"x": 1}, {"x": 2}], cache_dir=tmp_path / "cache", n_links=1, progress=False, desc="real stacks")
    assert [(e["event"], e["sweep"], e["done"], e["planned"]) for e in _events(progress)] == [
        ("start", "real stacks", 0, 2), ("point", "real stacks", 1, 2), ("point", "real stacks", 2, 2),
        ("end", "real stacks", 2, 2)]
