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


def test_chosen_convention_is_the_search_best(paper, search):
    conv = p002.chosen_convention(paper, search)
    best = search.iloc[0]
    assert {k: best[k] for k in conv} == conv
    assert best["within_5pct"] == search["within_5pct"].max()


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
    assert all(q["obj_bytes"] == pytest.approx(13_500) for q in pts) or conv["kilo"] == 1024
    assert np.isclose(sorted({q["rtt_s"] for q in pts}), [0.055, 0.08, 0.256, 1.0]).all()
