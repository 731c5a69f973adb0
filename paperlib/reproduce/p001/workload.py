"""Paper 001's workload before any simulation: what Mah's distributions imply for the load per browser.

A browser is an ON/OFF renewal source: per cycle it fetches one page (objects per page x reply
size, all independent) and then thinks. By the renewal-reward theorem its long-run reply rate is

    r = 8 E[objects per page] E[reply size] / (E[think time] + E[page load time])   (bit/s)

(the paper's calibration slope, paper 001 Section 2.2, y = 2.9327 x - 125.0857 with y in
kbit/s, is the same quantity measured). :func:`implied_load` evaluates it for every reading of
the data at once: the CDFs read discrete (ns-2's default) or linearly interpolated; files per
page as Mah counts them or plus a primary object (ns-2's ``http.tcl``); the page load time 0
(the think-time-only bound) or a stated mean. :func:`mean_sources` says which part of each
distribution carries its mean, and :func:`think_cap_for_rate` how short the think times would
have to be for the paper's rate: evidence about the gap, never a parameter of the runs.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.models import web_traffic
from paperlib.moments import mean_check, mean_check_columns

#: The paper's calibration slope (kbit/s per browser under the reading that reproduces Table 3).
PAPER_SLOPE_KBPS = 2.9327


def implied_load(page_times_s=(0.0,), readings=web_traffic.MAH_READINGS,
                 objects=web_traffic.MAH_OBJECTS, paper_slope_kbps: float = PAPER_SLOPE_KBPS) -> pd.DataFrame:
    """Return the offered reply load per browser (kbit/s) of every reading of Mah's CDFs, and of the parametric model.

    Columns: ``family``, ``mah_reading``, ``mah_objects``, ``page_time_s``, the means of objects
    per page, reply size (B), think time (s), ``kbps_per_browser`` and ``ratio_to_paper``
    (paper / ours: how many of our browsers make one of the paper's).
    """
    validate.positive("paper_slope_kbps", paper_slope_kbps)
    rows = []
    models = [web_traffic.model({"mah_reading": r, "mah_objects": o}) for r in readings for o in objects]
    models.append(web_traffic.model({"family": "parametric"}))
    for m in models:
        for t in page_times_s:
            validate.non_negative("page_time_s", t)
            rate = web_traffic.offered_bps_per_browser(m, t) / 1e3
            rows.append({"family": m["family"], "mah_reading": m["mah_reading"] if m["family"] == "mah" else "",
                         "mah_objects": m["mah_objects"] if m["family"] == "mah" else "", "page_time_s": float(t),
                         "objects_per_page": web_traffic.objects_per_page_mean(m),
                         "reply_mean_bytes": web_traffic.reply_mean(m), "think_mean_s": web_traffic.think_mean(m),
                         "kbps_per_browser": rate, "ratio_to_paper": paper_slope_kbps / rate})
    return pd.DataFrame(rows)


def mean_sources(thresholds: dict[str, list[float]] | None = None, reading: str = "discrete") -> pd.DataFrame:
    """Return, per quantity of Mah's data and threshold, the share of its mean carried by values above it."""
    thresholds = thresholds or {"think": [60.0, 600.0, 3600.0, 36000.0], "reply": [1e4, 1e5, 1e6],
                                "objects": [1.0, 5.0, 20.0], "request": [500.0, 1000.0]}
    tables = web_traffic.mah_tables()
    rows = []
    for quantity, xs in thresholds.items():
        t = tables[quantity]
        shares = t.mean_share_above(xs, reading)
        for x, share in zip(xs, shares, strict=True):
            rows.append({"quantity": quantity, "file": t.name, "above": x, "share_of_mean": float(share),
                         "share_of_samples": float(1 - t.cdf[t.values <= x][-1]) if np.any(t.values <= x) else 1.0,
                         "mean": t.mean(reading), "median": float(t.quantile(0.5, reading)),
                         "max": float(t.values[-1])})
    return pd.DataFrame(rows)


def think_cap_for_rate(target_kbps: float = PAPER_SLOPE_KBPS, reading: str = "discrete",
                       mah_objects: str = "files_per_page", page_time_s: float = 0.0) -> float:
    """Return the cap c (s) such that think times min(T, c) give ``target_kbps`` per browser (bisection).

    Evidence about the size of the gap only (how much of the think-time tail would have to go):
    no run uses it.
    """
    m = web_traffic.model({"mah_reading": reading, "mah_objects": mah_objects})
    t = web_traffic.mah_tables()["think"]
    page_bits = web_traffic.bits_per_page(m)
    need = page_bits / (target_kbps * 1e3) - page_time_s  # the mean think time that gives the target
    v, p = t.values.astype(float), t.probs
    if need <= v[0] or need >= t.mean("discrete"):
        return float("nan")
    lo, hi = v[0], v[-1]
    for _ in range(100):  # E[min(T, c)] rises with c
        c = (lo + hi) / 2
        lo, hi = (c, hi) if np.sum(np.minimum(v, c) * p) < need else (lo, c)
    return float((lo + hi) / 2)


def browsers_for_load(load: float, bottleneck_bps: float, kbps_per_browser: float) -> int:
    """Return the browsers (truncated) whose predicted offered load is ``load`` x the bottleneck."""
    validate.positive("kbps_per_browser", kbps_per_browser)
    return int(np.trunc(load * bottleneck_bps / (kbps_per_browser * 1e3)))


#: The quantities :func:`moment_checks` samples, in its order: (name, sampler(n, model, rng), exact mean(model)).
MOMENT_QUANTITIES = (
    ("request (B)", lambda n, m, rng: web_traffic.sample_requests(n, m, rng).astype(float), web_traffic.request_mean),
    ("reply (B)", lambda n, m, rng: web_traffic.sample_replies(n, m, rng, whole=False), web_traffic.reply_mean),
    ("objects per page", lambda n, m, rng: web_traffic.sample_objects_per_page(n, m, rng).astype(float),
     web_traffic.objects_per_page_mean),
    ("think time (s)", web_traffic.sample_think, web_traffic.think_mean),
)


def moment_checks(n_samples: int, rng: np.random.Generator) -> pd.DataFrame:
    """Return exact means against seeded sample means (z score, KS distance) of both families, every quantity."""
    from scipy import stats

    validate.positive_integer("n_samples", n_samples)
    rows = []
    for label, m in (("mah discrete", web_traffic.model()),
                     ("mah linear", web_traffic.model({"mah_reading": "linear"})),
                     ("parametric", web_traffic.model({"family": "parametric"}))):
        for name, sample, exact_mean in MOMENT_QUANTITIES:
            x = sample(n_samples, m, rng)
            rows.append({"workload": label, "quantity": name, **mean_check_columns(mean_check(x, exact_mean(m))),
                         "sample median": np.median(x)})
        if m["family"] == "mah":  # KS distance of the think-time samples to the exact CDF of the reading
            think = web_traffic.mah_tables()["think"]
            x = web_traffic.sample_think(n_samples, m, rng)
            rows[-1]["KS think"] = stats.kstest(x, functools.partial(_think_cdf, think, m["mah_reading"])).statistic
    return pd.DataFrame(rows)


def _think_cdf(think, reading: str, v) -> np.ndarray:
    """Return the exact CDF at ``v`` of Mah's think-time table ``think`` read ``"linear"`` or discrete."""
    if reading == "linear":
        return np.interp(v, think.values, think.cdf, left=0.0)
    return np.concatenate([[0.0], think.cdf])[np.searchsorted(think.values, v, side="right")]


def mah_summary(tables: dict | None = None) -> pd.DataFrame:
    """Return one row per file of Mah's data: quantity, file, points, observations, min, median, max."""
    tables = tables or web_traffic.mah_tables()
    return pd.DataFrame([{"quantity": q, "file": t.name, "points": len(t.values), "observations": int(t.counts.sum()),
                          "min": t.values[0], "median": float(t.quantile(0.5)), "max": t.values[-1]}
                         for q, t in tables.items()])


def think_cap_sentence(cap: float, tables: dict | None = None) -> str:
    """Return the sentence the notebook prints about :func:`think_cap_for_rate`'s cap ``cap`` (s)."""
    think = (tables or web_traffic.mah_tables())["think"]
    return (f"think times capped at {cap:.0f} s would give the paper's 2.9327 kbit/s per browser (evidence, not used): "
            f"{(1 - think.cdf[think.values <= cap][-1]):.1%} of Mah's think times exceed it")
