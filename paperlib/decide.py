"""How many replications would decide an interval that straddles its threshold.

A claim judged on a t-interval of a mean (paper 001's margins, the real stacks' measurements) is
``inconclusive`` when the interval straddles the claim's threshold. :func:`replications_to_decide` says
how many replications would decide it if the spread stayed what was measured; :func:`replications_text`
says it in words for the ledger's reason. The caller keeps the number as a typed value
(:attr:`paperlib.claims.Verdict.replications_to_decide`); no code reads it back out of the text.
"""

from __future__ import annotations

import math

#: Confidence of the t-intervals the package decides claims on.
CONFIDENCE = 0.95
#: Above this many replications the number is given as "more than" it (a deciding run that long is not a plan).
MAX_REPLICATIONS = 100_000


def t_quantile(n: int, confidence: float = CONFIDENCE) -> float:
    """Return the two-sided ``confidence`` quantile of Student's t with ``n - 1`` degrees of freedom.

    Parameters
    ----------
    n : replications (at least 2).
    confidence : the interval's coverage, in (0, 1).
    """
    from scipy import stats

    if n < 2:
        raise ValueError(f"n must be at least 2 for a t-interval, got {n}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(stats.t.ppf(0.5 + confidence / 2, n - 1))


def half_width(sd: float, n: int, confidence: float = CONFIDENCE) -> float:
    """Return the half-width ``t(n - 1) sd / sqrt(n)`` of the t-interval of a mean of ``n`` replications."""
    return t_quantile(n, confidence) * sd / math.sqrt(n)


def sd_from_half_width(half: float, n: int, confidence: float = CONFIDENCE) -> float:
    """Return the standard deviation of one replication behind a t-interval of half-width ``half`` over ``n``.

    The inverse of :func:`half_width`: ``half sqrt(n) / t(n - 1)``. For an interval that is not one
    sample's (e.g. :func:`paperlib.emulation.ledger_rows.mean_difference` of several cells of ``n``
    repetitions each) it is the spread per repetition that scales the same way with ``n``.
    """
    if not (half >= 0 and math.isfinite(half)):
        raise ValueError(f"half must be a finite number >= 0, got {half}")
    return half * math.sqrt(n) / t_quantile(n, confidence)


def replications_to_decide(distance: float, sd: float, confidence: float = CONFIDENCE,
                           cap: int = MAX_REPLICATIONS) -> float:
    """Return the fewest replications at which the interval would no longer straddle the threshold.

    The smallest ``n >= 2`` with ``t(n - 1) sd / sqrt(n) < distance``: the ``confidence`` t-interval's
    half-width at the observed standard deviation ``sd`` (of one replication) smaller than ``distance``,
    the distance of the observed mean from the claim's threshold. Assumes the mean and the spread stay
    what was measured (an estimate, not a promise: more replications move both). The half-width falls
    strictly with ``n``, so a bisection finds it. Returns ``math.inf`` when ``distance`` is 0 (no ``n``
    decides a mean on its threshold) or when more than ``cap`` would be needed; ``sd`` 0 gives 2.

    Parameters
    ----------
    distance : |mean - threshold|, in the claim's unit (>= 0).
    sd : standard deviation of one replication, same unit (>= 0).
    confidence : the interval's coverage.
    cap : the largest number returned as such.
    """
    for name, value in (("distance", distance), ("sd", sd)):
        if not (value >= 0 and math.isfinite(value)):
            raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    if cap < 2:
        raise ValueError(f"cap must be at least 2, got {cap}")
    if distance == 0:
        return math.inf
    if half_width(sd, 2, confidence) < distance:
        return 2.0
    if half_width(sd, cap, confidence) >= distance:
        return math.inf
    low, high = 2, cap  # half_width(low) >= distance > half_width(high)
    while high - low > 1:
        mid = (low + high) // 2
        if half_width(sd, mid, confidence) < distance:
            high = mid
        else:
            low = mid
    return float(high)


def replications_text(needed: float, cap: int = MAX_REPLICATIONS) -> str:
    """Return ``needed`` (from :func:`replications_to_decide`) as the reason says it.

    ``"about 37 replications would decide it"``, or ``"more than 100000 replications would decide it"``
    when it is infinite or above ``cap``.
    """
    if math.isnan(needed):
        raise ValueError("needed must be a number of replications, got nan")
    if math.isinf(needed) or needed > cap:
        return f"more than {cap} replications would decide it"
    return f"about {needed:.0f} replications would decide it"


def replications_from_interval(mean: float, half: float, n: int, threshold: float,
                               confidence: float = CONFIDENCE, cap: int = MAX_REPLICATIONS) -> float:
    """Return :func:`replications_to_decide` for an interval given as ``mean +/- half`` over ``n`` replications.

    The spread is :func:`sd_from_half_width`'s and the distance ``|mean - threshold|``.
    """
    return replications_to_decide(abs(mean - threshold), sd_from_half_width(half, n, confidence), confidence, cap)


def straddle_text(mean: float, half: float, threshold: float, needed: float, n: int) -> str:
    """Return the reason's sentence of an interval ``mean +/- half`` over ``n`` that straddles ``threshold``.

    ``"the 95% interval [-0.3, 0.7] straddles 0: about 12 replications would decide it at the measured
    spread (4 now)"``, ``needed`` being :func:`replications_to_decide`'s.
    """
    return (f"the {CONFIDENCE:.0%} interval [{mean - half:.3g}, {mean + half:.3g}] straddles {threshold:g}: "
            f"{replications_text(needed)} at the measured spread ({n} now)")


#: A real-stack verdict's second stage (:func:`clear_of`): an interval is clear of its threshold when its mean lies
#: at least this many half-widths from it.
CLEAR_HALF_WIDTHS = 2.0


def clear_of(mean: float, low: float, high: float, threshold: float = 0.0,
             half_widths: float = CLEAR_HALF_WIDTHS) -> bool:
    """Return whether the interval ``[low, high]`` of ``mean`` lies clear of ``threshold``: ``|mean - threshold|``
    at least ``half_widths`` times its half-width ``(high - low) / 2``.

    The test of a two-stage plan for measurements made in real time, whose replications differ from run to run: a
    claim decided by its first stage's interval stays decided only when the interval is clear of its threshold;
    otherwise (an interval that straddles the threshold, or one that excludes it by less than ``half_widths - 1``
    half-widths) its cells run a second stage and the verdict rests on both. A verdict near its threshold is the
    one a rerun turns over; the second stage shrinks the interval where that can happen and nowhere else. The test
    reads the interval, not which side of the threshold it lies on: it extends a claim about to be supported, refuted
    or left inconclusive alike. With ``half_widths`` 2 a first stage of ``n`` replications stops early with a verdict
    only when the mean's t statistic is at least twice the ``t(0.975, n - 1)`` quantile (4.5 at ``n`` = 10, a chance
    of 0.0015 when the mean is on its threshold), so the second look leaves the 5% level practically unchanged.
    An interval that is not a number (nan: fewer than two replications) is not clear.
    """
    if not (half_widths >= 1 and math.isfinite(half_widths)):
        raise ValueError(f"half_widths must be a finite number >= 1, got {half_widths}")
    values = (mean, low, high, threshold)
    if not all(math.isfinite(v) for v in values):
        return False
    if high < low:
        raise ValueError(f"the interval's high end {high} lies below its low end {low}")
    return abs(mean - threshold) >= half_widths * (high - low) / 2
