"""Seed 003's convention search: every combination scored, one chosen (search shared with other 003 tests)."""

import pytest
from p003_helpers import CHOSEN, convention_search

from paperlib.reproduce.p003 import operating_point


@pytest.fixture(scope="module")
def search():
    return convention_search()


def test_every_combination_is_scored_on_every_printed_number(search):
    # 2 x 2 x 2 x 3 x 2 x |header stacks| x |framings| x 4 x 2 x 2 combinations, each on the 23 printed numbers
    axes = operating_point.CONVENTION_AXES
    n = 1
    for candidates in axes.values():
        n *= len(candidates)
    assert len(search) == n == 6912  # docs/papers/003.md: "6,912 combinations"
    assert (search["cells"] == 23).all()


def test_search_picks_one_convention_that_reproduces_most(paper, search):
    conv = operating_point.chosen_convention(paper, search)
    assert search.iloc[0]["reproduced"] == search["reproduced"].max()
    assert (conv["size_kilo"], conv["report_kilo"], conv["mega"]) == (1024, 1000, "1000 kB")
    assert conv == CHOSEN  # the convention the other 003 tests use without searching
