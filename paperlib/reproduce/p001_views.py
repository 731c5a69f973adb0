"""Seed 001's notebook helpers: profile overrides, configuration groups, warm-up, latency-reading table, plots.

Everything the 001 notebook would otherwise compute inline lives here, tested
(``tests/test_p001.py``); the notebook only calls these, writes and displays.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.data import Paper
from paperlib.figures import save_figure
from paperlib.reproduce.p001_testbed import LATENCY_SETS, Profile

#: Colours of the three loads and line styles of up to three configurations in one figure.
LOAD_COLOURS = {0.8: "#1b9e77", 0.9: "#d95f02", 0.98: "#7570b3"}
LINE_STYLES = ("-", "--", ":")


def apply_overrides(prof: Profile, *, bottleneck_bps=None, reps=None, sim_time_s=None, warmup_s=None,
                    calibration_browsers=None) -> Profile:
    """Return ``prof`` with the notebook's non-None overrides applied, validated (errors name the parameter)."""
    if bottleneck_bps is not None:
        prof = replace(prof, bottleneck_bps=float(validate.positive("bottleneck_bps", bottleneck_bps)))
    if reps is not None:
        prof = replace(prof, reps=int(validate.positive_integer("reps", reps)))
    if sim_time_s is not None:
        prof = replace(prof, sim_time_s=float(validate.positive("sim_time_s", sim_time_s)))
    if warmup_s is not None:
        prof = replace(prof, warmup_s=float(validate.non_negative("warmup_s", warmup_s)))
    if prof.sim_time_s <= prof.warmup_s:
        raise validate.ParameterError(f"sim_time_s ({prof.sim_time_s}) must exceed warmup_s ({prof.warmup_s})")
    if calibration_browsers is not None:
        counts = tuple(int(validate.positive_integer("calibration_browsers", x)) for x in calibration_browsers)
        prof = replace(prof, calibration_browsers=counts)
    return prof


def groups(names) -> dict[str, list[str]]:
    """Return the configuration groups the claims and figures use: FIFO sizes, RED at 480, RED at 240."""
    names = list(names)
    return {"fifo": [c for c in names if c.startswith("FIFO")],
            "red480": [c for c in names if c.startswith("RED") and c.endswith("-480")],
            "red240": [c for c in names if c.startswith("RED") and c.endswith("-240")]}


def printed_80_percentiles(paper: Paper) -> dict[str, float]:
    """Return the paper's 80 %-load readings of its FIFO CDFs (ms) by latency set, from data/001/claims.csv."""
    return {"short": float(paper.claim("fifo_80_short_500")["printed"]),
            "long": float(paper.claim("fifo_80_long_1200")["printed"])}


def latency_reading_table(summaries: dict[str, pd.DataFrame], paper: Paper, load: float) -> pd.DataFrame:
    """Return, per latency reading and set, FIFO's p90 at ``load`` (mean over queue sizes) beside the printed number."""
    printed = printed_80_percentiles(paper)
    rows = []
    for reading, table in summaries.items():
        for latency in LATENCY_SETS:
            sel = table[table.config.str.startswith("FIFO") & (table.load == load) & (table.latency == latency)]
            rows.append({"latency_reading": reading, "latency": latency, "p90_ms": sel.p90_ms.mean(),
                         "p50_ms": sel.p50_ms.mean(), "paper_around_ms": printed[latency]})
    out = pd.DataFrame(rows)
    out["rel_error"] = out["p90_ms"] / out["paper_around_ms"] - 1
    return out


def warmup_profile(sweep: pd.DataFrame, bottleneck_bps: float, bin_s: float = 1.0) -> pd.DataFrame:
    """Return offered load (throughput / bottleneck) and mean queue per ``bin_s`` of simulated time, over all runs.

    Per run, ``throughput_series_bps`` (1 s bins) and ``queue_samples``; averaged across runs per
    bin, with the standard error across runs, so the warm-up is read off the data.
    """
    validate.positive("bottleneck_bps", bottleneck_bps)
    thr = np.array([np.asarray(x, dtype=float) for x in sweep["throughput_series_bps"]])
    q = []
    for samples, times in zip(sweep["queue_samples"], sweep["queue_sample_times_s"]):
        t, s = np.asarray(times, dtype=float), np.asarray(samples, dtype=float)
        edges = np.arange(0, thr.shape[1] + 1) * bin_s
        idx = np.digitize(t, edges) - 1
        q.append([s[idx == i].mean() if np.any(idx == i) else np.nan for i in range(thr.shape[1])])
    q = np.array(q)
    n = thr.shape[0]
    return pd.DataFrame({"t_s": (np.arange(thr.shape[1]) + 0.5) * bin_s,
                         "load": thr.mean(0) / bottleneck_bps, "load_se": thr.std(0, ddof=1) / np.sqrt(n) / bottleneck_bps
                         if n > 1 else np.nan, "queue": np.nanmean(q, 0), "runs": n})


def warmup_end_s(profile: pd.DataFrame, tail_from_s: float, tol: float = 0.05) -> float:
    """Return the first time after which every bin's load and queue stay within ``tol`` (load, absolute) and
    max(2 packets, 20 %) (queue) of their means after ``tail_from_s``: the measured end of the warm-up."""
    tail = profile[profile.t_s >= tail_from_s]
    load_ref, q_ref = tail.load.mean(), tail.queue.mean()
    ok = ((profile.load - load_ref).abs() <= tol) & ((profile.queue - q_ref).abs() <= max(2.0, 0.2 * q_ref))
    bad = profile.t_s[~ok.to_numpy()]
    return float(bad.max() + 0.5) if len(bad) else 0.0


@contextlib.contextmanager
def shared_cluster(scheduler=None, n_workers=None):
    """Yield a scheduler for every sweep of the notebook: one local Dask cluster for all of them.

    ``run_sweep`` starts a cluster per call when ``scheduler`` is None, and each new worker pays
    ns-3's import and the C++ compilation again (about 10-20 s per worker per call); one cluster
    for the whole notebook pays it once per worker. An address or ``"synchronous"`` is passed through.
    """
    if scheduler is not None:
        yield scheduler
        return
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.worker-ttl": None}), LocalCluster(
            n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
            dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def cdf_grid(sweep: pd.DataFrame, selection: dict, path, stamp, title: str):
    """Draw response-time CDFs (log x) of ``selection`` {(config, load): line style} for both latency sets; save."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.3), sharey=True)
    for ax, latency in zip(axes, LATENCY_SETS):
        for (config, load), style in selection.items():
            g = sweep[(sweep.config == config) & (sweep.load == load) & (sweep.latency == latency)]
            if g.empty:
                continue
            x = np.sort(np.concatenate([np.asarray(v, dtype=float) for v in g.response_s])) * 1e3
            ax.plot(x, np.arange(1, x.size + 1) / x.size, label=f"{config}, {load:.0%}", **style)
        ax.axhline(0.9, color="grey", lw=0.6, ls=":")
        ax.set(xscale="log", xlim=(20, 2e4), xlabel="response time (ms)", title=f"{latency} latency")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("CDF")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, path, stamp)
    plt.close(fig)
    return path


def queue_panels(sweep: pd.DataFrame, summary: pd.DataFrame, qconf: dict, selection, path, stamp, title: str,
                 ncols: int = 3, labels=None):
    """Draw the sampled queue of the first repetition of each (config, load, latency) in ``selection``; save."""
    labels = labels or [""] * len(selection)
    sel = [(s, lab) for s, lab in zip(selection, labels) if s[0] in set(sweep.config)]
    nrows = max(int(np.ceil(len(sel) / ncols)), 1)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.4 * ncols, 2.6 * nrows), sharex=True, squeeze=False)
    s = summary.set_index(["config", "load", "latency"])
    for ax, ((config, load, latency), label) in zip(axes.ravel(), sel):
        g = sweep[(sweep.config == config) & (sweep.load == load) & (sweep.latency == latency)].sort_values("rep")
        ax.plot(g.queue_sample_times_s.iloc[0], g.queue_samples.iloc[0], lw=0.6, color=LOAD_COLOURS.get(load, "k"))
        mean_q = s.loc[(config, load, latency), "mean_queue"]
        ax.axhline(mean_q, color="k", lw=0.8, ls="--")
        ax.set_title(f"{label}{config}, {load:.0%}, {latency} (mean {mean_q:.0f})", fontsize=8)
        ax.set_ylim(0, qconf[config]["queue_packets"] * 1.05)
    for ax in axes.ravel()[len(sel):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("simulated time (s)")
    for ax in axes[:, 0]:
        ax.set_ylabel("queue (packets)")
    fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, path, stamp)
    plt.close(fig)
    return path


def warmup_figure(profile: pd.DataFrame, warmup_s: float, measured_end_s: float, path, stamp):
    """Draw offered load and mean queue over simulated time with the profile's and the measured warm-up; save."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6), sharex=True)
    axes[0].plot(profile.t_s, profile.load, color="#1b9e77")
    if profile.load_se.notna().any():
        axes[0].fill_between(profile.t_s, profile.load - 2 * profile.load_se, profile.load + 2 * profile.load_se,
                             color="#1b9e77", alpha=0.2)
    axes[1].plot(profile.t_s, profile.queue, color="#7570b3")
    for ax in axes:
        ax.axvline(warmup_s, color="k", ls="--", lw=0.8, label=f"warm-up used ({warmup_s:g} s)")
        ax.axvline(measured_end_s, color="#e7298a", ls=":", lw=1.0, label=f"measured end ({measured_end_s:g} s)")
        ax.set_xlabel("simulated time (s)")
        ax.grid(True, alpha=0.3)
    axes[0].set(ylabel="throughput / bottleneck", title="offered load over time (mean of runs, ±2 s.e.)")
    axes[1].set(ylabel="queue (packets)", title="bottleneck queue over time (mean of runs)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, stamp)
    plt.close(fig)
    return path


def other_workload_verdicts(path) -> dict[str, str]:
    """Return {claim id: status} of the other workload's run (its ``claims.csv``), or {} when it has not been run."""
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        return {}
    table = pd.read_csv(path)
    return dict(zip(table["claim"], table["status"]))


def flip_table(found, other: dict[str, str]) -> pd.DataFrame:
    """Return every claim's status on this workload and on the other, and whether it depends on the workload."""
    rows = [{"claim": v.claim, "this_workload": v.status, "other_workload": other.get(v.claim, ""),
             "depends_on_workload": bool(other) and other.get(v.claim, v.status) != v.status} for v in found]
    return pd.DataFrame(rows)
