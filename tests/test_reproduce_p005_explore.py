"""Paper 005's explorer: the curves equal the page model at hand-derived points; the choices switch what it shows."""

import numpy as np
import pytest

from paperlib import explore
from paperlib.reproduce.p005 import explore as p005_explore
from paperlib.reproduce.p005 import findings, transports

# The real stacks' page (median desktop homepage) in 1460-byte segments: 1,689 packets
# (docs/reconstruction-005.md Sec. 3).
PACKETS = 1689


@pytest.fixture(scope="module")
def explorer_005():
    return p005_explore.explorer()


def test_it_is_paper_005s_explorer_and_its_grids(explorer_005):
    assert explorer_005.name == "005"
    assert len(explorer_005.curves("rate").x) == explore.N_GRID
    assert len(explorer_005.curves("initial window").x) == 64  # whole windows 1..64
    labels = [kw["label"] for kw, _ in explorer_005.curves("loss").lines]
    assert labels == [f"{transports.LABEL[p]}, model" for p in transports.PROTOCOLS]


def test_zero_rtt_sends_the_page_at_the_link_rate(explorer_005):
    c = explorer_005.curves("rtt", rate_bps=10e6, loss=0.0, iw_segments=10)
    assert c.x[0] == 0.0
    # T_r = 0: no handshake time, no stall (beta = floor(log2(1/x)) + 1 <= 0): the 1,689 packets of 11,680 bits
    # at 10 Mbit/s, 1689 x 11680 / 1e7 = 1.972752 s, for every family
    assert [y[0] for _, y in c.lines] == pytest.approx([1.972752] * 3, abs=1e-9)


def test_time_to_first_byte_is_the_handshake_the_request_and_one_packet(explorer_005):
    c = explorer_005.curves("rtt", quantity="time to first byte", rate_bps=10e6, loss=0.0)
    h2, h3, sctp = (y[-1] for _, y in c.lines)
    # T_r = 0.5 s: (h + 1) T_r + MSS/R = 3 x 0.5 + 0.001168 (h2, h = 2); 2 x 0.5 + 0.001168 (h3 and sctp, h = 1)
    assert h2 == pytest.approx(1.501168, abs=1e-12)
    assert h3 == sctp == pytest.approx(1.001168, abs=1e-12)


def test_the_curves_are_the_findings(explorer_005):
    c = explorer_005.curves("loss", loss_cost="recovery", rate_bps=5e6, rtt_s=0.1, iw_segments=4)
    at = [0, 5000, 9999]
    t = findings.transport_times(p005_explore.page(), transports.PROTOCOLS, 5e6, 0.1, c.x[at], 4,
                                 mss_bits=p005_explore.MSS_BITS, loss_cost="recovery")
    for (_, y), proto in zip(c.lines, transports.PROTOCOLS, strict=True):
        assert y[at] == pytest.approx(t[t.protocol == proto].plt_s.to_numpy(), rel=1e-12)
    # shared blocking is never faster than independent: the HTTP/2 curve lies above from p = 0 on
    assert (c.lines[0][1] >= c.lines[1][1]).all()


def test_redraw_changes_with_the_sliders_and_the_choices(explorer_005):
    a = explorer_005.redraw("rate", rtt_s=0.1).copy()
    b = explorer_005.redraw("rate", rtt_s=0.2).copy()
    c = explorer_005.redraw("rate", rtt_s=0.2, quantity="mean object time")
    assert a.shape == b.shape == c.shape and (a != b).any() and (b != c).any()
    with pytest.raises(ValueError, match="quantity"):
        explorer_005.curves("rate", quantity="speed index")


def test_curves_are_finite_and_positive_at_the_slider_ends(explorer_005):
    for axis in explorer_005.axes:
        for values in ({"rate_bps": 10e3, "rtt_s": 0.5, "loss": 0.1, "iw_segments": 1},
                       {"rate_bps": 1e9, "rtt_s": 0.0, "loss": 0.0, "iw_segments": 64}):
            for _, y in explorer_005.curves(axis, **values).lines:
                assert np.isfinite(y).all() and (y > 0).all()
