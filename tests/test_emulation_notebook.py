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
        ledger.claim_row("004", "Abstract", "within 4%", "4", 4.9, "refuted", "model vs print"),
        ledger.claim_row("004", "Abstract", "within 4%", "4", 6.1, "refuted", "[emulated on real stacks] mean 6.1%",
                         column="emulated (real stacks)"),
        ledger.claim_row("004", "Sec. 4", "TCP slower by 2 RTT", "", None, "inconclusive", "[x] CI spans zero",
                         column="emulated (real stacks)"),
    ]
    table = emulation_notebook.verdicts(rows)
    assert table.to_dict("list") == {"claim": ["within 4%", "TCP slower by 2 RTT"],
                                     "verdict on real stacks": ["refuted", "inconclusive"],
                                     "measure": ["mean 6.1%", "CI spans zero"]}


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
