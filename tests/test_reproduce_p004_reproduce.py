"""Paper 004's stages: what each writes, the rows it carries, and a real-stack stage that did not run."""

from __future__ import annotations

import pytest
from stage_helpers import opened, written

from paperlib.reproduce.p004 import ledger_rows, reproduce


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The model stage's run and result, made once for the module (seconds)."""
    run = opened("004", tmp_path_factory.mktemp("model"), emulation="off")
    return run, reproduce.model(run)


def test_the_model_writes_its_tables_and_figures_and_carries_the_model_s_rows(staged):
    run, r = staged
    assert written(run) == {"convention_search.csv", "table2_regenerated.csv", "closed_form_vs_schedule.csv",
                            "latency_vs_bandwidth.png", "latency_vs_initial_window.csv",
                            "latency_vs_initial_window.png", "mean_difference.csv"}
    assert set(r.tables) | set(r.figures) == written(run)
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)
    assert set(r.notes) == {"chosen", "summary"} and r.real_stacks is None


def test_real_stacks_off_say_so_and_add_the_real_stacks_rows(staged, tmp_path):
    run = opened("004", tmp_path, emulation="off")  # a later stage writes into its own run's folder
    r = reproduce.with_real_stacks(run, staged[1], emulation="off")
    assert "not run" in r.notes["runs"] and r.real_stacks.not_run
    assert {"emulated_table2.csv", "emulated_vs_published.png"} <= written(run)
    assert "emulator_accuracy.csv" not in r.tables  # the testbed measures nothing when off
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search, real_stacks=r.real_stacks)
