"""Paper 005's replication plan: the pilot's intervals and the model's effects give each question's replications."""

import math

import pandas as pd
import pytest
from scipy import stats

from paperlib import replications
from paperlib.data import load_paper
from paperlib.reproduce.p005 import claims, operating_point, replication_plan
from tests.p005_helpers import with_pairs


@pytest.fixture(scope="module")
def ev():
    paper = load_paper("005")
    return claims.Evidence(paper, operating_point.chosen_convention(paper), operating_point.operating_point(paper))


def pilot(half=0.05, n=5, protocols=("h2", "h3", "sctp")):
    """A pilot summary at the real stacks' link: PLT 1.1 s at IW3 and 1.0 s at IW10 without loss (h2 0.2 s slower
    per 1% of loss), every half-width ``half``."""
    rows = []
    for proto in protocols:
        for loss in claims.LOSSES:
            for iw in claims.IW_REAL:
                plt = 1.0 + (0.1 if iw == 3 else 0.0) + (20 * loss if proto == "h2" else 0.0)
                rows.append(dict(protocol=proto, rate_bps=claims.LINK["rate_bps"], rtt_s=claims.LINK["rtt_s"],
                                 loss=loss, iw_segments=iw, n=n, plt_mean_s=plt, plt_half_s=half,
                                 object_mean_s=0.9 if proto == "h2" else 0.8, object_half_s=half))
    return with_pairs(pd.DataFrame(rows))


def test_the_iw_question_reads_h2_without_loss_and_takes_its_spread_from_the_pilot(ev):
    plans = {p.claim_id: p for p in replication_plan.plans(ev, pilot())}
    iw = plans["iw10_gain"]
    assert iw.cells == (("h2", 0.0, 3), ("h2", 0.0, 10))
    # gain 1 - 1.0/1.1 = 0.0909; half sqrt(0.05^2 + 0.05^2) / 1.1 = 0.06428 over 5 replications, so one
    # replication's spread is 0.06428 sqrt(5) / t(0.975, 4) = 0.06428 * 2.2361 / 2.7764 = 0.05177
    assert iw.pilot_mean == pytest.approx(1 - 1.0 / 1.1)
    assert iw.plan.spread == pytest.approx(math.hypot(0.05, 0.05) / 1.1 * math.sqrt(5) / stats.t.ppf(0.975, 4))
    assert replications.PILOT <= iw.plan.n <= replications.CAP


def test_a_cell_runs_the_most_any_question_asks(ev):
    plans = replication_plan.plans(ev, pilot())
    per_cell = replication_plan.cell_replications(plans)
    for q in plans:
        for cell in q.cells:
            assert per_cell[cell] >= q.plan.n
    assert max(per_cell.values()) == max(q.plan.n for q in plans)


def test_a_tight_pilot_needs_no_more_than_the_pilot_and_a_wide_one_hits_the_cap(ev):
    # every question's cells run the fixed QUESTION_REPLICATIONS; the power rule's own number is reported beside
    tight = replication_plan.plans(ev, pilot(half=1e-6))
    assert all(q.plan.n == replications.QUESTION_REPLICATIONS and q.plan.n_needed == 5 and q.plan.fixed
               for q in tight)
    wide = {q.claim_id: q for q in replication_plan.plans(ev, pilot(half=50.0))}
    assert wide["iw10_gain"].plan.n == replications.CAP and wide["iw10_gain"].plan.capped


def test_a_family_that_did_not_run_gets_no_plan(ev):
    ids = {q.claim_id for q in replication_plan.plans(ev, pilot(protocols=("h2", "h3")))}
    assert "sctp_streams_same" not in ids and "h3_beats_h2_loss" in ids


def test_the_table_has_one_row_per_question(ev):
    plans = replication_plan.plans(ev, pilot())
    assert list(replication_plan.table(plans)["question"]) == [q.claim_id for q in plans]


def test_a_pilot_that_kept_fewer_runs_still_plans_the_pilot_s_size(ev):
    # two of the pilot's five runs kept their timing in every cell, with a tight interval: the power calculation
    # would stop at its floor, the pilot's planned 5; the cells run the fixed number all the same
    plans = replication_plan.plans(ev, pilot(half=1e-6, n=2))
    assert plans and all(q.pilot_n == 2 and q.plan.n == replications.QUESTION_REPLICATIONS
                         and q.plan.n_needed == replications.PILOT for q in plans)


def test_more_points_count_the_runs_that_kept_their_timing():
    from paperlib.reproduce.p005 import emulated

    link = dict(rate_bps=claims.LINK["rate_bps"], rtt_s=claims.LINK["rtt_s"])
    pts = [p for p in emulated.points(None, "reduced") if emulated.implementation_of(p) == "python"]
    h3 = ("h3", 0.0, 10)
    # the pilot ran reps 0-4 of the cell and kept 2 of them; the plan asks 5 kept: 3 new repetitions, 5, 6 and 7,
    # with their own link seeds and no capture check; a cell that kept its 5 gets none
    got = emulated.more_points(pts, {h3: 5, ("h2", 0.0, 10): 5}, {h3: 2, ("h2", 0.0, 10): 5}, **link)
    assert [(p["protocol"], p["rep"]) for p in got] == [("h3", 5), ("h3", 6), ("h3", 7)]
    assert all(not p["capture"] and p["link_seed"] == emulated.link_seed(p["rate_bps"], p["rtt_s"], 0.0, p["rep"])
               for p in got)
    # once they ran (reps 5-7) and one of them lost its timing again: one more, rep 8
    again = emulated.more_points(pts + got, {h3: 5}, {h3: 4}, **link)
    assert [p["rep"] for p in again] == [8]


def test_kept_replications_count_the_python_runs_at_the_link():
    from paperlib.reproduce.p005 import emulated

    link = dict(rate_bps=claims.LINK["rate_bps"], rtt_s=claims.LINK["rtt_s"])
    kept = pd.DataFrame([dict(protocol="h3", loss=0.0, iw_segments=10, implementation=impl, **link)
                         for impl in ("python", "python", "c")]
                        + [dict(protocol="h3", loss=0.0, iw_segments=10, implementation="python",
                                rate_bps=1e6, rtt_s=0.2)])
    assert emulated.kept_replications(kept, **link) == {("h3", 0.0, 10): 2}
    assert emulated.kept_replications(None, **link) == {}
