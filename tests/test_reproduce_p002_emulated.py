"""Paper 002 on real stacks: sweep points, the per-point summary, ledger rows and the claims re-judged by CI."""

import numpy as np
import pandas as pd
import pytest

from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.reproduce.p002 import emulated


def test_points_per_profile(paper):
    assert emulated.points(paper, "off") == []
    pts = emulated.points(paper, "reduced")
    # 7 distinct (rate, RTT, p) points (the shared one once) x protocols x 3 repetitions
    assert len(pts) == 7 * len(ex.protocols()) * 3
    # 13.5 KB under the chosen convention's KB = 1024: 13 824 B; 536 B segments, 5 objects, pipelined
    assert {(q["object_bytes"], q["mss_bytes"], q["objects"], q["mode"]) for q in pts} == {(13_824, 536, 5,
                                                                                            "pipelined")}
    assert len(emulated.points(paper, "full")) == 7 * len(ex.protocols()) * 10
    assert emulated.link_rates_bps(paper) == [40_000.0]


def test_per_repetition_response_is_connect_to_last_object():
    runs = pd.DataFrame([{"protocol": "tcp", "rate_bps": 40e3, "rtt_s": 0.256, "loss": 0.01, "rep": 0,
                          "t_start": [1.0, 1.5], "t_done": [9.0, 12.5]}])
    # from the first start (1.0) to the last object's end (12.5): 11.5 s
    assert emulated.per_repetition(runs)["response_s"].tolist() == [11.5]


def _table(tcp, sctp, ci=0.1, n_tcp=3, n_sctp=3):
    """A summary table with the same emulated means at two Table II points and Table III's 0.055 and 1.0 s."""
    rows = []
    for tab, p, rtt, scale in (("Table II", 0.004, 0.256, 1.0), ("Table II", 0.05, 0.256, 1.0),
                               ("Table III", 0.01, 0.055, 1.0), ("Table III", 0.01, 1.0, 2.0)):
        rows.append({"table": tab, "p": p, "rtt_s": rtt, "emulated TCP (s)": tcp * scale * (1 + p + rtt),
                     "CI95 TCP (s)": ci, "n TCP": n_tcp, "emulated SCTP (s)": sctp * scale * (1 + p + rtt),
                     "CI95 SCTP (s)": ci, "n SCTP": n_sctp})
    return pd.DataFrame(rows)


def test_sctp_less_20pct_by_its_ci():
    # SCTP = 0.8 TCP at every point: gain 20% each; per point CI sqrt(2) x 0.1 / TCP, about 0.01, so the mean's CI
    # is within 20 +/- 5%: supported
    v = emulated.sctp_less_20pct(_table(10.0, 8.0))
    assert v.status == "supported" and v.regenerated == pytest.approx(20.0) and v.column == emulated.COLUMN
    # SCTP = 0.99 TCP: 1% gain, CI wholly below 15%: refuted
    assert emulated.sctp_less_20pct(_table(10.0, 9.9)).status == "refuted"
    # SCTP = 0.84 TCP (16%) with a CI of 1 s per stack: per point sqrt(2)/TCP = 0.09-0.13, the mean's about 0.06,
    # so the CI (about 10-22%) straddles 15%: no verdict
    straddle = emulated.sctp_less_20pct(_table(10.0, 8.4, ci=1.0))
    assert straddle.status == "untestable" and straddle.regenerated == pytest.approx(16.0)
    assert emulated.sctp_less_20pct(_table(10.0, 8.0, n_sctp=0)).status == "untestable"


def test_both_stacks_counts_the_shared_point_once():
    table = pd.concat([_table(10.0, 8.0), _table(10.0, 8.0).iloc[[0]]], ignore_index=True)
    assert len(emulated.both_stacks(table)) == 4


def test_sctp_better_than_tcp_by_its_ci():
    v = emulated.sctp_better_than_tcp(_table(10.0, 8.0))
    assert v.status == "supported" and v.regenerated > 0 and v.source is None
    assert emulated.sctp_better_than_tcp(_table(8.0, 10.0)).status == "refuted"
    none = emulated.sctp_better_than_tcp(_table(10.0, 8.0, n_sctp=1))
    assert none.status == "untestable" and none.source == "Abstract"


def test_response_increases_rtt_by_its_ci():
    # Table III: RTT 0.055 s -> 1.0 s: TCP 10 x 1.065 = 10.65 -> 2 x 10 x 2.01 = 40.2 s: +29.55 +/- 0.14 s
    v = emulated.response_increases_rtt(_table(10.0, 8.0))
    assert v.status == "supported" and "TCP: RTT 0.055 -> 1 s adds 29.55 +/- 0.14 s" in v.reason
    # only TCP ran: judged on TCP alone
    assert "SCTP:" not in emulated.response_increases_rtt(_table(10.0, 8.0, n_sctp=0)).reason
    assert emulated.response_increases_rtt(_table(10.0, 8.0, n_tcp=0, n_sctp=0)).status == "untestable"


def test_ledger_rows_when_emulation_is_off(paper):
    table = emulated.summary(paper, pd.DataFrame(columns=["protocol", "rate_bps", "rtt_s", "loss", "rep",
                                                          "t_start", "t_done"]))
    assert (table["n TCP"] == 0).all() and np.isnan(table["emulated TCP (s)"]).all()
    rows = emulated.ledger_rows(paper, table, [], "off here")
    exp = [r for r in rows if "Experimental" in r.column]
    assert len(exp) == 16 and all(r.reason.startswith(el.NOT_RUN + " off here") for r in exp)
    # the three re-judged claims come last, in EMULATED_CLAIMS' order, all untestable without runs
    last = rows[-3:]
    claims = paper.claims.cells.set_index("id")
    assert [r.row for r in last] == [claims.loc[i, "claim"] for i in emulated.EMULATED_CLAIMS]
    assert {r.column for r in last} == {emulated.COLUMN} and {r.status for r in last} == {"untestable"}
    assert [r.source for r in last] == ["Abstract", "Abstract", "Section III.B (Results Analysis), paragraph 2"]


def test_summary_text_names_the_reason_nothing_ran(paper):
    frame = pd.DataFrame({"reason": [f"{el.NOT_RUN} x"] * 2, "column": ["TCP (Experimental) (Sec)"] * 2,
                          "rel_error": ["", ""]})
    text = emulated.summary_text(frame, "emulation = 'off'")
    assert text.startswith("**Real stacks.** 0 of 2 published experimental cells") and "(emulation = 'off')" in text
