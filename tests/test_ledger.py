"""Tests of paperlib.ledger: status classification, row rules, partial ledgers, merge and summary."""

import re
from dataclasses import asdict, replace

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib import ledger
from paperlib.data import PAPERS
from paperlib.provenance import Stamp
from paperlib.rounding import matches_printed


def test_classify_at_published_precision():
    assert ledger.classify(14.6857, "14.68", "truncate") == "reproduced"
    assert ledger.classify(14.6857, "14.68", "half_up") == "close"  # 14.69 != 14.68, 0.04% off
    assert ledger.classify(1.01, "0.84", "half_up") == "differs"  # 20% off
    assert ledger.classify(0.88, "0.84", "half_up") == "close"  # 4.8% off
    assert matches_printed(7.70, "7.70")


def test_result_row_statuses_and_reason_rule():
    row = ledger.result_row("004", "Table II", "28 Kbps", "Model(SCTP)", "14.68", 14.6857, rule="truncate",
                            evidence="model")
    assert (row.status, row.regenerated, row.rel_error) == ("reproduced", "14.6857", "0.0004")
    with pytest.raises(ledger.LedgerError, match="needs a reason"):
        ledger.result_row("004", "Table II", "10 Mbps", "Model(SCTP)", "0.84", 1.01, rule="truncate", evidence="model")
    nr = ledger.result_row("004", "Table II", "1 Mbps", "Exp(SCTP)", "1.14", None, rule="truncate",
                           reason="testbed", not_regenerable=True)
    assert (nr.status, nr.regenerated, nr.rel_error) == ("not_regenerable", "", "")
    with pytest.raises(ledger.LedgerError, match="must be not_regenerable"):
        ledger.result_row("004", "Table II", "1 Mbps", "Exp(SCTP)", "1.14", None, rule="truncate", reason="x",
                          evidence="model")


def test_bad_paper_and_status_are_rejected():
    with pytest.raises(ledger.LedgerError, match="paper must be one of"):
        ledger.Row("5", "T", "r", "c", "1", "1", "0", "reproduced", "")
    with pytest.raises(ledger.LedgerError, match="status must be one of"):
        ledger.Row("004", "T", "r", "c", "1", "1", "0", "approximately", "why")
    with pytest.raises(ledger.LedgerError, match="claim status"):
        ledger.claim_row("004", "Abstract", "c", "4", 4.0, "reproduced", "why", claim_id="c", evidence="printed")


def _rows():
    return [
        ledger.result_row("004", "Table II", "28 Kbps", "Model(SCTP)", "14.68", 14.6857, rule="truncate",
                          evidence="model"),
        ledger.claim_row("004", "Abstract", "within 4%", "4", 4.89, "refuted", "mean |M-E|/E = 4.89%",
                         claim_id="c", evidence="printed"),
    ]


def test_partial_ledger_round_trip_merge_and_summary(tmp_path):
    stamp = Stamp(notebook="nb.ipynb", parameters={"rtt_s": 0.2}, seed=7)
    ledger.write_partial(_rows(), stamp, tmp_path / "004" / "ledger.csv")
    frame = ledger.read(tmp_path / "004" / "ledger.csv")
    assert list(frame.columns) == list(ledger.ALL_COLUMNS)
    assert frame.loc[0, "parameters"] == '{"rtt_s":0.2}'
    assert frame.loc[0, "seed"] == "7"
    assert frame.loc[1, "rel_error"] == "0.2225"  # (4.89 - 4) / 4
    merged = ledger.merge([tmp_path / "004" / "ledger.csv"])
    text = ledger.summary(merged)
    assert "| 004 | 1 | 1 | 2 |" in text  # reproduced, refuted, total
    others = ", ".join(p for p in PAPERS if p != "004")  # every discovered paper but the one with rows
    assert f"No ledger rows yet for paper(s) {others}." in text


def test_duplicate_rows_are_rejected(tmp_path):
    rows = _rows()
    with pytest.raises(ledger.LedgerError, match="duplicate ledger row"):
        ledger.write_partial(rows + rows[:1], Stamp(notebook="nb"), tmp_path / "l.csv")


def test_reading_a_ledger_with_an_unknown_status_fails(tmp_path):
    path = tmp_path / "l.csv"
    ledger.write_partial(_rows(), Stamp(notebook="nb"), path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[1, "status"] = "kinda"
    frame.to_csv(path, index=False)
    with pytest.raises(ledger.LedgerError, match="row 2: unknown status 'kinda'"):
        ledger.read(path)


def test_writing_twice_is_byte_identical(tmp_path):
    stamp = Stamp(notebook="nb.ipynb", parameters={"a": [1, 2]})
    ledger.write_partial(_rows(), stamp, tmp_path / "a.csv")
    ledger.write_partial(_rows(), stamp, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_status_meanings_are_the_docs_table():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "ledger.md").read_text(encoding="utf-8")
    table = {line.split("|")[1].strip(" `"): line.split("|")[2].strip()
             for line in text.split("## Statuses")[1].split("\n## ")[0].splitlines() if line.startswith("| `")}
    assert table == ledger.STATUS_MEANINGS
    assert set(ledger.STATUS_MEANINGS) == set(ledger.STATUSES)


def test_typo_is_never_scored_by_distance():
    # 001's Table 3 label "95%": the line's inverse gives 3384 browsers at 98%, the text's load; 98 reproduces "98"
    row = ledger.result_row("001", "Table 3", "row 3", "Traffic Load", "95%", 98.0, rule="half_up",
                            compare_as="98", typo=True, reason="the text names 98%", evidence="model")
    assert (row.status, row.rel_error) == ("typo", "")
    assert row.reason.startswith("typo: printed '95%', corrected reading 98 reproduces")
    # scored by distance it would have been "close" (3.2%): that is what the typo status replaces
    assert ledger.classify(98.0, "95", "half_up") == "close"
    # a typo whose corrected reading is itself published in another row: typo, whatever the distance
    row = ledger.result_row("003", "slide", "typo_cells_wrong", "cells", "3680", 3667.92, rule="half_up",
                            compare_as="3667", typo=True, typo_scored_in="typo_cells_correct", reason="the slide",
                                evidence="model")
    assert row.status == "typo" and "typo_cells_correct" in row.reason and "(close)" in row.reason
    # a typo whose corrected reading the model misses is scored against the corrected reading
    row = ledger.result_row("000", "Table 1", "0.4 %, m=10", "W_{tcp}", "3.27", 14.0, rule="half_up",
                            compare_as="3.67", typo=True, reason="a 6 keyed as a 2", evidence="model")
    assert row.status == "differs" and row.rel_error == f"{14.0 / 3.67 - 1:.4f}"
    with pytest.raises(ledger.LedgerError, match="corrected reading"):
        ledger.result_row("001", "T", "r", "c", "95%", 98.0, rule="half_up", typo=True, reason="x", evidence="model")


def test_lone_hits():
    # a flat model (20.768 at every p) matches the first print only: lone hit on both counts
    found = ledger.lone_hits([20.768, 20.768, 20.768], ["20.76", "20.81", "21.26"], "truncate", ["a", "b", "c"])
    assert "only one of the 3" in found[0] and "same at b" in found[0] and found[1:] == ["", ""]
    # a model that follows the print: two hits in the column, values that move: no lone hit
    assert ledger.lone_hits([1.01, 2.02, 3.5], ["1.01", "2.02", "3.03"], "half_up") == ["", "", ""]
    # two hits but one of them flat against a neighbour whose print differs: that one is a lone hit
    found = ledger.lone_hits([1.0, 1.0, 3.0], ["1.00", "1.20", "3.00"], "half_up")
    assert found[0].startswith("lone hit: its regenerated value is the same") and found[1:] == ["", ""]
    row = ledger.result_row("002", "T", "r", "c", "20.76", 20.768, rule="truncate", reason="m", lone_hit=found[0],
                            evidence="model")
    assert row.status == "lone_hit" and row.reason.startswith("lone hit")
    # a lone_hit sentence on a cell that does not reproduce changes nothing
    assert ledger.result_row("002", "T", "r", "c", "20.81", 20.768, rule="truncate", reason="m",
                             lone_hit="lone hit: x", evidence="model").status == "close"


def test_impossible_note_allows_for_the_print_rounding():
    # printed 14.12 stands for up to 14.13 (truncated): below a 14.486 bound by 0.366 s
    note = ledger.impossible_note("14.12", 14.486, "w")
    assert note == "impossible as printed: 0.366 s below the loss-free bound 14.486 s (w)"
    # 4.39 could be 4.398 truncated, which is not below a 4.395 bound: no flag; every value printing as 4.39 is
    # below 4.40, so against a 4.40 bound it is flagged
    assert ledger.impossible_note("4.39", 4.395, "w") == ""
    assert ledger.impossible_note("4.39", 4.40, "w").startswith("impossible as printed: 0.010 s below")
    assert ledger.impossible_note("5.00", 4.4, "w") == ""


def test_summary_counts_impossible_prints():
    rows = _rows() + [ledger.result_row("004", "Table II", "28 Kbps", "Exp(SCTP)", "14.12", None, rule="truncate",
                                        not_regenerable=True, reason=ledger.impossible_note("14.12", 14.486, "w"),
                                        bound=ledger.below_bound("14.12", 14.486))]
    frame = ledger.to_frame(rows, Stamp(notebook="nb"))
    text = ledger.summary(frame)
    assert "1 published times are impossible as printed" in text and "004: 1" in text
    assert f"* `not_regenerable`: {ledger.STATUS_MEANINGS['not_regenerable']}" in text


def test_a_measured_cell_is_scored_by_its_whole_interval_against_the_5_percent_band():
    # print 1.00 s: the band is [0.95, 1.05]
    # mean 1.02 +/- 0.02: [1.00, 1.04] inside the band
    assert ledger.measured_status(1.00, 1.02, 0.02, 5) == "measured_close"
    # mean 1.04 +/- 0.01: [1.03, 1.05] touches the upper edge, still inside (the edge belongs to the band)
    assert ledger.measured_status(1.00, 1.04, 0.01, 5) == "measured_close"
    # mean 1.02 +/- 0.05: [0.97, 1.07] covers the print but reaches across 1.05: undecided
    assert ledger.measured_status(1.00, 1.02, 0.05, 5) == "measured_inconclusive"
    # mean 1.20 +/- 0.01: [1.19, 1.21] wholly above 1.05
    assert ledger.measured_status(1.00, 1.20, 0.01, 5) == "measured_differs"
    # mean 0.80 +/- 0.10: [0.70, 0.90] wholly below 0.95
    assert ledger.measured_status(1.00, 0.80, 0.10, 5) == "measured_differs"
    # a wide interval decides nothing: 1.30 +/- 0.40 = [0.90, 1.70] reaches across both edges
    assert ledger.measured_status(1.00, 1.30, 0.40, 3) == "measured_inconclusive"
    # a print at the end of the interval (the old rule's flip): 21.77 against 18.20 +/- 3.57 = [14.63, 21.77] and
    # 18.20 +/- 3.56 = [14.64, 21.76]: both reach across 21.77 x 0.95 = 20.68, the same status either side
    assert ledger.measured_status(21.77, 18.20, 3.57, 3) == ledger.measured_status(21.77, 18.20, 3.56, 3) \
        == "measured_inconclusive"
    # a negative print (an intercept, -125.0857): the band is -125.0857 -/+ 6.254 = [-131.34, -118.83]
    assert ledger.measured_status(-125.0857, -125.0, 5.0, 10) == "measured_close"
    assert ledger.measured_status(-125.0857, -100.0, 5.0, 10) == "measured_differs"
    # one repetition has no interval: no run of this machine scored it
    assert ledger.measured_status(1.00, 1.00, float("nan"), 1) == "not_regenerable"
    with pytest.raises(ledger.LedgerError, match="finite printed value"):
        ledger.measured_status(float("inf"), 1.0, 0.1, 3)


@given(st.floats(0.01, 1e4), st.floats(-2.0, 3.0), st.floats(0.0, 2.0), st.floats(0.0, 1.0))
def test_a_decided_measured_status_needs_the_interval_to_move_by_its_width_to_swap(printed, rel, rel_half, shrink):
    mean, half = printed * (1 + rel), printed * rel_half
    status = ledger.measured_status(printed, mean, half, 5)
    low, high = mean - half, mean + half
    band = ledger.measured_edges(printed)
    assert band == pytest.approx((0.95 * printed, 1.05 * printed))
    # the status is read off the interval and the band alone
    inside = band[0] - 1e-9 * printed <= low and high <= band[1] + 1e-9 * printed
    outside = low > band[1] + 1e-9 * printed or high < band[0] - 1e-9 * printed
    if not (inside or outside):
        assert status == "measured_inconclusive"
    elif inside and not outside:
        assert status == "measured_close"
    # a narrower interval about the same mean never undoes a decision: it stays inside (or outside) the band
    if status != "measured_inconclusive":
        assert ledger.measured_status(printed, mean, half * shrink, 5) == status


def test_an_inconclusive_measured_row_says_what_would_decide_it():
    old = ledger.Row("002", "Table II", "p = 5 %", "TCP (Experimental) (Sec)", "21.77", "", "", "not_regenerable",
                     "testbed")
    row = ledger.measured_row(old, 20.0, 2.0, 5, rule="half_up", reason="measured")
    # band 21.77 -/+ 1.0885 = [20.6815, 22.8585]; [18.0, 22.0] reaches across 20.68, the edge nearest 20.0;
    # sd = 2.0 sqrt(5) / t(4) = 4.472 / 2.776 = 1.611; to clear 0.68 s: t(n-1) 1.611 / sqrt(n) < 0.6815, about
    # n = 24 (t(23) = 2.069: 2.069 x 1.611 / 4.899 = 0.680)
    assert row.status == "measured_inconclusive"
    assert "inconclusive at the 5% margin (20.68 to 22.86)" in row.reason
    assert "straddles 20.68" in row.reason and "about 24 replications would decide it" in row.reason
    assert (row.low, row.high, row.n) == ("18.0000", "22.0000", "5")


def test_measured_row_keeps_the_cell_and_scores_it():
    old = ledger.Row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", "", "", "not_regenerable", "testbed")
    row = ledger.measured_row(old, 1.52, 0.01, 3, rule="half_up", reason="measured")
    # (1.52 - 1.49) / 1.49 = 2.01%; the interval [1.51, 1.53] misses 1.49
    assert (row.status, row.regenerated, row.rel_error) == ("measured_close", "1.5200", "0.0201")


def test_an_input_row_is_never_scored_and_says_where_it_is_used():
    row = ledger.input_row("004", "text", "fig1_initial_window", "x", "2", 2.0, reason="Eq. (1)'s window")
    # the value as used, two more decimals than none printed (format_value's default 4), no rel_error
    assert (row.status, row.regenerated, row.rel_error) == ("input", "2.0000", "")
    assert "input" in ledger.RESULT_STATUSES and "input" not in ledger.CLAIM_STATUSES
    with pytest.raises(ledger.LedgerError, match="needs a reason"):
        ledger.input_row("004", "text", "x", "x", "2", 2.0, reason=" ")


def test_inconclusive_and_fidelity_lost_are_claim_statuses_with_their_meanings():
    assert {"inconclusive", "fidelity_lost"} <= set(ledger.CLAIM_STATUSES)
    assert "fidelity_lost" in ledger.RESULT_STATUSES and "inconclusive" not in ledger.RESULT_STATUSES
    assert len(ledger.STATUSES) == len(set(ledger.STATUSES))  # fidelity_lost listed once
    assert "straddles" in ledger.STATUS_MEANINGS["inconclusive"]
    assert "no measurement here can reach" in ledger.STATUS_MEANINGS["untestable"]
    row = ledger.claim_row("004", "Abstract", "c", "", 0.2, "inconclusive", "the interval straddles 0",
                           claim_id="c", evidence="printed")
    assert row.status == "inconclusive"


def test_a_fidelity_lost_cell_has_no_value_and_is_told_from_a_claim_by_its_column():
    old = ledger.Row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", "", "", "not_regenerable", "testbed")
    lost = ledger.fidelity_lost_row(old, "2 of 5 runs kept; lateness 40 ms, waiting 12 ms")
    assert (lost.status, lost.regenerated, lost.rel_error) == ("fidelity_lost", "", "")
    assert lost.reason == "2 of 5 runs kept; lateness 40 ms, waiting 12 ms; testbed"
    claim = ledger.claim_row("004", "Abstract", "c", "", None, "fidelity_lost", "1 run kept",
                             column=ledger.REAL_STACKS, claim_id="c", evidence="real stacks")
    assert not ledger.is_claim(lost.status, lost.column) and ledger.is_claim(claim.status, claim.column)
    with pytest.raises(ledger.LedgerError, match="needs a reason"):
        ledger.fidelity_lost_row(old, " ")
    with pytest.raises(ledger.LedgerError, match="judged on the real stacks"):
        ledger.claim_row("004", "Abstract", "c", "", None, "fidelity_lost", "x", claim_id="c", evidence="printed")
    with pytest.raises(ledger.LedgerError, match="holds claims"):
        ledger.fidelity_lost_row(claim, "x")
    stamp_free = pd.DataFrame([r.__dict__ for r in (lost, claim, old)])
    assert ledger.claim_mask(stamp_free).tolist() == [False, True, False]
    # counted once each, results' statuses first
    assert ledger.status_counts([lost.status, claim.status, old.status]) == {"fidelity_lost": 2, "not_regenerable": 1}


def test_the_schema_names_the_row_and_the_column_it_refuses(tmp_path):
    good = ledger.result_row("004", "Table II", "28 Kbps", "Model(SCTP)", "14.68", 14.6857, rule="truncate",
                             evidence="model", convention="kilo=1000, rounding=truncate")
    ledger.check_row(asdict(good))
    where = "paper 004, Table II / 28 Kbps / Model(SCTP): column"
    for change, message in (
            ({"evidence": "a guess"}, f"{where} 'evidence' must be one of"),
            ({"evidence": ""}, f"{where} 'evidence' is empty"),
            ({"claim_id": "within_4_percent"}, f"{where} 'claim_id' is set on a result row"),
            ({"low": "1.0"}, f"{where}s 'low' and 'high' must both be set"),
            ({"low": "2.0", "high": "1.0"}, f"{where}s 'low' and 'high' must both be set, low <= high"),
            ({"n": "2.5"}, f"{where} 'n' must be a whole number"),
            ({"convention": "kilo 1000"}, f"{where} 'convention' must be 'name=value, ...'"),
            ({"emulation": "maybe"}, f"{where} 'emulation' must be one of"),
            ({"other_status": "supported"}, f"{where} 'other_status' is set on a result row")):
        with pytest.raises(ledger.LedgerError, match=re.escape(message)):
            ledger.check_row({**asdict(good), **change})
    claim = ledger.claim_row("004", "Abstract", "within 4%", "4", 4.89, "refuted", "r", claim_id="within_4_percent",
                             evidence="printed")
    with pytest.raises(ledger.LedgerError, match="'claim_id' is empty for a claim row"):
        ledger.check_row({**asdict(claim), "claim_id": ""})
    # the writer refuses a bad row before writing, the reader a bad file, each naming it
    with pytest.raises(ledger.LedgerError, match=re.escape(f"{where} 'evidence' must be one of")):
        ledger.write_partial([replace(good, evidence="a guess")], Stamp(notebook="nb"), tmp_path / "bad.csv")
    assert not (tmp_path / "bad.csv").exists()
    ledger.write_partial([good, claim], Stamp(notebook="nb"), tmp_path / "ledger.csv")
    frame = pd.read_csv(tmp_path / "ledger.csv", dtype=str, keep_default_na=False)
    frame.loc[1, "evidence"] = ""
    frame.to_csv(tmp_path / "broken.csv", index=False)
    with pytest.raises(ledger.LedgerError, match=r"broken.csv: row 2: paper 004, Abstract / within 4% / claim: "
                                                 r"column 'evidence' is empty"):
        ledger.read(tmp_path / "broken.csv")


def test_structured_columns_carry_the_facts_of_the_row():
    # a typo's corrected reading, a measured interval, a claim's id, a convention read back as a mapping
    typo = ledger.result_row("001", "Table 3", "row 3", "Traffic Load", "95%", 98.0, rule="half_up", compare_as="98",
                             typo=True, reason="the text names 98%", evidence="printed")
    assert (typo.status, typo.compared_as, typo.evidence) == ("typo", "98", "printed")
    old = ledger.result_row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", None, rule="half_up",
                            not_regenerable=True, reason="testbed")
    assert old.evidence == "none"
    # mean 1.52 +/- 0.01 over 3 repetitions: the interval [1.51, 1.53] at the ledger's 4 places
    measured = ledger.measured_row(old, 1.52, 0.01, 3, rule="half_up", reason="r")
    assert (measured.low, measured.high, measured.n) == ("1.5100", "1.5300", "3")
    assert (measured.evidence, measured.emulation) == ("real stacks", "ran")
    lost = ledger.fidelity_lost_row(old, "1 of 3 runs kept")
    assert (lost.evidence, lost.emulation, lost.low) == ("real stacks", "fidelity lost", "")
    assert ledger.convention_of("kilo=1000, form=corrected") == {"kilo": "1000", "form": "corrected"}
    assert ledger.convention_of("") == {}
    # 14.12 truncated stands for at most 14.13 s, below a 14.486 s bound: the bound is kept; 5.00 is not below 4.4
    assert ledger.below_bound("14.12", 14.486) == "14.486000" and ledger.below_bound("5.00", 4.4) == ""
