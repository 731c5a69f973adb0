"""What this machine does to a real-time run: paper 005's page loads, idle and beside load, against the fidelity rule.

Run with `make bench` (needs root, TUN and network namespaces; says so and exits 0 otherwise). For each family
(h2, h3, sctp) it loads paper 005's page at the questions' link without loss, IW 10, `--runs` times in each of
three conditions: the machine as it is ("idle"), beside two busy loops at normal priority ("normal hog") and
beside two busy loops under SCHED_IDLE at nice 10 in an idle cpu cgroup where the machine has one (else in
sessions whose scheduler groups have the lowest weight), as `make reproduce` runs its simulations beside the
emulation (`paperlib.run_progress.lower_priority`, `make_idle_cgroup`; "idle-policy hog"). It prints each
condition's fidelity record summarised (`paperlib.emulation.fidelity`: runs kept, the emulator's lateness p99
and the applications' wait during the transfer as a share of its duration), and what one testbed at a time costs
in wall time against four.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import time

from paperlib import run_progress
from paperlib.emulation import fidelity, netns

BUSY = "import time\nend = time.monotonic() + {s}\nwhile time.monotonic() < end:\n    pass\n"


@contextlib.contextmanager
def hog(kind: str, seconds: float):
    """Run two busy loops (``kind`` "normal" or "idle-policy") for at most ``seconds``; kill them on leaving."""
    if kind == "idle":
        yield
        return

    cgroup = run_progress.make_idle_cgroup() if kind == "idle-policy" else None

    def lower():
        run_progress.lower_priority(10, idle=True, cgroup=cgroup)  # as make reproduce lowers a simulating paper's run

    procs = [subprocess.Popen([sys.executable, "-c", BUSY.format(s=seconds)],
                              preexec_fn=lower if kind == "idle-policy" else None) for _ in range(2)]
    try:
        time.sleep(0.3)
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=10)
        run_progress.remove_cgroup(cgroup)


def measure(families: list[str], runs: int, kind: str, objects: int | None) -> list[str]:
    """Return one line per family: its runs' fidelity under condition ``kind``."""
    from paperlib.reproduce.p005 import emulated

    pts = [p for p in emulated.points(None, "reduced") if p["loss"] == 0.0 and p["iw_segments"] == 10
           and p["rep"] == 0 and p["protocol"] in families]
    lines = []
    with hog(kind, seconds=60 * runs * len(pts) + 60):
        for point in pts:
            point = {**point, "capture": False}
            if objects is not None:
                point["objects_bytes"] = point["objects_bytes"][:objects]
            records, walls = [], []
            for _ in range(runs):
                result = emulated.load_page(point, 0)
                records.append(result["fidelity"])
                walls.append(result["wall_s"])
            s = fidelity.summarise(records, point["rtt_s"], 1)
            name = f"{point['protocol']} ({emulated.implementation_of(point)})"
            lines.append(f"  {name:<13} {kind:<12} kept {s['runs_kept']}/{s['runs']}  lateness p99 "
                         f"{100 * s['worst_lateness_p99_rtt_fraction']:.2f}% of the RTT  wait during the transfer "
                         f"{100 * s['app_wait_transfer_fraction_median']:.1f}% (median), "
                         f"{100 * s['app_wait_transfer_fraction_max']:.1f}% (max) of its duration  "
                         f"run {statistics.mean(walls):.1f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the fidelity of page loads per family and condition; return 0 (also when skipped)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="page loads per family and condition (default 3)")
    parser.add_argument("--families", nargs="+", default=["h2", "h3", "sctp"], help="the families (h2 h3 sctp)")
    parser.add_argument("--objects", type=int, default=None, help="load only the page's first N objects (tests)")
    parser.add_argument("--conditions", nargs="+", default=["idle", "normal", "idle-policy"],
                        help="idle, normal (two busy loops), idle-policy (two SCHED_IDLE busy loops)")
    args = parser.parse_args(argv)
    reason = netns.unavailable_reason()
    if reason:
        print(f"bench_fidelity: skipped, {reason}")
        return 0
    from paperlib.reproduce.p005 import emulated

    rule = fidelity.RULE
    print(f"fidelity of paper 005's page loads (loss 0, IW 10; rule: lateness p99 below "
          f"{100 * rule.lateness_p99_rtt_fraction:g}% of the RTT, wait during the transfer below "
          f"{100 * rule.app_wait_transfer_fraction:g}% of its duration):")
    for kind in args.conditions:
        for line in measure(args.families, args.runs, kind, args.objects):
            print(line, flush=True)
    grid = emulated.points(None, "reduced")
    print(f"one testbed at a time (paper 005's default, emulated.LINKS_AT_ONCE = {emulated.LINKS_AT_ONCE}): the "
          f"reduced grid's {len(grid)} pilot runs take the sum of their run times; four at once would take about a "
          f"quarter of it, with four page loads' processes sharing the cores as the 'normal' rows' do with the "
          f"busy loops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
