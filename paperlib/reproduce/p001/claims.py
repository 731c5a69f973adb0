"""Paper 001's observations, checked against the simulated testbed: one function per claim of data/001/claims.csv.

Every claim is a comparison of numbers read off a summary table of the testbed
(:func:`paperlib.reproduce.p001.findings.summarise`), with one convention for all of them:

* a configuration's **response time** is the 90th percentile of its response times (the
  paper's own reading of its CDFs, "90% of response time is less than ..."), pooled over the
  seeded repetitions; the spread of the repetitions' own 90th percentiles is reported beside it;
* "almost the same", "longer / less", "around N" are the readings of
  :mod:`~paperlib.reproduce.p001.decision_rule` (10 % and 20 % tolerances); the queue-size effect
  at a load is the **spread** max / min - 1 over the queue sizes;
* **queue occupancy** is the mean of the sampled backlog after the warm-up (Figs. 4, 5, 8).

Fig. 8's panels are taken as 8-A = RED-A and 8-B = RED-C with short latency, 8-C = RED-A and
8-D = RED-C with long latency (the caption names RED-A and RED-C, short and long RTT, queue
240, 98 % load; the text pairs A with B and C with D).

Each claim function below reads one summary (an :class:`Evidence`: the pooled one, or one
replication's) and returns a :class:`~paperlib.reproduce.p001.decision_rule.Reading` whose margin is
> 0 where the claim holds and < 0 where it fails. :func:`rule_claim` registers it in :data:`CLAIMS`
under its own name (the claim id) as a function of the whole :class:`Evidence` that returns a
:class:`paperlib.claims.Verdict`, judged by the decision rule across the replications (:func:`judged`);
:func:`claims_table` is every claim's verdict with its mean margin and the replications that would decide it
(the notebook's ``claims.csv``), ``CLAIMS.rows`` the ledger rows (``ledger_rows``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib.claims import ClaimRegistry, Verdict
from paperlib.data import Paper
from paperlib.reproduce.p001 import findings, testbed
from paperlib.reproduce.p001.decision_rule import (
    AROUND_TOL,
    SAME_TOL,
    Decision,
    Reading,
    around,
    decide,
    increasing,
    less,
    same,
    spread,
    values_text,
)

CLAIMS = ClaimRegistry("001", evidence="ns-3")

#: Fig. 9's pair: FIFO and RED-A at the same (180-packet) queue.
FIG9 = ("FIFO-180", "RED-A-180")


@dataclass(frozen=True, eq=False)
class Evidence:
    """One summary table read by configuration, load and latency set, with what paper 001 compares in it.

    The pooled evidence carries the ``replications``' own evidence (one summary each), on which the
    decision rule is applied; a replication's has none. It remembers the (config, load, latency) whose
    90th percentile it read, so that a claim's reason can say how far single repetitions' p90 stray in
    exactly the configurations it rests on.
    """

    summary: pd.DataFrame  # indexed by (config, load, latency), sorted
    loads: tuple[float, float, float]  # the paper's three loads, lowest first
    fifo: tuple[str, ...]  # the FIFO configurations, by queue size
    red480: tuple[str, ...]  # RED-A/B/C with the 480-packet queue
    red240: tuple[str, ...]  # RED-A/B/C with the 240-packet queue
    numbers: dict[str, float]  # the printed number of each claim of claims.csv that has one, by claim id
    replications: tuple[Evidence, ...] = ()
    touched: set = field(default_factory=set, repr=False)

    @classmethod
    def from_summaries(cls, pooled: pd.DataFrame, replications, paper: Paper) -> Evidence:
        """Return the evidence of a pooled summary and the replications' own summaries, on paper 001's setting."""
        g = findings.groups(testbed.queue_configs(paper))
        numbers = {r["id"]: float(r["printed"]) for _, r in paper.claims.cells.iterrows() if str(r["printed"]).strip()}
        setting = {"loads": tuple(testbed.loads(paper)), "fifo": tuple(g["fifo"]), "red480": tuple(g["red480"]),
                   "red240": tuple(g["red240"]), "numbers": numbers}

        def indexed(summary: pd.DataFrame) -> pd.DataFrame:
            return summary.set_index(["config", "load", "latency"]).sort_index()

        return cls(indexed(pooled), **setting, replications=tuple(cls(indexed(s), **setting) for s in replications))

    @classmethod
    def from_sweep(cls, sweep: pd.DataFrame, paper: Paper) -> Evidence:
        """Return the evidence of a sweep: summarised pooled and per replication (``rep``, in order)."""
        reps = sorted(sweep["rep"].unique())
        return cls.from_summaries(findings.summarise(sweep),
                                  [findings.summarise(sweep[sweep["rep"] == r]) for r in reps], paper)

    def fresh(self) -> Evidence:
        """Return the same evidence having read nothing yet."""
        return replace(self, touched=set())

    def get(self, config: str, load: float, latency: str, column: str = "p90_ms") -> float:
        """Return one number of the summary (the p90 in ms by default)."""
        if column == "p90_ms":
            self.touched.add((config, load, latency))
        return float(self.summary.loc[(config, load, latency), column])

    def by(self, configs, load: float, latency: str, column: str = "p90_ms") -> dict[str, float]:
        """Return {config: number} of ``configs`` at one load and latency set."""
        return {c: self.get(c, load, latency, column) for c in configs}

    def qspread(self, configs, load: float, latency: str) -> float:
        """Return the spread (max / min - 1) of the p90 of ``configs`` at one load and latency set."""
        return spread(list(self.by(configs, load, latency).values()))

    def rep_note(self) -> str:
        """Return how far single repetitions' p90 stray from each other in the configurations read (or "")."""
        keys = sorted(self.touched)
        if not keys or "p90_rep_min" not in self.summary:
            return ""
        rows = self.summary.loc[keys]
        worst = (rows["p90_rep_max"] / rows["p90_rep_min"] - 1).max()
        return f" [largest spread of single repetitions' p90 in these {len(keys)} configurations: {worst:.0%}]"


def judged(claim_id: str, evidence: Evidence) -> tuple[Verdict, Decision]:
    """Return claim ``claim_id`` judged on ``evidence``: its verdict and the decision rule's interval.

    The claim's reading of the pooled summary gives the number and the reason (with the spread of
    single repetitions' p90 in the configurations it read); its margin on every replication alone
    gives the interval and the status (:func:`~paperlib.reproduce.p001.decision_rule.decide`).
    """
    reading = CLAIMS.functions[claim_id].reading
    pooled = evidence.fresh()
    found = reading(pooled)
    note = pooled.rep_note()
    decision = decide([reading(r.fresh()).margin for r in evidence.replications])
    needed = decision.n_needed if decision.status == "inconclusive" else None
    return Verdict(decision.status, f"{decision.sentence(found)}. {found.reason}{note}", found.regenerated,
                   replications_to_decide=needed, interval95=(decision.low, decision.high),
                   n=decision.n), decision


def rule_claim(reading: Callable[[Evidence], Reading]) -> Callable[[Evidence], Verdict]:
    """Register ``reading`` as the function of the claim id of its name, judged by the decision rule; return it.

    The returned function takes the pooled :class:`Evidence` and returns a :class:`paperlib.claims.Verdict`
    (:func:`judged`); the reading of one summary stays at its ``reading`` attribute.
    """

    @functools.wraps(reading)
    def judge(evidence: Evidence) -> Verdict:
        """Return the claim judged on ``evidence`` (docstring replaced by the reading's)."""
        return judged(reading.__name__, evidence)[0]

    judge.reading = reading
    CLAIMS.claim(reading.__name__)(judge)
    return judge


def claims_table(paper: Paper, evidence: Evidence) -> pd.DataFrame:
    """Return every claim of ``claims.csv`` (in its order) judged on ``evidence``: the notebook's ``claims.csv``.

    Columns: ``claim`` (id), ``status``, ``regenerated``, ``reason``, ``margin`` (the mean margin across
    the replications) and ``replications_to_decide`` (of an inconclusive claim, NaN otherwise; inf: more than
    :data:`paperlib.decide.MAX_REPLICATIONS`).
    """
    CLAIMS.check_against(paper)
    rows = []
    for claim_id in paper.claims.cells["id"]:
        verdict, decision = judged(claim_id, evidence)
        needed = verdict.replications_to_decide
        rows.append({"claim": claim_id, "status": verdict.status, "regenerated": verdict.regenerated,
                     "reason": verdict.reason, "margin": decision.mean,
                     "replications_to_decide": float("nan") if needed is None else needed})
    return pd.DataFrame(rows)


# --- helpers of the claims below ---


def _mean_p90(r: Evidence, configs, load: float, latency: str) -> float:
    return np.mean(list(r.by(configs, load, latency).values()))


def _fifo_queue_spreads(r: Evidence, loads) -> dict[tuple[float, str], float]:
    """Return the spread of FIFO's p90 over its queue sizes, by (load, latency), at ``loads``."""
    return {(x, lat): r.qspread(r.fifo, x, lat) for x in loads for lat in ("short", "long")}


def _red240_p90(r: Evidence, latency: str) -> tuple[float, float, float]:
    """Return the p90 of RED-A/B/C with the 240-packet queue at the high load."""
    return tuple(r.get(n, r.loads[2], latency) for n in r.red240)


def _red240_queue(r: Evidence, config_index: int, latency: str) -> float:
    return r.get(r.red240[config_index], r.loads[2], latency, "mean_queue")


# --- FIFO (Section 3.1, Figs. 3-5) ---


@rule_claim
def fifo_queue_size_same(r: Evidence) -> Reading:
    """FIFO-60/120/180's p90 at 80% are almost the same, short and long latency: spread <= SAME_TOL in both."""
    lo = r.loads[0]
    return same({f"{lat}, {lo:.0%}": r.by(r.fifo, lo, lat) for lat in ("short", "long")},
                f"FIFO queue sizes at {lo:.0%}")


@rule_claim
def fifo_intensity_increases(r: Evidence) -> Reading:
    """Every FIFO configuration's p90 rises strictly from 80 to 90 to 98%, short and long latency."""
    return increasing({f"{c} {lat}": {f"{x:.0%}": r.get(c, x, lat) for x in r.loads}
                       for c in r.fifo for lat in ("short", "long")}, "FIFO p90 at 80/90/98%")


@rule_claim
def fifo_intensity_more_than_queue(r: Evidence) -> Reading:
    """FIFO's p90 spreads more over the loads than over the queue sizes (mean spreads; margin their difference)."""
    loads, fifo = r.loads, r.fifo
    load_effect = np.mean([spread([r.get(c, x, lat) for x in loads]) for c in fifo for lat in ("short", "long")])
    queue_effect = np.mean([r.qspread(fifo, x, lat) for x in loads for lat in ("short", "long")])
    return Reading(load_effect > queue_effect, load_effect / queue_effect if queue_effect else None,
                   f"mean spread of FIFO p90 over the loads {load_effect:.0%} vs over the queue sizes "
                   f"{queue_effect:.0%}",
                   load_effect - queue_effect)


@rule_claim
def fifo_80_short_500(r: Evidence) -> Reading:
    """FIFO's p90 at 80%, short latency (mean over queue sizes) is 'less than around' the printed 500 ms."""
    lo = r.loads[0]
    return around(_mean_p90(r, r.fifo, lo, "short"), r.numbers["fifo_80_short_500"],
                  f"FIFO {lo:.0%} short: p90 (mean over queue sizes, ms)", True)


@rule_claim
def fifo_80_long_1200(r: Evidence) -> Reading:
    """FIFO's p90 at 80%, long latency (mean over queue sizes) is 'less than around' the printed 1200 ms."""
    lo = r.loads[0]
    return around(_mean_p90(r, r.fifo, lo, "long"), r.numbers["fifo_80_long_1200"],
                  f"FIFO {lo:.0%} long: p90 (mean over queue sizes, ms)", True)


@rule_claim
def fifo_98_longer_larger_queue(r: Evidence) -> Reading:
    """At 98%, FIFO's p90 rises strictly with the queue size (60, 120, 180), short and long latency."""
    hi = r.loads[2]
    return increasing({lat: r.by(r.fifo, hi, lat) for lat in ("short", "long")},
                      f"FIFO p90 at {hi:.0%} by queue size")


@rule_claim
def fifo_diff_90_98(r: Evidence) -> Reading:
    """The spread of FIFO's p90 over queue sizes is larger at 90% and 98% than at 80%, in both latency sets."""
    lo, mid, hi = r.loads
    s = _fifo_queue_spreads(r, r.loads)
    ok = all(s[(x, lat)] > s[(lo, lat)] for x in (mid, hi) for lat in ("short", "long"))
    return Reading(ok, None,
                   "spread of FIFO p90 over queue sizes: "
                   + ", ".join(f"{x:.0%} {lat} {s[(x, lat)]:.0%}" for x, lat in s),
                   min(s[(x, lat)] - s[(lo, lat)] for x in (mid, hi) for lat in ("short", "long")))


@rule_claim
def fifo_diff_short_latency(r: Evidence) -> Reading:
    """At 90% and 98%, the spread of FIFO's p90 over queue sizes is larger with short latency than with long."""
    _, mid, hi = r.loads
    s = _fifo_queue_spreads(r, (mid, hi))
    ok = all(s[(x, "short")] > s[(x, "long")] for x in (mid, hi))
    return Reading(ok, None, "spread over queue sizes, short vs long: " +
                   ", ".join(f"{x:.0%} {s[(x, 'short')]:.0%} vs {s[(x, 'long')]:.0%}" for x in (mid, hi)),
                   min(s[(x, "short")] - s[(x, "long")] for x in (mid, hi)))


@rule_claim
def occupancy_intensity(r: Evidence) -> Reading:
    """Every FIFO configuration's mean queue rises strictly from 80 to 90 to 98%, short and long latency."""
    return increasing({f"{c} {lat}": {f"{x:.0%}": r.get(c, x, lat, "mean_queue") for x in r.loads}
                       for c in r.fifo for lat in ("short", "long")}, "FIFO mean queue (packets) by load", "")


@rule_claim
def occupancy_longer_queue(r: Evidence) -> Reading:
    """FIFO's mean queue rises strictly with the queue size at every load and latency set."""
    return increasing({f"{x:.0%} {lat}": r.by(r.fifo, x, lat, "mean_queue")
                       for x in r.loads for lat in ("short", "long")},
                      "FIFO mean queue (packets) by queue size", "")


@rule_claim
def occupancy_long_latency_fewer(r: Evidence) -> Reading:
    """At 90%, every FIFO queue holds fewer packets on average with long latency than with short."""
    mid, fifo = r.loads[1], r.fifo
    short_q, long_q = r.by(fifo, mid, "short", "mean_queue"), r.by(fifo, mid, "long", "mean_queue")
    return Reading(all(long_q[c] < short_q[c] for c in fifo), None,
                   f"FIFO mean queue at {mid:.0%}, long vs short: " +
                   ", ".join(f"{c} {long_q[c]:.1f} vs {short_q[c]:.1f}" for c in fifo),
                   min(short_q[c] - long_q[c] for c in fifo))


@rule_claim
def drops_short_latency(r: Evidence) -> Reading:
    """At 90% and 98%, FIFO drops more with short latency than long, and its queue-size spread is larger too."""
    _, mid, hi = r.loads
    fifo = r.fifo
    s = _fifo_queue_spreads(r, (mid, hi))
    d_short = {x: np.mean(list(r.by(fifo, x, "short", "drop_rate").values())) for x in (mid, hi)}
    d_long = {x: np.mean(list(r.by(fifo, x, "long", "drop_rate").values())) for x in (mid, hi)}
    ok = all(d_short[x] > d_long[x] and s[(x, "short")] > s[(x, "long")] for x in (mid, hi))
    return Reading(ok, None,
                   "FIFO drop rate short vs long: "
                   + ", ".join(f"{x:.0%} {d_short[x]:.2%} vs {d_long[x]:.2%}" for x in (mid, hi))
                   + "; queue-size spread short vs long: "
                   + ", ".join(f"{x:.0%} {s[(x, 'short')]:.0%} vs {s[(x, 'long')]:.0%}" for x in (mid, hi)),
                   min(min(d_short[x] - d_long[x], s[(x, "short")] - s[(x, "long")]) for x in (mid, hi)))


# --- RED (Section 3.2, Figs. 6-8) ---


@rule_claim
def red_80_short_500(r: Evidence) -> Reading:
    """RED-A/B/C (queue 480)'s p90 at 80%, short latency (their mean) is 'less than around' the printed 500 ms."""
    lo = r.loads[0]
    return around(_mean_p90(r, r.red480, lo, "short"), r.numbers["red_80_short_500"],
                  f"RED (qlen 480) {lo:.0%} short: p90 (mean of A/B/C, ms)", True)


@rule_claim
def red_80_long_1200(r: Evidence) -> Reading:
    """RED-A/B/C (queue 480)'s p90 at 80%, long latency (their mean) is 'less than around' the printed 1200 ms."""
    lo = r.loads[0]
    return around(_mean_p90(r, r.red480, lo, "long"), r.numbers["red_80_long_1200"],
                  f"RED (qlen 480) {lo:.0%} long: p90 (mean of A/B/C, ms)", True)


@rule_claim
def red_98_short_700(r: Evidence) -> Reading:
    """RED-A/B/C (queue 480)'s p90 at 98%, short latency (their mean) is around the printed 700 ms (AROUND_TOL)."""
    hi = r.loads[2]
    return around(_mean_p90(r, r.red480, hi, "short"), r.numbers["red_98_short_700"],
                  f"RED (qlen 480) {hi:.0%} short: p90 (mean of A/B/C, ms)")


@rule_claim
def red_98_long_1500(r: Evidence) -> Reading:
    """RED-A/B/C (queue 480)'s p90 at 98%, long latency (their mean) is around the printed 1500 ms (AROUND_TOL)."""
    hi = r.loads[2]
    return around(_mean_p90(r, r.red480, hi, "long"), r.numbers["red_98_long_1500"],
                  f"RED (qlen 480) {hi:.0%} long: p90 (mean of A/B/C, ms)")


@rule_claim
def red_intensity_increases(r: Evidence) -> Reading:
    """Every RED configuration with queue 480 has a p90 rising strictly from 80 to 90 to 98%, both latency sets."""
    return increasing({f"{c} {lat}": {f"{x:.0%}": r.get(c, x, lat) for x in r.loads}
                       for c in r.red480 for lat in ("short", "long")}, "RED (qlen 480) p90 by load")


@rule_claim
def red_params_same(r: Evidence) -> Reading:
    """RED-A/B/C with queue 480 give almost the same p90 at every load and latency set (spread <= SAME_TOL)."""
    return same({f"{x:.0%} {lat}": r.by(r.red480, x, lat)
                 for x in r.loads for lat in ("short", "long")},
                "RED-A/B/C, qlen 480, every load and latency")


@rule_claim
def red_480_same(r: Evidence) -> Reading:
    """RED-A/B/C with queue 480 give almost the same p90 at 98% (Fig. 7), short and long latency."""
    hi = r.loads[2]
    return same({f"{hi:.0%} {lat}": r.by(r.red480, hi, lat) for lat in ("short", "long")},
                f"RED-A/B/C, qlen 480, {hi:.0%} (Fig. 7)")


@rule_claim
def red_240_c_longer_short(r: Evidence) -> Reading:
    """With queue 240 at 98%, RED-C's p90 exceeds max(RED-A, RED-B) by > SAME_TOL with short latency, not long."""
    hi = r.loads[2]
    a, b, c = _red240_p90(r, "short")
    la, lb, lc = _red240_p90(r, "long")
    longer_short = c > max(a, b) * (1 + SAME_TOL)
    longer_long = lc > max(la, lb) * (1 + SAME_TOL)
    return Reading(longer_short and not longer_long, c / max(a, b) - 1,
                   f"qlen 240, {hi:.0%}: short A/B/C {a:.0f}/{b:.0f}/{c:.0f} ms, long {la:.0f}/{lb:.0f}/{lc:.0f} ms; "
                   f"needs C > max(A, B) by > {SAME_TOL:.0%} in short and not in long",
                   min(c / (max(a, b) * (1 + SAME_TOL)) - 1, 1 - lc / (max(la, lb) * (1 + SAME_TOL))))


@rule_claim
def red_240_short_differ_long_same(r: Evidence) -> Reading:
    """With queue 240 at 98%, RED-A/B/C's p90 spread exceeds SAME_TOL with short latency and not with long."""
    hi = r.loads[2]
    ss, sl = spread(_red240_p90(r, "short")), spread(_red240_p90(r, "long"))
    return Reading(ss > SAME_TOL >= sl, ss,
                   f"qlen 240, {hi:.0%}: spread of A/B/C short {ss:.0%}, long {sl:.0%} "
                   f"(differ > {SAME_TOL:.0%} >= same)",
                   min(ss - SAME_TOL, SAME_TOL - sl))


@rule_claim
def fig8b_above_150(r: Evidence) -> Reading:
    """Fig. 8-B (RED-C, queue 240, 98%, short): the mean queue is 'much higher' than 150: > 150 (1 + SAME_TOL)."""
    hi, n150 = r.loads[2], r.numbers["fig8b_above_150"]
    qb = _red240_queue(r, 2, "short")
    return Reading(qb > n150 * (1 + SAME_TOL), qb,
                   f"mean queue RED-C, qlen 240, {hi:.0%}, short (8-B) = {qb:.1f} packets; 'much higher' needs "
                   f"> {n150 * (1 + SAME_TOL):g}", qb / (n150 * (1 + SAME_TOL)) - 1)


@rule_claim
def fig8a_below_150(r: Evidence) -> Reading:
    """Fig. 8-A (RED-A, queue 240, 98%, short): the mean queue is 'a little less' than 150.

    Met in [150 (1 - AROUND_TOL), 150); margin the distance to the nearer end, relative.
    """
    hi, n150, below = r.loads[2], r.numbers["fig8b_above_150"], r.numbers["fig8a_below_150"]
    qa = _red240_queue(r, 0, "short")
    return Reading(n150 * (1 - AROUND_TOL) <= qa < below, qa,
                   f"mean queue RED-A, qlen 240, {hi:.0%}, short (8-A) = {qa:.1f}; 'a little less' needs "
                   f"[{n150 * (1 - AROUND_TOL):g}, {n150:g})",
                   min(qa / (n150 * (1 - AROUND_TOL)) - 1, 1 - qa / below))


@rule_claim
def fig8_ab_response_differ(r: Evidence) -> Reading:
    """Figs. 8-A/B: RED-A's and RED-C's p90 (queue 240, 98%, short) differ by more than SAME_TOL."""
    hi, red240 = r.loads[2], r.red240
    a, c = r.get(red240[0], hi, "short"), r.get(red240[2], hi, "short")
    return Reading(spread([a, c]) > SAME_TOL, spread([a, c]),
                   f"p90 RED-A vs RED-C, qlen 240, {hi:.0%}, short: {a:.0f} vs {c:.0f} ms", spread([a, c]) - SAME_TOL)


@rule_claim
def fig8d_around_150(r: Evidence) -> Reading:
    """Fig. 8-D (RED-C, queue 240, 98%, long): the mean queue is around the printed 150 packets (AROUND_TOL)."""
    hi = r.loads[2]
    return around(_red240_queue(r, 2, "long"), r.numbers["fig8d_around_150"],
                  f"mean queue RED-C, qlen 240, {hi:.0%}, long (8-D)")


@rule_claim
def fig8c_around_100(r: Evidence) -> Reading:
    """Fig. 8-C (RED-A, queue 240, 98%, long): the mean queue is around the printed 100 packets (AROUND_TOL)."""
    hi = r.loads[2]
    return around(_red240_queue(r, 0, "long"), r.numbers["fig8c_around_100"],
                  f"mean queue RED-A, qlen 240, {hi:.0%}, long (8-C)")


@rule_claim
def fig8_cd_response_similar(r: Evidence) -> Reading:
    """Figs. 8-C/D: RED-A and RED-C (queue 240, 98%) differ less in p90 with long latency than with short."""
    hi, red240 = r.loads[2], r.red240
    a, c = r.get(red240[0], hi, "short"), r.get(red240[2], hi, "short")
    la, lc = r.get(red240[0], hi, "long"), r.get(red240[2], hi, "long")
    dl, ds = spread([la, lc]), spread([a, c])
    return Reading(dl < ds, dl, f"RED-A vs RED-C p90 difference, long {dl:.0%} vs short {ds:.0%}", ds - dl)


# --- FIFO against RED (Section 4, Fig. 9) and the conclusions ---


@rule_claim
def fifo_red_80_short_same(r: Evidence) -> Reading:
    """Fig. 9: FIFO-180 and RED-A-180 give almost the same p90 at 80%, short latency (spread <= SAME_TOL)."""
    f, ra = FIG9
    lo = r.loads[0]
    return same({f"{lo:.0%} short": r.by([f, ra], lo, "short")}, f"{f} vs {ra}")


@rule_claim
def fifo_red_98_long_differ(r: Evidence) -> Reading:
    """Fig. 9: FIFO-180 and RED-A-180 differ 'apparently' at 98%, long latency: p90 spread > SAME_TOL."""
    f, ra = FIG9
    hi = r.loads[2]
    d = spread(list(r.by([f, ra], hi, "long").values()))
    return Reading(d > SAME_TOL, d, f"{f} vs {ra} at {hi:.0%} long: {values_text(r.by([f, ra], hi, 'long'))} "
                                         f"(apparently different: spread > {SAME_TOL:.0%})", d - SAME_TOL)


@rule_claim
def fifo_red_small_queue_same(r: Evidence) -> Reading:
    """Fig. 9: FIFO-180 and RED-A-180 give almost the same p90 at 98%, short latency (spread <= SAME_TOL)."""
    f, ra = FIG9
    hi = r.loads[2]
    return same({f"{hi:.0%} short": r.by([f, ra], hi, "short")}, f"{f} vs {ra}")


@rule_claim
def red_better_long_latency(r: Evidence) -> Reading:
    """Fig. 9: RED-A-180's p90 at 98%, long latency is less than FIFO-180's by more than SAME_TOL."""
    f, ra = FIG9
    hi = r.loads[2]
    return less((ra, r.get(ra, hi, "long")), (f, r.get(f, hi, "long")), f"{hi:.0%}, long latency")


def _red240_best(r: Evidence, latencies=("short", "long")) -> tuple[dict[str, str], dict[str, float]]:
    """Return the queue-240 configuration with the lowest p90 at 98% by latency, and RED-A's lead over the others."""
    hi, red240 = r.loads[2], r.red240
    best = {lat: min(r.by(red240, hi, lat), key=r.by(red240, hi, lat).get) for lat in latencies}
    lead = {lat: min(x for n, x in r.by(red240, hi, lat).items() if n != red240[0]) / r.get(red240[0], hi, lat) - 1
            for lat in latencies}
    return best, lead


@rule_claim
def red_a_better_small_queue(r: Evidence) -> Reading:
    """With queue 240 at 98%, RED-A has the lowest p90 of RED-A/B/C, short and long latency (margin its lead)."""
    hi, red240 = r.loads[2], r.red240
    best, lead = _red240_best(r)
    return Reading(all(b == red240[0] for b in best.values()), None,
                   f"qlen 240, {hi:.0%}: lowest p90 short {best['short']} ({values_text(r.by(red240, hi, 'short'))}); "
                   f"long {best['long']} ({values_text(r.by(red240, hi, 'long'))})", min(lead.values()))


@rule_claim
def red_a_beneficial(r: Evidence) -> Reading:
    """At 98%, long latency: RED-A-180 beats FIFO-180 by more than SAME_TOL and RED-A is the best queue-240 RED."""
    f, ra = FIG9
    hi, red240 = r.loads[2], r.red240
    best, lead = _red240_best(r, ("long",))
    vs_fifo = r.get(ra, hi, "long") * (1 + SAME_TOL) < r.get(f, hi, "long")
    return Reading(vs_fifo and best["long"] == red240[0], None,
                   f"{hi:.0%}, long: {ra} vs {f} p90 {r.get(ra, hi, 'long'):.0f} vs {r.get(f, hi, 'long'):.0f} ms; "
                   f"qlen 240 best {best['long']}",
                   min(r.get(f, hi, "long") / (r.get(ra, hi, "long") * (1 + SAME_TOL)) - 1, lead["long"]))


@rule_claim
def long_latency_larger(r: Evidence) -> Reading:
    """Every configuration at every load has a larger p90 with long latency than with short (margin min ratio - 1)."""
    pairs = [(cfg, x) for cfg in r.summary.index.get_level_values("config").unique() for x in r.loads]
    worse = [(cfg, x) for cfg, x in pairs if not r.get(cfg, x, "long") > r.get(cfg, x, "short")]
    ratio = np.mean([r.get(cfg, x, "long") / r.get(cfg, x, "short") for cfg, x in pairs])
    return Reading(not worse, ratio,
                   f"p90 long / short over all {len(pairs)} configuration-loads: mean {ratio:.2f}"
                   + (f"; not larger: {worse}" if worse else ""),
                   min(r.get(cfg, x, "long") / r.get(cfg, x, "short") - 1 for cfg, x in pairs))


@rule_claim
def red_beneficial_conclusion(r: Evidence) -> Reading:
    """At 90% and 98%, long latency, RED-A-180's p90 is less than FIFO-180's by more than SAME_TOL."""
    f, ra = FIG9
    highs = r.loads[1:]
    wins = {x: r.get(ra, x, "long") * (1 + SAME_TOL) < r.get(f, x, "long") for x in highs}
    return Reading(all(wins.values()), None,
                   f"{ra} vs {f}, long latency: " + ", ".join(
                       f"{x:.0%} {r.get(ra, x, 'long'):.0f} vs {r.get(f, x, 'long'):.0f} ms" for x in highs)
                   + f" (RED 'less' needs < -{SAME_TOL:.0%})",
                   min(r.get(f, x, "long") / (r.get(ra, x, "long") * (1 + SAME_TOL)) - 1 for x in highs))


# --- the same claims on the other workload ---


def other_workload_verdicts(path) -> dict[str, str]:
    """Return {claim id: status} of the other workload's run (its ``claims.csv``), or {} when it has not been run."""
    path = Path(path)
    if not path.exists():
        return {}
    table = pd.read_csv(path)
    return dict(zip(table["claim"], table["status"], strict=True))


def flip_table(found: pd.DataFrame, other: dict[str, str]) -> pd.DataFrame:
    """Return every claim's status on this workload and on the other, and whether it depends on the workload.

    ``found`` is :func:`claims_table`'s frame (``claim``, ``status``), ``other`` :func:`other_workload_verdicts`.
    """
    rows = [{"claim": claim, "this_workload": status, "other_workload": other.get(claim, ""),
             "depends_on_workload": bool(other) and other.get(claim, status) != status}
            for claim, status in zip(found["claim"], found["status"], strict=True)]
    return pd.DataFrame(rows)


def other_workload_path(compare_with, profile: str) -> str:
    """Return the other workload's ``claims.csv``: ``compare_with``, or the other profile's default output."""
    return compare_with or ("../figures/001/claims.csv" if profile == "sensitivity"
                            else "../figures/001-sensitivity/claims.csv")


def flip_sentence(flips: pd.DataFrame, other: dict[str, str], other_path) -> str:
    """Return how many verdicts differ on the other workload, or that it has not been run."""
    return (f"verdicts that differ on the other workload ({other_path}): "
            f"{int(flips.depends_on_workload.sum())} of {len(flips)}" if other
            else f"no run of the other workload at {other_path}")
