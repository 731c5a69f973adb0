"""Paper 000's verdict (paperlib/reproduce/p000/verdict.py): its facts come from the ledger's structured columns."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.reproduce.p000 import ledger_rows, verdict
from paperlib.reproduce.p000.findings import TABULATED_LAW
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame(paper) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(paper)])


def test_facts_count_the_tables_cells_and_their_bounds(frame):
    f = verdict.facts(PaperRows("000", frame))
    # Tables 1-3 print 144 times, half of them model cells (W_sctp, W_tcp) and half experimental (T_sctp, T_tcp)
    assert (f.printed_times, f.model_cells) == (144, 72)
    # the cells below their loss-free bound are the rows whose bound column is set
    assert f.below_bound == int((frame["bound"] != "").sum()) and 0 < f.below_bound <= 144
    assert f.law == TABULATED_LAW
    # no ns-3 rows without the simulations
    assert (f.ns3_median_ratio, f.ns3_cells) == (None, 0)
    # the convention is the model cells' column, name=value pairs
    assert ledger.convention_of(f.convention)["waiting"] == "eq4"


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("000", frame)) == verdict.finding(PaperRows("000", frame.assign(reason="x")))
    # without a bound column the headline's count follows it, whatever the reasons say
    cleared = frame.assign(bound="")
    assert verdict.facts(PaperRows("000", cleared)).below_bound == 0
