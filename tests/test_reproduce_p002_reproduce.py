"""Paper 002's stages: what each writes, the rows it carries, an ns-3 stage and a real-stack stage that did not run."""

from __future__ import annotations

from stage_helpers import model_fixture, opened, written

from paperlib.reproduce.p002 import ledger_rows, reproduce

PARAMETERS = dict(repetitions=2, run_simulation=False, scheduler="synchronous", n_workers=None, seed=1,
                  obj_size_bytes=None, rate_bps=None, rtt_s=None)


staged = model_fixture("002", **PARAMETERS)


def test_the_model_writes_its_tables_and_figures_and_carries_the_model_s_rows(staged):
    run, r = staged
    assert written(run) == {"convention_search.csv", "table2_regenerated.csv", "table3_regenerated.csv",
                            "what_if_response_vs_p.csv", "what_if_response_vs_p.png"}
    assert set(r.regenerated) == {"table2", "table3"}
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)


def test_without_the_simulation_the_figure_is_drawn_and_the_rows_say_ns3_did_not_run(staged, tmp_path, capsys):
    run = opened("002", tmp_path, **PARAMETERS)  # a later stage writes into its own run's folder
    r = reproduce.with_ns3(run, staged[1], replications=2, cache_dir=tmp_path / "cache", seed=1,
                           run_simulation=False)
    assert "simulation skipped (run_simulation = False)" in capsys.readouterr().out
    assert r.simulations is None and "ns3_summary.csv" not in written(run)
    assert "response_vs_p_and_rtt.png" in r.figures
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search, simulations=None)
    r = reproduce.with_real_stacks(run, r, emulation="off")
    assert "not run" in r.notes["runs"] and dict(r.stamp_parameters) == {"emulation": "off"}
    assert {"emulated_tables.csv", "emulated_vs_published.png"} <= written(run)
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search, real_stacks=r.real_stacks)
