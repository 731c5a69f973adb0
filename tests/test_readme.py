"""The README reads in two minutes: at most :data:`MAX_WORDS` words, and every cell of its generated results
tables short (:data:`paperlib.verdicts.CELL_WORDS` words), paper 005's questions in a table of their own, three
sentences of overall findings before the tables.

The cells are checked on the text generated from in-process ledgers (every paper's rows on its published data,
as in tests/test_verdicts_reasons.py, and paper 005's hand-made rows with and without the real stacks, as in
tests/test_verdicts.py), so a wording that grows past the limit fails here whatever ledger the README was
written from.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from test_verdicts import ledger_005

from paperlib import ledger, verdicts
from paperlib.data import PAPERS

README = Path(__file__).resolve().parent.parent / "README.md"
REFERENCE_LEDGER = README.parent / "reference" / "ledger.csv"
#: The most words the README may hold (as ``wc -w`` counts them: runs of non-blank characters).
MAX_WORDS = 1500


def _full(frame: pd.DataFrame) -> pd.DataFrame:
    """Return ``frame`` with every ledger column (the missing ones empty), in the ledger's order."""
    for column in ledger.ALL_COLUMNS:
        if column not in frame:
            frame[column] = ""
    return frame[list(ledger.ALL_COLUMNS)]


@pytest.fixture(scope="module")
def every_paper(published_rows) -> pd.DataFrame:
    """Return every paper's ledger rows on its published data, 004 measured on hand-made real-stack runs
    (conftest's ``published_rows``: tests/test_verdicts_reasons.py's, made once per test run)."""
    return _full(pd.DataFrame(published_rows))


def _simulated(every_paper: pd.DataFrame) -> pd.DataFrame:
    """Return every paper's rows with the longest clauses a full run adds: 000's ns-3 cells, 001's testbed (its
    slope, 8 numbers read off its figures, 35 claims split five ways), 004's claims refuted on the real stacks
    and 005's questions judged there."""
    from paperlib.reproduce.p000.ns3 import COLUMN as NS3_000
    from paperlib.reproduce.p001.ledger_rows import TEXT_RESULTS

    def row(paper, source, row_, column, published, regenerated, status, **structured):
        return {**{c: "" for c in ledger.ALL_COLUMNS}, "paper": paper, "source": source, "row": row_,
                "column": column, "published": published, "regenerated": regenerated, "status": status,
                "reason": "r", "evidence": "model", **structured}

    frame = every_paper[~every_paper["paper"].isin(["001", "005"])]
    ns3 = [row("000", "Table 1", f"m={m}", NS3_000, "1.0", "18.0", "differs", evidence="ns-3") for m in range(36)]
    link = "y_unit_bps=1000.0, link_bps=10000000.0, load_column=text, browser_rounding=half_up, rounding=half_up"
    p001 = [row("001", "Table 3", f"{load}%", "The Number of Browsers", "2770", "2770.00", "reproduced",
                convention=link) for load in (80, 90, 95)]
    p001 += [row("001", "Table 3", "row 3", "Traffic Load", "95%", "98.00", "typo", compared_as="98",
                 evidence="printed"),
             row("001", "Section 2.2 (calibration line)", "y", "slope", "2.9327", "0.089239", "differs",
                 evidence="ns-3")]
    p001 += [row("001", "Section 3", name, "p90", "500", "900", "differs", evidence="ns-3") for name in TEXT_RESULTS]
    statuses = ["supported"] * 6 + ["refuted"] * 18 + ["inconclusive"] * 9 + ["untestable"] * 2
    p001 += [row("001", "Section 3", f"c{i}", "claim", "", "", s, claim_id=f"c{i}", evidence="ns-3",
                 other_status="refuted" if s == "supported" else "") for i, s in enumerate(statuses)]
    claims_004 = every_paper[(every_paper["paper"] == "004") & every_paper["status"].isin(ledger.CLAIM_STATUSES)
                             & (every_paper["column"] != verdicts.REAL_STACKS)].copy()
    claims_004["column"], claims_004["status"] = verdicts.REAL_STACKS, "refuted"
    claims_004["evidence"], claims_004["emulation"], claims_004["regenerated"] = "real stacks", "ran", "-1.4"
    p005 = _full(ledger_005(real_stacks=True))
    measured = p005["column"] == verdicts.REAL_STACKS
    p005.loc[measured, "low"], p005.loc[measured, "high"], p005.loc[measured, "n"] = "10.1234", "14.5678", "10"
    return pd.concat([frame[frame["column"] != verdicts.REAL_STACKS], pd.DataFrame(ns3 + p001), claims_004, p005],
                     ignore_index=True)[list(ledger.ALL_COLUMNS)]


def _without_questions() -> list[str]:
    """Return the registered papers whose verdict asks no questions (paper 005 asks them), in paper order: the rows
    of the README's papers' table."""
    return [p for p in PAPERS if getattr(verdicts.paper_module(p), "questions", None) is None]


def _ledgers(every_paper: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Return the ledgers whose generated text is checked: every paper on its published data, 005 with and
    without its real stacks, and every paper with what a full run adds (:func:`_simulated`)."""
    others = every_paper[every_paper["paper"] != "005"]
    return {"published data": every_paper,
            "005 on real stacks": pd.concat([others, _full(ledger_005(real_stacks=True))], ignore_index=True),
            "005 model only": pd.concat([others, _full(ledger_005())], ignore_index=True),
            "a full run": _simulated(every_paper)}


def test_the_readme_holds_at_most_1500_words():
    # wc -w's count: every run of non-blank characters is a word (table pipes too)
    words = len(README.read_text(encoding="utf-8").split())
    assert words <= MAX_WORDS, f"README.md has {words} words; move detail to docs/"


def test_the_readme_stays_short_whatever_ledger_writes_its_block(every_paper):
    text = README.read_text(encoding="utf-8")
    for name, frame in _ledgers(every_paper).items():
        written = verdicts.with_results(text, verdicts.results_table(verdicts.paper_verdicts(frame)))
        assert len(written.split()) <= MAX_WORDS, name


def test_every_generated_cell_is_short(every_paper):
    for name, frame in _ledgers(every_paper).items():
        found = verdicts.paper_verdicts(frame)
        cells = verdicts.cells(found)
        # the 5 published papers x 4 cells, 005's 6 or 7 questions x 3 cells, the two header rows (4 + 3 cells)
        assert len(cells) >= 5 * 4 + 6 * 3 + 4 + 3, name
        long = [c for c in cells if len(c.split()) > verdicts.CELL_WORDS]
        assert long == [], name


def test_005_has_a_table_of_its_own_and_the_findings_come_first(every_paper):
    for name, frame in _ledgers(every_paper).items():
        block = verdicts.results_table(verdicts.paper_verdicts(frame))
        rows = verdicts.table_rows(block)
        # 000-004 (and any other paper that asks no questions) by id in the papers' table; 005 only by its questions
        assert [k for k in rows if ":" not in k] == _without_questions(), name
        asked = [k for k in rows if k.startswith("005: ")]
        assert len(asked) >= 6 and "005" not in rows, name
        # three sentences of findings, before any table
        first = block.split("\n\n")[0]
        assert not first.startswith("|") and first.count(". ") == 2 and first.endswith("."), name
        assert verdicts.overall_text(block) == first


def test_a_real_stack_number_that_moves_is_not_a_disagreement(every_paper):
    frame = _ledgers(every_paper)["005 on real stacks"]
    text = verdicts.with_results(f"{verdicts.BEGIN}\n{verdicts.END}\n",
                                 verdicts.results_table(verdicts.paper_verdicts(frame)))
    assert verdicts.check_readme(text, frame) == []
    # the real stacks' IW10 gain measured again: 12.3456 -> 9.8 (another run); its status stays supported
    moved = frame.copy()
    hit = (moved["claim_id"] == "iw10_gain") & (moved["column"] == verdicts.REAL_STACKS)
    moved.loc[hit, "regenerated"] = "9.8"
    assert verdicts.check_readme(text, moved) == []
    # its status turned: named
    moved.loc[hit, "status"] = "inconclusive"
    problems = verdicts.check_readme(text, moved)
    assert any("IW10 shortens today's page against IW3, real stacks" in p and "'supported'" in p for p in problems)


def test_the_readme_links_every_paper_of_the_reference_run_to_its_page():
    # the README's results table is written from the reference run's ledger (paperlib.verdicts --write), so it shows
    # the papers of that run: the five seeds and 005 at least; a paper joins with make reproduce && make reference
    # (tests/test_reference_run.py checks that the reference holds every registered paper)
    text = README.read_text(encoding="utf-8")
    papers = sorted(set(pd.read_csv(REFERENCE_LEDGER, dtype=str, usecols=["paper"])["paper"]))
    assert {"000", "001", "002", "003", "004", "005"} <= set(papers)
    for paper in papers:
        assert f"(docs/papers/{paper}.md)" in text, paper
