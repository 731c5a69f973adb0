"""Printed precision of published numbers, and rounding a regenerated value to it.

A regenerated number *reproduces* a printed one when the two are equal at the
printed precision (``14.68`` has two decimals). How the authors went from their
exact value to the printed digits (round half up, or truncate) is a
per-paper convention; both rules are here and each paper picks one.
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from paperlib.data import NUMBER_RE

#: Rules for going from an exact value to the printed digits.
ROUNDING_RULES = ("half_up", "truncate")


def printed_decimals(printed: str) -> int:
    """Return the number of decimals of a printed number (``"14.68"`` -> 2, ``"2770"`` -> 0)."""
    text = printed.strip()
    if not NUMBER_RE.fullmatch(text):
        raise ValueError(f"not a plain printed number: {printed!r}")
    return len(text.split(".")[1]) if "." in text else 0


def round_to(value: float, decimals: int, rule: str = "half_up") -> float:
    """Return ``value`` rounded to ``decimals`` places by ``rule`` (``half_up`` or ``truncate``).

    Works in decimal arithmetic on the shortest repr of the float so that
    ``1.1`` truncates to ``1.1`` and not to ``1.09``.
    """
    if rule not in ROUNDING_RULES:
        raise ValueError(f"rounding rule must be one of {ROUNDING_RULES}, got {rule!r}")
    if not math.isfinite(value):
        return value
    mode = ROUND_HALF_UP if rule == "half_up" else ROUND_DOWN
    quantum = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(float(value))).quantize(quantum, rounding=mode))


def matches_printed(value: float, printed: str, rule: str = "half_up") -> bool:
    """Return whether ``value`` shows as ``printed`` when rounded to its precision by ``rule``."""
    decimals = printed_decimals(printed)
    return round_to(value, decimals, rule) == float(Decimal(printed.strip()))


def printed_interval(printed: str, rule: str = "half_up") -> tuple[float, float]:
    """Return the half-open interval ``[lo, hi)`` of exact values that print as ``printed`` under ``rule``."""
    if rule not in ROUNDING_RULES:
        raise ValueError(f"rounding rule must be one of {ROUNDING_RULES}, got {rule!r}")
    value = Decimal(printed.strip())
    step = Decimal(1).scaleb(-printed_decimals(printed))
    if rule == "truncate":
        return (float(value), float(value + step)) if value >= 0 else (float(value - step), float(value))
    return float(value - step / 2), float(value + step / 2)
