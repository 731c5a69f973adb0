"""Paper 005's verdict (paperlib/reproduce/p005/verdict.py): its facts come from the ledger's structured columns."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p005 import ledger_rows, verdict
from paperlib.reproduce.p005.claims import CLAIMS
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(load_paper("005"))])


def test_facts_find_every_question_by_its_id(frame):
    f = verdict.facts(PaperRows("005", frame))
    # every registered question has a model row, found by its claim id, in registration order
    assert [q.ident for q in f.model_questions] == [i for i in verdict.QUESTIONS if i in CLAIMS.questions]
    # the claims of data/005/claims.csv are the stated ones, apart from the questions
    assert f.stated == len(load_paper("005").claims.cells)
    assert f.real_questions == () and not f.real_ran
    assert f.inputs == int((frame["status"] == "input").sum())


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("005", frame)) == verdict.finding(PaperRows("005", frame.assign(reason="x")))


@pytest.mark.parametrize(("value", "low", "high", "expected"), [
    # positive throughout: the number in the question's unit, the interval as two numbers
    (3.8, 3.6, 4.0, "supported: 3.80 s faster (95% CI 3.60 to 4.00)"),
    # a negative mean reads as its size with the opposite word; an interval below 0 names both its ends
    (-0.09, -3.8, 3.62, "inconclusive: 0.09 s slower (95% CI from 3.80 s slower to 3.62 s faster)"),
    (-1.5, -2.0, -1.0, "refuted: 1.50 s slower (95% CI from 2.00 s slower to 1.00 s slower)"),
])
def test_a_question_value_reads_with_its_sign_in_words(value, low, high, expected):
    status = expected.split(":")[0]
    row = pd.Series({"status": status, "regenerated": f"{value}", "low": f"{low}", "high": f"{high}"})
    assert verdict._value("sctp_streams_same", row, interval=True) == expected


def test_a_ratio_has_no_opposite_and_keeps_its_number():
    row = pd.Series({"status": "refuted", "regenerated": "0.44", "low": "", "high": ""})
    assert verdict._value("loss_model_holds", row, interval=True) == "refuted: 0.44x"
