"""The explorers: curves equal the models at hand-derived points; published points show where they apply.

About 10 s (the 000 and 002 explorers run their papers' convention searches once).
"""

import numpy as np
import pytest

from paperlib import explore


@pytest.fixture(scope="module")
def ex004():
    return explore.explorer("004")


def test_grid_is_ten_thousand_points(ex004):
    assert len(ex004.curves("rate").x) == explore.N_GRID == 10_000
    assert len(ex004.curves("initial window").x) == 64  # whole windows 1..64


def test_004_at_the_paper_point(ex004):
    c = ex004.curves("initial window", rate_bps=1e6, rtt_s=0.2, obj_bytes=50_000)
    sctp, tcp = (y for _, y in c.lines)
    # x = 4 (index 3), L_obj = 400000 bit, L = 12000 bit, mu = 1e6 bit/s, T_r = 0.2 s:
    # alpha = ceil(log2(400000/(4*12000) + 1)) = ceil(log2 9.33) = 4;
    # beta = floor(log2((1 + 1e6*0.2/12000)/4)) + 1 = floor(log2 4.42) + 1 = 3; gamma = 3;
    # LT = 0.4 + 0.4 + 3 (0.2 + 0.012) - 4 (2^3 - 1) 0.012 = 1.100 s (printed 1.10)
    assert sctp[3] == pytest.approx(1.100)
    assert tcp[3] == pytest.approx(1.100 + 2 * 0.2)  # Eq. (6): + 2 T_r


def test_004_zero_rtt_is_the_transmission_time(ex004):
    c = ex004.curves("rtt", rate_bps=1e6, obj_bytes=50_000, initial_window=4)
    assert c.x[0] == 0.0
    # T_r = 0: beta = floor(log2(1/4)) + 1 < 0 -> 0 stalls; LT = L_obj/mu = 400000/1e6 s, TCP the same (+ 2 T_r = 0)
    assert [y[0] for _, y in c.lines] == pytest.approx([0.4, 0.4])


def test_004_published_points_only_at_the_paper_point(ex004):
    c = ex004.curves("rate")
    assert [len(x) for _, x, _ in c.points] == [5, 5, 5, 5]  # Table II: Exp and Model, SCTP and TCP
    assert {kw["label"] for kw, _, _ in c.points} == {"SCTP, published experiment", "SCTP, published model",
                                                       "TCP, published experiment", "TCP, published model"}
    assert ex004.curves("rate", rtt_s=0.5).points == []  # another T_r: Table II does not apply


def test_000_users_axis():
    ex = explore.explorer("000")
    c = ex.curves("users")
    for _, y in c.lines:
        assert y[0] == 0.0  # one user waits for nobody
        # the tables' law W = (m-1)(2n-1)tau/(2m): W(10)/W(5) = (9/10)/(4/5) = 1.125
        assert y[9] / y[4] == pytest.approx(1.125)
    # Table 1 (p = 1 %), Table 2's "4 Kbps" (40 Kbps) and Table 3's 256 ms block share the default point
    w_sctp = dict((kw["label"], (x, y)) for kw, x, y in c.points)["SCTP, published model"]
    assert sorted(w_sctp[1][w_sctp[0] == 5]) == [2.84, 2.84, 3.19]
    turnaround = ex.curves("users", quantity="turnaround")
    assert turnaround.points == []  # the tables print waiting times only
    assert (turnaround.lines[0][1] > c.lines[0][1]).all()


def test_002_without_loss():
    ex = explore.explorer("002")
    c = ex.curves("loss")
    assert c.x[0] == 0.0
    # p = 0, chosen convention (KB = 1024, N = 13824/536 = 25.791 exact, IT = 2 RTT, M = 5, PI = 1, final chunk N):
    # s = 536*8/40000 = 0.1072 s; Q = floor(log2(1 + 0.256/0.1072)) + 1 = 2; P = min(2, log2(26.791) - 1) = 2;
    # SC = 2 (0.256 + 0.1072) - 3 (0.1072) = 0.4048; OT = 0.4048 + 25.791 (0.1072) = 3.1696;
    # TCP = SCTP = 2 (0.256) + 5 (0.256 + 3.1696) = 17.64 s (no loss, no head-of-line blocking)
    assert [y[0] for _, y in c.lines] == pytest.approx([17.64, 17.64])
    # Table II (4 rows x 4 loss columns) and Table III's RTT = 0.256 s column, the one point the tables share
    assert sum(len(x) for _, x, _ in c.points) == 16 + 4
    assert sum(len(x) for _, x, _ in ex.curves("rtt").points) == 16 + 4  # Table III, and Table II's p = 1 % column


def test_redraw_gives_a_png_and_bad_input_is_named(ex004):
    png = ex004.redraw("rate", rtt_s=0.3)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert ex004.redraw("rate", rtt_s=0.31) != png
    with pytest.raises(ValueError, match="axis"):
        ex004.curves("bandwidth")
    with pytest.raises(ValueError, match="rtt"):
        ex004.curves("rate", rtt=0.1)
    with pytest.raises(ValueError, match="explorer"):
        explore.explorer("001")


def test_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    box = explore.widget("004")
    controls = box.children[0].children
    image = box.children[1]
    before = image.value
    rtt = next(c for c in controls if getattr(c, "description", "") == "rtt_s")
    rtt.value = 0.5
    assert image.value != before and image.value[:4] == b"\x89PNG"
