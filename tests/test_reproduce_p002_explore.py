"""Paper 002's explorer: the loss-free response time derived by hand; Tables II and III's points where they apply.

About 5 s (the convention search runs once).
"""

import pytest

from paperlib.reproduce.p002 import explore as p002_explore


def test_without_loss():
    explorer = p002_explore.explorer()
    c = explorer.curves("loss")
    assert c.x[0] == 0.0
    # p = 0, chosen convention (KB = 1024, N = 13824/536 = 25.791 exact, IT = 2 RTT, M = 5, PI = 1, final chunk N):
    # s = 536*8/40000 = 0.1072 s; Q = floor(log2(1 + 0.256/0.1072)) + 1 = 2; P = min(2, log2(26.791) - 1) = 2;
    # SC = 2 (0.256 + 0.1072) - 3 (0.1072) = 0.4048; OT = 0.4048 + 25.791 (0.1072) = 3.1696;
    # TCP = SCTP = 2 (0.256) + 5 (0.256 + 3.1696) = 17.64 s (no loss, no head-of-line blocking)
    assert [y[0] for _, y in c.lines] == pytest.approx([17.64, 17.64])
    # Table II (4 rows x 4 loss columns) and Table III's RTT = 0.256 s column, the one point the tables share
    assert sum(len(x) for _, x, _ in c.points) == 16 + 4
    # Table III, and Table II's p = 1 % column
    assert sum(len(x) for _, x, _ in explorer.curves("rtt").points) == 16 + 4
