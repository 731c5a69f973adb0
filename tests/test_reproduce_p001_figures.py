"""Paper 001's figures: each is a Figure the caller saves (which cells each draws: test_reproduce_p001_figure_cells)."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from paperlib.data import load_paper
from paperlib.figures import save_figure
from paperlib.provenance import Stamp
from paperlib.reproduce.p001 import figures, findings, testbed

PAPER = load_paper("001")
QCONF = testbed.queue_configs(PAPER)
GROUPS = findings.groups(QCONF)
LOADS_001 = testbed.loads(PAPER)


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
