"""Paper 003's corrections (paperlib/reproduce/p003/corrections.py): each reason's arithmetic by hand."""

from paperlib.corrections import correction
from paperlib.reproduce.p003.corrections import CORRECTIONS, PAPER


def test_the_three_places():
    assert PAPER == "003" and {c.paper for c in CORRECTIONS} == {PAPER}
    assert [c.where for c in CORRECTIONS] == ["modified_specweb96.csv row 1, Class 3",
                                              "results.csv row 10, Efficiency", "text_values avg_file_size"]


def test_the_efficiency_reason_by_hand():
    # "32.7 Mbps / 35.1 Mbps = 93.2%": 32.7 / 35.1 = 0.931624 -> 93.2 % at the print's one decimal
    c = correction("003", "results.csv row 10, Efficiency")
    assert "32.7 Mbps / 35.1 Mbps" in c.reason
    assert f"{100 * 32.7 / 35.1:.1f}%" == c.read_as

