"""Paper 000's m users in ns-3 (TCP): mean turnaround and waiting time with 95% CIs beside model and print.

Paper: 000, section 3 (waiting and turnaround time of m users sharing the server's link,
Eqs. (4), (6)) and section 4 (Tables 1-3). ns-3 has no SCTP: only the TCP columns are simulated.

* :func:`ns3_points` / :func:`run_ns3`: every distinct operating point of Tables 1-3 (Table 1's
  p = 1 %, Table 2's "4 Kbps" and Table 3's 256 ms blocks are the same point and are simulated
  once) for m = 1 (the single-user response time) and the printed m, ``replications`` seeded
  runs each, through :func:`paperlib.sweep.run_sweep` (:mod:`paperlib.sim.multiuser_narrowband`);
* :func:`ns3_summary`: per point and m, the mean turnaround over the replications (one
  replication's users are not independent, so the run mean is the unit) with its 95% t-interval;
  the waiting time W(m) = T(m) - T(1) (paper 000: turnaround - waiting = own service n tau =
  the single-user response time) with a Welch 95% interval;
* :func:`ns3_tables`: per printed row, ns-3 beside the regenerated model (the tables' law and
  Eq. (4); turnaround by Eq. (6)), the printed model and experiment columns, and
  :func:`mean_turnaround_lower_bound_s`, a bound no schedule can beat;
* :func:`setup_check`: the evidence about the set-up (queue, minimum RTO) at the shared point;
* :func:`run` runs it all for the notebook and returns :class:`Simulations`, the record
  :func:`paperlib.reproduce.p000.ledger_rows.ledger_rows` takes as ``simulations``: it adds a row per
  printed T_tcp cell (column ``T_{tcp} (ns-3)``, beside the experiment's own rows, :func:`cell_rows`)
  and the claim re-judged on ns-3 (:func:`paperlib.reproduce.p000.claims.over_under_estimate`);
  :func:`summary` is its table of the printed rows.

What it shows: the printed tables (W and T about 2.3-4 s for m = 5 ... 30 at 40 Kbps) lie
below the link-capacity bound for every m >= 2 at 40 Kbps: m users fetching a 13.5 KB object
each through 40 Kbps cannot have a mean turnaround below 2 rtt + (m+1)/2 x 2.7 s (about 43 s at
m = 30). ns-3 sits above that bound, so it is one to two orders of magnitude above the print;
that is the physics of the scenario, not a unit error of the set-up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.data import Paper
from paperlib.ledger import Row, result_row
from paperlib.models import multiuser_waiting, narrowband_response
from paperlib.reproduce.p000 import model, operating_point
from paperlib.reproduce.p000.operating_point import PAPER, Convention
from paperlib.sim import record

#: m = 1 gives the single-user response time the waiting time subtracts; then the printed m.
M_VALUES = (1, 5, 10, 20, 30)
#: Keys of one simulated operating point.
POINT_KEYS = ("obj_bytes", "rate_bps", "rtt_s", "p")


# --- the bound ---------------------------------------------------------------------------------


def mean_turnaround_lower_bound_s(m, obj_bytes, rate_bps, rtt_s) -> np.ndarray:
    """Return a lower bound of the mean turnaround of m users each fetching one object over one link (s).

    Paper: 000, section 3 (m users ask at once and share one link; turnaround = finish time).

    Derivation: a user's SYN leaves at 0, the server has his request at 1.5 rtt at the earliest,
    and the link (rate mu) carries one bit at a time, so the k-th user to finish cannot hold his
    last byte before 1.5 rtt + k theta / mu + rtt / 2 (k objects' payload must have crossed the
    link, headers ignored). Averaging over k = 1..m: 2 rtt + (m + 1) theta / (2 mu). Holds for
    any protocol and schedule without loss; losses only add.

    Parameters
    ----------
    m : number of users
    obj_bytes : object size theta (bytes)
    rate_bps : link rate mu (bit/s)
    rtt_s : round-trip time (s)
    """
    m = validate.positive_integer("m", m)
    obj = validate.positive("obj_bytes", obj_bytes)
    rate = validate.positive("rate_bps", rate_bps)
    rtt = validate.positive("rtt_s", rtt_s)
    return 2 * rtt + (m + 1) / 2 * obj * 8 / rate


# --- the sweep ---------------------------------------------------------------------------------


def _distinct_points(paper: Paper, conv: Convention) -> list[dict]:
    obj_bytes = operating_point.web_object(paper).obj_bits(conv.kilo) / 8
    out = {}
    for pt in operating_point.operating_points(paper):
        key = (obj_bytes, pt.rate_bps, pt.rtt_s, pt.p)
        out.setdefault(key, dict(zip(POINT_KEYS, key, strict=True)))
    return list(out.values())


def ns3_points(paper: Paper, conv: Convention, replications: int, *, m_values=M_VALUES, **overrides) -> list[dict]:
    """Return the sweep points: each distinct operating point x each m x ``replications``.

    Set-up pinned to paper 000's TCP model: MSS = mtu = 536 B, initial window 1 segment
    (:data:`paperlib.models.narrowband_response.TCP_INITIAL_WINDOW`), an ACK per segment, minimum
    RTO = the chosen convention's timeout; drop-tail FIFO large enough that p is the only loss.
    ``overrides`` replace simulation parameters (e.g. ``queue="fq_codel"``) in every point.
    """
    reps = int(validate.positive_integer("replications", replications))
    ms = [int(m) for m in validate.positive_integer("m_values", m_values).ravel()]
    if 1 not in ms:
        raise validate.ParameterError("m_values must include 1: the waiting time subtracts the single-user time")
    mtu = int(operating_point.web_object(paper).mtu_bytes)
    points = []
    for base in _distinct_points(paper, conv):
        min_rto = float(model.timeout_s(conv.timeout, base["rtt_s"]))
        for m in ms:
            for r in range(reps):
                points.append({**base, "users": m, "mss_bytes": mtu,
                               "initial_cwnd": narrowband_response.TCP_INITIAL_WINDOW, "min_rto_s": min_rto,
                               **overrides, "rep": r})
    return points


def run_ns3(paper: Paper, conv: Convention, replications: int, *, cache_dir, base_seed: int = 0, scheduler=None,
            n_workers=None, progress: bool = True, m_values=M_VALUES, **overrides) -> pd.DataFrame:
    """Return one row per simulated run (the sweep runner's frame, cached by parameters and code version)."""
    from paperlib.sim import multiuser_narrowband
    from paperlib.sweep import run_sweep

    points = ns3_points(paper, conv, replications, m_values=m_values, **overrides)
    return run_sweep(multiuser_narrowband.simulate, points, cache_dir=cache_dir, base_seed=base_seed,
                     scheduler=scheduler, n_workers=n_workers, progress=progress, desc="000 ns-3 m users")


def _t_half(x: np.ndarray) -> float:
    from scipy import stats

    n = len(x)
    return float(stats.t.ppf(0.975, n - 1) * np.std(x, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def _welch_half(a: np.ndarray, b: np.ndarray) -> float:
    """Return the 95% half-width of mean(a) - mean(b) (Welch's t, independent samples)."""
    from scipy import stats

    if len(a) < 2 or len(b) < 2:
        return float("nan")
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    se2 = va + vb
    if se2 == 0:
        return 0.0
    df = se2**2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return float(stats.t.ppf(0.975, df) * np.sqrt(se2))


def ns3_summary(sims: pd.DataFrame) -> pd.DataFrame:
    """Return per operating point and m: runs, finished runs, mean turnaround and waiting with 95% CIs (s).

    A run that did not finish (a user still waiting at ``max_sim_time_s``) is counted in ``runs``
    but not in the means; ``finished`` says how many entered.
    """
    keys = [*POINT_KEYS, "users"]
    extra = [k for k in ("queue", "min_rto_s") if k in sims.columns]
    rows = []
    solo = {}
    for key, g in sims.groupby([*POINT_KEYS, *extra], sort=False):
        one = g[g["users"] == 1]["mean_turnaround_s"].dropna().astype(float).to_numpy()
        solo[key] = one
    for key, g in sims.groupby([*keys, *extra], sort=False):
        x = g["mean_turnaround_s"].dropna().astype(float).to_numpy()
        point = dict(zip([*keys, *extra], key, strict=True))
        one = solo[tuple(point[k] for k in [*POINT_KEYS, *extra])]
        w = float(np.mean(x) - np.mean(one)) if len(x) and len(one) else float("nan")
        rows.append({**point, "runs": len(g), "finished": len(x),
                     "turnaround_s": float(np.mean(x)) if len(x) else float("nan"), "turnaround_ci95_s": _t_half(x),
                     "waiting_s": w, "waiting_ci95_s": _welch_half(x, one) if point["users"] > 1 else 0.0,
                     "data_drops_per_run": float(g["data_drops"].mean()),
                     "wire_packets_per_run": float(g["wire_packets"].mean()),
                     "queue_drops_per_run": float(g["queue_drops"].mean())})
    return pd.DataFrame(rows)


# --- beside model and print -----------------------------------------------------------------------


def _lookup(summary: pd.DataFrame, obj_bytes: float, pt, m: int):
    hit = summary[np.isclose(summary["obj_bytes"], obj_bytes) & np.isclose(summary["rate_bps"], pt.rate_bps)
                  & np.isclose(summary["rtt_s"], pt.rtt_s) & np.isclose(summary["p"], pt.p)
                  & (summary["users"] == m)]
    return None if hit.empty else hit.iloc[0]


def ns3_tables(paper: Paper, conv: Convention, summary: pd.DataFrame) -> pd.DataFrame:
    """Return one row per printed row of Tables 1-3: ns-3 TCP (mean, 95% CI) beside model and print (s).

    Columns: table, block, m; ``ns3 W`` / ``ns3 W ci95`` (waiting, T(m) - T(1)), ``ns3 T`` /
    ``ns3 T ci95`` (mean turnaround), ``runs``; ``model W (tables' law)`` (regenerated W_tcp under
    the chosen convention), ``model W Eq. (4)``, ``model T Eq. (6)`` (same tau = E(T_tcp)/n);
    ``published W_tcp`` (printed model), ``published T_tcp`` (printed experiment, as read after
    corrections); ``T lower bound`` (:func:`mean_turnaround_lower_bound_s`).
    """
    obj_bytes = operating_point.web_object(paper).obj_bits(conv.kilo) / 8
    points = operating_point.operating_points(paper)
    rt = operating_point.response_times(points, operating_point.web_object(paper), conv)
    cells = {(c.table, c.label, c.m, c.column): c for c in operating_point.printed_cells(paper, ["W_{tcp}", "T_{tcp}"])}
    rows = []
    for (table, label, m, column), c in cells.items():
        if column != "T_{tcp}":
            continue
        i = c.point
        pt = points[i]
        n, tau = float(rt["n"].iloc[i]), float(rt["tau_tcp_s"].iloc[i])
        sim = _lookup(summary, obj_bytes, pt, m)
        rows.append({
            "table": table, "block": label, "m": m,
            "ns3 W": np.nan if sim is None else sim["waiting_s"],
            "ns3 W ci95": np.nan if sim is None else sim["waiting_ci95_s"],
            "ns3 T": np.nan if sim is None else sim["turnaround_s"],
            "ns3 T ci95": np.nan if sim is None else sim["turnaround_ci95_s"],
            "runs": 0 if sim is None else int(sim["finished"]),
            "model W (tables' law)": float(operating_point.waiting_time_s(m, n, tau, conv.waiting)),
            "model W Eq. (4)": float(multiuser_waiting.mean_waiting_time_same(m, n, tau)),
            "model T Eq. (6)": float(multiuser_waiting.mean_turnaround_time_same(m, n, tau)),
            "published W_tcp": float(cells[(table, label, m, "W_{tcp}")].compare_as),
            "published T_tcp": float(c.compare_as),
            "T lower bound": float(mean_turnaround_lower_bound_s(m, obj_bytes, pt.rate_bps, pt.rtt_s)),
        })
    return pd.DataFrame(rows)


# --- the set-up evidence ----------------------------------------------------------------------------

#: Variants of the set-up at the shared point: name -> simulation overrides.
SETUP_VARIANTS = {
    "as used (FIFO, min RTO = model timeout)": {},
    "min RTO 1 s (RFC 2988 / RFC 4960)": {"min_rto_s": 1.0},
    "min RTO 60 s (no spurious timeout)": {"min_rto_s": 60.0},
    "ns-3 default queue (FqCoDel, 100-packet device queue)": {"queue": "fq_codel"},
}


def setup_check(paper: Paper, conv: Convention, replications: int, *, cache_dir, base_seed: int = 0, scheduler=None,
                n_workers=None, progress: bool = True, m_values=(1, 30), p_values=(0.0, 0.01)) -> pd.DataFrame:
    """Return mean turnaround (95% CI) at 40 Kbps, rtt 256 ms for each set-up variant, m and p.

    The evidence behind the set-up: with p = 0 the turnaround must sit between the capacity bound
    and a perfect round robin (Eq. (6) with tau = one packet's transmission time, headers
    included); spurious timeouts (a minimum RTO below the queueing delay of m users) and
    ns-3's default FqCoDel move it.
    """
    from paperlib.sim import multiuser_narrowband
    from paperlib.sweep import run_sweep

    reps = int(validate.positive_integer("replications", replications))
    shared = next(pt for pt in operating_point.operating_points(paper)
                  if pt.table == "table3" and np.isclose(pt.rtt_s, 0.256))
    obj_bytes = operating_point.web_object(paper).obj_bits(conv.kilo) / 8
    mtu = int(operating_point.web_object(paper).mtu_bytes)
    base = {"obj_bytes": obj_bytes, "rate_bps": shared.rate_bps, "rtt_s": shared.rtt_s, "mss_bytes": mtu,
            "min_rto_s": float(model.timeout_s(conv.timeout, shared.rtt_s))}
    points, names = [], []
    for name, over in SETUP_VARIANTS.items():
        for p in p_values:
            for m in m_values:
                for r in range(reps):
                    points.append({**base, **over, "p": float(p), "users": int(m), "rep": r})
                    names.append(name)
    sims = run_sweep(multiuser_narrowband.simulate, points, cache_dir=cache_dir, base_seed=base_seed,
                     scheduler=scheduler, n_workers=n_workers, progress=progress, desc="000 ns-3 set-up check")
    sims["variant"] = names
    rows = []
    # One packet on the wire: payload + TCP/IP headers (40 B, timestamps 12 B) + PPP (2 B).
    wire_bits = (mtu + 54) * 8
    n = float(np.ceil(obj_bytes / mtu))
    for (variant, p, m), g in sims.groupby(["variant", "p", "users"], sort=False):
        x = g["mean_turnaround_s"].dropna().astype(float).to_numpy()
        round_robin = multiuser_waiting.mean_turnaround_time_same(int(m), n, wire_bits / base["rate_bps"])
        rows.append({"variant": variant, "p": p, "m": int(m), "runs": len(g), "finished": len(x),
                     "T mean (s)": float(np.mean(x)) if len(x) else np.nan, "T ci95 (s)": _t_half(x),
                     "data drops per run": float(g["data_drops"].mean()),
                     "queue drops per run": float(g["queue_drops"].mean()),
                     "wire packets per data packet": float(g["wire_packets"].mean() / (int(m) * n)),
                     "T lower bound (s)": float(mean_turnaround_lower_bound_s(int(m), obj_bytes, base["rate_bps"],
                                                                           base["rtt_s"])),
                     "T round robin, Eq. (6) (s)": float(2 * base["rtt_s"] + round_robin)})
    return pd.DataFrame(rows)


# --- ledger -------------------------------------------------------------------------------------------


def settings_text(conv: Convention) -> str:
    """Return the ns-3 set-up in a few words, for the reasons of the ns-3 ledger rows."""
    return (f"ns-3 3.44 TCP NewReno, m users on one point-to-point link, MSS 536 B, initial window 1, an ACK per "
            f"segment, min RTO = {conv.timeout} (the chosen convention's timeout), drop-tail FIFO without "
            "overflow, random loss p of data packets only (paperlib/sim/multiuser_narrowband.py)")


#: The ledger column of the ns-3 rows of the printed T_tcp cells.
COLUMN = "T_{tcp} (ns-3)"
#: The ledger column of the claim re-judged on ns-3.
CLAIM_COLUMN = "claim (ns-3, TCP)"


def cell_rows(paper: Paper, conv: Convention, table: pd.DataFrame) -> list[Row]:
    """Return one ledger row per printed T_tcp cell that ns-3 ran (ns-3 as best honest figure).

    :func:`paperlib.reproduce.p000.ledger_rows.ledger_rows` adds them when given the ns-3 record
    (:class:`Simulations`); ``table`` is its :func:`ns3_tables`. Each row is in the column
    :data:`COLUMN` (``T_{tcp} (ns-3)``), beside the cell's own row (which the emulated re-run may
    fill): ``not_regenerable`` (the testbed cannot be re-run; ns-3 is a simulation of it, not the
    measurement), ``regenerated`` the ns-3 mean waiting time, and the reason its 95% CI, the
    turnaround and the capacity bound. The claim judged on ns-3 is
    :func:`paperlib.reproduce.p000.claims.over_under_estimate`'s.
    """
    settings = settings_text(conv)
    by_key = table.set_index(["table", "block", "m"])
    points = operating_point.operating_points(paper)
    rows: list[Row] = []
    for c in operating_point.printed_cells(paper, ["T_{tcp}"]):
        r = by_key.loc[(c.table, c.label, c.m)]
        if not np.isfinite(r["ns3 W"]):
            continue
        why = (f"{operating_point.EXPERIMENT_REASON}; 'regenerated' is the ns-3 simulation of the TCP case: mean "
               f"waiting time W = T(m) - T(1) = {r['ns3 W']:.2f} s, 95% CI +/- {r['ns3 W ci95']:.2f} s over "
               f"{int(r['runs'])} seeded runs (mean turnaround {r['ns3 T']:.2f} +/- {r['ns3 T ci95']:.2f} s; no "
               f"schedule can have a mean turnaround below {r['T lower bound']:.2f} s for m = {c.m} at this rate); "
               f"{settings}")
        notes = [n for n in (points[c.point].note, c.note) if n]  # e.g. Table 2's "4 Kbps" read as 40 Kbps
        why = "; ".join([*notes, why])
        rows.append(result_row(PAPER, operating_point.SOURCES[c.table], c.row, COLUMN, c.published,
                               float(r["ns3 W"]), rule=conv.rounding, reason=why, compare_as=c.compare_as,
                               not_regenerable=True, evidence="ns-3", convention=conv.describe(), n=int(r["runs"]),
                               interval95=(float(r["ns3 W"] - r["ns3 W ci95"]), float(r["ns3 W"] + r["ns3 W ci95"]))))
    return rows


# --- the notebook's ns-3 section ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Simulations(record.Simulations):
    """Paper 000's record of its ns-3 runs: what the notebook shows and the ledger rows are made from.

    ``table`` is :func:`ns3_tables` (per printed row, ns-3 beside model and print), ``setup``
    :func:`setup_check`, ``replications`` the seeded runs per operating point and m.
    :func:`paperlib.reproduce.p000.ledger_rows.ledger_rows` takes it as ``simulations``.
    """

    table: pd.DataFrame
    setup: pd.DataFrame


def users_of(users=None) -> tuple[int, ...]:
    """Return the numbers of users m the ns-3 check runs besides the single user: ``users`` (whole numbers >= 2,
    distinct), or the printed tables' 5, 10, 20, 30 when ``None``. Raises ``ParameterError`` naming ``ns3_users``."""
    if users is None:
        return tuple(m for m in M_VALUES if m != 1)
    ms = [int(m) for m in validate.positive_integer("ns3_users", users).ravel()]
    if not ms or min(ms) < 2 or len(set(ms)) != len(ms):
        raise validate.ParameterError(f"ns3_users must be distinct whole numbers >= 2 (m = 1 always runs: the waiting "
                                      f"time subtracts it), got {users!r}")
    return tuple(sorted(ms))


def run(paper: Paper, conv: Convention, *, replications: int, cache_dir, seed: int, scheduler=None,
        n_workers=None, users=None) -> Simulations:
    """Return the notebook's ns-3 runs, ``replications`` each, seeds from ``seed``: :func:`ns3_tables` and
    :func:`setup_check`. ``users``: the numbers of users m besides 1 (:func:`users_of`; ``None``: the tables' m, so
    every printed T_tcp cell gets its ns-3 row); the set-up check runs at the largest of them."""
    reps = int(validate.positive_integer("replications", replications))
    ms = users_of(users)
    sweep_kw = dict(cache_dir=cache_dir, base_seed=int(seed), scheduler=scheduler, n_workers=n_workers)
    runs = run_ns3(paper, conv, reps, m_values=(1, *ms), **sweep_kw)
    table = ns3_tables(paper, conv, ns3_summary(runs))
    return Simulations(replications=reps, table=table,
                       setup=setup_check(paper, conv, reps, m_values=(1, ms[-1]), **sweep_kw))


def summary(simulations: Simulations) -> pd.DataFrame:
    """Return the table of ``simulations``: per printed row, ns-3 beside model and print (:func:`ns3_tables`)."""
    return simulations.table


def claim_table(rows: list[Row]) -> pd.DataFrame:
    """Return the ledger's claim rows judged on ns-3 (column :data:`CLAIM_COLUMN`) as a small table.

    Columns: claim, verdict on ns-3 (TCP), measure (the reason).
    """
    sel = [r for r in rows if r.column == CLAIM_COLUMN]
    return pd.DataFrame({"claim": [r.row for r in sel], "verdict on ns-3 (TCP)": [r.status for r in sel],
                         "measure": [r.reason for r in sel]})
