"""Seed 004 on real stacks: Table II's experiment re-run through the emulated link.

The operating point is the package's reading of the paper (:func:`paperlib.reproduce.p004.chosen_convention`):
T_r = 0.1 s is the one-way delay set on the emulator (round trip 0.2 s), 50 KB = 50 000 B, L_mtu = 1500 B
(MSS 1460 B), initial window x = 2 as Fig. 1 states it (for TCP and SCTP alike; the convention search's
x = 4 is fitted to the printed model cells and is not used here), one object per connection, no loss. Each
repetition opens a fresh connection per object and measures from ``connect`` to the object's last byte
(the model's LT includes the set-up round trip). The reduced profile runs 3 repetitions of 1 object
per rate and protocol; the full one the paper's 10 runs of 5 objects.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.emulation import tcp_settings
from paperlib.ledger import Row
from paperlib.reproduce import p004

PAPER = "004"
EXP = {"sctp": "Exp(SCTP)", "tcp": "Exp(TCP)"}
MODEL = {"sctp": "Model(SCTP)", "tcp": "Model(TCP)"}
QUEUE_PACKETS = 100
INITCWND = tcp_settings.INITIAL_WINDOW[PAPER]


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the sweep points of Table II's experiment for ``profile`` ('reduced' or 'full')."""
    ex.check_profile(profile)
    if profile == "off":
        return []
    conv = p004.chosen_convention(paper)
    op = p004.operating_point(paper)
    obj_bits, mtu_bits, rtt = p004.model_inputs(op, conv["rtt_meaning"], conv["kilo"])
    reps, objects = (3, 1) if profile == "reduced" else (10, op.n_objects)
    return [dict(paper=PAPER, protocol=proto, rate_bps=float(rate), rtt_s=float(rtt), loss=0.0,
                 queue_packets=QUEUE_PACKETS,
                 mss_bytes=int(mtu_bits / 8) - 40, initcwnd=INITCWND, object_bytes=int(obj_bits / 8),
                 objects=objects, users=1, mode="per_object", rep=k)
            for proto in ex.protocols() for rate in op.rates_bps for k in range(reps)]


def per_repetition(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run: protocol, rate, rep and the mean latency of its objects (s)."""
    rows = []
    for _, r in runs.iterrows():
        lat = np.array(r["t_done"]) - np.array(r["t_start"])
        rows.append({"protocol": r["protocol"], "rate_bps": r["rate_bps"], "rep": r["rep"],
                     "latency_s": float(lat.mean()), "objects": len(lat)})
    return pd.DataFrame(rows)


def summary(paper: Paper, runs: pd.DataFrame) -> pd.DataFrame:
    """Return Table II with the emulated mean latency and its 95% CI (over repetitions) per rate and protocol."""
    op = p004.operating_point(paper)
    conv = p004.chosen_convention(paper)
    model = p004.regenerate_table2(op, **conv)
    reps = per_repetition(runs) if len(runs) else pd.DataFrame(columns=["protocol", "rate_bps", "latency_s"])
    cells = paper.tables["table2"].cells
    out = []
    for i, label in enumerate(op.rate_labels):
        row = {"BANDWIDTH": label}
        for proto in ("sctp", "tcp"):
            sel = reps[(reps.protocol == proto) & np.isclose(reps.rate_bps.astype(float), op.rates_bps[i])]
            mean, half, n = ex.mean_ci(sel.latency_s)
            row |= {EXP[proto]: float(cells[EXP[proto]].iloc[i]), f"emulated {proto.upper()} (s)": mean,
                    f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n,
                    f"model {proto.upper()} (s)": float(model[MODEL[proto]].iloc[i])}
        out.append(row)
    return pd.DataFrame(out)


def ledger_rows(paper: Paper, table: pd.DataFrame, pts: list[dict], not_run: str | None) -> list[Row]:
    """Return seed 004's ledger rows, experimental cells carrying the emulated figures, plus re-judged claims."""
    rows, conv = p004.ledger_rows(paper)
    new = {}
    op = p004.operating_point(paper)
    for i, t in table.iterrows():
        at = [p for p in pts if np.isclose(p["rate_bps"], op.rates_bps[i])]
        for proto in ("sctp", "tcp"):
            old = next(r for r in rows if r.source == "Table II" and r.row == t["BANDWIDTH"] and r.column == EXP[proto])
            n = int(t[f"n {proto.upper()}"])
            if n == 0:
                why = not_run or f"{proto.upper()} was not run (the available application speaks {ex.protocols()})"
                new[(old.source, old.row, old.column)] = el.not_run_row(old, why)
            else:
                new[(old.source, old.row, old.column)] = el.emulated_row(
                    old, t[f"emulated {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n, conv["rounding"],
                    ex.stack_text(at[0]))
    return el.replace(rows, new) + claim_rows(paper, table, conv)


def claim_rows(paper: Paper, table: pd.DataFrame, conv: dict) -> list[Row]:
    """Return the claims of seed 004 re-judged on the emulated means with their CIs."""
    out = []
    _, _, rtt = p004.model_inputs(p004.operating_point(paper), conv["rtt_meaning"], conv["kilo"])
    gap = paper.claim("tcp_two_rtt_larger")
    have = table[(table["n SCTP"] > 1) & (table["n TCP"] > 1)]
    if len(have):
        d = have["emulated TCP (s)"] - have["emulated SCTP (s)"]
        half = np.sqrt((have["CI95 TCP (s)"] ** 2 + have["CI95 SCTP (s)"] ** 2)) / len(have) ** 0.5
        mean, h = float(d.mean()), float(np.sqrt((half**2).sum()) / len(have) ** 0.5)
        tol = p004.GAP_TOLERANCE * 2 * rtt
        status = el.verdict(mean - h, mean + h, lambda g: abs(g - 2 * rtt) <= tol, lambda g: abs(g - 2 * rtt) > tol)
        reason = (f"emulated TCP - SCTP per rate {d.round(3).tolist()} s, mean {mean:.3f} s +/- {h:.3f} s (95% CI) = "
                  f"{mean / rtt:.2f} T_r (T_r = {rtt:g} s); supported if the whole CI is within "
                  f"{p004.GAP_TOLERANCE:.0%} of 2 T_r, refuted if wholly outside")
        out.append(el.judged_claim(PAPER, "Section 2, Eq. (6)", gap["claim"], gap["printed"], mean / rtt, status,
                                   reason))
    else:
        out.append(el.judged_claim(PAPER, "Section 2, Eq. (6)", gap["claim"], gap["printed"], None, "untestable",
                                   f"needs both stacks emulated; available: {ex.protocols()}"))
    within = paper.claim("within_4_percent")
    errs_lo, errs_hi, errs = [], [], []
    for proto in ("SCTP", "TCP"):
        sel = table[table[f"n {proto}"] > 1]
        for _, t in sel.iterrows():
            m, e, h = t[f"model {proto} (s)"], t[f"emulated {proto} (s)"], t[f"CI95 {proto} (s)"]
            grid = np.linspace(max(e - h, 1e-9), e + h, 201)
            rel = np.abs(m - grid) / grid
            errs.append(abs(m - e) / e)
            errs_lo.append(rel.min())
            errs_hi.append(rel.max())
    if errs:
        lo, hi, mid = 100 * np.mean(errs_lo), 100 * np.mean(errs_hi), 100 * np.mean(errs)
        bound = float(within["printed"])
        status = el.verdict(lo, hi, lambda v: v <= bound, lambda v: v > bound)
        out.append(el.judged_claim(
            PAPER, "Abstract; Section 3; Section 4", within["claim"], within["printed"], mid, status,
            f"mean |model - emulated| / emulated over {len(errs)} Table II cells (model: Eqs. (5)/(6) under the chosen "
            f"convention) = {mid:.2f}%, range over the cells' 95% CIs [{lo:.2f}%, {hi:.2f}%]; bound {bound:g}%"))
    else:
        out.append(el.judged_claim(PAPER, "Abstract; Section 3; Section 4", within["claim"], within["printed"], None,
                                   "untestable", "no emulated Table II cell with at least 2 repetitions"))
    return out
