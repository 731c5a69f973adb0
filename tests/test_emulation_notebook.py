"""What the notebooks call for their emulated column (paperlib.emulation.notebook): runs that are off or
impossible say why, claims re-judged on real stacks as a table, error bars in the registry's style, the
capture cross-check through the sweep cache.
No testbed is started here (the runs themselves are tested in test_emulation_capture.py)."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from paperlib import ledger
from paperlib.emulation import capture, experiments, netns
from paperlib.emulation import notebook as emulation_notebook
from paperlib.figures import style
from paperlib.validate import ParameterError


class _NeverRun:
    """A paper module whose points must not be asked for when nothing can run."""

    PAPER = "004"

    @staticmethod
    def points(paper, profile):
        raise AssertionError("points asked for although nothing runs")


def test_off_and_unavailable_say_why_and_write_nothing(tmp_path, monkeypatch):
    off = emulation_notebook.run(_NeverRun, None, "off", tmp_path)
    assert off.not_run == "the real-stack column was not run, by choice (EMULATION=off)"
    assert off.points == [] and off.runs.empty and list(off.runs.columns) == emulation_notebook.RUN_COLUMNS
    monkeypatch.setattr(netns, "unavailable_reason", lambda: "no /dev/net/tun")
    gone = emulation_notebook.run(_NeverRun, None, "reduced", tmp_path)
    assert gone.not_run == "the real-stack column was not run because this machine cannot run it: no /dev/net/tun"
    assert emulation_notebook.accuracy_table([1e6], tmp_path, "reduced") is None
    assert emulation_notebook.accuracy_table([1e6], tmp_path, "off") is None
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ParameterError, match="emulation"):
        emulation_notebook.run(_NeverRun, None, "tiny", tmp_path)


def test_verdicts_table_has_only_the_real_stack_column():
    rows = [
        ledger.claim_row("004", "Abstract", "within 4%", "4", 4.9, "refuted", "model vs print",
                         claim_id="c", evidence="printed"),
        ledger.claim_row("004", "Abstract", "within 4%", "4", 6.1, "refuted", "[emulated on real stacks] mean 6.1%",
                         column="emulated (real stacks)", claim_id="c", evidence="real stacks"),
        ledger.claim_row("004", "Sec. 4", "TCP slower by 2 RTT", "", None, "inconclusive", "[x] CI spans zero",
                         column="emulated (real stacks)", claim_id="c", evidence="real stacks"),
    ]
    table = emulation_notebook.verdicts(rows)
    assert table.to_dict("list") == {"claim": ["within 4%", "TCP slower by 2 RTT"],
                                     "verdict on real stacks": ["refuted", "inconclusive"],
                                     "emulation": [rows[1].emulation, rows[2].emulation],
                                     "measure": ["[emulated on real stacks] mean 6.1%", "[x] CI spans zero"]}


def test_errorbars_draw_finite_means_only_in_the_emulation_style():
    fig, ax = plt.subplots()
    emulation_notebook.errorbars(ax, [1, 2, 3], [1.0, math.nan, 3.0], [0.1, 0.2, math.nan], "tcp")
    (bars,) = ax.containers
    line = bars.lines[0]
    assert line.get_xdata().tolist() == [1, 3] and line.get_ydata().tolist() == [1.0, 3.0]
    (barlines,) = bars.lines[2]
    # the NaN half-width of the third point is drawn as 0: its bar runs from 3 to 3
    assert np.asarray(barlines.get_segments())[:, :, 1].tolist() == [[0.9, 1.1], [3.0, 3.0]]
    assert line.get_color() == style("tcp", "emulation")["color"] and line.get_marker() == "D"
    assert bars.get_label() == style("tcp", "emulation")["label"]
    emulation_notebook.errorbars(ax, [1], [math.nan], [math.nan], "sctp")  # nothing finite: a legend entry only
    assert ax.get_lines()[-1].get_label() == style("sctp", "emulation")["label"]
    emulation_notebook.close(fig)
    assert not plt.fignum_exists(fig.number)


def test_capture_table_is_measured_once_then_read_from_the_sweep_cache(tmp_path, monkeypatch):
    calls = []

    def fake_crosscheck(params, seed=1):
        calls.append((params["protocol"], seed))
        return {"protocol": params["protocol"], "rate_bps": params["rate_bps"], "app_latency_s": 1.0 + len(calls),
                "capture_latency_s": 1.0, "difference_s": float(len(calls)), "packets": 40}

    monkeypatch.setattr(capture, "crosscheck", fake_crosscheck)
    monkeypatch.setattr(experiments, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(emulation_notebook, "_capture_code_version", lambda: "test")
    points = [{"protocol": p, "rate_bps": 1e5, "rep": 0, "objects": 1, "users": 1} for p in ("tcp", "sctp")]
    first = emulation_notebook.capture_table(points, tmp_path / "out")
    assert calls == [("tcp", 1), ("sctp", 1)]  # measured once per point, with the seed the notebook always used
    again = emulation_notebook.capture_table(points, tmp_path / "out2")
    assert len(calls) == 2  # a re-execution reads the cache: no new measurement, the same table
    pd.testing.assert_frame_equal(first, again)
    assert (tmp_path / "out2" / "emulated_capture_check.csv").read_text() == \
        (tmp_path / "out" / "emulated_capture_check.csv").read_text()
    assert emulation_notebook.capture_table([], tmp_path / "out3") is None  # emulation off or not run: no table


def test_capture_code_version_follows_the_capture_module():
    assert emulation_notebook._capture_code_version().startswith(experiments.code_version() + "+capture-")


def _run(protocol, rep, kept, late_s, wait_s, rtt_s=0.1, users=2, objects=3, mode="per_object"):
    """A fabricated run with a fidelity record (only the fields the cell summary reads)."""
    return {"protocol": protocol, "rate_bps": 1e6, "rtt_s": rtt_s, "loss": 0.0, "users": users, "objects": objects,
            "mode": mode, "rep": rep, "fidelity_kept": kept, "fidelity_tries": 1 if kept else 3,
            "fidelity": {"worst_lateness_p99_s": late_s, "app_wait_s": wait_s, "cpu_pressure_fraction": 0.1 * rep}}


def test_runs_that_lost_their_timing_are_kept_apart_and_counted_per_cell():
    runs = pd.DataFrame([_run("tcp", 0, True, 0.001, 0.006), _run("tcp", 1, False, 0.004, 0.060),
                         _run("tcp", 2, True, 0.0005, 0.012), _run("sctp", 0, True, 0.001, 0.0)])
    kept, lost = emulation_notebook.split_kept(runs)
    assert list(kept.rep) == [0, 2, 0] and list(lost.rep) == [1]
    emu = emulation_notebook.Emulated("reduced", [], kept, lost=lost)
    cell = emu.cell_fidelity(protocol="tcp", rate_bps=1e6)
    # 3 tcp runs, 2 kept; tries 1 + 3 + 1 = 5; worst lateness p99 0.004 s = 4% of the 0.1 s round trip;
    # handshakes per run 2 users x 3 objects = 6, so the waits per handshake are 0.001, 0.010, 0.002 s:
    # 1%, 10%, 2% of the round trip -> median 2%, max 10%; pressure 0, 0.1, 0.2 -> mean 0.1
    assert cell["runs"] == 3 and cell["runs_kept"] == 2 and cell["tries"] == 5
    assert cell["worst_lateness_p99_s"] == pytest.approx(0.004)
    assert cell["worst_lateness_p99_rtt_fraction"] == pytest.approx(0.04)
    assert cell["app_wait_per_handshake_rtt_fraction_median"] == pytest.approx(0.02)
    assert cell["app_wait_per_handshake_rtt_fraction_max"] == pytest.approx(0.10)
    assert cell["cpu_pressure_fraction_mean"] == pytest.approx(0.1)
    assert emu.lost_at(protocol="tcp") == 1 and emu.lost_at(protocol="sctp") == 0
    assert emu.cell_fidelity(protocol="udp") is None
    with pytest.raises(ValueError, match="no parameter 'colour'"):
        emu.cell_runs(colour="red")
    # every run, kept first, then the lost one; none ran: an empty table with the runs' columns
    assert list(emu.every_run().rep) == [0, 2, 0, 1] and list(emu.every_run().fidelity_kept) == [True] * 3 + [False]
    nothing = emulation_notebook.Emulated("reduced").every_run()
    assert nothing.empty and list(nothing.columns) == emulation_notebook.RUN_COLUMNS


def test_the_runs_table_holds_each_runs_fidelity_beside_it():
    runs = pd.DataFrame([_run("tcp", 0, True, 0.001, 0.006)]).assign(link_stats=[{}], provenance=[{}])
    flat = emulation_notebook.flat_runs(runs)
    assert "fidelity" not in flat.columns and "link_stats" not in flat.columns
    row = flat.iloc[0]
    assert (row.fidelity_kept, row.fidelity_tries, row.lateness_p99_s, row.app_wait_s, row.handshakes) == (
        True, 1, 0.001, 0.006, 6)
