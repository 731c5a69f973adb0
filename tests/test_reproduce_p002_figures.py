"""Paper 002's figures: the right series, in the style registry's colours and labels."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.emulation.notebook import Emulated
from paperlib.figures import style
from paperlib.reproduce.p002 import emulated, figures, ns3, what_if
from paperlib.reproduce.p002.operating_point import operating_points, regenerate


def _labels(ax):
    return [line.get_label() for line in ax.get_lines()]


def test_response_vs_p_and_rtt_without_and_with_ns3(paper):
    regen = regenerate(operating_points(paper), CONV)
    fig = figures.response_vs_p_and_rtt(paper, regen)
    left, right = fig.axes
    # per protocol: regenerated model, published model, published experiment
    want = [style(p, s)["label"] for p in ("tcp", "sctp") for s in ("model", "published_model", "experiment")]
    assert _labels(left) == want and _labels(right) == want
    assert left.get_lines()[0].get_color() == style("tcp", "model")["color"]
    assert list(left.get_lines()[0].get_ydata()) == pytest.approx(list(regen["tcp_s"][:4]))
    assert (left.get_title(), right.get_title()) == ("Table II (RTT 0.256 s)", "Table III (p = 1 %)")
    plt.close(fig)
    keys = {(pt.rtt_s, pt.p) for pt in operating_points(paper)}
    sims = pd.DataFrame([{"rtt_s": r, "p": p, "mean_s": 20.0, "ci95_s": 1.0} for r, p in sorted(keys)])
    fig = figures.response_vs_p_and_rtt(paper, regen, ns3.Simulations(replications=2, summary=sims))
    assert style("tcp", "simulation")["label"] in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    plt.close(fig)


def test_what_if_title_names_the_point(paper):
    curve = what_if.response_vs_p(paper, CONV, obj_size_bytes=20_000, rate_bps=1e5, rtt_s=0.1)
    fig = figures.what_if_response_vs_p(curve)
    ax = fig.axes[0]
    assert ax.get_title() == "what if: O = 20000 B, R = 100000 bit/s, RTT = 0.1 s"
    assert _labels(ax) == [style("tcp", "model")["label"], style("sctp", "model")["label"]]
    plt.close(fig)


def test_emulated_vs_published_when_nothing_ran(paper):
    none = pd.DataFrame(columns=["protocol", "rate_bps", "rtt_s", "loss", "rep", "t_start", "t_done"])
    table = emulated.summary(paper, Emulated("reduced", runs=none))
    fig = figures.emulated_vs_published(table)
    left = fig.axes[0]
    # per protocol: published experiment, model, and an empty emulated series that keeps its legend entry
    assert _labels(left) == [style(p, s)["label"] for p in ("sctp", "tcp") for s in ("experiment", "model",
                                                                                      "emulation")]
    assert np.size(left.get_lines()[2].get_xdata()) == 0
    plt.close(fig)
