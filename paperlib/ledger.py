"""The reproduction ledger: one row per published result and per stated claim.

Each notebook builds its rows with :func:`result_row` / :func:`claim_row` and
writes them with :func:`write_partial` to ``figures/<paper>/ledger.csv``;
``python -m paperlib.ledger merge`` joins the partial ledgers into
``figures/ledger.csv`` and writes the human summary ``figures/ledger-summary.md``.

Statuses: :data:`STATUS_MEANINGS` (one line each; ``data/README.md`` "Ledger statuses" and the
report read the same text). The rules that pick a status are in code here: :func:`classify`
(``reproduced`` / ``close`` / ``differs``), :func:`result_row` (``typo``, ``lone_hit``,
``not_regenerable``), :func:`input_row` (``input``), :func:`measured_status` (``measured_*``),
:func:`fidelity_lost_row` (``fidelity_lost``) and :func:`lone_hits` (when a ``reproduced`` cell is a lone
hit); a claim's status (``supported``, ``refuted``, ``inconclusive``, ``untestable``, ``fidelity_lost``) is
its claim function's (:mod:`paperlib.claims`, :mod:`paperlib.decide`). A published
time below its loss-free physical bound keeps its status, its ``reason`` starts with
:data:`IMPOSSIBLE` (see :func:`impossible_note` and ``paperlib.models.lower_bounds``) and its ``bound``
column holds the bound (:func:`below_bound`).

Beside the prose of ``reason``, every row carries the structured columns of :data:`SCHEMA` (claim id,
evidence, 95% interval, replications, convention, ...): the facts that the README's table, the report's
verdicts and the summaries read (``reason`` is for people and no code reads it back). :func:`check_row`
validates them; :func:`write_partial` and :func:`read` refuse a row that breaks the schema, naming it.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from decimal import Decimal
from pathlib import Path

import pandas as pd

from paperlib import decide, profiles
from paperlib.atomic import atomic_write_csv, atomic_write_text
from paperlib.data import PAPERS
from paperlib.provenance import Stamp
from paperlib.rounding import matches_printed, printed_decimals, printed_interval

FIGURES_DIR = Path(__file__).resolve().parent.parent / "figures"

#: Every status the ledger may hold, with its one-line meaning (the rule that assigns it).
STATUS_MEANINGS: dict[str, str] = {
    "reproduced": "the regenerated value equals the printed number at its printed precision, under the paper's "
                  "one rounding rule, and is not a lone hit",
    "close": "within 5% of the printed number (relative to the printed value) but not equal at its precision",
    "differs": "more than 5% from the printed number",
    "typo": "the printed number is a typo of a value that reproduces (or of a number published in its own row, "
            "which carries the score): the reason gives the corrected reading and why; it is never scored by its "
            "distance to the print",
    "lone_hit": "equal at the printed precision, but the only such cell of its column under the chosen "
                "convention, or its regenerated value does not move with the row's parameter while the print "
                "does: not counted as a reproduction",
    "measured_close": "a published measurement re-measured here (the real stacks through the emulated link, at "
                      "least two repetitions): the whole 95% confidence interval of the measured mean lies within 5% "
                      "of the printed value (an equivalence test at a 5% margin); regenerated is that mean, the reason "
                      "names the stack and the interval",
    "measured_inconclusive": "a published measurement re-measured here whose 95% interval reaches across 5% from the "
                             "printed value: neither close nor different is decided; the reason gives the interval "
                             "and how many replications would decide it at the measured spread",
    "measured_differs": "a published measurement re-measured here: the whole 95% interval of the measured mean lies "
                        "more than 5% from the printed value, on one side",
    "fidelity_lost": "a real-stack cell whose runs did not keep their timing under the package's fidelity rule "
                     "(docs/fidelity.md) after the allowed re-runs: no verdict is drawn from them; the reason gives "
                     "the runs kept and the measured lateness and waiting (a published measurement's row or a "
                     "claim's)",
    "not_regenerable": "no run of this machine produced it (a testbed or simulator that is not available, or a "
                       "real-stack cell outside the grid that ran, or measured fewer than two times); regenerated "
                       "holds the best honest figure, if any, and the reason says what it is and which run would "
                       "produce it",
    "input": "a number this paper takes as given (an anchor of a paper without a seed: a measurement of today's web "
             "or a protocol constant), not a result to reproduce; regenerated is the value as the package reads and "
             "uses it, and the reason says where it is used",
    "supported": "a stated claim that holds under the criterion its reason states",
    "refuted": "a stated claim that fails under the criterion its reason states",
    "inconclusive": "a stated claim that was tested and not decided: the 95% interval its criterion is judged on "
                    "straddles the threshold (or the verdicts of its cells split); the reason gives the interval and "
                    "how many replications would decide it at the measured spread",
    "untestable": "a stated claim that no measurement here can reach (its evidence is absent from the seed, it "
                  "needs an instrument or a testbed that is not here, or the run that would test it did not run or "
                  "ran fewer than twice); the reason says which",
}
#: The statuses of a published measurement that was measured again here (:func:`measured_row`).
MEASURED_STATUSES = ("measured_close", "measured_inconclusive", "measured_differs")
#: A real-stack cell or claim whose runs lost their timing (:func:`fidelity_lost_row`); a result and a claim status.
FIDELITY_LOST = "fidelity_lost"
RESULT_STATUSES = ("reproduced", "close", "differs", "typo", "lone_hit") + MEASURED_STATUSES + (
    FIDELITY_LOST, "not_regenerable", "input")
CLAIM_STATUSES = ("supported", "refuted", "inconclusive", "untestable", FIDELITY_LOST)
#: The pairs of statuses one step apart across a threshold: a decided status and the undecided one of its kind (a
#: claim's ``inconclusive``; a re-measured cell's ``measured_inconclusive``). Two runs whose intervals overlap and
#: whose statuses form such a pair differ by where their intervals fall on the threshold, not by a contradiction
#: (:func:`paperlib.reference.compare_ledgers` lists them apart).
ACROSS_THRESHOLD = frozenset({frozenset({"supported", "inconclusive"}), frozenset({"refuted", "inconclusive"}),
                              frozenset({"measured_close", "measured_inconclusive"}),
                              frozenset({"measured_differs", "measured_inconclusive"})})
#: Every status once, results first (``fidelity_lost`` is both: a row's ``column`` tells a claim from a result,
#: :func:`is_claim`).
STATUSES = tuple(dict.fromkeys(RESULT_STATUSES + CLAIM_STATUSES))
#: The ledger column of a claim judged on the emulated real stacks (``paperlib.emulation.ledger_rows`` uses it).
REAL_STACKS = "emulated (real stacks)"
CLOSE = 0.05

#: How the reason of a published time below its loss-free physical bound begins (the status is
#: kept by the rules above; this flag says the print cannot be right under the stated parameters).
IMPOSSIBLE = "impossible as printed"

COLUMNS = ("paper", "source", "row", "column", "published", "regenerated", "rel_error", "status", "reason")
#: ``profile``: ``quick`` on the rows of ``make reproduce PROFILE=quick`` (:mod:`paperlib.profiles`: reduced scale, no
#: real stacks, statuses that are not the reference's), empty for a run at the notebooks' own scale.
PROVENANCE_COLUMNS = ("commit", "dirty", "notebook", "parameters", "seed", "environment", "profile")

#: What a row's regenerated value (a result) or its verdict (a claim) rests on: the ``evidence`` column's closed
#: vocabulary, each with its meaning.
EVIDENCE: dict[str, str] = {
    "printed": "the paper's own printed numbers: a claim judged on its printed tables or text, a correction the "
               "text names, or an input the package takes as given",
    "model": "the package's model of the paper (a closed form or the reconstructed algorithm) under the row's "
             "convention",
    "ns-3": "an ns-3 simulation of the paper's scenario",
    "real stacks": "today's real network stacks measured through the package's link emulator",
    "none": "nothing on this machine produced a value or a verdict: a testbed or simulator that is not here, or a "
            "run that did not run",
}
#: The ``emulation`` column's closed vocabulary: where a row stands in the real-stack re-run ("" for a row the real
#: stacks do not measure).
EMULATION: dict[str, str] = {
    "ran": "the real stacks ran for this row: its value or verdict is drawn from their runs",
    "fidelity lost": "the real stacks ran for this row but their runs lost their timing: no value or verdict is "
                     "drawn from them",
    "not run": "the real stacks would measure this row, but the cell or protocol did not run in the grid",
    "not run by choice": "the real stacks would measure this row, but the user chose not to run them "
                         "(EMULATION=off)",
    "machine cannot": "the real stacks would measure this row, but this machine cannot run them",
}

#: The ``emulation`` values of a row the real stacks ran for (its runs kept their timing or lost it).
RAN = ("ran", "fidelity lost")


@dataclass(frozen=True)
class Column:
    """One structured ledger column: its name, what it holds, and the kind of text it takes (checked by
    :func:`check_row`)."""

    name: str
    meaning: str
    #: ``text``, ``id``, ``vocabulary`` (a key of ``choices``), ``number``, ``count``, ``convention``
    kind: str
    choices: tuple[str, ...] = ()


#: The structured columns, declared once: the facts downstream code reads (the README table, the report's
#: verdicts, the summaries), so nothing reads them back out of ``reason``. docs/ledger.md documents them.
SCHEMA: tuple[Column, ...] = (
    Column("claim_id", "a claim row's claim id (``data/<paper>/claims.csv`` or the paper's registered question); "
                       "empty for a published result", "id"),
    Column("evidence", "what the regenerated value or the verdict rests on (:data:`EVIDENCE`)", "vocabulary",
           tuple(EVIDENCE)),
    Column("low", "the lower end of the 95% interval of the regenerated value or of a claim's criterion; empty "
                  "without an interval", "number"),
    Column("high", "the upper end of that 95% interval", "number"),
    Column("n", "the replications (runs kept, seeded runs) behind the regenerated value or the interval", "count"),
    Column("convention", "the paper's one reading the row is regenerated under, as ``name=value, ...``",
           "convention"),
    Column("compared_as", "the plain number a print is compared as when that differs from the print (a "
                          "correction's or a typo's corrected reading, a percentage without its sign)", "number"),
    Column("bound", "of a published time below its loss-free physical bound (impossible as printed): that bound "
                    "in seconds; empty otherwise", "number"),
    Column("emulation", "where the row stands in the real-stack re-run (:data:`EMULATION`); empty for a row the "
                        "real stacks do not measure", "vocabulary", tuple(EMULATION)),
    Column("other_status", "of a claim also judged under the paper's other workload or reading (a sensitivity "
                           "run): its status there; empty otherwise", "vocabulary", CLAIM_STATUSES),
)
STRUCTURED_COLUMNS = tuple(c.name for c in SCHEMA)
ALL_COLUMNS = COLUMNS + STRUCTURED_COLUMNS + PROVENANCE_COLUMNS
#: A convention's text: ``name=value`` pairs joined by ", " (:meth:`paperlib.conventions.Convention.describe`).
_CONVENTION = re.compile(r"\w+=[^,]*(?:, \w+=[^,]*)*")


class LedgerError(ValueError):
    """A malformed ledger row or file."""


@dataclass(frozen=True)
class Row:
    """One ledger row: a published value, the regenerated one, their status and its reason."""

    paper: str
    source: str
    row: str
    column: str
    published: str
    regenerated: str
    rel_error: str
    status: str
    reason: str
    #: the structured columns (:data:`SCHEMA`), as ledger text
    claim_id: str = ""
    evidence: str = ""
    low: str = ""
    high: str = ""
    n: str = ""
    convention: str = ""
    compared_as: str = ""
    bound: str = ""
    emulation: str = ""
    other_status: str = ""

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise LedgerError(f"paper must be one of {PAPERS}, got {self.paper!r}")
        if self.status not in STATUSES:
            raise LedgerError(f"status must be one of {STATUSES}, got {self.status!r}")
        if not self.reason.strip() and self.status not in ("reproduced",):
            raise LedgerError(f"a {self.status!r} row needs a reason ({self.source} {self.row} {self.column})")


def _where(record: dict) -> str:
    """Return a row's place for an error message: paper, source, row and column."""
    return f"paper {record.get('paper')}, {record.get('source')} / {record.get('row')} / {record.get('column')}"


def check_row(record: dict) -> None:
    """Raise :class:`LedgerError` naming the row and the column unless ``record``'s structured columns hold what
    :data:`SCHEMA` declares.

    ``record`` maps column names to ledger text (a :class:`Row` as a dict, or a row of a read ledger). Every row
    has an ``evidence``; a claim row (:func:`is_claim`) has a ``claim_id`` and a result row none; ``low`` and
    ``high`` come together with ``low <= high``; ``n`` is a whole number >= 0.
    """
    for col in SCHEMA:
        value = str(record.get(col.name, ""))
        if col.kind == "vocabulary" and value and value not in col.choices:
            raise LedgerError(f"{_where(record)}: column {col.name!r} must be one of {col.choices}, got {value!r}")
        if col.kind == "number" and value:
            try:
                float(value)
            except ValueError:
                raise LedgerError(f"{_where(record)}: column {col.name!r} must be a number, got {value!r}") from None
        if col.kind == "count" and value and not (value.isdigit()):
            raise LedgerError(f"{_where(record)}: column {col.name!r} must be a whole number >= 0, got {value!r}")
        if col.kind == "convention" and value and not _CONVENTION.fullmatch(value):
            raise LedgerError(f"{_where(record)}: column {col.name!r} must be 'name=value, ...', got {value!r}")
    if not str(record.get("evidence", "")):
        raise LedgerError(f"{_where(record)}: column 'evidence' is empty (one of {tuple(EVIDENCE)})")
    claim = is_claim(str(record.get("status", "")), str(record.get("column", "")))
    if claim != bool(str(record.get("claim_id", ""))):
        raise LedgerError(f"{_where(record)}: column 'claim_id' " + ("is empty for a claim row" if claim else
                                                                     "is set on a result row"))
    if str(record.get("other_status", "")) and not claim:
        raise LedgerError(f"{_where(record)}: column 'other_status' is set on a result row")
    low, high = str(record.get("low", "")), str(record.get("high", ""))
    if bool(low) != bool(high) or (low and not float(low) <= float(high)):
        raise LedgerError(f"{_where(record)}: columns 'low' and 'high' must both be set, low <= high, or both empty; "
                          f"got {low!r}, {high!r}")


def convention_of(text: str) -> dict[str, str]:
    """Return a ``convention`` column's ``name=value, ...`` as ``{name: value}`` ({} for an empty one)."""
    if not text:
        return {}
    if not _CONVENTION.fullmatch(text):
        raise LedgerError(f"column 'convention' must be 'name=value, ...', got {text!r}")
    return dict(pair.split("=", 1) for pair in text.split(", "))


def interval(low: float, high: float) -> dict[str, str]:
    """Return the ``low``/``high`` columns of a 95% interval as ledger text (for :func:`dataclasses.replace`)."""
    return {"low": format_value(low), "high": format_value(high)}


def below_bound(printed: str, bound_s: float) -> str:
    """Return the ``bound`` column of a printed time: ``bound_s`` as text when the print is impossible (below it,
    :func:`impossible_note`'s rule), else ""."""
    return format_value(bound_s, 4) if impossible_note(printed, bound_s, "") else ""


def format_value(value: float | None, decimals: int | None = None) -> str:
    """Return the regenerated value as text: ``decimals + 2`` places, so rounding stays visible."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    places = 4 if decimals is None else decimals + 2
    return f"{value:.{places}f}"


def relative_error(regenerated: float, published: float) -> float:
    """Return ``(regenerated - published) / published`` (signed)."""
    if published == 0:
        return math.inf if regenerated != 0 else 0.0
    return (regenerated - published) / published


def status_of(regenerated: float, printed: str, rule: str) -> str:
    """Return :func:`classify`'s status (for reasons that name how another reading scores)."""
    return classify(regenerated, printed, rule)


def classify(regenerated: float, printed: str, rule: str) -> str:
    """Return ``reproduced``, ``close`` or ``differs`` for a regenerated value against a printed number."""
    if matches_printed(regenerated, printed, rule):
        return "reproduced"
    published = float(Decimal(printed))
    return "close" if abs(relative_error(regenerated, published)) <= CLOSE else "differs"


def impossible_note(printed: str, bound_s: float, what: str) -> str:
    """Return the reason's flag of a printed time below its loss-free bound ("" if it is not below).

    The print stands for every value that rounds to it under either rounding rule, so it is flagged
    only when even the largest of them (the print plus one unit of its last place) is below the
    bound. ``what`` says which bound (parameters, schedule); the text begins with :data:`IMPOSSIBLE`.
    """
    _, top = printed_interval(printed, "truncate")
    if not top <= bound_s:
        return ""
    value = float(Decimal(printed.strip()))
    return f"{IMPOSSIBLE}: {bound_s - value:.3f} s below the loss-free bound {bound_s:.3f} s ({what})"


def lone_hits(regenerated, printed: list[str], rule: str, labels: list[str] | None = None) -> list[str]:
    """Return, per cell of one column (a series over the row parameter), why it is a lone hit ("" if not).

    A cell is a lone hit when it is reproduced (equal at the printed precision) and either no other
    cell of its column is, or its regenerated value equals a neighbour's (relative 1e-9) while the
    printed numbers differ: the match then does not come from the model following the parameter.
    """
    values = [float(v) for v in regenerated]
    if len(values) != len(printed):
        raise LedgerError(f"lone_hits: {len(values)} regenerated values for {len(printed)} printed cells")
    labels = [str(i) for i in range(len(values))] if labels is None else list(labels)
    hit = [matches_printed(v, p, rule) for v, p in zip(values, printed, strict=True)]
    out = []
    for i, (v, p) in enumerate(zip(values, printed, strict=True)):
        why = []
        if hit[i] and sum(hit) == 1 and len(values) > 1:
            why.append(f"the only one of the {len(values)} cells of its column the convention reproduces")
        for j in (i - 1, i + 1):
            if hit[i] and 0 <= j < len(values) and math.isclose(values[j], v, rel_tol=1e-9) and \
                    Decimal(printed[j]) != Decimal(p):
                why.append(f"its regenerated value is the same at {labels[j]} ({values[j]:.4f}) while the print "
                           f"moves from {p} to {printed[j]}")
        out.append("lone hit: " + "; ".join(why) if why else "")
    return out


def result_row(
    paper: str,
    source: str,
    row: str,
    column: str,
    published: str,
    regenerated: float | None,
    *,
    rule: str,
    reason: str = "",
    not_regenerable: bool = False,
    compare_as: str | None = None,
    typo: bool = False,
    typo_scored_in: str = "",
    lone_hit: str = "",
    evidence: str | None = None,
    convention: str = "",
    bound: str = "",
    interval95: tuple[float, float] | None = None,
    n: int | None = None,
) -> Row:
    """Return the ledger row of one published number.

    ``published`` is the printed text (``"17.4%"``, ``"93/2%"``); ``compare_as``
    is the plain number it is compared as when that differs from the print
    (``"17.4"``, or a correction's ``"93.2"``, whose reason must then be in
    ``reason``). ``rule`` is the paper's rounding convention. With
    ``not_regenerable`` the status is ``not_regenerable`` whatever the numbers
    say; ``regenerated`` is then the best honest figure (or ``None``) and
    ``reason`` must say what.

    ``typo``: the print is a typo and ``compare_as`` its corrected reading (``reason`` says why).
    If the corrected reading reproduces, the status is ``typo`` and ``rel_error`` is left empty
    (a typo is never scored by distance); otherwise the row is scored against the corrected
    reading as usual. ``typo_scored_in``: the corrected reading is itself a published number with
    its own ledger row (named here), which carries its score; the status is then ``typo`` whatever
    the numbers say. ``lone_hit`` (from :func:`lone_hits`): a reproduced cell becomes ``lone_hit``
    with that sentence added to its reason.

    The structured columns (:data:`SCHEMA`): ``evidence`` (:data:`EVIDENCE`) is what ``regenerated`` comes from
    and must be given with a value (without one it is ``none``); ``convention`` the reading's ``name=value, ...``;
    ``bound`` the :func:`below_bound` of a print below its loss-free bound; ``interval95`` (low, high) and ``n``
    the value's 95% interval and replications, when it has them. ``compared_as`` is ``compare_as``.
    """
    if typo and compare_as is None:
        raise LedgerError(f"{source} {row} {column}: a typo needs its corrected reading (compare_as)")
    number = published if compare_as is None else compare_as
    decimals = printed_decimals(number)
    pub = float(Decimal(number))
    facts = dict(convention=convention, compared_as="" if compare_as is None else str(compare_as), bound=bound,
                 n="" if n is None else str(int(n)),
                 **({} if interval95 is None else interval(*interval95)))
    if regenerated is None or (isinstance(regenerated, float) and math.isnan(regenerated)):
        if not not_regenerable:
            raise LedgerError(f"{source} {row} {column}: no regenerated value, so it must be not_regenerable")
        return Row(paper, source, row, column, published, "", "", "not_regenerable", reason, evidence="none",
                   **facts)
    if evidence is None:
        raise LedgerError(f"{source} {row} {column}: a regenerated value needs its evidence (one of "
                          f"{tuple(EVIDENCE)})")
    rel = f"{relative_error(regenerated, pub):.4f}"
    status = "not_regenerable" if not_regenerable else classify(regenerated, number, rule)
    if typo and typo_scored_in and not not_regenerable:
        status, rel = "typo", ""
        reason = (f"typo: printed {published!r}, corrected reading {compare_as}, which is published in its own "
                  f"row ({typo_scored_in}) and scored there ({status_of(regenerated, compare_as, rule)}); {reason}")
    elif status == "reproduced" and typo:
        status, rel = "typo", ""
        reason = f"typo: printed {published!r}, corrected reading {compare_as} reproduces; {reason}"
    elif status == "reproduced" and lone_hit:
        status = "lone_hit"
        reason = f"{lone_hit}; {reason}" if reason else lone_hit
    return Row(paper, source, row, column, published, format_value(regenerated, decimals), rel, status, reason,
               evidence=evidence, **facts)


def input_row(paper: str, source: str, row: str, column: str, published: str, used: float | None, *,
              reason: str) -> Row:
    """Return the ledger row of a number the paper takes as given (status ``input``, :data:`STATUS_MEANINGS`).

    ``used`` is the value as the package reads and uses it (``None``: the row is text only); ``reason`` says
    where it is used and must not be empty. It is not scored: ``rel_error`` stays empty.
    """
    if not reason.strip():
        raise LedgerError(f"{source} {row} {column}: an input row needs a reason (where the number is used)")
    return Row(paper, source, row, column, published, format_value(used), "", "input", reason, evidence="printed")


def measured_status(published: float, mean: float, half: float, n: int) -> str:
    """Return the status of a published measurement measured again ``n`` times here (mean, 95% half-width).

    The one scoring of a measured cell (:data:`STATUS_MEANINGS`), an equivalence test at the margin :data:`CLOSE`:
    the band is ``[published - CLOSE |published|, published + CLOSE |published|]`` and the interval
    ``[mean - half, mean + half]``. ``measured_close`` when the whole interval lies inside the band,
    ``measured_differs`` when it lies wholly outside it on one side, else ``measured_inconclusive`` (it reaches
    across an edge of the band, :func:`measured_edges`). The two decided statuses swap only when the interval moves
    by more than its own width, so a print near an edge of the interval does not flip the status between two runs
    (the rule before it, "the print inside the interval", did). Fewer than two repetitions give no interval: the
    cell stays ``not_regenerable``.
    """
    if not math.isfinite(published):
        raise LedgerError(f"a measured cell needs a finite printed value, got {published!r}")
    if n < 2 or not math.isfinite(half):
        return "not_regenerable"
    band_low, band_high = measured_edges(published)
    tol = 1e-12 * max(abs(published), 1.0)
    low, high = mean - half, mean + half
    if band_low - tol <= low and high <= band_high + tol:
        return "measured_close"
    if low > band_high + tol or high < band_low - tol:
        return "measured_differs"
    return "measured_inconclusive"


def measured_edges(published: float) -> tuple[float, float]:
    """Return the band of :func:`measured_status`: ``published`` -/+ :data:`CLOSE` of its magnitude."""
    return published - CLOSE * abs(published), published + CLOSE * abs(published)


def measured_edge(published: float, mean: float) -> float:
    """Return the edge of :func:`measured_status`'s band nearest to ``mean``: the threshold an inconclusive cell's
    interval must clear to be decided."""
    return min(measured_edges(published), key=lambda e: abs(mean - e))


def measured_undecided_text(published: float, mean: float, half: float, n: int) -> str:
    """Return the reason's sentence of an inconclusive measured cell: the interval, the edge it reaches across and
    the replications that would decide it at the measured spread (:func:`paperlib.decide.straddle_text`)."""
    edge = measured_edge(published, mean)
    needed = decide.replications_from_interval(mean, half, n, edge)
    band_low, band_high = measured_edges(published)
    return (f"inconclusive at the 5% margin ({band_low:.4g} to {band_high:.4g}): "
            + decide.straddle_text(mean, half, edge, needed, n))


def measured_row(old: Row, mean: float, half: float, n: int, *, rule: str, reason: str,
                 compare_as: str | None = None) -> Row:
    """Return ``old`` (a published measurement) scored against the mean of ``n`` measurements made here.

    ``half`` is the 95% half-width of the mean; the status is :func:`measured_status`'s, ``regenerated`` the
    mean at the print's precision and ``rel_error`` its distance to the print, as for any result row; an
    inconclusive cell's reason ends with the replications that would decide it (:func:`measured_undecided_text`).
    """
    number = old.published if compare_as is None else compare_as
    row = result_row(old.paper, old.source, old.row, old.column, old.published, mean, rule=rule, reason=reason,
                     not_regenerable=True, compare_as=compare_as, evidence="real stacks")
    printed = float(Decimal(number))
    status = measured_status(printed, mean, half, n)
    reason = row.reason
    if status == "measured_inconclusive":
        reason = f"{reason}; {measured_undecided_text(printed, mean, half, n)}"
    return replace(old, regenerated=row.regenerated, rel_error=row.rel_error, status=status, reason=reason,
                   evidence="real stacks", n=str(int(n)), emulation="ran", compared_as=row.compared_as,
                   **(interval(mean - half, mean + half) if math.isfinite(half) else {"low": "", "high": ""}))


def is_claim(status: str, column: str) -> bool:
    """Return whether a row of ``status`` in ``column`` is a claim's (else a published result's).

    Every status but ``fidelity_lost`` is one or the other; a ``fidelity_lost`` row is a claim's when its column
    is :data:`REAL_STACKS` (:func:`claim_row` allows it only there, :func:`fidelity_lost_row` never).
    """
    if status == FIDELITY_LOST:
        return column == REAL_STACKS
    return status in CLAIM_STATUSES


def claim_mask(frame: pd.DataFrame) -> pd.Series:
    """Return the mask of a ledger table's claim rows (:func:`is_claim` of its ``status`` and ``column``)."""
    return pd.Series([is_claim(s, c) for s, c in zip(frame["status"], frame["column"], strict=True)],
                     index=frame.index, dtype=bool)


def fidelity_lost_row(old: Row, reason: str) -> Row:
    """Return ``old`` (a published measurement) as a real-stack cell whose runs lost their timing: ``fidelity_lost``.

    No verdict is drawn from the runs: ``regenerated`` and ``rel_error`` are left empty and ``reason`` (which
    must say the runs kept and the measured lateness and waiting, :data:`STATUS_MEANINGS`) comes before the
    row's own reason. A claim judged on such runs is a :func:`claim_row` of status ``fidelity_lost``.
    """
    if not reason.strip():
        raise LedgerError(f"{old.source} {old.row} {old.column}: a fidelity_lost row needs a reason "
                          "(the runs kept, the lateness and waiting)")
    if old.column == REAL_STACKS:
        raise LedgerError(f"{old.source} {old.row}: column {REAL_STACKS!r} holds claims; a claim whose runs lost "
                          "their timing is a claim_row of status fidelity_lost")
    text = f"{reason}; {old.reason}" if old.reason.strip() else reason
    return replace(old, regenerated="", rel_error="", status=FIDELITY_LOST, reason=text, evidence="real stacks",
                   low="", high="", n="", emulation="fidelity lost")


def claim_row(
    paper: str,
    source: str,
    claim: str,
    published: str,
    regenerated: float | None,
    status: str,
    reason: str,
    *,
    column: str = "claim",
    claim_id: str,
    evidence: str,
    interval95: tuple[float, float] | None = None,
    n: int | None = None,
    convention: str = "",
    emulation: str = "",
) -> Row:
    """Return the ledger row of a stated claim (one of :data:`CLAIM_STATUSES`).

    ``claim_id`` is the claim's id, ``evidence`` (:data:`EVIDENCE`) what it is judged on; ``interval95`` (low,
    high) and ``n`` the 95% interval of its criterion and the replications behind it, when it has them;
    ``emulation`` (:data:`EMULATION`) where it stands in the real-stack re-run (default: ``ran`` when judged on
    the real stacks).
    """
    if status not in CLAIM_STATUSES:
        raise LedgerError(f"claim status must be one of {CLAIM_STATUSES}, got {status!r}")
    if status == FIDELITY_LOST and column != REAL_STACKS:
        raise LedgerError(f"{source} {claim}: a fidelity_lost claim is judged on the real stacks (column "
                          f"{REAL_STACKS!r}), got column {column!r}")
    rel = ""
    if regenerated is not None and published.strip():
        try:
            rel = f"{relative_error(regenerated, float(Decimal(published))):.4f}"
        except ArithmeticError:
            rel = ""
    if not emulation and evidence == "real stacks":
        emulation = "fidelity lost" if status == FIDELITY_LOST else "ran"
    return Row(paper, source, claim, column, published, format_value(regenerated), rel, status, reason,
               claim_id=claim_id, evidence=evidence, convention=convention, n="" if n is None else str(int(n)),
               emulation=emulation, **({} if interval95 is None else interval(*interval95)))


def text_results_without_row(paper, rows: list[Row], root: Path | str | None = None) -> list[str]:
    """Return the ids of ``paper``'s result text values that have neither a ledger row nor a stated reason.

    A text value has its own row when a row of ``rows`` has ``row`` equal to its id; otherwise
    ``data/<paper>/datapackage.json`` must give a reason under ``without_own_ledger_row``
    ({id: reason}). Raises :class:`LedgerError` for a reason without text, or for an id there
    that is not a result text value, or that also has a row.
    """
    from paperlib.data import DATA_DIR

    meta_path = Path(DATA_DIR if root is None else root) / paper.paper / "datapackage.json"
    stated = json.loads(meta_path.read_text(encoding="utf-8")).get("without_own_ledger_row", {})
    cells = paper.text_values.cells
    results = list(cells[cells["role"] == "result"]["id"])
    own = {r.row for r in rows if r.paper == paper.paper}
    for ident, why in stated.items():
        if ident not in results:
            raise LedgerError(f"{meta_path}: without_own_ledger_row names {ident!r}, not a result of text_values.csv")
        if not str(why).strip():
            raise LedgerError(f"{meta_path}: without_own_ledger_row gives no reason for {ident!r}")
        if ident in own:
            raise LedgerError(f"{meta_path}: {ident!r} has a ledger row and a reason for having none")
    return [i for i in results if i not in own and i not in stated]


def to_frame(rows: list[Row], stamp: Stamp) -> pd.DataFrame:
    """Return the rows as a ledger table with the provenance columns of ``stamp`` (each checked, :func:`check_row`)."""
    prov = stamp.columns()
    records = [{**asdict(r), **prov} for r in rows]
    for record in records:
        check_row(record)
    return pd.DataFrame.from_records(records, columns=list(ALL_COLUMNS))


def write_partial(rows: list[Row], stamp: Stamp, path: Path | str) -> pd.DataFrame:
    """Write one notebook's ledger rows atomically; return them as a table."""
    frame = to_frame(rows, stamp)
    dup = frame.duplicated(subset=["paper", "source", "row", "column"])
    if dup.any():
        first = frame[dup].iloc[0]
        raise LedgerError(f"duplicate ledger row: {first['source']} / {first['row']} / {first['column']}")
    atomic_write_csv(path, frame)
    return frame


def read(path: Path | str) -> pd.DataFrame:
    """Read a ledger file and check its columns and statuses.

    A ledger without the ``profile`` column (written before the column existed) reads as one at the notebooks' own
    scale: the column is added, empty.
    """
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if "profile" not in frame.columns:
        frame["profile"] = ""
    missing = [c for c in ALL_COLUMNS if c not in frame.columns]
    if missing:
        raise LedgerError(f"{path}: missing columns {missing}")
    bad = frame[~frame["status"].isin(STATUSES)]
    if len(bad):
        raise LedgerError(f"{path}: row {bad.index[0] + 1}: unknown status {bad['status'].iloc[0]!r}")
    for i, record in enumerate(frame[list(STRUCTURED_COLUMNS + COLUMNS)].to_dict("records")):
        try:
            check_row(record)
        except LedgerError as err:
            raise LedgerError(f"{path}: row {i + 1}: {err}") from None
    return frame[list(ALL_COLUMNS)]


def merge(paths: list[Path]) -> pd.DataFrame:
    """Return the partial ledgers joined and sorted by paper (stable within a paper)."""
    frames = [read(p) for p in sorted(paths)]
    if not frames:
        return pd.DataFrame(columns=list(ALL_COLUMNS))
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values("paper", kind="stable").reset_index(drop=True)


def status_counts(statuses: Iterable[str]) -> dict[str, int]:
    """Return how many of ``statuses`` there are of each, in :data:`STATUSES` order (any other after, sorted).

    Statuses with no row are left out.
    """
    got = Counter(statuses)
    order = list(STATUSES) + sorted(set(got) - set(STATUSES))
    return {s: got[s] for s in order if got[s]}


def status_text(counts: dict[str, int]) -> str:
    """Return counts by status as text: ``{"reproduced": 8, "differs": 2}`` -> ``8 reproduced, 2 differs``."""
    return ", ".join(f"{n} {status}" for status, n in counts.items())


def summary(frame: pd.DataFrame) -> str:
    """Return a Markdown summary: counts by paper and status."""
    statuses = [s for s in STATUSES if (frame["status"] == s).any()] or list(RESULT_STATUSES)
    counts = (
        frame.groupby(["paper", "status"]).size().unstack(fill_value=0).reindex(columns=statuses, fill_value=0)
        if len(frame)
        else pd.DataFrame(columns=statuses)
    )
    lines = ["# Reproduction ledger summary", "", f"{len(frame)} rows in `figures/ledger.csv`.", ""]
    quick = profiles.quick_note(frame, "figures/ledger.csv")
    if quick:
        lines += [f"**{quick}**", ""]
    lines.append("| paper | " + " | ".join(statuses) + " | total |")
    lines.append("|---|" + "---|" * (len(statuses) + 1))
    for paper, counts_row in counts.iterrows():
        cells = [str(int(counts_row[s])) for s in statuses]
        lines.append(f"| {paper} | " + " | ".join(cells) + f" | {int(counts_row.sum())} |")
    missing = [p for p in PAPERS if p not in counts.index]
    if missing:
        lines += ["", "No ledger rows yet for paper(s) " + ", ".join(missing) + "."]
    flagged = impossible(frame)
    if flagged.any():
        per = frame[flagged].groupby("paper").size()
        lines += ["", f"{int(flagged.sum())} published times are {IMPOSSIBLE} (below their loss-free physical "
                  "bound; status kept, reason flagged): " + ", ".join(f"{k}: {int(v)}" for k, v in per.items()) + "."]
    lines += ["", "Statuses:", ""] + [f"* `{s}`: {STATUS_MEANINGS[s]}" for s in statuses]
    return "\n".join(lines) + "\n"


def impossible(frame: pd.DataFrame) -> pd.Series:
    """Return the mask of ledger rows flagged as impossible as printed: a ``bound`` column set (:func:`below_bound`)."""
    return frame["bound"].astype(str) != "" if len(frame) else pd.Series([], dtype=bool)


def main(argv: list[str] | None = None) -> int:
    """Merge partial ledgers into one and write the summary (``merge`` command); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.ledger", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("merge", help="join partial ledgers into figures/ledger.csv and write the summary")
    m.add_argument("partials", nargs="+", type=Path)
    m.add_argument("--out", type=Path, default=FIGURES_DIR / "ledger.csv")
    m.add_argument("--summary", type=Path, default=FIGURES_DIR / "ledger-summary.md")
    args = parser.parse_args(argv)
    frame = merge(args.partials)
    atomic_write_csv(args.out, frame)
    atomic_write_text(args.summary, summary(frame))
    sys.stdout.write(f"{args.out}: {len(frame)} rows from {len(args.partials)} notebook ledger(s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
