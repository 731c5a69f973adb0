"""Paper 000 on real stacks: the grid, the waiting time of a run, the claims re-judged by CI, the rows shown."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from paperlib import replications
from paperlib.emulation import experiments
from paperlib.emulation import notebook as emulation_notebook
from paperlib.reproduce.p000 import claims, emulated, operating_point


def test_grid(paper):
    n_proto = len(experiments.protocols())
    assert emulated.points(paper, "off") == []
    # 000: 9 blocks, "4 Kbps" read as 40 Kbps -> 7 distinct points, m in {1, 5} (reduced), the pilot's 5 repetitions
    assert len(emulated.points(paper, "reduced")) == 7 * 2 * replications.PILOT * n_proto == 7 * 2 * 5 * n_proto
    assert emulated.users_of("full") == [5, 10, 20, 30]
    # 13.5 KB with KB = 1000 (the chosen convention) and MSS 536 B
    assert {(p["object_bytes"], p["mss_bytes"]) for p in emulated.points(paper, "reduced")} == {(13_500, 536)}


def test_waiting_is_mean_turnaround_minus_single_user_time():
    runs = pd.DataFrame([
        {"protocol": "tcp", "rate_bps": 40e3, "rtt_s": 0.256, "loss": 0.01, "users": m, "rep": r, "t0": 1.0,
         "t_done": done}
        for m, r, done in ((1, 0, [5.0]), (1, 1, [7.0]), (2, 0, [11.0, 13.0]), (2, 1, [13.0, 15.0]))])
    reps = emulated.per_repetition(runs)
    # turnarounds: m = 1: 4, 6 (mean 5); m = 2: mean(10, 12) = 11, mean(12, 14) = 13 (mean 12) -> W = 12 - 5 = 7 s
    assert reps["turnaround_s"].tolist() == [4.0, 6.0, 11.0, 13.0]

    class Point:
        rate_bps, rtt_s, p = 40e3, 0.256, 0.01

    mean, half, n, alone = emulated.waiting(reps, "tcp", 2, Point)
    assert (mean, n, alone) == (pytest.approx(7.0), 2, pytest.approx(5.0)) and half > 0
    # not run: nan, 0 repetitions
    assert emulated.waiting(reps, "sctp", 2, Point)[2] == 0


def test_a_cell_is_planned_on_its_waiting_time_per_replication_and_extends_both_kinds_of_runs(paper):
    # Table 3's block at 256 ms (p = 1 %), m = 5, TCP: single-user runs 4, 4, 4, 4, 4 s, m = 5 runs 10, 12, 10, 10,
    # 10 s (turnarounds from the common start at 0): waiting time per replication 6, 8, 6, 6, 6 s (sd 0.894 s)
    pts = operating_point.operating_points(paper)
    (cell,) = [c for c in operating_point.printed_cells(paper, ["T_{tcp}"])
               if c.table == "table3" and c.m == 5 and np.isclose(pts[c.point].rtt_s, 0.256)]
    pt = pts[cell.point]
    where = {"protocol": "tcp", "rate_bps": pt.rate_bps, "rtt_s": pt.rtt_s, "loss": pt.p, "t0": 0.0}
    runs = pd.DataFrame([{**where, "users": 1, "rep": k, "t_done": [4.0]} for k in range(5)]
                        + [{**where, "users": 5, "rep": k, "t_done": [d] * 5}
                           for k, d in enumerate([10, 12, 10, 10, 10])])
    cells = [c for c in emulated.measured_cells(paper, runs) if c.values]
    # the cells printed at this point with m = 5 (TCP), each with the five differences
    assert cells and all(c.values == (6.0, 8.0, 6.0, 6.0, 6.0) for c in cells)
    mine = next(c for c in cells if c.label == f"{operating_point.SOURCES['table3']}, {cell.row}, T_{{tcp}}")
    assert mine.at == {"protocol": "tcp", "rate_bps": pt.rate_bps, "rtt_s": pt.rtt_s, "loss": pt.p, "users": (1, 5)}
    assert mine.printed == float(cell.compare_as)
    plans = emulation_notebook.measured_plans(cells)
    extra = emulation_notebook.more_points(emulated.points(paper, "reduced"), plans, runs)
    # Table 3 prints T = 3.35 s there: 5% is 0.1675 s, about ((2.0 + 0.84) x 0.894 / 0.1675)^2 = 230 replications
    # by normal quantiles (226 by t quantiles), more than the 20 it runs, and the plan says so
    plan = next(p for p in plans if p.label == mine.label)
    assert (plan.printed, plan.plan.n, plan.plan.n_needed) == (3.35, replications.MEASURED_REPLICATIONS, 226.0)
    # both kinds of runs of the cell get the same new repetitions, 5 to 19
    assert sorted((p["users"], p["rep"]) for p in extra) == sorted((m, k) for m in (1, 5) for k in range(5, 20))


def _table(rows):
    cols = ["table", "block", "m", "emulated W TCP (s)", "CI95 TCP (s)", "n TCP", "emulated W SCTP (s)",
            "CI95 SCTP (s)", "n SCTP"]
    return pd.DataFrame(rows, columns=cols)


@pytest.fixture(scope="module")
def evidence(paper):
    return claims.evidence(paper, operating_point.ledger_convention(paper))


def _on(evidence, table):
    """Return ``evidence`` carrying the emulated ``table`` (what ledger_rows passes when the real stacks ran)."""
    return dataclasses.replace(evidence, real_stacks=table)


def test_sctp_less_than_tcp_decided_by_the_ci(evidence):
    # one row, W_tcp - W_sctp = 3 - 1 = 2 s, half-width sqrt(0.5^2 + 0.5^2) / 1 = 0.707 s: CI above 0 -> supported
    t = _table([("Table 1", "1 %", 5, 3.0, 0.5, 3, 1.0, 0.5, 3)])
    row = claims.sctp_less_than_tcp_on_real_stacks(_on(evidence, t))
    assert row.status == "supported" and row.column == "emulated (real stacks)"
    assert "2.000 s +/- 0.707 s" in row.reason and row.regenerated == pytest.approx(2.0)
    # the difference within its CI of 0 -> inconclusive: 0.2 s +/- 0.707 s over 3 repetitions, s = 0.707 sqrt(3) /
    # t(0.975, 2) = 1.2247 / 4.3027 = 0.28463; t(n - 1) s / sqrt(n) against 0.2: n = 10 gives 2.2622 x 0.28463 /
    # 3.1623 = 0.2036 (not below), n = 11 gives 2.2281 x 0.28463 / 3.3166 = 0.1912: 11.
    # W_tcp below W_sctp beyond the CI -> refuted
    undecided = claims.sctp_less_than_tcp_on_real_stacks(
        _on(evidence, _table([("Table 1", "1 %", 5, 1.2, 0.5, 3, 1.0, 0.5, 3)])))
    assert undecided.status == "inconclusive" and undecided.replications_to_decide == 11
    assert claims.sctp_less_than_tcp_on_real_stacks(
        _on(evidence, _table([("Table 1", "1 %", 5, 0.0, 0.5, 3, 2.0, 0.5, 3)]))).status == "refuted"
    # two rows: differences 2 and 0 s, each +/- 0.707 s: mean 1 s +/- sqrt(2 x 0.5) / 2 = 0.5 s -> supported
    two = _table([("Table 1", "1 %", 5, 3.0, 0.5, 3, 1.0, 0.5, 3), ("Table 1", "2 %", 5, 1.0, 0.5, 3, 1.0, 0.5, 3)])
    assert "over 2 emulated rows = 1.000 s +/- 0.500 s" in claims.sctp_less_than_tcp_on_real_stacks(
        _on(evidence, two)).reason
    # one stack only: untestable, saying what is needed
    none = claims.sctp_less_than_tcp_on_real_stacks(
        _on(evidence, _table([("Table 1", "1 %", 5, 3.0, 0.5, 3, np.nan, np.nan, 0)])))
    assert none.status == "untestable" and "needs both stacks" in none.reason


def test_rtt_grows_rapidly_decided_by_the_ci(evidence):
    # TCP at m = 5: W(256 ms) - W(55 ms) = 9 - 2 = 7 s, half-width hypot(1, 1) = 1.41 s: above 0 -> supported
    t = _table([("Table 3", "55 ms", 5, 2.0, 1.0, 3, np.nan, np.nan, 0),
                ("Table 3", "256 ms", 5, 9.0, 1.0, 3, np.nan, np.nan, 0)])
    row = claims.rtt_grows_rapidly_on_real_stacks(_on(evidence, t))
    assert row.status == "supported" and "+7.00 +/- 1.41 s" in row.reason
    # a fall beyond the CI -> refuted; no Table 3 rows -> untestable
    t.loc[1, "emulated W TCP (s)"] = -2.0
    assert claims.rtt_grows_rapidly_on_real_stacks(_on(evidence, t)).status == "refuted"
    assert claims.rtt_grows_rapidly_on_real_stacks(_on(evidence, _table([]))).status == "untestable"


def test_the_claims_add_their_real_stack_verdict_only_when_the_evidence_carries_it(paper, evidence):
    # without real stacks every claim has its one verdict on the published tables; with them, the two claims the
    # emulated W can judge add one each (column emulated (real stacks)), the others do not change
    plain = claims.CLAIMS.rows(paper, evidence)
    both = claims.CLAIMS.rows(paper, _on(evidence, _table([])))
    assert len(plain) == 11 and len(both) == 13
    assert [r for r in both if r.column != claims.REAL_STACKS] == plain
    added = [r.row for r in both if r.column == claims.REAL_STACKS]
    ids = list(paper.claims.cells["id"])
    judged = ("sctp_less_than_tcp", "rtt_grows_rapidly")
    assert added == [paper.claims.cells["claim"].iloc[ids.index(i)] for i in judged]


def test_shown_rows_in_figure_and_summary_text():
    t = _table([("Table 1", "1 %", 5, 3.0, 0.5, 3, np.nan, np.nan, 0), ("Table 1", "1 %", 10, np.nan, np.nan, 0,
                                                                           np.nan, np.nan, 0)])
    assert emulated.shown(t)["m"].tolist() == [5]
    assert len(emulated.shown(t.assign(**{"n TCP": 0}))) == 2
    # the figure: rows with a stack emulated if any, else the m = 5 rows
    assert emulated.rows_in_figure(t)["m"].tolist() == [5]
    assert emulated.rows_in_figure(t.assign(**{"n TCP": 0}))["m"].tolist() == [5]
    assert emulated.rows_in_figure(t.assign(**{"n TCP": 0, "n SCTP": [0, 3]}))["m"].tolist() == [10]

    # one experimental cell close (its interval within 5% of the print), one not run, one other row: 1 of 2
    frame = pd.DataFrame({"reason": ["x", "y", "z"], "rel_error": ["0.01", "", ""],
                          "column": ["T_{tcp}", "T_{tcp}", "claim"],
                          "status": ["measured_close", "not_regenerable", "supported"],
                          "emulation": ["ran", "not run", ""]})
    text = emulated.summary_text(frame, "no TUN")
    assert text.startswith("**Real stacks.** 1 of 2 published experimental cells") and "; no TUN)" in text
