"""Seed 003's figures: drawn from the data given, coloured from the style registry, saved with the stamp."""

import numpy as np
import pandas as pd
import pytest
from p003_helpers import CHOSEN

from paperlib.data import load_paper
from paperlib.figures import PROTOCOLS, SERIES
from paperlib.provenance import Stamp
from paperlib.reproduce.p003 import figures, workload

STAMP = Stamp(notebook="notebooks/003_specweb96_abr.ipynb", parameters={}, seed=1)


@pytest.fixture()
def drawn(monkeypatch):
    """Keep each figure instead of closing it; still write the PNG."""
    kept = []

    def keep(fig, path, stamp):
        kept.append(fig)
        fig.savefig(path)
        return path

    monkeypatch.setattr(figures, "save_figure", keep)
    yield kept
    import matplotlib.pyplot as plt

    for fig in kept:
        plt.close(fig)


@pytest.fixture(scope="module")
def w():
    return workload.conv_workloads(load_paper("003"), CHOSEN)


def test_class_distributions_take_registry_colours(w, drawn, tmp_path):
    path = figures.class_distributions_figure(w, tmp_path / "c.png", STAMP)
    assert path.exists()
    axes = drawn[0].axes
    # bars: each workload in its own colour; lines: one per within-class reading
    from matplotlib.colors import to_hex

    assert to_hex(axes[0].patches[0].get_facecolor()) == SERIES["specweb96"]["color"]
    assert to_hex(axes[1].patches[0].get_facecolor()) == SERIES["specweb96_modified"]["color"]
    assert [line.get_color() for line in axes[2].lines] == [SERIES[f"within_class_{k}"]["color"]
                                                            for k in ("uniform", "binomial", "truncated_poisson")]
    # the probabilities of the nine files of a uniform class: 1/9 each
    assert axes[2].lines[0].get_ydata() == pytest.approx([1 / 9] * 9)


def test_file_size_cdf_ends_at_one(w, drawn, tmp_path):
    figures.file_size_cdf_figure(w, "uniform", 1, tmp_path / "cdf.png", STAMP, n_samples=500)
    lines = drawn[0].axes[0].lines
    # exact and sampled CDF per workload, each reaching 1
    assert len(lines) == 4 and all(line.get_ydata()[-1] == pytest.approx(1.0) for line in lines)
    assert lines[0].get_color() == SERIES["specweb96"]["color"]


def test_analogue_figures(drawn, tmp_path):
    summary = pd.DataFrame({"N": [1, 2], "published_efficiency_pct": [17.4, 40.5], "efficiency_pct": [18.0, 39.0],
                            "efficiency_pct_ci95": [1.0, 1.0], "efficiency_packet_pct": [14.0, 30.0],
                            "efficiency_packet_pct_ci95": [1.0, 1.0], "published_queue_cells": [3677.0, 6154.0],
                            "queue_cells": [100.0, 2000.0], "queue_cells_ci95": [10.0, 100.0]})
    figures.efficiency_queue_figure(summary, 3667.9, tmp_path / "e.png", STAMP)
    eff = drawn[0].axes[0]
    assert eff.lines[0].get_color() == PROTOCOLS["abr"]["color"]
    assert eff.lines[0].get_ydata().tolist() == [17.4, 40.5]
    sims = pd.DataFrame({"n_servers": [1, 1], "rep": [0, 1], "queue_times_s": [[0.0, 1.0], [0.0, 1.0]],
                         "queue_packets": [[0, 3], [0, 4]]})
    figures.queue_time_figure(sims, 12.0, tmp_path / "q.png", STAMP)
    # repetition 0 only: 3 packets x 12 cells
    assert np.asarray(drawn[1].axes[0].lines[0].get_ydata()).tolist() == [0.0, 36.0]
