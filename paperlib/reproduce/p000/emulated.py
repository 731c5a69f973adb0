"""Seed 000 on real stacks: Tables 1-3's multi-user experiment re-run through the emulated link.

Operating points as the package reads them (:func:`paperlib.reproduce.p000.operating_point.operating_points`, with the
printed "4 Kbps" read as 40 Kbps), theta = 13.5 KB (KB = 1000 B), mtu = 536 B (MSS 536, MTU 576),
initial window 2 segments (Sec. 2: "its initial value is 2 x mtu"), loss p on the data direction.
m users start together, each with its own TCP connection (SCTP: its own association) for one object,
all through the one link ("connected to the external users through only one link", Eq. (4)).

Waiting time, as the model defines it: Eqs. (4) and (6) give T - W = n tau = E(T), the single
user's response time, so a user's waiting time is its turnaround time (from the common start to
its last byte) minus the single-user response time at the same point: the mean over repetitions of
the m users' mean turnaround minus the mean over repetitions of runs with m = 1, with the Welch 95%
interval of that difference. Reduced profile: m = 5, 3 repetitions;
full: m = 5, 10, 20, 30 and 10 repetitions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.emulation import experiments as ex
from paperlib.emulation import ledger_rows as el
from paperlib.emulation import tcp_settings
from paperlib.ledger import Row
from paperlib.reproduce.p000 import operating_point as op
from paperlib.reproduce.p000 import ledger_rows as p000_ledger
from paperlib.reproduce.p000.tables import regenerate

PAPER = "000"
EXP_COLUMN = {"sctp": "T_{sctp}", "tcp": "T_{tcp}"}
MODEL_COLUMN = {"sctp": "W_{sctp}", "tcp": "W_{tcp}"}
INITCWND = tcp_settings.INITIAL_WINDOW[PAPER]
QUEUE_PACKETS = 100


def users_of(profile: str) -> list[int]:
    """Return the numbers of users m of an emulation profile (reduced: m = 5; full: the printed m)."""
    return [5] if profile == "reduced" else [5, 10, 20, 30]


def points(paper: Paper, profile: str) -> list[dict]:
    """Return the distinct sweep points (with the m = 1 baselines) for ``profile``."""
    ex.check_profile(profile)
    if profile == "off":
        return []
    kilo = op.chosen_convention(paper)["kilo"]
    obj = op.web_object(paper)
    reps = 3 if profile == "reduced" else 10
    seen, out = set(), []
    for pt in op.operating_points(paper):
        if ex.operating_point_key(pt) in seen:
            continue
        seen.add(ex.operating_point_key(pt))
        for proto in ex.protocols():
            for m in [1, *users_of(profile)]:
                for k in range(reps):
                    out.append(dict(paper=PAPER, protocol=proto, rate_bps=float(pt.rate_bps), rtt_s=float(pt.rtt_s),
                                    loss=float(pt.p), queue_packets=QUEUE_PACKETS, mss_bytes=int(obj.mtu_bytes),
                                    initcwnd=INITCWND, object_bytes=int(round(obj.obj_kb * kilo)), objects=1, users=m,
                                    mode="per_object", rep=k))
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


def waiting(reps: pd.DataFrame, proto: str, m: int, pt) -> tuple[float, float, int, float]:
    """Return W = mean turnaround (m users) - mean single-user response time, its Welch 95% CI half-width,
    the repetitions behind it and the single-user mean, at point ``pt``."""
    at = reps[(reps.protocol == proto) & np.isclose(reps.rate_bps, pt.rate_bps) & np.isclose(reps.rtt_s, pt.rtt_s)
              & np.isclose(reps.loss, pt.p)]
    many, one = at[at.m == m].turnaround_s, at[at.m == 1].turnaround_s
    if len(many) == 0 or len(one) == 0:
        return float("nan"), float("nan"), 0, float("nan")
    mean, half, _ = ex.diff_ci(many, one)
    return mean, half, int(min(len(many), len(one))), float(one.mean())


def summary(paper: Paper, runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per printed row of Tables 1-3: published W (model) and T (experiment), emulated W with CI."""
    conv = op.chosen_convention(paper)
    model = regenerate(paper, conv).set_index(["table", "block", "m", "column"])
    reps = per_repetition(runs)
    pts = op.operating_points(paper)
    out = []
    for c in op.printed_cells(paper, list(EXP_COLUMN.values())[:1]):
        pt = pts[c.point]
        row = {"table": op.SOURCES[c.table], "block": c.label, "m": c.m}
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


def ledger_rows(paper: Paper, table: pd.DataFrame, pts: list[dict], not_run: str | None, search=None) -> list[Row]:
    """Return seed 000's ledger rows with the experimental cells carrying the emulated W, plus re-judged claims."""
    rows, conv = p000_ledger.ledger_rows(paper, search)
    ops = op.operating_points(paper)
    idx = table.set_index(["table", "block", "m"])
    new = {}
    for c in op.printed_cells(paper, list(EXP_COLUMN.values())):
        proto = "sctp" if c.column == EXP_COLUMN["sctp"] else "tcp"
        key = (op.SOURCES[c.table], c.row, c.column)
        old = next(r for r in rows if (r.source, r.row, r.column) == key)
        t = idx.loc[(op.SOURCES[c.table], c.label, c.m)]
        n = int(t[f"n {proto.upper()}"])
        if n == 0:
            why = not_run or (f"m = {c.m} is not in the reduced grid (m = 5 only; PROFILE=full runs every m)"
                              if proto in ex.protocols() else
                              f"{proto.upper()} was not run (the available application speaks {ex.protocols()})")
            new[key] = el.not_run_row(old, why)
        else:
            pt = ops[c.point]
            at = [q for q in pts if np.isclose(q["rtt_s"], pt.rtt_s) and np.isclose(q["loss"], pt.p)
                  and np.isclose(q["rate_bps"], pt.rate_bps)]
            new[key] = el.emulated_row(old, t[f"emulated W {proto.upper()} (s)"], t[f"CI95 {proto.upper()} (s)"], n,
                                       conv["rounding"], f"W = mean turnaround of the m users - mean single-user "
                                       f"response time, Welch CI (Eqs. (4), (6)); {ex.stack_text(at[0])}",
                                       compare_as=c.compare_as)
    return el.replace(rows, new) + el.claims_not_run(claim_rows(paper, table), not_run)


def claim_rows(paper: Paper, table: pd.DataFrame) -> list[Row]:
    """Return the claims of seed 000 that the emulated W can judge, each decided by its 95% CI."""
    return [sctp_less_than_tcp(paper, table), rtt_grows_rapidly(paper, table)]


def sctp_less_than_tcp(paper: Paper, table: pd.DataFrame) -> Row:
    """Return claim ``sctp_less_than_tcp`` re-judged on the emulated W: supported if the 95% CI of the mean
    W_tcp - W_sctp over the rows with both stacks (at least 2 repetitions each) is above 0, refuted if below."""
    c = paper.claim("sctp_less_than_tcp")
    src = "Abstract; Section 4"
    both = table[(table["n TCP"] > 1) & (table["n SCTP"] > 1)]
    # a point printed in two tables (p = 1 %, 256 ms, 40 Kbps) is one measurement: count it once
    both = both.drop_duplicates(subset=["m", "emulated W TCP (s)", "emulated W SCTP (s)"])
    if not len(both):
        return el.judged_claim(PAPER, src, c["claim"], "", None, "untestable",
                               f"needs both stacks emulated; available: {ex.protocols()}")
    d = both["emulated W TCP (s)"] - both["emulated W SCTP (s)"]
    h = float(np.sqrt((both["CI95 TCP (s)"] ** 2 + both["CI95 SCTP (s)"] ** 2).sum()) / len(both))
    status = el.verdict(d.mean() - h, d.mean() + h, lambda v: v > 0, lambda v: v < 0)
    return el.judged_claim(PAPER, src, c["claim"], "", float(d.mean()), status,
                           f"mean W_tcp - W_sctp over {len(both)} emulated rows = {d.mean():.3f} s "
                           f"+/- {h:.3f} s "
                           f"(95% CI); supported if the CI is above 0, refuted if below")


def rtt_grows_rapidly(paper: Paper, table: pd.DataFrame) -> Row:
    """Return claim ``rtt_grows_rapidly`` re-judged on the emulated W of Table 3: per stack and m, the 95% CI
    of W(largest rtt) - W(smallest rtt); supported if every CI is above 0, refuted if every one is at or
    below 0, else untestable."""
    c = paper.claim("rtt_grows_rapidly")
    src = "Section 4, paragraph 6 (Table 3)"
    t3 = table[(table["table"] == "Table 3")]
    parts, verdicts = [], []
    for proto in ("TCP", "SCTP"):
        sub = t3[t3[f"n {proto}"] > 1]
        if sub.empty:
            continue
        for m, g in sub.groupby("m"):
            g = g.assign(rtt=g.block.str.replace(" ms", "").astype(float)).sort_values("rtt")
            if len(g) < 2:
                continue
            lo, hi = g.iloc[0], g.iloc[-1]
            d, h, status = el.rise_verdict(lo[f"emulated W {proto} (s)"], hi[f"emulated W {proto} (s)"],
                                           lo[f"CI95 {proto} (s)"], hi[f"CI95 {proto} (s)"])
            verdicts.append(status)
            parts.append(f"{proto}, m = {m}: rtt {lo.block} -> {hi.block} changes W by {d:+.2f} +/- {h:.2f} s")
    if not verdicts:
        return el.judged_claim(PAPER, src, c["claim"], "", None, "untestable",
                               "no emulated Table 3 rows with at least 2 repetitions at two rtt values")
    status = verdicts[0] if len(set(verdicts)) == 1 else "untestable"
    return el.judged_claim(PAPER, src, c["claim"], "", None, status,
                           "; ".join(parts) + " (95% CI of the difference); supported if W rises in every "
                           "emulated case ('rapidly' is not quantified)")


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of :func:`summary` the notebook shows: those with TCP emulated, else all."""
    ran = table[table["n TCP"] > 0]
    return ran if len(ran) else table


def summary_text(frame: pd.DataFrame, not_run: str | None) -> str:
    """Return the notebook's Markdown line on the ledger ``frame``: experimental cells within 5% of real stacks."""
    within, total = el.counts(frame)
    return (f"**Real stacks.** {within} of {total} published experimental cells of this paper are within 5% of "
            f"the emulated mean{'' if not_run is None else ' (' + not_run + ')'}. The SCTP-vs-TCP "
            f"conclusions, re-judged on the emulated measurements (a verdict only where the 95% CI decides):")
