"""Paper 003's figures: the workloads' classes and file sizes, and the ns-3 analogue beside the published ABR table.

Colours and markers come from the registry (:func:`paperlib.figures.style`, :func:`paperlib.figures.color`);
each function returns its matplotlib ``Figure``, which the caller saves with the run's provenance stamp
(:func:`paperlib.figures.save_figure`, which closes it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from paperlib.figures import color, style
from paperlib.models.specweb96 import WITHIN_CLASS, within_class_pmf
from paperlib.reproduce.p003.workload import Workloads

#: The registry's series kind of each workload, by name.
WORKLOAD_KINDS = {"SPECweb96": "specweb96", "modified SPECweb96": "specweb96_modified"}


def class_distributions_figure(w: Workloads) -> Figure:
    """Return a figure of both workloads' class probabilities and the within-class readings' file probabilities."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, wl in zip(axes[:2], (w.original, w.modified), strict=True):
        ax.bar([f"class {i}" for i in range(len(wl.class_probs))], wl.class_probs, color=color(WORKLOAD_KINDS[wl.name]))
        ax.set(title=f"{wl.name}: class probabilities", ylabel="probability")
    j = np.arange(1, 10)
    for kind in WITHIN_CLASS:
        axes[2].plot(j, within_class_pmf(kind), **style(f"within_class_{kind}", "pmf"))
    axes[2].set(title="within-class readings (file j = j x base)", xlabel="file j of the class", ylabel="probability")
    axes[2].legend(fontsize=8)
    fig.tight_layout()
    return fig


def file_size_cdf_figure(w: Workloads, within_class: str, seed: int, *, n_samples: int = 20_000) -> Figure:
    """Return a figure of each workload's exact file-size CDF and the empirical CDF of ``n_samples`` seeded samples.

    Each workload's sample is drawn with a fresh ``numpy.random.default_rng(seed)``.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for wl in (w.original, w.modified):
        kind = WORKLOAD_KINDS[wl.name]
        sizes = wl.file_sizes_bits().ravel() / 8 / 1024
        probs = np.outer(wl.class_probs, within_class_pmf(within_class)).ravel()
        order = np.argsort(sizes)
        ax.step(sizes[order], np.cumsum(probs[order]), where="post", **style(kind, "exact"))
        sample = np.sort(wl.sample_files_bits(n_samples, np.random.default_rng(seed)) / 8 / 1024)
        ax.plot(sample, np.arange(1, sample.size + 1) / sample.size, **style(kind, "samples"))
    ax.set(xscale="log", xlabel="file size (KiB)", ylabel="CDF",
           title=f"File-size CDF, within-class reading: {within_class} ({n_samples:,} samples)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def efficiency_queue_figure(summary: pd.DataFrame, f_cells: float) -> Figure:
    """Return a figure of efficiency and maximum queue against N: published ABR beside the ns-3 analogue (95% CI).

    ``summary`` is :func:`paperlib.reproduce.p003.ns3.analogue_summary`; ``f_cells`` the feedback delay F in
    cells, drawn as a reference line.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    ax = axes[0]
    ax.plot(summary.N, summary.published_efficiency_pct, **style("abr", "published_simulation"))
    ax.errorbar(summary.N, summary.efficiency_pct, yerr=summary.efficiency_pct_ci95, capsize=3,
                **style("fifo", "simulation"))
    ax.errorbar(summary.N, summary.efficiency_packet_pct, yerr=summary.efficiency_packet_pct_ci95, capsize=3,
                **style("fifo", "simulation_packet_link"))
    ax.set(xlabel="servers N (15 clients each)", ylabel="efficiency (% of 35.1 Mbit/s TCP payload)",
           title="Efficiency vs N")
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.plot(summary.N, summary.published_queue_cells, **style("abr", "published_simulation"))
    ax.errorbar(summary.N, summary.queue_cells, yerr=summary.queue_cells_ci95, capsize=3,
                **style("fifo", "simulation"))
    ax.axhline(f_cells, color=color("reference"), lw=0.8, ls=":")
    ax.text(summary.N.min(), f_cells * 1.1, "1 F = 10 ms of OC-3 cells", fontsize=8, color=color("reference"))
    ax.set(xlabel="servers N (15 clients each)", ylabel="maximum queue (cells; FIFO: packets x 12)", yscale="log",
           title="Maximum queue vs N (ABR switch, TCP/FIFO bottleneck)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def queue_time_figure(sims: pd.DataFrame, cells_per_segment: float) -> Figure:
    """Return a figure of the bottleneck queue (cells) over time of each N's first run (repetition 0).

    One line per N in matplotlib's default colour cycle (N is a parameter, not a registry kind).
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.8))
    for n, g in sims[sims.rep == 0].groupby("n_servers"):
        ax.plot(g.queue_times_s.iloc[0], np.asarray(g.queue_packets.iloc[0]) * cells_per_segment, lw=0.8,
                label=f"N = {n}")
    ax.set(xlabel="simulated time (s)", ylabel="bottleneck queue (cells)",
           title="Analogue: queue over time (first run)")
    ax.legend(fontsize=8)
    return fig
