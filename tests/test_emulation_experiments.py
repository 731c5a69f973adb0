"""The emulated experiments: statistics, verdicts, ledger rows, grids, one real run and its capture cross-check.

About 15 s on 2 cores (the two testbed runs); the rest is pure. Testbed tests skip with the reason
where the machine has no root, TUN or namespaces.
"""

import math

import numpy as np
import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.emulation import capture, netns, tcp_settings
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.ledger import Row
from paperlib.reproduce import p002_emulated, p004_emulated
from paperlib.validate import ParameterError

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def test_mean_ci_reference_point():
    # values 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.302653, half = 4.302653 / sqrt(3) = 2.484138
    mean, half, n = ex.mean_ci([1.0, 2.0, 3.0])
    assert (mean, n) == (2.0, 3) and half == pytest.approx(2.484138, abs=1e-6)
    assert math.isinf(ex.mean_ci([5.0])[1])


def test_diff_ci_reference_point():
    # a = 1, 2, 3 and b = 0, 0, 0: difference 2, se = sqrt(1/3), Welch dof = 2, half = 4.302653 * 0.57735 = 2.484138
    d, half, _ = ex.diff_ci([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    assert d == 2.0 and half == pytest.approx(2.484138, abs=1e-6)


def test_verdict_decides_only_when_the_whole_interval_agrees():
    pos, neg = (lambda v: v > 0), (lambda v: v < 0)
    assert el.verdict(0.1, 0.5, pos, neg) == "supported"
    assert el.verdict(-0.5, -0.1, pos, neg) == "refuted"
    assert el.verdict(-0.1, 0.5, pos, neg) == "untestable"


def test_emulated_row_keeps_not_regenerable_and_counts_within_5_percent():
    old = Row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", "", "", "not_regenerable", "testbed")
    near = el.emulated_row(old, 1.52, 0.01, 3, "half_up", "stack")  # (1.52 - 1.49) / 1.49 = 2.0% -> within 5%
    far = el.emulated_row(Row("004", "Table II", "10 Mbps", "Exp(TCP)", "1.42", "", "", "not_regenerable", "t"),
                          1.02, 0.01, 3, "half_up", "stack")  # -28% -> not within
    skipped = el.not_run_row(Row("004", "Table II", "28 Kbps", "Exp(TCP)", "14.71", "", "", "not_regenerable", "t"),
                             "off")
    assert near.status == far.status == "not_regenerable"
    assert near.reason.startswith(el.MARK) and "95% CI +/- 0.010" in near.reason
    frame = pd.DataFrame([r.__dict__ for r in (near, far, skipped)])
    assert el.counts(frame) == (1, 3)


def test_profiles_and_grids():
    with pytest.raises(ParameterError, match="emulation"):
        ex.check_profile("tiny")
    p004, p002 = (load_paper(k) for k in ("004", "002"))
    assert p004_emulated.points(p004, "off") == []
    n_proto = len(ex.protocols())
    # 004: 5 rates x 3 repetitions per protocol (reduced), 10 in full with 5 objects each
    assert len(p004_emulated.points(p004, "reduced")) == 5 * 3 * n_proto
    assert {p["objects"] for p in p004_emulated.points(p004, "full")} == {5}
    # 002: 8 printed columns, one shared (p = 1 %, RTT 0.256 s) -> 7 distinct points
    assert len(p002_emulated.points(p002, "reduced")) == 7 * 3 * n_proto
    # 000's grid: tests/test_reproduce_p000_emulated.py
    for pts in (p004_emulated.points(p004, "reduced"), p002_emulated.points(p002, "reduced")):
        assert {p["initcwnd"] for p in pts} == {tcp_settings.INITIAL_WINDOW[pts[0]["paper"]]}


def test_kernel_and_sctp_initial_windows_agree():
    apps = pytest.importorskip("paperlib.emulation.apps")
    for paper, x in tcp_settings.INITIAL_WINDOW.items():
        assert apps.paper_settings(paper, "sctp").init_cwnd_mtus == x


def test_pcap_reader_rejects_other_files(tmp_path):
    bad = tmp_path / "x.pcap"
    bad.write_bytes(b"\0" * 40)
    with pytest.raises(ValueError, match="not a pcap"):
        capture.read_pcap(bad)


@needs_testbed
@pytest.mark.parametrize("protocol", ex.protocols())
def test_one_run_agrees_with_its_capture_and_the_link(protocol):
    # 20 000 B at 1 Mbit/s, RTT 0.1 s, no loss: at least the serialisation of 20 000 B (0.16 s) plus the
    # handshake and request round trips (0.2 s); the capture and the application agree within 5 ms
    params = dict(paper="004", protocol=protocol, rate_bps=1e6, rtt_s=0.1, loss=0.0, queue_packets=100,
                  mss_bytes=1460, initcwnd=2, object_bytes=20000, objects=1, users=1, mode="per_object", rep=0)
    row = capture.crosscheck(params, seed=2)
    assert row["app_latency_s"] >= 0.16 + 0.2
    assert abs(row["difference_s"]) < 5e-3
