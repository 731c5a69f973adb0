"""TCP over ATM: cells per segment, payload share, time in cells (paperlib.models.atm_overhead).

Paper 003's own operating point (MSS 512 B -> 12 cells, the OC-3 share) is checked in its paper's tests;
here: the cell boundaries, the other header stacks and framings, and invariants.
"""

import numpy as np
import pytest
from hypothesis import given, strategies

from paperlib.models import atm_overhead
from paperlib.validate import ParameterError

mss = strategies.integers(1, 9180)
stacks = strategies.sampled_from(sorted(atm_overhead.HEADER_STACKS))


def test_cell_boundaries_by_hand():
    # LLC/SNAP stack: 20 + 20 + 8 + 8 = 56 B of overhead. 520 + 56 = 576 = 12 x 48 fills 12 cells exactly;
    # one more payload byte needs a 13th cell.
    assert atm_overhead.cells_per_segment(520) == 12 and atm_overhead.cells_per_segment(521) == 13
    # without LLC/SNAP: 48 B; 528 + 48 = 576 -> 12 cells, 529 -> 13
    assert atm_overhead.cells_per_segment(528, "tcp+ip+aal5") == 12
    assert atm_overhead.cells_per_segment(529, "tcp+ip+aal5") == 13
    # a 1-byte segment still takes ceil(57/48) = 2 cells
    assert atm_overhead.cells_per_segment(1) == 2


def test_payload_share_by_hand():
    # 520 B in 12 cells of 53 B: 520 / 636 = 0.817610; DS3 PLCP carries 12 cells per 125 us,
    # 96 000 cells/s x 424 bit = 40.704 Mbit/s of 44.736: 0.909871; together 0.743920
    assert atm_overhead.tcp_payload_share(520) == pytest.approx(520 / 636, abs=1e-12)
    assert atm_overhead.FRAMINGS["t3_plcp"] == pytest.approx(0.909871, abs=1e-6)
    assert atm_overhead.tcp_payload_share(520, framing="t3_plcp") == pytest.approx(0.743920, abs=1e-6)


def test_cells_in_a_duration_by_hand():
    # 1 ms at 44.736 Mbit/s = 44 736 bit = 105.509 cells of 424 bit (not rounded)
    assert atm_overhead.cells_in(1e-3, 44.736e6) == pytest.approx(105.50943, abs=1e-5)
    assert atm_overhead.cells_in(0.0, 1e6) == 0.0


@given(mss, stacks)
def test_cells_are_the_fewest_that_hold_the_segment(m, stack):
    cells = int(atm_overhead.cells_per_segment(m, stack))
    need = m + atm_overhead.HEADER_STACKS[stack]
    assert cells * atm_overhead.CELL_PAYLOAD_BYTES >= need > (cells - 1) * atm_overhead.CELL_PAYLOAD_BYTES


@given(mss, stacks, strategies.sampled_from(sorted(atm_overhead.FRAMINGS)))
def test_payload_share_is_below_the_cell_payload_share(m, stack, framing):
    share = float(atm_overhead.tcp_payload_share(m, stack, framing))
    # the payload can never use more than 48 of every 53 bytes, and never less than nothing
    assert 0 < share < atm_overhead.CELL_PAYLOAD_BYTES / atm_overhead.CELL_BYTES


def test_vectorised_equals_point_by_point():
    sizes = np.array([1, 40, 512, 520, 521, 1460, 9180])
    grid = atm_overhead.tcp_payload_share(sizes, framing="sonet_oc3")
    assert grid.tolist() == [float(atm_overhead.tcp_payload_share(int(s), framing="sonet_oc3")) for s in sizes]


@pytest.mark.parametrize("call, name", [
    (lambda: atm_overhead.cells_per_segment(0), "mss_bytes"),
    (lambda: atm_overhead.cells_per_segment(512, "tcp+ip"), "header_stack"),
    (lambda: atm_overhead.tcp_payload_share(512, framing="e3"), "framing"),
    (lambda: atm_overhead.cells_in(-1.0, 1e6), "duration_s"),
    (lambda: atm_overhead.cells_in(1.0, 0.0), "line_rate_bps"),
])
def test_impossible_parameters_are_named(call, name):
    with pytest.raises(ParameterError, match=f"^{name}"):
        call()
