"""Paper 000's figures: each draws from its table and returns the figure, which saves as a stamped PNG."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from paperlib.figures import save_figure, style
from paperlib.provenance import Stamp
from paperlib.reproduce import protocol
from paperlib.reproduce.p000 import figures, findings, what_if

STAMP = Stamp(notebook="notebooks/000_multiuser_waiting.ipynb", parameters={})


def _png(fig, path):
    """Return whether ``fig`` is a Figure that saves (stamped) as a PNG at ``path`` (saving closes it)."""
    assert isinstance(fig, Figure)
    return save_figure(fig, path, STAMP).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_public_function_returns_a_figure():
    assert set(protocol.figure_functions(figures)) == {"figure4", "waiting_vs_users", "ns3_waiting",
                                                       "emulated_vs_published"}


def test_figure4_and_waiting_vs_users(paper, conv, tmp_path):
    assert _png(figures.figure4(findings.figure4_data(paper, conv)), tmp_path / "f4.png")
    w = what_if.what_if(paper, conv, m_values=[1, 2, 4])
    assert _png(figures.waiting_vs_users(what_if.waiting_vs_users(w, conv), w), tmp_path / "w.png")


def test_series_kinds_come_from_the_registry():
    # the regenerated model of Fig. 4 is a line with points; the three laws against m are told apart by marker/line
    assert set(figures.FIGURE4_KINDS.values()) == {"published_model", "experiment", "model_points"}
    assert style("sctp", "waiting_eq4")["label"] == "SCTP, W by Eq. (4)"
    assert style("tcp", "waiting_tabulated")["linestyle"] == "--"


def _emu_table(n_tcp):
    return pd.DataFrame({"table": ["Table 1", "Table 1"], "block": ["1 %", "1 %"], "m": [5, 10],
                         "published T_{sctp}": [3.0, 3.4], "published T_{tcp}": [3.1, 3.5],
                         "model W_{sctp}": [14.0, 30.0], "model W_{tcp}": [15.0, 32.0],
                         "emulated W SCTP (s)": [np.nan, np.nan], "CI95 SCTP (s)": [np.nan, np.nan],
                         "n SCTP": [0, 0], "emulated W TCP (s)": [10.0, np.nan], "CI95 TCP (s)": [1.0, np.nan],
                         "n TCP": n_tcp, "emulated single SCTP (s)": [np.nan, np.nan],
                         "emulated single TCP (s)": [4.0, np.nan]})


def test_emulated_vs_published_with_and_without_ns3(tmp_path):
    ns3_table = pd.DataFrame({"table": ["table1"], "block": ["1 %"], "m": [5], "ns3 W": [9.6], "ns3 W ci95": [1.5]})
    fig = figures.emulated_vs_published(_emu_table([3, 0]), ns3_table)
    # the ns-3 point is drawn at its row (x = 0, the m = 5 row, the only one emulated) with its value
    bars = [c for c in fig.axes[0].containers if c.get_label() == style("tcp", "simulation")["label"]]
    assert len(bars) == 1 and bars[0].lines[0].get_xydata().tolist() == [[0.0, 9.6]]
    assert _png(fig, tmp_path / "e.png")
    assert _png(figures.emulated_vs_published(_emu_table([0, 0]), None), tmp_path / "e2.png")


def test_ns3_waiting(paper, conv, tmp_path):
    from paperlib.reproduce.p000 import ns3

    empty = pd.DataFrame(columns=[*ns3.POINT_KEYS, "users", "waiting_s", "waiting_ci95_s", "turnaround_s",
                                  "turnaround_ci95_s", "finished"])
    table = ns3.ns3_tables(paper, conv, empty)
    table["ns3 W"], table["ns3 W ci95"] = table["model W Eq. (4)"], 1.0
    fig = figures.ns3_waiting(table, 2)
    assert len(fig.axes) == 9  # one panel per printed block
    assert _png(fig, tmp_path / "n.png")


def test_emulated_figure_shows_a_negative_waiting_time_and_why():
    # three emulated rows: W = 10 s, W = -2 s (single-user runs slower than the m users' mean), not run
    table = pd.concat([_emu_table([3, 3]), _emu_table([3, 0]).iloc[:1]], ignore_index=True)
    table["m"] = [5, 10, 20]
    table["emulated W TCP (s)"] = [10.0, -2.0, np.nan]
    table["emulated single TCP (s)"] = [4.0, 9.0, np.nan]
    table["n TCP"] = [3, 3, 0]
    fig = figures.emulated_vs_published(table, None)
    upper, lower = fig.axes
    # no axis mixes linear and log ranges (a symlog axis reads a negative W as a small one)
    assert upper.get_yscale() == "log" and lower.get_yscale() == "log"
    # the negative W is an open triangle at the upper panel's foot, at its row (x = 1, TCP's mark 0.08 to the right)
    marks = [ln for ln in upper.lines if ln.get_label() == "TCP, emulated W <= 0 (lower panel)"]
    assert len(marks) == 1 and marks[0].get_xdata().tolist() == [1.08]
    assert upper.get_ylim()[0] < marks[0].get_ydata()[0] < min(upper.get_lines()[0].get_ydata())
    # ... and the lower panel shows the two measured means it is the difference of: turnaround = W + T(1)
    # (14 = 10 + 4, 7 = -2 + 9) and T(1) itself, with the note saying why the difference can be negative
    turnaround = next(ln for ln in lower.lines if ln.get_label() == "TCP, emulated mean turnaround, m users")
    single = next(ln for ln in lower.lines if ln.get_label() == "TCP, emulated single-user response T(1)")
    assert turnaround.get_ydata()[:2].tolist() == [14.0, 7.0] and single.get_ydata()[:2].tolist() == [4.0, 9.0]
    assert "W < 0 where the single-user runs took longer" in lower.get_title(loc="left").replace("\n", " ")
    plt.close(fig)
