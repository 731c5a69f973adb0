"""Paper 003's verdict (paperlib/reproduce/p003/verdict.py): its facts come from the ledger's structured columns."""

from dataclasses import asdict

import pandas as pd
import pytest

from paperlib.reproduce.p003 import ledger_rows, verdict
from paperlib.verdicts import PaperRows


@pytest.fixture(scope="module")
def frame(paper) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in ledger_rows.ledger_rows(paper)])


def test_facts_split_the_derived_numbers_from_the_simulation_cells(frame):
    f = verdict.facts(PaperRows("003", frame))
    # the results table's two columns per N (switch queue, TCP throughput) are the not-regenerable cells
    assert f.not_regenerable == int((frame["status"] == "not_regenerable").sum()) > 0
    assert f.reproduced + f.close <= f.derived
    # the slide's file size in the wrong unit is a typo row whose print is kept
    assert f.unit_typo_printed == frame.loc[frame["row"] == "avg_file_size", "published"].iloc[0]
    assert f.convention == frame.loc[frame["convention"] != "", "convention"].iloc[0]


def test_the_finding_does_not_read_the_reasons(frame):
    assert verdict.finding(PaperRows("003", frame)) == verdict.finding(PaperRows("003", frame.assign(reason="x")))
