"""Paper 003's claims, one function each (``data/003/claims.csv``), judged on the slides' own numbers.

The evidence (:class:`Evidence`, built by :func:`evidence`) is the derived numbers under the chosen
convention and the published results table: the ABR experiment itself cannot be re-run (no maintained
simulator offers ABR/ERICA), so the claims about queues and efficiency are judged on the published table,
and the one about ABR's stability is untestable. The ns-3 analogue
(:mod:`paperlib.reproduce.p003.ns3`) is no re-run of the ABR experiment, so no claim is judged on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib.claims import ClaimRegistry, Verdict
from paperlib.data import Paper
from paperlib.reproduce.p003.derived import derived_values
from paperlib.reproduce.p003.findings import offered_load_mbps, slopes, users_to_fill
from paperlib.reproduce.p003.operating_point import Convention

CLAIMS = ClaimRegistry("003", evidence="model")


@dataclass(frozen=True)
class Evidence:
    """What the claims of paper 003 are judged on."""

    #: every derived number under the chosen convention (:func:`paperlib.reproduce.p003.derived.derived_values`)
    values: dict
    #: users of each workload to fill 45 and 155 Mbit/s (:func:`paperlib.reproduce.p003.findings.users_to_fill`)
    users: pd.DataFrame
    #: users simulated on the slides (150)
    users_simulated: float
    #: N of the results table
    n: np.ndarray
    #: the printed maximum queues in units of F, regenerated (cells / F in cells), per N
    queue_f: np.ndarray
    #: the efficiency column regenerated (throughput / maximum TCP payload, %), per N
    efficiency: np.ndarray
    #: the modified workload's offered load of K x N users (Mbit/s), per N
    offered_mbps: np.ndarray


def evidence(paper: Paper, conv: Convention) -> Evidence:
    """Return the evidence of paper 003's claims under convention ``conv``."""
    values = derived_values(paper, conv)
    servers = paper.tables["results"].cells["# of Servers"]
    n = servers.astype(float).to_numpy()
    return Evidence(
        values=values,
        users=users_to_fill(paper, conv),
        users_simulated=paper.text_value("users_150").value,
        n=n,
        queue_f=np.array([values[f"queue_f_{k}"] for k in servers]),
        efficiency=np.array([values[f"efficiency_{k}"] for k in servers]),
        offered_mbps=offered_load_mbps(paper, conv, n),
    )


@CLAIMS.claim("need_many_users")
def need_many_users(ev: Evidence) -> Verdict:
    """Supported when the users of the original workload that fill 155 Mbit/s are at least 10x the 150 simulated."""
    users = ev.users
    fill = users[(users["workload"] == "SPECweb96") & (users["link (Mbit/s)"] == 155)]["users to fill"].iloc[0]
    return Verdict("supported" if fill >= 10 * ev.users_simulated else "refuted",
                   f"{fill:,.0f} users of the original workload fill 155 Mbps, more than 10x the 150 users simulated "
                   "(criterion: at least 10x)", fill)


@CLAIMS.claim("ten_times_demand")
def ten_times_demand(ev: Evidence) -> Verdict:
    """Supported when the modified / original load per user is within 10% of 10 (between 9 and 11)."""
    v = ev.values
    ratio = v["bw_per_user_mod"] * 1e3 / v["avg_load_per_user"]
    return Verdict("supported" if abs(ratio - 10) <= 1 else "refuted",
                   f"modified / original load per user = {v['bw_per_user_mod'] * 1e3:.1f} / "
                   f"{v['avg_load_per_user']:.1f} kbit/s = {ratio:.2f}x, not 10x (criterion: within 10% of 10x); "
                   "the mean file grows 8x (117.5 / 14.675 KiB) and the page stays five files", ratio)


@CLAIMS.claim("queues_linear_then_stable")
def queues_linear_then_stable(ev: Evidence) -> Verdict:
    """Supported when, on the published table, the queue's last slope (F per server) is below half its first."""
    qs = slopes(ev.n, ev.queue_f)
    return Verdict("supported" if qs[-1] < 0.5 * qs[0] else "refuted",
                   f"on the published table: queue growth {np.round(qs, 3).tolist()} F per added server between "
                   "N = 1, 2, 5, 10 (criterion: the last slope below half the first); an ABR property the analogue "
                   "cannot test")


@CLAIMS.claim("queues_small_multiple_f")
def queues_small_multiple_f(ev: Evidence) -> Verdict:
    """Supported when every published maximum queue is at most 5 F (F = 10 ms in cells at the chosen rate)."""
    q_f = ev.queue_f
    return Verdict("supported" if q_f.max() <= 5 else "refuted",
                   f"on the published table: {np.round(q_f, 2).tolist()} F with F = 10 ms at the chosen cell rate "
                   "(criterion: at most 5 F)", float(q_f.max()))


@CLAIMS.claim("efficiency_linear_then_stable")
def efficiency_linear_then_stable(ev: Evidence) -> Verdict:
    """Supported when, on the published table, the efficiency's last slope (points per server) is below half its first.

    The slopes are :func:`paperlib.reproduce.p003.findings.slopes` of the regenerated efficiency column over N.
    """
    es = slopes(ev.n, ev.efficiency)
    return Verdict("supported" if es[-1] < 0.5 * es[0] else "refuted",
                   f"on the published table: efficiency growth {np.round(es, 2).tolist()} points per added server "
                   "(criterion: the last slope below half the first)")


@CLAIMS.claim("efficiency_high")
def efficiency_high(ev: Evidence) -> Verdict:
    """Supported when every N whose offered load reaches the maximum TCP payload has efficiency >= 90%.

    Below that load the efficiency is bounded by the offered load, not by ABR; with no such N the claim
    is refuted (nothing shows it high).
    """
    eff, offered, max_payload = ev.efficiency, ev.offered_mbps, ev.values["max_payload_t3"]
    overloaded = offered >= max_payload
    high = bool((eff[overloaded] >= 90).all()) if overloaded.any() else False
    return Verdict("supported" if high else "refuted",
                   f"on the published table: efficiency {np.round(eff, 1).tolist()}% for N = "
                   f"{ev.n.astype(int).tolist()}; offered load {np.round(offered, 1).tolist()} Mbit/s of the modified "
                   f"workload, so only N >= 5 can fill the {max_payload:.1f} Mbit/s; there efficiency >= 90% "
                   "(criterion), below that it is bounded by the offered load",
                   float(eff[overloaded].min()) if overloaded.any() else None)


@CLAIMS.claim("abr_stable")
def abr_stable(ev: Evidence) -> Verdict:
    """Untestable: the stability of ABR/ERICA's control loops needs an ABR simulation, which no simulator has."""
    return Verdict("untestable",
                   "stability of ABR/ERICA control loops needs an ABR simulation (queue and rate time series), which "
                   "no maintained simulator offers; the published table shows bounded maximum queues only")
