"""The emulated experiments: statistics and the papers' grids. Pure: no testbed.

The verdicts and ledger rows are in test_emulation_ledger_rows.py, the real run and its capture
cross-check in test_emulation_capture.py.
"""

import math

import pytest

from paperlib.data import load_paper
from paperlib.emulation import experiments, tcp_settings
from paperlib.reproduce.p002 import emulated as p002_emulated
from paperlib.validate import ParameterError


def test_mean_ci_reference_point():
    # values 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.302653, half = 4.302653 / sqrt(3) = 2.484138
    mean, half, n = experiments.mean_ci([1.0, 2.0, 3.0])
    assert (mean, n) == (2.0, 3) and half == pytest.approx(2.484138, abs=1e-6)
    assert math.isinf(experiments.mean_ci([5.0])[1])


def test_diff_ci_reference_point():
    # a = 1, 2, 3 and b = 0, 0, 0: difference 2, se = sqrt(1/3), Welch dof = 2, half = 4.302653 * 0.57735 = 2.484138
    d, half, _ = experiments.diff_ci([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    assert d == 2.0 and half == pytest.approx(2.484138, abs=1e-6)


def test_profiles_and_grids():
    with pytest.raises(ParameterError, match="emulation"):
        experiments.check_profile("tiny")
    p002 = load_paper("002")
    n_proto = len(experiments.protocols())
    # 004's grids: tests/test_reproduce_p004_emulated.py
    # 002: 8 printed columns, one shared (p = 1 %, RTT 0.256 s) -> 7 distinct points, the pilot's 5 repetitions
    assert len(p002_emulated.points(p002, "reduced")) == 7 * 5 * n_proto
    # 000's grid: tests/test_reproduce_p000_emulated.py
    pts = p002_emulated.points(p002, "reduced")
    assert {p["initcwnd"] for p in pts} == {tcp_settings.INITIAL_WINDOW[pts[0]["paper"]]}




def test_captures_stop_together(monkeypatch):
    # two stand-in captures (sleep 30): one 0.2 s pause for both, then both terminated (one after the other paused
    # 0.2 s before each, so a run's two captures ended 0.2 s apart)
    import subprocess

    pauses, sleep = [], experiments.time.sleep
    monkeypatch.setattr(experiments.time, "sleep", lambda s: (pauses.append(s), sleep(s)))
    dumps = [subprocess.Popen(["sleep", "30"]) for _ in range(2)]
    experiments.stop_captures(iter(dumps))
    # (Popen.wait polls with sleeps of its own, of at most 0.05 s)
    assert [s for s in pauses if s >= 0.1] == [0.2]
    assert all(d.returncode is not None for d in dumps)


# A stand-in for tcpdump: on SIGUSR1 it prints its counts as tcpdump does ("info") and goes on; it has been handed
# 42 packets and writes 10 more of them at each ask (a capture lagging behind the run), or none ("stuck").
_LAGGING_CAPTURE = r"""
import signal, sys, time
captured, step = 2, int(sys.argv[1])
def info(*_):
    global captured
    captured = min(42, captured + step)
    print(f"tcpdump: {captured} packets captured, 42 packets received by filter, 0 packets dropped by kernel",
          file=sys.stderr, flush=True)
signal.signal(signal.SIGUSR1, info)
print("tcpdump: listening on tun0", file=sys.stderr, flush=True)
while True:
    time.sleep(1)
"""


def _lagging_capture(step):
    import subprocess
    import sys

    dump = subprocess.Popen([sys.executable, "-c", _LAGGING_CAPTURE, str(step)], stderr=subprocess.PIPE, text=True)
    assert "listening" in dump.stderr.readline()
    return dump


def test_a_lagging_capture_is_stopped_once_it_has_written_what_it_was_handed():
    # the first ask finds 12 of 42 written (2 + 10), then 22, 32, 42: stopped at the fourth ask, complete
    dumps = [_lagging_capture(10), _lagging_capture(40)]
    counts = experiments.stop_captures(dumps)
    assert counts == [experiments.CaptureCounts(captured=42, received=42, dropped=0, complete=True)] * 2
    assert all(d.returncode is not None for d in dumps)
    assert experiments.incomplete_captures(dict(zip(("client", "server"), counts, strict=True))) is None


def test_a_capture_that_cannot_keep_up_says_so(monkeypatch):
    # never more than 2 of 42 written: after DRAIN_S the counts say incomplete, and the run's wire reading says which
    # capture and how many packets
    monkeypatch.setattr(experiments, "DRAIN_S", 0.5)
    stuck, fine = _lagging_capture(0), _lagging_capture(40)
    counts = experiments.stop_captures([stuck, fine])
    assert counts[0] == experiments.CaptureCounts(captured=2, received=42, dropped=0, complete=False)
    assert counts[1].complete
    why = experiments.incomplete_captures({"client": counts[0], "server": counts[1]})
    assert why.startswith("the client's capture wrote 2 of the 42 packets it was handed, 0 dropped by the kernel")
    assert "server" not in why


def test_a_capture_whose_packets_the_kernel_dropped_is_incomplete():
    full = experiments.CaptureCounts(captured=40, received=42, dropped=2, complete=False)
    assert "2 dropped by the kernel" in experiments.incomplete_captures({"server": full, "client": None})
