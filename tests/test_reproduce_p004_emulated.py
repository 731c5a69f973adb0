"""Paper 004 on real stacks (paperlib/reproduce/p004/emulated.py): the grids, the summary table, the capture points.

Pure: no testbed runs here (tests/test_emulation_experiments.py runs one and its capture cross-check).
"""

import math

import pandas as pd
import pytest

from paperlib import replications
from paperlib.emulation import experiments, tcp_settings
from paperlib.emulation import notebook as emulation_notebook
from paperlib.emulation.notebook import Emulated
from paperlib.reproduce.p004 import emulated


def test_grids(paper):
    assert emulated.points(paper, "off") == []
    n_proto = len(experiments.protocols())
    # 5 rates x the pilot's 5 repetitions per protocol (reduced), 10 in full with 5 objects each
    pts = emulated.points(paper, "reduced")
    assert len(pts) == 5 * replications.PILOT * n_proto == 5 * 5 * n_proto
    assert {p["objects"] for p in emulated.points(paper, "full")} == {5}
    assert {p["initcwnd"] for p in pts} == {tcp_settings.INITIAL_WINDOW["004"]}
    # the chosen convention's reading: one-way delay 0.1 s -> RTT 0.2 s; 50 KB = 50 000 B; MSS 1500 - 40 = 1460 B
    assert {(p["rtt_s"], p["object_bytes"], p["mss_bytes"]) for p in pts} == {(0.2, 50_000, 1460)}


def test_summary_means_and_cis_per_rate_and_protocol(paper):
    runs = pd.DataFrame([{"protocol": "tcp", "rate_bps": 1e6, "rep": k, "t_start": [0.0], "t_done": [lat]}
                         for k, lat in enumerate([1.0, 1.2, 1.4])])
    table = emulated.summary(paper, Emulated("reduced", runs=runs)).set_index("BANDWIDTH")
    row = table.loc["1 Mbps"]
    # mean 1.2 s, sd 0.2 s, half-width t(0.975, 2) x 0.2 / sqrt(3) = 4.302653 x 0.11547 = 0.49683 s
    assert row["emulated TCP (s)"] == pytest.approx(1.2) and row["CI95 TCP (s)"] == pytest.approx(0.49683, abs=1e-5)
    assert (row["n TCP"], row["n SCTP"], row["Exp(TCP)"]) == (3, 0, 1.49)
    # the model under the chosen convention at 1 Mbps: SCTP 1.100 s + 2 T_r = 1.500 s
    assert row["model TCP (s)"] == pytest.approx(1.5)
    assert table["n TCP"].drop("1 Mbps").eq(0).all()


def test_capture_points_are_the_first_repetition_at_100_kbps_and_10_mbps(paper):
    pts = emulated.capture_points(emulated.points(paper, "reduced"))
    assert sorted((p["protocol"], p["rate_bps"]) for p in pts) == sorted(
        (proto, rate) for proto in experiments.protocols() for rate in (100e3, 10e6))
    assert {(p["rep"], p["objects"], p["users"]) for p in pts} == {(0, 1, 1)}
    assert emulated.capture_points([]) == []


def test_real_stacks_text_counts_the_close_cells():
    # one cell ran and is close (its whole interval within 5% of the print), one did not run: 1 of 2
    frame = pd.DataFrame({"reason": ["x", "x"], "column": ["Exp(TCP)", "Exp(SCTP)"], "rel_error": ["0.0200", ""],
                          "emulation": ["ran", "not run"], "status": ["measured_close", "not_regenerable"]})
    text = emulated.real_stacks_text(frame, None)
    assert text.startswith("**Real stacks.** 1 of 2 published experimental cells of this paper are close to today's "
                           "stacks (the whole 95% interval of the emulated mean within 5% of the print)")
    assert "; off)" in emulated.real_stacks_text(frame, "off")


def test_measured_cells_plan_each_rate_and_protocol_from_its_kept_runs(paper):
    # TCP at 1 Mbps: latencies 1.0, 1.2, 1.4 s (sd 0.2 s) against the print 1.49 s: 5% is 0.0745 s, so the rule asks
    # for about ((1.96 + 0.84) x 0.2 / 0.0745)^2 = 57 runs (t quantiles: a few more), more than the 20 it runs, and
    # it says so
    runs = pd.DataFrame([{"protocol": "tcp", "rate_bps": 1e6, "rep": k, "t_start": [0.0], "t_done": [lat]}
                         for k, lat in enumerate([1.0, 1.2, 1.4])])
    cells = emulated.measured_cells(paper, runs)
    assert len(cells) == 5 * 2  # every rate, both protocols
    (tcp,) = [c for c in cells if c.label == "Table II, 1 Mbps, Exp(TCP)"]
    assert (tcp.at, tcp.printed, tcp.values) == ({"protocol": "tcp", "rate_bps": 1e6}, 1.49, (1.0, 1.2, 1.4))
    plans = emulation_notebook.measured_plans(cells)
    # the cells without two kept runs run the same 20, with no spread to size a test from
    unsized = [p for p in plans if p.pilot_n < 2]
    assert len(unsized) == 9 and all(p.plan.n == 20 and math.isnan(p.plan.n_needed) for p in unsized)
    assert "no spread to size a test from" in unsized[0].plan.describe()
    (plan,) = [p for p in plans if p.pilot_n >= 2]
    assert plan.plan.n == replications.MEASURED_REPLICATIONS and plan.plan.capped and 55 < plan.plan.n_needed < 70
    extra = emulation_notebook.more_points(emulated.points(paper, "reduced"), [plan], runs)
    # 3 kept of the 20 planned: 17 more, after the pilot's reps 0-4
    assert [p["rep"] for p in extra] == list(range(5, 22))
    assert {(p["protocol"], p["rate_bps"]) for p in extra} == {("tcp", 1e6)}
