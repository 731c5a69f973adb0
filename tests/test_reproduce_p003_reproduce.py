"""Paper 003's stages: what the model writes and the rows it carries; an ns-3 stage that did not run."""

from __future__ import annotations

from stage_helpers import opened, written

from paperlib.reproduce.p003 import ledger_rows, reproduce

PARAMETERS = dict(within_class=None, n_samples=2000, run_simulation=False, n_servers=[1], k_clients=2,
                  repetitions=1, sim_time_s=3.0, warmup_s=1.0, queue_limit_packets=100, scheduler="synchronous",
                  n_workers=None, seed=1)


def test_the_model_writes_its_tables_and_figures_and_the_ns3_stage_that_did_not_run_says_so(tmp_path):
    run = opened("003", tmp_path, **PARAMETERS)
    r = reproduce.model(run)
    assert written(run) == {"convention_search.csv", "derived_numbers.csv", "users_to_fill.csv",
                            "workload_moments.csv", "class_distributions.png", "file_size_cdf.png"}
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)
    assert {"typo_cells_correct", "cells_per_segment"} <= set(r.derived)  # what the ns-3 figures mark
    skipped = reproduce.with_ns3(run, r, replications=1, cache_dir=tmp_path / "cache", seed=1, run_simulation=False,
                                 n_servers=[1], k_clients=2, sim_time_s=3.0, warmup_s=1.0, queue_limit_packets=100)
    assert skipped.notes["ns3"] == "simulation skipped (run_simulation = False)"
    assert skipped.rows == r.rows and skipped.simulations is None and set(skipped.figures) == set(r.figures)
