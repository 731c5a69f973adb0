"""Paper 003's ledger rows: every printed derived number, the results table, every claim (search shared)."""

import pandas as pd
import pytest
from p003_helpers import CHOSEN, convention_search

from paperlib.ledger import Row
from paperlib.reproduce.p003 import ledger_rows


@pytest.fixture(scope="module")
def rows(paper):
    return ledger_rows.ledger_rows(paper, search=convention_search())


def test_rows_are_a_list_made_with_the_chosen_convention(rows):
    assert isinstance(rows, list) and all(isinstance(r, Row) for r in rows)
    # every regenerated derived number names the one convention in its reason, as "key=value, ..."
    derived_rows = [r for r in rows if r.source.startswith("text")]
    assert derived_rows and all(f"({CHOSEN.describe()}; " in r.reason for r in derived_rows)
    assert "round_intermediate=True, rounding=half_up" in derived_rows[0].reason


def test_without_a_search_the_rows_search_themselves(paper, rows):
    assert ledger_rows.ledger_rows(paper) == rows


@pytest.mark.parametrize("name", ["simulations", "real_stacks"])
def test_runs_paper_003_does_not_score_are_refused(paper, name):
    # no row or claim of paper 003 is judged on ns-3 or real stacks: a value is refused, not ignored
    with pytest.raises(ValueError, match=f"paper 003: ledger_rows takes no {name} \\(got a DataFrame\\)"):
        ledger_rows.ledger_rows(paper, search=convention_search(), **{name: pd.DataFrame()})


def test_ledger_rows_cover_every_printed_result_and_claim(paper, rows):
    text_results = paper.text_values.cells.query("role == 'result'")
    assert {r.row for r in rows if r.source.startswith("text")} == set(text_results["id"])
    table = [r for r in rows if r.source == "Simulation Results table"]
    assert len(table) == 4 * 4  # per N: queue (cells), queue (F), throughput, efficiency
    assert {r.status for r in table if r.column in ("Max Switch Q (Cells)", "TCP Throughput")} == {"not_regenerable"}
    assert len([r for r in rows if r.column == "claim"]) == len(paper.claims.cells)
    # the modified table's probabilities are derived: 1/5 and 0.8 x the original class n-1
    probs = {r.column: r for r in rows if r.source == "Modified SPECWeb96 table"}
    assert sorted(probs) == [f"Class {k}" for k in range(5)]
    assert {r.status for r in probs.values()} == {"reproduced"}
    typo = next(r for r in rows if r.column == "Efficiency" and r.row == "10")
    # 32.7 / 35.1 Mbit/s = 93.16% prints 93.2: the corrected reading reproduces, so the print is a typo, no score
    assert typo.published == "93/2%" and typo.status == "typo" and typo.rel_error == ""
    assert "corrected reading 93.2 reproduces" in typo.reason and "read as '93.2%'" in typo.reason
    # the slide retracts 3680 for 3667 (10 ms at 155.52 Mbit/s / 424 bit = 3667.9 cells): 3680 is a typo whose
    # corrected reading is scored in its own row, never by its own distance
    wrong = next(r for r in rows if r.row == "typo_cells_wrong")
    right = next(r for r in rows if r.row == "typo_cells_correct")
    assert wrong.status == "typo" and wrong.rel_error == "" and "typo_cells_correct" in wrong.reason
    assert right.status in ("reproduced", "close")
    assert float(right.regenerated) == pytest.approx(155.52e6 * 0.01 / 424, abs=0.01)


def test_ten_times_claim_is_refuted(rows):
    claim = next(r for r in rows if "10 times" in r.row)
    # 481.28 / 60.11 kbit/s = 8.0x
    assert float(claim.regenerated) == pytest.approx(8.007, abs=1e-3)
    assert claim.status == "refuted"


def test_claim_rows_name_the_slide(paper):
    rows = ledger_rows.claim_rows(paper, CHOSEN)
    # claims.csv: the first two claims are on slide 'Problem with SPECWeb96', the rest on its results bullets
    assert [r.source for r in rows[:2]] == ["slides: slide 'Problem with SPECWeb96'"] * 2
    assert {r.source for r in rows[2:]} == {"slides: slide 'Simulation Results', bullets"}


def test_measured_rows_are_not_regenerable_and_keep_the_print(paper):
    rows = ledger_rows.measured_rows(paper, CHOSEN)
    # two per N (N = 1, 2, 5, 10): queue in cells ("3677" of "3677 = 1.0 F") and throughput ("6.1 Mbps")
    assert [(r.row, r.column, r.published) for r in rows[:2]] == [
        ("1", "Max Switch Q (Cells)", "3677"), ("1", "TCP Throughput", "6.1 Mbps")]
    assert len(rows) == 8 and {r.status for r in rows} == {"not_regenerable"}
    assert rows[0].reason == ledger_rows.QUEUE_MAX_REASON and rows[1].reason == ledger_rows.THROUGHPUT_REASON
