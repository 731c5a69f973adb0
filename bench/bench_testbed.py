"""Paper 001's ns-3 testbed: simulated seconds per wall second, and the sweep's speed-up from 1 to 2 workers.

Run with `make bench`. Timings are machine-dependent; the ratios are the point. Nothing is read
from or written to the project's sweep cache: every run here is computed afresh in a scratch folder.

1. One configuration of the scaled profile (FIFO-120, 90 % load, short latency, the browser
   count the default profile's calibration gives for 90 %, from the cache-independent constant
   below), run in this process after ns-3 is imported: simulated seconds per wall second.
2. The same sweep of small points run on a local Dask cluster with 1 and with 2 worker
   processes: wall time ratio. Each worker imports ns-3 once (about 6-15 s), which the ratio
   includes, as a real sweep pays it too.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from paperlib.data import load_paper
from paperlib.reproduce import p001_testbed as tb
from paperlib.sim import ns3_env, web_testbed
from paperlib.sweep import run_sweep

#: Browsers for 90 % of the scaled profile's 10 Mbit/s, about what its calibration gives (a bench
#: needs a fixed, realistic load, not the calibration's exact output).
BROWSERS_90 = 1600


def one_configuration(sim_time_s: float) -> tuple[float, float]:
    paper = load_paper("001")
    prof = tb.profile("scaled")
    point = tb.experiment_points(paper, prof, {0.8: 1, 0.9: BROWSERS_90, 0.98: 1}, configs=["FIFO-120"], reps=1,
                                 sim_time_s=sim_time_s)
    point = [p for p in point if p["load"] == 0.9 and p["latency"] == "short"][0]
    ns3_env.load()
    t0 = time.perf_counter()
    result = web_testbed.simulate(point, 1)
    wall = time.perf_counter() - t0
    return sim_time_s / wall, result["throughput_bps"]


def sweep_speedup(n_points: int, sim_time_s: float) -> tuple[float, float]:
    # points of several seconds each: with tiny points the workers' ns-3 import (6-15 s each) is all one measures
    points = [{"bottleneck_bps": 10e6, "browsers": 1400, "sim_time_s": sim_time_s, "warmup_s": 2.0, "rep": r}
              for r in range(n_points)]
    walls = []
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as cache:
            t0 = time.perf_counter()
            run_sweep(web_testbed.simulate, points, cache_dir=cache, n_workers=workers, progress=False)
            walls.append(time.perf_counter() - t0)
    return walls[0], walls[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim-time", type=float, default=30.0, help="simulated seconds of the single run")
    parser.add_argument("--points", type=int, default=6, help="points of the speed-up sweep")
    args = parser.parse_args()
    rate, thr = one_configuration(args.sim_time)
    print(f"001 testbed, FIFO-120, 90% of 10 Mbit/s, {BROWSERS_90} browsers, {args.sim_time:g} s simulated: "
          f"{rate:.2f} simulated s per wall s (throughput {thr / 1e6:.2f} Mbit/s)")
    one, two = sweep_speedup(args.points, 40.0)
    print(f"001 sweep of {args.points} points: 1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up {one / two:.2f}x")


if __name__ == "__main__":
    main()
