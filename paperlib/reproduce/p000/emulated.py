"""Paper 000 on real stacks: Tables 1-3's multi-user experiment re-run through the emulated link.

Operating points as the package reads them (:func:`paperlib.reproduce.p000.operating_point.operating_points`, with the
printed "4 Kbps" read as 40 Kbps), theta = 13.5 KB (KB = 1000 B), mtu = 536 B (MSS 536, MTU 576),
initial window 2 segments (Sec. 2: "its initial value is 2 x mtu"), loss p on the data direction.
m users start together, each with its own TCP connection (SCTP: its own association) for one object,
all through the one link ("connected to the external users through only one link", Eq. (4)).

Waiting time, as the model defines it: Eqs. (4) and (6) give T - W = n tau = E(T), the single
user's response time, so a user's waiting time is its turnaround time (from the common start to
its last byte) minus the single-user response time at the same point: the mean over repetitions of
the m users' mean turnaround minus the mean over repetitions of runs with m = 1, with the Welch 95%
interval of that difference. Reduced profile: m = 5, a pilot of 5 repetitions; full: m = 5, 10, 20, 30 and 10
repetitions; then each printed experimental cell runs the replications :data:`paperlib.replications.MEASURED_RULE`
gives it, its m users' runs and the single-user baselines alike (:func:`measured_cells`; 20, or the grid's own
repetitions if more).

:func:`points` is the grid :func:`run` runs (through :func:`paperlib.emulation.notebook.run`), :func:`summary`
the emulated W per printed row; :func:`cell_rows` scores the printed experimental cells against it (for
:func:`paperlib.reproduce.p000.ledger_rows.ledger_rows`), and the claims judged on it are in
:mod:`paperlib.reproduce.p000.claims`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import replications
from paperlib.data import Paper
from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation import notebook as emulation_notebook
from paperlib.emulation.notebook import Emulated, MeasuredCell, cell_fidelity
from paperlib.ledger import Row
from paperlib.reproduce.p000 import operating_point
from paperlib.reproduce.p000 import stack as paper_stack
from paperlib.reproduce.p000.operating_point import Convention
from paperlib.reproduce.p000.tables import regenerate

PAPER = "000"
EXP_COLUMN = {"sctp": "T_{sctp}", "tcp": "T_{tcp}"}
MODEL_COLUMN = {"sctp": "W_{sctp}", "tcp": "W_{tcp}"}
INITCWND = paper_stack.tcp_settings().initcwnd
QUEUE_PACKETS = 100


def users_of(profile: str) -> list[int]:
    """Return the numbers of users m of an emulation profile (reduced: m = 5; full: the printed m)."""
    return [5] if profile == "reduced" else [5, 10, 20, 30]


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the distinct sweep points (with the m = 1 baselines) for ``profile``."""
    experiments.check_profile(profile)
    if profile == "off":
        return []
    kilo = operating_point.chosen_convention(paper).kilo
    obj = operating_point.web_object(paper)
    reps = replications.PILOT if profile == "reduced" else 10
    seen, out = set(), []
    for pt in operating_point.operating_points(paper):
        if experiments.operating_point_key(pt) in seen:
            continue
        seen.add(experiments.operating_point_key(pt))
        for proto in experiments.protocols():
            for m in [1, *users_of(profile)]:
                for k in range(reps):
                    out.append(dict(paper=PAPER, protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s),
                                    loss=float(pt.p), queue_packets=QUEUE_PACKETS, mss_bytes=int(obj.mtu_bytes),
                                    initcwnd=INITCWND, object_bytes=int(round(obj.obj_kb * kilo)), objects=1, users=m,
                                    mode="per_object", rep=k))
    return out


def run(paper: Paper, profile: str, out: Path, *, scheduler_links: int | None = None) -> Emulated:
    """Run :func:`points` of ``profile`` on the real stacks (or say why not) and write ``emulation_runs.csv`` into
    ``out`` (:func:`paperlib.emulation.notebook.run`)."""
    return emulation_notebook.run(sys.modules[__name__], paper, profile, out, scheduler_links)


def cell_at(proto: str, pt, m: int) -> dict:
    """Return the sweep parameters of a printed cell's runs: its protocol and operating point, m users and 1 (the
    single-user baseline its waiting time subtracts)."""
    return dict(protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s), loss=float(pt.p), users=(1, int(m)))


def measured_cells(paper: Paper, kept: pd.DataFrame) -> list[MeasuredCell]:
    """Return the printed experimental cells of Tables 1-3 with one waiting time per replication of their runs in
    ``kept`` (the runs that kept their timing): the m users' mean turnaround minus the single-user response time
    of the same repetition, where both kept their timing. Its spread is that of the Welch difference the ledger
    row's interval is of (two independent runs per replication); :func:`paperlib.emulation.notebook.run` plans
    the replications of both kinds of runs from it."""
    reps = per_repetition(kept)
    pts = operating_point.operating_points(paper)
    out = []
    for c in operating_point.printed_cells(paper, list(EXP_COLUMN.values())):
        proto = "sctp" if c.column == EXP_COLUMN["sctp"] else "tcp"
        pt = pts[c.point]
        at = at_point(reps, proto, pt)
        many = at[at.m == c.m].set_index("rep").turnaround_s
        one = at[at.m == 1].set_index("rep").turnaround_s
        both = sorted(set(many.index) & set(one.index))
        out.append(MeasuredCell(f"{operating_point.SOURCES[c.table]}, {c.row}, {c.column}", cell_at(proto, pt, c.m),
                                float(c.compare_as), tuple(float(many[k] - one[k]) for k in both)))
    return out


def per_repetition(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run: its point, protocol, m, rep and the mean turnaround of its users (s).

    For m = 1 the turnaround is the single-user response time E(T) of that repetition.
    """
    rows = []
    for _, r in runs.iterrows():
        rows.append({"protocol": r.protocol, "rate_bps": r.rate_bps, "rtt_s": r.rtt_s, "loss": r.loss, "m": r.users,
                     "rep": r.rep, "turnaround_s": float(np.mean(np.array(r.t_done) - r.t0))})
    return pd.DataFrame(rows, columns=["protocol", "rate_bps", "rtt_s", "loss", "m", "rep", "turnaround_s"])


def at_point(reps: pd.DataFrame, proto: str, pt) -> pd.DataFrame:
    """Return the rows of :func:`per_repetition`'s ``reps`` of protocol ``proto`` at operating point ``pt``."""
    return reps[(reps.protocol == proto) & np.isclose(reps.rate_bps, pt.rate_bps) & np.isclose(reps.rtt_s, pt.rtt_s)
                & np.isclose(reps.loss, pt.p)]


def waiting(reps: pd.DataFrame, proto: str, m: int, pt) -> tuple[float, float, int, float]:
    """Return the emulated waiting time at point ``pt`` with its interval, its repetitions and the single-user mean.

    W = mean turnaround (m users) - mean single-user response time, with its Welch 95% CI half-width.
    """
    at = at_point(reps, proto, pt)
    many, one = at[at.m == m].turnaround_s, at[at.m == 1].turnaround_s
    if len(many) == 0 or len(one) == 0:
        return float("nan"), float("nan"), 0, float("nan")
    mean, half, _ = experiments.diff_ci(many, one)
    return mean, half, int(min(len(many), len(one))), float(one.mean())


def summary(paper: Paper, real_stacks: Emulated, *, conv: Convention | None = None) -> pd.DataFrame:
    """Return one row per printed row of Tables 1-3: published W (model) and T (experiment), emulated W with CI,
    from the runs of ``real_stacks`` that kept their timing.

    The model W is regenerated under ``conv`` (default: the chosen convention,
    :func:`paperlib.reproduce.p000.operating_point.chosen_convention`).
    """
    conv = operating_point.chosen_convention(paper) if conv is None else conv
    model = regenerate(paper, conv).set_index(["table", "block", "m", "column"])
    reps = per_repetition(real_stacks.runs)
    pts = operating_point.operating_points(paper)
    out = []
    for c in operating_point.printed_cells(paper, list(EXP_COLUMN.values())[:1]):
        pt = pts[c.point]
        row = {"table": operating_point.SOURCES[c.table], "block": c.label, "m": c.m}
        cells = paper.tables[c.table].cells
        label_col = cells.columns[0]
        printed = cells[(cells[label_col].replace("", np.nan).ffill() == c.label) & (cells["m"].astype(int) == c.m)]
        for proto in ("sctp", "tcp"):
            mean, half, n, alone = waiting(reps, proto, c.m, pt)
            row |= {f"published {EXP_COLUMN[proto]}": float(printed[EXP_COLUMN[proto]].iloc[0]),
                    f"model {MODEL_COLUMN[proto]}": float(model.loc[(c.table, c.label, c.m, MODEL_COLUMN[proto]),
                                                                    "regenerated"]),
                    f"emulated W {proto.upper()} (s)": mean, f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n,
                    f"emulated single {proto.upper()} (s)": alone}
        out.append(row)
    return pd.DataFrame(out)


def cell_rows(paper: Paper, rows: list[Row], table: pd.DataFrame, real_stacks: Emulated,
              rule: str) -> dict[tuple[str, str, str], Row]:
    """Return the printed experimental cells of ``rows`` scored against the real stacks, by (source, row, column).

    :func:`paperlib.reproduce.p000.ledger_rows.ledger_rows` puts them in place of the model's rows when given
    ``real_stacks`` (the :class:`paperlib.emulation.notebook.Emulated` runs; ``table`` is their :func:`summary`).
    A cell the runs measured is :func:`paperlib.emulation.ledger_rows.emulated_row` (a measured status, under
    the print ``rule``), its reason naming the stack of the cell's own protocol; a cell they did not measure
    keeps its row with the reason why (:func:`paperlib.emulation.ledger_rows.not_run_row`).
    """
    points = operating_point.operating_points(paper)
    idx = table.set_index(["table", "block", "m"])
    new = {}
    for c in operating_point.printed_cells(paper, list(EXP_COLUMN.values())):
        proto = "sctp" if c.column == EXP_COLUMN["sctp"] else "tcp"
        key = (operating_point.SOURCES[c.table], c.row, c.column)
        old = next(r for r in rows if (r.source, r.row, r.column) == key)
        t = idx.loc[(operating_point.SOURCES[c.table], c.label, c.m)]
        n = int(t[f"n {proto.upper()}"])
        why = real_stacks.not_run or (
            f"m = {c.m} is not in the reduced grid (m = 5 only; PROFILE=full runs every m)"
            if proto in experiments.protocols() else
            emulated_rows.protocol_not_run(proto))
        pt = points[c.point]
        # the cell's runs: its m users' and the single-user baselines at its operating point; a cell whose m
        # users never ran (kept or lost) has no fidelity of its own, whatever its baselines did
        at = dict(protocol=proto, rtt_s=pt.rtt_s, loss=pt.p, rate_bps=pt.rate_bps)
        runs = real_stacks.cell_runs(**at)
        fid = cell_fidelity(runs[runs.users.isin([1, c.m])]) if "users" in runs and (runs.users == c.m).any() else None

        plan = real_stacks.plan_at(float(c.compare_as), **cell_at(proto, pt, c.m))

        def score(old=old, n=n, proto=proto, t=t, pt=pt, key=key, c=c, fid=fid, plan=plan):
            stack = emulated_rows.measured_stack(real_stacks.points, proto, n, f"paper 000, {' '.join(key)}",
                                                 rtt_s=pt.rtt_s, loss=pt.p, rate_bps=pt.rate_bps)
            return emulated_rows.emulated_row(
                old, t[f"emulated W {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n, rule,
                f"W = mean turnaround of the m users - mean single-user response time, Welch CI (Eqs. (4), (6)); "
                f"{stack}", compare_as=c.compare_as, testbed=paper_stack.TESTBED, fidelity=fid, plan=plan)

        new[key] = emulated_rows.real_stack_cell(old, n, fid, why, score)
    return new


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of :func:`summary` the notebook shows: those with TCP emulated, else all."""
    ran = table[table["n TCP"] > 0]
    return ran if len(ran) else table


def rows_in_figure(table: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of :func:`summary` the figure draws: those with a stack emulated, else the m = 5 rows."""
    ran = table[(table["n TCP"] > 0) | (table["n SCTP"] > 0)]
    return ran if len(ran) else table[table["m"] == 5]


def summary_text(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return the notebook's Markdown line on the ledger ``frame``
    (:func:`paperlib.emulation.ledger_rows.cells_sentence`)."""
    return emulated_rows.cells_sentence(frame, not_run)
