"""The claim registry: one function per claim id of data/<paper>/claims.csv, for every paper."""

from __future__ import annotations

import pytest

from paperlib import ledger
from paperlib.claims import ClaimError, ClaimRegistry, Verdict
from paperlib.data import load_paper

# Each paper's own claims test (tests/test_reproduce_p<id>_claims.py) checks that its registry matches
# its claims.csv one to one; tests/test_layout.py checks that every paper has such a registry.


def test_a_missing_or_extra_function_is_named():
    paper = load_paper("004")
    reg = ClaimRegistry("004")
    reg.claim("within_4_percent")(lambda: Verdict("untestable", "x"))
    reg.claim("no_such_claim")(lambda: Verdict("untestable", "x"))
    with pytest.raises(ClaimError, match=r"without a function: \['tcp_two_rtt_larger'\].*\['no_such_claim'\]"):
        reg.check_against(paper)


def test_a_claim_cannot_have_two_functions():
    reg = ClaimRegistry("004")
    reg.claim("within_4_percent")(lambda: Verdict("untestable", "x"))
    with pytest.raises(ClaimError, match="two functions"):
        reg.claim("within_4_percent")(lambda: Verdict("untestable", "x"))


def test_a_verdict_needs_a_claim_status_and_a_reason():
    with pytest.raises(ClaimError, match="claim status"):
        Verdict("reproduced", "a result status, not a claim status")
    with pytest.raises(ClaimError, match="reason"):
        Verdict("supported", "  ")


def test_rows_follow_the_data_order_and_several_verdicts_give_several_rows():
    paper = load_paper("004")
    reg = ClaimRegistry("004")
    reg.claim("tcp_two_rtt_larger")(lambda: Verdict("refuted", "gap 0.1 s", regenerated=0.1))
    reg.claim("within_4_percent")(lambda: (Verdict("supported", "a", column="claim"),
                                           Verdict("untestable", "b", column="claim (emulated)", source="here")))
    rows = reg.rows(paper)
    ids = list(paper.claims.cells["id"])
    # data order: within_4_percent first, then tcp_two_rtt_larger (see data/004/claims.csv)
    assert ids[:2] == ["within_4_percent", "tcp_two_rtt_larger"]
    assert [(r.status, r.column) for r in rows] == [("supported", "claim"), ("untestable", "claim (emulated)"),
                                                    ("refuted", "claim")]
    assert rows[1].source == "here" and rows[0].source == paper.claim("within_4_percent")["location"]
    assert rows[2].regenerated == ledger.format_value(0.1)  # the ledger's own formatting


def test_a_function_returning_something_else_is_refused():
    reg = ClaimRegistry("004")
    reg.claim("within_4_percent")(lambda: "supported")
    with pytest.raises(ClaimError, match="not a Verdict"):
        reg.judge("within_4_percent")


def test_an_inconclusive_verdict_carries_the_replications_that_would_decide_it_and_only_it_does():
    v = Verdict("inconclusive", "the 95% interval [-0.3, 0.7] straddles 0", 0.2, replications_to_decide=12.0)
    assert v.replications_to_decide == 12
    assert Verdict("inconclusive", "the cases split").replications_to_decide is None  # split, every case decided
    assert Verdict("inconclusive", "far", replications_to_decide=float("inf")).replications_to_decide > 1e9
    with pytest.raises(ClaimError, match="belongs to an inconclusive verdict"):
        Verdict("supported", "x", replications_to_decide=12.0)
    with pytest.raises(ClaimError, match="whole number >= 2"):
        Verdict("inconclusive", "x", replications_to_decide=1.5)


def test_an_unreachable_claim_stays_untestable():
    # 002's Table IV is absent from the seed; 000's NIST Net is not here: no measurement reaches them
    from paperlib.reproduce.p000 import claims as p000
    from paperlib.reproduce.p002 import claims as p002

    assert p000.error_nist(None).status == "untestable"
    assert p002.diff_nist(None).status == "untestable"
    assert p002.sctp_less_resources(None).status == "untestable"


def test_a_claim_whose_runs_lost_their_timing_is_fidelity_lost_on_the_real_stacks_column():
    from paperlib.claims import fidelity_lost

    v = fidelity_lost("1 of 5 runs kept; lateness 40 ms, waiting 12 ms")
    assert (v.status, v.column, v.regenerated) == ("fidelity_lost", ledger.REAL_STACKS, None)
    with pytest.raises(ClaimError, match="judged on the real stacks"):
        Verdict("fidelity_lost", "x", column="claim")
    paper = load_paper("004")
    reg = ClaimRegistry("004")
    reg.claim("within_4_percent")(lambda: v)
    reg.claim("tcp_two_rtt_larger")(lambda: Verdict("supported", "x"))
    row = reg.rows(paper)[0]
    assert (row.status, row.column) == ("fidelity_lost", ledger.REAL_STACKS)
    assert ledger.is_claim(row.status, row.column)
