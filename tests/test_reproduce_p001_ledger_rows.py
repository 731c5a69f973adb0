"""Paper 001's ledger rows: Table 3, the calibration line, the text's numbers and the claims."""

import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p001 import claims, ledger_rows, operating_point, sweeps, testbed

PAPER = load_paper("001")


def test_table3_ledger_rows_read_the_95_percent_label_as_a_typo():
    rows = ledger_rows.table3_rows(PAPER, operating_point.convention_search(PAPER))
    counts = [r for r in rows if r.column == "The Number of Browsers"]
    # 2770, 3111, 3384: the line inverted at 80, 90, 98 % of 10 Mbit/s in kbit/s, truncated (test_reproduce_p001_tables)
    assert [(r.published, r.status) for r in counts] == [("2770", "reproduced"), ("3111", "reproduced"),
                                                         ("3384", "reproduced")]
    [label] = [r for r in rows if r.column == "Traffic Load"]
    assert (label.published, label.status, label.rel_error) == ("95%", "typo", "")
    assert "corrected reading 98 reproduces" in label.reason


def _coefficients(slope):
    return pd.DataFrame({"estimate": [-1.0, slope], "std_err": [0.1, 0.1], "ci95_low": [-2.0, slope - 0.1],
                         "ci95_high": [0.0, slope + 0.1]}, index=["intercept", "slope"])


def test_calibration_rows_compare_the_slope_and_say_the_workload():
    rows = ledger_rows.calibration_rows(PAPER, _coefficients(2.9327), "scaled", 12, predicted_kbps=0.0912,
                                        workload=testbed.DEFAULT_WORKLOAD)
    assert [r.column for r in rows] == ["slope", "intercept"]
    assert rows[0].status == "reproduced" and "12 ns-3 runs" in rows[0].reason
    # 2.9327 / 0.0912 = 32.2 -> "about 32x below the paper"
    assert "about 32x below the paper" in rows[0].reason


def _evidence():
    rows = [{"config": c, "load": x, "latency": lat, "p90_ms": 400.0 * (1 + i) * (2.5 if lat == "long" else 1),
             "p90_rep_min": 1.0, "p90_rep_max": 1.0, "mean_queue": 10.0, "drop_rate": 0.01}
            for c in testbed.queue_configs(PAPER) for i, x in enumerate(testbed.loads(PAPER))
            for lat in ("short", "long")]
    summary = pd.DataFrame(rows)
    return summary, claims.Evidence.from_summaries(summary, [summary] * 10, PAPER)


def test_claim_rows_are_the_claim_ids_with_their_first_location_and_the_workload():
    _, evidence = _evidence()
    rows = ledger_rows.claim_rows(PAPER, evidence, workload="scaled",
                                  other={"fifo_queue_size_same": "supported", "long_latency_larger": "refuted"})
    ids = list(PAPER.claims.cells["id"])
    assert [r.row for r in rows] == ids
    assert rows[0].source == PAPER.claim(ids[0])["location"].split(";")[0] == "Abstract"
    by_id = {r.row: r for r in rows}
    # queue sizes equal in every replication: supported on both workloads
    assert by_id["fifo_queue_size_same"].reason.startswith("[scaled workload] [same verdict on the other workload] ")
    # long latency 2.5 x short everywhere: supported here, refuted on the other workload -> the row says so
    assert by_id["long_latency_larger"].status == "supported"
    assert "[other workload: refuted; the verdict depends on the workload]" in by_id["long_latency_larger"].reason
    assert by_id["fifo_80_short_500"].reason.startswith("[scaled workload] margin over 10 replications")


def test_ledger_rows_gather_every_row_once_the_claims_ran():
    summary, evidence = _evidence()
    search = operating_point.convention_search(PAPER)
    prof = testbed.profile("scaled")
    calibration_only = sweeps.Simulations(prof, _coefficients(0.09), 12)
    partial = ledger_rows.ledger_rows(PAPER, search=search, simulations=calibration_only)
    full = ledger_rows.ledger_rows(PAPER, search=search, simulations=sweeps.Simulations(
        prof, _coefficients(0.09), 12, summary, evidence, {"long_latency_larger": "refuted"}))
    # Table 3: 3 counts + the mislabelled load; the line: slope and intercept; 8 text results; 35 claims
    assert len(ledger_rows.TEXT_RESULTS) == 8
    assert len(partial) == len(full) == 4 + 2 + len(ledger_rows.TEXT_RESULTS) + 35
    assert [(r.source, r.row, r.column) for r in partial] == [(r.source, r.row, r.column) for r in full]
    text = {r.row: r for r in full[6:14]}
    # fifo_80_short_p90: mean of FIFO-60/120/180 at 80 %, short: 400 ms each
    assert float(text["fifo_80_short_p90"].regenerated) == pytest.approx(400.0)
    claim = {r.row: r for r in full[14:]}["long_latency_larger"]  # supported here (long 2.5 x short)
    assert "[other workload: refuted; the verdict depends on the workload]" in claim.reason
    # without every configuration the text's numbers and the claims say so; the calibration line is scored
    assert [r.status for r in partial[4:6]] == [r.status for r in full[4:6]]
    assert {r.status for r in partial[6:14]} == {"not_regenerable"}
    assert {r.status for r in partial[14:]} == {"untestable"}
    assert all("not run with every queue configuration" in r.reason for r in partial[6:])


def test_without_simulations_only_table3_is_scored_and_the_other_rows_say_they_did_not_run():
    rows = ledger_rows.ledger_rows(PAPER)
    assert len(rows) == 4 + 2 + 8 + 35
    assert [r.status for r in rows[:4]] == ["reproduced", "reproduced", "reproduced", "typo"]  # 2770, 3111, 3384, "95%"
    assert {r.status for r in rows[4:14]} == {"not_regenerable"} and {r.status for r in rows[14:]} == {"untestable"}
    assert all("not run (no simulations given)" in r.reason and r.regenerated == "" for r in rows[4:])
    # the claims keep their ids and first locations
    assert [r.row for r in rows[14:]] == list(PAPER.claims.cells["id"])
    assert rows[14].source == "Abstract"
