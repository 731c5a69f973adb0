"""Seed 004's ledger rows (paperlib/reproduce/p004/ledger_rows.py): every printed number and claim, once."""

import numpy as np
import pandas as pd
import pytest

from paperlib.emulation import ledger_rows as el
from paperlib.reproduce.p004 import emulated, ledger_rows


@pytest.fixture(scope="module")
def rows(paper):
    return ledger_rows.rows(paper)


def test_ledger_rows_cover_every_printed_number_and_claim(paper, rows):
    cells = paper.tables["table2"].cells
    table_rows = [r for r in rows if r.source == "Table II"]
    assert len(table_rows) == cells.shape[0] * 4 == 20
    printed = {(r.row, r.column): r.published for r in table_rows}
    for _, row in cells.iterrows():
        for col in ("Exp(SCTP)", "Model(SCTP)", "Exp(TCP)", "Model(TCP)"):
            assert printed[(row["BANDWIDTH"], col)] == row[col]
    assert {r.status for r in table_rows if r.column.startswith("Exp")} == {"not_regenerable"}
    # besides the table: one row per claim and one per result stated in the text (Fig. 1's alpha)
    assert len(rows) - len(table_rows) == len(paper.claims.cells) + 1
    # Fig. 1: 14 segments, x = 2: windows of 2, 4, 8 carry 2 + 4 + 8 = 14 >= 14 -> alpha = 3
    alpha = next(r for r in rows if r.row == "fig1_alpha")
    assert (alpha.published, float(alpha.regenerated), alpha.status) == ("3", 3.0, "reproduced")


def test_published_and_regenerated_latencies_against_the_loss_free_bound(rows):
    # ledger_rows.rows raises BoundViolation if a regenerated latency is below its bound; the printed cells get notes
    flagged = [r for r in rows if "impossible as printed" in r.reason]
    # the printed Exp(SCTP) 14.12 s at 28 Kbps is below the transmission time of the object alone (14.29 s)
    assert [(r.row, r.column) for r in flagged] == [("28 Kbps", "Exp(SCTP)")]
    assert "0.366 s below the loss-free bound 14.486 s" in flagged[0].reason
    # under the ledger's own reading (T_r = 0.2 s, x = 4) the 10 Mbps model cell 0.84 s is below 2 x 0.2 s
    # + three stalls of about one round trip each (windows 4, 8, 16 of 34 segments) = 1.01 s
    ten = next(r for r in rows if r.row == "10 Mbps" and r.column == "Model(SCTP)")
    assert "below the loss-free bound 1.010 s under the ledger's reading" in ten.reason


def test_model_cells_reproduced_and_the_one_that_differs(rows):
    model = {(r.row, r.column): r.status for r in rows if r.column.startswith("Model")}
    # 8 of 10 cells reproduced under the chosen convention; the 10 Mbps row (0.84 / 1.24 s) is not
    assert sum(s == "reproduced" for s in model.values()) == 8
    assert {k for k, s in model.items() if s != "reproduced"} == {("10 Mbps", "Model(SCTP)"), ("10 Mbps", "Model(TCP)")}


def test_within_4_percent_claim_row(rows):
    claim = next(r for r in rows if r.row.startswith("the model results are within 4%"))
    assert claim.published == "4"
    assert float(claim.regenerated) == pytest.approx(4.89, abs=0.01)
    assert claim.status == "refuted"  # 4.89 % > 4 % under the stated definition
    assert "mean |M-E|/E" in claim.reason


def test_rows_with_real_stacks_not_run(paper, rows):
    table = emulated.summary(paper, pd.DataFrame())
    out = ledger_rows.rows_with_real_stacks(paper, table, [], "the emulated column was not run (emulation = 'off')")
    assert len(out) == len(rows) + 2  # the two claims again, judged on real stacks
    exp = [r for r in out if r.source == "Table II" and r.column.startswith("Exp")]
    assert len(exp) == 10 and all(r.reason.startswith(el.NOT_RUN + " the emulated column was not run") for r in exp)
    real = out[len(rows):]
    assert [(r.column, r.status) for r in real] == [("emulated (real stacks)", "untestable")] * 2
    assert [r.row for r in real] == list(paper.claims.cells["claim"])  # claims.csv's order


def test_rows_with_real_stacks_carry_the_emulated_means(paper, rows):
    points = emulated.points(paper, "reduced")
    runs = pd.DataFrame([{"protocol": p["protocol"], "rate_bps": p["rate_bps"], "rep": p["rep"],
                          "t_start": [0.0], "t_done": [1.0 + 0.1 * p["rep"]]} for p in points])
    table = emulated.summary(paper, runs)
    out = ledger_rows.rows_with_real_stacks(paper, table, points, None)
    cell = next(r for r in out if r.row == "1 Mbps" and r.column == "Exp(TCP)")
    # repetitions 1.0, 1.1, 1.2 s: mean 1.1 s; the print 1.49 s -> rel_error (1.1 - 1.49) / 1.49 = -0.2617
    assert cell.reason.startswith(el.MARK) and cell.status == "not_regenerable"
    assert float(cell.regenerated) == pytest.approx(1.1) and float(cell.rel_error) == pytest.approx(-0.2617, abs=1e-4)
    # the model rows do not move
    assert [r for r in out if r.column.startswith("Model")] == [r for r in rows if r.column.startswith("Model")]
    assert np.isfinite(table["CI95 TCP (s)"]).all()
