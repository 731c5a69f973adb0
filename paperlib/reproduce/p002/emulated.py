"""Paper 002 on real stacks: Tables II and III's experiments re-run through the emulated link.

Operating points as printed (p, RTT, R = 40 Kbps, O = 13.5 KB with KB = 1000 B as the chosen
convention reads it, MSS = 536 B, M = 5 objects). The printed RTT is the link's round-trip
propagation (delay RTT/2 each way); the loss ratio p drops data packets (server -> client).
HTTP over TCP is one persistent connection with the M requests pipelined; HTTP over SCTP one
association with one object per stream. The response time is from ``connect`` to the last byte
of the last object. Initial window 1 segment for both stacks (paper 002 states none; its slow-start time
starts from one segment). Reduced profile: a pilot of 5 repetitions per point and protocol (full: 10), then
each published experimental cell runs the replications :data:`paperlib.replications.MEASURED_RULE` gives it
(:func:`measured_cells`; 20, or the grid's own repetitions if more).

:func:`run` runs :func:`points` (through :func:`paperlib.emulation.notebook.run`); :func:`summary` is the table
the notebook shows and the claims judge (``claims.Evidence.real_stacks``);
:func:`paperlib.reproduce.p002.ledger_rows.ledger_rows` scores the published experimental cells against it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import replications
from paperlib.data import Paper
from paperlib.emulation import experiments, ledger_rows
from paperlib.emulation import notebook as emulation_notebook
from paperlib.emulation.notebook import Emulated, MeasuredCell
from paperlib.reproduce.p002 import ns3
from paperlib.reproduce.p002 import stack as paper_stack
from paperlib.reproduce.p002.operating_point import (
    Convention,
    chosen_convention,
    column_label,
    operating_points,
    regenerate,
)
from paperlib.reproduce.p002.tables import SOURCES

PAPER = "002"
#: The printed experimental row of each stack.
EXP_ROW = {"tcp": "TCP (Experimental) (Sec)", "sctp": "SCTP (Experimental) (Sec)"}
INITCWND = paper_stack.tcp_settings().initcwnd
QUEUE_PACKETS = 100


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the distinct sweep points of Tables II and III for ``profile``."""
    experiments.check_profile(profile)
    if profile == "off":
        return []
    kilo = chosen_convention(paper).kilo
    reps = replications.PILOT if profile == "reduced" else 10
    seen, out = set(), []
    for pt in operating_points(paper):
        if experiments.operating_point_key(pt) in seen:
            continue
        seen.add(experiments.operating_point_key(pt))
        for proto in experiments.protocols():
            for k in range(reps):
                out.append(dict(paper=PAPER, protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s),
                                loss=float(pt.p), queue_packets=QUEUE_PACKETS, mss_bytes=int(pt.mss_bytes),
                                initcwnd=INITCWND, object_bytes=int(round(pt.obj_kb * kilo)), objects=int(pt.objects),
                                users=1, mode="pipelined", rep=k))
    return out


def run(paper: Paper, profile: str, out: Path, *, scheduler_links: int | None = None) -> Emulated:
    """Run :func:`points` of ``profile`` on the real stacks (or say why not) and write ``emulation_runs.csv`` into
    ``out`` (:func:`paperlib.emulation.notebook.run`)."""
    return emulation_notebook.run(sys.modules[__name__], paper, profile, out, scheduler_links)


def measured_cells(paper: Paper, kept: pd.DataFrame) -> list[MeasuredCell]:
    """Return every published experimental cell of Tables II and III with the response times of its runs in
    ``kept`` (the runs that kept their timing): what :func:`paperlib.emulation.notebook.run` plans the
    replications from. A cell printed in both tables appears once per print."""
    reps = per_repetition(kept)
    out = []
    for pt in operating_points(paper):
        cells = paper.tables[pt.table].cells.set_index("Protocol")
        for proto in ("tcp", "sctp"):
            at = dict(protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s), loss=float(pt.p))
            sel = at_point(reps, proto, pt)
            out.append(MeasuredCell(f"{SOURCES[pt.table]}, {column_label(pt)}, {EXP_ROW[proto]}", at,
                                    float(cells.loc[EXP_ROW[proto], pt.column]),
                                    tuple(float(v) for v in sel.response_s)))
    return out


def at_point(reps: pd.DataFrame, proto: str, pt) -> pd.DataFrame:
    """Return the rows of :func:`per_repetition`'s ``reps`` of protocol ``proto`` at operating point ``pt``."""
    return reps[(reps.protocol == proto) & np.isclose(reps.rtt_s, pt.rtt_s) & np.isclose(reps.loss, pt.p)
                & np.isclose(reps.rate_bps, pt.rate_bps)]


def per_repetition(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run: its point, protocol, rep and response time (s) from connect to the last object."""
    rows = []
    for _, r in runs.iterrows():
        rows.append({"protocol": r["protocol"], "rate_bps": r["rate_bps"], "rtt_s": r["rtt_s"], "loss": r["loss"],
                     "rep": r["rep"], "response_s": float(max(r["t_done"]) - min(r["t_start"]))})
    return pd.DataFrame(rows, columns=["protocol", "rate_bps", "rtt_s", "loss", "rep", "response_s"])


def summary(paper: Paper, real_stacks: Emulated, *, simulations: ns3.Simulations | None = None,
            conv: Convention | None = None) -> pd.DataFrame:
    """Return one row per printed column of Tables II/III: published experiment, model, ns-3 TCP, real stacks.

    Columns per stack: the published experiment, the model, the emulated mean, its 95% half-width and the
    repetitions; and the ns-3 TCP mean and half-width (NaN when not run).

    ``real_stacks`` holds the runs (those that kept their timing count), ``simulations`` the ns-3 record
    (:func:`paperlib.reproduce.p002.ns3.run`), ``conv`` the chosen convention (``None``: chosen here).
    """
    conv = chosen_convention(paper) if conv is None else conv
    pts = operating_points(paper)
    model = regenerate(pts, conv)
    reps = per_repetition(real_stacks.runs)
    out = []
    for i, pt in enumerate(pts):
        cells = paper.tables[pt.table].cells.set_index("Protocol")
        row = {"table": SOURCES[pt.table], "column": pt.column, "p": pt.p, "rtt_s": pt.rtt_s}
        for proto in ("tcp", "sctp"):
            sel = at_point(reps, proto, pt)
            mean, half, n = experiments.mean_ci(sel.response_s)
            row |= {f"published {proto.upper()} (s)": float(cells.loc[EXP_ROW[proto], pt.column]),
                    f"emulated {proto.upper()} (s)": mean, f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n}
            if f"{proto}_s" in model:
                row[f"model {proto.upper()} (s)"] = float(model[f"{proto}_s"].iloc[i])
        sim = ns3.summary_at(simulations, pt, conv.kilo)
        row["ns-3 TCP (s)"] = float("nan") if sim is None else float(sim["mean_s"])
        row["ns-3 CI95 TCP (s)"] = float("nan") if sim is None else float(sim["ci95_s"])
        out.append(row)
    return pd.DataFrame(out)


def summary_text(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return the notebook's sentence on the real stacks (:func:`paperlib.emulation.ledger_rows.cells_sentence`)."""
    return ledger_rows.cells_sentence(frame, not_run)


def link_rates_bps(paper: Paper) -> list[float]:
    """Return the distinct link rates (bit/s) of Tables II and III (the emulator's accuracy is measured at them)."""
    return sorted({float(pt.rate_bps) for pt in operating_points(paper)})
