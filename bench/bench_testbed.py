"""Paper 001's ns-3 testbed: simulated seconds per wall second before/after, and the sweep's 1-to-2 worker speed-up.

Run with `make bench`. Timings are machine-dependent and other processes on the machine disturb
them; the ratios are the point. Nothing touches the project's sweep cache (scratch folders only).

1. One configuration of the default profile (FIFO-120, 90 % load, short latency, Mah's workload,
   the browsers its moments predict for 90 %), 40 s simulated:
   * **before**: in a fresh process, as every worker of a per-call Dask cluster paid it
     (import ns-3, compile the C++ browsers, first run), start-up included;
   * **after**: in a process that has already run once (what a worker of the notebook's single
     shared cluster pays per point).
2. The same sweep of such points on a local Dask cluster of 1 and of 2 workers, started and
   warmed up (ns-3 imported) before the clock starts, as the notebook's shared cluster is:
   speed-up and efficiency (speed-up / 2). Also with the start-up included (a cluster per sweep).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paperlib.data import load_paper
from paperlib.reproduce.p001 import testbed
from paperlib.reproduce.p001 import workload as p001_workload
from paperlib.sim import ns3_env, web_testbed
from paperlib.sweep import run_sweep

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _point(sim_time_s: float, rep: int = 0, warmup_s: float | None = None) -> dict:
    """Return the default profile's FIFO-120 point at 90 % load, short latency, replication ``rep``, run for
    ``sim_time_s`` simulated seconds of which the first ``warmup_s`` (default the profile's) are not measured."""
    paper = load_paper("001")
    prof = testbed.profile("scaled")
    n = p001_workload.browsers_for_load(0.9, prof.bottleneck_bps, prof.predicted_kbps_per_browser())
    pts = testbed.experiment_points(paper, prof, {0.8: 1, 0.9: n, 0.98: 1}, configs=["FIFO-120"], reps=rep + 1,
                                    sim_time_s=sim_time_s)
    point = [p for p in pts if p["load"] == 0.9 and p["latency"] == "short" and p["rep"] == rep][0]
    return point if warmup_s is None else {**point, "warmup_s": float(warmup_s)}


def warm_rate(sim_time_s: float, warmup_s: float | None = None) -> tuple[float, float, int]:
    """Return (simulated s per wall s, throughput, browsers) of a run after one run in this process."""
    point = _point(sim_time_s, warmup_s=warmup_s)
    ns3_env.load()
    # compile and JIT once (at most 12 simulated seconds)
    web_testbed.simulate({**point, "sim_time_s": min(12.0, sim_time_s), "warmup_s": min(2.0, point["warmup_s"])}, 2)
    t0 = time.perf_counter()
    result = web_testbed.simulate(point, 1)
    return sim_time_s / (time.perf_counter() - t0), result["throughput_bps"], point["browsers"]


def cold_rate(sim_time_s: float, warmup_s: float | None = None) -> float:
    """Return simulated s per wall s of the same run in a fresh process (import and compilation included)."""
    code = ("import sys, time; t=time.perf_counter(); from paperlib.sim import ns3_env, web_testbed; ns3_env.load(); "
            f"sys.path.insert(0, {str(HERE)!r}); import bench_testbed; "
            f"web_testbed.simulate(bench_testbed._point({sim_time_s!r}, warmup_s={warmup_s!r}), 1); "
            "print(time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    if out.returncode != 0:
        raise RuntimeError(f"the fresh-process run failed (exit status {out.returncode}):\n{out.stderr}")
    return sim_time_s / float(out.stdout.strip().splitlines()[-1])


def _warm(_):
    from paperlib.sim import ns3_env, web_browsers_cpp

    web_browsers_cpp.load(ns3_env.load())
    return 0


def sweep_walls(n_points: int, sim_time_s: float, warmup_s: float | None = None) -> dict:
    """Return wall seconds of one sweep on warmed 1- and 2-worker clusters, and with start-up included."""
    import dask
    from distributed import Client, LocalCluster

    points = [_point(sim_time_s, r, warmup_s) for r in range(n_points)]
    walls = {}
    for workers in (1, 2):
        t_start = time.perf_counter()
        with dask.config.set({"distributed.scheduler.worker-ttl": None}), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
                Client(cl) as client, tempfile.TemporaryDirectory() as cache:
            client.gather([client.submit(_warm, i, pure=False, workers=[w]) for i, w in
                           enumerate(client.scheduler_info()["workers"])])
            t0 = time.perf_counter()
            run_sweep(web_testbed.simulate, points, cache_dir=cache, scheduler=cl.scheduler_address, progress=False)
            walls[workers] = time.perf_counter() - t0
            walls[f"{workers}_with_startup"] = time.perf_counter() - t_start
    return walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim-time", type=float, default=40.0, help="simulated seconds per run")
    parser.add_argument("--warmup", type=float, help="unmeasured simulated seconds at the start (default the "
                        "profile's; a short --sim-time needs a shorter one)")
    parser.add_argument("--points", type=int, default=8, help="points of the speed-up sweep")
    args = parser.parse_args()
    after, thr, n = warm_rate(args.sim_time, args.warmup)
    before = cold_rate(args.sim_time, args.warmup)
    print(f"001 testbed, FIFO-120, 90% of 10 Mbit/s, Mah's workload, {n} browsers, {args.sim_time:g} s simulated "
          f"(throughput {thr / 1e6:.2f} Mbit/s):")
    print(f"  before (fresh process per run, start-up included): {before:.2f} simulated s per wall s")
    print(f"  after  (warm worker of one shared cluster):        {after:.2f} simulated s per wall s "
          f"({after / before:.1f}x)")
    w = sweep_walls(args.points, args.sim_time, args.warmup)
    speedup = w[1] / w[2]
    print(f"001 sweep of {args.points} points on warmed clusters: 1 worker {w[1]:.1f} s, 2 workers {w[2]:.1f} s, "
          f"speed-up {speedup:.2f}x, efficiency {speedup / 2:.0%}")
    print(f"  with the cluster's start-up included: 1 worker {w['1_with_startup']:.1f} s, 2 workers "
          f"{w['2_with_startup']:.1f} s, speed-up {w['1_with_startup'] / w['2_with_startup']:.2f}x")
    print("  (other processes on the machine slow the 2-worker run most: check `uptime` before trusting the ratio)")


if __name__ == "__main__":
    main()
