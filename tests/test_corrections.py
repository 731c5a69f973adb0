"""Corrections of printed numbers (paperlib.corrections): found by place, one per place, and each
reason's arithmetic holds. Paper 000's corrections as its tables use them are in the paper's own tests."""

import pytest

from paperlib import corrections
from paperlib.corrections import CORRECTIONS, Correction, correction, for_paper
from paperlib.data import PAPERS


def test_lookup_by_paper_and_place():
    c = correction("003", "results.csv row 10, Efficiency")
    assert (c.printed, c.read_as) == ("93/2%", "93.2%")
    assert correction("004", "results.csv row 10, Efficiency") is None  # the place is per paper
    assert correction("003", "results.csv row 11, Efficiency") is None
    assert for_paper("004") == [] and [c.paper for c in for_paper("003")] == ["003"] * 3


def test_one_correction_per_place_and_every_one_complete():
    places = [(c.paper, c.where) for c in CORRECTIONS]
    assert len(places) == len(set(places))
    for c in CORRECTIONS:
        assert c.paper in PAPERS
        assert c.printed != c.read_as and c.reason.strip()


def test_the_note_shows_the_print_and_the_reading():
    c = Correction("004", "table2.csv row 1", "1,4", "1.4", "a comma for a point")
    assert c.note() == "corrected: printed '1,4' read as '1.4' (a comma for a point)"
    with pytest.raises(AttributeError):  # frozen: a correction is not edited after the fact
        c.read_as = "14"


def test_the_efficiency_reason_by_hand():
    # "32.7 Mbps / 35.1 Mbps = 93.2%": 32.7 / 35.1 = 0.931624 -> 93.2 % at the print's one decimal
    c = correction("003", "results.csv row 10, Efficiency")
    assert "32.7 Mbps / 35.1 Mbps" in c.reason
    assert f"{100 * 32.7 / 35.1:.1f}%" == c.read_as


def test_the_w_tcp_reason_by_hand():
    # W = c (m-1)/m through the block's other cells: c = 3.26 x 5/4 = 4.075, 3.88 x 20/19 = 4.08421,
    # 3.94 x 30/29 = 4.07586; their mean 4.07836 ("c = 4.079") x 9/10 = 3.67052 -> printed "3.67", not "3.27"
    c = correction("000", "table1.csv 0.4 %, m=10, W_{tcp}")
    cs = [3.26 * 5 / 4, 3.88 * 20 / 19, 3.94 * 30 / 29]
    mean_c = sum(cs) / 3
    assert mean_c == pytest.approx(4.07836, abs=1e-5)
    assert f"{mean_c * 9 / 10:.2f}" == c.read_as
    assert corrections.correction("000", "table2.csv link rate (μ) 4 Kbps").read_as == "40 Kbps"
