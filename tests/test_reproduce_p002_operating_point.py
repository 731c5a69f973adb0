"""Seed 002's Tables II-III from the published data: conventions, consistency, ledger rows."""

import numpy as np
import pytest

from paperlib.data import load_paper
from paperlib.reproduce import p002


@pytest.fixture(scope="module")
def paper():
    return load_paper("002")


@pytest.fixture(scope="module")
def search(paper):
    return p002.convention_search(paper)


def test_operating_points_come_from_the_text(paper):
    pts = p002.operating_points(paper)
    assert [pt.p for pt in pts[:4]] == pytest.approx([0.004, 0.01, 0.02, 0.05])
    assert [pt.rtt_s for pt in pts[4:]] == pytest.approx([0.055, 0.08, 0.256, 1.0])
    assert {(pt.obj_kb, pt.mss_bytes, pt.rate_bps, pt.objects) for pt in pts} == {(13.5, 536.0, 40_000.0, 5)}


def test_the_tables_disagree_at_their_shared_point(paper):
    shared = p002.consistency_findings(paper)
    assert not shared["agree"].any()
    # Table III's model pair is Table II's experimental pair
    assert shared.loc["TCP (Model) (Sec)", "Table III (RTT = 0.256 s)"] == shared.loc[
        "TCP (Experimental) (Sec)", "Table II (p = 1 %)"] == "18.73"


def test_chosen_convention_fixes_it_and_a_and_ranks_the_rest(paper, search):
    conv = p002.chosen_convention(paper, search)
    # The seed defines IT as "initial connection setup and HTML transfer time": one round trip to set up, one to
    # fetch the HTML, so IT = 2 RTT (docs/reconstruction-002-000.md 1.3); a = ceil(Np) as seed 000 prints it.
    assert (conv["it_rtts"], conv["a_mode"]) == (2, "ceil")
    fixed = search[(search["it_rtts"] == 2) & (search["a_mode"] == "ceil")]
    # no combination with IT = 2 RTT and a = ceil(Np) brings more cells within 5%, nor reproduces more
    row = fixed[np.logical_and.reduce([fixed[k] == v for k, v in conv.items()])].iloc[0]
    assert row["within_5pct"] == fixed["within_5pct"].max()
    assert row["reproduced"] == fixed[fixed["within_5pct"] == row["within_5pct"]]["reproduced"].max()
    # a = ceil(26 x p) = 1 at p = 0.4, 1, 2 % and 2 at 5 %: TCP - SCTP = M a MSS/R = 5 x 4288/40000 = 0.536 s,
    # then 1.072 s (Table II prints 0.51, 0.52, 0.51, 0.98)
    r = p002.regenerate(p002.operating_points(paper), conv)
    gap = (r["tcp_s"] - r["sctp_s"]).to_numpy()[:4]
    assert gap == pytest.approx([0.536, 0.536, 0.536, 1.072])


def test_lone_hit_rule_on_the_old_it_zero_reading(paper, search):
    # The reading the ledger used before (IT = 0): its SCTP model is flat in p over 0.4-2 % (a = 1 at each),
    # 5 x (RTT + OT - HOB) = 20.768 s, truncated 20.76 = the print at p = 0.4 % only; 1 % and 2 % print 20.81 and
    # 21.26 where the model stays at 20.768. That cell is a lone hit, not a reproduction.
    from paperlib import ledger

    old = {"kilo": 1000, "log_mode": "continuous", "sctp_total": "times_M", "pipeline_depth": 1, "it_rtts": 0,
           "final_chunk": "x+1", "a_mode": "ceil", "n_mode": "ceil", "post_loss_slow_start": False,
           "rounding": "truncate"}
    r = p002.regenerate(p002.operating_points(paper), old)
    sctp = r["sctp_s"].to_numpy()[:4]
    assert sctp[:3] == pytest.approx([20.768] * 3)
    printed = list(paper.tables["table2"].cells.set_index("Protocol").loc["SCTP (Model) (Sec)"])
    found = ledger.lone_hits(sctp, printed, "truncate", ["0.4 %", "1%", "2 %", "5 %"])
    assert found[0].startswith("lone hit") and "only one of the 4" in found[0] and "same at 1%" in found[0]
    assert found[1:] == ["", "", ""]
    row = ledger.result_row("002", "Table II", "p = 0.4 %", "SCTP (Model) (Sec)", printed[0], float(sctp[0]),
                            rule="truncate", reason="x", lone_hit=found[0])
    assert row.status == "lone_hit"


def test_no_published_or_regenerated_time_below_the_loss_free_bound(paper, search):
    # bound at RTT 0.055 s: 3 RTT + 5 x 108 000 bit / 40 kbit/s = 0.165 + 13.5 = 13.665 s (a window of 4 segments
    # of 0.1072 s each outlasts a round trip, so slow start never stalls); at RTT 1 s: 3 + 13.5 + stalls
    b = p002.response_bounds(paper).set_index("column")["bound_s"]
    assert b["0.055"] == pytest.approx(13.665)
    assert b["1.0"] > 16.5
    rows, conv = p002.ledger_rows(paper, search)  # raises BoundViolation if a regenerated time is below
    # the smallest printed time, 13.71 s (SCTP experiment at 55 ms), is just above its 13.665 s bound
    assert not any("impossible as printed" in r.reason for r in rows)


def test_table_iv_claims_are_untestable(paper, search):
    rows, _ = p002.ledger_rows(paper, search)
    table_iv = [r for r in rows if r.column == "claim" and r.row in set(paper.claims.cells.set_index("id").loc[
        ["hob_small_r_increases", "hob_close_zero_r", "tcp_sctp_same_r_increases"], "claim"])]
    assert len(table_iv) == 3 and {r.status for r in table_iv} == {"untestable"}
    assert all("Table IV" in r.reason and "absent from the seed" in r.reason for r in table_iv)


def test_recommended_reconstruction_reference_point(paper):
    # docs/reconstruction-002-000.md Sec. 1.4: with KB = 1000, continuous logs, IT = 2 RTT, PI = 1,
    # SCTP x M, the model gives TCP 21.380 s and SCTP 20.844 s at p = 1 %, RTT = 0.256 s.
    rec = {k: v[0] for k, v in p002.CONVENTION_AXES.items()}
    r = p002.regenerate(p002.operating_points(paper), rec)
    assert r["tcp_s"].iloc[1] == pytest.approx(21.380, abs=1e-3)
    assert r["sctp_s"].iloc[1] == pytest.approx(20.844, abs=1e-3)
    # TCP - SCTP = M a MSS/R = 5 x 1 x 4288 / 40000 = 0.536 s
    assert r["tcp_s"].iloc[1] - r["sctp_s"].iloc[1] == pytest.approx(0.536)


def test_ledger_rows_cover_every_printed_cell_and_claim(paper, search):
    rows, conv = p002.ledger_rows(paper, search)
    table_rows = [r for r in rows if r.source in ("Table II", "Table III")]
    assert len(table_rows) == 2 * 4 * 4
    printed = sorted(r.published for r in table_rows)
    expected = sorted(
        v for t in ("table2", "table3") for _, row in paper.tables[t].cells.iterrows() for v in list(row)[1:]
    )
    assert printed == expected
    assert {r.status for r in table_rows if "Experimental" in r.column} == {"not_regenerable"}
    assert len(rows) - len(table_rows) == len(paper.claims.cells)


def test_twenty_percent_claim_is_refuted(paper, search):
    rows, _ = p002.ledger_rows(paper, search)
    claim = next(r for r in rows if "20% on average" in r.row)
    # mean (TCP - SCTP)/TCP over the 16 printed pairs is a few percent, nowhere near 20
    assert float(claim.regenerated) < 5 and claim.status == "refuted"


def test_simulation_points_cover_each_distinct_point(paper, search):
    conv = p002.chosen_convention(paper, search)
    pts = p002.simulation_points(paper, conv, 3)
    # 8 printed columns, the p = 1 % / RTT 0.256 s point twice: 7 distinct points x 3 runs
    assert len(pts) == 7 * 3
    assert len({(q["p"], q["rtt_s"]) for q in pts}) == 7
    # 13.5 KB under the convention's KB: 13 500 B (KB = 1000) or 13 824 B (KB = 1024)
    assert all(q["obj_bytes"] == pytest.approx(13.5 * conv["kilo"]) for q in pts)
    assert np.isclose(sorted({q["rtt_s"] for q in pts}), [0.055, 0.08, 0.256, 1.0]).all()


def test_a_print_below_its_bound_is_flagged_first(paper, search, monkeypatch):
    # with a bound of 15 s at RTT 0.055 s the printed 14.89 s (at most 14.90 before rounding) is impossible by 0.11 s
    real = p002.response_bounds

    def raised(p):
        frame = real(p)
        frame.loc[frame["column"] == "0.055", "bound_s"] = 15.0
        return frame

    monkeypatch.setattr(p002, "response_bounds", raised)
    rows, _ = p002.ledger_rows(paper, search)
    row = next(r for r in rows if r.row == "RTT (s) = 0.055" and r.column == "TCP (Model) (Sec)")
    assert row.reason.startswith("impossible as printed: 0.110 s below the loss-free bound 15.000 s")
    assert row.status == "differs"  # the status still follows the rules (16.50 s against 14.89 s)
    assert sum(r.reason.startswith("impossible as printed") for r in rows) == 4  # the four cells of that column
