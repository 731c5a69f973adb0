"""Seed 000's ledger rows: every printed cell and claim, W by Eq. (4), the bound flags, the summary."""

import numpy as np
import pytest

from paperlib import ledger
from paperlib.provenance import Stamp
from paperlib.reproduce.p000 import findings, ledger_rows, tables
from paperlib.reproduce.p000 import operating_point as op


@pytest.fixture(scope="module")
def search(paper):
    return op.convention_search(paper)


@pytest.fixture(scope="module")
def built(paper, search):
    return ledger_rows.ledger_rows(paper, search)


def test_ledger_uses_eq4_because_the_tables_law_is_below_the_physical_bound(paper, built):
    rows, conv = built
    assert conv["waiting"] == "eq4"
    bounds = findings.waiting_bounds(paper)
    cells = op.printed_cells(paper)
    # a print is impossible when even print + 0.01 (truncation) is at or below the round-robin bound
    # (10.76 s at m = 5, 40 kbit/s, derived in tests/test_reproduce_p000_findings.py)
    top = np.array([float(c.compare_as) + 0.01 for c in cells])
    impossible = int((top <= bounds["round-robin bound"].to_numpy()).sum())
    table = [r for r in rows if r.source.startswith("Table ")]
    assert sum("impossible as printed" in r.reason for r in table) == impossible
    assert impossible > len(cells) // 2  # most of the printed tables cannot be right
    w = [r for r in table if r.column.startswith("W_")]
    assert all("W = (m-1)(2n-1)tau/(2m)" in r.reason and "physically impossible" in r.reason for r in w)


def test_ledger_rows_cover_every_cell_and_claim(paper, built):
    rows, _ = built
    table_rows = [r for r in rows if r.source.startswith("Table ")]
    assert len(table_rows) == 144
    assert len({(r.source, r.row, r.column) for r in table_rows}) == 144
    model = [r for r in table_rows if r.column.startswith("W_")]
    exp = [r for r in table_rows if r.column.startswith("T_")]
    assert len(model) == len(exp) == 72
    # Eq. (4) grows like m - 1 while every printed column grows like (m-1)/m: Eq. (4)/print >= (m-1)(2n-1)/2 x
    # (E/n) / print with E/n >= one packet time; at m >= 5 and 40 kbit/s that is >= 4 x 25.5 x 0.107 / 4 > 2
    slow = [r for r in model if not r.row.startswith(("400 Kbps", "3000 Kbps"))]
    assert all(float(r.regenerated) / float(r.published) > 2 for r in slow)
    assert {r.status for r in slow} == {"differs"}
    assert {r.status for r in exp} == {"not_regenerable"} and {r.regenerated for r in exp} == {""}
    assert all("cannot be re-run" in r.reason for r in exp)
    claims = [r for r in rows if not r.source.startswith("Table ")]
    assert [r.row for r in claims] == list(paper.claims.cells["claim"])  # in the order of claims.csv
    # text values with role "result" are covered by the claim rows that state the same number
    results = paper.text_values.cells.query("role == 'result'")
    for ident, printed in zip(results["id"], results["printed"]):
        assert any(r.published == printed and f"text value {ident}" in r.reason for r in claims), ident
    # the corrections show in the rows they touch
    typo = next(r for r in model if r.source == "Table 1" and r.row == "0.4 %, m=10" and r.column == "W_{tcp}")
    assert typo.published == "3.27" and "corrected: printed '3.27' read as '3.67'" in typo.reason
    assert all("read as '40 Kbps'" in r.reason for r in table_rows if r.row.startswith("4 Kbps"))


def test_conv_text():
    assert ledger_rows.conv_text({"waiting": "eq4", "kilo": 1000}) == "waiting=eq4, kilo=1000"


def test_summary_text_counts_the_model_cells_and_lists_the_claims(paper, search, built, tmp_path):
    rows, _ = built
    frame = ledger.write_partial(rows, Stamp(notebook="notebooks/000_multiuser_waiting.ipynb", parameters={}),
                                 tmp_path / "ledger.csv")
    regen = tables.regenerate(paper, op.chosen_convention(paper, search))
    text = ledger_rows.summary_text(frame, regen)
    model = frame[frame.column.str.startswith("W_")]
    assert f"{int((model.status == 'reproduced').sum())} of 72 printed model cells are reproduced" in text
    # one bullet per claim, with its status
    assert text.count("\n* ") == 11
    assert "— **untestable**" in text  # error_nist
