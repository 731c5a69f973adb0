"""Paper 000's ns-3 check without ns-3: the summary of hand-made runs, the bound, the tables, the ledger rows."""

import numpy as np
import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p000 import claims, ledger_rows, ns3, operating_point
from paperlib.validate import ParameterError

POINT = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256, "p": 0.0}


# --- the summary, on hand-made runs -------------------------------------------------------------


def _runs(values_by_m):
    rows = []
    for m, values in values_by_m.items():
        for r, v in enumerate(values):
            rows.append({**POINT, "users": m, "min_rto_s": 0.256, "rep": r, "seed": r + 1, "mean_turnaround_s": v,
                         "data_drops": 0, "queue_drops": 0, "wire_packets": 0})
    return pd.DataFrame(rows)


def test_summary_waiting_is_turnaround_minus_single_user_time_with_ci():
    s = ns3.ns3_summary(_runs({1: [4.0, 6.0], 5: [20.0, 24.0]})).set_index("users")
    # T(5) = 22, T(1) = 5: W = 17 s. CI of T(5): t(0.975, 1) x sd / sqrt(2) = 12.706 x 2.828 / 1.414 = 25.41 s.
    assert s.loc[5, "waiting_s"] == pytest.approx(17.0)
    assert s.loc[5, "turnaround_ci95_s"] == pytest.approx(12.7062 * 2.0, rel=1e-4)
    # Welch: variances 8 (20, 24) and 2 (4, 6), se^2 = 8/2 + 2/2 = 5, df = 5^2 / (4^2/1 + 1^2/1) = 25/17.
    from scipy import stats

    assert s.loc[5, "waiting_ci95_s"] == pytest.approx(stats.t.ppf(0.975, 25 / 17) * np.sqrt(5))
    assert s.loc[1, "waiting_s"] == pytest.approx(0.0)


def test_unfinished_runs_are_counted_but_not_averaged():
    s = ns3.ns3_summary(_runs({1: [4.0, 4.0], 5: [20.0, None]})).set_index("users")
    assert (s.loc[5, "runs"], s.loc[5, "finished"]) == (2, 1)
    assert s.loc[5, "turnaround_s"] == 20.0 and np.isnan(s.loc[5, "turnaround_ci95_s"])


def test_lower_bound_by_hand():
    # m = 30, 13.5 KB, 40 kbit/s, 256 ms: 2 x 0.256 + 31/2 x 2.7 = 42.362 s.
    assert float(ns3.mean_turnaround_lower_bound_s(30, 13_500, 40_000, 0.256)) == pytest.approx(42.362)
    with pytest.raises(ParameterError, match="m"):
        ns3.mean_turnaround_lower_bound_s(0, 13_500, 40_000, 0.256)


def _simulations(ns3_w_of_model, ci):
    """Return paper 000, its chosen convention and an ns-3 record whose W is ``ns3_w_of_model`` of the model's."""
    paper = load_paper("000")
    conv = operating_point.chosen_convention(paper)
    table = ns3.ns3_tables(paper, conv, _EMPTY)
    assert len(table) == 36 and table["ns3 W"].isna().all()  # one row per printed row; nothing simulated yet
    table["ns3 W"] = ns3_w_of_model(table["model W (tables' law)"])
    table["ns3 W ci95"] = ci
    table["ns3 T"], table["ns3 T ci95"], table["runs"] = table["ns3 W"] + 4.0, ci, 3
    return paper, conv, ns3.Simulations(replications=3, table=table, setup=pd.DataFrame())


_EMPTY = pd.DataFrame(columns=[*ns3.POINT_KEYS, "users", "waiting_s", "waiting_ci95_s", "turnaround_s",
                               "turnaround_ci95_s", "finished"])


def test_cell_rows_keep_t_tcp_not_regenerable_beside_the_experiments_own_rows():
    paper, conv, simulations = _simulations(lambda w: 10 * w, 0.1)
    rows = ns3.cell_rows(paper, conv, simulations.table)
    assert len(rows) == 36
    assert {r.status for r in rows} == {"not_regenerable"} and {r.column for r in rows} == {"T_{tcp} (ns-3)"}
    assert "95% CI +/- 0.10 s over 3 seeded runs" in rows[0].reason
    # Table 2's "4 Kbps" block carries its correction, as in the ledger's own rows
    assert all("read as '40 Kbps'" in r.reason for r in rows if r.row.startswith("4 Kbps"))


def test_the_claim_on_ns3_is_decided_only_where_the_cis_decide():
    # ns-3 ten times the model with a tight CI: the model is below in every row, also in Tables 1-2 where the
    # claim says above -> refuted.
    paper, _, simulations = _simulations(lambda w: 10 * w, 0.1)
    evidence = claims.evidence(paper, operating_point.ledger_convention(paper), simulations=simulations)
    in_tables, on_ns3 = claims.over_under_estimate(evidence)
    assert in_tables.column == "claim" and on_ns3.column == "claim (ns-3, TCP)"
    assert on_ns3.status == "refuted"
    assert "95% CI half-width of 0.10 to 0.10 s (3 to 3 seeded runs per row)" in on_ns3.reason
    # in the ledger: the model's rows, then the 36 cells and the claim, which the notebook's table shows
    rows = ledger_rows.ledger_rows(paper, simulations=simulations)
    assert rows[:-37] == ledger_rows.ledger_rows(paper)
    assert [r.column for r in rows[-37:]] == ["T_{tcp} (ns-3)"] * 36 + ["claim (ns-3, TCP)"]
    assert ns3.claim_table(rows)["verdict on ns-3 (TCP)"].tolist() == ["refuted"]
    # ns-3 equal to the model with a CI of +/- 1 s: no row decided -> inconclusive; the model on every CI's centre
    # is at distance 0 from it, so no number of runs would decide it: more than the cap.
    paper, _, simulations = _simulations(lambda w: w, 1.0)
    evidence = claims.evidence(paper, operating_point.ledger_convention(paper), simulations=simulations)
    undecided = claims.over_under_estimate(evidence)[-1]
    assert undecided.status == "inconclusive" and "more than 100000 replications would decide it" in undecided.reason


def test_nothing_simulated_adds_no_row():
    # nothing simulated: no cell row, and no claim row
    paper = load_paper("000")
    conv = operating_point.chosen_convention(paper)
    simulations = ns3.Simulations(replications=2, table=ns3.ns3_tables(paper, conv, _EMPTY), setup=pd.DataFrame())
    assert ns3.cell_rows(paper, conv, simulations.table) == []
    assert ledger_rows.ledger_rows(paper, simulations=simulations) == ledger_rows.ledger_rows(paper)


def test_points_pin_the_tcp_model():
    paper = load_paper("000")
    conv = operating_point.chosen_convention(paper)
    pts = ns3.ns3_points(paper, conv, 2)
    # 9 printed blocks, 3 of them the same point (p = 1 %, 256 ms, 40 Kbps) -> 7 points x 5 m x 2 replications
    assert len(pts) == 7 * 5 * 2
    assert {p["initial_cwnd"] for p in pts} == {1} and {p["mss_bytes"] for p in pts} == {536}
    # minimum RTO = the chosen convention's timeout (1 rtt)
    assert all(p["min_rto_s"] == pytest.approx(p["rtt_s"]) for p in pts)
    with pytest.raises(ParameterError, match="m_values"):
        ns3.ns3_points(paper, conv, 2, m_values=(5, 10))


def test_the_users_of_the_ns3_check_default_to_the_tables_and_are_checked():
    from paperlib.reproduce.p000 import ns3 as p000_ns3
    from paperlib.validate import ParameterError

    assert p000_ns3.users_of(None) == (5, 10, 20, 30)  # the printed m (1 always runs, as the baseline)
    assert p000_ns3.users_of([10, 5]) == (5, 10)
    for bad in ([1, 5], [5, 5], [], [0], ["x"]):
        with pytest.raises(ParameterError, match="ns3_users"):
            p000_ns3.users_of(bad)
