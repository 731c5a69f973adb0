"""Paper 003's figures: drawn from the data given, coloured from the registry, returned for the caller to save."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from p003_helpers import CHOSEN

from paperlib.data import load_paper
from paperlib.figures import PROTOCOLS, SERIES, save_figure
from paperlib.provenance import Stamp
from paperlib.reproduce.p003 import figures, workload

STAMP = Stamp(notebook="notebooks/003_specweb96_abr.ipynb", parameters={}, seed=1)


@pytest.fixture()
def drawn():
    """Collect the figures a test draws; close them after it."""
    kept: list[Figure] = []
    yield kept
    import matplotlib.pyplot as plt

    for fig in kept:
        plt.close(fig)


@pytest.fixture(scope="module")
def w():
    return workload.conv_workloads(load_paper("003"), CHOSEN)


def test_class_distributions_take_registry_colours(w, drawn):
    fig = figures.class_distributions_figure(w)
    drawn.append(fig)
    axes = fig.axes
    # bars: each workload in its own colour; lines: one per within-class reading
    from matplotlib.colors import to_hex

    assert to_hex(axes[0].patches[0].get_facecolor()) == SERIES["specweb96"]["color"]
    assert to_hex(axes[1].patches[0].get_facecolor()) == SERIES["specweb96_modified"]["color"]
    assert [line.get_color() for line in axes[2].lines] == [SERIES[f"within_class_{k}"]["color"]
                                                            for k in ("uniform", "binomial", "truncated_poisson")]
    # the probabilities of the nine files of a uniform class: 1/9 each
    assert axes[2].lines[0].get_ydata() == pytest.approx([1 / 9] * 9)


def test_file_size_cdf_ends_at_one(w, drawn):
    drawn.append(figures.file_size_cdf_figure(w, "uniform", 1, n_samples=500))
    lines = drawn[0].axes[0].lines
    # exact and sampled CDF per workload, each reaching 1
    assert len(lines) == 4 and all(line.get_ydata()[-1] == pytest.approx(1.0) for line in lines)
    assert lines[0].get_color() == SERIES["specweb96"]["color"]


def test_analogue_figures(drawn):
    summary = pd.DataFrame({"N": [1, 2], "published_efficiency_pct": [17.4, 40.5], "efficiency_pct": [18.0, 39.0],
                            "efficiency_pct_ci95": [1.0, 1.0], "efficiency_packet_pct": [14.0, 30.0],
                            "efficiency_packet_pct_ci95": [1.0, 1.0], "published_queue_cells": [3677.0, 6154.0],
                            "queue_cells": [100.0, 2000.0], "queue_cells_ci95": [10.0, 100.0]})
    drawn.append(figures.efficiency_queue_figure(summary, 3667.9))
    eff = drawn[0].axes[0]
    assert eff.lines[0].get_color() == PROTOCOLS["abr"]["color"]
    assert eff.lines[0].get_ydata().tolist() == [17.4, 40.5]
    sims = pd.DataFrame({"n_servers": [1, 1], "rep": [0, 1], "queue_times_s": [[0.0, 1.0], [0.0, 1.0]],
                         "queue_packets": [[0, 3], [0, 4]]})
    drawn.append(figures.queue_time_figure(sims, 12.0))
    # repetition 0 only: 3 packets x 12 cells
    assert np.asarray(drawn[1].axes[0].lines[0].get_ydata()).tolist() == [0.0, 36.0]


def test_every_figure_is_returned_open_and_the_caller_saves_it(w, tmp_path):
    import matplotlib.pyplot as plt
    from PIL import Image

    fig = figures.class_distributions_figure(w)
    # returned, not saved or closed: the figure is still registered with pyplot
    assert isinstance(fig, Figure) and plt.fignum_exists(fig.number)
    path = save_figure(fig, tmp_path / "c.png", STAMP)
    # save_figure writes the PNG with the stamp in its metadata and closes the figure
    assert not plt.fignum_exists(fig.number)
    assert Image.open(path).text["Source"].startswith("notebooks/003_specweb96_abr.ipynb")
