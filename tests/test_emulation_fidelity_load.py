"""A small real-stack sweep beside a CPU hog: the fidelity record sees the load, and no protocol verdict is drawn
from runs that lost their timing (issue 31, item 4).

Paper 005's sweep (``paperlib.reproduce.p005.emulated.run``) on a tiny page at its questions' link, with a sweep
cache of its own. The hog is two busy processes at normal priority, one per core, bounded in time and killed
in a ``finally``. What must hold on any machine is asserted; what depends on the machine (how many runs keep
their timing beside the hog) is not.
"""

import contextlib
import functools
import subprocess
import sys

import pytest

from paperlib.data import load_paper
from paperlib.emulation import experiments, fidelity, netns
from paperlib.reproduce.p005 import claims, emulated, replication_plan
from paperlib.reproduce.p005 import ledger_rows as p005_rows

PAPER_005 = "005"

REASON = netns.unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None or emulated.missing_reason("h2") is not None,
                                reason=f"emulated testbed or h2 unavailable: {REASON}")

#: Busy for at most this long (s), whatever happens to the test.
HOG_S = 90


@contextlib.contextmanager
def cpu_hog(processes: int = 2):
    """Run ``processes`` busy loops at normal priority for at most :data:`HOG_S` s; kill them on leaving."""
    code = f"import time\nend = time.monotonic() + {HOG_S}\nwhile time.monotonic() < end:\n    pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(processes)]
    try:
        yield hogs
    finally:
        for h in hogs:
            h.kill()
            h.wait(timeout=10)


def tiny_points(protocols=("h2",), reps=2):
    """Return points at the questions' link, loss 0, IW 3 and 10, a page of four 20 kB objects."""
    base = emulated.points(None, "reduced")[0]
    return [{**base, "protocol": proto, "loss": 0.0, "iw_segments": iw, "rep": k,
             "link_seed": emulated.link_seed(base["rate_bps"], base["rtt_s"], 0.0, k),
             "objects_bytes": [20_000] * 4, "capture": False}
            for proto in protocols for iw in claims.IW_REAL for k in range(reps)]


def run_tiny(monkeypatch, tmp_path, pts):
    """Run ``pts`` through paper 005's sweep (its pilot only: the replication plan asks for nothing more)."""
    monkeypatch.setattr(emulated, "points", lambda paper, profile: pts)
    monkeypatch.setattr(replication_plan, "plans", lambda ev, pilot: [])
    monkeypatch.setattr(experiments, "CACHE_DIR", tmp_path / "cache")
    return emulated.run(load_paper("005"), "reduced", tmp_path, scheduler_links=1)


@pytest.mark.exclusive  # CPU hogs beside real stacks on an emulated link: under pytest -n no other test runs beside
def test_the_record_sees_a_cpu_hog_and_verdicts_rest_on_the_kept_runs_only(monkeypatch, tmp_path):
    # one try per run: what the record sees and what the summary counts are the point here, not the re-runs
    # (tests/test_emulation_fidelity.py's run_kept tests have them); beside the hog most runs lose their timing, and
    # three tries each would triple the time the other pytest worker waits
    monkeypatch.setattr(experiments, "FIDELITY_TRIES", 1)
    with cpu_hog():
        rs = run_tiny(monkeypatch, tmp_path, tiny_points())
    every = rs.every_run()
    assert len(every) == 4
    for run in every.to_dict("records"):
        record = fidelity.FidelityRecord.from_dict(run["fidelity"])
        # two busy loops fill both cores, so the run's own processes had to wait for a CPU: the machine's CPU
        # pressure and the applications' run-queue wait are above zero in every run
        assert record.cpu_pressure_s is None or record.cpu_pressure_s > 0
        assert record.app_wait_s > 0
        assert run["fidelity_kept"] == fidelity.judge(record, run["rtt_s"], 1).kept
    assert rs.runs.fidelity_kept.all() and not rs.lost.fidelity_kept.any()
    # the summary's repetitions count the kept runs only
    s = emulated.summary(PAPER_005, rs)
    for cell in s.to_dict("records"):
        kept = rs.runs[(rs.runs.protocol == cell["protocol"]) & (rs.runs.iw_segments == cell["iw_segments"])]
        assert cell["n"] == len(kept)


def test_no_protocol_verdict_is_drawn_from_runs_that_lost_their_timing(monkeypatch, tmp_path):
    # a rule no run can meet (every limit 0): every run is lost after its one try, whatever else the machine runs,
    # so this test needs no turn alone under pytest -n
    never = fidelity.FidelityRule(lateness_p99_rtt_fraction=0.0, app_wait_transfer_fraction=0.0)
    monkeypatch.setattr(fidelity, "run_kept", functools.partial(fidelity.run_kept, rule=never))
    monkeypatch.setattr(experiments, "FIDELITY_TRIES", 1)
    rs = run_tiny(monkeypatch, tmp_path, tiny_points(("h2", "h3"), reps=1))
    assert rs.runs.empty and len(rs.lost) == 4  # 2 protocols x IW 3 and 10 x 1 replication
    rows = p005_rows.ledger_rows(load_paper("005"), real_stacks=rs)
    real = {r.row: r for r in rows if r.column == claims.REAL_STACKS}
    saving = claims.CLAIMS.questions["quic_handshake_saving"]
    iw10 = claims.CLAIMS.questions["iw10_gain"]
    assert real[saving].status == "fidelity_lost" and real[iw10].status == "fidelity_lost"
    handshakes = [r for r in rows if r.source == "data/005/handshake_rtts.csv" and r.status == "fidelity_lost"]
    assert len(handshakes) == 2  # TCP + TLS 1.3 and QUIC: their runs lost their timing, so no mean is drawn
    assert not [r for r in rows if r.status.startswith("measured_")]
