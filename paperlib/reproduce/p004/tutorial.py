"""The tutorial's steps (``notebooks/tutorial.ipynb``): one published table, one changed assumption, its ledger rows.

The table is paper 004's Table II. :func:`with_assumption` regenerates Table II's ledger rows under the convention
the search chose with some of its switches changed (the axes of
:data:`paperlib.reproduce.p004.operating_point.CONVENTION_AXES`, e.g. the initial window x): values, statuses and
lone hits follow the ledger's own rules (:func:`paperlib.reproduce.p004.ledger_rows.table_rows`), and each reason
says that the row is a what-if and what changed (``make reproduce``'s ledger keeps the chosen convention).
:func:`changed_rows` sets two sets of rows side by side where they differ, :func:`ledger_table` shows rows in the
ledger's columns, :func:`ledger_row` picks one row and :func:`check` checks the notebook's parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, replace

import pandas as pd

from paperlib import ledger
from paperlib.data import Paper
from paperlib.ledger import Row
from paperlib.reproduce.p004 import findings, operating_point, tables
from paperlib.reproduce.p004 import ledger_rows as p004_ledger_rows
from paperlib.validate import ParameterError

#: How the reason of every row :func:`with_assumption` returns begins (after a bound note, if any).
WHAT_IF = "what-if, not a row of make reproduce's ledger"
#: The columns that identify a ledger row within a paper.
KEY = ["source", "row", "column"]


def ledger_table(rows: Iterable[Row]) -> pd.DataFrame:
    """Return ``rows`` as a table in the ledger's columns (:data:`paperlib.ledger.COLUMNS`), one line per row."""
    return pd.DataFrame.from_records([asdict(r) for r in rows], columns=list(ledger.COLUMNS))


def ledger_row(rows: Iterable[Row], source: str, row: str, column: str) -> pd.Series:
    """Return the one row of ``rows`` with this ``source``, ``row`` and ``column``, as a Series of the ledger's columns.

    Raises :class:`~paperlib.validate.ParameterError` naming the key and the rows there are (of ``source``, or
    the sources) when there is none.
    """
    table = ledger_table(rows)
    hit = table[(table["source"] == source) & (table["row"] == row) & (table["column"] == column)]
    if hit.empty:
        same = table[table["source"] == source]
        have = (f"its rows: {sorted(set(same['row']))}, its columns: {sorted(set(same['column']))}" if len(same)
                else f"the sources: {sorted(set(table['source']))}")
        raise ParameterError(f"no ledger row ({source!r}, {row!r}, {column!r}); {have}")
    return hit.iloc[0]


def check_change(change: Mapping[str, object]) -> None:
    """Raise :class:`~paperlib.validate.ParameterError` unless ``change`` names conventions of Table II and candidates.

    Every key must be an axis of :data:`~paperlib.reproduce.p004.operating_point.CONVENTION_AXES` and its value
    one of that axis's candidates; at least one key.
    """
    axes = operating_point.CONVENTION_AXES
    if not change:
        raise ParameterError(f"name a convention to change, one of {list(axes)} (e.g. initial_window=2)")
    for axis, value in change.items():
        if axis not in axes:
            raise ParameterError(f"{axis}: not a convention of paper 004's Table II; they are {list(axes)}")
        if not any(type(value) is type(c) and value == c for c in axes[axis]):  # 2.0 is not the window 2
            raise ParameterError(f"{axis} must be one of {axes[axis]}, got {value!r}")


def check(paper: Paper, *, initial_window: int, table_row: str) -> None:
    """Raise :class:`~paperlib.validate.ParameterError` naming a bad parameter of the tutorial notebook.

    ``initial_window`` must be a candidate of the ``initial_window`` convention and ``table_row`` a row label of
    Table II (its ``BANDWIDTH`` column, e.g. ``"1 Mbps"``).
    """
    check_change({"initial_window": initial_window})
    labels = list(paper.tables["table2"].cells["BANDWIDTH"])
    if table_row not in labels:
        raise ParameterError(f"table_row must be a row of Table II, one of {labels}, got {table_row!r}")


def with_assumption(paper: Paper, search: pd.DataFrame, **change) -> list[Row]:
    """Return Table II's ledger rows of paper 004 under the search's chosen convention with ``change`` applied.

    Parameters
    ----------
    paper : paper 004's published data (:func:`paperlib.data.load_paper`)
    search : :func:`~paperlib.reproduce.p004.operating_point.convention_search`'s frame for ``paper``
    change : the switches to change and their new values, e.g. ``initial_window=2`` (checked by
        :func:`check_change`)

    The 20 rows of Table II, in the ledger's order, with the ledger's rules (the same statuses the ledger would
    give under this convention); each reason starts with a printed value's note if it lies below its loss-free
    bound under this reading, then :data:`WHAT_IF` and the change. Raises
    :class:`paperlib.models.lower_bounds.BoundViolation` where the changed model falls below the loss-free bound
    (the model is wrong there), as the ledger would.
    """
    check_change(change)
    chosen = operating_point.chosen_convention(paper, search)
    conv = chosen.replace(**change)
    point = operating_point.operating_point(paper)
    rows = p004_ledger_rows.table_rows(paper, search, conv, tables.regenerate_table2(point, conv))
    bounds = findings.latency_bounds(paper, conv)
    changed = ", ".join(f"{k}={v} (the search chose {getattr(chosen, k)})" for k, v in change.items())
    out = []
    for r in rows:
        eq = 5 if "SCTP" in r.column else 6
        what = f"{WHAT_IF}: Eq. ({eq}) under the search's convention with {changed}, i.e. {conv.describe()}"
        if r.column in tables.EXP_COLUMNS:
            what += "; a testbed measurement that cannot be re-run here, so 'regenerated' is the model"
        note = findings.bound_note(r.published, bounds.iloc[point.rate_labels.index(r.row)], conv, paper)
        out.append(replace(r, reason="; ".join(filter(None, [note, what]))))
    return out


def changed_rows(before: Iterable[Row], after: Iterable[Row]) -> pd.DataFrame:
    """Return the rows whose regenerated value or status differs between ``before`` and ``after``.

    Rows are matched by source, row and column (rows in only one of the two are left out). Columns: the key,
    ``published``, ``regenerated`` and ``status`` before and after, and the reason after; in ``after``'s order.
    """
    b, a = ledger_table(before), ledger_table(after)
    both = a.merge(b, on=KEY, how="inner", suffixes=(" after", " before"), validate="one_to_one")
    moved = both[(both["regenerated before"] != both["regenerated after"])
                 | (both["status before"] != both["status after"])]
    return moved.rename(columns={"published after": "published", "reason after": "reason"})[
        KEY + ["published", "regenerated before", "regenerated after", "status before", "status after", "reason"]
    ].reset_index(drop=True)
