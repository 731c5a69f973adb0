"""Paper 004's stages: what each writes, the rows it carries, and a real-stack stage that did not run."""

from __future__ import annotations

from stage_helpers import model_fixture, opened, written

from paperlib.reproduce.p004 import ledger_rows, reproduce

staged = model_fixture("004", emulation="off")


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
