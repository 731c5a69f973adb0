"""Paper 001's figure cells: which cells of the testbed each of Figs. 3-9 draws, in which style."""

import pytest

from paperlib.data import load_paper
from paperlib.figures import LOADS
from paperlib.reproduce.p001 import figure_cells, findings, testbed

PAPER = load_paper("001")
QCONF = testbed.queue_configs(PAPER)
GROUPS = findings.groups(QCONF)
LOADS_001 = testbed.loads(PAPER)


def test_selections_follow_the_papers_figures():
    selections = figure_cells.response_cdf_selections(GROUPS, LOADS_001)
    assert list(selections) == list(figure_cells.PAPER_FIGURES[:4])
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


def test_cells_and_style_of_a_cdf_figure_and_a_queue_figure():
    # Fig. 9: FIFO-180 and RED-A-180 at 80 and 98 %, on both latency sets: 2 x 2 x 2 = 8 cells, short ones first
    cells = figure_cells.cells("fig9_fifo_vs_red_a_cdf.png", GROUPS, LOADS_001)
    assert len(cells) == 8 and cells[0][2] == "short" and cells[-1][2] == "long"
    assert {(c, x) for c, x, _ in cells} == {("FIFO-180", 0.8), ("RED-A-180", 0.8), ("FIFO-180", 0.98),
                                             ("RED-A-180", 0.98)}
    styles, title = figure_cells.style("fig9_fifo_vs_red_a_cdf.png", GROUPS, LOADS_001)
    assert styles[("RED-A-180", 0.98)]["ls"] == "--" and title.startswith("Fig. 9 regenerated")
    # Fig. 8: its four panels clockwise from the top left, each labelled
    cells = figure_cells.cells("fig8_red_queue_240.png", GROUPS, LOADS_001)
    assert cells == figure_cells.FIG8_PANELS[0]
    labels, _ = figure_cells.style("fig8_red_queue_240.png", GROUPS, LOADS_001)
    assert labels == dict(zip(*figure_cells.FIG8_PANELS, strict=True))
    # every paper figure has cells; a name that is not one is named in the error
    assert all(figure_cells.cells(n, GROUPS, LOADS_001) for n in figure_cells.PAPER_FIGURES)
    with pytest.raises(ValueError, match="fig99.png"):
        figure_cells.cells("fig99.png", GROUPS, LOADS_001)
    with pytest.raises(ValueError, match="fig99.png"):
        figure_cells.style("fig99.png", GROUPS, LOADS_001)
