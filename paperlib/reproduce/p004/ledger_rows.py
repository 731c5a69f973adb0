"""Every ledger row of paper 004: Table II's 20 printed cells, Fig. 1's alpha, and the claims.

:func:`ledger_rows` is the one entry point (the protocol's, :mod:`paperlib.reproduce.protocol`): without
``real_stacks`` the rows of the model (the notebook's first write), with them the same rows whose
experimental cells carry the emulated measurements, plus the claims judged again on them (the second
write, after the emulated run).
"""

from __future__ import annotations

import pandas as pd

from paperlib.data import Paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, below_bound, classify, lone_hits, result_row
from paperlib.models import lower_bounds
from paperlib.reproduce.p004 import emulated, findings, operating_point, tables
from paperlib.reproduce.p004 import stack as paper_stack
from paperlib.reproduce.p004.claims import CLAIMS, Evidence
from paperlib.reproduce.p004.operating_point import Convention

PAPER = operating_point.PAPER


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: object | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 004: Table II's cells, the text's results, the claims.

    Parameters
    ----------
    paper : paper 004's published data (:func:`paperlib.data.load_paper`)
    search : :func:`~paperlib.reproduce.p004.operating_point.convention_search`'s frame for ``paper``, if the
        caller has it (so the search runs once); ``None`` runs it
    simulations : unused and must be ``None``: paper 004 has no ns-3 run (the parameter is the protocol's,
        which every paper package answers)
    real_stacks : the emulated runs of Table II's experiment (what :func:`paperlib.emulation.notebook.run`
        returned for :mod:`paperlib.reproduce.p004.emulated`), or ``None``

    Without ``real_stacks``, the rows of the model: the experimental cells are the testbed's
    (``not_regenerable``, carrying the model's value; their reason says the testbed cannot be re-run here)
    and each claim is judged on the published table. With them, the same rows whose experimental cells are
    scored against the emulated means (:func:`paperlib.emulation.ledger_rows.emulated_row`; a cell not run says
    why), followed by each claim judged again on the emulated measurements (column ``emulated (real stacks)``).

    Raises :class:`paperlib.models.lower_bounds.BoundViolation` if a regenerated latency is below its loss-free
    bound, and ``ValueError`` if ``simulations`` is given.
    """
    if simulations is not None:
        raise ValueError(f"simulations: paper 004 has no ns-3 run, so there is nothing to pass; got "
                         f"{type(simulations).__name__}")
    search = operating_point.convention_search(paper) if search is None else search
    conv = operating_point.chosen_convention(paper, search)
    model_table = tables.regenerate_table2(operating_point.operating_point(paper), conv)
    rows = (table_rows(paper, search, conv, model_table) + text_value_rows(paper)
            + CLAIMS.rows(paper, Evidence(paper, conv, model_table)))
    if real_stacks is None:
        return rows
    summary = emulated.summary(paper, real_stacks)
    summary.attrs["lost_runs"] = len(real_stacks.lost)
    return (emulated_rows.replace(rows, measured_cells(paper, rows, conv, summary, real_stacks))
            + emulated_rows.with_run_fidelity(emulated_rows.claims_not_run(
                CLAIMS.rows(paper, Evidence(paper, conv, model_table, real_stacks=summary)), real_stacks.not_run),
                real_stacks))


def table_rows(paper: Paper, search: pd.DataFrame, conv: Convention, table: pd.DataFrame) -> list[Row]:
    """Return one row per printed cell of Table II (row by row: Exp(SCTP), Model(SCTP), Exp(TCP), Model(TCP)).

    Model cells are judged against Eqs. (5)/(6) under ``conv`` (the choice of ``search``), whose Table II
    is ``table`` (:func:`~paperlib.reproduce.p004.tables.regenerate_table2`); experimental cells are
    ``not_regenerable`` and carry the model's value. Raises
    :class:`paperlib.models.lower_bounds.BoundViolation` if a regenerated latency is below its loss-free bound.
    """
    cells = paper.tables["table2"].cells
    rule = conv.rounding
    best = search.iloc[0]
    conv_text = conv.describe()
    bounds = findings.latency_bounds(paper, conv)
    for col in tables.MODEL_COLUMNS:
        lower_bounds.check_not_below(table[col].to_numpy(), bounds["ledger reading"].to_numpy(),
                                     f"paper 004, regenerated {col} under the chosen convention")
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
            facts = dict(evidence="model", convention=conv_text,
                         bound=below_bound(printed, float(bounds.iloc[i]["any reading"])))
            if column in tables.EXP_COLUMNS:
                reason = (
                    "testbed measurement (lksctp 2.6.15, NIST Net emulator) that cannot be re-run here; "
                    f"'regenerated' is the model of Eq. ({eq}) at this point under "
                    f"the chosen convention ({conv_text}), so rel_error is model vs experiment"
                )
                rows.append(result_row(PAPER, "Table II", label, column, printed, value, rule=rule,
                                       reason=flag + reason, not_regenerable=True, **facts))
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
                                   lone_hit=lone[column][i], **facts))
    return rows


def text_value_rows(paper: Paper) -> list[Row]:
    """Return the ledger rows of the results stated in the text: Fig. 1's alpha = 3 (Eq. (1))."""
    text_values = paper.text_values.cells.set_index("id")
    x = paper.text_value("fig1_initial_window").value
    n = paper.text_value("fig1_segments").value
    row = text_values.loc["fig1_alpha"]
    return [result_row(PAPER, f"text: {row['location']}", "fig1_alpha", row["quantity"], row["printed"],
                       findings.fig1_alpha(paper), rule="half_up", evidence="model",
                       reason=(f"Eq. (1) with L_obj/L_mtu = {n:g} and x = {x:g} (Fig. 1): alpha = ceil(log2({n:g}/"
                               f"{x:g} + 1)) = ceil(log2 {n / x + 1:g}); windows of 2, 4, 8 segments carry 14"))]


def measured_cells(paper: Paper, rows: list[Row], conv: Convention, summary: pd.DataFrame,
                   real_stacks: Emulated) -> dict[tuple[str, str, str], Row]:
    """Return Table II's experimental cells of ``rows`` scored against the real stacks, by (source, row, column).

    ``summary`` is :func:`paperlib.reproduce.p004.emulated.summary`'s table of ``real_stacks.runs``. A cell
    whose protocol ran at its rate is scored against the emulated mean, its reason naming the stack of that
    protocol's run (:func:`paperlib.emulation.experiments.stack_text`); a cell not run says why.
    """
    rates = operating_point.operating_point(paper).rates_bps
    out = {}
    for i, t in summary.iterrows():
        for column, proto in tables.EXP_COLUMNS.items():
            old = next(r for r in rows if r.source == "Table II" and r.row == t["BANDWIDTH"] and r.column == column)
            n = int(t[f"n {proto.upper()}"])
            fid = real_stacks.cell_fidelity(protocol=proto, rate_bps=rates[i])
            plan = real_stacks.plan_at(float(t[column]), protocol=proto, rate_bps=float(rates[i]))

            def score(old=old, n=n, proto=proto, t=t, i=i, column=column, fid=fid, plan=plan):
                stack = emulated_rows.measured_stack(real_stacks.points, proto, n,
                                                     f"paper 004, Table II {t['BANDWIDTH']} {column}",
                                                     rate_bps=rates[i])
                return emulated_rows.emulated_row(old, t[f"emulated {proto.upper()} (s)"],
                                                  t[f"CI95 {proto.upper()} (s)"], n, conv.rounding, stack,
                                                  testbed=paper_stack.TESTBED, fidelity=fid, plan=plan)

            out[(old.source, old.row, old.column)] = emulated_rows.real_stack_cell(
                old, n, fid, real_stacks.not_run or emulated_rows.protocol_not_run(proto), score)
    return out
