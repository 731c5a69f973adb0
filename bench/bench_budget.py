"""Run budgets: each paper's cold run from measured per-point times, and 001's full profile in core-hours.

Run with `make bench`. Two parts:

1. **Cold run per paper.** Every sweep call that computes points writes a run record
   (``.cache/sweeps/runs/*.json``, :func:`paperlib.sweep.sweep_record`) with each computed point's
   wall time on its worker. Summed per paper (which simulation belongs to which paper: 000
   multi-user narrowband, 001 web testbed, 002 TCP loss transfer, 003 web bottleneck, and the
   emulated runs by their ``paper`` parameter), they give the worker-time of the sweeps of the last
   run that computed them: after a cold ``make reproduce`` (empty cache), the cold run's cost.
   A paper whose records cover fewer points than its sweeps hold is marked (partly cached run).
   Notebook code outside the sweeps (models, figures, ns-3's import per worker) is not included.
2. **001 at PROFILE=full**, sized before asking for a cluster: its sweep plan (calibration,
   experiments, Table 3 counts, latency check; browsers from the workload's predicted rate) and
   two measured runs of its 90 %-load FIFO-120 point shortened to a few simulated seconds. A run's
   time is taken as (a + b x simulated seconds) x browsers / the sample's browsers, a and b fitted
   on the two samples: the testbed's own cost estimate (:func:`paperlib.sim.web_testbed.sweep_cost`,
   simulated seconds x browsers) with the start-up separated. The same formula prints for the
   default profile, so it can be checked against part 1's 001 line on the same machine.
3. **The floor of an overlapped cold run.** ``make reproduce`` overlaps the papers (``make -j``), so its
   wall time is bounded below by the CPU work of the papers over the machine's cores: no schedule runs
   faster than the cores can compute. Each paper's record in ``.cache/run-times/`` keeps the wall time
   and the CPU time of its whole process tree (:mod:`paperlib.run_progress`), for its last run and for its
   last cold run (every sweep point computed, none read from the cache); :func:`overlap_floor` sums the
   cold runs, and the last runs are printed beside them (a warm rerun reads its sweeps from the cache and
   says nothing about a cold run's cost). The sum of the walls is the sequential run (``JOBS=1``) when the
   records come from one; the sum of the CPU over the cores is the floor of any overlapped run of the same
   work, whatever its schedule.
4. **001's warm-up.** Each 001 run discards its first ``warmup_s`` seconds. :func:`mser5_truncation_s`
   finds, per run, the truncation point of its queue-length samples by MSER-5 (White 1997: batch means of
   5 samples, the truncation that minimises the variance of the remaining mean, searched over the first
   half); :func:`warmup_table` gives its median and 90th percentile per load and queue over the cached
   runs, beside the profile's warm-up. A warm-up shorter than the transients the runs show would bias the
   means; this is what a shorter 001 plan would have to pass.
Timings are machine-dependent and disturbed by other processes (see `uptime`).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from pathlib import Path

from paperlib.data import load_paper
from paperlib.reproduce.p001 import testbed
from paperlib.reproduce.p001 import workload as p001_workload
from paperlib.sim import ns3_env, web_testbed

REPO = Path(__file__).resolve().parent.parent
#: The simulation of each paper's ns-3 sweep (the emulated runs name their paper in their parameters).
PAPER_OF = {
    "paperlib.sim.multiuser_narrowband.simulate": "000",
    "paperlib.sim.web_testbed.simulate": "001",
    "paperlib.sim.tcp_loss_transfer.simulate": "002",
    "paperlib.sim.web_bottleneck.simulate": "003",
}


def _paper(record: dict) -> str:
    """Return the paper a run record's sweep belongs to (one sweep, one notebook, one paper)."""
    timed = record.get("seconds") or [{"params": {}}]
    return PAPER_OF.get(record["simulate"]) or str(timed[0]["params"].get("paper", record["simulate"]))


def cold_budget(cache_dir: Path) -> dict[str, dict]:
    """Return paper -> {"seconds", "cpu_seconds", "timed", "points"}: wall and CPU seconds of the timed points on
    their workers, how many points were timed, of how many in the recorded sweeps."""
    out: dict[str, dict] = defaultdict(lambda: {"seconds": 0.0, "cpu_seconds": 0.0, "timed": 0, "points": 0})
    for path in sorted((cache_dir / "runs").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        paper = out[_paper(record)]
        paper["seconds"] += sum(point["seconds"] for point in record.get("seconds", []))
        paper["cpu_seconds"] += sum(point.get("cpu_seconds", 0.0) for point in record.get("seconds", []))
        paper["timed"] += len(record.get("seconds", []))
        paper["points"] += record["points"]
    return dict(sorted(out.items()))


def plan_001(profile: str) -> list[dict]:
    """Return every point 001's notebook runs at ``profile`` (browsers from the predicted rate, not a calibration)."""
    paper = load_paper("001")
    prof = testbed.profile(profile)
    browsers = {load: p001_workload.browsers_for_load(load, prof.bottleneck_bps, prof.predicted_kbps_per_browser())
                for load in testbed.loads(paper)}
    reading = testbed.LATENCY_READING
    other = "one_way" if reading == "rtt" else "rtt"
    points = testbed.calibration_points(paper, prof, reading)
    points += testbed.experiment_points(paper, prof, browsers, configs=list(testbed.queue_configs(paper)),
                                        latency_reading=reading)
    points += testbed.table3_count_points(paper, prof, reading)
    points += testbed.latency_check_points(paper, prof, browsers, other)
    return points


def sample_point(profile: str) -> dict:
    """Return the profile's FIFO-120 point at 90 % load, short latency, first replication."""
    paper = load_paper("001")
    prof = testbed.profile(profile)
    n = p001_workload.browsers_for_load(0.9, prof.bottleneck_bps, prof.predicted_kbps_per_browser())
    browsers = {load: n for load in testbed.loads(paper)}
    pts = testbed.experiment_points(paper, prof, browsers, configs=["FIFO-120"], reps=1)
    return next(p for p in pts if p["load"] == 0.9 and p["latency"] == "short")


def fit_cost(point: dict, sim_times=(6.0, 12.0), warmup_s: float = 2.0) -> tuple[float, float, int]:
    """Return (a, b, browsers): a run of ``point`` shortened to s simulated seconds takes about a + b s CPU seconds.

    Measured: one run of each length after a first short run (ns-3 imported, C++ compiled), in CPU
    time of this thread (what a core spends; less disturbed by other processes than wall time).
    A run starts with empty queues and few transfers in flight; if its later seconds cost more than
    its first (``a`` comes out 0), the estimate for longer runs is a lower bound.
    """
    ns3_env.load()
    web_testbed.simulate({**point, "sim_time_s": min(3.0, sim_times[0]), "warmup_s": min(1.0, warmup_s)}, 2)
    walls = []
    for s in sim_times:
        t0 = time.thread_time()
        web_testbed.simulate({**point, "sim_time_s": s, "warmup_s": warmup_s}, 1)
        walls.append(time.thread_time() - t0)
    (s0, s1), (w0, w1) = sim_times, walls
    b = max((w1 - w0) / (s1 - s0), 0.0)
    return max(w0 - b * s0, 0.0), b, int(point["browsers"])


def plan_seconds(points: list[dict], a: float, b: float, browsers: int) -> float:
    """Return the estimated CPU seconds of ``points``: (a + b x simulated s) x browsers / sample browsers."""
    return sum((a + b * float(p["sim_time_s"])) * float(p["browsers"]) / browsers for p in points)


def mser5_truncation_s(samples, sample_interval_s: float) -> float:
    """Return the MSER-5 truncation point (s) of one run's series sampled every ``sample_interval_s``.

    Batches of 5 samples; over truncations d of the first half of the batches, the one minimising
    sum((b_j - mean)^2) / (m - d)^2 over the m - d remaining batch means b_j (White, "An effective truncation
    heuristic for bias reduction in simulation output", Simulation 69(6), 1997).
    """
    import numpy as np

    x = np.asarray(samples, dtype=float)
    m = x.size // 5
    if m < 2:
        raise ValueError(f"a series of {x.size} samples has fewer than two batches of 5")
    batches = x[: m * 5].reshape(m, 5).mean(axis=1)
    best = min(range(m // 2 or 1), key=lambda d: ((batches[d:] - batches[d:].mean()) ** 2).sum() / (m - d) ** 2)
    return best * 5 * sample_interval_s


def warmup_table(cache_dir: Path):
    """Return, per (load, queue) of the cached 001 experiment runs, the runs, the median and 90th percentile of their
    MSER-5 truncation points (s) and the warm-up they ran with; an empty frame without cached runs."""
    import ast

    import numpy as np
    import pandas as pd

    rows = []
    for path in sorted((cache_dir / "paperlib.sim.web_testbed.simulate").glob("*.json")):
        entry = json.loads(path.read_text(encoding="utf-8"))
        params, result = (ast.literal_eval(v) if isinstance(v, str) else v
                          for v in (entry["params"], entry["result"]))
        times = result.get("queue_sample_times_s") or []
        if "load" not in params or len(times) < 10:  # the calibration runs have no load
            continue
        rows.append({"load": params["load"], "queue": params["queue"], "warmup_s": params["warmup_s"],
                     "truncation_s": mser5_truncation_s(result["queue_samples"], times[1] - times[0])})
    frame = pd.DataFrame(rows, columns=["load", "queue", "warmup_s", "truncation_s"])
    if frame.empty:
        return frame
    return (frame.groupby(["load", "queue"])
            .agg(runs=("truncation_s", "size"), median_s=("truncation_s", "median"),
                 p90_s=("truncation_s", lambda v: float(np.percentile(v, 90))), warmup_s=("warmup_s", "max"))
            .reset_index())


def overlap_floor(times_dir: Path, cores: int) -> dict:
    """Return each paper's last and last cold run, and the floor of an overlapped cold run of the same work.

    ``{"last": {paper: run}, "cold": {paper: run or None}, "wall_s": sum of the cold runs' walls, "cpu_s": sum
    of their CPU, "floor_s": cpu_s / cores, "measured": whether every paper has a cold run with its CPU time}``,
    a run being ``{"seconds", "cpu_seconds" (None: not recorded), "cold" (None: not known), "sweeps"}``.
    ``last`` holds the papers whose last run succeeded; ``cold`` their last successful cold run
    (:mod:`paperlib.run_progress`'s ``last_cold``). A cold run that overlaps the papers cannot take less than
    ``floor_s`` on ``cores`` cores.
    """
    last, cold = {}, {}
    for path in sorted(Path(times_dir).glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if not record.get("ok"):
            continue
        paper = record["paper"]
        last[paper] = {"seconds": float(record["seconds"]), "cpu_seconds": record.get("cpu_seconds"),
                       "cold": record.get("cold"), "sweeps": record.get("sweeps")}
        c = record.get("last_cold")
        cold[paper] = None if c is None else {"seconds": float(c["seconds"]), "cpu_seconds": c.get("cpu_seconds"),
                                              "cold": True, "sweeps": None}
    runs = [c for c in cold.values() if c is not None and c["cpu_seconds"] is not None]
    wall_s = sum(c["seconds"] for c in runs)
    cpu_s = float(sum(c["cpu_seconds"] for c in runs))
    return {"last": last, "cold": cold, "wall_s": wall_s, "cpu_s": cpu_s, "floor_s": cpu_s / cores,
            "measured": bool(last) and len(runs) == len(last)}


def run_text(run: dict) -> str:
    """Return one run of :func:`overlap_floor` as text: wall, CPU and cores busy, and for a last run whether it was
    cold, warm (sweep points read from the cache: how many of them it computed) or not known."""
    wall, cpu = run["seconds"], run["cpu_seconds"]
    text = f"{wall / 60:.1f} min wall, " + ("CPU not recorded" if cpu is None else
                                             f"{cpu / 60:.1f} CPU-min ({cpu / max(wall, 1e-9):.2f} cores busy)")
    sweeps = run.get("sweeps")
    if run["cold"] is None:
        return text + ", cold or warm not recorded"
    if sweeps is None:  # a kept cold run
        return text
    if run["cold"]:
        return text + f", cold ({sweeps['computed']} sweep points computed)"
    return text + f", warm ({sweeps['computed']} of {sweeps['points']} sweep points computed, the rest cached)"


def print_floor(floor: dict, times_dir: Path, cores: int) -> None:
    """Print :func:`overlap_floor`'s result: per paper its last run and its last cold run, then the floor."""
    print(f"cold run floor: each paper's last cold run (every sweep point computed, none from the cache), beside "
          f"its last run, from {times_dir}")
    if not floor["last"]:
        print("  no run records: run `make reproduce` on an empty sweep cache (.cache/sweeps) first")
        return
    for paper, last in floor["last"].items():
        cold = floor["cold"][paper]
        print(f"  {paper}: last cold run {'none recorded' if cold is None else run_text(cold)}")
        print(f"  {' ' * len(paper)}  last run      {run_text(last)}")
    if floor["measured"]:
        print(f"  together (the last cold runs): {floor['wall_s'] / 60:.1f} min one after the other, "
              f"{floor['cpu_s'] / 60:.1f} CPU-min; an overlapped cold run of the same work takes at least "
              f"{floor['floor_s'] / 60:.1f} min on {cores} cores ({floor['floor_s'] / floor['wall_s']:.0%} of the "
              f"walls' sum)")
    else:
        missing = [p for p, c in floor["cold"].items() if c is None or c["cpu_seconds"] is None]
        print(f"  no floor: {', '.join(missing) or 'no paper'} without a cold run with its CPU time; run "
              "`make reproduce` on an empty sweep cache (.cache/sweeps) first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=REPO / ".cache" / "sweeps", help="the sweep cache folder")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="cores of this machine")
    parser.add_argument("--times", type=Path, default=REPO / ".cache" / "run-times",
                        help="the papers' run records (wall and CPU seconds)")
    parser.add_argument("--profiles", nargs="+", choices=list(testbed.PROFILES), default=["scaled", "full"],
                        help="the 001 profiles to size (default scaled and full)")
    parser.add_argument("--sample-seconds", type=float, nargs=2, default=(6.0, 12.0), metavar=("S0", "S1"),
                        help="simulated seconds of the two measured runs of the sample point (default 6 12); "
                             "their first S0/3 seconds (at most 2) are not measured")
    args = parser.parse_args()

    print_floor(overlap_floor(args.times, args.cores), args.times, args.cores)

    print(f"cold run per paper: each paper's sweep points on their workers, from the run records in {args.cache}/runs")
    budget = cold_budget(args.cache)
    if not budget:
        print("  no run records: run `make reproduce` on an empty cache first (they are written as sweeps finish)")
    for paper, b in budget.items():
        note = "" if b["timed"] >= b["points"] else f"  (partly cached: {b['timed']} of {b['points']} points timed)"
        print(f"  {paper}: {b['timed']} points, {b['seconds'] / 60:.1f} worker-min wall "
              f"({b['seconds'] / 60 / args.cores:.1f} min on {args.cores} workers), "
              f"{b['cpu_seconds'] / 60:.1f} CPU-min{note}")

    warm = warmup_table(args.cache)
    print("001's warm-up: MSER-5 truncation points of the cached runs' queue-length series (seconds)")
    if warm.empty:
        print("  no cached 001 runs: run `make reproduce` first")
    for r in warm.itertuples():
        print(f"  load {r.load:g}, {r.queue}: {r.runs} runs, median {r.median_s:.1f}, 90th percentile {r.p90_s:.1f}; "
              f"warm-up run {r.warmup_s:g}")

    for profile in args.profiles:
        sample = sample_point(profile)
        a, b, n = fit_cost(sample, tuple(args.sample_seconds), min(2.0, args.sample_seconds[0] / 3))
        points = plan_001(profile)
        seconds = plan_seconds(points, a, b, n)
        print(f"001 PROFILE={profile}: its FIFO-120 point at 90% of {sample['bottleneck_bps'] / 1e6:g} Mbit/s "
              f"({n} browsers) costs about {a:.2f} + {b:.3f} CPU s per simulated second, measured; "
              f"{len(points)} runs: {seconds / 3600:.1f} core-hours "
              f"({seconds / 3600 / args.cores:.1f} h on {args.cores} cores, {seconds / 3600 / 64:.2f} h on 64)"
              f"{' (a lower bound: later simulated seconds cost more)' if a == 0 else ''}")


if __name__ == "__main__":
    main()
