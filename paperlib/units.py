"""Unit tokens as printed in the seeds, and conversions to SI at the edges.

Inside ``paperlib`` every quantity is SI: bits, seconds, bits/s. The seeds print
``KB``, ``kB``, ``kb``, ``Kbps``, ``ms``, ``sec`` ... and leave open whether a
kilo is 1000 or 1024. That choice is a per-paper *convention*, so every
conversion that involves a decimal/binary prefix takes ``kilo`` explicitly
and nothing here decides it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

BITS_PER_BYTE = 8

#: Known unit tokens, as printed, mapped to (dimension, prefix power, base
#: factor). ``prefix power`` is the power of ``kilo`` (so ``KB`` is
#: ``kilo**1 * 8`` bits); dimensionless tokens have dimension ``"1"``.
UNIT_TOKENS: dict[str, tuple[str, int, float]] = {
    # information
    "b": ("bit", 0, 1.0),
    "bit": ("bit", 0, 1.0),
    "bits": ("bit", 0, 1.0),
    "kb": ("bit", 1, 1.0),
    "Kb": ("bit", 1, 1.0),
    "B": ("bit", 0, BITS_PER_BYTE),
    "byte": ("bit", 0, BITS_PER_BYTE),
    "bytes": ("bit", 0, BITS_PER_BYTE),
    "Bytes": ("bit", 0, BITS_PER_BYTE),
    "KB": ("bit", 1, BITS_PER_BYTE),
    "kB": ("bit", 1, BITS_PER_BYTE),
    "MB": ("bit", 2, BITS_PER_BYTE),
    # rate
    "bps": ("bit/s", 0, 1.0),
    "kbps": ("bit/s", 1, 1.0),
    "Kbps": ("bit/s", 1, 1.0),
    "Mbps": ("bit/s", 2, 1.0),
    "Gbps": ("bit/s", 3, 1.0),
    # time
    "s": ("s", 0, 1.0),
    "sec": ("s", 0, 1.0),
    "Sec": ("s", 0, 1.0),
    "second": ("s", 0, 1.0),
    "seconds": ("s", 0, 1.0),
    "ms": ("s", 0, 1e-3),
    "us": ("s", 0, 1e-6),
    "μs": ("s", 0, 1e-6),
    "hours": ("s", 0, 3600.0),
    # counts and ratios
    "1": ("1", 0, 1.0),
    "%": ("1", 0, 1e-2),
    "cells": ("cell", 0, 1.0),
    "packets": ("packet", 0, 1.0),
    "MTU": ("packet", 0, 1.0),
    "mtu": ("packet", 0, 1.0),
    "RTT": ("round trip", 0, 1.0),
    "million": ("1", 0, 1e6),
    "users": ("1", 0, 1.0),
    "F": ("feedback delay", 0, 1.0),
}

#: Rate prefixes are decimal by networking convention (a "Kbps" link is 1000
#: bit/s); the base of a size prefix ("KB") is a per-paper convention.
DECIMAL = 1000
BINARY = 1024

_QUANTITY_RE = re.compile(r"^\s*(?P<num>[-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?P<unit>\S+)\s*$")


class UnitError(ValueError):
    """A unit token that ``paperlib`` does not know."""


@dataclass(frozen=True)
class Quantity:
    """A printed number with its printed unit token (no conversion applied)."""

    printed: str
    value: float
    unit: str

    def to_si(self, kilo: int | None = None) -> float:
        """Return the value in SI (bits, seconds, bit/s; ``%`` as a fraction)."""
        return float(to_si(self.value, self.unit, kilo=kilo))


def check_unit(token: str) -> str:
    """Return ``token`` if it is a known unit token, else raise ``UnitError``."""
    if token not in UNIT_TOKENS:
        raise UnitError(f"unknown unit {token!r}; known units: {', '.join(sorted(UNIT_TOKENS))}")
    return token


def parse_quantity(text: str) -> Quantity:
    """Return the number and unit of a printed quantity such as ``"28 Kbps"`` or ``"0.4 %"``."""
    match = _QUANTITY_RE.match(text)
    if match is None:
        raise ValueError(f"not a number followed by a unit: {text!r}")
    unit = check_unit(match["unit"])
    return Quantity(printed=text, value=float(match["num"]), unit=unit)


def dimension(token: str) -> str:
    """Return the SI dimension (``"bit"``, ``"bit/s"``, ``"s"``, ...) of a unit token."""
    return UNIT_TOKENS[check_unit(token)][0]


def _scale(token: str, kilo: int | None) -> float:
    dim, power, factor = UNIT_TOKENS[check_unit(token)]
    if power == 0:
        return factor
    if kilo is None:
        if dim == "bit":
            raise ValueError(
                f"a size in {token!r} needs an explicit kilo (1000 or 1024): "
                "that base is a per-paper convention"
            )
        kilo = DECIMAL  # link rates are decimal in every seed
    if kilo not in (DECIMAL, BINARY):
        raise ValueError(f"kilo must be 1000 or 1024, got {kilo!r}")
    return factor * float(kilo) ** power


def to_si(value, token: str, *, kilo: int | None = None):
    """Return ``value`` (scalar or array) given in ``token`` converted to SI.

    ``kilo`` is the base of the ``K``/``k``/``M`` prefixes (1000 or 1024). For
    sizes (KB, kb, MB) it is a convention of the paper being reproduced and
    must be passed; for rates (Kbps, Mbps) it defaults to 1000.
    """
    return np.multiply(value, _scale(token, kilo))


def from_si(value, token: str, *, kilo: int | None = None):
    """Return an SI ``value`` expressed in unit ``token`` (inverse of :func:`to_si`)."""
    return np.divide(value, _scale(token, kilo))


def kbytes_to_bits(kb, *, kilo: int):
    """Return an object size printed in KB as bits, with the paper's ``kilo``."""
    return to_si(kb, "KB", kilo=kilo)


def bytes_to_bits(b):
    """Return a size printed in bytes as bits."""
    return to_si(b, "B")
