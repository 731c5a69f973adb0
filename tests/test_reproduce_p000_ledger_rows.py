"""Paper 000's ledger rows: every printed cell and claim, W by Eq. (4), the bound flags, the re-runs' rows."""

import numpy as np
import pandas as pd
import pytest

from paperlib import ledger
from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.provenance import Stamp
from paperlib.reproduce.p000 import claims, emulated, findings, ledger_rows, operating_point, tables


@pytest.fixture(scope="module")
def search(paper):
    return operating_point.convention_search(paper)


@pytest.fixture(scope="module")
def rows(paper, search):
    return ledger_rows.ledger_rows(paper, search=search)


def test_ledger_uses_eq4_because_the_tables_law_is_below_the_physical_bound(paper, rows):
    assert operating_point.ledger_convention(paper).waiting == "eq4"
    bounds = findings.waiting_bounds(paper)
    cells = operating_point.printed_cells(paper)
    # a print is impossible when even print + 0.01 (truncation) is at or below the round-robin bound
    # (10.76 s at m = 5, 40 kbit/s, derived in tests/test_reproduce_p000_findings.py)
    top = np.array([float(c.compare_as) + 0.01 for c in cells])
    impossible = int((top <= bounds["round-robin bound"].to_numpy()).sum())
    table = [r for r in rows if r.source.startswith("Table ")]
    assert sum("impossible as printed" in r.reason for r in table) == impossible
    assert impossible > len(cells) // 2  # most of the printed tables cannot be right
    w = [r for r in table if r.column.startswith("W_")]
    assert all("W = (m-1)(2n-1)tau/(2m)" in r.reason and "physically impossible" in r.reason for r in w)
    # the reasons name the ledger's convention as key=value pairs (Convention.describe)
    assert all("waiting=eq4, kilo=1000, " in r.reason for r in w)


def test_ledger_rows_cover_every_cell_and_claim(paper, rows):
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
    claim_rows = [r for r in rows if not r.source.startswith("Table ")]
    assert [r.row for r in claim_rows] == list(paper.claims.cells["claim"])  # in the order of claims.csv
    # text values with role "result" are covered by the claim rows that state the same number
    results = paper.text_values.cells.query("role == 'result'")
    for ident, printed in zip(results["id"], results["printed"], strict=True):
        assert any(r.published == printed and f"text value {ident}" in r.reason for r in claim_rows), ident
    # the corrections show in the rows they touch
    typo = next(r for r in model if r.source == "Table 1" and r.row == "0.4 %, m=10" and r.column == "W_{tcp}")
    assert typo.published == "3.27" and "corrected: printed '3.27' read as '3.67'" in typo.reason
    assert all("read as '40 Kbps'" in r.reason for r in table_rows if r.row.startswith("4 Kbps"))


def test_ledger_of_the_paper_alone_is_the_model_part(paper, search, rows):
    # ledger_rows(paper) searches by itself and gives what the notebook's first write holds: the 144 cells by
    # table_rows under the ledger's convention, then the claims judged on the published tables only
    assert ledger_rows.ledger_rows(paper) == rows
    conv = operating_point.ledger_convention(paper, search)
    model_claims = claims.CLAIMS.rows(paper, claims.evidence(paper, conv))
    assert rows == ledger_rows.table_rows(paper, search, conv) + model_claims
    assert len(rows) == 144 + 11
    assert not {r.column for r in rows} & {claims.REAL_STACKS, "T_{tcp} (ns-3)", "claim (ns-3, TCP)"}


def test_real_stacks_that_did_not_run_say_why_in_the_same_rows(paper, search, rows):
    off = Emulated("off", not_run=emulated_rows.NOT_RUN_BY_CHOICE)
    with_off = ledger_rows.ledger_rows(paper, search=search, real_stacks=off)
    # the model part, each experimental cell with the reason nothing ran, then the two claims the real stacks judge
    assert len(with_off) == len(rows) + 2
    for old, new in zip(rows, with_off[:len(rows)], strict=True):
        if old.column.startswith("T_"):
            assert new.status == old.status == "not_regenerable"
            assert new.reason == f"{emulated_rows.NOT_RUN} {emulated_rows.NOT_RUN_BY_CHOICE}; {old.reason}"
        else:
            assert new == old
    extra = with_off[len(rows):]
    assert [r.column for r in extra] == [claims.REAL_STACKS] * 2
    assert [r.source for r in extra] == list(claims.REAL_STACKS_SOURCES.values())
    assert {r.status for r in extra} == {"untestable"}
    assert all(r.reason.startswith(f"{emulated_rows.NOT_RUN} {emulated_rows.NOT_RUN_BY_CHOICE}; "
                                   f"{emulated_rows.MARK} ") for r in extra)


def _fake_runs(paper):
    """Hand-built runs at the point p = 1 %, 256 ms, 40 Kbps (printed in all three tables), m = 1 and 5, 3 each.

    Single-user turnarounds are 1 s in every repetition. m = 5: TCP 3.95, 4.00, 4.05 s and SCTP 3.94, 3.95,
    3.96 s, so W_tcp = 4.00 - 1 = 3.00 s and W_sctp = 3.95 - 1 = 2.95 s.
    """
    turnaround = {("tcp", 1): [1.0] * 3, ("sctp", 1): [1.0] * 3, ("tcp", 5): [3.95, 4.00, 4.05],
                  ("sctp", 5): [3.94, 3.95, 3.96]}
    runs = pd.DataFrame([{"protocol": proto, "rate_bps": 40e3, "rtt_s": 0.256, "loss": 0.01, "users": m, "rep": k,
                          "t0": 10.0, "t_done": [10.0 + t] * m}
                         for (proto, m), ts in turnaround.items() for k, t in enumerate(ts)])
    points = [q for q in emulated.points(paper, "reduced")
              if (q["rate_bps"], q["rtt_s"], q["loss"]) == (40e3, 0.256, 0.01)]
    return Emulated("reduced", points, runs)


def test_real_stacks_that_ran_give_the_measured_statuses(paper, search, rows):
    measured = ledger_rows.ledger_rows(paper, search=search, real_stacks=_fake_runs(paper))
    cells = {(r.source, r.row, r.column): r for r in measured}
    # Welch's 95% half-width with the single-user runs all equal: t(0.975, 2 dof) x s / sqrt(3) = 4.303 x s / 1.732,
    # TCP s = 0.05 -> 0.124 s, SCTP s = 0.01 -> 0.0248 s.
    # TCP W = 3.00 +/- 0.124 = [2.876, 3.124]: Table 1's 2.90 has the band [2.755, 3.045], which the interval reaches
    # across: inconclusive; Tables 2-3 print 3.35, band [3.1825, 3.5175], the interval wholly below it: differs
    tcp = [cells[("Table 1", "1 %, m=5", "T_{tcp}")], cells[("Table 3", "256 ms, m=5", "T_{tcp}")],
           cells[("Table 2", "4 Kbps, m=5", "T_{tcp}")]]
    assert [r.status for r in tcp] == ["measured_inconclusive", "measured_differs", "measured_differs"]
    assert float(tcp[0].regenerated) == pytest.approx(3.0) and "95% CI +/- 0.124 s" in tcp[0].reason
    # SCTP W = 2.95 +/- 0.025 = [2.925, 2.975]: inside Table 1's band for 2.85, [2.7075, 2.9925]: close; wholly
    # below the band of 3.27, [3.1065, 3.4335]: differs
    sctp = [cells[("Table 1", "1 %, m=5", "T_{sctp}")], cells[("Table 3", "256 ms, m=5", "T_{sctp}")]]
    assert [r.status for r in sctp] == ["measured_close", "measured_differs"]
    # each reason names the stack of its own protocol
    assert all("usrsctp over UDP" in r.reason and "Linux TCP" not in r.reason.split("; before:")[0] for r in sctp)
    assert all("Linux TCP reno" in r.reason and "usrsctp" not in r.reason for r in tcp)
    # the cells not run say why, in the model's row otherwise unchanged
    other = cells[("Table 1", "1 %, m=10", "T_{tcp}")]
    assert other.status == "not_regenerable" and "m = 10 is not in the reduced grid" in other.reason
    assert sum(r.status.startswith("measured_") for r in measured) == 6  # 3 blocks x 2 stacks at m = 5
    # the two claims judged on the real stacks: W_tcp - W_sctp = 0.05 s +/- sqrt(0.124^2 + 0.025^2) = 0.127 s
    # (the three blocks are one measurement): undecided, inconclusive; Table 3 has one rtt emulated: untestable
    on_real = [r for r in measured if r.column == claims.REAL_STACKS]
    assert [r.status for r in on_real] == ["inconclusive", "untestable"]
    assert "over 1 emulated rows = 0.050 s +/- 0.127 s" in on_real[0].reason
    # the model's rows of W and of the claims do not move
    same = [r for r in measured if not r.column.startswith("T_") and r.column != claims.REAL_STACKS]
    assert same == [r for r in rows if not r.column.startswith("T_")]
    assert experiments.protocols() == ("tcp", "sctp")  # the C application that speaks both is built


def test_a_cell_whose_users_never_ran_is_not_run_even_when_its_baseline_lost_its_timing(paper, search):
    # The fake runs (m = 1 and 5, all kept) plus one single-user TCP run that lost its timing on every try. The
    # m = 10 cell shares that single-user baseline but its 10 users never ran: it is not in the reduced grid
    # (not_regenerable, saying so), not fidelity_lost. The m = 5 cell still has 3 kept runs of its own users:
    # measured, with the lost baseline counted in its fidelity (7 runs: 3 + 3 kept, 1 lost).
    emu = _fake_runs(paper)
    lost = emu.runs[(emu.runs.protocol == "tcp") & (emu.runs.users == 1)].head(1).assign(
        rep=3, fidelity_kept=False, fidelity_tries=3,
        fidelity=[{"worst_lateness_p99_s": 0.1, "app_wait_s": 1.0, "cpu_pressure_fraction": 0.5}])
    kept = emu.runs.assign(fidelity_kept=True, fidelity_tries=1,
                           fidelity=[{"worst_lateness_p99_s": 0.001, "app_wait_s": 0.0, "cpu_pressure_fraction": 0.0}]
                           * len(emu.runs))
    emu = Emulated("reduced", emu.points, kept, lost=lost)
    cells = {(r.source, r.row, r.column): r
             for r in ledger_rows.ledger_rows(paper, search=search, real_stacks=emu)}
    m10 = cells[("Table 1", "1 %, m=10", "T_{tcp}")]
    assert m10.status == "not_regenerable" and "m = 10 is not in the reduced grid" in m10.reason
    m5 = cells[("Table 1", "1 %, m=5", "T_{tcp}")]
    assert m5.status.startswith("measured_") and "fidelity: 6 of 7 runs kept their timing" in m5.reason


def test_summary_text_counts_the_model_cells_and_lists_the_claims(paper, search, rows, tmp_path):
    frame = ledger.write_partial(rows, Stamp(notebook="notebooks/000_multiuser_waiting.ipynb", parameters={}),
                                 tmp_path / "ledger.csv")
    regen = tables.regenerate(paper, operating_point.chosen_convention(paper, search))
    text = ledger_rows.summary_text(frame, regen)
    model = frame[frame.column.str.startswith("W_")]
    assert f"{int((model.status == 'reproduced').sum())} of 72 printed model cells are reproduced" in text
    # one bullet per claim, with its status
    assert text.count("\n* ") == 11
    assert "— **untestable**" in text  # error_nist
