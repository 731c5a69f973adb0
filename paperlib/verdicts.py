"""Per-paper verdicts computed from the ledger: the one source of the README's results table, the report's
paper pages and the notebooks' conclusions.

A :class:`PaperVerdict` says, for one paper, what reproduces, what does not and the headline finding with
its number. Every number in it is read from the ledger's structured columns (``figures/ledger.csv``,
:data:`paperlib.ledger.SCHEMA`: counts by status, printed and regenerated values, claim verdicts by claim id
with their intervals, the evidence, the convention) or from the typed facts the paper's own package gives; the
``reason`` column is prose for people and is never read here. The wording of a paper's finding lives in its
package, ``paperlib.reproduce.p<id>.verdict`` (a ``finding(rows)`` returning a :class:`Finding`, and its
``CITATION``); a paper without one gets the ledger's counts only. Papers are the ledger's own (``paper``
column), in paper order. Measurements on the emulated real stacks run in real time and move a little from run to
run, so the verdicts give their claims' statuses (which their intervals make stable), not their numbers.

The README's results block (:func:`results_table`) holds three sentences of overall findings (:func:`overall`),
the published papers' table in short cells (each paper's ``brief``, at most :data:`CELL_WORDS` words a cell,
its short citation linked to ``docs/papers/<id>.md``), and for a paper that asks questions (005, its
``questions``) a table of its own: the question, the model's cell, the real stacks' cell.

``python -m paperlib.verdicts --ledger figures/ledger.csv --check README.md`` fails (exit 1), naming the
paper and the number, when the README's results block disagrees with the ledger (a real-stack question cell by
its status only); ``--write README.md`` rewrites that block (between :data:`BEGIN` and :data:`END`) from the
ledger, atomically. Both refuse (exit 2)
a ledger that holds rows of the quick profile (:mod:`paperlib.profiles`): its statuses are not the reference's.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pandas as pd

from paperlib import ledger as ledger_file
from paperlib import profiles
from paperlib.atomic import atomic_write_text
from paperlib.data import DATA_DIR

BEGIN = "<!-- results:begin -->"
END = "<!-- results:end -->"

#: The ledger column of a claim re-judged on the emulated real stacks.
REAL_STACKS = ledger_file.REAL_STACKS


class VerdictError(ValueError):
    """A README without its results block, or a ledger the verdicts cannot be read from."""


@dataclass(frozen=True)
class Citation:
    """Who wrote a paper, where and when it appeared, and where that was checked (the title is data/'s)."""

    authors: str
    venue: str
    year: str
    checked_in: str
    #: the venue in a few words, for the README's short citation (``""``: the venue itself)
    venue_short: str = ""


@dataclass(frozen=True)
class QuestionRow:
    """One question of a paper that asks today's questions (paper 005): its words and its two short cells."""

    question: str
    #: the model's status (``""``: the model does not judge it), and its cell: the status with the key number
    model_status: str
    model: str
    #: the real stacks' status (``""``: not run), and its cell: the status first (before any ``:``), then the key
    #: number and its 95% interval where they ran
    real_status: str
    real_stacks: str


@dataclass(frozen=True)
class Tally:
    """One paper's ledger rows counted for the overall findings: its published numbers (the measurements measured
    again on the real stacks and the inputs left out) by status, and its claims by status."""

    results: int
    reproduced: int
    close: int
    differs: int
    not_regenerable: int
    claims: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class PaperVerdict:
    """One paper's verdict: what reproduces, what does not, the headline finding (numbers from the ledger)."""

    paper: str
    citation: str
    reproduces: str
    does_not: str
    headline: str
    #: why it does (not) reproduce, in a sentence or two (numbers from the ledger)
    why: str = ""
    #: the published measurements measured again on today's real stacks (:func:`measured_text`; "" if none)
    measured: str = ""
    #: the paper's ledger rows counted by status
    counts: str = ""
    #: the citation in a few words (first author, "et al." for more, short venue, year) and the paper's page
    short_citation: str = ""
    #: the same finding in short cells (each at most about 40 words: :data:`CELL_WORDS`); the README's and the
    #: report's opening
    brief: Finding | None = None
    #: a paper that asks questions (paper 005): one short row each, in a table of its own
    questions: tuple[QuestionRow, ...] = ()
    #: the counts the overall findings add up (:func:`overall`)
    tally: Tally | None = None

    def details(self) -> str:
        """Return what the report shows below the opening, as Markdown: the citation, the finding in full (what
        reproduces, what does not, the headline; a paper with questions leaves its headline to the questions'
        table), why, what was measured again, the ledger's counts."""
        parts = [f"**{self.paper}**: {self.citation}.", f"**Reproduces:** {_sentence(self.reproduces)}",
                 f"**Does not:** {_sentence(self.does_not)}"]
        if not self.questions:
            parts.append(f"**Finding:** {_sentence(self.headline)}")
        parts += [f"**{label}** {_sentence(text)}" for label, text in
                  (("Why:", self.why), ("Measured again:", self.measured), ("Ledger:", self.counts)) if text]
        return "\n\n".join(parts) + "\n"

    def opening(self) -> str:
        """Return the verdict in a few sentences, as Markdown (the report's paper page opens with it): what
        reproduces, what does not, the finding (the short words), and the questions' table of a paper with
        questions."""
        b = self.brief or Finding(self.reproduces, self.does_not, self.headline)
        parts = []
        if self.questions:
            if b.headline:
                parts.append(_sentence(b.headline))
            parts.append(questions_table(self.questions).rstrip("\n"))
        else:
            parts.append(" ".join(f"**{label}** {_sentence(text)}" for label, text in
                                  (("Reproduces:", b.reproduces), ("Does not:", b.does_not),
                                   ("Finding:", b.headline)) if text))
        return "\n\n".join(parts) + "\n"

    def paragraph(self) -> str:
        """Return the verdict as a Markdown paragraph: what reproduces, what does not, why, the key numbers."""
        parts = [f"**{self.paper}**: {self.citation}.", f"**Reproduces:** {_sentence(self.reproduces)}",
                 f"**Does not:** {_sentence(self.does_not)}", f"**Finding:** {_sentence(self.headline)}"]
        if self.why:
            parts.append(f"**Why:** {_sentence(self.why)}")
        if self.measured:
            parts.append(f"**Measured again:** {_sentence(self.measured)}")
        if self.counts:
            parts.append(f"**Ledger:** {_sentence(self.counts)}")
        return "\n\n".join(parts) + "\n"


def _sentence(text: str) -> str:
    """Return ``text`` with a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


class PaperRows:
    """One paper's ledger rows, with the look-ups the finding functions need (structured columns only)."""

    def __init__(self, paper: str, frame: pd.DataFrame, root: Path | str = DATA_DIR):
        self.paper = paper
        self.root = Path(root)
        self.frame = frame[frame["paper"] == paper].reset_index(drop=True)

    def select(self, source: str | None = None, column: str | None = None, row: str | None = None, *,
               source_prefix: str | None = None, column_prefix: str | None = None) -> pd.DataFrame:
        """Return the rows whose fields equal (or begin with) the given values."""
        f = self.frame
        mask = pd.Series(True, index=f.index)
        for field, value in (("source", source), ("column", column), ("row", row)):
            if value is not None:
                mask &= f[field] == value
        for field, prefix in (("source", source_prefix), ("column", column_prefix)):
            if prefix is not None:
                mask &= f[field].str.startswith(prefix)
        return f[mask]

    def claim(self, claim_id: str, column: str | None = None) -> pd.Series | None:
        """Return the row of claim ``claim_id`` (its ``claim_id`` column; in ``column``, if given), or ``None``
        when the ledger has none."""
        f = self.frame
        mask = (f["claim_id"] == claim_id) & ledger_file.claim_mask(f)
        mask &= (f["column"] == column) if column is not None else ~other_evidence(f["column"])
        hits = f[mask]
        return None if hits.empty else hits.iloc[0]

    def claims(self, column: str | None = None) -> pd.DataFrame:
        """Return the claim rows (judged on the published evidence unless ``column`` names another)."""
        f = self.frame
        claims = f[ledger_file.claim_mask(f)]
        return claims[claims["column"] == column] if column is not None else claims[~other_evidence(claims["column"])]

    def counts(self) -> dict[str, int]:
        """Return the number of rows per status, in the ledger's order of statuses (zeros left out)."""
        return ledger_file.status_counts(self.frame["status"])


def other_evidence(columns: pd.Series) -> pd.Series:
    """Return the mask of claim columns judged on evidence other than the paper's own (real stacks, ns-3)."""
    return (columns == REAL_STACKS) | columns.str.contains("ns-3", regex=False)


def number(value: str) -> float | None:
    """Return a ledger field as a number, or ``None`` if it is empty or not a number."""
    try:
        return float(str(value).strip().rstrip("%"))
    except ValueError:
        return None


def claim_tally(rows: pd.DataFrame) -> str:
    """Return the claim verdicts of ``rows`` as ``2 of 11 claims supported, 8 refuted, 1 inconclusive``.

    Statuses in :data:`paperlib.ledger.CLAIM_STATUSES` order, those without a claim left out.
    """
    got = rows["status"].value_counts()
    parts = [f"{int(got.get(s, 0))} {s}" for s in ledger_file.CLAIM_STATUSES if got.get(s, 0)]
    if not parts:
        return "no claim judged"
    first, *rest = parts
    n, status = first.split(" ", 1)
    return ", ".join([f"{n} of {len(rows)} claims {status}", *rest])


@dataclass(frozen=True)
class Finding:
    """The words of one paper's verdict, with the ledger's numbers filled in."""

    reproduces: str
    does_not: str
    headline: str
    why: str = ""


def paper_module(paper: str) -> ModuleType | None:
    """Return paper ``paper``'s verdict module (``paperlib.reproduce.p<paper>.verdict``), or ``None`` without one.

    It holds the paper's ``finding(rows: PaperRows) -> Finding`` and its ``CITATION`` (a :class:`Citation`, or
    ``None`` for a paper without a seed, cited by its sources).
    """
    name = f"paperlib.reproduce.p{paper}.verdict"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and name.startswith(err.name):
            return None
        raise


def finding_function(paper: str) -> Callable[[PaperRows], Finding]:
    """Return the function that words ``paper``'s finding: its package's ``finding``, else :func:`counts_only`."""
    module = paper_module(paper)
    return getattr(module, "finding", counts_only) if module is not None else counts_only


def counts_only(rows: PaperRows) -> Finding:
    """Return the verdict of a paper without its own finding function: the ledger's counts.

    The published measurements measured again on the real stacks are not among its numbers: they are counted
    apart (:func:`measured_text`).
    """
    c = ledger_file.status_counts(rows.frame["status"][~ledger_file.claim_mask(rows.frame)])
    measured = sum(c.get(s, 0) for s in (*ledger_file.MEASURED_STATUSES, ledger_file.FIDELITY_LOST))
    results = sum(c.get(s, 0) for s in ledger_file.RESULT_STATUSES) - measured - c.get("input", 0)
    good = c.get("reproduced", 0) + c.get("close", 0)
    return Finding(f"{good} of {results} published numbers reproduced or within 5%",
                   f"{c.get('differs', 0)} differ, {c.get('not_regenerable', 0)} not regenerable",
                   claim_tally(rows.claims()))


def measured_agree(rows: pd.DataFrame) -> str:
    """Return how many of the published measurements among ``rows`` that were measured again agree ("" if none was).

    E.g. ``"3 of 12 published measurements agree with today's real stacks (the whole 95% interval of the measured
    mean within 5% of the print), 4 undecided (the interval reaches across 5%)"``: ``measured_close`` rows and
    ``measured_inconclusive`` rows, of all rows with a measured status.
    """
    c = ledger_file.status_counts(rows["status"])
    n = sum(c.get(s, 0) for s in ledger_file.MEASURED_STATUSES)
    if not n:
        return ""
    close, undecided = c.get("measured_close", 0), c.get("measured_inconclusive", 0)
    text = (f"{close} of {n} published measurements agree with today's real stacks (the whole 95% interval of the "
            f"measured mean within 5% of the print)")
    return text + (f", {undecided} undecided (the interval reaches across 5%)" if undecided else "")


def measured_disagree(rows: pd.DataFrame) -> str:
    """Return how many of the published measurements among ``rows`` measured again differ ("" if none does).

    E.g. ``"5 of 12 published measurements differ from today's real stacks (the whole 95% interval of the
    measured mean more than 5% from the print)"`` (``measured_differs`` rows).
    """
    c = ledger_file.status_counts(rows["status"])
    n = sum(c.get(s, 0) for s in ledger_file.MEASURED_STATUSES)
    differs = c.get("measured_differs", 0)
    return (f"{differs} of {n} published measurements differ from today's real stacks (the whole 95% interval "
            f"of the measured mean more than 5% from the print)") if differs else ""


def measured_text(rows: pd.DataFrame) -> str:
    """Return what the real stacks found for the published measurements among ``rows`` ("" if none was measured).

    Shown in the paper's verdict paragraph (report, notebook), not in the README's table: an emulated mean
    varies from run to run, so the split between agreeing and differing cells can move by a cell or two between
    two runs of the same code, while the README must agree with every run's ledger (``make validate``).
    """
    return clauses(measured_agree(rows), measured_disagree(rows), fidelity_lost_text(rows))


def fidelity_lost_text(rows: pd.DataFrame) -> str:
    """Return how many published measurements among ``rows`` lost their timing on the real stacks ("" if none).

    E.g. ``"2 published measurements whose real-stack runs did not keep their timing (fidelity_lost: no verdict
    drawn)"``: the result rows (not the claims, :func:`paperlib.ledger.claim_mask`) of status ``fidelity_lost``.
    """
    lost = rows[(rows["status"] == ledger_file.FIDELITY_LOST) & ~ledger_file.claim_mask(rows)]
    noun = "measurement" if len(lost) == 1 else "measurements"
    return (f"{len(lost)} published {noun} whose real-stack runs did not keep their timing (fidelity_lost: "
            "no verdict drawn)") if len(lost) else ""


def clauses(*parts: str) -> str:
    """Return the non-empty ``parts`` joined by semicolons."""
    return "; ".join(p for p in parts if p)


def value_of(row: pd.Series | None, field: str = "regenerated") -> float | None:
    """Return a row's field as a number (``None`` without a row or a number)."""
    return None if row is None else number(row[field])


def conventions(rows: pd.DataFrame) -> str:
    """Return the convention of the rows (their first non-empty ``convention`` column, ``name=value, ...``), or
    ``"see the ledger"`` when none has one."""
    named = [c for c in rows["convention"] if c]
    return named[0] if named else "see the ledger"


def ran_on_real_stacks(row: pd.Series | None) -> bool:
    """Return whether the real stacks ran for a row (its ``emulation`` column, :data:`paperlib.ledger.RAN`)."""
    return row is not None and row["emulation"] in ledger_file.RAN


def within_5pct(rows: pd.DataFrame) -> int:
    """Return how many of ``rows`` are reproduced or close (within 5% of the print)."""
    return int(rows["status"].isin(("reproduced", "close")).sum())


def title(paper: str, root: Path | str = DATA_DIR) -> str:
    """Return the paper's title from ``data/<paper>/datapackage.json`` (without a trailing author note)."""
    path = Path(root) / paper / "datapackage.json"
    try:
        text = json.loads(path.read_text(encoding="utf-8"))["title"]
    except (OSError, KeyError, json.JSONDecodeError) as err:
        raise VerdictError(f"{path}: no title ({err})") from err
    return re.sub(r"\s*\([^()]*\)\s*$", "", text).strip()


def sources_text(paper: str, root: Path | str = DATA_DIR) -> str:
    """Return where a paper without a seed took its numbers, from ``data/<paper>/sources.csv`` ("" without one).

    RFCs by number, the Web Almanac by edition, papers as "first author et al. (year)", in that order: e.g.
    ``the Web Almanac 2024, RFCs 4960, 5246 and 6928, Dukkipati et al. (2010)``.
    """
    path = Path(root) / paper / "sources.csv"
    if not path.exists():
        return ""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    rfcs, almanacs, papers = [], [], []
    for _, s in table.iterrows():
        rfc = re.fullmatch(r"rfc(\d+)", s["id"])
        almanac = re.match(r"(Web Almanac \d{4})", s["title"])
        if rfc:
            rfcs.append(int(rfc.group(1)))
        elif almanac:
            almanacs.append(almanac.group(1))
        else:
            names = [n.strip() for n in s["authors"].split(";") if n.strip()]
            first = names[0].split()[-1] if names else s["id"]
            year = re.findall(r"\b(?:19|20)\d{2}\b", s["published"])
            papers.append(f"{first}{' et al.' if len(names) > 1 else ''}" + (f" ({year[-1]})" if year else ""))
    numbers_ = [str(n) for n in sorted(set(rfcs))]
    rfc_text = ("RFC " + numbers_[0] if len(numbers_) == 1 else
                "RFCs " + ", ".join(numbers_[:-1]) + " and " + numbers_[-1]) if numbers_ else ""
    parts = [f"the {a}" for a in dict.fromkeys(almanacs)] + ([rfc_text] if rfc_text else []) + papers
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def citation(paper: str, root: Path | str = DATA_DIR) -> str:
    """Return the paper's citation in Markdown: authors (the first "et al." beyond three), *title*, venue, year.

    A paper without a seed (its package's ``CITATION`` is ``None``) is its title and where its numbers come from
    (:func:`sources_text`).
    """
    module = paper_module(paper)
    c = getattr(module, "CITATION", None) if module is not None else None
    if c is None:
        sources = sources_text(paper, root)
        return f"*{title(paper, root)}*" + (f", from {sources}" if sources else "")
    names = c.authors.split(", ")
    authors = c.authors if len(names) <= 3 else f"{names[0]} et al."
    return f"{authors}, *{title(paper, root)}*, {c.venue}, {c.year}"


def brief_function(paper: str) -> Callable[[PaperRows], Finding]:
    """Return the function that words ``paper``'s finding in short cells: its package's ``brief``, else
    :func:`counts_only` (whose words are short)."""
    module = paper_module(paper)
    return getattr(module, "brief", counts_only) if module is not None else counts_only


def short_citation(paper: str) -> str:
    """Return the paper's citation in a few words: first author's surname ("et al." for more), short venue, year
    (``Lee et al., IEEE ICC 2006``); ``""`` for a paper without a seed."""
    module = paper_module(paper)
    c = getattr(module, "CITATION", None) if module is not None else None
    if c is None:
        return ""
    names = c.authors.split(", ")
    first = names[0].split()[-1] + (" et al." if len(names) > 1 else "")
    return f"{first}, {c.venue_short or c.venue} {c.year}"


def tally(rows: PaperRows) -> Tally:
    """Return the paper's :class:`Tally`: its published numbers by status (real-stack measurements, inputs and
    typos left out) and its claims by status (all evidence)."""
    f = rows.frame
    results = f[~ledger_file.claim_mask(f) & ~f["status"].isin(
        (*ledger_file.MEASURED_STATUSES, ledger_file.FIDELITY_LOST, "input", "typo")) & (f["column"] != REAL_STACKS)]
    c = ledger_file.status_counts(results["status"])
    claims = ledger_file.status_counts(f["status"][ledger_file.claim_mask(f)])
    return Tally(len(results), c.get("reproduced", 0), c.get("close", 0), c.get("differs", 0),
                 c.get("not_regenerable", 0), tuple((s, claims.get(s, 0)) for s in ledger_file.CLAIM_STATUSES))


def paper_verdicts(ledger: pd.DataFrame, root: Path | str = DATA_DIR) -> list[PaperVerdict]:
    """Return one verdict per paper of ``ledger``, in paper order, every number read from the ledger."""
    needed = ledger_file.COLUMNS + ledger_file.STRUCTURED_COLUMNS
    missing = [c for c in needed if c not in ledger.columns]
    if missing:
        raise VerdictError(f"ledger: missing columns {missing}")
    frame = ledger.astype({c: str for c in needed}).fillna("")
    out = []
    for paper in sorted(frame["paper"].unique()):
        rows = PaperRows(paper, frame, root)
        words = finding_function(paper)(rows)
        module = paper_module(paper)
        asks = getattr(module, "questions", None) if module is not None else None
        out.append(PaperVerdict(paper, citation(paper, root), words.reproduces, words.does_not, words.headline,
                                why=words.why, measured=measured_text(rows.frame),
                                counts=ledger_file.status_text(rows.counts()), short_citation=short_citation(paper),
                                brief=brief_function(paper)(rows), questions=tuple(asks(rows)) if asks else (),
                                tally=tally(rows)))
    return out


#: The most words a cell of the README's tables may hold (checked by the tests on the generated text).
CELL_WORDS = 40
#: Where a paper's details are, from the README.
PAPER_PAGE = "docs/papers/{paper}.md"


def _cell(text: str) -> str:
    """Return ``text`` fit for a Markdown table cell (no pipe, no line break)."""
    return " ".join(text.replace("|", "\\|").split())


HEADER = ("paper", "reproduces", "does not reproduce", "finding")
QUESTION_HEADER = ("question", "model", "real stacks")


def _count(n: int, noun: str) -> str:
    """Return ``1 claim`` / ``2 claims``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def overall(verdicts: list[PaperVerdict]) -> str:
    """Return the overall findings in three sentences, every number added up from the verdicts' tallies: the
    published papers' numbers, their claims, and the questions of the papers that ask them."""
    papers = [v for v in verdicts if not v.questions and v.tally is not None]
    asking = [v for v in verdicts if v.questions]
    out = []
    if papers:
        t = [v.tally for v in papers]
        results = sum(x.results for x in t)
        regenerated = results - sum(x.not_regenerable for x in t)
        ids = ", ".join(v.paper for v in papers)
        out.append(f"Of the {results} published numbers of papers {ids}, the package regenerates {regenerated}: "
                   f"{sum(x.reproduced for x in t)} reproduce at their printed precision, {sum(x.close for x in t)} "
                   f"come within 5% and {sum(x.differs for x in t)} differ by more; the other "
                   f"{results - regenerated} are not regenerated (a testbed or simulator that is not here, or a run "
                   "that did not run).")
        claims = {s: sum(dict(x.claims).get(s, 0) for x in t) for s in ledger_file.CLAIM_STATUSES}
        judged = [f"{n} {s}" for s, n in claims.items() if n]
        out.append(f"Their stated claims, each judged on what reaches it (the printed tables, ns-3, today's real "
                   f"stacks), get "
                   f"{_count(sum(claims.values()), 'verdict')}: {', '.join(judged) if judged else 'none'}.")
    for v in asking:
        model = [q.model_status for q in v.questions if q.model_status]
        real = [q.real_status for q in v.questions if q.real_status]

        def split(statuses: list[str]) -> str:
            return ", ".join(f"{statuses.count(s)} {s}" for s in ledger_file.CLAIM_STATUSES if s in statuses)

        out.append(f"Asked of today's web (paper {v.paper}), the model answers {len(model)} of its "
                   f"{_count(len(v.questions), 'question')} ({split(model)})"
                   + (f" and today's real stacks {len(real)} ({split(real)})." if real else
                      "; the real stacks did not run."))
    return " ".join(out)


def papers_table(verdicts: list[PaperVerdict]) -> str:
    """Return the published papers' table: one row per paper (its short citation linked to its page, what
    reproduces, what does not, the finding), in short cells."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for v in verdicts:
        b = v.brief or Finding(v.reproduces, v.does_not, v.headline)
        cite = v.short_citation or v.citation
        cells = [f"**{v.paper}** [{cite}]({PAPER_PAGE.format(paper=v.paper)})", b.reproduces, b.does_not, b.headline]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def questions_table(questions: tuple[QuestionRow, ...]) -> str:
    """Return a paper's questions as a table: the question, the model's cell, the real stacks' cell."""
    lines = ["| " + " | ".join(QUESTION_HEADER) + " |", "|" + "---|" * len(QUESTION_HEADER)]
    for q in questions:
        lines.append("| " + " | ".join(_cell(c) for c in (q.question, q.model, q.real_stacks)) + " |")
    return "\n".join(lines) + "\n"


def results_table(verdicts: list[PaperVerdict]) -> str:
    """Return the README's results block: the overall findings (:func:`overall`), the published papers' table
    (:func:`papers_table`), then per paper that asks questions its own table (:func:`questions_table`)."""
    papers = [v for v in verdicts if not v.questions]
    parts = [overall(verdicts) + "\n"]
    if papers:
        parts.append(papers_table(papers))
    for v in verdicts:
        if v.questions:
            b = v.brief
            lead = f"**{v.paper}** [the papers' questions asked of today's web]({PAPER_PAGE.format(paper=v.paper)})"
            parts.append(f"{lead}: {_sentence(b.headline) if b and b.headline else ''}".rstrip() + "\n")
            parts.append(questions_table(v.questions))
    return "\n".join(parts)


def cells(verdicts: list[PaperVerdict]) -> list[str]:
    """Return every cell of the README's tables as the block writes it (for the word limit, :data:`CELL_WORDS`)."""
    out = []
    for line in results_table(verdicts).splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            out += [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    return out


def results_block(readme_text: str) -> str:
    """Return the text between :data:`BEGIN` and :data:`END` (raises :class:`VerdictError` without them)."""
    start, end = readme_text.find(BEGIN), readme_text.find(END)
    if start < 0 or end < 0 or end < start:
        raise VerdictError(f"no results block: the README needs {BEGIN} ... {END} around the results table")
    return readme_text[start + len(BEGIN):end]


def with_results(readme_text: str, table: str) -> str:
    """Return ``readme_text`` with its results block replaced by ``table``."""
    results_block(readme_text)
    start, end = readme_text.find(BEGIN) + len(BEGIN), readme_text.find(END)
    return readme_text[:start] + "\n" + table + readme_text[end:]


def _split(line: str) -> list[str]:
    """Return a Markdown table line's cells."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def table_rows(block: str) -> dict[str, list[str]]:
    """Return the block's table rows by key: a paper's row by its id (``**<id>** ...`` in the first cell), a
    question's by ``<paper>: <question>`` (the paper of the ``**<id>**`` line above its table); their cells."""
    rows: dict[str, list[str]] = {}
    asking = ""
    for line in block.splitlines():
        m = re.match(r"\|\s*\*\*(\d{3})\*\*", line)
        if m:
            rows[m.group(1)] = _split(line)
            continue
        lead = re.match(r"\*\*(\d{3})\*\*", line)
        if lead:
            asking = lead.group(1)
        elif line.startswith("|") and not line.startswith("|---") and asking:
            cells_ = _split(line)
            if cells_ and cells_[0] != QUESTION_HEADER[0]:
                rows[f"{asking}: {cells_[0]}"] = cells_
    return rows


def overall_text(block: str) -> str:
    """Return the block's overall findings: its text before the first table or paper line."""
    lines = []
    for line in block.strip().splitlines():
        if line.startswith(("|", "**")):
            break
        lines.append(line)
    return " ".join(" ".join(lines).split())


NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def numbers(text: str) -> list[str]:
    """Return the numbers of ``text`` as written, in order."""
    return NUMBER.findall(text)


def _compare(paper: str, what: str, readme: str, expected: str, partial: bool) -> list[str]:
    """Return the disagreements of one README cell with the ledger's, each naming paper and number."""
    have, want = numbers(readme), numbers(expected)
    if partial:
        pool = list(have)
        out = []
        for n in want:
            if n in pool:
                pool.remove(n)
            else:
                out.append(f"paper {paper}, {what}: the ledger gives {n}, which the README does not state "
                           f"(ledger: {expected!r})")
        return out
    if readme == expected:
        return []
    if len(have) == len(want):
        diffs = [f"paper {paper}, {what}: the README says {h} where the ledger gives {w}"
                 for h, w in zip(have, want, strict=True) if h != w]
        if diffs:
            return diffs
        return [f"paper {paper}, {what}: same numbers, other words than the ledger's verdict ({expected!r}); "
                "run python -m paperlib.verdicts --write README.md"]
    return [f"paper {paper}, {what}: the README states {have} where the ledger gives {want} "
            f"(ledger: {expected!r})"]


def _status_part(cell: str) -> str:
    """Return a real-stack cell's status: its text before the first ``:`` (the numbers after it move from run to
    run: a measurement in real time)."""
    return cell.split(":", 1)[0].strip()


def check_readme(readme_text: str, ledger: pd.DataFrame, *, partial: bool = False,
                 root: Path | str = DATA_DIR) -> list[str]:
    """Return every disagreement between the README's results block and ``ledger`` ([] when they agree).

    Each names the paper and the number. The published papers' rows are compared cell by cell, the questions'
    rows likewise except their real-stack cells, whose status alone is compared (their numbers are measured in
    real time and move from run to run); the overall findings are compared as a whole. With ``partial`` the
    ledger holds only some rows of a paper (as a test regenerates them): every number of their verdict must then
    appear in the README's cell, papers absent from the ledger are not checked, nor are the overall findings.
    """
    try:
        block = results_block(readme_text)
    except VerdictError as err:
        return [str(err)]
    have = table_rows(block)
    problems = []
    verdicts = paper_verdicts(ledger, root)
    want = table_rows(results_table(verdicts))
    if not partial and overall_text(block) != overall(verdicts):
        problems.append(f"the overall findings differ from the ledger's: the README states "
                        f"{numbers(overall_text(block))}, the ledger gives {numbers(overall(verdicts))} "
                        f"({overall(verdicts)!r})")
    for key, expected in want.items():
        paper = key.split(":", 1)[0]
        got = have.get(key)
        if got is None:
            problems.append(f"paper {paper}: no row in the README's results table" if ":" not in key else
                            f"paper {key}: no row in the README's questions table")
            continue
        if len(got) != len(expected):
            problems.append(f"paper {key}: the README's row has {len(got)} cells, not {len(expected)}")
            continue
        header = QUESTION_HEADER if ":" in key else HEADER
        for i, (what, cell, exp) in enumerate(zip(header, got, expected, strict=True)):
            if ":" in key and i == len(header) - 1:
                if _status_part(cell) != _status_part(exp):
                    problems.append(f"paper {key}, {what}: the README says {_status_part(cell)!r} where the ledger "
                                    f"gives {_status_part(exp)!r}")
                continue
            label = what if ":" not in key else f"{key.split(': ', 1)[1]}, {what}"
            problems += _compare(paper, label, cell, exp, partial)
    if not partial:
        extra = sorted(set(have) - set(want))
        problems += [f"paper {p}: in the README's results block but not in the ledger" for p in extra]
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check (``--check``) or rewrite (``--write``) a README's results block against the ledger; return the exit
    status."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.verdicts", description=__doc__.splitlines()[0])
    parser.add_argument("--ledger", type=Path, default=ledger_file.FIGURES_DIR / "ledger.csv")
    act = parser.add_mutually_exclusive_group(required=True)
    act.add_argument("--check", type=Path, metavar="README", help="exit 1 listing every disagreement")
    act.add_argument("--write", type=Path, metavar="README", help="rewrite the results block from the ledger")
    args = parser.parse_args(argv)
    if not args.ledger.exists():
        sys.stderr.write(f"{args.ledger}: no ledger (run make reproduce first)\n")
        return 2
    try:
        frame = ledger_file.read(args.ledger)
    except (ledger_file.LedgerError, pd.errors.ParserError) as err:
        sys.stderr.write(f"{args.ledger}: {err}\n")
        return 2
    target = args.check or args.write
    quick = profiles.quick_note(frame, str(args.ledger))
    if quick:
        sys.stderr.write(f"{quick}\n{target} holds the reference run's verdicts and is checked against (or written "
                         f"from) a ledger at the notebooks' own scale only: run make reproduce without PROFILE=quick "
                         f"first.\n")
        return 2
    try:
        text = target.read_text(encoding="utf-8")
    except OSError as err:
        sys.stderr.write(f"{target}: {err}\n")
        return 2
    if args.write:
        try:
            atomic_write_text(target, with_results(text, results_table(paper_verdicts(frame))))
        except VerdictError as err:
            sys.stderr.write(f"{target}: {err}\n")
            return 2
        sys.stdout.write(f"{target}: results block written from {args.ledger}\n")
        return 0
    problems = check_readme(text, frame)
    for p in problems:
        sys.stdout.write(f"{target}: {p}\n")
    if problems:
        sys.stdout.write(f"{len(problems)} disagreement(s) with {args.ledger}; "
                         f"python -m paperlib.verdicts --ledger {args.ledger} --write {target} rewrites the block\n")
        return 1
    sys.stdout.write(f"{target}: results table agrees with {args.ledger}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
