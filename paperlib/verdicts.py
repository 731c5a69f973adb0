"""Per-paper verdicts computed from the ledger: the one source of the README's results table, the report's
paper pages and the notebooks' conclusions.

A :class:`PaperVerdict` says, for one paper, what reproduces, what does not and the headline finding with
its number. Every number in it is read from the ledger (``figures/ledger.csv``): counts by status, printed
and regenerated values, claim verdicts with their intervals. The wording is one small function per paper
(:data:`FINDINGS`), which fills the ledger's numbers into that paper's finding; a paper without one gets
the ledger's counts only. Papers are the ledger's own (``paper`` column), in paper order. Measurements on
the emulated real stacks run in real time and move a little from run to run, so the verdicts give their
claims' statuses (which their intervals make stable), not their numbers.

``python -m paperlib.verdicts --ledger figures/ledger.csv --check README.md`` fails (exit 1), naming the
paper and the number, when the README's results block disagrees with the ledger; ``--write README.md``
rewrites that block (between :data:`BEGIN` and :data:`END`) from the ledger, atomically. Both refuse (exit 2)
a ledger that holds rows of the quick profile (:mod:`paperlib.profiles`): its statuses are not the reference's.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from paperlib import ledger as ledger_file
from paperlib import profiles
from paperlib.atomic import atomic_write_text
from paperlib.data import DATA_DIR

BEGIN = "<!-- results:begin -->"
END = "<!-- results:end -->"

#: The emulated testbed's marks at the start of a ledger reason (``paperlib.emulation.ledger_rows``).
EMULATED = "[emulated on real stacks]"
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


#: Authors, venue and year of each seed (its title is read from ``data/<paper>/datapackage.json``).
#: ``checked_in`` says where they were verified.
CITATIONS: dict[str, Citation] = {
    "000": Citation("Y.-J. Lee", "ACSIJ, vol. 3, no. 3", "2014",
                    "seed (author; cites 2013 work); ACSIJ's article page and its index record JR_ACSIJ-3-3_009"),
    "001": Citation("W. Seok", "The KIPS Transactions: Part C, vol. 15-C, no. 4, pp. 321ff", "2008",
                    "seed (received 2008-01-16, accepted 2008-06-21); DOI 10.3745/KIPSTC.2008.15-C.4.321"),
    "002": Citation("Y.-J. Lee, M. Atiquzzaman, S. Sivagurunathan", "Proc. IEEE ICC, pp. 164-169", "2006",
                    "reference [12] of paper 000, which cites this paper"),
    "003": Citation("B. Vandalore, S. Kalyanaraman, R. Jain, R. Goyal, S. Fahmy, X. Cai, S.-C. Kim",
                    "ATM Forum contribution 97-0425", "1997",
                    "seed (contribution number); R. Jain's list of ATM Forum contributions (April 1997)"),
    "004": Citation("Y.-J. Lee, M. Atiquzzaman", "journal letter (venue not named in the seed)", "2007 or later",
                    "seed (authors; cites ICC 2007); the venue could not be verified"),
}


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
    """One paper's ledger rows, with the look-ups the finding functions need."""

    def __init__(self, paper: str, frame: pd.DataFrame, root: Path | str = DATA_DIR):
        self.paper = paper
        self.frame = frame[frame["paper"] == paper].reset_index(drop=True)
        claims = Path(root) / paper / "claims.csv"
        self.claim_text = (pd.read_csv(claims, dtype=str, keep_default_na=False).set_index("id")["claim"].to_dict()
                           if claims.exists() else {})

    def select(self, source: str | None = None, column: str | None = None, row: str | None = None, *,
               source_prefix: str | None = None, column_prefix: str | None = None,
               reason_prefix: str | None = None) -> pd.DataFrame:
        """Return the rows whose fields equal (or begin with) the given values."""
        f = self.frame
        mask = pd.Series(True, index=f.index)
        for field, value in (("source", source), ("column", column), ("row", row)):
            if value is not None:
                mask &= f[field] == value
        for field, prefix in (("source", source_prefix), ("column", column_prefix), ("reason", reason_prefix)):
            if prefix is not None:
                mask &= f[field].str.startswith(prefix)
        return f[mask]

    def claim(self, claim_id: str, column: str | None = None) -> pd.Series | None:
        """Return the row of claim ``claim_id`` (in ``column``, if given), or ``None`` when the ledger has none.

        A claim row names its claim by id or by its text in ``data/<paper>/claims.csv``.
        """
        names = {claim_id, self.claim_text.get(claim_id, claim_id)}
        f = self.frame
        mask = f["row"].isin(names) & ledger_file.claim_mask(f)
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


#: One function per paper: its ledger rows -> its finding. :func:`finding` registers them.
FINDINGS: dict[str, Callable[[PaperRows], Finding]] = {}


def finding(paper: str) -> Callable[[Callable[[PaperRows], Finding]], Callable[[PaperRows], Finding]]:
    """Register the decorated function as the wording of ``paper``'s verdict."""

    def register(fn: Callable[[PaperRows], Finding]) -> Callable[[PaperRows], Finding]:
        if paper in FINDINGS:
            raise VerdictError(f"paper {paper}: two finding functions ({FINDINGS[paper].__name__}, {fn.__name__})")
        FINDINGS[paper] = fn
        return fn

    return register


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

    E.g. ``"7 of 12 published measurements agree with today's real stacks (3 inside the 95% interval of the
    measured mean, 4 outside it but within 5%)"``: ``measured_within_ci`` and ``measured_close`` rows, of all
    rows with a measured status.
    """
    c = ledger_file.status_counts(rows["status"])
    n = sum(c.get(s, 0) for s in ledger_file.MEASURED_STATUSES)
    if not n:
        return ""
    inside, close = c.get("measured_within_ci", 0), c.get("measured_close", 0)
    return (f"{inside + close} of {n} published measurements agree with today's real stacks ({inside} inside the "
            f"95% interval of the measured mean, {close} outside it but within 5%)")


def measured_disagree(rows: pd.DataFrame) -> str:
    """Return how many of the published measurements among ``rows`` measured again differ ("" if none does).

    E.g. ``"5 of 12 published measurements differ from today's real stacks (outside the 95% interval of the
    measured mean and more than 5% from it)"`` (``measured_differs`` rows).
    """
    c = ledger_file.status_counts(rows["status"])
    n = sum(c.get(s, 0) for s in ledger_file.MEASURED_STATUSES)
    differs = c.get("measured_differs", 0)
    return (f"{differs} of {n} published measurements differ from today's real stacks (outside the 95% interval "
            f"of the measured mean and more than 5% from it)") if differs else ""


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
    """Return the convention the rows' reasons name (``name=value, ...``), or ``"see the ledger"``."""
    found = re.search(r"((?:\w+=[^,;()]+(?:\([^()]*\))?, )+\w+=[^,;()]+)", " ".join(rows["reason"]))
    return found.group(1) if found else "see the ledger"


def within_5pct(rows: pd.DataFrame) -> int:
    """Return how many of ``rows`` are reproduced or close (within 5% of the print)."""
    return int(rows["status"].isin(("reproduced", "close")).sum())


@finding("000")
def multiuser_waiting(rows: PaperRows) -> Finding:
    """Return paper 000's finding: the tables' times are below what the link can carry; DIFF_mean from no definition."""
    cells = rows.select(source_prefix="Table ")
    tables = cells[cells["column"].str.match(r"[WT]_\{\w+\}$")]  # the printed cells (not the ns-3 rows)
    model = tables[tables["column"].str.startswith("W_")]
    impossible = int(tables["reason"].str.contains(ledger_file.IMPOSSIBLE, regex=False).sum())
    diff = rows.claim("diff_mean_4_17")
    below = rows.claim("diff_below_4pct")
    diff_text = ""
    if value_of(diff) is not None:
        diff_text = f"DIFF_mean = {diff['published']}% (Eq. (9) as printed gives {value_of(diff):.2f}%)"
    below_text = ""
    if value_of(below) is not None:
        below_text = f"'below about 4%' (the mean absolute difference is {value_of(below):.2f}%)"
    law = re.search(r"the law the printed tables follow, (W = [^ ]+)", " ".join(model["reason"]))
    ns3 = rows.select(column="T_{tcp} (ns-3)")
    ns3_text = ""
    ratio = pd.to_numeric(ns3["regenerated"], errors="coerce") / pd.to_numeric(ns3["published"], errors="coerce")
    if ratio.notna().any():
        ns3_text = (f"ns-3's TCP turnaround is a median {ratio.median():.0f} times the printed one "
                    f"({int(ratio.notna().sum())} cells)")
    claims = rows.claims()
    return Finding(
        reproduces=clauses(f"{int((claims['status'] == 'supported').sum())} of {len(claims)} claims hold on the "
                           "printed tables"),
        does_not=clauses(f"{len(model) - within_5pct(model)} of {len(model)} model cells of Tables 1-3 "
                         f"({within_5pct(model)} within 5%)", diff_text, below_text),
        headline=clauses(f"{impossible} of {len(tables)} printed times of Tables 1-3 are below the loss-free "
                         "bound of the paper's own round-robin"
                         + (f": the tables follow {law.group(1)} (Eq. (4) divided by m), not Eq. (4)" if law else ""),
                         ns3_text),
        why=f"the ledger's waiting time is Eq. (4) ({conventions(model)}); every printed column, the "
            "'experimental' ones too, follows the other law, so they were computed from a formula",
    )


@finding("001")
def fifo_red_response(rows: PaperRows) -> Finding:
    """Return paper 001's finding: Table 3 under one reading; Mah's workload is far lighter; the claims' tally."""
    counts = rows.select(source="Table 3", column="The Number of Browsers")
    link = re.search(r"of a ([\d.]+) Mbit/s link", " ".join(counts["reason"]))
    typo = rows.select(source="Table 3", column="Traffic Load")
    typo = typo[typo["status"] == "typo"]
    typo_text = ""
    if len(typo):
        fixed = re.search(r"corrected reading ([\d.]+)", typo.iloc[0]["reason"])
        typo_text = f"the row printed '{typo.iloc[0]['published']}' is " + (
            f"the text's {fixed.group(1)}% (a typo)" if fixed else "a typo")
    slope = rows.select(source="Section 2.2 (calibration line)", column="slope")
    slope_text = ""
    if len(slope) and number(slope.iloc[0]["regenerated"]):
        reg, pub = number(slope.iloc[0]["regenerated"]), number(slope.iloc[0]["published"])
        slope_text = (f"the calibration slope: {reg:.4f} kbit/s per browser on Mah's measured workload against "
                      f"the printed {slope.iloc[0]['published']} ({pub / reg:.0f} times lower)")
    claims = rows.claims()
    read_off = rows.frame[rows.frame["reason"].str.contains("reads the number off", regex=False)]
    read_text = (f"{len(read_off) - within_5pct(read_off)} of {len(read_off)} numbers the text reads off its "
                 "figures (more than 5% from the testbed)" if len(read_off) else "")
    other = claims["reason"].str.extract(r"\[other workload: (\w+); the verdict depends", expand=False).dropna()
    decided = ("supported", "refuted")
    flips = sum(1 for i, o in other.items() if o in decided and claims.loc[i, "status"] in decided)
    depends = (f"{len(other)} verdicts depend on the workload, {flips} between supported and refuted"
               if len(other) else "")
    return Finding(
        reproduces=clauses(f"{within_5pct(counts)} of {len(counts)} browser counts of Table 3"
                           + (f", reading the line's y in kbit/s of a {link.group(1)} Mbit/s link" if link else ""),
                           typo_text),
        does_not=clauses(slope_text, read_text),
        headline=clauses((f"on Mah's measured workload {claim_tally(claims)}: a claim is decided only when the "
                          "95% interval of its margin over the replications lies on one side of zero")
                         if len(claims) else "", depends),
        why="the paper's traffic generator must have shortened Mah's think times, and no source says how, so "
            "nothing is tuned: the browser counts come from the regenerated line",
    )


@finding("002")
def http_sctp_response(rows: PaperRows) -> Finding:
    """Return paper 002's finding: Table II within 5%, Table III not; the "20% faster" claim refuted."""
    model = rows.frame[rows.frame["column"].str.contains("(Model)", regex=False)]
    table2, table3 = model[model["source"] == "Table II"], model[model["source"] == "Table III"]
    shared = re.search(r"printed as (\S+) in Table II and (\S+) in Table III", " ".join(table2["reason"]))
    gain = rows.claim("sctp_less_20pct")
    real = rows.claim("sctp_less_20pct", REAL_STACKS)
    headline = ""
    if value_of(gain) is not None:
        headline = f"'SCTP is 20% faster' is refuted: the printed pairs differ by {value_of(gain):.1f}% on average"
    if real is not None and real["reason"].startswith(EMULATED):
        headline = clauses(headline, f"{real['status']} on today's real stacks too" if gain is not None and
                           real["status"] == gain["status"] else f"{real['status']} on today's real stacks")
    exact = int((table2["status"] == "reproduced").sum())
    return Finding(
        reproduces=clauses(f"{within_5pct(table2)} of {len(table2)} model cells of Table II within 5% ({exact} "
                           "exactly)", f"{claim_tally(rows.claims())}"),
        does_not=clauses(f"Table III: {len(table3) - within_5pct(table3)} of {len(table3)} model cells more than "
                         "5% off",
                         f"Tables II and III print different values ({shared.group(1)} and {shared.group(2)} s) at "
                         "the one point they share" if shared else ""),
        headline=headline,
        why=f"the model is the reconstructed algorithm under one convention ({conventions(table2)}); Table III "
            "is not reproduced under it",
    )


@finding("003")
def specweb96_abr(rows: PaperRows) -> Finding:
    """Return paper 003's finding: the derived numbers under one unit convention; "10 times more demand" refuted."""
    results = rows.frame[rows.frame["status"].isin(ledger_file.RESULT_STATUSES)]
    derived = results[~results["status"].isin(("not_regenerable", *ledger_file.MEASURED_STATUSES))]
    c = rows.counts()
    unit_typo = rows.select(row="avg_file_size")
    ten = rows.claim("ten_times_demand")
    headline = ""
    if value_of(ten) is not None:
        headline = f"'10 times more demand per user' is refuted: {value_of(ten):.1f}x"
    if len(unit_typo) and unit_typo.iloc[0]["status"] == "typo":
        printed = unit_typo.iloc[0]["published"]
        headline = clauses(headline, f"the slide's '{printed}' is {printed.split()[0]} kilobits")
    return Finding(
        reproduces=f"{c.get('reproduced', 0)} of {len(derived)} derived numbers exactly, {c.get('close', 0)} within "
                   f"5%, {c.get('typo', 0)} printed typos whose corrected reading does",
        does_not=f"the {c.get('not_regenerable', 0)} switch-queue and throughput cells of the ATM ABR/ERICA "
                 "simulation (no maintained simulator has ABR); an ns-3 TCP analogue stands beside them",
        headline=headline,
        why=f"one unit convention, chosen by systematic search, holds for every derived number "
            f"({conventions(derived)})",
    )


@finding("004")
def slow_start_latency(rows: PaperRows) -> Finding:
    """Return paper 004's finding: 8 of 10 model cells; the floor/ceiling error of Eqs. (5)-(6); "within 4%"."""
    model = rows.select(source="Table II", column_prefix="Model")
    missed = model[model["status"] != "reproduced"]
    missed_text = ""
    if len(missed):
        labels = list(dict.fromkeys(missed["row"]))
        printed = " / ".join(missed["published"])
        regen = " / ".join(f"{number(v):.2f}" for v in missed["regenerated"])
        missed_text = (f"the {', '.join(labels)} row{'s' if len(labels) > 1 else ''} (printed {printed} s, the "
                       f"model gives {regen} s)")
    corrected = bool(model["reason"].str.contains("form=corrected", regex=False).any())
    within = rows.claim("within_4_percent")
    gap = rows.claim("tcp_two_rtt_larger")
    real = rows.claim("within_4_percent", REAL_STACKS)
    real_gap = rows.claim("tcp_two_rtt_larger", REAL_STACKS)
    floor = ("Eqs. (5)-(6) print a floor where Eq. (1) has a ceiling, which drops the last stall; the ceiling "
             "reproduces" if corrected else "")
    real_text = ""
    if value_of(real) is not None:
        real_text = f"on today's real stacks 'within 4%' is {real['status']}"
    gap_value = value_of(real_gap)
    if gap_value is not None:
        slower = ", SCTP being the slower stack" if gap_value < 0 else ""
        real_text = clauses(real_text, f"'TCP is 2 RTT slower' is {real_gap['status']}{slower}")
    measured = rows.frame["status"].isin(ledger_file.MEASURED_STATUSES).any()
    return Finding(
        reproduces=clauses(f"{len(model) - len(missed)} of {len(model)} model cells of Table II",
                           f"'TCP is 2 RTT slower' on the printed table ({value_of(gap):.2f} T_r)"
                           if value_of(gap) is not None and gap["status"] == "supported" else ""),
        does_not=clauses(missed_text, f"'within 4%': {value_of(within):.2f}% on the paper's own table"
                         if value_of(within) is not None else ""),
        headline=clauses(floor, real_text),
        why=f"one convention, chosen by systematic search, for the whole table ({conventions(model)}); the "
            + ("paper's testbed cannot be re-run; its experimental columns are measured again on today's real "
               "stacks where the emulated grid covers them" if measured else "experimental columns cannot be re-run"),
    )


#: Paper 005's questions (``paperlib.reproduce.p005.claims``), by id, in the words of its headline.
QUESTIONS_005 = {
    "iw10_gain": "IW10 against IW3 shortens today's page",
    "quic_handshake_saving": "QUIC saves one handshake round trip",
    "h3_beats_h2_loss": "HTTP/3 beats HTTP/2 under loss beyond the handshake",
    "sctp_streams_same": "SCTP's streams do the same",
    "h3_less_than_h2_000": "000's 'SCTP waits less than TCP' as HTTP/3 against HTTP/2",
    "h3_less_20pct_002": "002's '20% faster' as HTTP/3 against HTTP/2",
    "loss_model_holds": "the papers' loss model predicts today's page load time under loss",
}
#: The questions judged on the real stacks only (their model row says so and is not a finding).
REAL_STACK_QUESTIONS_005 = ("loss_model_holds",)


def _question_rows(rows: PaperRows, column: str | None = None) -> dict[str, pd.Series]:
    """Return paper 005's question rows by id (judged on the model, or in ``column``); absent ones left out.

    A question's ledger row names it by its text, which lives in its registration
    (``paperlib.reproduce.p005.claims.CLAIMS.questions``), not in ``data/005/claims.csv``.
    """
    from paperlib.reproduce.p005.claims import CLAIMS

    out = {}
    for ident in QUESTIONS_005:
        text = CLAIMS.questions.get(ident)
        got = rows.claim(text, column) if text else None
        if got is not None:
            out[ident] = got
    return out


@finding("005")
def todays_transports(rows: PaperRows) -> Finding:
    """Return paper 005's finding: the anchors (input or scored), Dukkipati's ~10%, the questions' statuses."""
    f = rows.frame
    anchors = f[~ledger_file.claim_mask(f) & (f["column"] != REAL_STACKS)]
    inputs = anchors[anchors["status"] == "input"]
    weight = anchors[anchors["source"] == "data/005/page_weight.csv"]
    gain = anchors[anchors["row"] == "dukkipati_latency_gain"]
    measured = anchors[anchors["source"].isin(("data/005/handshake_rtts.csv", "data/005/initial_windows.csv"))
                       & (anchors["status"] != "input")]
    good, bad = [], []
    if len(weight):
        kb = " / ".join(f"{number(v):.0f}" for v in weight["regenerated"])
        devices = " / ".join(r.removesuffix(" median") for r in weight["row"])
        text = (f"the median page weight ({devices}: printed {' / '.join(weight['published'])} KB, the model's "
                f"median homepage {kb} KB)")
        (good if weight["status"].isin(("reproduced", "close")).all() else bad).append(text)
    if len(gain) and value_of(gain.iloc[0]) is not None:
        g = gain.iloc[0]
        text = (f"Dukkipati's ~{g['published']}% latency gain of IW10 (the model's mean gain over IW4 on the heat "
                f"map's grid: {value_of(g):.2f}%)")
        (good if g["status"] in ("reproduced", "close") else bad).append(text)
    claims = rows.claims()
    stated = claims[claims["row"].isin(rows.claim_text.values())]
    model = _question_rows(rows)
    real = _question_rows(rows, REAL_STACKS)
    said = [f"{QUESTIONS_005[i]}: {r['status']}" for i, r in model.items() if i not in REAL_STACK_QUESTIONS_005]
    iw = model.get("iw10_gain")
    if iw is not None and value_of(iw) is not None:
        said[0] = f"{QUESTIONS_005['iw10_gain']} by {value_of(iw):.1f}% at the real stacks' link: {iw['status']}"
    twenty = model.get("h3_less_20pct_002")
    if twenty is not None and value_of(twenty) is not None:
        at = list(model).index("h3_less_20pct_002")
        said[at] = f"{said[at]} (HTTP/3 {value_of(twenty):.1f}% faster)"
    headline = ("in the model, " + "; ".join(said)) if said else ""
    if real and any(r["reason"].startswith(EMULATED) for r in real.values()):
        by_status = {s: [QUESTIONS_005[i] for i, r in real.items() if r["status"] == s]
                     for s in ledger_file.CLAIM_STATUSES}
        groups = [f"{s}: {', '.join(names)}" if len(names) < len(real) else f"all {len(real)} questions {s}"
                  for s, names in by_status.items() if names]
        headline = clauses(headline, "on today's real stacks, " + "; ".join(groups))
    if len(measured) and measured["status"].isin(ledger_file.MEASURED_STATUSES).any():
        stacks = ("the anchors measured on today's real stacks: "
                  + ", ".join(f"{r['row']} {r['column']}: {r['status']}" for _, r in measured.iterrows()))
    elif len(measured):
        stacks = ("the handshake round trips and first flights are the RFCs' counts until the real stacks run "
                  "(not_regenerable)")
    else:
        stacks = ""
    return Finding(
        reproduces=clauses(*good, f"in the model, {claim_tally(stated)} (the abstracts of Dukkipati et al. and "
                           "Langley et al.)" if len(stated) else ""),
        does_not=clauses(*bad),
        headline=headline,
        why=clauses(f"{len(inputs)} of the {len(anchors)} anchors are inputs the model takes as given (the Almanac's "
                    "requests and bytes by type, the RFCs' constants), not results to reproduce",
                    "the model's page is the sum of per-type medians, not the median page" if len(weight) else "",
                    "Dukkipati measured single HTTP responses on Google's traffic, not a page" if len(gain) else "",
                    stacks),
    )


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

    A paper without a seed (005: today's anchors) is its title and where its numbers come from
    (:func:`sources_text`).
    """
    c = CITATIONS.get(paper)
    if c is None:
        sources = sources_text(paper, root)
        return f"*{title(paper, root)}*" + (f", from {sources}" if sources else "")
    names = c.authors.split(", ")
    authors = c.authors if len(names) <= 3 else f"{names[0]} et al."
    return f"{authors}, *{title(paper, root)}*, {c.venue}, {c.year}"


def paper_verdicts(ledger: pd.DataFrame, root: Path | str = DATA_DIR) -> list[PaperVerdict]:
    """Return one verdict per paper of ``ledger``, in paper order, every number read from the ledger."""
    missing = [c for c in ledger_file.COLUMNS if c not in ledger.columns]
    if missing:
        raise VerdictError(f"ledger: missing columns {missing}")
    frame = ledger.astype({c: str for c in ledger_file.COLUMNS}).fillna("")
    out = []
    for paper in sorted(frame["paper"].unique()):
        rows = PaperRows(paper, frame, root)
        words = FINDINGS.get(paper, counts_only)(rows)
        out.append(PaperVerdict(paper, citation(paper, root), words.reproduces, words.does_not, words.headline,
                                why=words.why, measured=measured_text(rows.frame),
                                counts=ledger_file.status_text(rows.counts())))
    return out


def _cell(text: str) -> str:
    """Return ``text`` fit for a Markdown table cell (no pipe, no line break)."""
    return " ".join(text.replace("|", "\\|").split())


HEADER = ("paper", "reproduces", "does not reproduce", "headline finding")


def results_table(verdicts: list[PaperVerdict]) -> str:
    """Return the Markdown results table: one row per paper (paper and citation, what reproduces, what does
    not, the headline finding)."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for v in verdicts:
        cells = [f"**{v.paper}** {v.citation}", v.reproduces, v.does_not, v.headline]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


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


def table_rows(block: str) -> dict[str, list[str]]:
    """Return the results table's rows by paper id (``**004** ...`` in the first cell): their cells."""
    rows = {}
    for line in block.splitlines():
        m = re.match(r"\|\s*\*\*(\d{3})\*\*", line)
        if m:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows[m.group(1)] = cells
    return rows


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


def check_readme(readme_text: str, ledger: pd.DataFrame, *, partial: bool = False,
                 root: Path | str = DATA_DIR) -> list[str]:
    """Return every disagreement between the README's results table and ``ledger`` ([] when they agree).

    Each names the paper and the number. With ``partial`` the ledger holds only some rows of a paper (as a
    test regenerates them): every number of their verdict must then appear in the README's cell, and
    papers absent from the ledger are not checked.
    """
    try:
        block = results_block(readme_text)
    except VerdictError as err:
        return [str(err)]
    have = table_rows(block)
    problems = []
    verdicts = paper_verdicts(ledger, root)
    for v in verdicts:
        cells = have.get(v.paper)
        if cells is None:
            problems.append(f"paper {v.paper}: no row in the README's results table")
            continue
        expected = [_cell(f"**{v.paper}** {v.citation}"), _cell(v.reproduces), _cell(v.does_not), _cell(v.headline)]
        if len(cells) != len(expected):
            problems.append(f"paper {v.paper}: the README's row has {len(cells)} cells, not {len(expected)}")
            continue
        for what, got, want in zip(HEADER, cells, expected, strict=True):
            problems += _compare(v.paper, what, got, want, partial)
    if not partial:
        extra = sorted(set(have) - {v.paper for v in verdicts})
        problems += [f"paper {p}: in the README's results table but not in the ledger" for p in extra]
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
