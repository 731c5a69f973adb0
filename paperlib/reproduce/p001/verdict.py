"""Paper 001's verdict: its citation, the typed facts of its finding, and the finding's words.

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`);
:func:`finding` words them for the README's results table and the report (:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib.ledger import convention_of
from paperlib.reproduce.p001.ledger_rows import TEXT_RESULTS
from paperlib.verdicts import Citation, Finding, PaperRows, claim_tally, clauses, number, within_5pct

#: Authors, venue and year (the title is ``data/001/datapackage.json``'s) and where they were checked.
CITATION = Citation("W. Seok", "The KIPS Transactions: Part C, vol. 15-C, no. 4, pp. 321ff", "2008",
                    "seed (received 2008-01-16, accepted 2008-06-21); DOI 10.3745/KIPSTC.2008.15-C.4.321",
                    venue_short="KIPS Trans. C")

#: The claim statuses that decide a claim (a flip between them is a change of verdict, not of certainty).
DECIDED = ("supported", "refuted")


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 001's finding, from its ledger rows."""

    #: Table 3's browser counts, and how many are within 5%
    counts: int
    counts_within_5pct: int
    #: the link the counts read the line's y against (Mbit/s, the convention's ``link_bps``; None without one)
    link_mbit_s: float | None
    #: the Table 3 load printed as a typo and its corrected reading ("" without a typo row)
    typo_printed: str
    typo_corrected: str
    #: the calibration slope regenerated (kbit/s per browser) and as printed (None: not run)
    slope: float | None
    slope_printed: str
    #: the numbers the text reads off its figures, regenerated on ns-3, and how many are within 5%
    read_off: int
    read_off_within_5pct: int
    #: the claims, their tally, and how many verdicts differ on the other workload (of them: between decided ones)
    claims: int
    claim_tally: str
    depend_on_workload: int
    flip_decided: int


def facts(rows: PaperRows) -> Facts:
    """Return paper 001's facts from its ledger rows."""
    counts = rows.select(source="Table 3", column="The Number of Browsers")
    link = [convention_of(c).get("link_bps") for c in counts["convention"] if c]
    typo = rows.select(source="Table 3", column="Traffic Load")
    typo = typo[typo["status"] == "typo"]
    slope = rows.select(source="Section 2.2 (calibration line)", column="slope")
    reg = number(slope.iloc[0]["regenerated"]) if len(slope) else None
    f = rows.frame
    read_off = f[f["row"].isin(list(TEXT_RESULTS)) & (f["evidence"] == "ns-3")]
    claims = rows.claims()
    other = claims[(claims["other_status"] != "") & (claims["other_status"] != claims["status"])]
    flips = int((other["other_status"].isin(DECIDED) & other["status"].isin(DECIDED)).sum())
    return Facts(
        counts=len(counts), counts_within_5pct=within_5pct(counts),
        link_mbit_s=float(link[0]) / 1e6 if link and link[0] else None,
        typo_printed=typo.iloc[0]["published"] if len(typo) else "",
        typo_corrected=typo.iloc[0]["compared_as"] if len(typo) else "",
        slope=reg or None, slope_printed=slope.iloc[0]["published"] if len(slope) else "",
        read_off=len(read_off), read_off_within_5pct=within_5pct(read_off),
        claims=len(claims), claim_tally=claim_tally(claims), depend_on_workload=len(other), flip_decided=flips,
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 001's finding: Table 3 under one reading; Mah's workload is far lighter; the claims' tally."""
    f = facts(rows)
    typo_text = "" if not f.typo_printed else f"the row printed '{f.typo_printed}' is " + (
        f"the text's {f.typo_corrected}% (a typo)" if f.typo_corrected else "a typo")
    slope_text = ""
    if f.slope is not None:
        pub = number(f.slope_printed)
        slope_text = (f"the calibration slope: {f.slope:.4f} kbit/s per browser on Mah's measured workload against "
                      f"the printed {f.slope_printed} ({pub / f.slope:.0f} times lower)")
    read_text = (f"{f.read_off - f.read_off_within_5pct} of {f.read_off} numbers the text reads off its figures "
                 "(more than 5% from the testbed)" if f.read_off else "")
    depends = (f"{f.depend_on_workload} verdicts depend on the workload, {f.flip_decided} between supported and "
               "refuted" if f.depend_on_workload else "")
    return Finding(
        reproduces=clauses(f"{f.counts_within_5pct} of {f.counts} browser counts of Table 3"
                           + (f", reading the line's y in kbit/s of a {f.link_mbit_s:g} Mbit/s link"
                              if f.link_mbit_s is not None else ""),
                           typo_text),
        does_not=clauses(slope_text, read_text),
        headline=clauses((f"on Mah's measured workload {f.claim_tally}: a claim is decided only when the "
                          "95% interval of its margin over the replications lies on one side of zero")
                         if f.claims else "", depends),
        why="the paper's traffic generator must have shortened Mah's think times, and no source says how, so "
            "nothing is tuned: the browser counts come from the regenerated line",
    )


def brief(rows: PaperRows) -> Finding:
    """Return paper 001's finding in short cells (the README's table, the report's opening)."""
    f = facts(rows)
    slope_text = "" if f.slope is None else (
        f"the calibration slope ({f.slope:.4f} against the printed {f.slope_printed} kbit/s per browser)")
    read_text = (f"{f.read_off - f.read_off_within_5pct} of {f.read_off} numbers read off its figures"
                 if f.read_off else "")
    return Finding(
        reproduces=f"{f.counts_within_5pct} of {f.counts} browser counts of Table 3"
                   + (" (one printed load is a typo)" if f.typo_printed else ""),
        does_not=clauses(slope_text, read_text) or "nothing judged: the ns-3 testbed did not run",
        headline=(f"on Mah's measured workload, {f.claim_tally} (95% intervals over replications)"
                  if f.claims else ""),
    )
