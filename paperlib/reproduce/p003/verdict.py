"""Paper 003's verdict: its citation, the typed facts of its finding, and the finding's words.

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`);
:func:`finding` words them for the README's results table and the report (:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import ledger
from paperlib.verdicts import Citation, Finding, PaperRows, clauses, conventions, value_of

#: Authors, venue and year (the title is ``data/003/datapackage.json``'s) and where they were checked.
CITATION = Citation("B. Vandalore, S. Kalyanaraman, R. Jain, R. Goyal, S. Fahmy, X. Cai, S.-C. Kim",
                    "ATM Forum contribution 97-0425", "1997",
                    "seed (contribution number); R. Jain's list of ATM Forum contributions (April 1997)",
                    venue_short="ATM Forum")


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 003's finding, from its ledger rows."""

    #: the derived numbers (results the convention regenerates) and the rows by status
    derived: int
    reproduced: int
    close: int
    typos: int
    not_regenerable: int
    #: "10 times more demand per user": the regenerated ratio (None without it)
    ten_times: float | None
    #: the slide's average file size printed with the wrong unit ("" unless its row is a typo)
    unit_typo_printed: str
    #: the convention of the derived numbers
    convention: str


def facts(rows: PaperRows) -> Facts:
    """Return paper 003's facts from its ledger rows."""
    results = rows.frame[rows.frame["status"].isin(ledger.RESULT_STATUSES)]
    derived = results[~results["status"].isin(("not_regenerable", *ledger.MEASURED_STATUSES))]
    c = rows.counts()
    unit_typo = rows.select(row="avg_file_size")
    typo = len(unit_typo) and unit_typo.iloc[0]["status"] == "typo"
    return Facts(
        derived=len(derived), reproduced=c.get("reproduced", 0), close=c.get("close", 0), typos=c.get("typo", 0),
        not_regenerable=c.get("not_regenerable", 0), ten_times=value_of(rows.claim("ten_times_demand")),
        unit_typo_printed=unit_typo.iloc[0]["published"] if typo else "", convention=conventions(derived),
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 003's finding: the derived numbers under one unit convention; "10 times more demand" refuted."""
    f = facts(rows)
    headline = ""
    if f.ten_times is not None:
        headline = f"'10 times more demand per user' is refuted: {f.ten_times:.1f}x"
    if f.unit_typo_printed:
        headline = clauses(headline, f"the slide's '{f.unit_typo_printed}' is {f.unit_typo_printed.split()[0]} "
                                     "kilobits")
    return Finding(
        reproduces=f"{f.reproduced} of {f.derived} derived numbers exactly, {f.close} within 5%, {f.typos} printed "
                   "typos whose corrected reading does",
        does_not=f"the {f.not_regenerable} switch-queue and throughput cells of the ATM ABR/ERICA "
                 "simulation (no maintained simulator has ABR); an ns-3 TCP analogue stands beside them",
        headline=headline,
        why=f"one unit convention, chosen by systematic search, holds for every derived number ({f.convention})",
    )


def brief(rows: PaperRows) -> Finding:
    """Return paper 003's finding in short cells (the README's table, the report's opening)."""
    f = facts(rows)
    return Finding(
        reproduces=f"{f.reproduced} of {f.derived} derived numbers exactly, {f.close} within 5%, {f.typos} once a "
                   "printed typo is corrected",
        does_not=f"the {f.not_regenerable} cells of the ATM ABR simulation (no maintained simulator has ABR)",
        headline=finding(rows).headline,
    )
