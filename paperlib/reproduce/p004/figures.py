"""Paper 004's figures: latency against the link rate and the initial window, and the real stacks' Table II.

Each function returns a matplotlib figure (the notebook saves it with :func:`paperlib.figures.save_figure`);
colours, markers and labels come from :func:`paperlib.figures.style` and
:func:`paperlib.figures.sequence_style`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from paperlib.emulation.notebook import errorbars
from paperlib.figures import sequence_style, style
from paperlib.reproduce.p004.operating_point import OperatingPoint
from paperlib.reproduce.p004.what_if import WhatIf

PROTOCOLS = ("sctp", "tcp")


def latency_vs_bandwidth(curve: pd.DataFrame, point: OperatingPoint, published: pd.DataFrame,
                         w: WhatIf) -> Figure:
    """Return the figure of SCTP/TCP latency against the link rate: the what-if curves
    (:func:`paperlib.reproduce.p004.what_if.latency_vs_rate`) and Table II's printed points ``published``
    at the paper's rates."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for proto in PROTOCOLS:
        big = proto.upper()
        ax.plot(curve.rate_bps, curve[f"{proto}_corrected_s"], **style(proto, "model"))
        if curve[f"{proto}_printed_s"].notna().any():
            ax.plot(curve.rate_bps, curve[f"{proto}_printed_s"], **style(proto, "model_printed"))
        ax.plot(point.rates_bps, published[f"Exp({big})"].astype(float), **style(proto, "experiment"))
        ax.plot(point.rates_bps, published[f"Model({big})"].astype(float), **style(proto, "published_model"))
    ax.set(xscale="log", yscale="log", xlabel="link rate $\\mu$ (bit/s)", ylabel="transfer latency (s)",
           title=f"L_obj = {w.obj_bits / 8:g} B, L_mtu = {w.mtu_bits / 8:g} B, T_r = {w.rtt_s:g} s, "
                 f"x = {w.initial_window}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return fig


def latency_vs_initial_window(by_x: pd.DataFrame, w: WhatIf) -> Figure:
    """Return the figure of SCTP latency against the initial window, one curve per link rate
    (:func:`paperlib.reproduce.p004.what_if.latency_vs_window`)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups = list(by_x.groupby("rate_bps"))
    for i, (rate, grp) in enumerate(groups):
        ax.plot(grp.initial_window, grp.sctp_latency_s, **sequence_style(i, len(groups), f"{rate / 1e3:g} kbit/s"))
    ax.set(yscale="log", xlabel="initial window x (segments)", ylabel="SCTP transfer latency (s)",
           title=f"Eq. (5), corrected form; L_obj = {w.obj_bits / 8:g} B, T_r = {w.rtt_s:g} s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, title="link rate")
    return fig


def emulated_vs_published(emulated: pd.DataFrame, point: OperatingPoint) -> Figure:
    """Return the figure of Table II's published experiment, the model and the real stacks' means with their
    95% CIs (:func:`paperlib.reproduce.p004.emulated.summary`) against the link rate."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for proto in PROTOCOLS:
        big = proto.upper()
        ax.plot(point.rates_bps, emulated[f"Exp({big})"], **style(proto, "experiment"))
        ax.plot(point.rates_bps, emulated[f"model {big} (s)"], **style(proto, "model"))
        errorbars(ax, point.rates_bps, emulated[f"emulated {big} (s)"], emulated[f"CI95 {big} (s)"], proto)
    ax.set(xscale="log", yscale="log", xlabel="link rate (bit/s)", ylabel="transfer latency (s)",
           title="Table II: published experiment, model and real stacks (no ns-3 run for 004)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return fig
