"""Paper 004's figures (paperlib/reproduce/p004/figures.py): what they draw, in the registry's colours."""

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from paperlib.emulation.notebook import Emulated
from paperlib.figures import PROTOCOLS, sequence_style
from paperlib.reproduce.p004 import emulated, figures, operating_point, what_if


@pytest.fixture(scope="module")
def w(paper):
    return what_if.what_if(paper, operating_point.chosen_convention(paper), rates_bps=[1e4, 1e5, 1e6])


def _lines(fig):
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    plt.close(fig)
    return lines


def test_latency_vs_bandwidth_draws_the_curves_and_the_printed_points(paper, w):
    point = operating_point.operating_point(paper)
    lines = _lines(figures.latency_vs_bandwidth(what_if.latency_vs_rate(w), point, paper.tables["table2"].cells, w))
    assert list(lines["SCTP, model (regenerated)"].get_xdata()) == [1e4, 1e5, 1e6]
    assert list(lines["TCP, published experiment"].get_ydata()) == [14.71, 7.70, 4.70, 1.49, 1.42]
    assert lines["SCTP, model, printed closed form"].get_color() == PROTOCOLS["sctp"]["color"]  # x = 4: defined


def test_latency_vs_initial_window_one_curve_per_rate_in_sequence_colours(w):
    by_x = what_if.latency_vs_window(w, [1e5, 1e6])
    lines = _lines(figures.latency_vs_initial_window(by_x, w))
    assert list(lines) == ["100 kbit/s", "1000 kbit/s"]
    assert lines["1000 kbit/s"].get_color() == sequence_style(1, 2, "")["color"]
    assert list(lines["100 kbit/s"].get_xdata()) == list(range(1, 17))


def test_emulated_vs_published_without_runs_still_has_every_legend_entry(paper):
    table = emulated.summary(paper, Emulated("reduced", runs=pd.DataFrame()))
    fig = figures.emulated_vs_published(table, operating_point.operating_point(paper))
    labels = fig.axes[0].get_legend_handles_labels()[1]
    plt.close(fig)
    assert "SCTP, emulated, real stacks (95% CI)" in labels and "TCP, published experiment" in labels


def test_sequence_style_runs_from_dark_to_light():
    first, last = sequence_style(0, 3, "a"), sequence_style(2, 3, "c")
    assert sum(mcolors.to_rgb(first["color"])) < sum(mcolors.to_rgb(last["color"]))
    assert sequence_style(0, 1, "only")["label"] == "only"
    with pytest.raises(ValueError, match="curve 3 of 3"):
        sequence_style(3, 3, "x")
