"""Paper 003's ABR experiment re-posed in ns-3: the same clients and workload over TCP through a 45 Mbit/s FIFO.

ABR/ERICA exists in no maintained simulator, so the published switch queue and throughput are not
regenerable. The closest analogue (:mod:`paperlib.sim.web_bottleneck`): K x N clients, each asking every
inter-batch time (open loop, random phase) for a page of the modified workload over one TCP connection,
a 45 Mbit/s bottleneck with a FIFO queue. :func:`analogue_points` makes the sweep points from the slides'
stated inputs, :func:`run_analogue` runs them through :func:`paperlib.sweep.run_sweep`, and
:func:`analogue_summary` puts the per-N means beside the published ABR numbers; :func:`run` does all three for
the notebook and returns :class:`Simulations` (:func:`summary` its table). The analogue is shown, not
scored: no ledger row or claim is judged on it (:mod:`paperlib.reproduce.p003.ledger_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import units, validate
from paperlib.data import Paper
from paperlib.models import atm_overhead
from paperlib.reproduce.p003.derived import derived_values, inputs
from paperlib.reproduce.p003.operating_point import Convention
from paperlib.reproduce.p003.workload import conv_workloads
from paperlib.sim import record


@dataclass(frozen=True, eq=False)
class Simulations(record.Simulations):
    """Paper 003's record of its ns-3 analogue: one row per run (``runs``, :func:`run_analogue`) and the per-N
    table beside the published numbers (``summary``, :func:`analogue_summary`)."""

    runs: pd.DataFrame
    summary: pd.DataFrame


def run(paper: Paper, conv: Convention, *, replications: int, cache_dir, seed: int, scheduler=None, n_workers=None,
        n_servers, k_clients: int, sim_time_s: float, warmup_s: float, queue_limit_packets: int) -> Simulations:
    """Run the analogue's points (:func:`analogue_points`, ``replications`` per N) through the sweep runner, seeds
    from ``seed``; return its record."""
    points = analogue_points(paper, conv, n_servers=n_servers, k_clients=k_clients, repetitions=replications,
                             sim_time_s=sim_time_s, warmup_s=warmup_s, queue_limit_packets=queue_limit_packets)
    runs = run_analogue(points, cache_dir=cache_dir, seed=seed, scheduler=scheduler, n_workers=n_workers)
    return Simulations(replications=int(replications), runs=runs, summary=analogue_summary(runs, paper, conv))


def summary(simulations: Simulations) -> pd.DataFrame:
    """Return the per-N table of ``simulations`` (:func:`analogue_summary`)."""
    return simulations.summary


def analogue_points(paper: Paper, conv: Convention, *, n_servers, k_clients: int, repetitions: int,
                    sim_time_s: float, warmup_s: float, queue_limit_packets: int) -> list[dict]:
    """Return the sweep points of the ns-3 analogue: one per (N, repetition), stated inputs from the slides."""
    from paperlib.sim.web_bottleneck import workload_params

    x = inputs(paper)
    w = conv_workloads(paper, conv).modified
    window = paper.text_value("tcp_window_factor").value * units.to_si(
        paper.text_value("tcp_window_unit").value, paper.text_value("tcp_window_unit").unit, kilo=conv.size_kilo
    ) / units.BITS_PER_BYTE
    rtt = units.to_si(paper.text_value("wan_rtt").value, paper.text_value("wan_rtt").unit)
    servers = validate.positive_integer("n_servers", n_servers).astype(int).tolist()
    reps = int(validate.positive_integer("repetitions", repetitions))
    common = {
        "k_clients": int(validate.positive_integer("k_clients", k_clients)),
        "bottleneck_bps": x.t3_bps,
        "rtt_s": float(rtt),
        "mss_bytes": int(x.mss_bytes),
        "window_bytes": int(window),
        "inter_batch_s": x.inter_batch_s,
        "sim_time_s": float(validate.positive("sim_time_s", sim_time_s)),
        "warmup_s": float(validate.non_negative("warmup_s", warmup_s)),
        "queue_limit_packets": int(validate.positive_integer("queue_limit_packets", queue_limit_packets)),
        "workload": workload_params(w),
    }
    if common["warmup_s"] >= common["sim_time_s"]:
        raise validate.ParameterError(f"warmup_s ({warmup_s}) must be below sim_time_s ({sim_time_s})")
    return [{**common, "n_servers": n, "rep": r} for n in servers for r in range(reps)]


def run_analogue(points: list[dict], *, cache_dir, seed: int, scheduler=None, n_workers=None) -> pd.DataFrame:
    """Return one row per point of the ns-3 analogue, run through the sweep runner (cached, a seed per point)."""
    from paperlib.sim import web_bottleneck
    from paperlib.sweep import run_sweep

    return run_sweep(web_bottleneck.simulate, points, cache_dir=cache_dir, base_seed=int(seed),
                     scheduler=scheduler, n_workers=n_workers, desc="003 ns-3 analogue")


def analogue_summary(sims: pd.DataFrame, paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return, per N, the analogue's mean and 95% t-interval half-width beside the published ABR numbers."""
    from scipy import stats

    values = derived_values(paper, conv)
    max_payload = values["max_payload_t3"] * 1e6
    f_cells = values["typo_cells_correct"]
    x = inputs(paper)
    cells = float(atm_overhead.cells_per_segment(x.mss_bytes, conv.header_stack))
    packet_max = x.t3_bps * x.mss_bytes / (x.mss_bytes + 40 + 2)  # TCP/IP headers + PPP on the packet link
    d = sims.assign(
        queue_cells=sims["max_queue_packets"] * cells,
        throughput_mbps=sims["throughput_bps"] / 1e6,
        offered_mbps=sims["offered_bps"] / 1e6,
        efficiency_pct=100 * sims["throughput_bps"] / max_payload,
        efficiency_packet_pct=100 * sims["throughput_bps"] / packet_max,
    )
    d["queue_f"] = d["queue_cells"] / f_cells
    out = []
    res = paper.tables["results"].cells.set_index("# of Servers")
    for n, g in d.groupby("n_servers", sort=True):
        row = {"N": int(n), "clients": int(n * g["k_clients"].iloc[0]), "runs": len(g)}
        for col in ("offered_mbps", "throughput_mbps", "efficiency_pct", "efficiency_packet_pct", "queue_cells",
                    "queue_f", "drops"):
            mean = float(g[col].mean())
            half = (float(stats.t.ppf(0.975, len(g) - 1) * g[col].std(ddof=1) / np.sqrt(len(g))) if len(g) > 1
                    else np.nan)
            row[col] = mean
            row[f"{col}_ci95"] = half
        if str(n) in res.index:
            pub = res.loc[str(n)]
            row["published_queue_cells"] = float(pub["Max Switch Q (Cells)"].split("=")[0])
            row["published_throughput_mbps"] = units.parse_quantity(pub["TCP Throughput"]).value
            row["published_efficiency_pct"] = values[f"efficiency_{n}"]
        out.append(row)
    return pd.DataFrame(out)
