"""Paper 005's figures (paperlib/reproduce/p005/figures.py): what they draw, in the registry's colours."""

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import QuadMesh
from matplotlib.figure import Figure

from paperlib import validate
from paperlib.figures import PROTOCOLS
from paperlib.models import web_page
from paperlib.reproduce.p005 import figures, findings, transports

S = 1460 * 8
PAGE = web_page.WebPage([20 * S, 5 * S, 2 * S], ("html", "css", "image"))


@pytest.fixture(scope="module")
def model():
    return findings.transport_times(PAGE, transports.PROTOCOLS, [1e6, 10e6], 0.05, [0, 0.01, 0.02], [2, 10],
                                    mss_bits=S)


def measured_frame():
    # the columns of emulated.summary (brief), two measured cells at 10 Mbit/s, 50 ms; one of another path
    return pd.DataFrame({"protocol": ["h2", "h3", "sctp"], "rate_bps": [10e6, 10e6, 5e6], "rtt_s": [0.05] * 3,
                         "loss": [0.01, 0.01, 0.0], "iw_segments": [10, 10, 10], "n": [5, 5, 5],
                         "plt_mean_s": [0.9, 0.7, 0.8], "plt_half_s": [0.05, np.nan, 0.1]})


def _labels(ax):
    return ax.get_legend_handles_labels()[1]


def test_plt_vs_loss_one_panel_per_path_and_a_line_per_protocol_and_window(model):
    fig = figures.plt_vs_loss(model)
    assert isinstance(fig, Figure)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 2  # 1 and 10 Mbit/s at 50 ms
    lines = {ln.get_label(): ln for ln in panels[0].get_lines()}
    plt.close(fig)
    assert len(lines) == 3 * 2  # h2, h3, sctp x IW 2, 10
    h2 = lines["HTTP/2 over TLS 1.3 over TCP, IW 2, model"]
    assert mcolors.same_color(h2.get_color(), PROTOCOLS["h2"]["color"])
    assert list(h2.get_xdata()) == pytest.approx([0, 1, 2])  # loss in percent
    h3_2, h3_10 = lines["HTTP/3 over QUIC, IW 2, model"], lines["HTTP/3 over QUIC, IW 10, model"]
    assert h3_2.get_linestyle() != h3_10.get_linestyle()
    first = model[(model.rate_bps == 1e6) & (model.protocol == "h2") & (model.iw_segments == 2)].sort_values("loss")
    assert list(h2.get_ydata()) == list(first.plt_s)


def test_plt_vs_loss_with_measured_points_on_their_panel(model):
    fig = figures.plt_vs_loss(model, measured_frame())
    fast = [ax for ax in fig.axes if ax.get_visible()][1]  # 10 Mbit/s
    slow = [ax for ax in fig.axes if ax.get_visible()][0]
    labels_fast, labels_slow = _labels(fast), _labels(slow)
    plt.close(fig)
    assert "HTTP/2 over TLS 1.3 over TCP, IW 10, real stack (95% CI)" in labels_fast
    assert "HTTP/3 over QUIC, IW 10, real stack (95% CI)" in labels_fast  # a NaN half width draws no bar, not nothing
    assert not any("real stack" in label for label in labels_slow)  # 1 Mbit/s: nothing measured there
    assert not any("SCTP streams, IW 10, real stack" in label for label in labels_fast)  # 5 Mbit/s is no panel


def test_plt_vs_loss_rejects_a_frame_without_its_columns(model):
    with pytest.raises(validate.ParameterError, match="measured lacks the columns"):
        figures.plt_vs_loss(model, measured_frame().drop(columns="plt_half_s"))
    with pytest.raises(validate.ParameterError, match="model has no rows"):
        figures.plt_vs_loss(model.iloc[:0])


def test_iw_gain_heatmap_colours_percent_and_marks_the_point():
    rates, rtts = np.geomspace(1e6, 100e6, 5), np.geomspace(0.01, 0.4, 4)
    gain = findings.iw_gain(PAGE, rates, rtts, mss_bits=S)
    fig = figures.iw_gain_heatmap(gain, iw_old=3, point=(10e6, 0.05))
    ax = fig.axes[0]
    mesh = [c for c in ax.collections if isinstance(c, QuadMesh)][0]
    colourbar_label = fig.axes[1].get_ylabel()
    marked = [ln for ln in ax.get_lines() if ln.get_label() == "real-stack point"][0]
    scales = ax.get_xscale(), ax.get_yscale()
    plt.close(fig)
    expected = 100 * gain[gain.iw_old == 3].pivot_table(index="rtt_s", columns="rate_bps", values="gain")
    assert np.allclose(mesh.get_array().reshape(4, 5), expected.to_numpy())
    assert "%" in colourbar_label and scales == ("log", "log")
    assert list(marked.get_xdata()) == [10e6] and list(marked.get_ydata()) == [0.05]


def test_iw_gain_heatmap_needs_its_old_window():
    gain = findings.iw_gain(PAGE, [1e6, 2e6], [0.01, 0.02], iw_old=(2,), mss_bits=S)
    with pytest.raises(validate.ParameterError, match="iw_old = 3"):
        figures.iw_gain_heatmap(gain)


def test_narrowband_bars_grouped_by_page_and_window():
    table = findings.narrowband_what_if(transports.real_stack_page(), mss_bits=S)
    fig = figures.narrowband(table)
    ax = fig.axes[0]
    bars = ax.patches
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    scale, labels = ax.get_yscale(), _labels(ax)
    plt.close(fig)
    assert len(bars) == 2 * 2 * 3  # (paper, today) x (IW 2, 10) x 3 transports
    assert ticks == ["paper's page\nIW 2", "paper's page\nIW 10", "today's page\nIW 2", "today's page\nIW 10"]
    assert labels == [transports.LABEL[p] for p in transports.PROTOCOLS]
    assert scale == "log"  # today's page takes about 30 times the papers' (500 s against 15 s)
    assert mcolors.same_color(bars[0].get_facecolor(), PROTOCOLS["h2"]["color"])
    h2 = table[table.protocol == "h2"].plt_s.to_numpy()
    assert [b.get_height() for b in bars[:4]] == pytest.approx(list(h2))
