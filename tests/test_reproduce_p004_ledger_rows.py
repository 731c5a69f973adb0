"""Paper 004's ledger rows (paperlib/reproduce/p004/ledger_rows.py): every printed number and claim, once."""

import pandas as pd
import pytest

from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.reproduce.p004 import emulated, ledger_rows, operating_point


@pytest.fixture(scope="module")
def rows(paper):
    return ledger_rows.ledger_rows(paper)


@pytest.fixture(scope="module")
def real_stacks(paper):
    """Three repetitions per rate and protocol whose latencies are 1.0, 1.1 and 1.2 s, TCP and SCTP alike."""
    points = [{**p, "protocol": proto} for p in emulated.points(paper, "reduced")
              if p["protocol"] == "tcp" and p["rep"] < 3 for proto in ("tcp", "sctp")]
    runs = pd.DataFrame([{"protocol": p["protocol"], "rate_bps": p["rate_bps"], "rep": p["rep"],
                          "t_start": [0.0], "t_done": [1.0 + 0.1 * p["rep"]]} for p in points])
    return Emulated("reduced", points, runs)


def test_the_search_frame_given_or_not_gives_the_same_rows(paper, rows):
    assert ledger_rows.ledger_rows(paper, search=operating_point.convention_search(paper)) == rows


def test_paper_004_has_no_simulations_to_pass(paper):
    with pytest.raises(ValueError, match="^simulations: paper 004 has no ns-3 run"):
        ledger_rows.ledger_rows(paper, simulations=object())


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
    # ledger_rows raises BoundViolation if a regenerated latency is below its bound; the printed cells get notes
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


def test_real_stacks_not_run(paper, rows):
    out = ledger_rows.ledger_rows(paper, real_stacks=Emulated("off", not_run=emulated_rows.NOT_RUN_BY_CHOICE))
    assert len(out) == len(rows) + 2  # the two claims again, judged on real stacks
    exp = [r for r in out if r.source == "Table II" and r.column.startswith("Exp")]
    assert len(exp) == 10
    # each says why it was not run, before its reason of the model alone (kept, as is its status)
    before = {(r.row, r.column): r.reason for r in rows}
    why = f"{emulated_rows.NOT_RUN} {emulated_rows.NOT_RUN_BY_CHOICE}"
    assert all(r.reason == f"{why}; {before[r.row, r.column]}" and r.status == "not_regenerable" for r in exp)
    real = out[len(rows):]
    assert [(r.column, r.status) for r in real] == [("emulated (real stacks)", "untestable")] * 2
    assert all(r.reason.startswith(emulated_rows.NOT_RUN) for r in real)
    assert [r.row for r in real] == list(paper.claims.cells["claim"])  # claims.csv's order


def test_real_stacks_score_the_experimental_cells(paper, rows, real_stacks):
    out = ledger_rows.ledger_rows(paper, real_stacks=real_stacks)
    cell = {(r.row, r.column): r for r in out}
    # repetitions 1.0, 1.1, 1.2 s: mean 1.1 s, 95% half-width t(0.975, 2) x sd / sqrt(3) = 4.303 x 0.1 / 1.732 = 0.248 s
    tcp, sctp = cell[("1 Mbps", "Exp(TCP)")], cell[("1 Mbps", "Exp(SCTP)")]
    assert tcp.reason.startswith(f"{emulated_rows.MARK} mean of 3 repetitions 1.100 s, 95% CI +/- 0.248 s; ")
    assert float(tcp.regenerated) == pytest.approx(1.1)
    # TCP printed 1.49 s: [0.852, 1.348] wholly below its band [1.4155, 1.5645] (-26.2 % at the mean): measured_differs
    assert tcp.status == "measured_differs" and float(tcp.rel_error) == pytest.approx(-0.2617, abs=1e-4)
    # SCTP printed 1.14 s: its band [1.083, 1.197] lies inside [0.852, 1.348], which reaches across both edges:
    # measured_inconclusive (the print is inside the interval, but so is 10 % off it)
    assert sctp.status == "measured_inconclusive"
    # every other row (the model cells, Fig. 1's alpha, the claims on the published table) does not move
    def others(some):
        return [r for r in some if not (r.source == "Table II" and r.column.startswith("Exp"))]

    assert others(out[:len(rows)]) == others(rows)


@pytest.mark.skipif("sctp" not in experiments.protocols(), reason="usrsctp is not built on this machine")
def test_each_cell_names_the_stack_of_its_own_protocol(paper, real_stacks):
    out = ledger_rows.ledger_rows(paper, real_stacks=real_stacks)
    exp = [r for r in out if r.source == "Table II" and r.column.startswith("Exp")]
    sctp = [r.reason for r in exp if r.column == "Exp(SCTP)"]
    tcp = [r.reason for r in exp if r.column == "Exp(TCP)"]
    assert len(sctp) == len(tcp) == 5
    # the SCTP cells' values come from usrsctp runs, and their reasons say so (not Linux TCP's settings)
    assert all("; usrsctp over UDP" in r and "Linux TCP" not in r for r in sctp)
    assert all("; Linux TCP reno, initcwnd 2" in r and "usrsctp" not in r for r in tcp)


def test_real_stack_claims_use_the_one_interval_of_a_mean_difference(paper, rows, real_stacks):
    real = ledger_rows.ledger_rows(paper, real_stacks=real_stacks)[len(rows):]
    gap = next(r for r in real if r.row.startswith("HTTP over TCP"))
    # TCP - SCTP = 0 s at every rate; half-width sqrt(5 x (0.248^2 + 0.248^2)) / 5 = 0.248 x sqrt(10) / 5 = 0.157 s
    # (paperlib.emulation.ledger_rows.mean_difference): [-0.157, 0.157] lies wholly below 2 T_r - 10% = 0.36 s
    assert gap.status == "refuted" and "mean 0.000 s +/- 0.157 s (95% CI)" in gap.reason


def test_runs_without_their_points_are_refused(paper, real_stacks):
    tcp_only = Emulated("reduced", [p for p in real_stacks.points if p["protocol"] == "tcp"], real_stacks.runs)
    with pytest.raises(ValueError, match="Table II 28 Kbps Exp\\(SCTP\\): 3 sctp runs but no sctp point"):
        ledger_rows.ledger_rows(paper, real_stacks=tcp_only)
