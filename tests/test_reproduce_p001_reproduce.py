"""Paper 001's stages: what the model writes and the rows it carries; the real stacks need the ns-3 runs first.

The ns-3 stage itself runs in the notebook's nbval fixture and in ``tests/test_notebooks.py``'s paper runs.
"""

from __future__ import annotations

import pytest
from stage_helpers import model_fixture, written

from paperlib.reproduce.p001 import emulated, figure_cells, ledger_rows, reproduce

staged = model_fixture("001", n_samples=2000, emulation="off")


def test_the_model_writes_what_needs_no_simulation_and_carries_its_rows(staged):
    run, r = staged
    assert written(run) == {"table3_search.csv", "table3_regenerated.csv", "traffic_model_moments.csv",
                            "traffic_model.png", "implied_load.csv", "mean_sources.csv", "queue_configurations.csv"}
    assert r.profile == run.checked.profile and len(r.queue_configs) == 10  # FIFO-60/120/180, RED-A/B/C x2, RED-A-180
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)
    assert r.runs is None and r.fit is None


def test_the_real_stacks_before_the_ns3_runs_are_refused_naming_the_stage(staged):
    run, r = staged
    with pytest.raises(ValueError, match="call with_ns3 first"):
        reproduce.with_real_stacks(run, r, emulation="off")


def test_the_figures_beside_ns3_are_named_after_the_paper_s_in_its_order():
    assert reproduce.beside_figures() == [emulated.beside_name(n) for n in figure_cells.PAPER_FIGURES]
    assert reproduce.beside_figures()[3] == "fig9_fifo_vs_red_a_cdf_real_vs_ns3.png"
