"""Paper 004 on real stacks: Table II's experiment re-run through the emulated link.

The operating point is the package's reading of the paper
(:func:`paperlib.reproduce.p004.operating_point.chosen_convention`):
T_r = 0.1 s is the one-way delay set on the emulator (round trip 0.2 s), 50 KB = 50 000 B, L_mtu = 1500 B
(MSS 1460 B), initial window x = 2 as Fig. 1 states it (for TCP and SCTP alike; the convention search's
x = 4 is fitted to the printed model cells and is not used here), one object per connection, no loss. Each
repetition opens a fresh connection per object and measures from ``connect`` to the object's last byte
(the model's LT includes the set-up round trip). The reduced profile runs a pilot of 5 repetitions of 1 object
per rate and protocol, the full one the paper's 10 runs of 5 objects; then each published experimental cell runs
the replications :data:`paperlib.replications.MEASURED_RULE` gives it (:func:`measured_cells`; 20, or the grid's
own repetitions if more).
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
from paperlib.emulation.notebook import Emulated, MeasuredCell
from paperlib.reproduce.p004 import operating_point, tables
from paperlib.reproduce.p004 import stack as paper_stack

PAPER = operating_point.PAPER
#: Table II's experimental and model column of each protocol.
EXP = {proto: column for column, proto in tables.EXP_COLUMNS.items()}
MODEL = {proto: column for column, proto in tables.MODEL_COLUMNS.items()}
QUEUE_PACKETS = 100
INITCWND = paper_stack.tcp_settings().initcwnd


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the sweep points of Table II's experiment for ``profile`` ('reduced' or 'full')."""
    experiments.check_profile(profile)
    if profile == "off":
        return []
    conv = operating_point.chosen_convention(paper)
    point = operating_point.operating_point(paper)
    obj_bits, mtu_bits, rtt = operating_point.model_inputs(point, conv.rtt_meaning, conv.kilo)
    reps, objects = (replications.PILOT, 1) if profile == "reduced" else (10, point.n_objects)
    return [dict(paper=PAPER, protocol=proto, rate_bps=float(rate), rtt_s=float(rtt), loss=0.0,
                 queue_packets=QUEUE_PACKETS,
                 mss_bytes=int(mtu_bits / 8) - 40, initcwnd=INITCWND, object_bytes=int(obj_bits / 8),
                 objects=objects, users=1, mode="per_object", rep=k)
            for proto in experiments.protocols() for rate in point.rates_bps for k in range(reps)]


def measured_cells(paper: Paper, kept: pd.DataFrame) -> list[MeasuredCell]:
    """Return Table II's experimental cells with the mean latency of each of their runs in ``kept`` (the runs that
    kept their timing): what :func:`paperlib.emulation.notebook.run` plans the replications from."""
    point = operating_point.operating_point(paper)
    reps = per_repetition(kept) if len(kept) else pd.DataFrame(columns=["protocol", "rate_bps", "latency_s"])
    cells = paper.tables["table2"].cells
    out = []
    for i, label in enumerate(point.rate_labels):
        for proto in ("sctp", "tcp"):
            sel = at_rate(reps, proto, point.rates_bps[i])
            out.append(MeasuredCell(f"Table II, {label}, {EXP[proto]}",
                                    dict(protocol=proto, rate_bps=float(point.rates_bps[i])),
                                    float(cells[EXP[proto]].iloc[i]), tuple(float(v) for v in sel.latency_s)))
    return out


def at_rate(reps: pd.DataFrame, proto: str, rate_bps: float) -> pd.DataFrame:
    """Return the rows of :func:`per_repetition`'s ``reps`` of protocol ``proto`` at link rate ``rate_bps``."""
    return reps[(reps.protocol == proto) & np.isclose(reps.rate_bps.astype(float), rate_bps)]


def per_repetition(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run: protocol, rate, rep and the mean latency of its objects (s)."""
    rows = []
    for _, r in runs.iterrows():
        lat = np.array(r["t_done"]) - np.array(r["t_start"])
        rows.append({"protocol": r["protocol"], "rate_bps": r["rate_bps"], "rep": r["rep"],
                     "latency_s": float(lat.mean()), "objects": len(lat)})
    return pd.DataFrame(rows)


def run(paper: Paper, profile: str, out: Path, *, scheduler_links: int | None = None) -> Emulated:
    """Run :func:`points` of ``profile`` on the real stacks (or say why not) and write ``emulation_runs.csv`` into
    ``out`` (:func:`paperlib.emulation.notebook.run`)."""
    return emulation_notebook.run(sys.modules[__name__], paper, profile, out, scheduler_links)


def summary(paper: Paper, real_stacks: Emulated) -> pd.DataFrame:
    """Return Table II with the emulated mean latency and its 95% CI (over repetitions) per rate and protocol, from
    the runs of ``real_stacks`` that kept their timing."""
    point = operating_point.operating_point(paper)
    model = tables.regenerate_table2(point, operating_point.chosen_convention(paper))
    runs = real_stacks.runs
    reps = per_repetition(runs) if len(runs) else pd.DataFrame(columns=["protocol", "rate_bps", "latency_s"])
    cells = paper.tables["table2"].cells
    out = []
    for i, label in enumerate(point.rate_labels):
        row = {"BANDWIDTH": label}
        for proto in ("sctp", "tcp"):
            sel = at_rate(reps, proto, point.rates_bps[i])
            mean, half, n = experiments.mean_ci(sel.latency_s)
            row |= {EXP[proto]: float(cells[EXP[proto]].iloc[i]), f"emulated {proto.upper()} (s)": mean,
                    f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n,
                    f"model {proto.upper()} (s)": float(model[MODEL[proto]].iloc[i])}
        out.append(row)
    return pd.DataFrame(out)


#: The rates (bit/s) of the packet-capture cross-check: Table II's 100 Kbps and 10 Mbps rows.
CAPTURE_RATES_BPS = (100e3, 10e6)


def capture_points(points: list[dict]) -> list[dict]:
    """Return the packet-capture cross-check's points: the first repetition of each protocol at
    :data:`CAPTURE_RATES_BPS` among ``points``, one object each (``paperlib.emulation.capture.crosscheck``)."""
    return [{**pt, "objects": 1} for pt in points if pt["rep"] == 0 and pt["rate_bps"] in CAPTURE_RATES_BPS]


def real_stacks_text(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return the notebook's sentence (Markdown) on the written ledger ``frame``: how many published experimental
    cells are close to the real stacks, and why nothing ran (``not_run``) if so
    (:func:`paperlib.emulation.ledger_rows.cells_sentence`)."""
    return emulated_rows.cells_sentence(frame, not_run)
