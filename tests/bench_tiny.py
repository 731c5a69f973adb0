"""The tiny runs of `make bench`'s scripts, shared by tests/test_bench.py (the scripts that run beside other tests)
and tests/test_bench_emulated.py (those that time real stacks, alone: ``exclusive``).

Each script has its tiny arguments here, the lines (regular expressions) its output must hold, and its marks; a
script added to the Makefile's bench recipe without them fails tests/test_bench.py.
"""


import re
import subprocess
import sys
from pathlib import Path

import pytest

from paperlib.emulation import netns

REPO = Path(__file__).resolve().parent.parent
EMULATION = netns.unavailable_reason()
NS3 = [pytest.mark.ns3, pytest.mark.slow]
#: the emulator's benches time real stacks on the wall clock: skipped without a testbed, alone under pytest -n
EMULATED = [pytest.mark.skipif(EMULATION is not None, reason=f"emulated testbed unavailable: {EMULATION}"),
            pytest.mark.exclusive]

#: script -> (its tiny arguments, the lines (regular expressions) its output must hold, marks)
TINY = {
    "bench_models.py": (["--points", "2000", "--repeats", "1"],
                        [r"^004 slow-start latency \(Eq. 5\), 1,600 grid points", r"^  ratio loop/model: ",
                         r"^002 response time .*, 200 points", r"^  ratio loop/grid: ",
                         r"^000 mean waiting time \(Eq. 4\), 4 \(m, n\) points", r"^  ratio schedule/closed form: ",
                         r"^Models against their floors .* 2,000 random points",
                         r"^  004 slow-start latency, Eq. \(5\) +model .* ratio +[0-9.]+x \((within|ABOVE)"], []),
    "bench_testbed.py": (["--sim-time", "2", "--warmup", "0.5", "--points", "2"],
                         [r"^001 testbed, FIFO-120, 90% of 10 Mbit/s, .* 2 s simulated",
                          r"^  before \(fresh process per run, start-up included\): [0-9.]+ simulated s per wall s",
                          r"^  after  \(warm worker of one shared cluster\): +[0-9.]+ simulated s per wall s",
                          r"^001 sweep of 2 points on warmed clusters: 1 worker [0-9.]+ s, 2 workers [0-9.]+ s, "
                          r"speed-up"], NS3),
    "bench_ns3_speed.py": (["--sim-time", "1", "--warmup", "0.25", "--skip-wheel-import"],
                           [r"^ns-3 import, CPU s of a fresh process: the package's 9 modules [0-9.]+, every module "
                            r"\(the wheel's loader\) not timed",
                            r"^ns-3 speed, 001 testbed .* 1 s simulated\): [0-9,]+ packets through the bottleneck",
                            r"^  floor \(bare ns-3: 20 BulkSend flows", r"^  testbed / floor: [0-9.]+"], NS3),
    "bench_budget.py": (["--cache", "{tmp}", "--times", "{tmp}", "--profiles", "scaled", "--sample-seconds", "0.5",
                         "1"],
                        [r"^cold run floor: ", r"^  no run records", r"^cold run per paper: ",
                         r"^001's warm-up: ", r"^001 PROFILE=scaled: .* costs about [0-9.]+ \+ [0-9.]+ CPU s per "
                         r"simulated second, measured; \d+ runs: [0-9.]+ core-hours"], NS3),
    "bench_explore.py": (["--moves", "1", "--explorers", "004"],
                         [r"^explorers: one redraw", r"^  004 against rate +moving \w+ +model +[0-9.]+ ms +redraw "
                          r"median +[0-9.]+ ms", r"^  slowest median redraw: [0-9.]+ ms .* 4 explorer axes"], []),
    "bench_emulation.py": (["--rates", "1e6"],
                           [r"^ *rate_bps +arrived", r"^ *1e\+06 ", r"^emulator: (highest accurate rate|not accurate)"],
                           EMULATED),
    "bench_fidelity.py": (["--runs", "1", "--families", "h2", "--objects", "4", "--conditions", "idle"],
                          [r"^fidelity of paper 005's page loads", r"^  h2 \(python\) +idle +kept [01]/1 +lateness p99",
                           r"^  h2 \(c\) +idle +kept [01]/1", r"^one testbed at a time"],
                          EMULATED),
    "bench_001_real.py": (["--run-seconds", "0"],
                          [r"^001 real stacks, profile reduced: 92 runs \(12 of them the calibration's\), 0\.55 "
                           r"machine-hours",
                           r"^001 real stacks, profile full: 612 runs \(12 of them the calibration's\), [0-9.]+ "
                           r"machine-hours",
                           r"^001 short real run: skipped"], []),
}


def bench_scripts() -> list[str]:
    """Return the scripts the Makefile's bench recipe runs, in its order (``make -n bench``, the venv as built)."""
    dry = subprocess.run(["make", "-n", "-s", "--no-print-directory", "-f", str(REPO / "Makefile"),
                          "-o", ".venv/.installed", "bench"], cwd=REPO, capture_output=True, text=True, check=True)
    return re.findall(r"\bbench/(\w+\.py)\b", dry.stdout)


def run_tiny(script: str, tmp_path) -> None:
    """Run ``script`` with its tiny arguments; fail unless it exits 0 and prints every line :data:`TINY` expects."""
    args, expected, _ = TINY[script]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    proc = subprocess.run([sys.executable, str(REPO / "bench" / script), *args], cwd=REPO, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for pattern in expected:
        assert re.search(pattern, proc.stdout, re.MULTILINE), (pattern, proc.stdout)
