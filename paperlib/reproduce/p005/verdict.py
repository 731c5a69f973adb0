"""Paper 005's verdict: the typed facts of its finding and the finding's words (no seed: it is cited by its
sources, ``data/005/sources.csv``, so :data:`CITATION` is ``None``).

:func:`facts` reads them from the paper's ledger rows (structured columns only, :data:`paperlib.ledger.SCHEMA`);
:func:`finding` words them for the README's results table and the report (:mod:`paperlib.verdicts`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from paperlib import ledger
from paperlib.reproduce.p005.claims import CLAIMS
from paperlib.verdicts import (
    REAL_STACKS,
    Finding,
    PaperRows,
    QuestionRow,
    claim_tally,
    clauses,
    number,
    ran_on_real_stacks,
    value_of,
)

#: No seed: the citation is the title and the sources (:func:`paperlib.verdicts.citation`).
CITATION = None

#: The questions (:data:`paperlib.reproduce.p005.claims.CLAIMS`'s), by id, in the words of the headline.
QUESTIONS = {
    "iw10_gain": "IW10 against IW3 shortens today's page",
    "quic_handshake_saving": "QUIC saves one handshake round trip",
    "h3_beats_h2_loss": "HTTP/3 beats HTTP/2 under loss beyond the handshake",
    "sctp_streams_same": "SCTP's streams do the same",
    "h3_less_than_h2_000": "000's 'SCTP waits less than TCP' as HTTP/3 against HTTP/2",
    "h3_less_20pct_002": "002's '20% faster' as HTTP/3 against HTTP/2",
    "loss_model_holds": "the papers' loss model predicts today's page load time under loss",
}
#: The questions judged on the real stacks only (their model row says so and is not a finding).
REAL_STACK_QUESTIONS = ("loss_model_holds",)
#: The anchors the real stacks measure (their tables).
MEASURED_SOURCES = ("data/005/handshake_rtts.csv", "data/005/initial_windows.csv")
GOOD = ("reproduced", "close")
#: The questions in a few words, for the short table (README, report).
SHORT = {
    "iw10_gain": "IW10 shortens today's page against IW3",
    "quic_handshake_saving": "QUIC saves one handshake round trip against TCP + TLS 1.3",
    "h3_beats_h2_loss": "HTTP/3 beats HTTP/2 under loss, beyond the handshake",
    "sctp_streams_same": "SCTP's streams beat HTTP/2 under loss likewise",
    "h3_less_than_h2_000": "000's 'SCTP waits less than TCP', as HTTP/3 against HTTP/2",
    "h3_less_20pct_002": "002's '20% faster', as HTTP/3 against HTTP/2",
    "loss_model_holds": "the papers' loss model predicts today's load time under loss",
}
#: How each question's regenerated value reads (its unit after the number, and the decimals), the model's and the
#: real stacks' alike: a gain in %, a saving in round trips, an excess page load time in seconds, a ratio.
UNITS = {
    "iw10_gain": ("% shorter", 1), "quic_handshake_saving": (" round trips saved", 2),
    "h3_beats_h2_loss": (" s faster", 2), "sctp_streams_same": (" s faster", 2), "h3_less_than_h2_000": ("% faster", 1),
    "h3_less_20pct_002": ("% faster", 1),
    "loss_model_holds": ("x", 2),
}
#: A negative value of a question reads as the opposite word with the size (``-0.09 s faster`` is ``0.09 s
#: slower``); a unit without an opposite (a ratio) is never negative.
OPPOSITE = {"% shorter": "% longer", " round trips saved": " round trips more", " s faster": " s slower",
            "% faster": "% slower"}


@dataclass(frozen=True)
class Question:
    """One question's verdict: its id, status and regenerated value (None without one)."""

    ident: str
    status: str
    value: float | None


@dataclass(frozen=True)
class Facts:
    """The numbers of paper 005's finding, from its ledger rows."""

    #: the anchors (published numbers, not claims) and how many are inputs the model takes as given
    anchors: int
    inputs: int
    #: the median page weights: devices, prints (KB), the model's (KB), and whether all reproduce or are close
    weight_devices: tuple[str, ...]
    weight_printed: tuple[str, ...]
    weight_model_kb: tuple[float, ...]
    weight_good: bool
    #: Dukkipati's latency gain: the print ("" without its row), the model's (%) and whether it is good
    gain_printed: str
    gain_model_pct: float | None
    gain_good: bool
    #: the claims of ``data/005/claims.csv`` judged on the model (their number and tally)
    stated: int
    stated_tally: str
    #: the questions judged on the model, and on the real stacks (whether they ran for any)
    model_questions: tuple[Question, ...]
    real_questions: tuple[Question, ...]
    real_ran: bool
    #: the anchors the real stacks measure: (row, column, status) each
    measured: tuple[tuple[str, str, str], ...]


def _questions(rows: PaperRows, column: str | None = None) -> dict[str, pd.Series]:
    """Return the question rows by id (judged on the model, or in ``column``); absent ones left out."""
    got = {ident: rows.claim(ident, column) for ident in QUESTIONS if ident in CLAIMS.questions}
    return {ident: row for ident, row in got.items() if row is not None}


def facts(rows: PaperRows) -> Facts:
    """Return paper 005's facts from its ledger rows."""
    f = rows.frame
    anchors = f[~ledger.claim_mask(f) & (f["column"] != REAL_STACKS)]
    weight = anchors[anchors["source"] == "data/005/page_weight.csv"]
    gain = anchors[anchors["row"] == "dukkipati_latency_gain"]
    g = gain.iloc[0] if len(gain) else None
    measured = anchors[anchors["source"].isin(MEASURED_SOURCES) & (anchors["status"] != "input")]
    claims = rows.claims()
    stated = claims[~claims["claim_id"].isin(list(CLAIMS.questions))]
    model = _questions(rows)
    real = _questions(rows, REAL_STACKS)
    return Facts(
        anchors=len(anchors), inputs=int((anchors["status"] == "input").sum()),
        weight_devices=tuple(r.removesuffix(" median") for r in weight["row"]),
        weight_printed=tuple(weight["published"]), weight_model_kb=tuple(number(v) for v in weight["regenerated"]),
        weight_good=bool(weight["status"].isin(GOOD).all()),
        gain_printed="" if g is None else g["published"], gain_model_pct=value_of(g),
        gain_good=g is not None and g["status"] in GOOD,
        stated=len(stated), stated_tally=claim_tally(stated),
        model_questions=tuple(Question(i, r["status"], value_of(r)) for i, r in model.items()),
        real_questions=tuple(Question(i, r["status"], value_of(r)) for i, r in real.items()),
        real_ran=any(ran_on_real_stacks(r) for r in real.values()),
        measured=tuple((r["row"], r["column"], r["status"]) for _, r in measured.iterrows()),
    )


def finding(rows: PaperRows) -> Finding:
    """Return paper 005's finding: the anchors (input or scored), Dukkipati's ~10%, the questions' statuses."""
    f = facts(rows)
    good, bad = [], []
    if f.weight_devices:
        kb = " / ".join(f"{v:.0f}" for v in f.weight_model_kb)
        text = (f"the median page weight ({' / '.join(f.weight_devices)}: printed {' / '.join(f.weight_printed)} KB, "
                f"the model's median homepage {kb} KB)")
        (good if f.weight_good else bad).append(text)
    if f.gain_model_pct is not None:
        text = (f"Dukkipati's ~{f.gain_printed}% latency gain of IW10 (the model's mean gain over IW4 on the heat "
                f"map's grid: {f.gain_model_pct:.2f}%)")
        (good if f.gain_good else bad).append(text)
    model = {q.ident: q for q in f.model_questions}
    said = [f"{QUESTIONS[i]}: {q.status}" for i, q in model.items() if i not in REAL_STACK_QUESTIONS]
    iw = model.get("iw10_gain")
    if iw is not None and iw.value is not None:
        said[0] = f"{QUESTIONS['iw10_gain']} by {iw.value:.1f}% at the real stacks' link: {iw.status}"
    twenty = model.get("h3_less_20pct_002")
    if twenty is not None and twenty.value is not None:
        at = list(model).index("h3_less_20pct_002")
        said[at] = f"{said[at]} (HTTP/3 {twenty.value:.1f}% faster)"
    headline = ("in the model, " + "; ".join(said)) if said else ""
    real = f.real_questions
    if real and f.real_ran:
        by_status = {s: [QUESTIONS[q.ident] for q in real if q.status == s] for s in ledger.CLAIM_STATUSES}
        groups = [f"{s}: {', '.join(names)}" if len(names) < len(real) else f"all {len(real)} questions {s}"
                  for s, names in by_status.items() if names]
        headline = clauses(headline, "on today's real stacks, " + "; ".join(groups))
    if any(status in ledger.MEASURED_STATUSES for _, _, status in f.measured):
        stacks = ("the anchors measured on today's real stacks: "
                  + ", ".join(f"{row} {column}: {status}" for row, column, status in f.measured))
    elif f.measured:
        stacks = ("the handshake round trips and first flights are the RFCs' counts until the real stacks run "
                  "(not_regenerable)")
    else:
        stacks = ""
    return Finding(
        reproduces=clauses(*good, f"in the model, {f.stated_tally} (the abstracts of Dukkipati et al. and "
                           "Langley et al.)" if f.stated else ""),
        does_not=clauses(*bad),
        headline=headline,
        why=clauses(f"{f.inputs} of the {f.anchors} anchors are inputs the model takes as given (the Almanac's "
                    "requests and bytes by type, the RFCs' constants), not results to reproduce",
                    "the model's page is the sum of per-type medians, not the median page"
                    if f.weight_devices else "",
                    "Dukkipati measured single HTTP responses on Google's traffic, not a page"
                    if f.gain_printed else "",
                    stacks),
    )



def _amount(value: float, unit: str, decimals: int) -> str:
    """Return ``value`` in ``unit``, a negative one as its size with the opposite word (:data:`OPPOSITE`)."""
    if value < 0 and unit in OPPOSITE:
        return f"{-value:.{decimals}f}{OPPOSITE[unit]}"
    return f"{value:.{decimals}f}{unit}"


def _value(ident: str, row: pd.Series, interval: bool) -> str:
    """Return a question row's status with its value (and its 95% interval, with ``interval``) in the question's
    unit: ``supported: 2.4% shorter``, ``supported: 2.1% shorter (95% CI 1.5 to 2.7)``; an interval reaching below
    0 names both ends, ``inconclusive: 0.09 s slower (95% CI from 3.80 s slower to 3.62 s faster)``."""
    unit, decimals = UNITS[ident]
    value, low, high = value_of(row), value_of(row, "low"), value_of(row, "high")
    if value is None or row["status"] in ("untestable", ledger.FIDELITY_LOST):
        return row["status"]
    text = f"{row['status']}: {_amount(value, unit, decimals)}"
    if interval and low is not None and high is not None:
        if low >= 0 or unit not in OPPOSITE:
            text += f" (95% CI {low:.{decimals}f} to {high:.{decimals}f})"
        else:
            text += f" (95% CI from {_amount(low, unit, decimals)} to {_amount(high, unit, decimals)})"
    return text


def questions(rows: PaperRows) -> tuple[QuestionRow, ...]:
    """Return paper 005's questions, one short row each: the question, the model's status and number, the real
    stacks' status with their number and its 95% interval (``not run`` when they did not run for it)."""
    model, real = _questions(rows), _questions(rows, REAL_STACKS)
    out = []
    for ident in QUESTIONS:
        if ident not in model and ident not in real:
            continue
        m = model.get(ident) if ident not in REAL_STACK_QUESTIONS else None
        r = real.get(ident)
        ran = ran_on_real_stacks(r)
        out.append(QuestionRow(SHORT[ident], "" if m is None else m["status"],
                               "real stacks only" if m is None else _value(ident, m, interval=False),
                               r["status"] if ran else "",
                               _value(ident, r, interval=True) if ran else
                               (r["emulation"] if r is not None and r["emulation"] else "not run")))
    return tuple(out)


def brief(rows: PaperRows) -> Finding:
    """Return paper 005's finding in short words: how many of the anchors it scores the model meets, the stated
    claims' tally (the questions are in their own table, :func:`questions`)."""
    f = facts(rows)
    a = rows.frame
    scored = a[~ledger.claim_mask(a) & (a["column"] != REAL_STACKS)
               & a["status"].isin(("reproduced", "close", "differs", "typo", "lone_hit"))]
    good = int(scored["status"].isin(GOOD).sum())
    return Finding(
        reproduces=f"in the model, {good} of the {len(scored)} anchors it regenerates; {f.stated_tally}",
        does_not=clauses("the median page weight" if f.weight_devices and not f.weight_good else "",
                         f"Dukkipati's ~{f.gain_printed}% gain of IW10" if f.gain_printed and not f.gain_good else ""),
        headline=(f"the model meets {good} of the {len(scored)} anchors of today's web it regenerates; in the "
                  f"abstracts of Dukkipati et al. and Langley et al., {f.stated_tally}" if f.stated else
                  f"the model meets {good} of the {len(scored)} anchors of today's web it regenerates"),
    )
