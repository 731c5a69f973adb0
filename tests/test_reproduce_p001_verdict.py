"""Paper 001's verdict (paperlib/reproduce/p001/verdict.py): its facts come from the ledger's structured columns."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib.reproduce.p001 import ledger_rows, verdict
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame(paper) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(paper)])


def test_facts_read_the_link_and_the_typo_from_their_columns(frame):
    f = verdict.facts(PaperRows("001", frame))
    # the convention's link_bps = 1e7 bit/s is 10 Mbit/s; the row printed '95%' reads as the text's 98%
    assert f.link_mbit_s == 10 and (f.typo_printed, f.typo_corrected) == ("95%", "98")
    # without the ns-3 runs nothing is read off the figures and every claim is untestable on no evidence
    assert f.read_off == 0 and f.slope is None and f.depend_on_workload == 0


def test_other_workload_verdicts_come_from_other_status(frame):
    claims = frame["claim_id"] != ""
    first, second = frame.index[claims][:2]
    other = frame.copy()
    other.loc[claims, "status"] = "supported"
    other.loc[first, "other_status"] = "refuted"  # a flip between decided verdicts
    other.loc[second, "other_status"] = "supported"  # the same verdict
    f = verdict.facts(PaperRows("001", other))
    assert (f.depend_on_workload, f.flip_decided) == (1, 1)


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("001", frame)) == verdict.finding(PaperRows("001", frame.assign(reason="x")))
