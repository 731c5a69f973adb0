"""Paper 002's printed numbers checked: the tables' shared point, loss-free bounds, the algorithm's trace."""

import pytest
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.reproduce.p002 import findings


def test_the_tables_disagree_at_their_shared_point(paper):
    shared = findings.consistency_findings(paper)
    assert not shared["agree"].any()
    # Table III's model pair is Table II's experimental pair
    assert shared.loc["TCP (Model) (Sec)", "Table III (RTT = 0.256 s)"] == shared.loc[
        "TCP (Experimental) (Sec)", "Table II (p = 1 %)"] == "18.73"


def test_loss_free_bounds(paper):
    # bound at RTT 0.055 s: 3 RTT + 5 x 108 000 bit / 40 kbit/s = 0.165 + 13.5 = 13.665 s (a window of 4 segments
    # of 0.1072 s each outlasts a round trip, so slow start never stalls); at RTT 1 s: 3 + 13.5 + stalls
    b = findings.response_bounds(paper).set_index("column")["bound_s"]
    assert b["0.055"] == pytest.approx(13.665)
    assert b["1.0"] > 16.5
    # Table II (RTT 0.256 s): 0.768 + 13.5 = 14.268 s at every p (the bound has no loss)
    assert list(b[["0.4 %", "1%", "2 %", "5 %"]]) == pytest.approx([14.268] * 4)


def test_no_published_time_is_below_its_bound(paper):
    from paperlib.ledger import impossible_note

    bounds = findings.response_bounds(paper)
    for _, pt in bounds.iterrows():
        cells = paper.tables[pt["table"]].cells.set_index("Protocol")
        # the smallest printed time, 13.71 s (SCTP experiment at 55 ms), is just above its 13.665 s bound
        assert all(impossible_note(v, pt["bound_s"], findings.BOUND_WHAT) == "" for v in cells[pt["column"]])


def test_algorithm_steps_at_one_percent(paper):
    steps = findings.algorithm_steps(paper, CONV)
    # N = 13 824 / 536 = 25.8 packets, a = ceil(0.258) = 1: one loss step and the final step
    assert steps.losses == 1 and [s["phase"] for s in steps.trace] == ["slow-start", "final"]
    assert steps.n_packets == pytest.approx(13_824 / 536)
    # HOB of the one loss: one packet, MSS/R = 4288 / 40 000 = 0.1072 s
    assert steps.tot_hob_s == pytest.approx(0.1072)
    # the loss-free OT is SC + O/R = 0.4048 + 2.7648 = 3.1696 s (tests/test_reproduce_p002_model_reading.py); the
    # loss adds at least TOdetect + HOB = 1.5 x 0.256 + 0.1072 = 0.4912 s
    assert steps.ot_s >= 3.1696 + 0.4912
