"""Paper 001's figures: which configurations each regenerated figure draws, and that each one is a Figure."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from paperlib.data import load_paper
from paperlib.figures import LOADS, save_figure
from paperlib.provenance import Stamp
from paperlib.reproduce.p001 import figures, findings, testbed

PAPER = load_paper("001")
QCONF = testbed.queue_configs(PAPER)
GROUPS = findings.groups(QCONF)
LOADS_001 = testbed.loads(PAPER)


def test_selections_follow_the_papers_figures():
    selections = figures._response_cdf_selections(GROUPS, LOADS_001)
    assert list(selections) == list(figures.PAPER_FIGURES[:4])
    fig3, fig6, fig7, fig9 = selections.values()
    # Fig. 3: 3 FIFO queue sizes x 3 loads, coloured by load (the registry's colours), styled by queue size
    assert len(fig3[0]) == 9 and fig3[1].startswith("Fig. 3 regenerated")
    assert fig3[0][("FIFO-120", 0.9)] == {"color": LOADS[0.9]["color"], "ls": "--"}
    assert set(fig6[0]) == {(c, x) for c in GROUPS["red480"] for x in LOADS_001}
    # Fig. 7: RED-A/B/C at 98 %, queue 480 solid, 240 dashed
    assert {k: v["ls"] for k, v in fig7[0].items()} == {**{(c, 0.98): "-" for c in GROUPS["red480"]},
                                                        **{(c, 0.98): "--" for c in GROUPS["red240"]}}
    assert set(fig9[0]) == {("FIFO-180", 0.8), ("RED-A-180", 0.8), ("FIFO-180", 0.98), ("RED-A-180", 0.98)}
    # every colour comes from the registry
    colours = {v["color"] for sel, _ in (fig3, fig6, fig7, fig9) for v in sel.values()}
    assert colours <= {v["color"] for v in LOADS.values()}


def _sweep():
    rows = []
    for c in QCONF:
        for x in LOADS_001:
            for lat in ("short", "long"):
                rows.append({"config": c, "load": x, "latency": lat, "rep": 0,
                             "response_s": list(np.linspace(0.05, 2, 40)),
                             "queue_samples": [0, 5, 7], "queue_sample_times_s": [0.0, 1.0, 2.0], "warmup_s": 1.0,
                             "drops": 1, "arrivals": 100, "early_drops": 0, "throughput_bps": 5e5,
                             "bottleneck_bps": 1e6, "unfinished": 0, "failed": 0,
                             "throughput_series_bps": [4e5, 5e5, 5e5]})
    return pd.DataFrame(rows)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_paper_figures_and_the_warmup_figure_are_figures_the_caller_saves(tmp_path):
    sweep = _sweep()
    summary = findings.summarise(sweep)
    stamp = Stamp(notebook="notebooks/001_fifo_red_response.ipynb")
    # Figs. 3, 6, 7, 9 (CDFs), 4, 5 (FIFO queues), 8 (RED queues)
    assert [n[:4] for n in figures.PAPER_FIGURES] == ["fig3", "fig6", "fig7", "fig9", "fig4", "fig5", "fig8"]
    for name in figures.PAPER_FIGURES:
        fig = figures.paper_figure(name, sweep, summary, QCONF, GROUPS, LOADS_001)
        assert isinstance(fig, Figure)
        assert save_figure(fig, tmp_path / name, stamp).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Fig. 8: the four panels A, B, D, C in a 2 x 2 grid
    fig8 = figures.paper_figure("fig8_red_queue_240.png", sweep, summary, QCONF, GROUPS, LOADS_001)
    assert [ax.get_title()[:5] for ax in fig8.axes] == ["8-A: ", "8-B: ", "8-D: ", "8-C: "]
    plt.close(fig8)
    with pytest.raises(ValueError, match="fig10.png"):
        figures.paper_figure("fig10.png", sweep, summary, QCONF, GROUPS, LOADS_001)
    warm = findings.warmup_profile(sweep, 1e6)
    fig = figures.warmup_figure(warm, 1.0, 0.0)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    plt.close(fig)
