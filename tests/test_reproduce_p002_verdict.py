"""Paper 002's verdict (paperlib/reproduce/p002/verdict.py): its facts come from the ledger's structured columns
and the published tables."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib.reproduce.p002 import findings, ledger_rows, verdict
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame(paper) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(paper)])


def test_facts_take_the_shared_point_from_the_tables(paper, frame):
    f = verdict.facts(PaperRows("002", frame))
    # the operating point both tables print (p = 1 %, RTT 0.256 s), its first model row (TCP (Model))
    shared = findings.consistency_findings(paper).loc["TCP (Model) (Sec)"]
    assert (f.shared_table2, f.shared_table3) == (str(shared.iloc[0]), str(shared.iloc[1]))
    assert f.shared_table2 != f.shared_table3
    # no real-stack rows: no status there
    assert f.real_status == ""


def test_the_real_stacks_count_only_when_they_ran(frame):
    real = frame[frame["claim_id"] == "sctp_less_20pct"].assign(column=verdict.REAL_STACKS, evidence="real stacks")
    ran = pd.concat([frame, real.assign(emulation="ran")], ignore_index=True)
    not_run = pd.concat([frame, real.assign(emulation="not run by choice", evidence="none")], ignore_index=True)
    assert verdict.facts(PaperRows("002", ran)).real_status == real["status"].iloc[0]
    assert verdict.facts(PaperRows("002", not_run)).real_status == ""


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("002", frame)) == verdict.finding(PaperRows("002", frame.assign(reason="x")))
