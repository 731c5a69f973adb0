"""Paper 001's testbed on real stacks: what its plans cost, and one short run's wall time and fidelity.

Run with `make bench`. The plans' cost is their runs' real time (the experiments' and the calibration testbed's,
:func:`paperlib.reproduce.p001.emulated.calibration_points`; a run takes ``sim_time_s`` plus the testbed's set-up,
:data:`paperlib.reproduce.p001.emulated.SETUP_S`), in machine-hours (one testbed per machine, as on a
cluster) and in wall minutes at :data:`~paperlib.reproduce.p001.emulated.LINKS` testbeds at once; browser counts do
not change it. Then (``--run-seconds`` > 0, on a machine that can run the testbed) one run of FIFO-120 at 98 % load,
short latency, with the browsers the workload's moments predict for 98 % of 10 Mbit/s: its wall time, throughput,
response times and fidelity record (:func:`paperlib.emulation.web_testbed_real.judge`). Nothing touches the project's
sweep cache.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from paperlib.data import load_paper
from paperlib.emulation import web_testbed_real
from paperlib.reproduce.p001 import emulated, testbed
from paperlib.reproduce.p001 import workload as p001_workload


def main(argv: list[str] | None = None) -> int:
    """Print the plans' cost and, with ``--run-seconds`` > 0, one short real run's figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run-seconds", type=float, default=15.0, help="length of the short run (0: none)")
    args = parser.parse_args(argv)
    paper = load_paper("001")
    prof = testbed.profile("scaled")
    browsers = {x: p001_workload.browsers_for_load(x, prof.bottleneck_bps, prof.predicted_kbps_per_browser())
                for x in testbed.loads(paper)}
    for name in ("reduced", "full"):
        size = emulated.plan_hours(paper, name, browsers, prof)
        print(f"001 real stacks, profile {name}: {size['runs']} runs ({size['calibration_runs']} of them the "
              f"calibration's), {size['machine_hours']:.2f} machine-hours, about {size['wall_minutes']:.0f} min "
              f"{'one testbed' if emulated.LINKS == 1 else f'{emulated.LINKS} testbeds'} at a time")
    reason = web_testbed_real.unavailable_reason()
    if args.run_seconds <= 0 or reason:
        print(f"001 short real run: skipped ({reason or '--run-seconds 0'})")
        return 0
    point = {**testbed.queue_configs(paper)["FIFO-120"], "browsers": int(browsers[0.98]),
             "sim_time_s": float(args.run_seconds), "warmup_s": min(5.0, args.run_seconds / 3),
             "traffic": prof.traffic, "workload_seed": 1}
    t0 = time.monotonic()
    result = web_testbed_real.simulate(point, 1)
    wall = time.monotonic() - t0
    fid, gen = result["fidelity"], result["generator"]
    wait = fid["app_wait_transfer_s"] if fid.get("app_wait_transfer_s") is not None else fid["app_wait_s"]
    verdict = web_testbed_real.judge(result, point)
    rt = np.asarray(result["response_s"], dtype=float) * 1e3
    print(f"001 short real run, FIFO-120, 98% of 10 Mbit/s, short latency, {point['browsers']} browsers, "
          f"{args.run_seconds:g} s: wall {wall:.1f} s, throughput {result['throughput_bps'] / 1e6:.2f} Mbit/s, "
          f"{result['requests']} responses, mean {rt.mean():.0f} ms, p90 {np.percentile(rt, 90):.0f} ms")
    print(f"  fidelity: kept {verdict.kept}; emulator lateness p99 {fid['worst_lateness_p99_s'] * 1e3:.3f} ms; "
          f"applications' run-queue wait {wait * 1e3:.0f} ms; generator issue lateness p99 "
          f"{gen['issue_lateness_p99_s'] * 1e3:.2f} ms, CPU "
          f"{gen['cpu_per_s']:.1%} of a core; emulator CPU {fid['cpu']['emulator']['run_s']:.2f} s")
    for text in verdict.broken:
        print(f"  broken: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
