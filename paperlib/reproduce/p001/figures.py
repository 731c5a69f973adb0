"""Paper 001's figures: the paper's Figs. 3-9 regenerated, the calibration, the warm-up and the workload's CDFs.

Every function draws one figure from tables already computed (a sweep, its summary, a fit) and
returns it; the notebook saves it with the run's provenance (:func:`paperlib.figures.save_figure`).
Colours come from the one registry (:func:`paperlib.figures.load_style`,
:func:`paperlib.figures.quantity_style`). :func:`paper_figure` draws each of Figs. 3-9
(:data:`PAPER_FIGURES`) as the paper draws it, over the cells and in the styles of
:mod:`paperlib.reproduce.p001.figure_cells`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from paperlib.figures import load_style, quantity_style
from paperlib.models import web_traffic
from paperlib.reproduce.p001 import findings
from paperlib.reproduce.p001.figure_cells import (
    PAPER_FIGURES,
    queue_selections,
    response_cdf_selections,
)
from paperlib.reproduce.p001.testbed import LATENCY_SETS


def cdf_grid(sweep: pd.DataFrame, selection: dict, title: str) -> Figure:
    """Return response-time CDFs (log x) of ``selection`` {(config, load): line style} for both latency sets."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.3), sharey=True)
    for ax, latency in zip(axes, LATENCY_SETS, strict=True):
        for (config, load), style in selection.items():
            g = sweep[(sweep.config == config) & (sweep.load == load) & (sweep.latency == latency)]
            if g.empty:
                continue
            x = findings.pooled_response_ms(g)
            ax.plot(x, np.arange(1, x.size + 1) / x.size, label=f"{config}, {load:.0%}", **style)
        ax.axhline(0.9, color="grey", lw=0.6, ls=":")
        ax.set(xscale="log", xlim=(20, 2e4), xlabel="response time (ms)", title=f"{latency} latency")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("CDF")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def queue_panels(sweep: pd.DataFrame, summary: pd.DataFrame, qconf: dict, selection, title: str,
                 ncols: int = 3, labels=None) -> Figure:
    """Return the sampled queue of the first repetition of each (config, load, latency) in ``selection``.

    ``labels``: one panel-title prefix per selection (e.g. ``"8-A: "``); selections of configurations
    the sweep did not run are left out.
    """
    labels = labels or [""] * len(selection)
    sel = [(s, lab) for s, lab in zip(selection, labels, strict=True) if s[0] in set(sweep.config)]
    nrows = max(int(np.ceil(len(sel) / ncols)), 1)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.4 * ncols, 2.6 * nrows), sharex=True, squeeze=False)
    s = summary.set_index(["config", "load", "latency"])
    for ax, ((config, load, latency), label) in zip(axes.ravel()[:len(sel)], sel, strict=True):
        g = sweep[(sweep.config == config) & (sweep.load == load) & (sweep.latency == latency)].sort_values("rep")
        ax.plot(g.queue_sample_times_s.iloc[0], g.queue_samples.iloc[0], lw=0.6, **load_style(load))
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
    return fig


def warmup_figure(profile: pd.DataFrame, warmup_s: float, measured_end_s: float) -> Figure:
    """Return offered load and mean queue over simulated time with the profile's and the measured warm-up."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6), sharex=True)
    axes[0].plot(profile.t_s, profile.load, **quantity_style("throughput"))
    if profile.load_se.notna().any():
        axes[0].fill_between(profile.t_s, profile.load - 2 * profile.load_se, profile.load + 2 * profile.load_se,
                             alpha=0.2, **quantity_style("throughput"))
    axes[1].plot(profile.t_s, profile.queue, **quantity_style("queue"))
    for ax in axes:
        ax.axvline(warmup_s, color="k", ls="--", lw=0.8, label=f"warm-up used ({warmup_s:g} s)")
        ax.axvline(measured_end_s, **quantity_style("published"), ls=":", lw=1.0,
                   label=f"measured end ({measured_end_s:g} s)")
        ax.set_xlabel("simulated time (s)")
        ax.grid(True, alpha=0.3)
    axes[0].set(ylabel="throughput / bottleneck", title="offered load over time (mean of runs, ±2 s.e.)")
    axes[1].set(ylabel="queue (packets)", title="bottleneck queue over time (mean of runs)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def calibration_figure(cal: pd.DataFrame, result, inverse: pd.DataFrame, published_line: tuple[float, float],
                       profile_name: str) -> Figure:
    """Return the calibration runs, the OLS line with its 95% band, the published line and the residuals."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    ax = axes[0]
    ax.plot(cal["browsers"], cal["throughput_kbps"], "o", label="ns-3 runs", **quantity_style("throughput"))
    xs = np.linspace(0, max(cal["browsers"]) * 1.1, 50)
    band = np.asarray(result.get_prediction(np.column_stack([np.ones_like(xs), xs])).conf_int(alpha=0.05))
    ax.plot(xs, result.params[0] + result.params[1] * xs, **quantity_style("throughput"),
            label=f"OLS y = {result.params[1]:.4f} x {result.params[0]:+.1f}")
    ax.fill_between(xs, band[:, 0], band[:, 1], alpha=0.2, **quantity_style("throughput"), label="95% confidence band")
    px_max = 1.2 * max(inverse["target_kbps"].max() - published_line[1], 1) / published_line[0]
    px = np.linspace(0, min(xs.max(), px_max), 50)
    ax.plot(px, published_line[0] * px + published_line[1], ls="--", **quantity_style("published"),
            label=f"published y = {published_line[0]} x {published_line[1]:+} (kbit/s)")
    for _, r in inverse.iterrows():
        ax.axhline(r["target_kbps"], color="grey", lw=0.6, ls=":")
    ax.set(xlim=(0, xs.max()), ylim=(0, max(cal["throughput_kbps"].max(), inverse["target_kbps"].max()) * 1.15),
           xlabel="browsers", ylabel="throughput (kbit/s)", title=f"Calibration ({profile_name} profile)")
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.axhline(0, color="grey", lw=0.8)
    ax.plot(result.fittedvalues, result.resid, "o", **quantity_style("queue"))
    ax.set(xlabel="fitted throughput (kbit/s)", ylabel="residual (kbit/s)", title="OLS residuals")
    fig.tight_layout()
    return fig


def distributions_figure(tables: dict, parametric: dict, seed: int) -> Figure:
    """Return Mah's CDFs (discrete and linear readings) against the parametric family: reply, objects, think."""
    rng = np.random.default_rng(seed)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    t = tables["reply"]
    axes[0].step(t.values, 1 - t.cdf, where="post", label="Mah (ns-2 file), discrete")
    axes[0].plot(t.values, 1 - t.cdf, ls=":", label="linear reading")
    x = np.logspace(1, 7, 400)
    axes[0].plot(x, 1 - web_traffic.reply_cdf(x, parametric), ls="--", label="parametric")
    axes[0].set(xscale="log", yscale="log", xlabel="reply size (bytes)", ylabel="P(size > x)", title="Reply size")
    t = tables["objects"]
    k = np.arange(1, 31)
    axes[1].bar(k - 0.2, [t.probs[t.values == v].sum() for v in k], width=0.4, label="Mah: files per page")
    axes[1].bar(k + 0.2, web_traffic.objects_per_page_pmf(k, parametric), width=0.4, label="parametric")
    axes[1].set(yscale="log", xlabel="objects per page", ylabel="probability", title="Objects per page")
    t = tables["think"]
    axes[2].step(t.values, t.cdf, where="post", label="Mah (ns-2 file)")
    p = np.sort(web_traffic.sample_think(20_000, parametric, rng))
    axes[2].plot(p, np.arange(1, p.size + 1) / p.size, ls="--", label="parametric (20k samples)")
    axes[2].set(xscale="log", xlabel="think time (s)", ylabel="CDF", title="Think time between pages")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def paper_figure(name: str, sweep: pd.DataFrame, summary: pd.DataFrame, qconf: dict, groups: dict[str, list[str]],
                 loads) -> Figure:
    """Return one of Figs. 3-9, named by its file name in :data:`PAPER_FIGURES`, drawn as the paper draws it.

    ``groups`` is :func:`~paperlib.reproduce.p001.findings.groups` of the configurations, ``loads`` the three loads.
    """
    cdfs = response_cdf_selections(groups, loads)
    if name in cdfs:
        selection, title = cdfs[name]
        return cdf_grid(sweep, selection, title)
    queues = queue_selections(groups, loads)
    if name in queues:
        cells, labels, title, ncols = queues[name]
        return queue_panels(sweep, summary, qconf, cells, title, ncols=ncols, labels=labels)
    raise ValueError(f"name: {name!r} is not one of paper 001's figures {PAPER_FIGURES}")


# --- real stacks beside ns-3 -------------------------------------------------------------------------------------

#: The two testbeds of a figure beside ns-3, in column order.
TESTBEDS = ("ns-3", "real stacks")


def cdf_beside_figure(table: pd.DataFrame, styles: dict, title: str) -> Figure:
    """Return response-time CDFs (log x) of ns-3 (left) and the real stacks (right), one row of panels per latency
    set in ``table`` (:func:`paperlib.reproduce.p001.emulated.cdf_table`: ``testbed``, ``config``, ``load``,
    ``latency``, ``runs``, ``cdf``, ``response_ms``), each (config, load) in its paper figure's style (``styles``)."""
    latencies = [x for x in LATENCY_SETS if x in set(table["latency"])]
    fig, axes = plt.subplots(max(len(latencies), 1), 2, figsize=(12, 3.8 * max(len(latencies), 1)), sharex=True,
                             sharey=True, squeeze=False)
    for row, latency in zip(axes, latencies, strict=False):
        for ax, testbed in zip(row, TESTBEDS, strict=True):
            part = table[(table["testbed"] == testbed) & (table["latency"] == latency)]
            for (config, load), g in part.groupby(["config", "load"], sort=False):
                style = styles.get((config, float(load)), {})
                ax.plot(g["response_ms"], g["cdf"], label=f"{config}, {load:.0%} ({int(g['runs'].iloc[0])} runs)",
                        drawstyle="steps-post", **style)
            ax.axhline(0.9, color="grey", lw=0.6, ls=":")
            ax.set(xscale="log", xlim=(20, 2e4), title=f"{testbed}, {latency} latency")
            ax.grid(True, which="both", alpha=0.3)
            if len(part):
                ax.legend(fontsize=7, loc="lower right")
        row[0].set_ylabel("CDF")
    for ax in axes[-1]:
        ax.set_xlabel("response time (ms)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def queue_beside_figure(table: pd.DataFrame, labels: dict, title: str) -> Figure:
    """Return the reply queue of the first replication of each cell in ``table``
    (:func:`paperlib.reproduce.p001.emulated.queue_table`: ``testbed``, ``config``, ``load``, ``latency``, ``rep``,
    ``t_s``, ``backlog``, ``mean_queue``, ``limit``), ns-3 (left) beside the real stacks (right), one row per cell,
    the y axis to the queue's limit and the mean queue after the warm-up dashed; ``labels``: panel-title prefixes by
    cell."""
    cells = list(dict.fromkeys(zip(table["config"], table["load"].astype(float), table["latency"], strict=True)))
    fig, axes = plt.subplots(max(len(cells), 1), 2, figsize=(11, 2.5 * max(len(cells), 1)), squeeze=False)
    for row, (config, load, latency) in zip(axes, cells, strict=False):
        for ax, testbed in zip(row, TESTBEDS, strict=True):
            g = table[(table["testbed"] == testbed) & (table["config"] == config)
                      & np.isclose(table["load"].astype(float), load) & (table["latency"] == latency)]
            label = labels.get((config, load, latency), "")
            if not len(g):
                ax.text(0.5, 0.5, f"no {testbed} run", ha="center", va="center", transform=ax.transAxes)
                ax.set_title(f"{label}{config}, {load:.0%}, {latency}: {testbed}", fontsize=8)
                continue
            ax.plot(g["t_s"], g["backlog"], lw=0.6, **load_style(load))
            mean_q = float(g["mean_queue"].iloc[0])
            ax.axhline(mean_q, color="k", lw=0.8, ls="--")
            ax.set_ylim(0, float(g["limit"].iloc[0]) * 1.05)
            ax.set_title(f"{label}{config}, {load:.0%}, {latency}: {testbed} (mean {mean_q:.0f})", fontsize=8)
            ax.set_ylabel("queue (packets)")
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def calibration_lines_figure(lines: pd.DataFrame, bands: pd.DataFrame, measured: pd.DataFrame) -> Figure:
    """Return the calibration lines of the paper, ns-3 and the real stacks (left: throughput against browsers, each
    fitted line with its 95% confidence band and its runs, the paper's line as printed, without a band, up to the
    plot's top) and their slopes with 95% intervals (right, log scale).

    ``lines``: :func:`paperlib.reproduce.p001.emulated.calibration_lines`; ``bands``:
    :func:`~paperlib.reproduce.p001.emulated.calibration_bands`; ``measured``:
    :func:`~paperlib.reproduce.p001.emulated.calibration_measurements` (hollow markers: runs that lost their timing,
    not fitted).
    """
    colours = {"paper": quantity_style("published")["color"], "ns-3": quantity_style("throughput")["color"],
               "real stacks": quantity_style("queue")["color"]}
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    ax = axes[0]
    top = 1.15 * max(float(measured["throughput_kbps"].max()) if len(measured) else 1.0,
                     float(bands.loc[bands["line"] != "paper", "ci95_high"].max())
                     if (bands["line"] != "paper").any() else 1.0)
    for name in lines["line"]:
        b = bands[bands["line"] == name]
        style = {"color": colours.get(name), "ls": "--" if name == "paper" else "-"}
        r = lines.set_index("line").loc[name]
        ax.plot(b["browsers"], b["kbps"], label=f"{name}: y = {r['slope']:.4f} x {r['intercept']:+.1f}", **style)
        if b["ci95_low"].notna().any():
            ax.fill_between(b["browsers"], b["ci95_low"], b["ci95_high"], alpha=0.2, color=colours.get(name))
        m = measured[measured["testbed"] == name]
        for kept, marker in ((True, "o"), (False, "o")):
            pts = m[m["kept"] == kept]
            if len(pts):
                ax.plot(pts["browsers"], pts["throughput_kbps"], marker, ms=4, color=colours.get(name),
                        mfc=None if kept else "none", ls="none",
                        label=f"{name} runs" + ("" if kept else " that lost their timing"))
    right = max(float(bands["browsers"].max()), 1.05 * float(measured["browsers"].max()) if len(measured) else 0.0)
    ax.set(xlim=(0, right), ylim=(0, top), xlabel="browsers", ylabel="throughput (kbit/s)",
           title="Calibration lines with 95% confidence bands")
    ax.legend(fontsize=7)
    ax = axes[1]
    y = np.arange(len(lines))
    for i, r in enumerate(lines.itertuples()):
        err = None
        if np.isfinite(r.slope_ci95_low):
            err = [[r.slope - r.slope_ci95_low], [r.slope_ci95_high - r.slope]]
        ax.errorbar([r.slope], [i], xerr=err, fmt="o", color=colours.get(r.line), capsize=3)
    ax.set_yticks(y, list(lines["line"]))
    ax.set(xscale="log", xlabel="slope (kbit/s per browser)", title="Slopes, 95% intervals")
    ax.invert_yaxis()
    ax.grid(True, which="both", axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
