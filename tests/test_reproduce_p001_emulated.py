"""Paper 001 on real stacks: the plan's size and seeds, the claims judged on (fake) real-stack runs, the ledger rows.

Pure: no testbed (the short real run is in tests/test_emulation_web_testbed_real.py).
"""

import os

import fidelity_helpers
import numpy as np
import pandas as pd
import pytest

from paperlib import decide
from paperlib.data import load_paper
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import REAL_STACKS
from paperlib.reproduce.p001 import claims, emulated, ledger_rows, testbed
from paperlib.sim import web_testbed

PAPER = load_paper("001")
BROWSERS = {0.8: 1000, 0.9: 1100, 0.98: 1200}


_record = fidelity_helpers.record


def test_the_reduced_plan_is_the_headline_cells_with_ns3s_workload_seeds():
    pts = emulated.points(PAPER, "reduced", BROWSERS)
    # 8 cells x 10 replications
    assert len(pts) == 80
    assert {(p["config"], p["load"], p["latency"]) for p in pts} == set(emulated.REDUCED_CELLS)
    prof = testbed.PROFILES["scaled"]
    for p in pts:
        assert p["workload_seed"] == testbed.crn_seed(p["load"], p["latency"], p["rep"], prof)
        assert (p["sim_time_s"], p["warmup_s"], p["browsers"]) == (20.0, 5.0, 1200)
        web_testbed._check({**web_testbed.DEFAULTS, **p})  # exactly ns-3's parameters
    # full: 10 configurations (FIFO-60/120/180, RED-A/B/C at 480 and 240, RED-A-180) x 3 loads x 2 latency sets
    # x 10 replications
    assert len(emulated.points(PAPER, "full", BROWSERS)) == 600
    assert emulated.points(PAPER, "off", BROWSERS) == []
    size = emulated.plan_hours(PAPER, "reduced", BROWSERS, links=2)
    # 80 runs and the calibration's 12, each (20 + 1.5) s: 1720 s + 258 s = 1978 s = 0.549 h; two at a time 16.5 min
    assert size["machine_hours"] == pytest.approx(1978 / 3600) and size["wall_minutes"] == pytest.approx(1978 / 120)
    # the workload seeds follow the ns-3 sweeps' base seed, as ns-3's experiment points do
    key = lambda p: (p["config"], p["load"], p["latency"], p["rep"], p["workload_seed"])  # noqa: E731
    seeded = {key(p) for p in emulated.points(PAPER, "reduced", BROWSERS, base_seed=5)}
    assert seeded == {key(p) for p in testbed.experiment_points(PAPER, emulated.real_profile(prof, "reduced"), BROWSERS,
                                                                base_seed=5)
                      if (p["config"], p["load"], p["latency"]) in set(emulated.REDUCED_CELLS)}
    assert not seeded & {key(p) for p in pts}  # another base seed, other workloads


def _fake_runs(red_long_p90_s=0.5, kept=True) -> pd.DataFrame:
    """One fake run per reduced point: every response of a run takes one value, the queue one level."""
    rows = []
    rng = np.random.default_rng(1)
    for p in emulated.points(PAPER, "reduced", BROWSERS):
        base = {"FIFO-60": 0.3, "FIFO-120": 0.4, "FIFO-180": 0.5, "RED-A-240": 0.4, "RED-B-240": 0.42,
                "RED-C-240": 0.6, "RED-A-180": red_long_p90_s}[p["config"]]
        base *= 2.0 if (p["latency"] == "long" and p["config"] == "FIFO-180") else 1.0
        value = base * (1 + 0.01 * rng.standard_normal())
        rows.append({**p, "seed": 1, "response_s": [value] * 20, "queue_samples": [160] * 10,
                     "queue_sample_times_s": [float(t) for t in range(10)], "drops": 1, "arrivals": 100,
                     "early_drops": 0, "throughput_bps": 9e6, "unfinished": 0, "failed": 0, "requests": 20,
                     "fidelity": _record(10_000, 0.1), "fidelity_kept": kept, "fidelity_tries": 1 if kept else 3,
                     "rtt_s": 0.05})
    return pd.DataFrame(rows)


def test_real_stack_rows_judge_the_grids_claims_and_say_the_rest_did_not_run():
    runs = _fake_runs()
    rows = emulated.real_stack_rows(PAPER, Emulated("reduced", emulated.points(PAPER, "reduced", BROWSERS), runs))
    assert len(rows) == len(PAPER.claims.cells) and all(r.column == REAL_STACKS for r in rows)
    by = {r.claim_id: r for r in rows}
    # RED-A-180 long 0.5 s against FIFO-180 long 1.0 s: RED's p90 is 50% below, beyond the 10% tolerance
    assert by["red_better_long_latency"].status == "supported" and by["red_better_long_latency"].evidence == \
        "real stacks"
    # its two cells' runs, 10 each, all kept
    assert by["red_better_long_latency"].n == "10" and "20 of 20 runs kept their timing" in \
        by["red_better_long_latency"].reason
    # 0.3 < 0.4 < 0.5 s at short latency: judged on short only, and the row says so
    assert by["fifo_98_longer_larger_queue"].status == "supported"
    assert "short latency only" in by["fifo_98_longer_larger_queue"].reason
    # RED-C-240 0.6 s vs RED-A-240 0.4 s: differ by 50% > 10%
    assert by["fig8_ab_response_differ"].status == "supported"
    # 80% load did not run in the reduced grid
    assert by["fifo_queue_size_same"].emulation == "not run" and by["fifo_queue_size_same"].status == "untestable"


def test_a_run_lost_in_a_cell_a_claim_does_not_read_costs_that_claim_no_replication():
    runs = _fake_runs()
    pts = emulated.points(PAPER, "reduced", BROWSERS)
    # replication 3 of one cell the RED-vs-FIFO long-latency claim does not read (FIFO-60, short) lost its timing
    gone = (runs["config"] == "FIFO-60") & (runs["latency"] == "short") & (runs["rep"] == 3)
    em = Emulated("reduced", pts, runs[~gone], lost=runs[gone].assign(fidelity_kept=False))
    assert emulated.paired_reps(em)["rep"].nunique() == 9  # the whole grid's pairing drops replication 3
    reading = claims.CLAIMS.functions["red_better_long_latency"].reading
    cells = emulated.claim_cells(emulated.grid_probe(em, PAPER), reading)
    assert cells == {("FIFO-180", 0.98, "long"), ("RED-A-180", 0.98, "long")}
    assert emulated.paired_reps(em, cells)["rep"].nunique() == 10
    by = {r.claim_id: r for r in emulated.real_stack_rows(PAPER, em)}
    # decided on all 10 replications (the decision rule needs 10), as with no run lost
    assert by["red_better_long_latency"].status == "supported" and by["red_better_long_latency"].n == "10"
    # the claim reading FIFO-60 at short latency keeps 9: fewer than the rule's 10 because a run lost its timing, so
    # not decided, and its status says why (the machine's timing, not the claim): fidelity_lost, its interval kept
    queue = by["fifo_98_longer_larger_queue"]
    assert queue.n == "9" and queue.status == "fidelity_lost" and queue.emulation == "fidelity lost"
    assert "margin over 9 replications" in queue.reason and "fewer than 10 replications" in queue.reason


def test_replications_with_a_lost_run_are_replaced_by_new_ones_up_to_the_cap():
    pts = emulated.points(PAPER, "reduced", BROWSERS)
    runs = _fake_runs()
    assert emulated.replacement_points(PAPER, "reduced", BROWSERS, None, runs) == []  # nothing lost, nothing added
    lost_in = lambda reps: runs.assign(fidelity_kept=~runs["rep"].isin(reps) | (runs["config"] != "FIFO-60"))  # noqa: E731
    one = emulated.replacement_points(PAPER, "reduced", BROWSERS, None, lost_in({3}))
    # one replication lost a run: one new replication (rep 10) over the plan's 8 cells, with its own workload seeds
    assert len(one) == len(emulated.REDUCED_CELLS) and {p["rep"] for p in one} == {emulated.REDUCED_REPS}
    assert {(p["config"], p["load"], p["latency"]) for p in one} == set(emulated.REDUCED_CELLS)
    assert not {p["workload_seed"] for p in one} & {p["workload_seed"] for p in pts}
    # the same point as a plan of 11 replications would hold (so the cache and the seeds agree with such a plan)
    eleven = [p for p in emulated.points(PAPER, "reduced", BROWSERS, reps=11) if p["rep"] == 10]
    assert one == eleven
    # five replications lost runs: the cap
    many = emulated.replacement_points(PAPER, "reduced", BROWSERS, None, lost_in({0, 1, 2, 3, 4}))
    assert {p["rep"] for p in many} == set(range(10, 10 + emulated.MAX_REPLACEMENTS))


def test_run_adds_the_replacements_and_judges_on_them(monkeypatch, tmp_path):
    calls = []

    def fake_run(points, **kw):  # FIFO-60 short of replication 3 loses its timing; every other run keeps it
        calls.append(len(points))
        frame = pd.DataFrame([r for r in _fake_runs().to_dict("records")] + [
            {**r, "rep": r["rep"] + 10} for r in _fake_runs().to_dict("records") if r["rep"] == 0])
        frame = frame.merge(pd.DataFrame(points)[["config", "load", "latency", "rep"]])
        gone = (frame["config"] == "FIFO-60") & (frame["latency"] == "short") & (frame["rep"] == 3)
        return frame.assign(fidelity_kept=~gone)

    monkeypatch.setattr(emulated.experiments, "run", fake_run)
    monkeypatch.setattr(emulated.web_testbed_real, "unavailable_reason", lambda: None)
    monkeypatch.setattr("paperlib.emulation.notebook.not_run_reason", lambda profile: None)
    monkeypatch.setattr(emulated, "calibration_run", lambda *a, **k: Emulated("reduced"))  # its own tests
    em = emulated.run(PAPER, "reduced", tmp_path, browsers=BROWSERS)
    assert calls == [80, 88]  # the plan, then the plan (from the cache) and one new replication of its 8 cells
    assert len(em.lost) == 1 and len(em.runs) == 87
    by = {r.claim_id: r for r in emulated.real_stack_rows(PAPER, em)}
    # the queue-size claim reads FIFO-60 short: replication 3 out, replication 10 in: still 10, decided
    assert by["fifo_98_longer_larger_queue"].n == "10" and by["fifo_98_longer_larger_queue"].status == "supported"
    # a claim whose cells lost nothing has all 11
    assert by["red_better_long_latency"].n == "11"


def test_real_stack_rows_of_lost_runs_and_of_no_run():
    pts = emulated.points(PAPER, "reduced", BROWSERS)
    lost = _fake_runs(kept=False)
    rows = emulated.real_stack_rows(PAPER, Emulated("reduced", pts, lost.iloc[0:0], lost=lost))
    by = {r.claim_id: r for r in rows}
    assert by["red_better_long_latency"].status == "fidelity_lost"
    assert by["red_better_long_latency"].emulation == "fidelity lost"
    # judged on short latency only in the reduced grid: its lost runs count too
    assert by["fifo_98_longer_larger_queue"].status == "fidelity_lost"
    off = emulated.real_stack_rows(PAPER, Emulated("off", not_run="the real-stack column was not run, by choice "
                                                                  "(EMULATION=off)"))
    assert {r.emulation for r in off} == {"not run by choice"} and {r.status for r in off} == {"untestable"}


def test_ledger_rows_put_the_real_stack_rows_after_ns3s():
    rows = ledger_rows.ledger_rows(PAPER, real_stacks=Emulated("off", not_run="the real-stack column was not run, "
                                                                              "by choice (EMULATION=off)"))
    # Table 3 (4), calibration (2), text (8), claims (35) on ns-3, then the real stacks' calibration line (2) and
    # 35 claims
    assert len(rows) == 4 + 2 + 8 + 35 + 2 + 35
    assert [r.column for r in rows[-37:]] == [REAL_STACKS] * 37


def test_the_headline_cell_beside_ns3_and_what_ran():
    runs = _fake_runs()
    em = Emulated("reduced", emulated.points(PAPER, "reduced", BROWSERS), runs)
    table = emulated.beside_ns3(em, runs)  # the same runs stand for the ns-3 sweep
    assert table["testbed"].tolist() == ["real stacks", "ns-3"] and table["runs"].tolist() == [10, 10]
    # RED-A-180, long latency: every response 0.5 s x (1 + 1% noise) -> a mean within 5% of 500 ms on both
    assert table["mean_ms"].to_numpy() == pytest.approx([500.0, 500.0], rel=0.05)
    assert emulated.summary_sentence(em) == ("real stacks, profile reduced: 80 runs, 80 kept their timing, 0 lost it "
                                             "(docs/fidelity.md); 10 replications paired")
    assert emulated.beside_ns3(Emulated("off", not_run="by choice"), runs)["testbed"].tolist() == ["ns-3"]


def test_the_emulation_turn_holds_the_lock_at_normal_priority_and_gives_both_back():
    import fcntl
    import os

    from paperlib import run_progress

    before = (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0))
    name = "test_p001_emulation_turn"
    with emulated.emulation_turn(name):
        # root may raise its priority (make reproduce runs the notebook at SCHED_IDLE, nice 10)
        if os.geteuid() == 0:
            assert (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)) == (os.SCHED_OTHER, 0)
        with open(run_progress.LOCKS_DIR / f"{name}.lock", "w") as other, pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: another taker would wait
    assert (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)) == before
    with open(run_progress.LOCKS_DIR / f"{name}.lock", "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released
    with emulated.emulation_turn(None):  # an interactive run: neither
        assert (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may raise a group's weight back")
def test_the_emulation_turn_gives_an_idle_kernels_group_the_normal_weight_and_takes_it_back(tmp_path):
    """A kernel of an idle run leads a session whose group has the lowest weight (run_progress.lowest_group_when_idle);
    for the turn the group weighs as a normal one, as the threads run at normal priority, and both are lowered again
    after it."""
    import subprocess
    import sys

    from paperlib import run_progress

    if run_progress.group_nice() is None:
        pytest.skip("no scheduler autogroups here (/proc/self/autogroup)")
    # the imports at normal priority, then idle as make reproduce runs a kernel (importing at SCHED_IDLE, the child
    # starved beside a busy worker)
    script = ("import os; from paperlib import run_progress as r; from paperlib.reproduce.p001 import emulated\n"
              "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\n"
              "r.lowest_group_when_idle(); print(r.group_nice(), os.sched_getscheduler(0))\n"
              "with emulated.emulation_turn('test_p001_group_turn'):\n"
              "    print(r.group_nice(), os.sched_getscheduler(0))\n"
              "print(r.group_nice(), os.sched_getscheduler(0))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         start_new_session=True)
    low, idle = run_progress.LOWEST_NICE, os.SCHED_IDLE
    assert out.stdout.split("\n")[:3] == [f"{low} {idle}", f"0 {os.SCHED_OTHER}", f"{low} {idle}"]


@pytest.mark.skipif(os.geteuid() != 0, reason="cgroups are root's")
def test_the_emulation_turn_leaves_the_idle_cgroup_for_the_turn_and_returns_to_it():
    """In an idle cgroup (make reproduce's idle runs, run_progress.make_idle_cgroup) the turn moves the kernel to the
    controller's root, so the testbed's processes start there, and back into the idle cgroup after it."""
    import subprocess
    import sys

    from paperlib import run_progress

    folder = run_progress.make_idle_cgroup()
    if folder is None:
        pytest.skip("no idle cpu cgroup here")
    # the imports at normal weight, then into the idle cgroup (importing in it, the child starved beside a busy
    # worker for a minute)
    script = ("import sys; from pathlib import Path\n"
              "from paperlib import run_progress as r; from paperlib.reproduce.p001 import emulated\n"
              "r.join_cgroup(Path(sys.argv[1]))\n"
              "print(r.idle_cgroup_of_self())\n"
              "with emulated.emulation_turn('test_p001_cgroup_turn'):\n"
              "    print(r.idle_cgroup_of_self())\n"
              "print(r.idle_cgroup_of_self())\n")
    try:
        out = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True, check=True)
    finally:
        run_progress.remove_cgroup(folder)
    assert out.stdout.split("\n")[:3] == [str(folder), "None", str(folder)]
    assert not folder.exists()


def _runs_of(points, red_long_p90_s=0.5, noise=0.01) -> pd.DataFrame:
    """A fake run for each of ``points`` (as :func:`_fake_runs`'s), its noise drawn from its cell and replication."""
    base = {"FIFO-60": 0.3, "FIFO-120": 0.4, "FIFO-180": 0.5, "RED-A-240": 0.4, "RED-B-240": 0.42, "RED-C-240": 0.6,
            "RED-A-180": red_long_p90_s}
    rows = []
    for p in points:
        value = base[p["config"]] * (2.0 if (p["latency"] == "long" and p["config"] == "FIFO-180") else 1.0)
        rng = np.random.default_rng([p["rep"], sorted(base).index(p["config"]), p["latency"] == "long"])
        value *= 1 + noise * rng.standard_normal()
        rows.append({**p, "seed": 1, "response_s": [value] * 20, "queue_samples": [160] * 10,
                     "queue_sample_times_s": [float(t) for t in range(10)], "drops": 1, "arrivals": 100,
                     "early_drops": 0, "throughput_bps": 9e6, "unfinished": 0, "failed": 0, "requests": 20,
                     "fidelity": _record(10_000, 0.1), "fidelity_kept": True, "fidelity_tries": 1, "rtt_s": 0.05})
    return pd.DataFrame(rows)


def _judged(mean, low, high, n=10, cells=(("FIFO-180", 0.98, "long"),)):
    decision = emulated.Decision("supported", mean, low, high, n, float(n))
    found = emulated.Reading(True, None, "", mean)
    return emulated.Judged(found, decision, frozenset(cells), "", "")


def test_the_second_stage_takes_the_cells_of_claims_whose_interval_is_not_clear_of_zero():
    long_ = (("FIFO-180", 0.98, "long"), ("RED-A-180", 0.98, "long"))
    short = (("RED-A-240", 0.98, "short"), ("RED-C-240", 0.98, "short"))
    # 0.043 from 0 with half-width 0.037 (decided, but 1.2 half-widths): its cells run to 20; a claim 0.12 from 0
    # with half-width 0.04 (3 half-widths) is clear; one already at 20 replications is done
    judged = {"edge": _judged(-0.043, -0.080, -0.006, cells=long_), "clear": _judged(0.12, 0.08, 0.16, cells=short),
              "done": _judged(0.0, -0.1, 0.1, n=20, cells=(("FIFO-60", 0.98, "short"),)), "not run": None}
    assert emulated.stage_two_cells(judged) == (frozenset(long_), 10)
    # an interval straddling 0 is not clear either; a claim left with 7 replications asks the most (13), capped at 10
    judged["clear"] = _judged(0.0, -0.05, 0.05, n=7, cells=short)
    assert emulated.stage_two_cells(judged) == (frozenset(long_ + short), 10)
    judged["clear"] = _judged(0.0, -0.05, 0.05, n=15, cells=short)
    assert emulated.stage_two_cells(judged) == (frozenset(long_ + short), 10)
    assert emulated.stage_two_cells({"clear": _judged(0.12, 0.08, 0.16)}) == (frozenset(), 0)


def test_the_second_stage_runs_new_replications_of_the_claims_cells_and_judges_them_on_all():
    pts = emulated.points(PAPER, "reduced", BROWSERS)
    # RED-A-180 long at 0.9 s against FIFO-180 long at 1.0 s: the spread 11% is a hair beyond the 10% tolerance and
    # RED's p90 a hair below FIFO's by more than 10% (margin 1.0 / (0.9 x 1.1) - 1 = 0.01), each with 1% noise per run:
    # intervals less than two half-widths from 0
    first = _runs_of(pts, red_long_p90_s=0.9)
    em = Emulated("reduced", pts, first)
    judged = emulated.judge_claims(PAPER, em)
    assert not decide.clear_of(judged["fifo_red_98_long_differ"].decision.mean,
                               judged["fifo_red_98_long_differ"].decision.low,
                               judged["fifo_red_98_long_differ"].decision.high)
    second = emulated.stage_two_points(PAPER, "reduced", BROWSERS, None, em)
    long_ = {("FIFO-180", 0.98, "long"), ("RED-A-180", 0.98, "long")}
    # replications 10-19 of exactly the two long-latency cells, each the point a 20-replication plan holds there
    assert {(p["config"], p["load"], p["latency"]) for p in second} == long_
    assert sorted({p["rep"] for p in second}) == list(range(10, 20))
    assert second == [p for p in emulated.points(PAPER, "reduced", BROWSERS, reps=20)
                      if p["rep"] >= 10 and (p["config"], p["load"], p["latency"]) in long_]
    both = Emulated("reduced", pts + second, pd.concat([first, _runs_of(second, red_long_p90_s=0.9)],
                                                        ignore_index=True))
    both.stage_two = frozenset(long_)
    by = {r.claim_id: r for r in emulated.real_stack_rows(PAPER, both)}
    # the long-latency claims rest on 20 replications and say why; the short-latency ones keep their 10
    assert by["fifo_red_98_long_differ"].n == "20" and by["red_better_long_latency"].n == "20"
    assert "its cells ran the second stage to 20 replications" in by["red_better_long_latency"].reason
    assert by["fig8_ab_response_differ"].n == "10" and "second stage" not in by["fig8_ab_response_differ"].reason
    # the whole grid pairs only the replications every cell ran
    assert emulated.paired_reps(both)["rep"].nunique() == 10


def test_run_runs_the_second_stage_after_the_first(monkeypatch, tmp_path):
    calls = []

    def fake_run(points, **kw):
        calls.append(len(points))
        return _runs_of(points, red_long_p90_s=0.9)

    monkeypatch.setattr(emulated.experiments, "run", fake_run)
    monkeypatch.setattr(emulated.web_testbed_real, "unavailable_reason", lambda: None)
    monkeypatch.setattr("paperlib.emulation.notebook.not_run_reason", lambda profile: None)
    monkeypatch.setattr(emulated, "calibration_run", lambda *a, **k: Emulated("reduced"))  # its own tests
    em = emulated.run(PAPER, "reduced", tmp_path, browsers=BROWSERS)
    # the plan's 80, then the plan (from the cache) and 10 replications of the two long-latency cells
    assert calls == [80, 100] and len(em.runs) == 100
    assert em.stage_two == {("FIFO-180", 0.98, "long"), ("RED-A-180", 0.98, "long")}
    # clear claims (every interval of the default fake's large effects) add nothing
    calls.clear()
    monkeypatch.setattr(emulated.experiments, "run", lambda points, **kw: calls.append(len(points)) or _runs_of(points))
    assert emulated.run(PAPER, "reduced", tmp_path, browsers=BROWSERS).stage_two == frozenset() and calls == [80]
