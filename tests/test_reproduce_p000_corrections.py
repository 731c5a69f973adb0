"""Paper 000's corrections (paperlib/reproduce/p000/corrections.py): each reason's arithmetic by hand."""

import pytest

from paperlib.corrections import correction
from paperlib.reproduce.p000.corrections import CORRECTIONS, PAPER


def test_the_two_places():
    assert PAPER == "000" and {c.paper for c in CORRECTIONS} == {PAPER}
    assert [c.where for c in CORRECTIONS] == ["table2.csv link rate (μ) 4 Kbps", "table1.csv 0.4 %, m=10, W_{tcp}"]


def test_the_link_rate_reason_by_hand():
    # "at 4 Kbps one 13.5 KB object alone would need 27 s": 13.5 x 1000 x 8 bit / 4000 bit/s = 27 s
    c = correction("000", "table2.csv link rate (μ) 4 Kbps")
    assert c.read_as == "40 Kbps" and "27 s" in c.reason
    assert 13.5 * 1000 * 8 / 4000 == 27.0


def test_the_w_tcp_reason_by_hand():
    # W = c (m-1)/m through the block's other cells: c = 3.26 x 5/4 = 4.075, 3.88 x 20/19 = 4.08421,
    # 3.94 x 30/29 = 4.07586; their mean 4.07836 ("c = 4.079") x 9/10 = 3.67052 -> printed "3.67", not "3.27"
    c = correction("000", "table1.csv 0.4 %, m=10, W_{tcp}")
    cs = [3.26 * 5 / 4, 3.88 * 20 / 19, 3.94 * 30 / 29]
    mean_c = sum(cs) / 3
    assert mean_c == pytest.approx(4.07836, abs=1e-5)
    assert f"{mean_c * 9 / 10:.2f}" == c.read_as
