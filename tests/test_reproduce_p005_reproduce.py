"""Paper 005's stages: what each writes, the rows it carries, and a real-stack stage that did not run."""

from __future__ import annotations

from stage_helpers import model_fixture, opened, written

from paperlib.reproduce.p005 import ledger_rows, reproduce

staged = model_fixture("005", emulation="off")


def test_the_model_writes_its_tables_and_figures_and_carries_the_model_s_rows(staged):
    run, r = staged
    assert written(run) == {"convention_search.csv", "page.csv", "handshakes.csv", "initial_windows.csv",
                            "plt_vs_loss_model.csv", "plt_vs_loss.png", "iw_gain.csv", "iw_gain_heatmap.png",
                            "narrowband.csv", "narrowband.png"}
    assert set(r.tables) | set(r.figures) == written(run)
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)


def test_real_stacks_off_say_so_stamp_the_choice_and_add_the_real_stacks_rows(staged, tmp_path):
    run = opened("005", tmp_path, emulation="off")  # a later stage writes into its own run's folder
    r = reproduce.with_real_stacks(run, staged[1], emulation="off")
    assert "not run" in r.notes["runs"] and r.real_stacks.not_run
    assert {"emulated_summary.csv", "plt_vs_loss_real_stacks.png"} <= written(run)
    assert dict(r.stamp_parameters) == {"emulation": "off"}
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search, real_stacks=r.real_stacks)
