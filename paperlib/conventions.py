"""Systematic search over the conventions a paper leaves open.

A paper's printed table follows from its model only under conventions it
does not state (what T_r is, KB = 1000 or 1024 bytes, the initial window, how
values were rounded for print, ...). Rather than picking them by hand, a
paper module declares the candidate values of each convention (the *axes*)
and a function that regenerates the table under one combination;
:func:`search` evaluates every combination against the printed cells and
:func:`choose` picks ONE for the whole table by a rule stated in advance:

1. most printed cells reproduced (equal at the printed precision);
2. then the smallest mean absolute relative error over all cells;
3. then the earliest candidate on each axis, in the order the axes are
   declared (each paper lists its candidates in order of a-priori
   plausibility, so a tie goes to the reading the paper's text favours).

A paper whose printed cells no reading reproduces beyond chance (at most one
cell) ranks by ``primary="close"``: most cells within 5% (the ledger's
``close``, reproduced included) first, then rules 1-3; the paper module says
so and why.

What :func:`choose` returns becomes the paper's :class:`Convention`: each paper package defines
``convention.Convention`` (re-exported by ``operating_point``), a frozen dataclass subclassing it whose fields are
the paper's axes (and any switch the paper fixes for its ledger), made with :meth:`Convention.from_choice`. It
prints as the mapping of its switches and describes itself for ledger reasons as ``key=value, ...``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Self

import numpy as np
import pandas as pd

from paperlib.rounding import matches_printed


def combinations(axes: Mapping[str, Sequence]) -> list[dict]:
    """Return every combination of the candidate values, in declaration order."""
    names = list(axes)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*(axes[n] for n in names))]


def search(
    axes: Mapping[str, Sequence],
    regenerate: Callable[..., np.ndarray],
    printed: Sequence[str],
    *,
    rounding_axis: str = "rounding",
) -> pd.DataFrame:
    """Score every combination of conventions against the printed cells.

    ``regenerate(**convention)`` returns one regenerated value per printed
    cell (NaN where the convention cannot produce a value). The rounding
    rule of each combination is ``convention[rounding_axis]``: it says how a
    value was printed, not what it is, so ``regenerate`` must not depend on it.
    It is called once per combination of the other axes (with the rounding
    axis at its first candidate) and, as a check, once with every rounding
    candidate for the first of them: a ``regenerate`` that answers differently
    raises. A value is scored once per rule (a grid of values, each distinct
    value of a cell rounded once: whole grids at once, exact as
    :func:`paperlib.rounding.matches_printed`).

    Returns one row per combination: the axes, ``reproduced`` (count),
    ``within_5pct`` (count of cells reproduced or within 5%), ``cells``, ``mean_abs_rel_error``,
    ``max_abs_rel_error`` and ``hits`` (a string of 0/1, one per printed cell, in order).
    """
    published = np.array([float(p) for p in printed])
    combos = combinations(axes)
    if not combos:
        return pd.DataFrame(columns=[*axes, "reproduced", "within_5pct", "cells", "mean_abs_rel_error",
                                     "max_abs_rel_error", "hits"])
    values = _regenerated_grid(axes, combos, regenerate, published.shape, rounding_axis)
    rules = np.array([c[rounding_axis] for c in combos], dtype=object)
    hits = np.zeros(values.shape, dtype=bool)
    for rule in dict.fromkeys(rules):
        rows = rules == rule
        for j, cell in enumerate(printed):
            column = values[rows, j]
            distinct, where = np.unique(column, return_inverse=True)
            matched = np.array([bool(np.isfinite(v)) and matches_printed(float(v), cell, rule) for v in distinct])
            hits[rows, j] = matched[where.reshape(-1)]
    with np.errstate(invalid="ignore"):
        rel = np.abs(values - published) / np.abs(published)
    finite = np.isfinite(rel).all(axis=1)
    frame = pd.DataFrame.from_records(combos)
    frame["reproduced"] = hits.sum(axis=1).astype(int)
    frame["within_5pct"] = (hits | (rel <= 0.05)).sum(axis=1).astype(int)
    frame["cells"] = len(printed)
    with np.errstate(invalid="ignore"):
        frame["mean_abs_rel_error"] = np.where(finite, np.mean(np.where(finite[:, None], rel, 0.0), axis=1), np.inf)
        frame["max_abs_rel_error"] = np.where(finite, np.max(np.where(finite[:, None], rel, 0.0), axis=1), np.inf)
    frame["hits"] = ["".join("1" if h else "0" for h in row) for row in hits]
    return frame


def _regenerated_grid(axes: Mapping[str, Sequence], combos: list[dict], regenerate: Callable[..., np.ndarray],
                      shape: tuple[int, ...], rounding_axis: str) -> np.ndarray:
    """Return ``regenerate``'s values of every combination (one row each), called once per combination of the axes
    other than ``rounding_axis`` (:func:`search`)."""
    rules = list(axes[rounding_axis]) if rounding_axis in axes else []

    def call(conv: dict) -> np.ndarray:
        values = np.asarray(regenerate(**conv), dtype=float)
        if values.shape != shape:
            raise ValueError(f"regenerate returned shape {values.shape}, expected {shape}")
        return values

    memo: dict[tuple, np.ndarray] = {}
    out = np.empty((len(combos), *shape))
    for i, conv in enumerate(combos):
        key = tuple(_native(v) for k, v in conv.items() if k != rounding_axis)
        if key not in memo:
            memo[key] = call({**conv, rounding_axis: rules[0]} if rules else conv)
            if len(memo) == 1:
                for rule in rules[1:]:
                    other = call({**conv, rounding_axis: rule})
                    if not np.array_equal(other, memo[key], equal_nan=True):
                        raise ValueError(f"regenerate depends on the rounding axis {rounding_axis!r} ({conv}): "
                                         f"it must say how a value was printed, not what it is")
        out[i] = memo[key]
    return out


def choose(results: pd.DataFrame, axes: Mapping[str, Sequence], *, primary: str = "reproduced") -> dict:
    """Return the one convention picked by the rule in the module docstring."""
    ranked = rank(results, axes, primary=primary)
    best = ranked.iloc[0]
    return {name: _native(best[name]) for name in axes}


def rank(results: pd.DataFrame, axes: Mapping[str, Sequence], *, primary: str = "reproduced") -> pd.DataFrame:
    """Return ``results`` sorted best first by the rule in the module docstring."""
    if primary not in ("reproduced", "close"):
        raise ValueError(f"primary must be 'reproduced' or 'close', got {primary!r}")
    order = results.copy()
    keys = ["_neg_reproduced", "mean_abs_rel_error"]
    if primary == "close":
        keys.insert(0, "_neg_close")
        order["_neg_close"] = -order["within_5pct"]
    order["_neg_reproduced"] = -order["reproduced"]
    for name, candidates in axes.items():
        position = {_native(c): i for i, c in enumerate(candidates)}
        order[f"_pos_{name}"] = order[name].map(lambda v, pos=position: pos[_native(v)])
        keys.append(f"_pos_{name}")
    order = order.sort_values(keys, kind="stable")
    return order.drop(columns=[c for c in order.columns if c.startswith("_")]).reset_index(drop=True)


def best_by_axis(results: pd.DataFrame, axes: Mapping[str, Sequence]) -> pd.DataFrame:
    """Return, for each candidate of each axis, the best any combination with it achieves.

    Columns: ``convention``, ``candidate``, ``best reproduced``, ``best within 5%``,
    ``least mean |rel. error|`` and, when the search counts them, ``best rows reproduced``.
    It shows how much each single choice matters, whatever the others are.
    """
    rows = []
    for axis, candidates in axes.items():
        for c in candidates:
            sub = results[results[axis] == c]
            row = {
                "convention": axis,
                "candidate": str(c),
                "best reproduced": int(sub["reproduced"].max()),
                "best within 5%": int(sub["within_5pct"].max()),
                "least mean |rel. error|": float(sub["mean_abs_rel_error"].min()),
            }
            if "rows_reproduced" in sub.columns:
                row["best rows reproduced"] = int(sub["rows_reproduced"].max())
            rows.append(row)
    return pd.DataFrame(rows)


def _native(value):
    """Return a numpy scalar as the plain Python value (so dict keys and JSON behave)."""
    return value.item() if isinstance(value, np.generic) else value


@dataclasses.dataclass(frozen=True)
class Convention:
    """The one reading of a paper applied to every row; each paper subclasses it as ``convention.Convention``.

    A subclass is a frozen dataclass whose fields are the switches of the reading (the axes of the paper's
    ``CONVENTION_AXES``, in their order, and any the paper fixes for its ledger). :meth:`as_dict` gives them
    as keyword arguments for a model, :meth:`describe` as the ledger reasons' ``key=value, ...``, and
    ``str()`` as the mapping ``{'key': value, ...}`` the notebooks print.
    """

    @classmethod
    def from_choice(cls, choice: Mapping[str, object]) -> Self:
        """Return the convention of ``choice`` (e.g. :func:`choose`'s mapping); raise naming a bad key."""
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = [k for k in choice if k not in names]
        missing = [n for n in names if n not in choice]
        if unknown or missing:
            raise ValueError(f"{cls.__module__}.{cls.__qualname__}: unknown switches {unknown}, missing {missing} "
                             f"(its switches: {names})")
        return cls(**{n: _native(choice[n]) for n in names})

    def as_dict(self) -> dict[str, object]:
        """Return the switches as ``{name: value}``, in field order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def replace(self, **changes) -> Self:
        """Return a copy with ``changes`` applied (a what-if reading; unknown names raise)."""
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """Return the convention as ``key=value, ...``: how ledger reasons name it."""
        return ", ".join(f"{k}={v}" for k, v in self.as_dict().items())

    def __str__(self) -> str:
        return str(self.as_dict())
