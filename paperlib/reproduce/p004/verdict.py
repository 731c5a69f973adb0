"""Paper 004's verdict: its citation, the typed facts of its finding, and the finding's words.

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`);
:func:`finding` words them for the README's results table and the report (:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import ledger
from paperlib.verdicts import REAL_STACKS, Citation, Finding, PaperRows, clauses, conventions, number, value_of

#: Authors, venue and year (the title is ``data/004/datapackage.json``'s) and where they were checked.
CITATION = Citation("Y.-J. Lee, M. Atiquzzaman", "journal letter (venue not named in the seed)", "2007 or later",
                    "seed (authors; cites ICC 2007); the venue could not be verified",
                    venue_short="journal letter")


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 004's finding, from its ledger rows."""

    #: Table II's model cells, and the rows, prints and model values of those that do not reproduce
    model_cells: int
    missed_rows: tuple[str, ...]
    missed_printed: tuple[str, ...]
    missed_model: tuple[float, ...]
    #: whether the ledger's convention takes the corrected closed form (Eq. (1)'s ceiling)
    corrected_form: bool
    #: "within 4%" on the paper's own table (%), "TCP is 2 RTT slower" there (T_r) and its status
    within_4_pct: float | None
    gap_rtts: float | None
    gap_status: str
    #: on the real stacks: "within 4%"'s status (when it has a value) and "TCP is 2 RTT slower"'s value and status
    real_within_status: str
    real_gap_rtts: float | None
    real_gap_status: str
    #: whether any published measurement was measured again on the real stacks
    measured: bool
    #: the convention of the model cells
    convention: str


def facts(rows: PaperRows) -> Facts:
    """Return paper 004's facts from its ledger rows."""
    model = rows.select(source="Table II", column_prefix="Model")
    missed = model[model["status"] != "reproduced"]
    within = rows.claim("within_4_percent")
    gap = rows.claim("tcp_two_rtt_larger")
    real = rows.claim("within_4_percent", REAL_STACKS)
    real_gap = rows.claim("tcp_two_rtt_larger", REAL_STACKS)
    return Facts(
        model_cells=len(model), missed_rows=tuple(missed["row"]), missed_printed=tuple(missed["published"]),
        missed_model=tuple(number(v) for v in missed["regenerated"]),
        corrected_form=any(ledger.convention_of(c).get("form") == "corrected" for c in model["convention"]),
        within_4_pct=value_of(within), gap_rtts=value_of(gap), gap_status="" if gap is None else gap["status"],
        real_within_status=real["status"] if value_of(real) is not None else "",
        real_gap_rtts=value_of(real_gap), real_gap_status="" if real_gap is None else real_gap["status"],
        measured=bool(rows.frame["status"].isin(ledger.MEASURED_STATUSES).any()),
        convention=conventions(model),
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 004's finding: 8 of 10 model cells; the floor/ceiling error of Eqs. (5)-(6); "within 4%"."""
    f = facts(rows)
    missed_text = ""
    if f.missed_rows:
        labels = list(dict.fromkeys(f.missed_rows))
        printed = " / ".join(f.missed_printed)
        regen = " / ".join(f"{v:.2f}" for v in f.missed_model)
        missed_text = (f"the {', '.join(labels)} row{'s' if len(labels) > 1 else ''} (printed {printed} s, the "
                       f"model gives {regen} s)")
    floor = ("Eqs. (5)-(6) print a floor where Eq. (1) has a ceiling, which drops the last stall; the ceiling "
             "reproduces" if f.corrected_form else "")
    real_text = f"on today's real stacks 'within 4%' is {f.real_within_status}" if f.real_within_status else ""
    if f.real_gap_rtts is not None:
        slower = ", SCTP being the slower stack" if f.real_gap_rtts < 0 else ""
        real_text = clauses(real_text, f"'TCP is 2 RTT slower' is {f.real_gap_status}{slower}")
    return Finding(
        reproduces=clauses(f"{f.model_cells - len(f.missed_rows)} of {f.model_cells} model cells of Table II",
                           f"'TCP is 2 RTT slower' on the printed table ({f.gap_rtts:.2f} T_r)"
                           if f.gap_rtts is not None and f.gap_status == "supported" else ""),
        does_not=clauses(missed_text, f"'within 4%': {f.within_4_pct:.2f}% on the paper's own table"
                         if f.within_4_pct is not None else ""),
        headline=clauses(floor, real_text),
        why=f"one convention, chosen by systematic search, for the whole table ({f.convention}); the "
            + ("paper's testbed cannot be re-run; its experimental columns are measured again on today's real "
               "stacks where the emulated grid covers them" if f.measured else
               "experimental columns cannot be re-run"),
    )


def brief(rows: PaperRows) -> Finding:
    """Return paper 004's finding in short cells (the README's table, the report's opening)."""
    f = facts(rows)
    words = finding(rows)
    floor = "Eqs. (5)-(6) print a floor where Eq. (1) has a ceiling; the ceiling reproduces" if f.corrected_form else ""
    real = []
    if f.real_within_status:
        real.append(f"'within 4%' {f.real_within_status}")
    if f.real_gap_rtts is not None:
        real.append(f"'TCP is 2 RTT slower' {f.real_gap_status}" + (" (SCTP slower)" if f.real_gap_rtts < 0 else ""))
    return Finding(reproduces=words.reproduces, does_not=words.does_not,
                   headline=clauses(floor, ("on today's real stacks: " + ", ".join(real)) if real else ""))
