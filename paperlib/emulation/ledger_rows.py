"""Ledger rows of the emulated experiments: the published experimental cells scored against the real stacks.

A published experimental cell that the real stacks re-ran (the paper's own testbed, which its package's
``stack.TESTBED`` names, is replaced by today's stacks through the package's link emulator) is scored against
that measurement by :func:`paperlib.ledger.measured_row`:
``measured_close``, ``measured_inconclusive`` or ``measured_differs`` (:data:`paperlib.ledger.STATUS_MEANINGS`:
an equivalence test of the measured mean's 95% interval at a 5% margin of the print);
its ``regenerated`` value is the emulated mean, ``rel_error`` compares it with the print, and the reason
starts with :data:`MARK` and carries the 95% CI, the repetitions and the stack that was measured.
A cell the chosen grid did not run stays ``not_regenerable`` and says so after :data:`NOT_RUN`; when
nothing ran, the reason says whether by the user's choice (:data:`NOT_RUN_BY_CHOICE`) or because the
machine cannot (:data:`NOT_RUN_CANNOT`). Claims judged on the measurements use the interval rules here
(:func:`verdict`, :func:`band_verdict`, :func:`rise_verdict`: ``supported``, ``refuted`` or ``inconclusive``
when the interval straddles, with :func:`to_decide`'s replications that would decide it) and the one interval
of a mean of per-point differences (:func:`mean_difference`).
``python -m paperlib.emulation.ledger_rows summary LEDGER SUMMARY`` writes the ledger summary closed by the line
"N of M published experimental cells within 5% of the real stacks" (:func:`summary`), from the rows' structured
``emulation`` and ``status`` columns (:data:`paperlib.ledger.EMULATION`).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import decide, ledger
from paperlib.atomic import atomic_write_text
from paperlib.claims import Verdict, fidelity_lost
from paperlib.emulation import experiments
from paperlib.ledger import Row, claim_row, measured_row

MARK = "[emulated on real stacks]"
#: The ledger column of the claims re-judged on the emulated measurements.
REAL_STACKS = ledger.REAL_STACKS
NOT_RUN = "[emulation not run]"
#: Why no cell has an emulated value when the user opted out (``make ... EMULATION=off``, ``emulation="off"``).
NOT_RUN_BY_CHOICE = "the real-stack column was not run, by choice (EMULATION=off)"
#: Why none has one when the user wanted it but this machine cannot run the testbed (the machine's reason follows).
NOT_RUN_CANNOT = "the real-stack column was not run because this machine cannot run it"


def emulated_row(old: Row, mean: float, half: float, n: int, rule: str, stack: str, unit: str = "s",
                 compare_as: str | None = None, testbed: str | None = None,
                 fidelity: dict | None = None, plan=None) -> Row:
    """Return ``old`` (a published experimental cell) scored against the emulated mean of ``n`` repetitions.

    ``half`` is the mean's 95% half-width and ``stack`` names what was measured (the stack and its settings);
    ``testbed`` the published measurement's own testbed, which is not re-run (the paper's ``stack.TESTBED``;
    None: the number is not a testbed's, e.g. an RFC's count); ``fidelity`` the cell's fidelity summary
    (:meth:`paperlib.emulation.notebook.Emulated.cell_fidelity`), worded in the reason; ``plan`` the cell's
    replications (:class:`paperlib.emulation.notebook.CellPlan`, None: the grid's repetitions, unplanned), worded in
    the reason; the status is :func:`paperlib.ledger.measured_status`'s.
    """
    replaced = f" (the paper's testbed, {testbed}, is not re-run)" if testbed else ""
    timing = f"; fidelity: {fidelity_text(fidelity)}" if fidelity else ""
    planned = (f"; replications by the rule (docs/ledger.md): a pilot of {plan.pilot_n} kept runs, then "
               f"{plan.plan.describe()}" if plan is not None else "")
    reason = (f"{MARK} mean of {n} repetitions {mean:.3f} {unit}, 95% CI +/- {half:.3f} {unit}; {stack}; "
              f"scored against this measurement on today's stacks{replaced}{planned}{timing}; before: {old.reason}")
    return measured_row(old, mean, half, n, rule=rule, reason=reason, compare_as=compare_as)


#: The fewest runs that kept their timing from which a cell's mean and interval are drawn.
MIN_KEPT = 2


def fidelity_text(summary: dict) -> str:
    """Return a cell's fidelity summary in words (:func:`paperlib.emulation.fidelity.describe`, with the re-runs)."""
    from paperlib.emulation import fidelity

    tries = summary.get("tries")
    extra = f" ({tries - summary['runs']} re-runs)" if tries and tries > summary["runs"] else ""
    return fidelity.describe(summary) + extra


def real_stack_cell(old: Row, n: int, fidelity: dict | None, not_run: str, score) -> Row:
    """Return the row of a published cell on the real stacks: ``score()`` (an :func:`emulated_row`) when at least
    :data:`MIN_KEPT` runs kept their timing, or at least one did and none lost it; :func:`fidelity_lost_cell` when
    fewer than :data:`MIN_KEPT` kept it and some lost it (no verdict is drawn from them); :func:`not_run_row`
    with ``not_run`` when nothing ran. ``n``: the runs that kept their timing; ``fidelity``: the cell's summary."""
    lost = 0 if fidelity is None else fidelity["runs"] - fidelity["runs_kept"]
    if lost and n < MIN_KEPT:
        return fidelity_lost_cell(old, f"{n} repetitions kept their timing, fewer than {MIN_KEPT}: "
                                       f"no mean is drawn from the others; fidelity: {fidelity_text(fidelity)}")
    if n == 0:
        return not_run_row(old, not_run)
    return score()


def with_run_fidelity(rows: list[Row], real_stacks) -> list[Row]:
    """Return ``rows`` with the fidelity of every real-stack run (kept and lost, :func:`fidelity_text`) added to
    the reason of each claim judged on the real stacks (column :data:`REAL_STACKS`); ``rows`` as they are when
    nothing ran or no run has a fidelity record."""
    fid = real_stacks.cell_fidelity()  # no parameter fixed: every run, kept and lost
    if fid is None:
        return rows
    text = f"; fidelity of the paper's real-stack runs: {fidelity_text(fid)}"
    return [dataclasses.replace(r, reason=r.reason + text) if r.column == REAL_STACKS else r for r in rows]


def lost_runs(table) -> int:
    """Return the real-stack runs behind a summary ``table`` that lost their timing (its ``attrs["lost_runs"]``,
    set by the paper's ledger rows from :attr:`paperlib.emulation.notebook.Emulated.lost`; 0 when absent)."""
    return int(getattr(table, "attrs", {}).get("lost_runs", 0))


def no_cells(what: str, table, *, source: str | None = None) -> Verdict:
    """Return the verdict of a real-stack claim that has no cell to judge: ``fidelity_lost`` when runs behind
    ``table`` lost their timing (:func:`lost_runs`), else ``untestable``; ``what`` says what is missing."""
    if lost_runs(table):
        return fidelity_lost(f"{MARK} {what}: {lost_runs(table)} runs lost their timing (docs/fidelity.md), and no "
                             "verdict is drawn from them", source=source)
    return Verdict("untestable", f"{MARK} {what}", column=REAL_STACKS, source=source)


def fidelity_lost_cell(old: Row, reason: str) -> Row:
    """Return ``old`` (a published experimental cell) as one whose real-stack runs lost their timing.

    :func:`paperlib.ledger.fidelity_lost_row` with the reason opened by :data:`MARK` and its ``emulation`` column
    ``fidelity lost`` (so :func:`counts` counts the cell as run, not within 5%); ``reason`` gives the runs kept and
    the measured lateness and waiting.
    """
    return ledger.fidelity_lost_row(old, f"{MARK} {reason}")


def mean_difference(a_mean, a_half, b_mean, b_half, scale=None) -> tuple[float, float]:
    """Return the mean over points of ``(a - b) / scale`` and its 95% half-width: the real-stack claims' interval.

    Each argument holds one value per point (``scale`` None: 1). A point's difference has the half-width
    ``sqrt(a_half**2 + b_half**2) / scale``, the mean over ``n`` points ``sqrt(sum of their squares) / n``.
    Assumptions: the two stacks' measurements and the points are independent, each half-width is the same
    quantile times a standard error (so half-widths add in quadrature as standard errors do), and ``scale``
    is exact (a measured ``scale`` widens the true interval).
    """
    a, ha, b, hb = (np.asarray(x, dtype=float) for x in (a_mean, a_half, b_mean, b_half))
    s = np.ones_like(a) if scale is None else np.asarray(scale, dtype=float)
    if not a.size or not (a.shape == ha.shape == b.shape == hb.shape == s.shape):
        raise ValueError(f"mean_difference needs one value per point in every argument, got shapes "
                         f"{[x.shape for x in (a, ha, b, hb, s)]}")
    half = np.sqrt(ha**2 + hb**2) / s
    return float(((a - b) / s).mean()), float(np.sqrt((half**2).sum()) / a.size)


def measured_stack(points: list[dict], protocol: str, runs: int, where: str, **at: float) -> str:
    """Return the stack that measured a cell: :func:`experiments.stack_text` of its protocol's point.

    The first of the sweep's ``points`` whose ``protocol`` is ``protocol`` and whose parameters ``at``
    (e.g. ``rate_bps=...``) match (``np.isclose``); a cell is described by a point of its own protocol, never by
    the other stack's. Raises ``ValueError`` naming ``where`` (the cell) and its ``runs`` when no point matches.
    """
    for point in points:
        if point["protocol"] == protocol and all(np.isclose(point[k], v) for k, v in at.items()):
            return experiments.stack_text(point)
    raise ValueError(f"{where}: {runs} {protocol} runs but no {protocol} point at {at} among the real stacks' points")


def protocol_not_run(protocol: str) -> str:
    """Return why a cell of ``protocol`` has no measurement when the others ran: the application lacks it."""
    return f"{protocol.upper()} was not run (the available application speaks {experiments.protocols()})"


def not_run_kind(why: str) -> str:
    """Return the ``emulation`` column (:data:`paperlib.ledger.EMULATION`) of a row whose real-stack run is missing
    for ``why``: ``not run by choice`` for :data:`NOT_RUN_BY_CHOICE`, ``machine cannot`` for a reason that
    :func:`paperlib.emulation.notebook.not_run_reason` opened with :data:`NOT_RUN_CANNOT`, else ``not run``."""
    if why == NOT_RUN_BY_CHOICE:
        return "not run by choice"
    return "machine cannot" if why.startswith(NOT_RUN_CANNOT) else "not run"


def not_run_row(old: Row, why: str) -> Row:
    """Return ``old`` with the reason the emulated run is missing and its ``emulation`` column (:func:`not_run_kind`).

    A claim (column :data:`REAL_STACKS`) that did not run rests on nothing (evidence ``none``); a published cell
    keeps its regenerated value and that value's evidence.
    """
    evidence = "none" if old.column == REAL_STACKS else old.evidence
    return dataclasses.replace(old, reason=f"{NOT_RUN} {why}; {old.reason}", emulation=not_run_kind(why),
                               evidence=evidence)


def claims_not_run(rows: list[Row], why: str | None) -> list[Row]:
    """Return ``rows`` with each claim re-judged on real stacks (column :data:`REAL_STACKS`) saying why nothing
    ran (:func:`not_run_row`: by choice, or because the machine cannot), or ``rows`` as they are if ``why`` is None."""
    if why is None:
        return rows
    return [not_run_row(r, why) if r.column == REAL_STACKS else r for r in rows]


def replace(rows: list[Row], new: dict[tuple[str, str, str], Row]) -> list[Row]:
    """Return ``rows`` with every row whose (source, row, column) is a key of ``new`` replaced."""
    return [new.get((r.source, r.row, r.column), r) for r in rows]


def judged_claim(paper: str, source: str, claim: str, published: str, value: float | None, status: str,
                 reason: str, *, claim_id: str) -> Row:
    """Return claim ``claim_id`` (its text ``claim``) re-judged on the emulated measurements (column
    'emulated (real stacks)')."""
    return claim_row(paper, source, claim, published, value, status, f"{MARK} {reason}", column=REAL_STACKS,
                     claim_id=claim_id, evidence="real stacks")


def verdict(low: float, high: float, supported, refuted) -> str:
    """Return 'supported' if the whole CI [low, high] satisfies ``supported``, 'refuted' if it all satisfies
    ``refuted``, else 'inconclusive' (the CI does not decide; :func:`to_decide` says how many repetitions would).

    Only the two ends are tested, so each predicate must describe one interval (``v > 0``, ``v <= bound``);
    a claim of a band (``20 +/- 5 %``), whose refuting set has two parts, goes through :func:`band_verdict`.
    """
    if supported(low) and supported(high):
        return "supported"
    if refuted(low) and refuted(high):
        return "refuted"
    return "inconclusive"


def rise_verdict(low_mean: float, high_mean: float, low_ci: float, high_ci: float) -> tuple[float, float, str]:
    """Return (difference, its 95% half-width, verdict) of "the value rises from the low to the high setting".

    The difference is high - low and its half-width :func:`mean_difference`'s of that one pair (the two
    settings' independent 95% half-widths in quadrature). 'supported' if the whole CI is above 0, 'refuted'
    if it is at most 0 (:func:`verdict`), else 'inconclusive'.
    """
    d, h = mean_difference([high_mean], [high_ci], [low_mean], [low_ci])
    return d, h, verdict(d - h, d + h, lambda v: v > 0, lambda v: v <= 0)


def band_verdict(low: float, high: float, band_low: float, band_high: float) -> str:
    """Return the verdict of the claim "the value lies in [band_low, band_high]" on the CI [low, high].

    'supported' if the CI lies inside the band, 'refuted' if it lies wholly below or wholly above it,
    'inconclusive' otherwise: also when the CI covers the whole band, although both its ends are outside.
    """
    if not (low <= high and band_low <= band_high):
        raise ValueError(f"need low <= high and band_low <= band_high, got CI [{low}, {high}], "
                         f"band [{band_low}, {band_high}]")
    if band_low <= low and high <= band_high:
        return "supported"
    if high < band_low or low > band_high:
        return "refuted"
    return "inconclusive"


def nearest(value: float, thresholds) -> float:
    """Return the threshold of ``thresholds`` nearest ``value`` (a band's edge for :func:`to_decide`)."""
    return min(thresholds, key=lambda t: abs(value - t))


def to_decide(status: str, mean: float, half: float, n: int, threshold: float = 0.0) -> tuple[float | None, str]:
    """Return (replications that would decide, the sentence the reason ends with) of a verdict on ``mean +/- half``.

    ``half`` is the 95% half-width over ``n`` repetitions per cell (the fewest of the cells it is made of) and
    ``threshold`` the value the claim is decided against (a band's nearest edge, :func:`nearest`). Unless
    ``status`` is 'inconclusive' (the interval straddles) it is ``(None, "")``; otherwise the number is
    :func:`paperlib.decide.replications_from_interval`'s (the spread per repetition behind ``half``, held as
    measured) and the sentence :func:`paperlib.decide.straddle_text`'s, opening with "; ". An interval without
    a spread to scale (``half`` not finite, ``n`` below 2) gives ``(None, "")`` too.
    """
    if status != "inconclusive" or not np.isfinite(half) or n < 2:
        return None, ""
    needed = decide.replications_from_interval(mean, half, n, threshold)
    return needed, "; " + decide.straddle_text(mean, half, threshold, needed, n)


def split_note(verdicts: list[str], needed: list[float | None]) -> tuple[float | None, str]:
    """Return (repetitions that would decide, the reason's closing sentence) of a claim judged case by case.

    ``verdicts`` are the cases' statuses, ``needed`` their :func:`to_decide` numbers (None where decided). A
    claim whose cases all agree takes their status; otherwise it is inconclusive and this says whether the cases
    split with every one decided (no repetitions would change that: None) or which straddle (the most any of
    them needs, so that every case decides). ``(None, "")`` when every case is decided and they agree.
    """
    open_ = [n for v, n in zip(verdicts, needed, strict=True) if v == "inconclusive" and n is not None]
    split = len(set(verdicts) - {"inconclusive"}) > 1
    if not open_:
        return None, ("; the cases' verdicts split: " + ", ".join(f"{verdicts.count(v)} {v}" for v in
                                                                  dict.fromkeys(verdicts)) if split else "")
    most = max(open_)
    head = "the cases' verdicts split; " if split else ""
    return most, (f"; {head}{len(open_)} of {len(verdicts)} cases' 95% CIs straddle the threshold: "
                  f"{decide.replications_text(most)} in every case, at the measured spread")


#: The ``emulation`` values of a row the real stacks ran for (:data:`paperlib.ledger.EMULATION`).
RAN = ledger.RAN


def counts(frame: pd.DataFrame) -> tuple[int, int]:
    """Return (cells within 5% of the real stacks, published experimental cells) of a ledger table.

    The experimental cells are the rows outside column :data:`REAL_STACKS` with an ``emulation`` column (run or
    not); a cell is within 5% when the real stacks ran for it and the whole 95% interval of their mean lies within
    5% of the print (status ``measured_close``, :func:`paperlib.ledger.measured_status`).
    """
    exp = frame[(frame["emulation"] != "") & (frame["column"] != REAL_STACKS)]
    return int((exp["emulation"].isin(RAN) & (exp["status"] == "measured_close")).sum()), int(len(exp))


def cells_sentence(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return a paper notebook's Markdown sentence on its ledger ``frame``: how many of its published experimental
    cells are close to the real stacks (:func:`counts`), why nothing ran (``not_run``, None: it ran), and the lead-in
    to the SCTP-vs-TCP conclusions judged again on the measurements (papers 000, 002 and 004)."""
    within, total = counts(frame)
    return (f"**Real stacks.** {within} of {total} published experimental cells of this paper are close to today's "
            f"stacks (the whole 95% interval of the emulated mean within 5% of the print"
            f"{'' if not_run is None else '; ' + not_run}). The SCTP-vs-TCP conclusions, re-judged on the "
            f"emulated measurements (a verdict only where the 95% CI decides):")


def summary_line(frame: pd.DataFrame) -> str:
    """Return the ledger summary line on how many published experimental cells the real stacks match (and the
    papers they belong to)."""
    within, total = counts(frame)
    run = int((frame["emulation"].isin(RAN) & (frame["column"] != REAL_STACKS)).sum())
    if run == 0:
        kinds = frame["emulation"]
        if (kinds == "not run by choice").any():
            why = NOT_RUN_BY_CHOICE
        elif (kinds == "machine cannot").any():
            why = f"{NOT_RUN_CANNOT} (the rows' reasons say why)"
        else:
            why = "the real-stack column was not run (the rows' reasons say why)"
        return f"{within} of {total} published experimental cells within 5% of the real stacks: {why}."
    exp = frame[(frame["emulation"] != "") & (frame["column"] != REAL_STACKS)]
    papers = ", ".join(sorted(exp["paper"].unique()))
    return (f"{within} of {total} published experimental cells within 5% of the real stacks "
            f"(papers {papers}; {run} cells emulated, the rest not run in this grid).")


def summary(frame: pd.DataFrame) -> str:
    """Return the ledger summary of ``frame`` (:func:`paperlib.ledger.summary`) closed by :func:`summary_line`."""
    return ledger.summary(frame).rstrip("\n") + "\n\n" + summary_line(frame) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the ledger summary with the emulated-cells line (``summary`` command); return the exit status.

    The summary is written again from the ledger (:func:`summary`), not edited: running it twice gives the same file.
    """
    p = argparse.ArgumentParser(prog="python -m paperlib.emulation.ledger_rows")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("summary", help="write the ledger summary with the emulated-cells line")
    s.add_argument("ledger", type=Path)
    s.add_argument("summary", type=Path)
    args = p.parse_args(argv)
    frame = ledger.read(args.ledger)
    atomic_write_text(args.summary, summary(frame))
    sys.stdout.write(summary_line(frame) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
