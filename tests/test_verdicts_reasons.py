"""The README's results table, the report's verdicts and the ledger summary read no ``reason``.

The ledger here is a real one, regenerated in-process the way the notebooks write theirs with the real stacks
switched off (``EMULATION=off``) and without the ns-3 runs: every paper's ``ledger_rows`` on its published data,
plus paper 004 measured on hand-made real-stack runs (three repetitions per rate and stack, as in
``tests/test_reproduce_p004_ledger_rows.py``), so that the real-stack clauses are exercised too. Every ``reason``
is then rewritten to "x": what is built from the ledger must not move.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger, verdicts
from paperlib.data import PAPERS, load_paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated

README = Path(__file__).resolve().parent.parent / "README.md"
#: The real stacks switched off, as ``make reproduce EMULATION=off`` runs them.
OFF = Emulated("off", not_run=emulated_rows.NOT_RUN_BY_CHOICE)


def _fake_004(paper) -> Emulated:
    """Return three repetitions per rate and protocol of paper 004 whose latencies are 1.0, 1.1 and 1.2 s."""
    emulated = importlib.import_module("paperlib.reproduce.p004.emulated")
    points = [{**p, "protocol": proto} for p in emulated.points(paper, "reduced")
              if p["protocol"] == "tcp" and p["rep"] < 3 for proto in ("tcp", "sctp")]
    runs = pd.DataFrame([{"protocol": p["protocol"], "rate_bps": p["rate_bps"], "rep": p["rep"],
                          "t_start": [0.0], "t_done": [1.0 + 0.1 * p["rep"]]} for p in points])
    return Emulated("reduced", points, runs)


def _rows(paper_id: str) -> list[ledger.Row]:
    """Return paper ``paper_id``'s ledger rows: real stacks off where the paper has them (an ``emulated`` module),
    004's measured."""
    module = importlib.import_module(f"paperlib.reproduce.p{paper_id}.ledger_rows")
    paper = load_paper(paper_id)
    if importlib.util.find_spec(f"paperlib.reproduce.p{paper_id}.emulated") is None:
        return module.ledger_rows(paper)
    return module.ledger_rows(paper, real_stacks=_fake_004(paper) if paper_id == "004" else OFF)


@pytest.fixture(scope="module")
def real_ledger(published_rows) -> pd.DataFrame:
    """Return every paper's ledger rows (:func:`_rows`, made once per test run: conftest's ``published_rows``) as
    one ledger table, checked against the schema (provenance empty)."""
    frame = pd.DataFrame(published_rows)
    for record in frame.to_dict("records"):
        ledger.check_row(record)
    for column in ledger.PROVENANCE_COLUMNS:
        frame[column] = ""
    return frame[list(ledger.ALL_COLUMNS)]


def _built(frame: pd.DataFrame) -> tuple[str, list[str], str]:
    """Return what is built from a ledger: the README's table, the report's verdict paragraphs, the summary."""
    found = verdicts.paper_verdicts(frame)
    return verdicts.results_table(found), [v.paragraph() for v in found], emulated_rows.summary(frame)


def test_the_ledger_is_real_and_has_every_paper(real_ledger):
    # every registered paper has rows, every row an evidence; the emulated cells of 004 ran
    assert sorted(real_ledger["paper"].unique()) == sorted(PAPERS)
    assert (real_ledger["evidence"] != "").all()
    assert (real_ledger["emulation"] == "ran").any() and (real_ledger["emulation"] == "not run by choice").any()


def test_rewriting_every_reason_changes_no_verdict(real_ledger):
    table, paragraphs, summary = _built(real_ledger)
    blank = real_ledger.assign(reason="x")
    assert (blank["reason"] == "x").all() and not (real_ledger["reason"] == "x").all()
    again_table, again_paragraphs, again_summary = _built(blank)
    assert again_table == table
    assert again_paragraphs == paragraphs
    assert again_summary == summary


def test_the_verdicts_of_the_real_ledger_are_the_readmes(real_ledger):
    # Without the ns-3 runs and the real stacks, every number of the verdicts of 000, 002, 003 and 004 (the model
    # part of their rows) is in the README's row of the paper, which was written from a full ledger. 004's
    # real-stack clause is left out: its runs here are hand-made.
    model = real_ledger[real_ledger["paper"].isin(["000", "002", "003"])
                        | ((real_ledger["paper"] == "004") & (real_ledger["column"] != verdicts.REAL_STACKS))]
    assert verdicts.check_readme(README.read_text(encoding="utf-8"), model, partial=True) == []
