"""The 000 notebook's figures: Fig. 4 regenerated, W against m, ns-3 and the emulated re-run beside the print.

Colours, markers and labels come from :func:`paperlib.figures.style`; each function draws one
figure and returns it: the notebook writes it with :func:`paperlib.figures.save_figure` (stamped,
which closes it).
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

from paperlib.emulation import notebook as emulation_notebook
from paperlib.figures import style
from paperlib.reproduce.p000.emulated import rows_in_figure
from paperlib.reproduce.p000.operating_point import SOURCES
from paperlib.reproduce.p000.what_if import WhatIf

#: Fig. 4's sources (:func:`paperlib.reproduce.p000.findings.figure4_data`) -> style kinds.
FIGURE4_KINDS = {"published model": "published_model", "published experiment": "experiment",
                 "regenerated model": "model_points"}
#: Fig. 4's sweeps -> (factor to the axis unit, axis label, axis scale).
FIGURE4_AXES = {"p": (100, "packet loss ratio p (%)", "linear"), "mu": (1e-3, "link rate mu (Kbps)", "log"),
                "rtt": (1e3, "round-trip time rtt (ms)", "linear")}


def figure4(fig4: pd.DataFrame) -> Figure:
    """Return Fig. 4 regenerated (mean W over m against p, mu, rtt) from :func:`findings.figure4_data`."""
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.3))
    for ax, (sweep, grp) in zip(axes, fig4.groupby("sweep", sort=False), strict=True):
        factor, label, xscale = FIGURE4_AXES[sweep]
        for (proto, source), g in grp.groupby(["protocol", "source"], sort=False):
            ax.plot(g["x"] * factor, g["W_s"], **style(proto, FIGURE4_KINDS[source]))
        ax.set(xlabel=label, ylabel="mean waiting time, mean over m (s)", xscale=xscale)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 4 regenerated: mean waiting times for p, mu, rtt (Tables 1-3)")
    fig.tight_layout()
    return fig


def waiting_vs_users(users: pd.DataFrame, w: WhatIf) -> Figure:
    """Return W (Eq. (4), the tables' law) and T (Eq. (6)) against m from :func:`what_if.waiting_vs_users`."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for proto, g in users.groupby("protocol", sort=False):
        ax.plot(g["m"], g["W Eq. (4) (s)"], **style(proto, "waiting_eq4"))
        ax.plot(g["m"], g["W tabulated law (s)"], **style(proto, "waiting_tabulated"))
        ax.plot(g["m"], g["T Eq. (6) (s)"], **style(proto, "turnaround_eq6"))
    ax.set(xlabel="number of users m", ylabel="time (s)", yscale="log",
           title=f"p = {w.p:g}, rtt = {w.rtt_s:g} s, mu = {w.rate_bps:g} bit/s, theta = {w.obj_bits / 8:g} B, "
                 f"mtu = {w.mtu_bits / 8:g} B")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return fig


def ns3_waiting(ns3_table: pd.DataFrame, replications: int) -> Figure:
    """Return the TCP waiting time per printed block: published, model, ns-3 (mean, 95% CI), from ``ns3.ns3_tables``.

    One panel per printed block (nine: ``ns3_tables`` has a row per printed row, NaN where not simulated).
    """
    fig, axes = plt.subplots(3, 3, figsize=(14, 11), sharex=True)
    blocks = ns3_table.groupby(["table", "block"], sort=False)
    for ax, ((table, block), g) in zip(axes.flat, blocks, strict=True):
        ax.plot(g["m"], g["published T_tcp"], **style("tcp", "experiment"))
        ax.plot(g["m"], g["published W_tcp"], **style("tcp", "published_model"))
        ax.plot(g["m"], g["model W (tables' law)"], **style("tcp", "model"))
        ax.plot(g["m"], g["model W Eq. (4)"], **{**style("tcp", "model_printed"), "label": "TCP, model, Eq. (4)"})
        ax.errorbar(g["m"], g["ns3 W"], yerr=g["ns3 W ci95"], capsize=3, **style("tcp", "simulation"))
        ax.set(title=f"{SOURCES[table]}, {block}", yscale="log", ylabel="mean waiting time (s)")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("number of users m")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"TCP waiting time of m users: published, model, ns-3 (mean, 95% CI, {int(replications)} runs)")
    fig.tight_layout()
    return fig


#: Why an emulated waiting time can be negative, written on the figure that shows one.
NEGATIVE_W_NOTE = ("emulated W = mean turnaround of the m users - mean single-user response T(1), both measured; "
                   "W < 0 where the single-user runs took longer than the m users' mean (as when a single-user run "
                   "loses a packet and waits out a retransmission timeout).")


def emulated_vs_published(emu_table: pd.DataFrame, ns3_table: pd.DataFrame | None) -> Figure:
    """Return the published experiment, the model, ns-3 (TCP, where run) and the real stacks per printed row.

    ``emu_table`` is :func:`paperlib.reproduce.p000.emulated.summary`'s table (the rows drawn:
    :func:`paperlib.reproduce.p000.emulated.rows_in_figure`), ``ns3_table`` ns-3's
    (:func:`paperlib.reproduce.p000.ns3.ns3_tables`) or None.

    Upper panel: mean waiting times on a log axis; an emulated W that is not positive cannot be drawn
    there and is marked at the panel's foot (open triangle). Lower panel: the two measured means the
    emulated W is the difference of (turnaround of the m users, single-user response time), both
    positive, under the note :data:`NEGATIVE_W_NOTE` saying why their difference can be negative.
    """
    shown = rows_in_figure(emu_table)
    fig, (ax, low) = plt.subplots(2, 1, figsize=(10, 8), sharex=True, height_ratios=[3, 2])
    x = np.arange(len(shown))
    not_positive, drawn = {}, []
    for proto in ("sctp", "tcp"):
        big = proto.upper()
        ax.plot(x, shown[f"published T_{{{proto}}}"], **style(proto, "experiment"))
        ax.plot(x, shown[f"model W_{{{proto}}}"],
                **{**style(proto, "published_model"), "label": f"{big}, model W (regenerated)"})
        drawn += [shown[f"published T_{{{proto}}}"].to_numpy(float), shown[f"model W_{{{proto}}}"].to_numpy(float)]
        w = shown[f"emulated W {big} (s)"].to_numpy(float)
        half = shown[f"CI95 {big} (s)"].to_numpy(float)
        positive = np.isfinite(w) & (w > 0)
        # a CI reaching 0 or below runs off the foot of the log axis
        emulation_notebook.errorbars(ax, x[positive], w[positive], np.minimum(half[positive], 0.999 * w[positive]),
                                     proto)
        drawn.append(w[positive])
        not_positive[proto] = x[np.isfinite(w) & ~positive]
        single = shown[f"emulated single {big} (s)"].to_numpy(float)
        low.plot(x, w + single, **{**style(proto, "emulation"), "label": f"{big}, emulated mean turnaround, m users"})
        low.plot(x, single, **{**style(proto, "emulation"), "fillstyle": "none",
                               "label": f"{big}, emulated single-user response T(1)"})
    if ns3_table is not None:  # ns-3 TCP at the same rows
        keys = {v: k for k, v in SOURCES.items()}
        sim = ns3_table.set_index(["table", "block", "m"])
        at = [(keys[t], b, m) for t, b, m in zip(shown["table"], shown["block"], shown["m"], strict=True)]
        ok = [k in sim.index for k in at]
        if any(ok):
            simulated = [k for k, o in zip(at, ok, strict=True) if o]
            sim_w = [sim.loc[k, "ns3 W"] for k in simulated]
            ax.errorbar(x[ok], sim_w, yerr=[sim.loc[k, "ns3 W ci95"] for k in simulated], capsize=3,
                        **style("tcp", "simulation"))
            drawn.append(np.asarray(sim_w, float))
    ax.set_yscale("log")
    # the axis spans the values drawn (not their CIs, which may reach 0), with a strip below them for the
    # marks of W <= 0
    values = np.concatenate(drawn) if drawn else np.array([])
    values = values[np.isfinite(values) & (values > 0)]
    marks = any(len(at) for at in not_positive.values())
    if len(values):
        ax.set_ylim(values.min() / (4 if marks else 1.5), values.max() * 2)
    _plain_log_ticks(ax)
    bottom = ax.get_ylim()[0]
    for proto, at in not_positive.items():
        if len(at):
            shift = -0.08 if proto == "sctp" else 0.08  # side by side where both stacks are <= 0
            ax.plot(at + shift, np.full(len(at), bottom * 1.5), marker="v", linestyle="none", fillstyle="none",
                    color=style(proto, "emulation")["color"], label=f"{proto.upper()}, emulated W <= 0 (lower panel)")
    ax.set(ylabel="mean waiting time W (s), log scale")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=4, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.suptitle("Tables 1-3: published experiment, model, ns-3 (TCP, where run) and real stacks")
    measured = np.isfinite(shown[["emulated single SCTP (s)", "emulated single TCP (s)"]].to_numpy(float)).any()
    if measured:
        low.set_yscale("log")
        means = low.get_ylim()
        low.set_ylim(means[0], means[1] * 3)  # headroom for the legend
        _plain_log_ticks(low)
        low.legend(fontsize=7, ncol=2, loc="upper center")
    else:
        low.text(0.5, 0.5, "real stacks not run", transform=low.transAxes, ha="center", va="center")
        low.set_yticks([])
    low.set_ylabel("measured mean time (s)" + (", log scale" if measured else ""))
    low.set_title(textwrap.fill(NEGATIVE_W_NOTE, 130), fontsize=8, loc="left")
    low.grid(True, which="both", alpha=0.3)
    labels = [f"T{t[-1]} {b}, m={m}" for t, b, m in zip(shown["table"], shown["block"], shown["m"], strict=True)]
    low.set_xticks(x, labels, rotation=45, ha="right", fontsize=7)
    fig.tight_layout()
    return fig


def _plain_log_ticks(ax) -> None:
    """Label the log y axis of ``ax`` at 1, 2, 5 times the powers of ten, as plain numbers (0.2, 1, 50)."""
    ax.yaxis.set_major_locator(LogLocator(subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())
