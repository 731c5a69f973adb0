"""Seed 001's figures: which configurations each regenerated figure draws, and that each one is written."""

import numpy as np
import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.figures import LOADS
from paperlib.provenance import Stamp
from paperlib.reproduce.p001 import figures, findings, testbed

PAPER = load_paper("001")
QCONF = testbed.queue_configs(PAPER)
GROUPS = findings.groups(QCONF)
LOADS_001 = testbed.loads(PAPER)


def test_selections_follow_the_papers_figures():
    fig3, fig6, fig7, fig9 = figures.response_cdf_selections(GROUPS, LOADS_001)
    # Fig. 3: 3 FIFO queue sizes x 3 loads, coloured by load (the registry's colours), styled by queue size
    assert len(fig3[0]) == 9 and fig3[1] == "fig3_fifo_response_cdf.png"
    assert fig3[0][("FIFO-120", 0.9)] == {"color": LOADS[0.9]["color"], "ls": "--"}
    assert set(fig6[0]) == {(c, x) for c in GROUPS["red480"] for x in LOADS_001}
    # Fig. 7: RED-A/B/C at 98 %, queue 480 solid, 240 dashed
    assert {k: v["ls"] for k, v in fig7[0].items()} == {**{(c, 0.98): "-" for c in GROUPS["red480"]},
                                                        **{(c, 0.98): "--" for c in GROUPS["red240"]}}
    assert set(fig9[0]) == {("FIFO-180", 0.8), ("RED-A-180", 0.8), ("FIFO-180", 0.98), ("RED-A-180", 0.98)}
    # every colour comes from the registry
    colours = {v["color"] for _, sel, _ in [(None, s[0], None) for s in (fig3, fig6, fig7, fig9)] for v in sel.values()}
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
def test_paper_figures_and_the_warmup_figure_are_written(tmp_path):
    sweep = _sweep()
    stamp = Stamp(notebook="notebooks/001_fifo_red_response.ipynb")
    paths = figures.paper_figures(sweep, findings.summarise(sweep), QCONF, GROUPS, LOADS_001, tmp_path, stamp)
    # Figs. 3, 6, 7, 9 (CDFs), 4, 5 (FIFO queues), 8 (RED queues)
    assert [p.name[:4] for p in paths] == ["fig3", "fig6", "fig7", "fig9", "fig4", "fig5", "fig8"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
    warm = findings.warmup_profile(sweep, 1e6)
    assert figures.warmup_figure(warm, 1.0, 0.0, tmp_path / "warmup.png", stamp).exists()
