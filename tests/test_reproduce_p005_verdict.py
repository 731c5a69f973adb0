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
