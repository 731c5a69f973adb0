"""Paper 000's stages: what each writes, the rows it carries, an ns-3 stage and a real-stack stage that did not run."""

from __future__ import annotations

from stage_helpers import model_fixture, opened, written

from paperlib.reproduce.p000 import ledger_rows, reproduce, what_if

staged = model_fixture("000", m_values=[1, 2, 8], p=0.02)


def test_the_model_writes_its_tables_and_figures_and_carries_the_model_s_rows(staged):
    run, r = staged
    assert written(run) == {
        "figure2_schedule_check.csv", "eq7_eq8_schedule_check.csv", "convention_search.csv", "response_times.csv",
        "printed_departures.csv", "table1_regenerated.csv", "table2_regenerated.csv", "table3_regenerated.csv",
        "law_in_m.csv", "shared_operating_point.csv", "figure4_data.csv", "figure4_waiting_times.png",
        "waiting_vs_users.csv", "waiting_vs_users.png", "diff_mean.csv"}
    assert list(r.regenerated_tables) == ["Table 1", "Table 2", "Table 3"]
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search)
    assert set(r.notes) == {"convention", "summary"}


def test_no_replications_skip_ns3_with_a_note_and_real_stacks_off_say_so(staged, tmp_path):
    run, model = opened("000", tmp_path), staged[1]  # a later stage writes into its own run's folder
    r = reproduce.with_ns3(run, model, replications=0, cache_dir=tmp_path / "cache", seed=1)
    assert r.notes["ns3"] == "ns-3 check skipped (ns3_replications = 0)"
    assert r.rows == model.rows and r.simulations is None and "ns3_tables.csv" not in written(run)
    r = reproduce.with_real_stacks(run, r, emulation="off")
    assert "not run" in r.notes["runs"] and dict(r.stamp_parameters) == {"emulation": "off"}
    assert {"emulated_tables.csv", "emulated_vs_published.png"} <= written(run)
    assert list(r.rows) == ledger_rows.ledger_rows(run.paper, search=r.search, real_stacks=r.real_stacks)


def test_the_run_s_seed_is_stamped_only_when_ns3_samples():
    assert what_if.run_seed(20261123, 3) == 20261123
    assert what_if.run_seed("7", 1) == 7  # papermill may hand the seed over as text
    assert what_if.run_seed(20261123, 0) is None  # the model is deterministic
