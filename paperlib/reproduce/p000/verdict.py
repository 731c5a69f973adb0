"""Paper 000's verdict: its citation, the typed facts of its finding, and the finding's words.

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`)
and the package's own constants; :func:`finding` words them for the README's results table and the report
(:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from paperlib.reproduce.p000.findings import TABULATED_LAW
from paperlib.reproduce.p000.ns3 import COLUMN as NS3_COLUMN
from paperlib.reproduce.p000.operating_point import EXP_COLUMNS, MODEL_COLUMNS
from paperlib.verdicts import Citation, Finding, PaperRows, clauses, conventions, value_of, within_5pct

#: Authors, venue and year (the title is ``data/000/datapackage.json``'s) and where they were checked.
CITATION = Citation("Y.-J. Lee", "ACSIJ, vol. 3, no. 3", "2014",
                    "seed (author; cites 2013 work); ACSIJ's article page and its index record JR_ACSIJ-3-3_009",
                    venue_short="ACSIJ")


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 000's finding, from its ledger rows."""

    #: claims judged on the printed tables, and how many hold
    claims: int
    claims_supported: int
    #: the printed model cells (W) of Tables 1-3, and how many are within 5% of the ledger's model
    model_cells: int
    model_within_5pct: int
    #: the printed times (W and T) of Tables 1-3, and how many lie below their loss-free bound
    printed_times: int
    below_bound: int
    #: the law the printed tables follow ("" without model cells in the ledger)
    law: str
    #: DIFF_mean as printed and as Eq. (9) gives it (%), None without the claim's value
    diff_mean_printed: str
    diff_mean_pct: float | None
    #: the mean absolute difference behind "below about 4%" (%)
    mean_abs_difference_pct: float | None
    #: the median of ns-3's TCP turnaround over the printed one, and the cells it is taken over (0: not run)
    ns3_median_ratio: float | None
    ns3_cells: int
    #: the ledger's convention of the model cells
    convention: str


def facts(rows: PaperRows) -> Facts:
    """Return paper 000's facts from its ledger rows."""
    cells = rows.select(source_prefix="Table ")
    tables = cells[cells["column"].isin([*MODEL_COLUMNS, *EXP_COLUMNS])]  # the printed cells (not the ns-3 rows)
    model = tables[tables["column"].isin(list(MODEL_COLUMNS))]
    diff = rows.claim("diff_mean_4_17")
    below = rows.claim("diff_below_4pct")
    ns3 = rows.select(column=NS3_COLUMN)
    ratio = pd.to_numeric(ns3["regenerated"], errors="coerce") / pd.to_numeric(ns3["published"], errors="coerce")
    claims = rows.claims()
    return Facts(
        claims=len(claims), claims_supported=int((claims["status"] == "supported").sum()),
        model_cells=len(model), model_within_5pct=within_5pct(model),
        printed_times=len(tables), below_bound=int((tables["bound"] != "").sum()),
        law=TABULATED_LAW if len(model) else "",
        diff_mean_printed="" if diff is None else diff["published"], diff_mean_pct=value_of(diff),
        mean_abs_difference_pct=value_of(below),
        ns3_median_ratio=float(ratio.median()) if ratio.notna().any() else None,
        ns3_cells=int(ratio.notna().sum()),
        convention=conventions(model),
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 000's finding: the tables' times are below what the link can carry; DIFF_mean from no definition."""
    f = facts(rows)
    diff_text = "" if f.diff_mean_pct is None else (
        f"DIFF_mean = {f.diff_mean_printed}% (Eq. (9) as printed gives {f.diff_mean_pct:.2f}%)")
    below_text = "" if f.mean_abs_difference_pct is None else (
        f"'below about 4%' (the mean absolute difference is {f.mean_abs_difference_pct:.2f}%)")
    ns3_text = "" if f.ns3_median_ratio is None else (
        f"ns-3's TCP turnaround is a median {f.ns3_median_ratio:.0f} times the printed one ({f.ns3_cells} cells)")
    return Finding(
        reproduces=clauses(f"{f.claims_supported} of {f.claims} claims hold on the printed tables"),
        does_not=clauses(f"{f.model_cells - f.model_within_5pct} of {f.model_cells} model cells of Tables 1-3 "
                         f"({f.model_within_5pct} within 5%)", diff_text, below_text),
        headline=clauses(f"{f.below_bound} of {f.printed_times} printed times of Tables 1-3 are below the loss-free "
                         "bound of the paper's own round-robin"
                         + (f": the tables follow {f.law} (Eq. (4) divided by m), not Eq. (4)" if f.law else ""),
                         ns3_text),
        why=f"the ledger's waiting time is Eq. (4) ({f.convention}); every printed column, the "
            "'experimental' ones too, follows the other law, so they were computed from a formula",
    )


def brief(rows: PaperRows) -> Finding:
    """Return paper 000's finding in short cells (the README's table, the report's opening)."""
    f = facts(rows)
    diff_text = "" if f.diff_mean_pct is None else (
        f"DIFF_mean: printed {f.diff_mean_printed}%, Eq. (9) gives {f.diff_mean_pct:.2f}%")
    ns3_text = "" if f.ns3_median_ratio is None else (
        f"ns-3's TCP turnaround is a median {f.ns3_median_ratio:.0f} times the printed one")
    return Finding(
        reproduces=f"{f.claims_supported} of {f.claims} claims hold on the printed tables",
        does_not=clauses(f"{f.model_cells - f.model_within_5pct} of {f.model_cells} model cells of Tables 1-3",
                         diff_text),
        headline=clauses(f"{f.below_bound} of {f.printed_times} printed times lie below what the link can carry"
                         + (": the tables follow Eq. (4) divided by m" if f.law else ""), ns3_text),
    )
