"""Corrections of printed numbers (paperlib.corrections): found in each paper's package by place, one per place,
each complete. The reasons' arithmetic is checked by the papers' own tests (tests/test_reproduce_p<id>_corrections.py).
"""

import pytest

from paperlib import corrections, registry
from paperlib.corrections import Correction, all_corrections, correction, for_paper
from paperlib.data import PAPERS


def test_lookup_by_paper_and_place():
    c = correction("003", "results.csv row 10, Efficiency")
    assert (c.printed, c.read_as) == ("93/2%", "93.2%")
    assert correction("004", "results.csv row 10, Efficiency") is None  # the place is per paper
    assert correction("003", "results.csv row 11, Efficiency") is None
    assert for_paper("004") == [] and [c.paper for c in for_paper("003")] == ["003"] * 3


def test_a_papers_corrections_are_its_packages_own():
    # for_paper reads the package's corrections part; a paper without one has none
    for paper in PAPERS:
        module = registry.part(paper, "corrections")
        assert for_paper(paper) == (list(module.CORRECTIONS) if module is not None else [])
        assert all(c.paper == paper for c in for_paper(paper))  # a package holds only its own paper's
    assert registry.papers_with("corrections") == ("000", "003")  # the two papers whose print has typos


def test_one_correction_per_place_and_every_one_complete():
    places = [(c.paper, c.where) for c in all_corrections()]
    assert len(places) == len(set(places)) == 5  # 000: two, 003: three
    for c in all_corrections():
        assert c.paper in PAPERS
        assert c.printed != c.read_as and c.reason.strip()


def test_the_deprecated_module_attribute_is_every_papers_corrections():
    assert corrections.CORRECTIONS == all_corrections()
    with pytest.raises(AttributeError):
        corrections.NO_SUCH_NAME  # noqa: B018


def test_the_note_shows_the_print_and_the_reading():
    c = Correction("004", "table2.csv row 1", "1,4", "1.4", "a comma for a point")
    assert c.note() == "corrected: printed '1,4' read as '1.4' (a comma for a point)"
    with pytest.raises(AttributeError):  # frozen: a correction is not edited after the fact
        c.read_as = "14"


def test_a_paper_s_corrections_as_a_table_one_row_each_and_none_with_the_columns():
    from dataclasses import fields

    columns = [f.name for f in fields(Correction)]
    table = corrections.table("003")
    assert list(table.columns) == columns and list(table["where"]) == [c.where for c in for_paper("003")]
    assert list(corrections.table("004").columns) == columns and corrections.table("004").empty  # 004 has none
