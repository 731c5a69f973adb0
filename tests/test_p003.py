"""Seed 003's derived numbers from the published class tables, and its ledger rows."""

import pytest

from paperlib.data import load_paper
from paperlib.models import atm_overhead as atm
from paperlib.reproduce import p003


@pytest.fixture(scope="module")
def paper():
    return load_paper("003")


@pytest.fixture(scope="module")
def search(paper):
    return p003.convention_search(paper)


def test_cells_per_segment_and_payload_share():
    # 512 B payload + 20 TCP + 20 IP + 8 LLC/SNAP + 8 AAL5 trailer = 568 B -> ceil(568 / 48) = 12 cells
    assert atm.cells_per_segment(512) == 12
    # with the 12-byte timestamp option: 580 B -> 13 cells
    assert atm.cells_per_segment(512, "tcp(timestamps)+ip+llc/snap+aal5") == 13
    # 512 / (12 * 53) = 0.8050; on SONET OC-3 x 149.76/155.52: 0.7752 -> the slides' "78%"
    assert atm.tcp_payload_share(512) == pytest.approx(0.80503, abs=1e-5)
    assert atm.tcp_payload_share(512, framing="sonet_oc3") == pytest.approx(0.77521, abs=1e-5)
    # F = 10 ms at 155.52 Mbit/s = 1 555 200 bit / 424 bit per cell = 3667.9 cells
    assert atm.cells_in(0.010, 155.52e6) == pytest.approx(3667.92, abs=0.01)


def test_workloads_follow_the_printed_tables(paper):
    w = p003.workloads(paper, size_kilo=1024, mega="1000 kB", within_class="uniform")
    assert w.original.class_probs == (0.35, 0.5, 0.14, 0.01)
    assert w.modified.class_probs == (0.2, 0.28, 0.40, 0.112, 0.008)
    # "100 kb" of the printed modified table is read as 100 kB (corrections.py)
    assert w.modified.base_bits[3] == pytest.approx(100 * 1024 * 8)


def test_search_picks_one_convention_that_reproduces_most(paper, search):
    conv = p003.chosen_convention(paper, search)
    assert search.iloc[0]["reproduced"] == search["reproduced"].max()
    assert (conv["size_kilo"], conv["report_kilo"], conv["mega"]) == (1024, 1000, "1000 kB")
    values = p003.derived_values(paper, conv)
    # mean file 117.5 KiB = 120 320 B = 120.3 kB; 14.675 KiB = 120 218 bit = 120.2 kb
    assert values["avg_file_size_mod"] == pytest.approx(120.32)
    assert values["avg_file_size"] == pytest.approx(120.2176)
    assert values["bw_per_user_mod"] == pytest.approx(0.48128)


def test_ledger_rows_cover_every_printed_result_and_claim(paper, search):
    rows, _ = p003.ledger_rows(paper, search)
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
    assert right.status in ("reproduced", "close") and float(right.regenerated) == pytest.approx(155.52e6 * 0.01 / 424, abs=0.01)


def test_ten_times_claim_is_refuted(paper, search):
    rows, _ = p003.ledger_rows(paper, search)
    claim = next(r for r in rows if "10 times" in r.row)
    # 481.28 / 60.11 kbit/s = 8.0x
    assert float(claim.regenerated) == pytest.approx(8.007, abs=1e-3)
    assert claim.status == "refuted"
