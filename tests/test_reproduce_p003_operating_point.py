"""Paper 003's convention search: every combination scored, one chosen (search shared with other 003 tests)."""

import dataclasses

import pytest
from p003_helpers import CHOSEN, convention_search

from paperlib import conventions
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
    assert (conv.size_kilo, conv.report_kilo, conv.mega) == (1024, 1000, "1000 kB")
    assert conv == CHOSEN  # the convention the other 003 tests use without searching


def test_the_convention_is_a_frozen_dataclass_of_the_axes(paper, search):
    conv = operating_point.chosen_convention(paper, search)
    assert isinstance(conv, conventions.Convention)
    # its switches are the axes, in their order, so a search's best row is a convention
    assert [f.name for f in dataclasses.fields(conv)] == list(operating_point.CONVENTION_AXES)
    best = search.iloc[0][list(operating_point.CONVENTION_AXES)].to_dict()
    assert conv == operating_point.Convention.from_choice(best)
    with pytest.raises(dataclasses.FrozenInstanceError):
        conv.rounding = "truncate"
    # a what-if reading is a copy; the chosen one stays
    assert conv.replace(within_class="binomial").within_class == "binomial" and conv.within_class == "uniform"


def test_the_convention_prints_as_the_mapping_and_describes_itself_for_ledger_reasons():
    # the notebook prints "chosen: {...}" and the ledger reasons name "key=value, ..." (both unchanged by the type)
    assert str(CHOSEN) == str(CHOSEN.as_dict()) == (
        "{'size_kilo': 1024, 'mega': '1000 kB', 'report_kilo': 1000, 'within_class': 'uniform', 'files_per_batch': 5, "
        "'header_stack': 'tcp+ip+llc/snap+aal5', 'framing': 'sonet_oc3', 'f_line_rate': 'oc3_line', "
        "'round_intermediate': True, 'rounding': 'half_up'}")
    assert CHOSEN.describe().startswith("size_kilo=1024, mega=1000 kB, report_kilo=1000, ")


def test_a_choice_with_another_switch_is_named():
    with pytest.raises(ValueError, match=r"unknown switches \['kilo'\]"):
        operating_point.Convention.from_choice({**CHOSEN.as_dict(), "kilo": 1000})


def test_the_search_reads_the_stated_inputs_once_not_per_combination(monkeypatch):
    # text_value filters the text-values table on every call; read once per combination it dominated the search.
    # Reads: inputs() 10 (inter_batch, link_45 and mss twice each for value and unit; clients_150, k_clients,
    # p_index, p_other) + images_per_page once per workload memo key (size_kilo 2 x mega 2 x within_class 3 x
    # files_per_batch 2 = 24) = 34, against 6 912 combinations.
    from paperlib.data import load_paper

    paper = load_paper("003")
    calls = []
    read = paper.text_value
    monkeypatch.setattr(paper, "text_value", lambda ident: calls.append(ident) or read(ident))
    operating_point.convention_search(paper)
    assert len(calls) <= 10 + 24
