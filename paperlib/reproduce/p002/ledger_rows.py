"""Paper 002's ledger rows: the 32 printed cells of Tables II-III and the claims, in one call (:func:`ledger_rows`).

A model cell carries the model regenerated under the one convention
(:func:`paperlib.reproduce.p002.operating_point.chosen_convention`); an experimental TCP cell carries the
ns-3 simulation's mean when it ran (``simulations``, :mod:`paperlib.reproduce.p002.ns3`); an experimental
SCTP cell has no regenerated value (ns-3 has no SCTP). When the real stacks ran (``real_stacks``), every
experimental cell is scored against their measurement (:func:`paperlib.emulation.ledger_rows.emulated_row`,
a measured status; the reason names the stack measured). Every time is checked against its loss-free lower
bound (:func:`paperlib.reproduce.p002.findings.response_bounds`); a print below it is flagged first in the
reason. The claims come from :data:`paperlib.reproduce.p002.claims.CLAIMS`: the published judgements after
the cells, then those on the real stacks.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, below_bound, classify, impossible_note, lone_hits, result_row
from paperlib.models import lower_bounds
from paperlib.reproduce.p002 import emulated, findings, ns3
from paperlib.reproduce.p002 import stack as paper_stack
from paperlib.reproduce.p002.claims import CLAIMS, Evidence
from paperlib.reproduce.p002.operating_point import (
    LEDGER_A_MODE,
    LEDGER_IT_RTTS,
    PAPER,
    Convention,
    Point,
    chosen_convention,
    column_label,
    convention_search,
    is_shared_point,
    operating_points,
    regenerate,
    search_row,
)
from paperlib.reproduce.p002.tables import ROWS, SOURCES


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: ns3.Simulations | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 002: the 32 printed cells of Tables II-III and the claims.

    ``search`` is :func:`~paperlib.reproduce.p002.operating_point.convention_search`'s frame (``None``: searched
    here). ``simulations`` is the paper's record of its ns-3 runs (:class:`paperlib.reproduce.p002.ns3.Simulations`,
    from :func:`paperlib.reproduce.p002.ns3.run`: per operating point ``obj_bytes``, ``rate_bps``,
    ``rtt_s``, ``p``, ``runs``, ``finished``, ``mean_s``, ``ci95_s``); ``None``: the TCP experiment cells say
    the simulation was not run. ``real_stacks`` is the :class:`~paperlib.emulation.notebook.Emulated` of
    ``emulation.notebook.run``: with it the experimental cells are scored against the real stacks (or say why
    they did not run) and three claims are judged on them too; ``None``: no real-stack column.
    """
    search = convention_search(paper) if search is None else search
    conv = chosen_convention(paper, search)
    points = operating_points(paper)
    regen = regenerate(points, conv)
    bounds = findings.response_bounds(paper)["bound_s"].to_numpy()
    lower_bounds.check_not_below(regen["tcp_s"].to_numpy(), bounds, "paper 002, regenerated TCP response time")
    lower_bounds.check_not_below(regen["sctp_s"].to_numpy(), bounds, "paper 002, regenerated SCTP response time")
    why_model = model_reason(conv, search_row(search, conv))
    lone = lone_hit_notes(paper, points, regen, conv.rounding)
    shared = findings.consistency_findings(paper)
    rows: list[Row] = []
    for i, pt in enumerate(points):
        cells = paper.tables[pt.table].cells.set_index("Protocol")
        for row_label, (proto, kind) in ROWS.items():
            printed = cells.loc[row_label, pt.column]
            note = shared_point_note(shared, row_label) if is_shared_point(paper, pt) else ""
            if kind == "model":
                row = model_cell_row(pt, row_label, printed, float(regen[f"{proto}_s"].iloc[i]), conv, why_model,
                                     note, lone[(i, row_label)])
            elif proto == "tcp":
                row = tcp_experiment_row(pt, row_label, printed, ns3.summary_at(simulations, pt, conv.kilo),
                                         conv.rounding, note)
            else:
                row = result_row(PAPER, SOURCES[pt.table], column_label(pt), row_label, printed, None,
                                 rule=conv.rounding,
                                 reason="testbed measurement with lksctp that cannot be re-run here; ns-3 has "
                                        "no SCTP, so there is no simulation either" + note,
                                 not_regenerable=True)
            flag = impossible_note(printed, float(bounds[i]), findings.BOUND_WHAT)
            if flag:  # the flag leads the reason (ledger.IMPOSSIBLE)
                row = replace(row, reason=f"{flag}; {row.reason}", bound=below_bound(printed, float(bounds[i])))
            rows.append(row)
    if real_stacks is None:
        return rows + CLAIMS.rows(paper, Evidence(paper, conv, regen))
    table = emulated.summary(paper, real_stacks, simulations=simulations, conv=conv)
    table.attrs["lost_runs"] = len(real_stacks.lost)
    rows = measured_cells(paper, rows, table, real_stacks, conv)
    claims = CLAIMS.rows(paper, Evidence(paper, conv, regen, real_stacks=table))
    published = [r for r in claims if r.column != emulated_rows.REAL_STACKS]
    measured = [r for r in claims if r.column == emulated_rows.REAL_STACKS]
    return rows + published + emulated_rows.with_run_fidelity(
        emulated_rows.claims_not_run(measured, real_stacks.not_run), real_stacks)


def measured_cells(paper: Paper, rows: list[Row], table: pd.DataFrame, real_stacks: Emulated,
                   conv: Convention) -> list[Row]:
    """Return ``rows`` with every published experimental cell scored against the real stacks' ``table``.

    ``table`` is :func:`paperlib.reproduce.p002.emulated.summary`'s; a cell of a stack that did not run says
    why (``real_stacks.not_run``, or the stacks the application speaks). The reason names the stack measured:
    the settings of a sweep point of the cell's own protocol at its operating point.
    """
    new = {}
    for i, pt in enumerate(operating_points(paper)):
        measured = table.iloc[i]
        for proto, row_label in emulated.EXP_ROW.items():
            key = (SOURCES[pt.table], column_label(pt), row_label)
            old = next(r for r in rows if (r.source, r.row, r.column) == key)
            n = int(measured[f"n {proto.upper()}"])
            at = dict(protocol=proto, rtt_s=pt.rtt_s, loss=pt.p, rate_bps=pt.rate_bps)
            fid = real_stacks.cell_fidelity(**at)

            plan = real_stacks.plan_at(float(measured[f"published {proto.upper()} (s)"]), **at)

            def score(old=old, n=n, proto=proto, measured=measured, at=at, fid=fid, key=key, plan=plan):
                stack = emulated_rows.measured_stack(real_stacks.points, proto, n, f"paper 002, {' '.join(key)}",
                                                     **{k: v for k, v in at.items() if k != "protocol"})
                return emulated_rows.emulated_row(old, measured[f"emulated {proto.upper()} (s)"],
                                                  measured[f"CI95 {proto.upper()} (s)"], n, conv.rounding, stack,
                                                  testbed=paper_stack.TESTBED, fidelity=fid, plan=plan)

            new[key] = emulated_rows.real_stack_cell(
                old, n, fid, real_stacks.not_run or emulated_rows.protocol_not_run(proto), score)
    return emulated_rows.replace(rows, new)


def model_reason(conv: Convention, scores: pd.Series) -> str:
    """Return the reason every model cell shares: the convention, how it was chosen and its scores."""
    conv_text = conv.describe()
    return (f"Table I with the reconstructed algorithm under the one convention of "
            f"p002.operating_point.chosen_convention (IT = {LEDGER_IT_RTTS} RTT and a = {LEDGER_A_MODE}(Np) fixed, "
            f"the rest by systematic search: {conv_text}; {int(scores['reproduced'])} of {int(scores['cells'])} "
            f"model cells reproduced, {int(scores['within_5pct'])} within 5%, mean |rel. error| "
            f"{scores['mean_abs_rel_error']:.1%})")


def lone_hit_notes(paper: Paper, points: list[Point], regen: pd.DataFrame, rule: str) -> dict[tuple[int, str], str]:
    """Return, per (point index, model row label), the lone-hit note of :func:`paperlib.ledger.lone_hits` ("" if none).

    A printed row of one table is a set: a value matching one cell of it by chance while the others differ
    is a lone hit, judged per table and model row.
    """
    lone = {}
    for table in ("table2", "table3"):
        idx = [i for i, pt in enumerate(points) if pt.table == table]
        cells = paper.tables[table].cells.set_index("Protocol")
        for row_label, (proto, kind) in ROWS.items():
            if kind == "model":
                found = lone_hits(regen[f"{proto}_s"].to_numpy()[idx],
                                  [cells.loc[row_label, points[i].column] for i in idx], rule,
                                  [points[i].column for i in idx])
                lone.update({(i, row_label): why for i, why in zip(idx, found, strict=True)})
    return lone


def shared_point_note(shared: pd.DataFrame, row_label: str) -> str:
    """Return the reason's note of a cell at the operating point both tables print (their two prints)."""
    other = shared.loc[row_label]
    return (f"; the same operating point (p = 1 %, RTT = 0.256 s) is printed as {other.iloc[0]} in Table II "
            f"and {other.iloc[1]} in Table III")


def model_cell_row(pt: Point, row_label: str, printed: str, value: float, conv: Convention, why: str, note: str,
                   lone_hit: str) -> Row:
    """Return the ledger row of one printed model cell against the regenerated ``value`` (s)."""
    if classify(value, printed, conv.rounding) != "reproduced":
        why += f"; the model gives {value:.3f} s against the printed {printed} s"
    return result_row(PAPER, SOURCES[pt.table], column_label(pt), row_label, printed, value, rule=conv.rounding,
                      reason=why + note, lone_hit=lone_hit, evidence="model", convention=conv.describe())


def tcp_experiment_row(pt: Point, row_label: str, printed: str, sim: pd.Series | None, rule: str, note: str) -> Row:
    """Return the ledger row of one printed TCP experiment cell, with the ns-3 mean (``sim``) when it ran.

    The ns-3 mean is checked against the loss-free bound of its own transfer (a handshake, then the M
    objects: 2 round trips, no HTML step).
    """
    if sim is None:
        why = ("testbed measurement (NIST Net emulator, Linux TCP) that cannot be re-run here; the ns-3 "
               "simulation of the same scenario was not run in this build")
        value, facts = None, {}
    else:
        why = (f"testbed measurement (NIST Net emulator, Linux TCP) that cannot be re-run here; "
               f"'regenerated' is the ns-3 TCP NewReno simulation of the same scenario "
               f"(mean of {int(sim['finished'])} seeded runs, 95% CI +/- {sim['ci95_s']:.2f} s)")
        value = float(sim["mean_s"])
        facts = dict(evidence="ns-3", n=int(sim["finished"]),
                     interval95=(value - float(sim["ci95_s"]), value + float(sim["ci95_s"])))
        lower_bounds.check_not_below(value, lower_bounds.transfer_latency_lower_bound_s(
            pt.objects * float(units.kbytes_to_bits(pt.obj_kb, kilo=units.DECIMAL)), pt.mss_bytes * 8,
            pt.rate_bps, pt.rtt_s, findings.BOUND_INITIAL_WINDOW, setup_rtts=2),
            f"paper 002, ns-3 mean response time at {column_label(pt)}")
    return result_row(PAPER, SOURCES[pt.table], column_label(pt), row_label, printed, value, rule=rule,
                      reason=why + note, not_regenerable=True, **facts)
