"""How many replications a real-stack question runs: a pilot, then a power calculation at the model's effect.

The rule (:data:`RULE`), fixed before any run and the same for every paper:

1. every cell a question reads runs :data:`PILOT` replications (the pilot);
2. the pilot's 95% interval of the question's quantity, half-width ``h0`` over ``n0`` replications, gives the
   spread of one replication, ``s = h0 sqrt(n0) / t(0.975, n0 - 1)`` (:func:`paperlib.decide.sd_from_half_width`);
3. the question then runs the smallest ``n`` in [``n0``, :data:`CAP`] at which a two-sided t-test at the 5% level
   has power :data:`POWER` against the effect the model predicts, ``delta`` (the model's distance from the
   question's threshold): ``(t(0.975, n - 1) + t(POWER, n - 1)) s / sqrt(n) <= |delta|``
   (:func:`replications_for_power`; the usual sample size of a t-test with t quantiles in place of normal ones,
   Cohen, *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., 1988, ch. 2);
4. when even :data:`CAP` replications do not reach that power, the question runs :data:`CAP` and its ledger row
   gives the ``n`` the rule asks for (``Plan.n_needed``).

A published measurement measured again on the real stacks (a ledger cell scored by
:func:`paperlib.ledger.measured_status`, :data:`MEASURED_RULE`) runs a fixed number of replications,
:data:`MEASURED_REPLICATIONS`, whatever its pilot shows: its pilot's spread gives only the number the power rule
would ask for at a difference of :data:`paperlib.ledger.CLOSE` (5%) of the printed value, the smallest the ledger
tells apart from the print (``measured_close``), reported beside it (:func:`measured_plan`). A pilot of five runs
of a transfer that sometimes waits for a retransmission timeout often holds no timeout: its spread then understates
the cell's, the rule asked for the pilot alone, and the cell's status rested on five runs that a rerun with one
timeout among its pilot took to twenty and decided otherwise.

The rule reads the pilot's spread, never its mean: extending a cell cannot chase a verdict. Re-estimating the size
from the variance of an internal pilot leaves the test's level practically unchanged (Wittes and Brittain,
"The role of internal pilot studies in increasing the efficiency of clinical trials", Statistics in Medicine 9,
1990, pp. 65-72). The verdict then rests on all ``n`` replications, the pilot's included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from scipy import stats

from paperlib.decide import CLEAR_HALF_WIDTHS, clear_of, half_width
from paperlib.validate import ParameterError

#: Replications of every cell before the power calculation.
PILOT = 5
#: The most replications a question may ask of a cell (the budget: see ``docs/fidelity.md``).
CAP = 20
#: Level (two-sided) and power of the test the replications are sized for.
ALPHA = 0.05
POWER = 0.8
#: The rule in one sentence (notebooks print it; ledger reasons quote the plan, not this text).
RULE = (f"every cell runs a pilot of {PILOT} replications; a question then runs the smallest number of "
        f"replications (at most {CAP}) at which a two-sided {ALPHA:.0%}-level t-test has power {POWER:.0%} against "
        f"the effect the model predicts, at the spread the pilot measured; a question that would need more runs "
        f"{CAP} and says how many it would need")


@dataclass(frozen=True)
class Plan:
    """The replications of one question: ``n`` to run (within [pilot, cap]) and ``n_needed`` by the rule."""

    n: int
    n_needed: float  # may exceed the cap; inf when the model predicts no effect
    spread: float  # standard deviation of one replication's quantity (from the pilot)
    effect: float  # the distance the test is sized for: the model's predicted distance from the threshold
    effect_is: str = "the model's effect"  # what ``effect`` is, in words (:meth:`describe`)
    fixed: bool = False  # ``n`` is fixed beforehand (:func:`measured_plan`), ``n_needed`` only reported
    first_stage: int | None = None  # the replications before a second stage (:func:`second_stage`); None: none ran

    @property
    def capped(self) -> bool:
        """Return whether the rule asks for more replications than the cap allows."""
        return self.n_needed > self.n

    def describe(self) -> str:
        """Return the plan in words for a ledger reason."""
        need = "no finite number" if math.isinf(self.n_needed) else f"{self.n_needed:.0f}"
        stage = ("" if self.first_stage is None else
                 f"; a second stage to {self.n} after {self.first_stage}, whose interval lay less than "
                 f"{CLEAR_HALF_WIDTHS:g} half-widths from the band's nearest edge")
        if self.fixed and math.isnan(self.spread):
            return (f"{self.n} replications in all, fixed beforehand; the pilot kept fewer than two runs, so no "
                    f"spread to size a test from{stage}")
        if self.fixed:
            return (f"{self.n} replications in all, fixed beforehand; power {POWER:.0%} at {self.effect_is} "
                    f"{self.effect:.3g} needs {need} at the pilot's spread {self.spread:.3g}{stage}")
        text = (f"{self.n} replications for power {POWER:.0%} at {self.effect_is} {self.effect:.3g} "
                f"(pilot spread {self.spread:.3g})")
        if self.capped:
            text += f"; the rule asks for {need}, more than the cap of {self.n}"
        return text


def replications_for_power(spread: float, effect: float, *, pilot: int = PILOT, cap: int = CAP,
                           alpha: float = ALPHA, power: float = POWER) -> Plan:
    """Return the :class:`Plan` of :data:`RULE` step 3 for one replication's ``spread`` and the model's ``effect``.

    The smallest ``n`` in [``pilot``, ``cap``] with ``(t(1 - alpha/2, n-1) + t(power, n-1)) spread / sqrt(n) <=
    |effect|``; ``n_needed`` is the smallest such ``n`` without the cap (searched up to 10^6; inf beyond, or when
    ``effect`` is 0). A spread of 0 needs only the pilot.
    """
    for name, v in (("spread", spread), ("effect", effect)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ParameterError(f"{name} must be a finite number, got {v!r}")
    if spread < 0:
        raise ParameterError(f"spread must be >= 0, got {spread!r}")
    if isinstance(pilot, bool) or not isinstance(pilot, int) or pilot < 2:
        raise ParameterError(f"pilot must be a whole number >= 2, got {pilot!r}")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < pilot:
        raise ParameterError(f"cap must be a whole number >= pilot ({pilot}), got {cap!r}")
    if not (0 < alpha < 1 and 0 < power < 1):
        raise ParameterError(f"alpha and power must lie in (0, 1), got {alpha!r} and {power!r}")

    def enough(n: int) -> bool:
        q = stats.t.ppf(1 - alpha / 2, n - 1) + stats.t.ppf(power, n - 1)
        return q * spread / math.sqrt(n) <= abs(effect)

    if spread == 0:
        return Plan(pilot, float(pilot), 0.0, float(effect))
    if effect == 0 or not enough(10**6):
        return Plan(cap, math.inf, float(spread), float(effect))
    lo, hi = pilot, 10**6  # enough() is monotone in n: the quantiles fall and sqrt(n) grows
    if enough(lo):
        hi = lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if enough(mid):
            hi = mid
        else:
            lo = mid
    needed = hi
    return Plan(min(needed, cap), float(needed), float(spread), float(effect))


#: The replications every published measurement measured again runs (more only when its pilot has more). A pilot
#: of five that chose the rest let paper 002's SCTP at RTT 80 ms (runs of 15-17 s, some of 20-23 s after a
#: retransmission timeout) stop at five runs in one cold run of the package, decided, and run twenty in another,
#: undecided.
MEASURED_REPLICATIONS = CAP
#: The rule for a published measurement measured again, in one sentence (the notebooks of papers 000, 002, 004).
MEASURED_RULE = (f"every published measurement measured again runs {MEASURED_REPLICATIONS} replications that kept "
                 f"their timing, the same for every cell, a pilot of {PILOT} among them; the pilot's spread says how "
                 f"many a two-sided {ALPHA:.0%}-level t-test would need for power {POWER:.0%} against a difference of "
                 f"5% of the printed value, and the reason says it")


#: The replications every cell a real-stack question reads runs (more only when its pilot has more). The power rule
#: sized paper 005's questions at the model's effect, about four times what the real stacks measure: the pilot's
#: five runs were then "enough", and questions decided on five runs in one cold run were undecided in another.
QUESTION_REPLICATIONS = CAP
#: The rule for a real-stack question, in one sentence (paper 005's notebook and docs).
QUESTION_RULE = (f"every cell a real-stack question reads runs {QUESTION_REPLICATIONS} replications that kept their "
                 f"timing, a pilot of {PILOT} among them; the pilot's spread says how many a two-sided "
                 f"{ALPHA:.0%}-level t-test would need for power {POWER:.0%} against the effect the model predicts, "
                 f"and the plan says it")


def _check_count(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        raise ParameterError(f"{name} must be a whole number >= 2, got {value!r}")


def _check_printed(printed) -> None:
    if isinstance(printed, bool) or not isinstance(printed, (int, float)) or not math.isfinite(printed) or printed == 0:
        raise ParameterError(f"printed must be a finite number other than 0, got {printed!r}")


def question_plan(spread: float, effect: float, *, pilot_n: int, runs: int = QUESTION_REPLICATIONS) -> Plan:
    """Return the :class:`Plan` of a real-stack question whose pilot of ``pilot_n`` replications measured ``spread``
    (one replication's standard deviation of the question's quantity) and whose model predicts ``effect``.

    The plan runs ``runs`` replications, or the pilot's own size if larger (``fixed``: the pilot does not choose
    it); ``n_needed`` is what the power rule would ask (:func:`replications_for_power`, not capped, never below the
    pilot), reported beside it. Raises :class:`ParameterError` as :func:`replications_for_power` does, and for
    ``pilot_n`` or ``runs`` below 2."""
    _check_count("pilot_n", pilot_n)
    _check_count("runs", runs)
    least = max(PILOT, pilot_n)
    power = replications_for_power(spread, effect, pilot=least, cap=max(runs, least))
    return replace(power, n=max(runs, pilot_n), fixed=True)


def _mean_and_sd(x: list[float]) -> tuple[float, float]:
    """Return the mean and the sample standard deviation (n - 1) of at least two numbers."""
    mean = sum(x) / len(x)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in x) / (len(x) - 1))


def measured_plan(values, printed: float, *, pilot: int = PILOT, runs: int = MEASURED_REPLICATIONS) -> Plan:
    """Return the :class:`Plan` of a published measurement measured again, from its pilot's ``values``.

    ``values``: one measurement per pilot replication that kept its timing (at least 2); ``printed``: the published
    value the cell is scored against. The plan runs ``runs`` replications, or the pilot's own size if larger
    (``fixed``: the pilot does not choose it). ``n_needed`` is what the power rule would ask
    (:func:`replications_for_power`, not capped, never below ``pilot`` nor the pilot's size): power :data:`POWER`
    against :data:`paperlib.ledger.CLOSE` times ``|printed|`` (a difference of 5%, the smallest the ledger tells
    from the print) at the pilot's sample standard deviation. Raises :class:`ParameterError` with fewer than two
    values, a value that is not finite, a ``printed`` that is not a finite number other than 0, or ``runs`` below 2.
    """
    from paperlib.ledger import CLOSE

    x = [float(v) for v in values]
    if len(x) < 2 or not all(math.isfinite(v) for v in x):
        raise ParameterError(f"values must be at least two finite measurements, got {values!r}")
    _check_printed(printed)
    _check_count("runs", runs)
    mean, spread = _mean_and_sd(x)
    least = max(pilot, len(x))
    power = replications_for_power(spread, CLOSE * abs(float(printed)), pilot=least, cap=max(runs, least))
    return replace(power, n=max(runs, len(x)), effect_is="a 5% difference from the print", fixed=True)


def unsized_plan(printed: float, *, runs: int = MEASURED_REPLICATIONS) -> Plan:
    """Return the :class:`Plan` of a published measurement measured again whose pilot kept fewer than two runs:
    the same ``runs`` replications as :func:`measured_plan`'s, fixed beforehand, with no spread to size a test
    from (``spread`` and ``n_needed`` NaN). The rule's number of runs does not depend on the pilot, so a cell whose
    pilot lost its timing is brought to it like any other."""
    from paperlib.ledger import CLOSE

    _check_printed(printed)
    _check_count("runs", runs)
    return Plan(runs, math.nan, math.nan, CLOSE * abs(float(printed)), effect_is="a 5% difference from the print",
                fixed=True)


#: The second stage of a published measurement measured again (:func:`second_stage`): as many replications again.
SECOND_STAGE_FACTOR = 2
#: The rule's second stage in one sentence (the notebooks of papers 000, 002, 004 print it after :data:`MEASURED_RULE`).
SECOND_STAGE_RULE = (f"a cell whose 95% interval after its {MEASURED_REPLICATIONS} replications lies less than "
                     f"{CLEAR_HALF_WIDTHS:g} half-widths from the nearest edge of the print's 5% band runs a second "
                     f"stage to {SECOND_STAGE_FACTOR * MEASURED_REPLICATIONS}, once, and its status rests on all "
                     f"of them")


def second_stage(plan: Plan, values, printed: float) -> Plan:
    """Return ``plan`` with a second stage when the cell's interval is not clear of the edge it is scored at.

    ``values``: one measurement per replication that kept its timing, after ``plan``'s replications ran; ``printed``:
    the published value the cell is scored against (:func:`paperlib.ledger.measured_status`'s band, printed -/+
    :data:`paperlib.ledger.CLOSE`). When the values' 95% t-interval lies less than
    :data:`paperlib.decide.CLEAR_HALF_WIDTHS` half-widths from the band's edge nearest its mean
    (:func:`paperlib.decide.clear_of`), the plan runs :data:`SECOND_STAGE_FACTOR` times its replications
    (``first_stage`` says how many there were); otherwise, or with fewer than two values, or when ``plan`` already
    had its second stage, it is returned as it is. The rule reads how far the interval lies from the edge in its own
    half-widths, never the side it lies on, so it extends a cell about to be scored close, different or inconclusive
    alike: the status a rerun would turn over is the one near an edge.
    """
    from paperlib.ledger import measured_edge

    x = [float(v) for v in values]
    if plan.first_stage is not None or len(x) < 2 or not all(math.isfinite(v) for v in x):
        return plan
    _check_printed(printed)
    mean, sd = _mean_and_sd(x)
    half = half_width(sd, len(x))
    if clear_of(mean, mean - half, mean + half, measured_edge(float(printed), mean)):
        return plan
    return replace(plan, n=SECOND_STAGE_FACTOR * plan.n, first_stage=plan.n)
