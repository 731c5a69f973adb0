"""Paper 001 on real stacks: the ns-3 testbed's plan re-run on Linux TCP (:mod:`paperlib.emulation.web_testbed_real`).

The points are :func:`paperlib.reproduce.p001.testbed.experiment_points`' (the same parameters as ns-3's, Table 1's
queues, Table 2's pairs, the browser counts of the regenerated calibration line that the ns-3 part computes), and
replication ``r`` at a load and latency set has the same workload seed as ns-3's replication ``r`` there
(:func:`paperlib.reproduce.p001.testbed.crn_seed`): common random numbers across queues and across the two
testbeds. They run through the one sweep runner of the real-stack experiments
(:func:`paperlib.emulation.experiments.run`: cached by parameters and code version, seeded per point, with
progress), :data:`LINKS` testbeds at a time, each run kept or re-run by the testbed's fidelity rule
(:func:`paperlib.emulation.web_testbed_real.run_point`).

Profiles.

* ``reduced`` (the default): the cells that decide the paper's headline claims, :data:`REDUCED_CELLS`: FIFO-180
  against RED-A-180 at 98 % load with long latency (Fig. 9, "RED is better with long latency"), FIFO-60/120/180
  at 98 % with short latency (the queue-size effect, Figs. 3-5), RED-A/B/C with the 240-packet queue at 98 % with
  short latency (Fig. 8-A/B). :data:`REDUCED_REPS` replications (the decision rule's fewest,
  :data:`paperlib.reproduce.p001.decision_rule.MIN_REPS`) of :data:`REDUCED_SIM_TIME_S` s, the first
  :data:`REDUCED_WARMUP_S` s not measured: 8 cells x 10 = 80 runs of about 21 s, one at a time (:data:`LINKS`),
  about 29 minutes.
  The run is half the ns-3 profile's 40 s and its warm-up half its 10 s: every browser starts in its stationary
  state, so the warm-up covers only TCP's start and the queue filling, which at 98 % load takes a few seconds
  (ns-3's warm-up profile of the same points shows it); 15 measured seconds at 98 % hold about 1500 responses
  per run.
* ``full``: every queue configuration x load x latency set x the ns-3 profile's replications, with its run length
  (:func:`plan_hours` gives the machine-hours; ``make bench`` prints them).
* ``off``: nothing runs (the rows say so).

A claim is judged on the real stacks with the package's decision rule (:mod:`paperlib.reproduce.p001.decision_rule`:
a margin per replication, its 95 % t-interval, paired by the common random numbers) when every cell it reads ran;
a replication counts when every run at it in the cells the claim reads kept its timing (the margins compare
configurations replication by replication), and a run that lost its timing is replaced by a fresh one, at most
:data:`MAX_REPLACEMENTS`. The queue-size claim at 98 % reads short and long latency; the reduced grid runs only
short, and judges it there (:func:`fifo_98_queue_short`, said in the row). Its rows sit beside the ns-3 ones in
column :data:`paperlib.ledger.REAL_STACKS` (:func:`real_stack_rows`).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from paperlib import decide as shared_decide
from paperlib.atomic import atomic_write_csv
from paperlib.data import Paper
from paperlib.emulation import experiments, web_testbed_real
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated, cell_fidelity, split_kept
from paperlib.ledger import REAL_STACKS, Row, claim_row, measured_row
from paperlib.reproduce.p001 import calibration, claims, decision_rule, figure_cells, figures, findings, testbed
from paperlib.reproduce.p001.decision_rule import Decision, Reading, decide, increasing
from paperlib.reproduce.p001.testbed import Profile
from paperlib.sweep import point_seed

PAPER = "001"
#: The reduced profile's cells (configuration, load, latency set): the headline claims' (module docstring).
REDUCED_CELLS = (("FIFO-180", 0.98, "long"), ("RED-A-180", 0.98, "long"),
                 ("FIFO-60", 0.98, "short"), ("FIFO-120", 0.98, "short"), ("FIFO-180", 0.98, "short"),
                 ("RED-A-240", 0.98, "short"), ("RED-B-240", 0.98, "short"), ("RED-C-240", 0.98, "short"))
REDUCED_REPS = decision_rule.MIN_REPS
REDUCED_SIM_TIME_S = 20.0
REDUCED_WARMUP_S = 5.0
#: Testbeds at once. One: at 98 % load (about 108,000 browsers on the scaled profile's 10 Mbit/s) one testbed's
#: browsers, responders and emulator need about a core, so two testbeds on a 2-core machine make the applications
#: wait for a CPU 7-8 % of the measured window, beyond the fidelity rule's 5 %, and few runs keep their timing; one
#: testbed alone waits about 1-2 % (``make bench`` and the runs' fidelity records measure it). The plan's wall time
#: doubles rather than the testbed differing from ns-3's (a lower rate with fewer browsers would halve the CPU but
#: change every response time).
LINKS = 1
#: Wall time of a run beyond its ``sim_time_s`` (namespaces, emulator, programs' start and exit), for the plan's
#: cost; ``make bench`` measures a short run's.
SETUP_S = 1.5
#: The most replications added to replace replications with a run that lost its timing on every try (a sequential
#: rule fixed before any run: it reads which runs lost their timing, never a result; :func:`replacement_points`).
MAX_REPLACEMENTS = 2
#: The second stage of the plan (a sequential rule fixed before any run, the same for every claim): a claim whose 95%
#: interval after the first stage is not clear of 0 (:func:`paperlib.decide.clear_of`: its mean less than two
#: half-widths from 0) has its cells run to this many replications, and its verdict rests on all of them
#: (:func:`stage_two_points`). A verdict that close to its threshold is the one a rerun turns over.
STAGE_TWO_REPS = 2 * decision_rule.MIN_REPS


def real_profile(prof: Profile, profile: str) -> Profile:
    """Return the ns-3 profile ``prof`` with the real-stack ``profile``'s replications and run length."""
    experiments.check_profile(profile)
    if profile == "reduced":
        return replace(prof, reps=REDUCED_REPS, sim_time_s=REDUCED_SIM_TIME_S, warmup_s=REDUCED_WARMUP_S)
    return prof


def points(paper: Paper, profile: str, browsers: dict[float, int], prof: Profile | None = None,
           reps: int | None = None, base_seed: int = 0) -> list[dict]:
    """Return the real-stack sweep points of ``profile`` ("reduced", "full" or "off": none) on the ns-3 profile
    ``prof`` (default: scaled) with the calibration's ``browsers`` per load; ``reps`` replications (default the
    profile's); ``base_seed`` the ns-3 sweeps' base seed, so replication ``r`` has the ns-3 run's workload seed
    (:func:`paperlib.reproduce.p001.testbed.crn_seed`)."""
    experiments.check_profile(profile)
    if profile == "off":
        return []
    run = real_profile(prof or testbed.PROFILES["scaled"], profile)
    if profile == "full":
        return testbed.experiment_points(paper, run, browsers, reps=reps, base_seed=base_seed)
    cells = set(REDUCED_CELLS)
    configs = list(dict.fromkeys(c for c, _, _ in REDUCED_CELLS))
    return [p for p in testbed.experiment_points(paper, run, browsers, configs=configs, reps=reps,
                                                 base_seed=base_seed)
            if (p["config"], p["load"], p["latency"]) in cells]


def replacement_points(paper: Paper, profile: str, browsers: dict[float, int], prof: Profile | None,
                       runs: pd.DataFrame, base_seed: int = 0) -> list[dict]:
    """Return the points of the replications that replace those with a run that lost its timing on every try
    (``runs``' ``fidelity_kept`` false): as many new replications as such replications, at most
    :data:`MAX_REPLACEMENTS`, each over every cell of the plan (its workload seeds new, as any replication's), so
    a claim still finds the decision rule's replications whose runs in its cells all kept their timing."""
    if not len(runs) or "fidelity_kept" not in runs.columns:
        return []
    planned = int(runs["rep"].max()) + 1
    lost = runs.loc[~runs["fidelity_kept"].astype(bool), "rep"].nunique()
    extra = min(int(lost), MAX_REPLACEMENTS)
    if not extra:
        return []
    return [p for p in points(paper, profile, browsers, prof, reps=planned + extra, base_seed=base_seed)
            if p["rep"] >= planned]


def plan_hours(paper: Paper, profile: str, browsers: dict[float, int], prof: Profile | None = None,
               links: int = LINKS) -> dict:
    """Return the plan's size: ``runs`` (the experiments' and the calibration's, :func:`calibration_points`),
    ``calibration_runs``, ``machine_hours`` (one testbed per machine: the runs' wall time) and ``wall_minutes`` at
    ``links`` testbeds at once, each run ``sim_time_s`` + :data:`SETUP_S`."""
    cal = calibration_points(paper, profile, prof)
    pts = points(paper, profile, browsers, prof) + cal
    seconds = sum(float(p["sim_time_s"]) + SETUP_S for p in pts)
    return {"profile": profile, "runs": len(pts), "calibration_runs": len(cal), "machine_hours": seconds / 3600,
            "wall_minutes": seconds / max(int(links), 1) / 60}


def with_rtt(runs: pd.DataFrame) -> pd.DataFrame:
    """Return ``runs`` with ``rtt_s``, each run's mean base round trip (the fidelity rule's round trip)."""
    out = runs.copy()
    out["rtt_s"] = [web_testbed_real.mean_base_rtt_s({**web_testbed_real.web_testbed.DEFAULTS, **r})
                    for r in runs.to_dict("records")] if len(runs) else []
    return out


#: The per-run figures ``emulation_runs.csv`` holds (the response times stay in the sweep cache).
RUN_TABLE_COLUMNS = ["config", "load", "latency", "rep", "browsers", "seed", "workload_seed", "sim_time_s",
                     "warmup_s", "requests", "unfinished", "failed", "throughput_bps", "queue_max_packets", "drops",
                     "arrivals", "early_drops", "forced_drops", "mean_ms", "p90_ms", "mean_queue", "fidelity_kept",
                     "fidelity_tries", "lateness_p99_s", "app_wait_transfer_s", "issue_lateness_p99_s",
                     "generator_cpu_s"]


def run_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run with :data:`RUN_TABLE_COLUMNS` (response times as their mean and 90th percentile in
    ms, the mean reply queue after the warm-up, the fidelity figures)."""
    rows = []
    for r in runs.to_dict("records"):
        rt = np.asarray(r.get("response_s") or [], dtype=float) * 1e3
        q, t = np.asarray(r["queue_samples"], dtype=float), np.asarray(r["queue_sample_times_s"], dtype=float)
        fid, gen = r.get("fidelity") or {}, r.get("generator") or {}
        rows.append({**{k: r.get(k) for k in RUN_TABLE_COLUMNS[:18]},
                     "mean_ms": float(rt.mean()) if rt.size else np.nan,
                     "p90_ms": float(np.percentile(rt, 90)) if rt.size else np.nan,
                     "mean_queue": float(q[t >= r["warmup_s"]].mean()) if (t >= r["warmup_s"]).any() else np.nan,
                     "fidelity_kept": r.get("fidelity_kept"), "fidelity_tries": r.get("fidelity_tries"),
                     "lateness_p99_s": fid.get("worst_lateness_p99_s"),
                     "app_wait_transfer_s": fid.get("app_wait_transfer_s"),
                     "issue_lateness_p99_s": gen.get("issue_lateness_p99_s"), "generator_cpu_s": gen.get("cpu_s")})
    return pd.DataFrame(rows, columns=RUN_TABLE_COLUMNS)


@contextlib.contextmanager
def emulation_turn(lock: str | None):
    """Hold the lock ``lock`` of :mod:`paperlib.run_progress` (the one ``make reproduce`` gives a notebook that
    emulates for its whole run) and run at normal CPU priority while the block runs; then return to the process's
    own priority. ``lock`` None: neither (an interactive run).

    Paper 001's notebook runs its ns-3 sweeps at the lowest priority (``SCHED_IDLE``, nice 10 under ``make``), so
    that a paper emulating in real time beside it keeps its timing; its own real-stack sweep is such a paper's
    turn: one testbed user at a time, and the testbeds' processes (started inside the block) at normal priority.
    The kernel's scheduler group, which an idle run gives the lowest weight
    (:func:`paperlib.run_progress.lowest_group_when_idle`), gets the normal weight back for the turn (root may raise
    it), and the kernel leaves the run's idle cgroup for it (:func:`paperlib.run_progress.make_idle_cgroup`), so the
    runs' own bookkeeping in the kernel (the CPU watch, the sweep) is not starved and the testbed's processes start
    outside the idle group.
    """
    if lock is None:
        yield
        return
    from paperlib import run_progress

    # every thread of the process (Linux schedules threads: a sweep's workers may be started from an event-loop
    # thread the notebook's ns-3 sweeps created earlier)
    before = {}
    for tid in _threads():
        with contextlib.suppress(OSError):
            before[tid] = (os.sched_getscheduler(tid), os.sched_getparam(tid), os.getpriority(os.PRIO_PROCESS, tid))
    group = run_progress.group_nice()
    cgroup = run_progress.idle_cgroup_of_self()
    with run_progress.exclusive(lock):
        try:
            for tid in before:
                with contextlib.suppress(OSError):
                    os.sched_setscheduler(tid, os.SCHED_OTHER, os.sched_param(0))
                    os.setpriority(os.PRIO_PROCESS, tid, 0)
            if group:
                run_progress.set_group_nice(0)
            if cgroup is not None:  # out of the idle cgroup (the controller's root), so the testbed's processes are too
                run_progress.join_cgroup(cgroup.parent)
            yield
        finally:
            if cgroup is not None:
                with contextlib.suppress(OSError):
                    run_progress.join_cgroup(cgroup)
            if group:
                run_progress.set_group_nice(group)
            for tid, (policy, param, nice) in before.items():
                with contextlib.suppress(OSError):
                    os.setpriority(os.PRIO_PROCESS, tid, nice)
                    os.sched_setscheduler(tid, policy, param)


def _threads() -> list[int]:
    """Return the thread ids of this process."""
    return [int(t) for t in os.listdir(f"/proc/{os.getpid()}/task") if t.isdigit()]


def not_run(profile: str) -> str | None:
    """Return why no real-stack run of ``profile`` happens (the user's "off", or what this machine lacks:
    :func:`paperlib.emulation.notebook.not_run_reason`, :func:`paperlib.emulation.web_testbed_real.unavailable_reason`),
    or None when they can run."""
    from paperlib.emulation.notebook import not_run_reason

    reason = not_run_reason(experiments.check_profile(profile))
    if reason is None and web_testbed_real.unavailable_reason():
        reason = f"{emulated_rows.NOT_RUN_CANNOT}: {web_testbed_real.unavailable_reason()}"
    return reason


def sweep(points_: list[dict], desc: str, scheduler_links: int | None = None) -> pd.DataFrame:
    """Return the runs of ``points_`` through :func:`paperlib.emulation.experiments.run` (cached by parameters and
    the code version of the testbed, its modules and C sources; seeded; progress under ``desc``), each kept or re-run
    by :func:`paperlib.emulation.web_testbed_real.run_point`, ``scheduler_links`` testbeds at a time (default
    :data:`LINKS`)."""
    sources = [web_testbed_real.build.HERE / "linkemu.c"]
    if web_testbed_real.web_load is not None and hasattr(web_testbed_real.web_load, "SOURCE"):
        sources.append(Path(web_testbed_real.web_load.SOURCE))
    return experiments.run(points_, n_links=scheduler_links or LINKS, desc=desc, point_fn=web_testbed_real.run_point,
                           depends=(web_testbed_real, *web_testbed_real.SWEEP_DEPENDS), sources=tuple(sources))


@dataclass
class RealStacks(Emulated):
    """The real-stack runs of paper 001: the experiments' (:class:`~paperlib.emulation.notebook.Emulated`'s fields)
    and ``calibration``, the calibration testbed's runs (:func:`calibration_run`; None: not part of this record)."""

    calibration: Emulated | None = None
    stage_two: frozenset = frozenset()  # the cells that ran the second stage (:func:`stage_two_points`)


def calibration_of(real_stacks: Emulated) -> Emulated | None:
    """Return the calibration runs of ``real_stacks``: its ``calibration`` (a :class:`RealStacks`), or, for a plain
    record that says why nothing ran, that reason; None when it holds no calibration."""
    cal = getattr(real_stacks, "calibration", None)
    if cal is None and real_stacks.not_run:
        return Emulated(real_stacks.profile, not_run=real_stacks.not_run)
    return cal


def run(paper: Paper, profile: str, out: Path, *, browsers: dict[float, int], prof: Profile | None = None,
        base_seed: int = 0, latency_reading: str = testbed.LATENCY_READING, scheduler_links: int | None = None,
        lock: str | None = None) -> RealStacks:
    """Run the real-stack plan of ``profile`` and its calibration (:func:`calibration_run`) through :func:`sweep`
    (or say why not), write ``emulation_runs.csv`` (:func:`run_table`) into ``out``, and return the runs split by
    their fidelity with the calibration's. ``browsers`` (load -> browsers, the calibration line's), ``prof`` and
    ``base_seed`` (the ns-3 sweeps') as for :func:`points`; ``latency_reading`` the calibration's (Table 2's reading,
    as the ns-3 calibration's); ``scheduler_links`` testbeds at a time (default :data:`LINKS`). Replications with a
    run that lost its timing on every try are replaced by new ones (:func:`replacement_points`, at most
    :data:`MAX_REPLACEMENTS`); then the claims whose interval is not clear of 0 run their second stage
    (:func:`stage_two_points`, :data:`STAGE_TWO_REPS`).

    Nothing runs with ``profile`` "off" or when the machine cannot (:func:`not_run`, checked before any point).
    ``lock``: the lock held around both sweeps (:func:`emulation_turn`).
    """
    reason = not_run(profile)
    if reason:
        return RealStacks(profile, not_run=reason, calibration=Emulated(profile, not_run=reason))
    pts = points(paper, profile, browsers, prof, base_seed=base_seed)
    links = scheduler_links
    with emulation_turn(lock):
        runs = sweep(pts, f"{PAPER} real stacks ({profile})", links)
        extra = replacement_points(paper, profile, browsers, prof, runs, base_seed=base_seed)
        if extra:  # the plan's runs again from the cache, and the replacements
            pts = pts + extra
            runs = sweep(pts, f"{PAPER} real stacks ({profile}, replacing replications that lost their timing)", links)
        kept, lost = split_kept(runs)
        second = stage_two_points(paper, profile, browsers, prof, RealStacks(profile, pts, kept, lost=lost),
                                  base_seed=base_seed)
        if second:  # the first stage's runs again from the cache, and the second stage's
            pts = pts + second
            runs = sweep(pts, f"{PAPER} real stacks ({profile}, second stage of the claims not clear of 0)", links)
        cal = calibration_run(paper, profile, out, prof=prof, base_seed=base_seed, latency_reading=latency_reading,
                              scheduler_links=scheduler_links)
    runs = with_rtt(runs)
    atomic_write_csv(Path(out) / "emulation_runs.csv", run_table(runs))
    kept, lost = split_kept(runs)
    stage_two = frozenset((p["config"], p["load"], p["latency"]) for p in second)
    return RealStacks(profile, pts, kept, lost=lost, calibration=cal, stage_two=stage_two)


# --- the calibration on real stacks ----------------------------------------------------------------------------

#: Where the paper prints its calibration line; the real stacks' slope and intercept are rows ``slope`` and
#: ``intercept`` of this source in column :data:`paperlib.ledger.REAL_STACKS`.
CALIBRATION_SOURCE = "Section 2.2 (calibration line)"
#: The paper's own testbed, which the real stacks stand in for (Section 2.1); it is not re-run.
PAPER_TESTBED = "FreeBSD 2.2.8 requestors and responders on 100 Mbit/s Ethernet, Section 2.1"
#: The fewest runs, at two browser counts at least, that give a line with a 95% interval (OLS's two coefficients
#: leave one degree of freedom).
MIN_CALIBRATION_RUNS = 3


def calibration_points(paper: Paper, profile: str, prof: Profile | None = None, *, base_seed: int = 0,
                       latency_reading: str = testbed.LATENCY_READING) -> list[dict]:
    """Return the real-stack calibration points of ``profile`` ("off": none): ns-3's calibration
    (:func:`paperlib.reproduce.p001.testbed.calibration_points` of the ns-3 profile ``prof``, default scaled: its
    browser counts, ``calibration_reps`` runs each, every link at ``access_factor`` times the bottleneck so nothing
    congests, short latency) with the real profile's run length (:func:`real_profile`), each with the workload seed
    of its ns-3 run (the seed the ns-3 sweep gives that point, :func:`paperlib.sweep.point_seed` with ``base_seed``).

    Run length. The ``reduced`` profile runs them as long as its experiments, 20 s with the first 5 s not measured;
    the ``full`` profile with the ns-3 profile's 40 s (10 s). Every browser starts in its stationary state and
    nothing queues, so the warm-up covers only TCP's start; the throughput is the reply payload over the measured
    seconds. Half of ns-3's measured window widens each run's throughput spread by at least sqrt(2) (the window
    averages the replies of independent browsers; more where the reply sizes' heavy tail dominates), so the slope's
    interval is wider than ns-3's from as many runs; the ledger row gives it. The scaled profile's 6 browser
    counts x 2 runs of 20 s add 12 x 21.5 s, one testbed at a time about 4.3 minutes, to the reduced plan.
    """
    experiments.check_profile(profile)
    if profile == "off":
        return []
    ns3 = prof or testbed.PROFILES["scaled"]
    on_ns3 = testbed.calibration_points(paper, ns3, latency_reading)
    real = testbed.calibration_points(paper, real_profile(ns3, profile), latency_reading)
    return [{**r, "workload_seed": point_seed(n, base_seed)} for n, r in zip(on_ns3, real, strict=True)]


def calibration_run(paper: Paper, profile: str, out: Path, *, prof: Profile | None = None, base_seed: int = 0,
                    latency_reading: str = testbed.LATENCY_READING, scheduler_links: int | None = None,
                    lock: str | None = None) -> Emulated:
    """Run the calibration on the real stacks (:func:`calibration_points` through :func:`sweep`, each run kept or
    re-run by the testbed's fidelity rule) or say why not (:func:`not_run`); write ``emulation_calibration_runs.csv``
    (:func:`run_table`) into ``out`` and return the runs split by their fidelity. A run that lost its timing on every
    try is left out of the fit; no run replaces it (the line needs no pairing). :func:`run` calls it within its
    turn; ``lock`` is for a calibration run alone."""
    reason = not_run(profile)
    if reason:
        return Emulated(profile, not_run=reason)
    pts = calibration_points(paper, profile, prof, base_seed=base_seed, latency_reading=latency_reading)
    with emulation_turn(lock):
        runs = sweep(pts, f"{PAPER} real stacks calibration ({profile})", scheduler_links)
    runs = with_rtt(runs)
    atomic_write_csv(Path(out) / "emulation_calibration_runs.csv", run_table(runs))
    kept, lost = split_kept(runs)
    return Emulated(profile, pts, kept, lost=lost)


def calibration_fit(em: Emulated):
    """Return :func:`paperlib.reproduce.p001.calibration.fit` (statsmodels OLS) of the calibration runs that kept
    their timing, or None when nothing ran or they are fewer than :data:`MIN_CALIBRATION_RUNS` or at one browser
    count (no line with an interval)."""
    runs = em.runs
    if em.not_run or len(runs) < MIN_CALIBRATION_RUNS or runs["browsers"].nunique() < 2:
        return None
    return calibration.fit(runs["browsers"].astype(float), runs["throughput_bps"].astype(float))


def calibration_sentence(em: Emulated) -> str:
    """Return what the real stacks' calibration ran: its runs and how many kept their timing, or why none ran."""
    if em.not_run:
        return f"real-stack calibration: not run ({em.not_run})"
    kept, lost = len(em.runs), len(em.lost)
    counts = sorted({int(p["browsers"]) for p in em.points})
    return (f"real-stack calibration, profile {em.profile}: {kept + lost} runs at {len(counts)} browser counts "
            f"({', '.join(str(c) for c in counts)}), {kept} kept their timing, {lost} lost it (docs/fidelity.md)")


def _calibration_stack(em: Emulated) -> str:
    """Return the calibration testbed the real stacks ran, in words (from its points)."""
    p = {**web_testbed_real.web_testbed.DEFAULTS, **em.points[0]}
    reps = max(int(q["rep"]) for q in em.points) + 1
    counts = sorted({int(q["browsers"]) for q in em.points})
    return (f"the uncongested calibration testbed on Linux TCP (reno) through linkemu "
            f"(paperlib.emulation.web_testbed_real): bottleneck {p['bottleneck_bps'] / 1e6:g} Mbit/s, FIFO "
            f"{int(p['queue_packets'])} packets, short latency; {', '.join(str(c) for c in counts)} browsers x {reps} "
            f"runs of {p['sim_time_s']:g} s, the first {p['warmup_s']:g} s not measured")


def calibration_rows(paper: Paper, em: Emulated, ns3: pd.DataFrame | None = None) -> list[Row]:
    """Return the ledger rows of the calibration line's slope and intercept measured on the real stacks: column
    :data:`paperlib.ledger.REAL_STACKS`, source :data:`CALIBRATION_SOURCE`, rows ``slope`` and ``intercept``.

    Each coefficient of :func:`calibration_fit` is scored against the print as a published measurement measured again
    (:func:`paperlib.ledger.measured_row`: ``measured_close`` when the coefficient's whole 95% OLS interval lies
    within 5% of the print, ``measured_differs`` when it lies wholly beyond, else ``measured_inconclusive``), with
    ``n`` the runs fitted and ``low``/``high`` that interval; the reason gives the fidelity of every calibration run
    and quotes ``ns3`` (the ns-3 line's
    :func:`paperlib.reproduce.p001.calibration.coefficients`) beside it. Nothing ran: the rows say why
    (:func:`paperlib.emulation.ledger_rows.not_run_row`); runs that lost their timing leave too few for a line: the
    rows are ``not_regenerable`` with ``emulation`` "fidelity lost" (column REAL_STACKS holds no result of status
    ``fidelity_lost``, which would read as a claim's).
    """
    fit = calibration_fit(em)
    coef = calibration.coefficients(fit) if fit is not None else None
    every = em.every_run()
    fid = runs_fidelity(every) if len(every) else None
    rows = []
    for key, name in (("calib_slope", "slope"), ("calib_intercept", "intercept")):
        printed = paper.text_value(key).printed
        unit = "kbit/s per browser" if name == "slope" else "kbit/s"
        base = Row(PAPER, CALIBRATION_SOURCE, name, REAL_STACKS, printed, "", "", "not_regenerable",
                   f"the {name} of the OLS line of throughput (kbit/s) on browsers measured on the real stacks' "
                   f"calibration testbed", evidence="none")
        if em.not_run:
            rows.append(emulated_rows.not_run_row(base, em.not_run))
            continue
        if coef is None:
            why = (f"{len(em.runs)} of {len(every)} calibration runs kept their timing, too few for a line with an "
                   f"interval (at least {MIN_CALIBRATION_RUNS} runs at two browser counts)")
            lost = len(em.lost) > 0
            rows.append(replace(base, reason=f"{emulated_rows.MARK} {why}"
                                + (f"; fidelity: {fidelity_words(fid)}" if fid else "") + f"; {base.reason}",
                                emulation="fidelity lost" if lost else "not run",
                                evidence="real stacks" if lost else "none"))
            continue
        est = coef.loc[name]
        value, low, high = float(est["estimate"]), float(est["ci95_low"]), float(est["ci95_high"])
        beside = ""
        if ns3 is not None and name in ns3.index:
            b = ns3.loc[name]
            beside = (f"; ns-3's {float(b['estimate']):.4f} [{float(b['ci95_low']):.4f}, {float(b['ci95_high']):.4f}] "
                      f"{unit}")
        reason = (f"{emulated_rows.MARK} OLS fit of the reply throughput (kbit/s) on browsers over {int(fit.nobs)} "
                  f"real-stack runs that kept their timing: {value:.4f} {unit}, 95% CI [{low:.4f}, {high:.4f}]"
                  f"{beside}; "
                  f"{_calibration_stack(em)}; the paper's testbed ({PAPER_TESTBED}) is not re-run"
                  + (f"; fidelity of every calibration run: {fidelity_words(fid)}" if fid else ""))
        rows.append(measured_row(base, value, high - value, int(fit.nobs), rule="half_up", reason=reason))
    return rows


#: The three calibration lines of :func:`calibration_lines`, in the order the table and the figure give them.
LINES = ("paper", "ns-3", "real stacks")
LINE_COLUMNS = ["line", "slope", "slope_ci95_low", "slope_ci95_high", "intercept", "intercept_ci95_low",
                "intercept_ci95_high", "runs"]


def calibration_lines(paper: Paper, ns3_fit, real_fit=None) -> pd.DataFrame:
    """Return the three calibration lines (kbit/s against browsers), one row each (:data:`LINES`): the paper's
    (Section 2.2; no interval or runs printed), ns-3's (``ns3_fit``) and the real stacks' (``real_fit``,
    :func:`calibration_fit`; None: no row), with each coefficient's 95% OLS interval and the runs fitted."""
    slope, intercept = calibration.published_line(paper)
    rows = [{"line": "paper", "slope": slope, "intercept": intercept}]
    for name, fit in (("ns-3", ns3_fit), ("real stacks", real_fit)):
        if fit is None:
            continue
        c = calibration.coefficients(fit)
        rows.append({"line": name, "runs": int(fit.nobs),
                     **{f"{k}{s}": float(c.loc[k, col]) for k in ("slope", "intercept")
                        for s, col in (("", "estimate"), ("_ci95_low", "ci95_low"), ("_ci95_high", "ci95_high"))}})
    return pd.DataFrame(rows, columns=LINE_COLUMNS)


def calibration_bands(paper: Paper, ns3_fit, real_fit=None, x_max: float | None = None,
                      n: int = 61) -> pd.DataFrame:
    """Return each line of :func:`calibration_lines` at ``n`` browser counts from 0 to ``x_max`` (default: 1.1 x
    the most browsers fitted): ``line``, ``browsers``, ``kbps`` and the 95% confidence band of the fitted mean
    (``ci95_low``, ``ci95_high``; none for the paper's line, printed without one)."""
    fits = {name: fit for name, fit in (("ns-3", ns3_fit), ("real stacks", real_fit)) if fit is not None}
    if x_max is None:
        x_max = 1.1 * max(float(np.max(np.asarray(f.model.exog)[:, 1])) for f in fits.values()) if fits else 1.0
    xs = np.linspace(0.0, float(x_max), int(n))
    slope, intercept = calibration.published_line(paper)
    frames = [pd.DataFrame({"line": "paper", "browsers": xs, "kbps": slope * xs + intercept,
                            "ci95_low": np.nan, "ci95_high": np.nan})]
    for name, fit in fits.items():
        pred = fit.get_prediction(np.column_stack([np.ones_like(xs), xs]))
        band = np.asarray(pred.conf_int(alpha=0.05))
        frames.append(pd.DataFrame({"line": name, "browsers": xs, "kbps": np.asarray(pred.predicted_mean),
                                    "ci95_low": band[:, 0], "ci95_high": band[:, 1]}))
    return pd.concat(frames, ignore_index=True)


def calibration_measurements(ns3_cal: pd.DataFrame, em: Emulated) -> pd.DataFrame:
    """Return the calibration runs of both testbeds: ``testbed``, ``browsers``, ``rep``, ``throughput_kbps`` and
    ``kept`` (the ns-3 runs ``ns3_cal``, :func:`paperlib.reproduce.p001.calibration.table`'s, all kept; the real
    stacks' kept and lost runs of ``em``)."""
    frames = [ns3_cal.assign(testbed="ns-3", kept=True)]
    for runs, kept in ((em.runs, True), (em.lost, False)):
        if runs is not None and len(runs):
            frames.append(calibration.table(runs).assign(testbed="real stacks", kept=kept))
    return pd.concat(frames, ignore_index=True)[["testbed", "browsers", "rep", "throughput_kbps", "kept"]]


# --- the claims on real stacks ---------------------------------------------------------------------------------


class CellEvidence(claims.Evidence):
    """:class:`paperlib.reproduce.p001.claims.Evidence` that remembers every cell a claim reads (any column), so a
    claim's row can give the fidelity of exactly its cells."""

    def get(self, config: str, load: float, latency: str, column: str = "p90_ms") -> float:
        """Return one number of the summary, noting its cell."""
        value = super().get(config, load, latency, column)
        self.touched.add((config, load, latency))
        return value


def paired_reps(em: Emulated, cells: set | None = None) -> pd.DataFrame:
    """Return the kept runs of the replications with a run that kept its timing in every cell of ``cells``
    ((config, load, latency) triples; None: every cell that ran): a claim's margins pair the cells it compares
    within one replication (common random numbers), so a run lost in a cell the claim does not read costs it
    nothing, and a replication of the second stage (:func:`stage_two_points`), which runs only some cells, counts
    for the claims that read only those."""
    if not len(em.runs):
        return em.runs
    keys = set(cells) if cells is not None else {_cell(r) for r in em.every_run().to_dict("records")}
    lost = {r["rep"] for r in em.lost.to_dict("records") if _cell(r) in keys} if len(em.lost) else set()
    ran: dict = {}
    for r in em.runs.to_dict("records"):
        if _cell(r) in keys:
            ran.setdefault(r["rep"], set()).add(_cell(r))
    complete = {rep for rep, seen in ran.items() if len(seen) == len(keys) and rep not in lost}
    return em.runs[em.runs["rep"].isin(complete)]


def _cell(run: dict) -> tuple:
    """Return a run's cell: (configuration, load, latency set)."""
    return run["config"], run["load"], run["latency"]


def grid_probe(em: Emulated, paper: Paper) -> CellEvidence | None:
    """Return the evidence of every run of the grid, kept and lost (None when nothing ran): what
    :func:`claim_cells` probes a claim's reading on, built once per ledger."""
    every = em.every_run()
    return CellEvidence.from_sweep(every, paper) if len(every) else None


def claim_cells(probe: CellEvidence | None, reading) -> set | None:
    """Return the cells ``reading`` reads in the grid of ``probe`` (:func:`grid_probe`), or None when the grid lacks
    one of them (or nothing ran)."""
    if probe is None:
        return None
    fresh = probe.fresh()
    try:
        reading(fresh)
    except KeyError:
        return None
    return set(fresh.touched)


def fifo_98_queue_short(r: claims.Evidence) -> Reading:
    """Return the queue-size claim at 98 % read on short latency only (FIFO's p90 rises with 60, 120, 180)."""
    hi = r.loads[2]
    return increasing({"short": r.by(r.fifo, hi, "short")}, f"FIFO p90 at {hi:.0%} by queue size, short latency")


#: Readings of a claim on the cells the reduced grid has, when the claim's own reads a cell it lacks: claim id ->
#: (reading, what the row says it covers).
PARTIAL = {"fifo_98_longer_larger_queue": (fifo_98_queue_short, "judged on short latency only (the reduced grid)")}


@dataclass(frozen=True)
class Judged:
    """A claim judged on the real stacks: the pooled ``found`` reading, the decision rule's ``decision``, the cells it
    read, the spread note of their replications, and what the row says it covers (``scope``, "" for all of it)."""

    found: Reading
    decision: Decision
    touched: frozenset
    note: str
    scope: str


def _judge(reading, evidence: claims.Evidence):
    pooled = evidence.fresh()
    found = reading(pooled)
    decision = decide([reading(r.fresh()).margin for r in evidence.replications])
    return found, decision, set(pooled.touched), pooled.rep_note()


def judge_claims(paper: Paper, em: Emulated) -> dict[str, Judged | None]:
    """Return every claim of ``claims.csv`` judged on the runs of ``em`` (claim id -> :class:`Judged`; None when its
    cells, or the reduced grid's reading of it in :data:`PARTIAL`, did not run or kept no replication).

    A claim is judged by the decision rule on the replications whose runs in the cells it reads all kept their
    timing (:func:`paired_reps` of :func:`claim_cells`).
    """
    out: dict[str, Judged | None] = {cid: None for cid in paper.claims.cells["id"]}
    if em.not_run or not len(em.runs):
        return out
    probe = grid_probe(em, paper)
    by_lost_reps: dict[frozenset, CellEvidence | None] = {}  # the evidence of each set of replications left out

    def evidence_for(reading) -> CellEvidence | None:
        """The paired evidence of the replications whose runs in the cells ``reading`` reads all kept their timing."""
        touched = claim_cells(probe, reading)
        runs = paired_reps(em, touched) if touched is not None else em.runs.iloc[0:0]
        key = frozenset(set(em.runs["rep"]) - set(runs["rep"]))
        if key not in by_lost_reps:
            by_lost_reps[key] = CellEvidence.from_sweep(runs, paper) if len(runs) else None
        return by_lost_reps[key]

    for cid in out:
        reading = claims.CLAIMS.functions[cid].reading
        for candidate, what in ((reading, ""), PARTIAL.get(cid, (None, ""))):
            if candidate is None or (evidence := evidence_for(candidate)) is None:
                continue
            try:
                found, decision, touched, note = _judge(candidate, evidence)
            except KeyError:
                continue
            out[cid] = Judged(found, decision, frozenset(touched), note, what)
            break
    return out


def stage_two_cells(judged: dict[str, Judged | None]) -> tuple[frozenset, int]:
    """Return the cells of :data:`STAGE_TWO_REPS`' second stage and how many replications it adds to them.

    The cells are those of every claim whose first-stage interval is not clear of 0
    (:func:`paperlib.decide.clear_of`); the replications added are the most any such claim lacks to reach
    :data:`STAGE_TWO_REPS` (at most ``STAGE_TWO_REPS - MIN_REPS``). The rule reads each interval's distance from 0
    in half-widths, not its side: a claim about to be supported, refuted or left inconclusive is extended alike.
    """
    cells: set = set()
    extra = 0
    for j in judged.values():
        if j is None or j.decision.n >= STAGE_TWO_REPS:
            continue
        d = j.decision
        if shared_decide.clear_of(d.mean, d.low, d.high):
            continue
        cells |= j.touched
        extra = max(extra, STAGE_TWO_REPS - d.n)
    return frozenset(cells), min(extra, STAGE_TWO_REPS - decision_rule.MIN_REPS) if cells else 0


def stage_two_points(paper: Paper, profile: str, browsers: dict[float, int], prof: Profile | None, em: Emulated,
                     base_seed: int = 0) -> list[dict]:
    """Return the points of the second stage (:data:`STAGE_TWO_REPS`) for the first stage's runs ``em``: the cells of
    :func:`stage_two_cells`, at replications numbered after every one that ran (their workload seeds new, the same
    in every cell at a replication: common random numbers)."""
    cells, extra = stage_two_cells(judge_claims(paper, em))
    if not extra:
        return []
    planned = int(em.every_run()["rep"].max()) + 1
    return [p for p in points(paper, profile, browsers, prof, reps=planned + extra, base_seed=base_seed)
            if p["rep"] >= planned and (p["config"], p["load"], p["latency"]) in cells]


def real_stack_rows(paper: Paper, em: Emulated, ns3: dict[str, str] | None = None) -> list[Row]:
    """Return one row per claim of ``claims.csv`` judged on the real stacks (column :data:`REAL_STACKS`).

    A claim whose cells all ran is judged by the decision rule on the replications whose runs in its cells all kept
    their timing (:func:`paired_reps` of :func:`claim_cells`):
    ``supported``, ``refuted``, ``inconclusive`` (with the replications that would decide it) or ``untestable``
    (fewer than 2); ``fidelity_lost`` when runs of its cells lost their timing and fewer replications than the rule
    decides on (:data:`paperlib.reproduce.p001.decision_rule.MIN_REPS`) are left: the machine, not the claim, left it
    undecided, and a rerun that keeps more decides it (the reason still gives the interval of those left); a claim
    whose cells did not run says why (:func:`paperlib.emulation.ledger_rows.not_run_row`). Each
    judged row gives the fidelity of its cells' runs; ``ns3`` (claim id -> the ns-3 status) is quoted beside.
    """
    ns3 = ns3 or {}
    cells = paper.claims.cells
    probe = grid_probe(em, paper) if len(em.runs) or len(em.lost) else None
    judged = judge_claims(paper, em)
    out = []
    for _, c in cells.iterrows():
        source, cid, printed = c["location"].split(";")[0], c["id"], str(c["printed"])
        base = claim_row(PAPER, source, cid, printed, None, "untestable", "judged on the real stacks",
                         column=REAL_STACKS, claim_id=cid, evidence="none")
        if em.not_run:
            out.append(emulated_rows.not_run_row(base, em.not_run))
            continue
        reading = claims.CLAIMS.functions[cid].reading
        j = judged[cid]
        if j is None:
            lost_here = max(_lost_in_cells(em, claim_cells(probe, candidate)) for candidate in
                            (reading, PARTIAL.get(cid, (reading, ""))[0]))
            if lost_here:
                out.append(claim_row(PAPER, source, cid, printed, None, "fidelity_lost",
                                     f"{emulated_rows.MARK} {lost_here} runs of its cells lost their timing "
                                     "(docs/fidelity.md); no verdict is drawn from them", column=REAL_STACKS,
                                     claim_id=cid, evidence="real stacks"))
            else:
                out.append(emulated_rows.not_run_row(base, f"its cells are not in the {em.profile} real-stack grid "
                                                           "(PROFILE=full runs every cell)"))
            continue
        found, decision, touched, note, scope = j.found, j.decision, j.touched, j.note, j.scope
        fid = runs_fidelity(pd.concat([em.cell_runs(config=cfg, load=load, latency=lat) for cfg, load, lat in
                                       sorted(touched)], ignore_index=True))
        status = decision.status
        if fid is not None and fid["runs_kept"] < fid["runs"] and decision.n < decision_rule.MIN_REPS:
            status = "fidelity_lost"
        beside = f" [ns-3: {ns3[cid]}]" if cid in ns3 else ""
        timing = f"; fidelity of its cells' runs: {fidelity_words(fid)}" if fid else ""
        stage = stage_two_words(touched, getattr(em, "stage_two", frozenset()))
        reason = (f"{emulated_rows.MARK}{beside} {f'{scope}; ' if scope else ''}{decision.sentence(found)}{stage}. "
                  f"{found.reason}{note}{timing}; Linux TCP (reno) through linkemu, "
                  f"paperlib.emulation.web_testbed_real")
        interval = (decision.low, decision.high) if np.isfinite(decision.low) else None
        out.append(claim_row(PAPER, source, cid, printed, found.regenerated if status != "fidelity_lost" else None,
                             status, reason, column=REAL_STACKS, claim_id=cid, evidence="real stacks",
                             interval95=interval, n=decision.n))
    return out


def stage_two_words(touched: frozenset, stage_two: frozenset) -> str:
    """Return what a claim's row says of the second stage: "" when none of the cells it reads ran one, else that its
    first-stage interval was not clear of 0 (or that it shares cells with a claim's whose was)."""
    if not touched & stage_two:
        return ""
    which = "its cells" if touched <= stage_two else "some of its cells"
    return (f"; {which} ran the second stage to {STAGE_TWO_REPS} replications (a claim reading them had a "
            f"first-stage interval less than {shared_decide.CLEAR_HALF_WIDTHS:g} half-widths from 0; docs/fidelity.md)")


def runs_fidelity(runs: pd.DataFrame) -> dict | None:
    """Return the fidelity summary of ``runs`` (:func:`paperlib.emulation.notebook.cell_fidelity`), its wait per
    handshake counted over each run's connections (one per request: the browsers open one per object), with
    ``generator_issue_lateness_p99_s_max``, the generator's worst issue lateness; None when no run has a record."""
    fid = cell_fidelity(runs)
    if fid is None:
        return None
    waits = []
    for r in runs.to_dict("records"):
        rec = r.get("fidelity") or {}
        wait = rec.get("app_wait_transfer_s")
        wait = rec.get("app_wait_s") if wait is None else wait
        if wait is not None:
            waits.append(float(wait) / max(int(r.get("requests") or 1), 1) / float(r["rtt_s"]))
    waits.sort()
    late = [float((r.get("generator") or {}).get("issue_lateness_p99_s", np.nan)) for r in runs.to_dict("records")]
    late = [x for x in late if np.isfinite(x)]
    return {**fid, "app_wait_per_handshake_rtt_fraction_median": float(np.median(waits)) if waits else None,
            "app_wait_per_handshake_rtt_fraction_max": waits[-1] if waits else None,
            "generator_issue_lateness_p99_s_max": max(late) if late else None}


def fidelity_words(fid: dict) -> str:
    """Return :func:`runs_fidelity`'s summary in words (the emulator's, the applications' and the generator's)."""
    late = fid.get("generator_issue_lateness_p99_s_max")
    return emulated_rows.fidelity_text(fid) + ("" if late is None else
                                               f"; generator issue lateness p99 at most {late * 1e3:.2f} ms")


def _lost_in_cells(em: Emulated, keys: set | None) -> int:
    """Return how many lost runs sit in the cells ``keys`` (:func:`claim_cells`; None: none)."""
    if keys is None or not len(em.lost):
        return 0
    return int(sum((r["config"], r["load"], r["latency"]) in keys for r in em.lost.to_dict("records")))


# --- real stacks beside ns-3 -----------------------------------------------------------------------------------


#: The configuration the notebook draws on both testbeds: Fig. 9's RED-A-180 at 98 % load, long latency.
HEADLINE = ("RED-A-180", 0.98, "long")


def cell_runs(runs: pd.DataFrame, config: str, load: float, latency: str) -> pd.DataFrame:
    """Return the runs of one cell (configuration, load, latency set) of a sweep's or the real stacks' frame."""
    if not len(runs) or "config" not in runs:
        return runs.iloc[0:0] if len(runs.columns) else pd.DataFrame()
    return runs[(runs["config"] == config) & np.isclose(runs["load"].astype(float), load)
                & (runs["latency"] == latency)]


def summary(paper: Paper, real_stacks: Emulated) -> pd.DataFrame:
    """Return the real stacks' summary per cell (configuration, load, latency) from the runs that kept their timing:
    :func:`paperlib.reproduce.p001.findings.summarise`, the table ns-3's sweep gives (``summary.csv``); empty when
    none ran."""
    runs = real_stacks.runs
    if runs is None or not len(runs):
        return pd.DataFrame(columns=findings.SUMMARY_COLUMNS)
    return findings.summarise(runs)


def summary_sentence(em: Emulated) -> str:
    """Return what the real stacks ran: the runs of the profile and how many kept their timing, or why none ran."""
    if em.not_run:
        return f"real stacks: not run ({em.not_run})"
    kept, lost = len(em.runs), len(em.lost)
    return (f"real stacks, profile {em.profile}: {kept + lost} runs, {kept} kept their timing, {lost} lost it "
            f"(docs/fidelity.md); {paired_reps(em)['rep'].nunique() if kept else 0} replications paired")


def compare_cell(real: pd.DataFrame, ns3: pd.DataFrame) -> pd.DataFrame:
    """Return the mean, median and 90th percentile response time (ms), mean queue and drop rate of one cell on
    each testbed (rows ``real stacks`` and ``ns-3``), pooled over the replications; a testbed without runs has no
    row."""
    rows = []
    for name, runs in (("real stacks", real), ("ns-3", ns3)):
        if not len(runs):
            continue
        s = findings.summarise(runs).iloc[0]
        rows.append({"testbed": name, "runs": int(len(runs)), "requests": int(s["requests"]),
                     "mean_ms": s["mean_ms"], "p50_ms": s["p50_ms"], "p90_ms": s["p90_ms"],
                     "mean_queue": s["mean_queue"], "drop_rate": s["drop_rate"]})
    return pd.DataFrame(rows, columns=["testbed", "runs", "requests", "mean_ms", "p50_ms", "p90_ms", "mean_queue",
                                       "drop_rate"])


def beside_ns3(em: Emulated, sweep: pd.DataFrame, cell: tuple = HEADLINE) -> pd.DataFrame:
    """Return :func:`compare_cell` of ``cell`` on the real stacks (their kept runs) and in the ns-3 ``sweep``."""
    return compare_cell(cell_runs(em.runs, *cell), cell_runs(sweep, *cell))


def cdf_figure(em: Emulated, sweep: pd.DataFrame, cell: tuple = HEADLINE):
    """Return a figure of the response-time CDFs (pooled over replications) of ``cell``, real stacks (kept runs)
    and ns-3 (``sweep``); a testbed without runs of the cell is left out."""
    real, ns3 = cell_runs(em.runs, *cell), cell_runs(sweep, *cell)
    title = f"{cell[0]}, {cell[1]:.0%} load, {cell[2]} latency"
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, runs, style in (("real stacks", real, "-"), ("ns-3", ns3, "--")):
        if not len(runs):
            continue
        x = findings.pooled_response_ms(runs)
        ax.plot(x, np.arange(1, x.size + 1) / x.size, style, label=f"{name} ({len(runs)} runs)")
    ax.set_xscale("log")
    ax.set_xlabel("response time (ms)")
    ax.set_ylabel("CDF")
    ax.set_title(title)
    ax.legend()
    return fig


def queue_figure(em: Emulated, cell: tuple = HEADLINE):
    """Return a figure of the reply-direction queue (packets) over time of the first kept real-stack run of
    ``cell``, with its limit and the warm-up (an empty figure that says so when none ran)."""
    runs = cell_runs(em.runs, *cell)
    fig, ax = plt.subplots(figsize=(6, 3))
    if not len(runs):
        ax.text(0.5, 0.5, f"no real-stack run of {cell[0]} ({summary_sentence(em)})", ha="center", va="center",
                wrap=True, transform=ax.transAxes, fontsize="small")
        ax.set_axis_off()
        return fig
    run_row = runs.sort_values("rep").iloc[0].to_dict()
    limit, title = int(run_row["queue_packets"]), f"{cell[0]}, {cell[1]:.0%} load, {cell[2]} latency, rep 0"
    ax.plot(run_row["queue_sample_times_s"], run_row["queue_samples"], lw=0.8, label="backlog")
    if run_row.get("red_avg_packets"):
        ax.plot(run_row["queue_sample_times_s"], run_row["red_avg_packets"], lw=0.8, label="RED average")
    ax.axhline(limit, color="grey", ls=":", label=f"limit {limit}")
    ax.axvline(run_row["warmup_s"], color="grey", ls="--", lw=0.8, label="end of warm-up")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("queue (packets)")
    ax.set_title(title)
    ax.legend(fontsize="small")
    return fig


# --- the paper's figures, real stacks beside ns-3 ------------------------------------------------------------------

CDF_TABLE_COLUMNS = ["testbed", "config", "load", "latency", "runs", "cdf", "response_ms"]
QUEUE_TABLE_COLUMNS = ["testbed", "config", "load", "latency", "rep", "t_s", "backlog", "mean_queue", "limit"]


def real_cells(em: Emulated) -> set:
    """Return the cells (configuration, load, latency set) with real-stack runs that kept their timing."""
    runs = em.runs
    if runs is None or not len(runs) or "config" not in runs:
        return set()
    return {(c, float(x), lat) for c, x, lat in zip(runs["config"], runs["load"], runs["latency"], strict=True)}


def _testbeds(em: Emulated, sweep_runs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    return {"ns-3": sweep_runs, "real stacks": em.runs}


def cdf_table(frames: dict[str, pd.DataFrame], cells, points: int = 401) -> pd.DataFrame:
    """Return the response-time CDF of each cell of ``cells`` on each testbed of ``frames`` (name -> runs), pooled
    over the cell's replications: the response time (ms) at ``points`` cumulative shares from 0 to 1 (the empirical
    CDF's quantiles, NumPy's ``inverted_cdf``), with the runs pooled; a testbed without runs of a cell has no row."""
    shares = np.linspace(0.0, 1.0, int(points))
    rows = []
    for name, runs in frames.items():
        for config, load, latency in cells:
            g = cell_runs(runs, config, load, latency)
            x = findings.pooled_response_ms(g)
            if not len(x):
                continue
            rows.append(pd.DataFrame({"testbed": name, "config": config, "load": float(load), "latency": latency,
                                      "runs": len(g), "cdf": shares,
                                      "response_ms": np.quantile(x, shares, method="inverted_cdf")}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=CDF_TABLE_COLUMNS)


def queue_table(frames: dict[str, pd.DataFrame], cells) -> pd.DataFrame:
    """Return the reply queue of the first replication of each cell of ``cells`` on each testbed of ``frames``
    (name -> runs): its samples over time, the cell's mean queue after the warm-up over every replication
    (:func:`paperlib.reproduce.p001.findings.summarise`'s ``mean_queue``) and the queue's limit (packets)."""
    rows = []
    for name, runs in frames.items():
        for config, load, latency in cells:
            g = cell_runs(runs, config, load, latency)
            if not len(g):
                continue
            first = g.sort_values("rep").iloc[0]
            rows.append(pd.DataFrame({"testbed": name, "config": config, "load": float(load), "latency": latency,
                                      "rep": int(first["rep"]), "t_s": np.asarray(first["queue_sample_times_s"], float),
                                      "backlog": np.asarray(first["queue_samples"], float),
                                      "mean_queue": float(findings.summarise(g)["mean_queue"].iloc[0]),
                                      "limit": int(first["queue_packets"])}))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=QUEUE_TABLE_COLUMNS)


def beside_name(name: str) -> str:
    """Return the file name of paper figure ``name`` (:data:`paperlib.reproduce.p001.figure_cells.PAPER_FIGURES`)
    drawn on the real stacks beside ns-3: ``fig3_fifo_response_cdf_real_vs_ns3.png`` for
    ``fig3_fifo_response_cdf.png``."""
    return name.removesuffix(".png") + "_real_vs_ns3.png"


def beside_ns3_tables(em: Emulated, sweep_runs: pd.DataFrame, groups: dict[str, list[str]],
                      loads) -> dict[str, pd.DataFrame]:
    """Return, per paper figure (:data:`paperlib.reproduce.p001.figure_cells.PAPER_FIGURES`, by its name there) with a
    cell that the real stacks ran and kept, the table it is drawn from: :func:`cdf_table` for Figs. 3, 6, 7 and 9,
    :func:`queue_table` for Figs. 4, 5 and 8, over the figure's cells that the real stacks ran (ns-3's runs of
    those cells from ``sweep_runs``). Empty when no real-stack run kept its timing."""
    have, frames = real_cells(em), _testbeds(em, sweep_runs)
    out = {}
    for name in figure_cells.PAPER_FIGURES:
        cells = [c for c in figure_cells.cells(name, groups, loads) if (c[0], float(c[1]), c[2]) in have]
        if not cells:
            continue
        out[name] = cdf_table(frames, cells) if name in figure_cells.CDF_FIGURES else queue_table(frames, cells)
    return out


def figures_beside_ns3(em: Emulated, sweep_runs: pd.DataFrame, groups: dict[str, list[str]], loads) -> dict:
    """Return the paper's figures that the real-stack grid can draw, real stacks beside ns-3, by file name
    (:func:`beside_name` of the figure they mirror): each drawn from its table (:func:`beside_ns3_tables`) by
    :func:`paperlib.reproduce.p001.figures.cdf_beside_figure` or
    :func:`~paperlib.reproduce.p001.figures.queue_beside_figure`, in the paper's style, over the figure's cells the
    real stacks ran. The reduced grid draws Figs. 3 (FIFO-60/120/180 at 98 %, short), 7 (RED-A/B/C-240), 9
    (FIFO-180 and RED-A-180 at 98 %, long: ``fig9_fifo_vs_red_a_cdf_real_vs_ns3.png``, the headline, a key figure of
    the paper), 4, 5 and 8 (the queues of those cells); the full grid every figure.
    Empty when no real-stack run kept its timing."""
    out = {}
    for name, table in beside_ns3_tables(em, sweep_runs, groups, loads).items():
        styles, title = figure_cells.style(name, groups, loads)
        title = title.replace("regenerated", "on ns-3 and on real stacks") + " (the cells the real stacks ran)"
        out[beside_name(name)] = (figures.cdf_beside_figure(table, styles, title) if name in figure_cells.CDF_FIGURES
                                  else figures.queue_beside_figure(table, styles, title))
    return out


def beside_ns3_sentence(shown: dict, em: Emulated) -> str:
    """Return which paper figures the notebook shows on both testbeds (``shown``: :func:`figures_beside_ns3`), or
    why none (:func:`summary_sentence`)."""
    if not shown:
        return f"no figure on real stacks: {summary_sentence(em)}"
    return "real stacks beside ns-3: " + ", ".join(shown)
