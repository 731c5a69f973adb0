"""Paper 004's explorer: curves equal the model at hand-derived points; Table II's points only at the paper's point."""

import pytest

from paperlib import explore
from paperlib.reproduce.p004 import explore as p004_explore


@pytest.fixture(scope="module")
def explorer_004():
    return p004_explore.explorer()


def test_it_is_the_registered_explorer_and_its_grids(explorer_004):
    assert explore.explorer("004").name == explorer_004.name == "004"
    assert len(explorer_004.curves("rate").x) == explore.N_GRID
    assert len(explorer_004.curves("initial window").x) == 64  # whole windows 1..64


def test_at_the_paper_point(explorer_004):
    c = explorer_004.curves("initial window", rate_bps=1e6, rtt_s=0.2, obj_bytes=50_000)
    sctp, tcp = (y for _, y in c.lines)
    # x = 4 (index 3), L_obj = 400000 bit, L = 12000 bit, mu = 1e6 bit/s, T_r = 0.2 s:
    # alpha = ceil(log2(400000/(4*12000) + 1)) = ceil(log2 9.33) = 4;
    # beta = floor(log2((1 + 1e6*0.2/12000)/4)) + 1 = floor(log2 4.42) + 1 = 3; gamma = 3;
    # LT = 0.4 + 0.4 + 3 (0.2 + 0.012) - 4 (2^3 - 1) 0.012 = 1.100 s (printed 1.10)
    assert sctp[3] == pytest.approx(1.100)
    assert tcp[3] == pytest.approx(1.100 + 2 * 0.2)  # Eq. (6): + 2 T_r


def test_zero_rtt_is_the_transmission_time(explorer_004):
    c = explorer_004.curves("rtt", rate_bps=1e6, obj_bytes=50_000, initial_window=4)
    assert c.x[0] == 0.0
    # T_r = 0: beta = floor(log2(1/4)) + 1 < 0 -> 0 stalls; LT = L_obj/mu = 400000/1e6 s, TCP the same (+ 2 T_r = 0)
    assert [y[0] for _, y in c.lines] == pytest.approx([0.4, 0.4])


def test_published_points_only_at_the_paper_point(explorer_004):
    c = explorer_004.curves("rate")
    assert [len(x) for _, x, _ in c.points] == [5, 5, 5, 5]  # Table II: Exp and Model, SCTP and TCP
    assert {kw["label"] for kw, _, _ in c.points} == {"SCTP, published experiment", "SCTP, published model",
                                                       "TCP, published experiment", "TCP, published model"}
    assert explorer_004.curves("rate", rtt_s=0.5).points == []  # another T_r: Table II does not apply


def test_redraw_changes_with_the_sliders(explorer_004):
    a = explorer_004.redraw("rate", rtt_s=0.3).copy()
    b = explorer_004.redraw("rate", rtt_s=0.31)
    assert a.shape == b.shape and (a != b).any()
    with pytest.raises(ValueError, match="rtt"):
        explorer_004.curves("rate", rtt=0.1)
