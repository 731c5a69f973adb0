"""Seed 002 on real stacks: Tables II and III's experiments re-run through the emulated link.

Operating points as printed (p, RTT, R = 40 Kbps, O = 13.5 KB with KB = 1000 B as the chosen
convention reads it, MSS = 536 B, M = 5 objects). The printed RTT is the link's round-trip
propagation (delay RTT/2 each way); the loss ratio p drops data packets (server -> client).
HTTP over TCP is one persistent connection with the M requests pipelined; HTTP over SCTP one
association with one object per stream. The response time is from ``connect`` to the last byte
of the last object. Initial window 1 segment for both stacks (seed 002 states none; its slow-start time
starts from one segment). Reduced profile: 3 repetitions per point and protocol; full: 10.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.emulation import tcp_settings
from paperlib.ledger import Row
from paperlib.reproduce import p002

PAPER = "002"
EXP_ROW = {"tcp": "TCP (Experimental) (Sec)", "sctp": "SCTP (Experimental) (Sec)"}
SOURCE = {"table2": "Table II", "table3": "Table III"}
INITCWND = tcp_settings.INITIAL_WINDOW[PAPER]
QUEUE_PACKETS = 100


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the distinct sweep points of Tables II and III for ``profile``."""
    ex.check_profile(profile)
    if profile == "off":
        return []
    kilo = p002.chosen_convention(paper)["kilo"]
    reps = 3 if profile == "reduced" else 10
    seen, out = set(), []
    for pt in p002.operating_points(paper):
        if ex.operating_point_key(pt) in seen:
            continue
        seen.add(ex.operating_point_key(pt))
        for proto in ex.protocols():
            for k in range(reps):
                out.append(dict(paper=PAPER, protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s),
                                loss=float(pt.p), queue_packets=QUEUE_PACKETS, mss_bytes=int(pt.mss_bytes),
                                initcwnd=INITCWND, object_bytes=int(round(pt.obj_kb * kilo)), objects=int(pt.objects),
                                users=1, mode="pipelined", rep=k))
    return out


def per_repetition(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run: its point, protocol, rep and response time (s) from connect to the last object."""
    rows = []
    for _, r in runs.iterrows():
        rows.append({"protocol": r["protocol"], "rate_bps": r["rate_bps"], "rtt_s": r["rtt_s"], "loss": r["loss"],
                     "rep": r["rep"], "response_s": float(max(r["t_done"]) - min(r["t_start"]))})
    return pd.DataFrame(rows, columns=["protocol", "rate_bps", "rtt_s", "loss", "rep", "response_s"])


def summary(paper: Paper, runs: pd.DataFrame, sim_summary: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return one row per printed column of Tables II/III: published experiment, model, ns-3 TCP (if run),
    emulated mean and CI."""
    conv = p002.chosen_convention(paper)
    pts = p002.operating_points(paper)
    model = p002.regenerate(pts, conv)
    reps = per_repetition(runs)
    out = []
    for i, pt in enumerate(pts):
        cells = paper.tables[pt.table].cells.set_index("Protocol")
        row = {"table": SOURCE[pt.table], "column": pt.column, "p": pt.p, "rtt_s": pt.rtt_s}
        for proto in ("tcp", "sctp"):
            sel = reps[(reps.protocol == proto) & np.isclose(reps.rtt_s, pt.rtt_s) & np.isclose(reps.loss, pt.p)
                       & np.isclose(reps.rate_bps, pt.rate_bps)]
            mean, half, n = ex.mean_ci(sel.response_s)
            row |= {f"published {proto.upper()} (s)": float(cells.loc[EXP_ROW[proto], pt.column]),
                    f"emulated {proto.upper()} (s)": mean, f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n}
            if f"{proto}_s" in model:
                row[f"model {proto.upper()} (s)"] = float(model[f"{proto}_s"].iloc[i])
        sim = p002._sim_lookup(sim_summary, pt, conv["kilo"])
        row["ns-3 TCP (s)"] = float("nan") if sim is None else float(sim["mean_s"])
        row["ns-3 CI95 TCP (s)"] = float("nan") if sim is None else float(sim["ci95_s"])
        out.append(row)
    return pd.DataFrame(out)


def _label(pt) -> str:
    return f"{'p' if pt.table == 'table2' else 'RTT (s)'} = {pt.column}"


def ledger_rows(paper: Paper, table: pd.DataFrame, pts: list[dict], not_run: str | None, search=None,
                sim_summary=None) -> list[Row]:
    """Return seed 002's ledger rows, experimental cells carrying the emulated figures, plus re-judged claims."""
    rows, conv = p002.ledger_rows(paper, search, sim_summary)
    new = {}
    for i, pt in enumerate(p002.operating_points(paper)):
        t = table.iloc[i]
        at = [q for q in pts if np.isclose(q["rtt_s"], pt.rtt_s) and np.isclose(q["loss"], pt.p)]
        for proto in ("tcp", "sctp"):
            key = (SOURCE[pt.table], _label(pt), EXP_ROW[proto])
            old = next(r for r in rows if (r.source, r.row, r.column) == key)
            n = int(t[f"n {proto.upper()}"])
            if n == 0:
                new[key] = el.not_run_row(old, not_run or f"{proto.upper()} was not run (the available application "
                                                          f"speaks {ex.protocols()})")
            else:
                new[key] = el.emulated_row(old, t[f"emulated {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n,
                                           conv["rounding"], ex.stack_text(at[0]))
    return el.replace(rows, new) + claim_rows(paper, table)


def claim_rows(paper: Paper, table: pd.DataFrame) -> list[Row]:
    """Return the claims of seed 002 that the emulated measurements can judge, each decided by its 95% CI."""
    claims = paper.claims.cells.set_index("id")
    out = []
    both = table[(table["n TCP"] > 1) & (table["n SCTP"] > 1)]
    # the point printed in both tables (p = 1 %, RTT 0.256 s) is one measurement: count it once
    both = both.drop_duplicates(subset=["emulated TCP (s)", "emulated SCTP (s)"])
    src = "Abstract"
    if len(both):
        gain = (both["emulated TCP (s)"] - both["emulated SCTP (s)"]) / both["emulated TCP (s)"]
        # CI of the mean gain: the points are independent runs; each point's gain CI from its two CIs
        half_pt = np.sqrt(both["CI95 TCP (s)"] ** 2 + both["CI95 SCTP (s)"] ** 2) / both["emulated TCP (s)"]
        mean, half = float(gain.mean()), float(np.sqrt((half_pt**2).sum()) / len(both))
        c = claims.loc["sctp_less_20pct"]
        status = el.verdict(100 * (mean - half), 100 * (mean + half), lambda v: 15 <= v <= 25,
                            lambda v: v < 15 or v > 25)
        out.append(el.judged_claim(PAPER, src, c["claim"], c["printed"], 100 * mean, status,
                                   f"mean (TCP - SCTP)/TCP over the {len(both)} emulated points = {100 * mean:.1f}% "
                                   f"+/- {100 * half:.1f}% (95% CI); supported if the CI lies within 20 +/- 5%, "
                                   f"refuted "
                                   f"if wholly outside; per point {np.round(100 * gain, 1).tolist()}%"))
        d = both["emulated TCP (s)"] - both["emulated SCTP (s)"]
        dh = float(np.sqrt((both["CI95 TCP (s)"] ** 2 + both["CI95 SCTP (s)"] ** 2).sum()) / len(both))
        c = claims.loc["sctp_better_than_tcp"]
        status = el.verdict(d.mean() - dh, d.mean() + dh, lambda v: v > 0, lambda v: v < 0)
        out.append(el.judged_claim(PAPER, "Abstract; Section IV (Conclusions)", c["claim"], "", float(d.mean()), status,
                                   f"mean TCP - SCTP response time {d.mean():.3f} s +/- {dh:.3f} s (95% CI) over "
                                   f"{len(both)} points; supported if the CI is above 0, refuted if below"))
    else:
        for ident in ("sctp_less_20pct", "sctp_better_than_tcp"):
            c = claims.loc[ident]
            out.append(el.judged_claim(PAPER, src, c["claim"], c["printed"], None, "untestable",
                                       f"needs both stacks emulated; available: {ex.protocols()}"))
    c = claims.loc["response_increases_rtt"]
    t3 = table[table["table"] == "Table III"].sort_values("rtt_s")
    parts, verdicts = [], []
    for proto in ("TCP", "SCTP"):
        if t3[f"n {proto}"].min() > 1:
            lo, hi = t3.iloc[0], t3.iloc[-1]
            d = hi[f"emulated {proto} (s)"] - lo[f"emulated {proto} (s)"]
            h = float(np.hypot(hi[f"CI95 {proto} (s)"], lo[f"CI95 {proto} (s)"]))
            verdicts.append(el.verdict(d - h, d + h, lambda v: v > 0, lambda v: v <= 0))
            parts.append(f"{proto}: RTT {lo['rtt_s']:g} -> {hi['rtt_s']:g} s adds {d:.2f} +/- {h:.2f} s")
    if verdicts:
        status = verdicts[0] if len(set(verdicts)) == 1 else "untestable"
        out.append(el.judged_claim(PAPER, "Section III.B (Results Analysis), paragraph 2", c["claim"], "", None, status,
                                   "; ".join(parts) + " (95% CI of the difference); supported if every emulated "
                                   "stack's "
                                   "response time rises, 'sharply' is not quantified by the paper"))
    else:
        out.append(el.judged_claim(PAPER, "Section III.B (Results Analysis), paragraph 2", c["claim"], "", None,
                                   "untestable", "no emulated Table III column with at least 2 repetitions"))
    return out
