"""Paper 000's explorer: the waiting-time law at hand-derived ratios; the printed W where the sliders match a block.

About 5 s (the convention search runs once).
"""

import pytest

from paperlib.reproduce.p000 import explore


def test_users_axis():
    explorer = explore.explorer()
    c = explorer.curves("users")
    for _, y in c.lines:
        assert y[0] == 0.0  # one user waits for nobody
        # the tables' law W = (m-1)(2n-1)tau/(2m): W(10)/W(5) = (9/10)/(4/5) = 1.125
        assert y[9] / y[4] == pytest.approx(1.125)
    # Table 1 (p = 1 %), Table 2's "4 Kbps" (40 Kbps) and Table 3's 256 ms block share the default point
    w_sctp = dict((kw["label"], (x, y)) for kw, x, y in c.points)["SCTP, published model"]
    assert sorted(w_sctp[1][w_sctp[0] == 5]) == [2.84, 2.84, 3.19]
    turnaround = explorer.curves("users", quantity="turnaround")
    assert turnaround.points == []  # the tables print waiting times only
    assert (turnaround.lines[0][1] > c.lines[0][1]).all()
