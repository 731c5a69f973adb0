"""Paper 000's other results re-derived and the checks of its printed numbers.

* :func:`response_time_terms`: the terms of Eq. (2) at Table 1's p = 1 % point;
* :func:`printed_departures`: what departing from a choice the paper states would change;
* consistency of the print: :func:`law_in_m` (every printed column follows c (m-1)/m),
  :func:`typo_check` (the 3.27), :func:`shared_operating_point` (one point printed three times),
  :func:`waiting_bounds` (the loss-free bounds a printed W cannot be below);
* the multi-user equations against explicit schedules: :func:`figure2_check` (Eqs. (3)-(6)),
  :func:`group_examples` (Eqs. (7)-(8));
* :func:`figure4_data` (Fig. 4 regenerated) and :func:`sensitivity` (elasticities over each table).

Under the tables' law and the chosen convention Eq. (2) brings 24 cells within 5% (Table 2's
40 Kbps block, Table 3's SCTP column at every rtt and its TCP column at 55 ms), is 5-17% below
Table 1 (whose p = 1 % block contradicts Table 3's 256 ms block at the same operating point) and
58-99% above the 400 and 3000 Kbps blocks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.ledger import CLOSE, classify
from paperlib.ledger import impossible_note as ledger_impossible
from paperlib.models import lower_bounds, multiuser_waiting, narrowband_response
from paperlib.reproduce.p000 import model
from paperlib.reproduce.p000.operating_point import (
    MODEL_COLUMNS,
    PROTOCOL_OF,
    SOURCES,
    SWEEPS,
    TABLES,
    Convention,
    model_cells,
    operating_points,
    printed_cells,
    regenerate_cells,
    response_times,
    sweep_value,
    web_object,
)
from paperlib.reproduce.p000.tables import regenerate

# --- Eq. (2) and the printed algorithm ----------------------------------------------------------


def response_time_terms(paper: Paper, conv: Convention) -> tuple[str, pd.DataFrame]:
    """Return the terms of Eq. (2) for SCTP at Table 1's p = 1 % point: a Markdown line and the phases."""
    obj, pt = web_object(paper), operating_points(paper)[1]  # Table 1, p = 1 %
    trace = model.response_time_trace(obj.obj_bits(conv.kilo), obj.mtu_bits, pt.rate_bps, pt.rtt_s, pt.p,
                                      narrowband_response.SCTP_INITIAL_WINDOW, conv)
    text = (f"SCTP, $p=1\\%$: $n$ = {trace.n_packets:g} packets in Eq. (2), $\\alpha$ = {trace.losses}, "
            f"$E(T)$ = {trace.response_s:.4f} s")
    return text, pd.DataFrame(trace.phases)


def printed_departures(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return what departing from a printed choice of Algorithm 1 would change under ``conv`` (72 model cells).

    The departures are not searched (the paper states them); this shows whether any of them would rescue
    the tables: alpha rounded instead of ceil(np) (no loss at all for p < 1.9 %), no slow start after a
    timeout (002's fast-retransmit reading), both, and a TCP initial window of 2 or 4 instead of 1.
    """
    points, obj, cells = operating_points(paper), web_object(paper), model_cells(paper)
    published = np.array([float(c.compare_as) for c in cells])
    variants = {
        "as chosen (printed algorithm)": (conv, {}),
        "alpha = round(np) (printed: ceil(np))": (conv, {"a_mode": "round"}),
        "no slow start after a timeout (paper 002)": (conv, {"post_loss_slow_start": False}),
        "both of the above": (conv, {"a_mode": "round", "post_loss_slow_start": False}),
        "TCP initial window 2 (no TCP/SCTP difference)": (conv, {"tcp_initial_window": 2}),
        "TCP initial window 4 (RFC 3390 for 536 B)": (conv, {"tcp_initial_window": 4}),
    }
    rows = []
    for name, (c, over) in variants.items():
        rt = response_times(points, obj, c, **over)
        w = regenerate_cells(cells, rt, c.waiting)
        rel = np.abs(w / published - 1)
        rows.append({"variant": name, "within 5% (of 72)": int((rel <= CLOSE).sum()),
                     "reproduced (of 72)": int(sum(classify(v, x.compare_as, c.rounding) == "reproduced"
                                                  for v, x in zip(w, cells, strict=True))),
                     "mean |rel. error|": float(rel.mean()),
                     "E_sctp at Table 1 p = 1 % (s)": float(rt["E_sctp_s"].iloc[1])})
    return pd.DataFrame(rows)


# --- consistency findings -----------------------------------------------------------------

LAWS_IN_M = ("(m-1)/m", "Eq. (4): m-1", "Eq. (6): 2mn-m+1")


def _gain(m: np.ndarray, law: str, n: float) -> np.ndarray:
    if law == "(m-1)/m":
        return (m - 1) / m
    if law == "Eq. (4): m-1":
        return m - 1
    return 2 * m * n - m + 1  # Eq. (6)


#: The law the printed tables follow (Eq. (4) divided by m), in the ledger's and the verdict's words.
TABULATED_LAW = "W = (m-1)(2n-1)tau/(2m)"


def law_in_m(paper: Paper, *, corrected: bool = True) -> pd.DataFrame:
    """Return, per printed column of four (36), the least-squares c of W = c g(m) and the largest residual.

    g(m) is (m-1)/m (the law the tables follow), m - 1 (Eq. (4) at fixed tau) or 2mn - m + 1
    (Eq. (6), n = 26). ``corrected`` compares the corrected cells (3.27 read as 3.67).
    """
    obj = web_object(paper)
    n = float(multiuser_waiting.packets_per_object(obj.obj_bits(units.DECIMAL), obj.mtu_bits))
    cells = printed_cells(paper)
    frame = pd.DataFrame({"table": [c.table for c in cells], "block": [c.label for c in cells],
                          "m": [c.m for c in cells], "column": [c.column for c in cells],
                          "value": [float(c.compare_as if corrected else c.published) for c in cells]})
    rows = []
    for (table, block, column), g in frame.groupby(["table", "block", "column"], sort=False):
        m = g["m"].to_numpy(dtype=float)
        y = g["value"].to_numpy()
        row = {"table": table, "block": block, "column": column}
        for law in LAWS_IN_M:
            x = _gain(m, law, n)
            c = float(x @ y / (x @ x))
            row[f"c [{law}]"] = c
            row[f"max |residual| [{law}] (s)"] = float(np.max(np.abs(y - c * x)))
        rows.append(row)
    return pd.DataFrame(rows)


def largest_residuals(laws: pd.DataFrame) -> pd.DataFrame:
    """Return the largest residual of each law over the 36 printed columns of :func:`law_in_m` (s)."""
    res = [c for c in laws.columns if c.startswith("max |residual|")]
    return laws[res].max().to_frame("largest residual over the 36 columns (s)")


def typo_check(paper: Paper) -> dict:
    """Return the 3.27 finding: c from the block's other three W_tcp cells, the law's value at m = 10, the print."""
    cells = [c for c in printed_cells(paper, ["W_{tcp}"]) if c.table == "table1" and c.point == 0]
    others = [c for c in cells if c.m != 10]
    m = np.array([c.m for c in others], dtype=float)
    x = (m - 1) / m
    y = np.array([float(c.published) for c in others])
    c = float(x @ y / (x @ x))
    target = next(c for c in cells if c.m == 10)
    return {"block": target.label, "column": target.column, "printed": target.published,
            "c from m = 5, 20, 30": c, "law at m = 10": c * 0.9, "read as": target.compare_as,
            "max residual of the other three (s)": float(np.max(np.abs(y - c * x)))}


def shared_operating_point(paper: Paper) -> pd.DataFrame:
    """Return the three printed blocks at p = 1 %, rtt = 0.256 s, mu = 40 Kbps side by side (16 rows)."""
    points = operating_points(paper)
    key = (paper.text_value("t2_p").to_si(), paper.text_value("t1_rtt").to_si(), paper.text_value("t1_mu").to_si())
    shared = [i for i, pt in enumerate(points) if np.allclose((pt.p, pt.rtt_s, pt.rate_bps), key)]
    cells = printed_cells(paper)
    out = None
    for i in shared:
        pt = points[i]
        sub = pd.DataFrame([{"column": c.column, "m": c.m, f"{SOURCES[pt.table]} {pt.label}": c.published}
                            for c in cells if c.point == i]).set_index(["column", "m"])
        out = sub if out is None else out.join(sub)
    out = out.sort_index(level=0, key=lambda s: s.map(list(PROTOCOL_OF).index), sort_remaining=False)
    return out


# --- physical bounds ------------------------------------------------------------------------------


def waiting_bounds(paper: Paper) -> pd.DataFrame:
    """Return, per printed cell of Tables 1-3, the loss-free lower bounds of the mean waiting time (s).

    ``round-robin bound``: the paper's packet round-robin (Fig. 2) with every packet taking only its
    transmission time (no loss, no idle link, KB = 1000: the smaller object);
    ``any-order bound``: the least mean waiting time of any order of service, (m-1)/2 theta/mu.
    Both from brute-force schedules (:mod:`paperlib.models.lower_bounds`), not from Eq. (2)-(4).
    """
    obj, points = web_object(paper), operating_points(paper)
    theta = obj.obj_bits(units.DECIMAL)
    rows = []
    for c in printed_cells(paper):
        pt = points[c.point]
        rows.append({"table": c.table, "block": c.label, "m": c.m, "column": c.column, "published": c.compare_as,
                     "round-robin bound": lower_bounds.round_robin_waiting_s(c.m, theta, obj.mtu_bits, pt.rate_bps),
                     "any-order bound": float(lower_bounds.mean_waiting_lower_bound_s(c.m, theta, pt.rate_bps))})
    out = pd.DataFrame(rows)
    out["below round-robin bound"] = out["published"].astype(float) < out["round-robin bound"]
    return out


def bound_note(published: str, bounds: pd.Series, rate_bps: float) -> str:
    """Return the ledger's 'impossible as printed' flag of a printed W below its bounds (empty if not below)."""
    note = ledger_impossible(published, float(bounds["round-robin bound"]),
                             f"the paper's packet round-robin, Fig. 2, each packet only its transmission time at "
                             f"{rate_bps / 1e3:g} kbit/s, no loss")
    if note and ledger_impossible(published, float(bounds["any-order bound"]), ""):
        note += f"; below even the {float(bounds['any-order bound']):.3f} s of any order of service"
    return note


# --- Fig. 2 and Eqs. (7)-(8) checks ---------------------------------------------------------


def figure2_check(paper: Paper) -> pd.DataFrame:
    """Return Eqs. (3)-(6) against the explicit round-robin schedule of Fig. 2 (m = 4, n = 3, tau = 1)."""
    m, n = int(paper.text_value("fig2_m").value), int(paper.text_value("fig2_n").value)
    df = multiuser_waiting.round_robin_schedule(m, 1.0, n)
    return pd.DataFrame({
        "quantity": ["total waiting", "mean waiting", "total turnaround", "mean turnaround"],
        "equation": ["Eq. (3)", "Eq. (4)", "Eq. (5)", "Eq. (6)"],
        "closed form (tau)": [float(multiuser_waiting.total_waiting_time_same(m, n, 1.0)),
                              float(multiuser_waiting.mean_waiting_time_same(m, n, 1.0)),
                              float(multiuser_waiting.total_turnaround_time_same(m, n, 1.0)),
                              float(multiuser_waiting.mean_turnaround_time_same(m, n, 1.0))],
        "schedule (tau)": [df.waiting_time.sum(), df.waiting_time.mean(), df.turnaround_time.sum(),
                           df.turnaround_time.mean()],
    }).assign(agree=lambda d: np.isclose(d["closed form (tau)"], d["schedule (tau)"]))


#: Groups (m_i, tau_i) and n of the research note's checks of Eqs. (7)-(8).
GROUP_EXAMPLES = (
    (((2, 1.0), (3, 2.0)), 3),
    (((2, 1.0), (2, 3.0)), 3),
    (((2, 1.0), (2, 1.0)), 3),
    (((1, 1.0), (2, 2.0), (1, 5.0)), 2),
)


def group_examples() -> pd.DataFrame:
    """Return Eqs. (7)-(8) as printed and corrected against the round-robin schedule for a few groups."""
    rows = []
    for groups, n in GROUP_EXAMPLES:
        sizes, taus = [g[0] for g in groups], [g[1] for g in groups]
        df = multiuser_waiting.round_robin_schedule(sizes, taus, n)
        rows.append({
            "groups (m_i, tau_i)": str(groups), "n": n,
            "W schedule": df.waiting_time.mean(),
            "W Eq. (7) printed": float(multiuser_waiting.mean_waiting_time_diff(sizes, taus, n, form="printed")),
            "W Eq. (7) corrected": float(multiuser_waiting.mean_waiting_time_diff(sizes, taus, n)),
            "T schedule": df.turnaround_time.mean(),
            "T Eq. (8) printed": float(multiuser_waiting.mean_turnaround_time_diff(sizes, taus, n, form="printed")),
            "T Eq. (8) corrected": float(multiuser_waiting.mean_turnaround_time_diff(sizes, taus, n)),
        })
    return pd.DataFrame(rows)


# --- Fig. 4 and the sensitivity of each table ---------------------------------------------------


def figure4_data(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return Fig. 4's data: per table, block and protocol, W averaged over the printed m.

    Sources: the published model (W), the published experiment (T) and the regenerated model.
    """
    regen = regenerate(paper, conv)
    cells = printed_cells(paper)
    points = operating_points(paper)
    rows = []
    for c in cells:
        pt = points[c.point]
        kind = "published model" if c.column in MODEL_COLUMNS else "published experiment"
        rows.append({"table": c.table, "sweep": SWEEPS[c.table], "block": c.label, "x": sweep_value(pt),
                     "protocol": PROTOCOL_OF[c.column], "source": kind, "m": c.m, "W_s": float(c.compare_as)})
    for r in regen.itertuples():
        pt = next(p for p in points if p.table == r.table and p.label == r.block)
        rows.append({"table": r.table, "sweep": SWEEPS[r.table], "block": r.block, "x": sweep_value(pt),
                     "protocol": PROTOCOL_OF[r.column], "source": "regenerated model", "m": r.m,
                     "W_s": float(r.regenerated)})
    frame = pd.DataFrame(rows)
    keys = ["table", "sweep", "block", "x", "protocol", "source"]
    return frame.groupby(keys, sort=False, as_index=False)["W_s"].mean()


def figure4_pivot(fig4: pd.DataFrame) -> pd.DataFrame:
    """Return :func:`figure4_data` as one row per sweep and block, one column per protocol and source."""
    return fig4.pivot_table(index=["sweep", "block"], columns=["protocol", "source"], values="W_s", sort=False)


def elasticity(y0: float, y1: float, x0: float, x1: float) -> float:
    """Return d ln y / d ln x between two points (x0, y0) and (x1, y1)."""
    return float(np.log(y1 / y0) / np.log(x1 / x0))


def sensitivity(paper: Paper) -> pd.DataFrame:
    """Return d ln W / d ln x over each table's printed range (x = p, mu, rtt), per printed column, mean over m."""
    cells = printed_cells(paper)
    points = operating_points(paper)
    rows = []
    for table in TABLES:
        idx = [i for i, pt in enumerate(points) if pt.table == table]
        lo, hi = idx[0], idx[-1]
        for col in PROTOCOL_OF:
            w_lo = np.mean([float(c.compare_as) for c in cells if c.point == lo and c.column == col])
            w_hi = np.mean([float(c.compare_as) for c in cells if c.point == hi and c.column == col])
            x_lo, x_hi = sweep_value(points[lo]), sweep_value(points[hi])
            rows.append({"table": SOURCES[table], "sweep": SWEEPS[table], "column": col,
                         "from": points[lo].value, "to": points[hi].value, "W from (s)": w_lo, "W to (s)": w_hi,
                         "change": w_hi / w_lo - 1, "elasticity d ln W / d ln x": elasticity(w_lo, w_hi, x_lo, x_hi)})
    return pd.DataFrame(rows)
