"""Every result stated in a paper's text has a ledger row, or datapackage.json says why not (about 25 s)."""

import importlib

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.data import PAPERS, load_paper
from paperlib.reproduce.p001 import ledger_rows as p001_ledger_rows


def _rows_001(paper):
    # 001's text results read off the testbed's figures: their rows come from text_result_rows, whose row is the
    # text value's id whatever the simulated numbers; a stand-in summary (every value 1) is enough to build them.
    groups = {"fifo": ["FIFO-60"], "red480": ["RED-A-480"]}
    keys = {(groups.get(w, [w])[0], load, lat) for w, load, lat, _, _ in p001_ledger_rows.TEXT_RESULTS.values()}
    summary = pd.DataFrame([{"config": c, "load": lo, "latency": la, "p90_ms": 1.0, "mean_queue": 1.0}
                            for c, lo, la in sorted(keys)])
    return p001_ledger_rows.text_result_rows(paper, summary, groups, "stand-in")


@pytest.mark.parametrize("paper_id", PAPERS)
def test_every_text_result_has_a_row_or_a_reason(paper_id):
    paper = load_paper(paper_id)
    if paper_id == "001":
        rows = _rows_001(paper)
    else:  # the protocol's ledger_rows(paper) -> list[Row]; a package not yet on it returns (rows, conv)
        rows = importlib.import_module(f"paperlib.reproduce.p{paper_id}.ledger_rows").ledger_rows(paper)
        rows = rows[0] if isinstance(rows, tuple) else rows
    assert ledger.text_results_without_row(paper, rows) == []


def test_a_result_without_row_or_reason_is_reported(tmp_path):
    import shutil

    shutil.copytree(load_paper("004").text_values.path.parent.parent, tmp_path / "data")
    paper = load_paper("004", tmp_path / "data")
    assert ledger.text_results_without_row(paper, [], tmp_path / "data") == ["fig1_alpha"]
    # a reason naming an id that is no result is an error, naming the file
    meta = tmp_path / "data" / "004" / "datapackage.json"
    meta.write_text(meta.read_text().rstrip()[:-1] + ', "without_own_ledger_row": {"rtt": "an input"}}\n')
    with pytest.raises(ledger.LedgerError, match="datapackage.json: without_own_ledger_row names 'rtt'"):
        ledger.text_results_without_row(paper, [], tmp_path / "data")
