"""Paper 001's results re-derived from the simulated testbed: the summary per configuration, the warm-up,
the latency-reading check and the scale check.

:func:`summarise` is the table every figure, text result and claim reads (90th percentiles,
mean queue, drops per configuration, load and latency set); :func:`groups` names the
configurations the paper compares. Tested in ``tests/test_reproduce_p001_findings.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.data import Paper
from paperlib.reproduce.p001.testbed import LATENCY_SETS


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
    for samples, times in zip(sweep["queue_samples"], sweep["queue_sample_times_s"], strict=True):
        t, s = np.asarray(times, dtype=float), np.asarray(samples, dtype=float)
        edges = np.arange(0, thr.shape[1] + 1) * bin_s
        idx = np.digitize(t, edges) - 1
        q.append([s[idx == i].mean() if np.any(idx == i) else np.nan for i in range(thr.shape[1])])
    q = np.array(q)
    n = thr.shape[0]
    return pd.DataFrame({"t_s": (np.arange(thr.shape[1]) + 0.5) * bin_s,
                         "load": thr.mean(0) / bottleneck_bps,
                         "load_se": thr.std(0, ddof=1) / np.sqrt(n) / bottleneck_bps
                         if n > 1 else np.nan, "queue": np.nanmean(q, 0), "runs": n})


def warmup_end_s(profile: pd.DataFrame, tail_from_s: float, tol: float = 0.05) -> float:
    """Return the first time after which every bin's load and queue stay within ``tol`` (load, absolute) and
    max(2 packets, 20 %) (queue) of their means after ``tail_from_s``: the measured end of the warm-up."""
    tail = profile[profile.t_s >= tail_from_s]
    load_ref, q_ref = tail.load.mean(), tail.queue.mean()
    ok = ((profile.load - load_ref).abs() <= tol) & ((profile.queue - q_ref).abs() <= max(2.0, 0.2 * q_ref))
    bad = profile.t_s[~ok.to_numpy()]
    return float(bad.max() + 0.5) if len(bad) else 0.0


#: The columns of :func:`summarise`, in order.
SUMMARY_COLUMNS = ["config", "load", "latency", "reps", "requests", "mean_ms", "p50_ms", "p90_ms", "p99_ms",
                   "p90_rep_min", "p90_rep_max", "mean_queue", "drop_rate", "early_drops", "utilisation", "unfinished",
                   "failed"]


def pooled_response_ms(runs: pd.DataFrame) -> np.ndarray:
    """Return the response times (ms) of every run of ``runs`` (their ``response_s`` lists) pooled and sorted."""
    if not len(runs):
        return np.array([], dtype=float)
    return np.sort(np.concatenate([np.asarray(v, dtype=float) for v in runs["response_s"]])) * 1e3


def summarise(sweep: pd.DataFrame) -> pd.DataFrame:
    """Return one row per (config, load, latency): response-time percentiles, queue and drops.

    Response times in ms, pooled over repetitions; ``p90_rep_min`` / ``p90_rep_max`` are the
    smallest and largest 90th percentile of a single repetition.
    """
    rows = []
    for (config, load, latency), g in sweep.groupby(["config", "load", "latency"], sort=False):
        rt = np.concatenate([np.asarray(x, dtype=float) for x in g["response_s"]]) * 1e3
        per_rep = [np.percentile(np.asarray(x, dtype=float) * 1e3, 90) for x in g["response_s"] if len(x)]
        queue = np.concatenate([np.asarray(q)[np.asarray(t) >= w] for q, t, w in
                                zip(g["queue_samples"], g["queue_sample_times_s"], g["warmup_s"], strict=True)])
        rows.append({
            "config": config, "load": load, "latency": latency, "reps": len(g), "requests": len(rt),
            "mean_ms": rt.mean(), "p50_ms": np.percentile(rt, 50), "p90_ms": np.percentile(rt, 90),
            "p99_ms": np.percentile(rt, 99), "p90_rep_min": min(per_rep), "p90_rep_max": max(per_rep),
            "mean_queue": queue.mean(), "drop_rate": g["drops"].sum() / max(g["arrivals"].sum(), 1),
            "early_drops": int(g["early_drops"].sum()),
            "utilisation": (g["throughput_bps"] / g["bottleneck_bps"]).mean(),
            "unfinished": int(g["unfinished"].sum()), "failed": int(g["failed"].sum()),
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def scale_comparison(scaled: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Return, per configuration run at both scales, how far apart the response-time distributions are.

    ``scaled`` and ``full`` hold the same configurations in the same order (one run each).
    Columns: the two-sample Kolmogorov-Smirnov distance ``ks`` (the largest vertical gap
    between the CDFs), medians and 90th percentiles (ms) at both scales and their relative
    differences (full / scaled - 1), mean queues (packets) and drop rates.
    """
    from scipy.stats import ks_2samp

    if list(scaled["config"]) != list(full["config"]) or list(scaled["load"]) != list(full["load"]):
        raise ValueError("scaled and full must hold the same configurations in the same order")
    rows = []
    for (_, a), (_, b) in zip(scaled.iterrows(), full.iterrows(), strict=True):
        x, y = np.asarray(a["response_s"], dtype=float) * 1e3, np.asarray(b["response_s"], dtype=float) * 1e3
        qa = np.asarray(a["queue_samples"])[np.asarray(a["queue_sample_times_s"]) >= a["warmup_s"]]
        qb = np.asarray(b["queue_samples"])[np.asarray(b["queue_sample_times_s"]) >= b["warmup_s"]]
        p50a, p90a, p50b, p90b = np.percentile(x, 50), np.percentile(x, 90), np.percentile(y, 50), np.percentile(y, 90)
        rows.append({"config": a["config"], "load": a["load"], "latency": a["latency"],
                     "browsers_scaled": int(a["browsers"]), "browsers_full": int(b["browsers"]),
                     "requests_scaled": len(x), "requests_full": len(y), "ks": ks_2samp(x, y).statistic,
                     "p50_scaled_ms": p50a, "p50_full_ms": p50b, "p50_rel_diff": p50b / p50a - 1,
                     "p90_scaled_ms": p90a, "p90_full_ms": p90b, "p90_rel_diff": p90b / p90a - 1,
                     "mean_queue_scaled": qa.mean(), "mean_queue_full": qb.mean(),
                     "drop_rate_scaled": a["drops"] / max(a["arrivals"], 1),
                     "drop_rate_full": b["drops"] / max(b["arrivals"], 1)})
    return pd.DataFrame(rows)
