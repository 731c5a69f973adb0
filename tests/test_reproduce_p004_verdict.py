"""Paper 004's verdict (paperlib/reproduce/p004/verdict.py): its facts come from the ledger's structured columns."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib.reproduce.p004 import ledger_rows, verdict
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame(paper) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(paper)])


def test_facts_name_the_missed_row_and_the_corrected_form(frame):
    f = verdict.facts(PaperRows("004", frame))
    # Table II: 5 rates x Model(SCTP), Model(TCP); the chosen convention misses the 10 Mbps row (printed 0.84 and
    # 1.24 s), as tests/test_verdicts.py states
    assert f.model_cells == 10 and f.missed_rows == ("10 Mbps", "10 Mbps")
    assert f.missed_printed == ("0.84", "1.24")
    # the convention column says form=corrected: Eq. (1)'s ceiling
    assert f.corrected_form
    assert verdict.facts(PaperRows("004", frame.assign(convention=""))).corrected_form is False
    assert not f.measured and f.real_gap_rtts is None


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("004", frame)) == verdict.finding(PaperRows("004", frame.assign(reason="x")))
