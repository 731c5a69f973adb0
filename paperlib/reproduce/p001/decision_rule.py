"""Paper 001's decision rule: how a claim read as a margin on every replication becomes a verdict.

The paper reads its CDFs by eye ("almost the same", "apparently longer", "around 500 ms"). Each
claim is turned into a **margin**, > 0 where the claim holds and < 0 where it fails (its distance
from the claim's threshold), computed on one summary table at a time: a :class:`Reading`. The
shared readings are here, with their tolerances:

* two or more numbers are **almost the same** (:func:`same`) when the largest exceeds the smallest
  by at most :data:`SAME_TOL` (10 %): margin ``SAME_TOL - spread``;
* a series is **increasing** (:func:`increasing`) when every step is positive: margin the smallest
  relative step;
* a number is **around** N (:func:`around`) when within :data:`AROUND_TOL` (20 %) of N, "less than
  around N" when below N (1 + AROUND_TOL);
* one number is **less** than another (:func:`less`) when it is below the other by more than
  :data:`SAME_TOL`.

:func:`decide` applies :data:`RULE` to the margins of the replications: a t-interval of their
mean, ``supported`` above 0, ``refuted`` below, ``inconclusive`` otherwise, with the replications that would
decide it (:func:`paperlib.decide.replications_to_decide`); fewer than two replications give no interval and
leave the claim ``untestable`` (a :class:`Decision`).
The claims themselves are :mod:`~paperlib.reproduce.p001.claims`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperlib import decide as shared
from paperlib.decide import replications_text

#: Two numbers are "almost the same" when the larger exceeds the smaller by at most this share.
SAME_TOL = 0.10
#: A number is "around" N when within this share of N.
AROUND_TOL = 0.20
#: Confidence of the interval of the mean margin, and the fewest replications that decide a claim.
CONFIDENCE = 0.95
MIN_REPS = 10
#: The decision rule, fixed before any run (printed in the notebook, quoted in every claim's reason).
RULE = (f"Each claim is turned into a margin (> 0 where it holds, < 0 where it fails, its distance from the "
        f"claim's threshold) computed on every replication alone; replications are the unit of evidence and "
        f"repetition r of every configuration shares its workload and simulator seed (common random numbers), so "
        f"margins that compare configurations are paired. The claim is 'supported' when the {CONFIDENCE:.0%} "
        f"t-interval of the mean margin across at least {MIN_REPS} replications lies above 0, 'refuted' when it lies "
        f"below 0, otherwise 'inconclusive', with the interval and the replications that would decide it: the "
        f"fewest n (at least {MIN_REPS}) at which the t-interval's half-width at the observed standard deviation s, "
        f"t(n - 1) s / sqrt(n), is smaller than the mean's distance from 0; with fewer than 2 replications "
        f"'untestable'.")


@dataclass(frozen=True)
class Reading:
    """What one summary table says about a claim: its margin, whether its threshold is met, its number, why."""

    holds: bool  # the claim's threshold met on this summary
    regenerated: float | None  # the number the verdict rests on (in the claim's unit), if one
    reason: str
    margin: float  # > 0 where the claim holds, < 0 where it fails (its distance from the threshold)


@dataclass(frozen=True)
class Decision:
    """:data:`RULE` applied to per-replication margins: the status and the interval of the mean margin."""

    status: str  # supported / refuted / inconclusive (untestable: fewer than 2 replications)
    mean: float
    low: float
    high: float
    n: int  # replications with a finite margin
    n_needed: float  # replications that would decide it (n when decided; inf: more than decide's cap)

    def sentence(self, pooled: Reading) -> str:
        """Return the interval as the claim's reason opens it, with what would decide it when inconclusive."""
        text = (f"margin over {self.n} replications: mean {self.mean:+.3f}, {CONFIDENCE:.0%} CI "
                f"[{self.low:+.3f}, {self.high:+.3f}]")
        if self.status == "inconclusive":
            text += (f"; the interval straddles 0 (pooled reading: {status_word(pooled.holds)}); "
                     f"{replications_text(self.n_needed)}" if self.n >= MIN_REPS
                     else f"; fewer than {MIN_REPS} replications; {replications_text(self.n_needed)}")
        elif self.status == "untestable":
            text += "; fewer than 2 replications, so no interval"
        return text


def status_word(holds: bool) -> str:
    """Return ``"supported"`` or ``"refuted"``: a reading's threshold met or not."""
    return "supported" if holds else "refuted"


def decide(margins) -> Decision:
    """Return the :class:`Decision` of :data:`RULE` for per-replication ``margins`` (non-finite ones left out).

    Replications that would decide an ``inconclusive`` claim: :func:`paperlib.decide.replications_to_decide`
    at the mean's distance from 0 and the margins' standard deviation, never fewer than :data:`MIN_REPS`.
    """
    m = np.asarray(margins, dtype=float)
    m = m[np.isfinite(m)]
    n = len(m)
    if n < 2:
        nan = float("nan")
        return Decision("untestable", float(m.mean()) if n else nan, nan, nan, n, nan)
    mean, sd = float(m.mean()), float(m.std(ddof=1))
    half = shared.half_width(sd, n, CONFIDENCE)
    low, high = mean - half, mean + half
    if n >= MIN_REPS and low > 0:
        return Decision("supported", mean, low, high, n, float(n))
    if n >= MIN_REPS and high < 0:
        return Decision("refuted", mean, low, high, n, float(n))
    needed = shared.replications_to_decide(abs(mean), sd, CONFIDENCE)
    return Decision("inconclusive", mean, low, high, n, max(needed, float(MIN_REPS)))


# --- the shared readings ---


def spread(values) -> float:
    """Return max / min - 1 of positive numbers."""
    values = np.asarray(values, dtype=float)
    return float(values.max() / values.min() - 1)


def values_text(values: dict, unit: str = "ms") -> str:
    """Return ``{name: number}`` as ``"name 123 ms, ..."`` (``unit`` "": one decimal, no unit)."""
    return ", ".join(f"{k} {v:.0f} {unit}" if unit else f"{k} {v:.1f}" for k, v in values.items())


def same(groups: dict[str, dict], what: str) -> Reading:
    """Return whether every group's values are almost the same: margin SAME_TOL - the largest spread."""
    spreads = {name: spread(list(vals.values())) for name, vals in groups.items()}
    detail = "; ".join(f"{name}: {values_text(vals)} (spread {spreads[name]:.0%})" for name, vals in groups.items())
    largest = max(spreads.values())
    return Reading(largest <= SAME_TOL, largest,
                   f"{what}; p90 {detail}; almost the same means spread <= {SAME_TOL:.0%}", SAME_TOL - largest)


def increasing(series: dict[str, dict], what: str, unit: str = "ms") -> Reading:
    """Return whether every series increases strictly in its order: margin the smallest relative step."""
    bad = [name for name, vals in series.items() if not np.all(np.diff(list(vals.values())) > 0)]
    detail = "; ".join(f"{name}: {values_text(vals, unit)}" for name, vals in series.items())
    tail = f" (not increasing: {', '.join(bad)})" if bad else ""
    arrays = (np.asarray(list(x.values()), float) for x in series.values())
    steps = [np.min(np.diff(v) / np.abs(v[:-1])) for v in arrays]
    return Reading(not bad, None, f"{what}: {detail}{tail}", float(min(steps)))


def around(value: float, target: float, what: str, upper_bound: bool = False) -> Reading:
    """Return whether ``value`` is around ``target`` (within AROUND_TOL), or with ``upper_bound`` below it.

    "Below" means at most ``target (1 + AROUND_TOL)``. Margin: ``target (1 + AROUND_TOL) / value - 1`` for the
    bound, ``AROUND_TOL - |value / target - 1|`` otherwise.
    """
    if upper_bound:
        holds = value <= target * (1 + AROUND_TOL)
        rule = f"'less than around {target:g}' met when <= {target * (1 + AROUND_TOL):g}"
        margin = target * (1 + AROUND_TOL) / value - 1
    else:
        holds = abs(value / target - 1) <= AROUND_TOL
        rule = f"'around {target:g}' met within {AROUND_TOL:.0%}"
        margin = AROUND_TOL - abs(value / target - 1)
    return Reading(holds, value, f"{what} = {value:.0f}; {rule}", margin)


def less(a: tuple[str, float], b: tuple[str, float], what: str) -> Reading:
    """Return whether a (name, p90) is less than b by more than SAME_TOL: margin b / (a (1 + SAME_TOL)) - 1."""
    return Reading(a[1] * (1 + SAME_TOL) < b[1], a[1] / b[1] - 1,
                   f"{what}: p90 {a[0]} {a[1]:.0f} ms vs {b[0]} {b[1]:.0f} ms ({a[1] / b[1] - 1:+.0%}; "
                   f"'less' needs < -{SAME_TOL:.0%} relative to the other)", b[1] / (a[1] * (1 + SAME_TOL)) - 1)
