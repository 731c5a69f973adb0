"""Paper 001's figures: the paper's Figs. 3-9 regenerated, the calibration, the warm-up and the workload's CDFs.

Every function draws one figure from tables already computed (a sweep, its summary, a fit) and
returns it; the notebook saves it with the run's provenance (:func:`paperlib.figures.save_figure`).
Colours come from the one registry (:func:`paperlib.figures.load_style`,
:func:`paperlib.figures.quantity_style`). :func:`paper_figure` draws each of Figs. 3-9
(:data:`PAPER_FIGURES`) as the paper draws it.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from paperlib.figures import load_style, quantity_style
from paperlib.models import web_traffic
from paperlib.reproduce.p001.testbed import LATENCY_SETS

#: Line styles of up to three configurations in one figure.
LINE_STYLES = ("-", "--", ":")


def cdf_grid(sweep: pd.DataFrame, selection: dict, title: str) -> Figure:
    """Return response-time CDFs (log x) of ``selection`` {(config, load): line style} for both latency sets."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.3), sharey=True)
    for ax, latency in zip(axes, LATENCY_SETS, strict=True):
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


def _response_cdf_selections(groups: dict[str, list[str]], loads) -> dict[str, tuple[dict, str]]:
    """Return file name -> (selection {(config, load): line style}, title) of Figs. 3, 6, 7 and 9, as the paper draws.

    Fig. 3: FIFO by load (colour) and queue size (line style); Fig. 6: RED-A/B/C at queue 480;
    Fig. 7: RED-A/B/C at 98 %, queue 480 (solid) and 240 (dashed); Fig. 9: FIFO-180 (solid) and
    RED-A-180 (dashed) at 80 and 98 %.
    """
    fifo, red480, red240 = groups["fifo"], groups["red480"], groups["red240"]
    colours = [load_style(x)["color"] for x in loads]
    return {
        "fig3_fifo_response_cdf.png":
            ({(c, x): {**load_style(x), "ls": LINE_STYLES[i]} for x in loads for i, c in enumerate(fifo)},
             "Fig. 3 regenerated: FIFO response time, 80/90/98% load"),
        "fig6_red_response_cdf.png":
            ({(c, x): {**load_style(x), "ls": LINE_STYLES[i]} for x in loads for i, c in enumerate(red480)},
             "Fig. 6 regenerated: RED-A/B/C (queue 480), 80/90/98% load"),
        "fig7_red_480_240_cdf.png":
            ({(c, 0.98): {"color": colours[i % 3], "ls": "-" if c.endswith("480") else "--"}
              for i, c in enumerate(red480 + red240)},
             "Fig. 7 regenerated: RED-A/B/C, queue 480 (solid) and 240 (dashed), 98% load"),
        "fig9_fifo_vs_red_a_cdf.png":
            ({(c, x): {**load_style(x), "ls": "-" if c.startswith("FIFO") else "--"}
              for x in (0.8, 0.98) for c in ("FIFO-180", "RED-A-180")},
             "Fig. 9 regenerated: FIFO vs RED-A, queue 180"),
    }


#: Fig. 8's panels, clockwise from the top left as the paper draws them: A, B short (RED-A, RED-C), then D, C long.
FIG8_PANELS = ([("RED-A-240", 0.98, "short"), ("RED-C-240", 0.98, "short"), ("RED-C-240", 0.98, "long"),
                ("RED-A-240", 0.98, "long")], ["8-A: ", "8-B: ", "8-D: ", "8-C: "])

#: Figs. 3-9 by the file name the notebook saves them under, in the order it shows them: the response-time
#: CDFs (3, 6, 7, 9), FIFO's queue (4 short, 5 long latency), RED's queue (8).
PAPER_FIGURES = ("fig3_fifo_response_cdf.png", "fig6_red_response_cdf.png", "fig7_red_480_240_cdf.png",
                 "fig9_fifo_vs_red_a_cdf.png", "fig4_fifo_queue_short.png", "fig5_fifo_queue_long.png",
                 "fig8_red_queue_240.png")


def paper_figure(name: str, sweep: pd.DataFrame, summary: pd.DataFrame, qconf: dict, groups: dict[str, list[str]],
                 loads) -> Figure:
    """Return one of Figs. 3-9, named by its file name in :data:`PAPER_FIGURES`, drawn as the paper draws it.

    ``groups`` is :func:`~paperlib.reproduce.p001.findings.groups` of the configurations, ``loads`` the three loads.
    """
    cdfs = _response_cdf_selections(groups, loads)
    if name in cdfs:
        selection, title = cdfs[name]
        return cdf_grid(sweep, selection, title)
    fifo_queues = {"fig4_fifo_queue_short.png": ("short", 4), "fig5_fifo_queue_long.png": ("long", 5)}
    if name in fifo_queues:
        latency, number = fifo_queues[name]
        return queue_panels(sweep, summary, qconf, [(c, x, latency) for x in loads for c in groups["fifo"]],
                            f"Fig. {number} regenerated: FIFO queue occupancy, {latency} latency (first replication)")
    if name == "fig8_red_queue_240.png":
        panels, labels = FIG8_PANELS
        return queue_panels(sweep, summary, qconf, panels,
                            "Fig. 8 regenerated: RED-A / RED-C, queue 240, 98% load (panels clockwise from top left)",
                            ncols=2, labels=labels)
    raise ValueError(f"name: {name!r} is not one of paper 001's figures {PAPER_FIGURES}")
