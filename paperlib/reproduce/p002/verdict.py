"""Paper 002's verdict: its citation, the typed facts of its finding, and the finding's words.

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`)
and its published tables; :func:`finding` words them for the README's results table and the report
(:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib.data import load_paper
from paperlib.reproduce.p002.findings import consistency_findings
from paperlib.reproduce.p002.tables import ROWS, SOURCES
from paperlib.verdicts import (
    REAL_STACKS,
    Citation,
    Finding,
    PaperRows,
    claim_tally,
    clauses,
    conventions,
    ran_on_real_stacks,
    value_of,
    within_5pct,
)

#: Authors, venue and year (the title is ``data/002/datapackage.json``'s) and where they were checked.
CITATION = Citation("Y.-J. Lee, M. Atiquzzaman, S. Sivagurunathan", "Proc. IEEE ICC, pp. 164-169", "2006",
                    "reference [12] of paper 000, which cites this paper", venue_short="IEEE ICC")
#: The model rows of Tables II and III (their ledger ``column``).
MODEL_ROWS = [label for label, (_, kind) in ROWS.items() if kind == "model"]


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 002's finding, from its ledger rows and its published tables."""

    #: Table II's model cells: how many, within 5%, reproduced exactly
    table2: int
    table2_within_5pct: int
    table2_exact: int
    #: Table III's model cells and how many are within 5%
    table3: int
    table3_within_5pct: int
    #: the claims judged on the printed tables (their tally)
    claim_tally: str
    #: the two prints of the first model row at the operating point both tables share (Table II's, Table III's;
    #: "" without Table II's model cells in the ledger)
    shared_table2: str
    shared_table3: str
    #: "SCTP is 20% faster": the mean difference of the printed pairs (%) and its status; on the real stacks its
    #: status when they ran ("" otherwise)
    gain_pct: float | None
    gain_status: str
    real_status: str
    #: the convention of Table II's model cells
    convention: str


def facts(rows: PaperRows) -> Facts:
    """Return paper 002's facts from its ledger rows and its published tables."""
    model = rows.frame[rows.frame["column"].isin(MODEL_ROWS)]
    table2, table3 = model[model["source"] == SOURCES["table2"]], model[model["source"] == SOURCES["table3"]]
    shared = ("", "")
    if len(table2):
        both = consistency_findings(load_paper(rows.paper, rows.root)).loc[MODEL_ROWS[0]]
        shared = (str(both.iloc[0]), str(both.iloc[1]))
    gain = rows.claim("sctp_less_20pct")
    real = rows.claim("sctp_less_20pct", REAL_STACKS)
    return Facts(
        table2=len(table2), table2_within_5pct=within_5pct(table2),
        table2_exact=int((table2["status"] == "reproduced").sum()),
        table3=len(table3), table3_within_5pct=within_5pct(table3),
        claim_tally=claim_tally(rows.claims()),
        shared_table2=shared[0], shared_table3=shared[1],
        gain_pct=value_of(gain), gain_status="" if gain is None else gain["status"],
        real_status=real["status"] if ran_on_real_stacks(real) else "",
        convention=conventions(table2),
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 002's finding: Table II within 5%, Table III not; the "20% faster" claim refuted."""
    f = facts(rows)
    headline = ""
    if f.gain_pct is not None:
        headline = f"'SCTP is 20% faster' is refuted: the printed pairs differ by {f.gain_pct:.1f}% on average"
    if f.real_status:
        headline = clauses(headline, f"{f.real_status} on today's real stacks too" if f.gain_status and
                           f.real_status == f.gain_status else f"{f.real_status} on today's real stacks")
    return Finding(
        reproduces=clauses(f"{f.table2_within_5pct} of {f.table2} model cells of Table II within 5% "
                           f"({f.table2_exact} exactly)", f.claim_tally),
        does_not=clauses(f"Table III: {f.table3 - f.table3_within_5pct} of {f.table3} model cells more than 5% off",
                         f"Tables II and III print different values ({f.shared_table2} and {f.shared_table3} s) at "
                         "the one point they share" if f.shared_table2 else ""),
        headline=headline,
        why=f"the model is the reconstructed algorithm under one convention ({f.convention}); Table III "
            "is not reproduced under it",
    )


def brief(rows: PaperRows) -> Finding:
    """Return paper 002's finding in short cells (the README's table, the report's opening)."""
    f = facts(rows)
    words = finding(rows)
    return Finding(
        reproduces=clauses(f"{f.table2_within_5pct} of {f.table2} model cells of Table II within 5%", f.claim_tally),
        does_not=clauses(f"{f.table3 - f.table3_within_5pct} of {f.table3} model cells of Table III",
                         f"Tables II and III disagree where they meet ({f.shared_table2} against {f.shared_table3} s)"
                         if f.shared_table2 else ""),
        headline=words.headline,
    )
