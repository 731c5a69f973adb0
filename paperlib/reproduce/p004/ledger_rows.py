"""Every ledger row of seed 004: Table II's 20 printed cells, Fig. 1's alpha, and the claims.

:func:`rows` is the ledger of the model (the notebook's first write); :func:`rows_with_real_stacks`
the same rows with the experimental cells carrying the emulated means and the claims re-judged on
them (the second write, after the emulated run).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import conventions
from paperlib.data import Paper
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.ledger import Row, classify, lone_hits, result_row
from paperlib.models import lower_bounds as lb
from paperlib.reproduce.p004 import findings, tables
from paperlib.reproduce.p004 import operating_point as op
from paperlib.reproduce.p004.claims import CLAIMS, Evidence

PAPER = op.PAPER


def table_rows(paper: Paper, search: pd.DataFrame, conv: dict) -> list[Row]:
    """Return one row per printed cell of Table II (row by row: Exp(SCTP), Model(SCTP), Exp(TCP), Model(TCP)).

    Model cells are judged against Eqs. (5)/(6) under ``conv`` (the choice of ``search``); experimental
    cells are ``not_regenerable`` and carry the model's value. Raises
    :class:`paperlib.models.lower_bounds.BoundViolation` if a regenerated latency is below its loss-free bound.
    """
    table = tables.regenerate_table2(op.operating_point(paper), **conv)
    cells = paper.tables["table2"].cells
    rule = conv["rounding"]
    best = search.iloc[0]
    conv_text = op.convention_text(conv)
    bounds = findings.latency_bounds(paper, conv)
    for col in tables.MODEL_COLUMNS:
        lb.check_not_below(table[col].to_numpy(), bounds["ledger reading"].to_numpy(),
                           f"seed 004, regenerated {col} under the chosen convention")
    lone = {col: lone_hits(table[col].to_numpy(), list(cells[col]), rule, list(cells["BANDWIDTH"]))
            for col in tables.MODEL_COLUMNS}
    rows: list[Row] = []
    for i, label in enumerate(cells["BANDWIDTH"]):
        for column in ("Exp(SCTP)", "Model(SCTP)", "Exp(TCP)", "Model(TCP)"):
            printed = cells[column].iloc[i]
            eq = 5 if "SCTP" in column else 6
            value = float(table["Model(SCTP)" if "SCTP" in column else "Model(TCP)"].iloc[i])
            flag = findings.bound_note(printed, bounds.iloc[i], conv, paper)
            flag = f"{flag}; " if flag else ""
            if column in tables.EXP_COLUMNS:
                reason = (
                    "testbed measurement (lksctp 2.6.15, NIST Net emulator) that cannot be re-run here; "
                    f"'regenerated' is the model of Eq. ({eq}) at this point under "
                    f"the chosen convention ({conv_text}), so rel_error is model vs experiment"
                )
                rows.append(result_row(PAPER, "Table II", label, column, printed, value, rule=rule,
                                       reason=flag + reason, not_regenerable=True))
                continue
            why = (
                f"Eq. ({eq}) under the one convention chosen by systematic search "
                f"({conv_text}; it reproduces {int(best['reproduced'])} of {int(best['cells'])} model cells, "
                "the most of any combination)"
            )
            if classify(value, printed, rule) != "reproduced":
                why += (
                    "; no convention in the search reproduces every row, and this row is one the chosen one "
                    f"does not: the model gives {value:.4f} s against the printed {printed} s"
                )
            rows.append(result_row(PAPER, "Table II", label, column, printed, value, rule=rule, reason=flag + why,
                                   lone_hit=lone[column][i]))
    return rows


def text_value_rows(paper: Paper) -> list[Row]:
    """Return the ledger rows of the results stated in the text: Fig. 1's alpha = 3 (Eq. (1))."""
    tv = paper.text_values.cells.set_index("id")
    x = paper.text_value("fig1_initial_window").value
    n = paper.text_value("fig1_segments").value
    row = tv.loc["fig1_alpha"]
    return [result_row(PAPER, f"text: {row['location']}", "fig1_alpha", row["quantity"], row["printed"],
                       findings.fig1_alpha(paper), rule="half_up",
                       reason=(f"Eq. (1) with L_obj/L_mtu = {n:g} and x = {x:g} (Fig. 1): alpha = ceil(log2({n:g}/"
                               f"{x:g} + 1)) = ceil(log2 {n / x + 1:g}); windows of 2, 4, 8 segments carry 14"))]


def rows(paper: Paper) -> list[Row]:
    """Return the ledger rows of seed 004 from the model: Table II, the text's results, the claims."""
    search = op.convention_search(paper)
    conv = conventions.choose(search, op.CONVENTION_AXES)
    evidence = Evidence(paper, conv, tables.regenerate_table2(op.operating_point(paper), **conv))
    return table_rows(paper, search, conv) + text_value_rows(paper) + CLAIMS.rows(paper, evidence)


def rows_with_real_stacks(paper: Paper, emulated: pd.DataFrame, points: list[dict], not_run: str | None) -> list[Row]:
    """Return :func:`rows` with the experimental cells carrying the emulated figures, plus the claims re-judged.

    ``emulated`` is :func:`paperlib.reproduce.p004.emulated.summary`'s table, ``points`` the sweep points
    that ran (for the stack settings in the reasons), ``not_run`` why nothing ran (or ``None``).
    """
    model = rows(paper)
    conv = op.chosen_convention(paper)
    point = op.operating_point(paper)
    new = {}
    for i, t in emulated.iterrows():
        at = [p for p in points if np.isclose(p["rate_bps"], point.rates_bps[i])]
        for column, proto in tables.EXP_COLUMNS.items():
            old = next(r for r in model if r.source == "Table II" and r.row == t["BANDWIDTH"] and r.column == column)
            n = int(t[f"n {proto.upper()}"])
            if n == 0:
                why = not_run or f"{proto.upper()} was not run (the available application speaks {ex.protocols()})"
                new[(old.source, old.row, old.column)] = el.not_run_row(old, why)
            else:
                new[(old.source, old.row, old.column)] = el.emulated_row(
                    old, t[f"emulated {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n, conv["rounding"],
                    ex.stack_text(at[0]))
    table = tables.regenerate_table2(point, **conv)
    return el.replace(model, new) + el.claims_not_run(
        CLAIMS.rows(paper, Evidence(paper, conv, table, real_stacks=emulated)), not_run)
