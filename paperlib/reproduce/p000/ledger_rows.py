"""Every ledger row of paper 000: the 144 printed cells of Tables 1-3, the claims, and the re-runs' rows.

:func:`ledger_rows` is the one entry point (:mod:`paperlib.reproduce.protocol`): the model and
experiment cells (W by Eq. (4) under the ledger's convention, each reason saying what the tables' law
gives and whether the print is below its loss-free bound) and the claims
(:data:`paperlib.reproduce.p000.claims.CLAIMS`); given the real stacks' runs, the experimental cells
they measured carry the measurement and the claims they can judge a verdict on them; given the ns-3
record, a row per simulated T_tcp cell and the claim judged on ns-3. :func:`summary_text` is the
notebook's paragraph on the model part.
"""

from __future__ import annotations

import pandas as pd

from paperlib.data import Paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, below_bound, classify, lone_hits, result_row
from paperlib.models import lower_bounds
from paperlib.reproduce.p000 import emulated, ns3
from paperlib.reproduce.p000.claims import CLAIMS, REAL_STACKS, evidence
from paperlib.reproduce.p000.findings import (
    TABULATED_LAW,
    bound_note,
    law_in_m,
    shared_operating_point,
    waiting_bounds,
)
from paperlib.reproduce.p000.operating_point import (
    EXPERIMENT_OF,
    EXPERIMENT_REASON,
    MODEL_COLUMNS,
    PAPER,
    SOURCES,
    Convention,
    chosen_convention,
    convention_search,
    ledger_convention,
    operating_points,
    printed_cells,
)
from paperlib.reproduce.p000.tables import regenerate


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: ns3.Simulations | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 000, in the ledger's order.

    1. the 144 printed cells of Tables 1-3 (:func:`table_rows`); with ``real_stacks`` (the
       :class:`~paperlib.emulation.notebook.Emulated` runs of the notebook, also when they did not run)
       the experimental cells scored against the measurements or saying why none was made
       (:func:`paperlib.reproduce.p000.emulated.cell_rows`);
    2. the claims judged on the published tables, in the order of ``claims.csv``;
    3. with ``real_stacks``: the claims judged on the emulated W (column ``emulated (real stacks)``,
       saying why when nothing ran);
    4. with ``simulations`` (:class:`paperlib.reproduce.p000.ns3.Simulations`): a row per printed T_tcp
       cell ns-3 ran (column ``T_{tcp} (ns-3)``) and the claim judged on ns-3.

    ``search`` is :func:`~paperlib.reproduce.p000.operating_point.convention_search`'s frame (None:
    searched here). Without ``real_stacks`` and ``simulations`` the rows are the model's: the
    experimental cells say the testbed cannot be re-run. Raises
    :class:`paperlib.models.lower_bounds.BoundViolation` if a regenerated W is below its bound.
    """
    search = convention_search(paper) if search is None else search
    conv = ledger_convention(paper, search)
    rows = table_rows(paper, search, conv)
    measured = None
    if real_stacks is not None:
        measured = emulated.summary(paper, real_stacks, conv=chosen_convention(paper, search))
        measured.attrs["lost_runs"] = len(real_stacks.lost)
        rows = emulated_rows.replace(rows, emulated.cell_rows(paper, rows, measured, real_stacks, conv.rounding))
    claims = CLAIMS.rows(paper, evidence(paper, conv, real_stacks=measured, simulations=simulations))
    on_real_stacks = [r for r in claims if r.column == REAL_STACKS]
    on_ns3 = [r for r in claims if r.column == ns3.CLAIM_COLUMN]
    rows += [r for r in claims if r.column not in (REAL_STACKS, ns3.CLAIM_COLUMN)]
    if real_stacks is not None:
        rows += emulated_rows.with_run_fidelity(emulated_rows.claims_not_run(on_real_stacks, real_stacks.not_run),
                                                real_stacks)
    if simulations is not None:
        rows += ns3.cell_rows(paper, conv, simulations.table) + on_ns3
    return rows


def table_rows(paper: Paper, search: pd.DataFrame, conv: Convention) -> list[Row]:
    """Return the ledger rows of the 144 printed cells of Tables 1-3 under the ledger's convention ``conv``.

    Every row says what the printed law gives and whether the print is below its loss-free bound
    (:func:`~paperlib.reproduce.p000.findings.waiting_bounds`); the experimental cells are
    ``not_regenerable`` (:data:`~paperlib.reproduce.p000.operating_point.EXPERIMENT_REASON`).
    """
    tab_conv = chosen_convention(paper, search)
    best = search.iloc[0]
    regen = regenerate(paper, conv).set_index(["table", "block", "m", "column"])
    laws = law_in_m(paper).set_index(["table", "block", "column"])
    bounds = waiting_bounds(paper).set_index(["table", "block", "m", "column"])
    model_keys = list(regen.index)
    lower_bounds.check_not_below(regen["regenerated"].to_numpy(),
                                 bounds.loc[model_keys, "round-robin bound"].to_numpy(),
                                 "paper 000, regenerated W (Eq. (4)) against the packet round-robin bound")
    below = int((regen["W tabulated law"].to_numpy() < bounds.loc[model_keys, "round-robin bound"].to_numpy()).sum())
    points = operating_points(paper)
    shared = shared_operating_point(paper)
    lone: dict[tuple, str] = {}
    for (table, column), sub in regen.reset_index().groupby(["table", "column"], sort=False):
        found = lone_hits(sub["regenerated"].to_numpy(), list(sub["compare_as"]), conv.rounding,
                          [f"{b}, m={m}" for b, m in zip(sub["block"], sub["m"], strict=True)])
        lone.update({(table, b, m, column): why for b, m, why in zip(sub["block"], sub["m"], found, strict=True)})
    rows: list[Row] = []
    for c in printed_cells(paper):
        pt = points[c.point]
        notes = [n for n in (pt.note, c.note) if n]
        own = f"{SOURCES[pt.table]} {pt.label}"
        if own in shared.columns:
            others = shared.loc[(c.column, c.m)].drop(own)
            notes.append("the same operating point (p = 1 %, rtt 256 ms, 40 Kbps) is printed as "
                         + ", ".join(f"{v} in {k}" for k, v in others.items()))
        c_fit = laws.loc[(c.table, c.label, c.column), "c [(m-1)/m]"]
        bound = bounds.loc[(c.table, c.label, c.m, c.column)]
        flag = bound_note(c.compare_as, bound, pt.rate_bps)
        bound_col = below_bound(c.compare_as, float(bound["round-robin bound"]))
        if c.column in MODEL_COLUMNS:
            key = (c.table, c.label, c.m, c.column)
            value = float(regen.loc[key, "regenerated"])
            tab = float(regen.loc[key, "W tabulated law"])
            why = (f"E(T) by Eq. (2) (paperlib.models.narrowband_response), tau = E/n, W by Eq. (4) (the ledger's "
                   f"law, p000.operating_point.LEDGER_WAITING), model conventions from the systematic search "
                   f"({conv.describe()}); "
                   f"the law the printed tables follow, {TABULATED_LAW} (Eq. (4) divided by m), gives "
                   f"{tab:.3f} s here ({classify(tab, c.compare_as, tab_conv.rounding)} against the print; under "
                   f"it {int(best['within_5pct'])} of {int(best['cells'])} model cells are within 5%), but that law "
                   f"is physically impossible: it is below the loss-free round-robin bound "
                   f"({float(bound['round-robin bound']):.3f} s here) in {below} of {len(model_keys)} model cells")
            rows.append(result_row(PAPER, SOURCES[c.table], c.row, c.column, c.published, value, rule=conv.rounding,
                                   reason="; ".join([n for n in (flag,) if n] + notes + [why]),
                                   compare_as=c.compare_as, lone_hit=lone[key], evidence="model",
                                   convention=conv.describe(), bound=bound_col))
        else:
            model_column = next(k for k, v in EXPERIMENT_OF.items() if v == c.column)
            model = float(regen.loc[(c.table, c.label, c.m, model_column), "regenerated"])
            why = (f"{EXPERIMENT_REASON}; the printed column itself follows c (m-1)/m (c = {c_fit:.3f} s), so it was "
                   f"computed from measured single-user times by the tables' law; for comparison the regenerated "
                   f"model (Eq. (4)) gives {model:.3f} s here")
            rows.append(result_row(PAPER, SOURCES[c.table], c.row, c.column, c.published, None, rule=conv.rounding,
                                   reason="; ".join([n for n in (flag,) if n] + notes + [why]), not_regenerable=True,
                                   bound=bound_col))
    return rows


CLAIM_COLUMNS = ("claim", "DIFF_mean (%)", "mean difference (%)")


def summary_text(frame: pd.DataFrame, regen: pd.DataFrame) -> str:
    """Return the notebook's Markdown summary of the ledger ``frame`` (model cells, spans of error, claims).

    ``regen`` is :func:`paperlib.reproduce.p000.tables.regenerate` under the chosen convention.
    """
    claims = frame[frame.column.isin(CLAIM_COLUMNS)]
    model = frame[frame.column.str.startswith("W_")]
    err = regen.groupby(["table", "block"], sort=False)["rel_error"].agg(["min", "max"])

    def span(rows):
        sub = err.loc[rows]
        return f"{sub['min'].min():+.0%} to {sub['max'].max():+.0%}"

    return (
        f"**Summary.** Under one convention for all three tables, {int((model.status == 'reproduced').sum())} of "
        f"{len(model)} printed model cells are reproduced and {int(model.status.isin(['reproduced', 'close']).sum())} "
        f"are within 5%. Regenerated vs printed W: Table 1 {span([('table1', b) for b in ('0.4 %', '1 %', '2 %')])} "
        f"(Table 1 also contradicts Table 3 at their shared operating point); Table 2's 40 Kbps block "
        f"{span([('table2', '4 Kbps')])}, its 400 and 3000 Kbps blocks "
        f"{span([('table2', '400 Kbps'), ('table2', '3000 Kbps')])}; "
        f"Table 3 {span([('table3', b) for b in ('55 ms', '80 ms', '256 ms')])}. "
        f"The tables follow W = c (m-1)/m, not Eq. (4). The 72 experimental cells cannot be regenerated.\n\n"
        + "\n".join(f"* {r.row} — **{r.status}**" for r in claims.itertuples())
    )
