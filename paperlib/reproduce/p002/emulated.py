"""Paper 002 on real stacks: Tables II and III's experiments re-run through the emulated link.

Operating points as printed (p, RTT, R = 40 Kbps, O = 13.5 KB with KB = 1000 B as the chosen
convention reads it, MSS = 536 B, M = 5 objects). The printed RTT is the link's round-trip
propagation (delay RTT/2 each way); the loss ratio p drops data packets (server -> client).
HTTP over TCP is one persistent connection with the M requests pipelined; HTTP over SCTP one
association with one object per stream. The response time is from ``connect`` to the last byte
of the last object. Initial window 1 segment for both stacks (paper 002 states none; its slow-start time
starts from one segment). Reduced profile: 3 repetitions per point and protocol; full: 10.

The claims the emulated measurements can judge are re-judged here, one function each in
:data:`EMULATED_CLAIMS` (ledger column ``emulated (real stacks)``), each decided by its 95% CI.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from paperlib.claims import Verdict
from paperlib.data import Paper
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.emulation import tcp_settings
from paperlib.ledger import Row
from paperlib.reproduce.p002 import ledger_rows as base_ledger
from paperlib.reproduce.p002 import ns3
from paperlib.reproduce.p002.operating_point import chosen_convention, column_label, operating_points, regenerate
from paperlib.reproduce.p002.tables import SOURCES

PAPER = "002"
EXP_ROW = {"tcp": "TCP (Experimental) (Sec)", "sctp": "SCTP (Experimental) (Sec)"}
INITCWND = tcp_settings.INITIAL_WINDOW[PAPER]
QUEUE_PACKETS = 100
#: The ledger column of a claim re-judged on the emulated measurements.
COLUMN = "emulated (real stacks)"


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the distinct sweep points of Tables II and III for ``profile``."""
    ex.check_profile(profile)
    if profile == "off":
        return []
    kilo = chosen_convention(paper)["kilo"]
    reps = 3 if profile == "reduced" else 10
    seen, out = set(), []
    for pt in operating_points(paper):
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
    conv = chosen_convention(paper)
    pts = operating_points(paper)
    model = regenerate(pts, conv)
    reps = per_repetition(runs)
    out = []
    for i, pt in enumerate(pts):
        cells = paper.tables[pt.table].cells.set_index("Protocol")
        row = {"table": SOURCES[pt.table], "column": pt.column, "p": pt.p, "rtt_s": pt.rtt_s}
        for proto in ("tcp", "sctp"):
            sel = reps[(reps.protocol == proto) & np.isclose(reps.rtt_s, pt.rtt_s) & np.isclose(reps.loss, pt.p)
                       & np.isclose(reps.rate_bps, pt.rate_bps)]
            mean, half, n = ex.mean_ci(sel.response_s)
            row |= {f"published {proto.upper()} (s)": float(cells.loc[EXP_ROW[proto], pt.column]),
                    f"emulated {proto.upper()} (s)": mean, f"CI95 {proto.upper()} (s)": half, f"n {proto.upper()}": n}
            if f"{proto}_s" in model:
                row[f"model {proto.upper()} (s)"] = float(model[f"{proto}_s"].iloc[i])
        sim = ns3.summary_at(sim_summary, pt, conv["kilo"])
        row["ns-3 TCP (s)"] = float("nan") if sim is None else float(sim["mean_s"])
        row["ns-3 CI95 TCP (s)"] = float("nan") if sim is None else float(sim["ci95_s"])
        out.append(row)
    return pd.DataFrame(out)


def ledger_rows(paper: Paper, table: pd.DataFrame, pts: list[dict], not_run: str | None, search=None,
                sim_summary=None) -> list[Row]:
    """Return paper 002's ledger rows, experimental cells carrying the emulated figures, plus re-judged claims."""
    rows, conv = base_ledger.ledger_rows(paper, search, sim_summary)
    new = {}
    for i, pt in enumerate(operating_points(paper)):
        t = table.iloc[i]
        at = [q for q in pts if np.isclose(q["rtt_s"], pt.rtt_s) and np.isclose(q["loss"], pt.p)]
        for proto in ("tcp", "sctp"):
            key = (SOURCES[pt.table], column_label(pt), EXP_ROW[proto])
            old = next(r for r in rows if (r.source, r.row, r.column) == key)
            n = int(t[f"n {proto.upper()}"])
            if n == 0:
                new[key] = el.not_run_row(old, not_run or f"{proto.upper()} was not run (the available application "
                                                          f"speaks {ex.protocols()})")
            else:
                new[key] = el.emulated_row(old, t[f"emulated {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n,
                                           conv["rounding"], ex.stack_text(at[0]))
    return el.replace(rows, new) + el.claims_not_run(claim_rows(paper, table), not_run)


def both_stacks(table: pd.DataFrame) -> pd.DataFrame:
    """Return the points of :func:`summary` where both stacks ran at least twice, the shared point counted once.

    The point printed in both tables (p = 1 %, RTT 0.256 s) is one measurement.
    """
    both = table[(table["n TCP"] > 1) & (table["n SCTP"] > 1)]
    return both.drop_duplicates(subset=["emulated TCP (s)", "emulated SCTP (s)"])


def sctp_less_20pct(table: pd.DataFrame) -> Verdict:
    """SCTP 20% faster on real stacks: the mean (TCP - SCTP)/TCP over the emulated points and its 95% CI.

    Each point's gain CI combines its two CIs; the points are independent runs. Supported if the CI lies
    within 20 +/- 5%, refuted if wholly below or wholly above it, untestable otherwise (also when the CI covers
    the whole band, or when a stack did not run).
    """
    both = both_stacks(table)
    if not len(both):
        return Verdict("untestable", f"needs both stacks emulated; available: {ex.protocols()}", column=COLUMN)
    gain = (both["emulated TCP (s)"] - both["emulated SCTP (s)"]) / both["emulated TCP (s)"]
    half_pt = np.sqrt(both["CI95 TCP (s)"] ** 2 + both["CI95 SCTP (s)"] ** 2) / both["emulated TCP (s)"]
    mean, half = float(gain.mean()), float(np.sqrt((half_pt**2).sum()) / len(both))
    status = el.band_verdict(100 * (mean - half), 100 * (mean + half), 15.0, 25.0)
    return Verdict(status, f"mean (TCP - SCTP)/TCP over the {len(both)} emulated points = {100 * mean:.1f}% "
                           f"+/- {100 * half:.1f}% (95% CI); supported if the CI lies within 20 +/- 5%, refuted "
                           f"if wholly below or wholly above it; per point {np.round(100 * gain, 1).tolist()}%",
                   100 * mean,
                   column=COLUMN)


def sctp_better_than_tcp(table: pd.DataFrame) -> Verdict:
    """SCTP better on real stacks: the mean TCP - SCTP response time over the emulated points and its 95% CI.

    Supported if the CI is above 0, refuted if below, untestable otherwise (or when a stack did not run).
    """
    both = both_stacks(table)
    if not len(both):
        return Verdict("untestable", f"needs both stacks emulated; available: {ex.protocols()}", column=COLUMN,
                       source="Abstract")
    d = both["emulated TCP (s)"] - both["emulated SCTP (s)"]
    dh = float(np.sqrt((both["CI95 TCP (s)"] ** 2 + both["CI95 SCTP (s)"] ** 2).sum()) / len(both))
    status = el.verdict(d.mean() - dh, d.mean() + dh, lambda v: v > 0, lambda v: v < 0)
    return Verdict(status, f"mean TCP - SCTP response time {d.mean():.3f} s +/- {dh:.3f} s (95% CI) over "
                           f"{len(both)} points; supported if the CI is above 0, refuted if below", float(d.mean()),
                   column=COLUMN)


def response_increases_rtt(table: pd.DataFrame) -> Verdict:
    """Response time rises with RTT on real stacks: Table III's lowest against highest RTT, per stack, by the CI.

    Supported if every emulated stack's rise has a CI above 0, refuted if every one is at most 0; the
    paper's "sharply" is not quantified. Untestable without a Table III column of at least 2 repetitions.
    """
    t3 = table[table["table"] == "Table III"].sort_values("rtt_s")
    parts, verdicts = [], []
    for proto in ("TCP", "SCTP"):
        if t3[f"n {proto}"].min() > 1:
            lo, hi = t3.iloc[0], t3.iloc[-1]
            d, h, status = el.rise_verdict(lo[f"emulated {proto} (s)"], hi[f"emulated {proto} (s)"],
                                           lo[f"CI95 {proto} (s)"], hi[f"CI95 {proto} (s)"])
            verdicts.append(status)
            parts.append(f"{proto}: RTT {lo['rtt_s']:g} -> {hi['rtt_s']:g} s adds {d:.2f} +/- {h:.2f} s")
    if not verdicts:
        return Verdict("untestable", "no emulated Table III column with at least 2 repetitions", column=COLUMN)
    status = verdicts[0] if len(set(verdicts)) == 1 else "untestable"
    return Verdict(status, "; ".join(parts) + " (95% CI of the difference); supported if every emulated stack's "
                                              "response time rises, 'sharply' is not quantified by the paper",
                   column=COLUMN)


#: The claims of ``data/002/claims.csv`` that the emulated measurements re-judge, in the ledger's order.
EMULATED_CLAIMS: dict[str, Callable[[pd.DataFrame], Verdict]] = {
    "sctp_less_20pct": sctp_less_20pct,
    "sctp_better_than_tcp": sctp_better_than_tcp,
    "response_increases_rtt": response_increases_rtt,
}


def claim_rows(paper: Paper, table: pd.DataFrame) -> list[Row]:
    """Return the rows of :data:`EMULATED_CLAIMS` judged on :func:`summary`'s ``table`` (reason marked emulated)."""
    claims = paper.claims.cells.set_index("id")
    out = []
    for ident, judge in EMULATED_CLAIMS.items():
        v, c = judge(table), claims.loc[ident]
        out.append(el.judged_claim(PAPER, v.source or c["location"], c["claim"], c["printed"], v.regenerated,
                                   v.status, v.reason))
    return out


def summary_text(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return the notebook's sentence on the real stacks: cells within 5% of the emulated mean (or why not run)."""
    within, total = el.counts(frame)
    return (f"**Real stacks.** {within} of {total} published experimental cells of this paper are within 5% of "
            f"the emulated mean{'' if not_run is None else ' (' + not_run + ')'}. The SCTP-vs-TCP "
            f"conclusions, re-judged on the emulated measurements (a verdict only where the 95% CI decides):")


def link_rates_bps(paper: Paper) -> list[float]:
    """Return the distinct link rates (bit/s) of Tables II and III (the emulator's accuracy is measured at them)."""
    return sorted({float(pt.rate_bps) for pt in operating_points(paper)})
