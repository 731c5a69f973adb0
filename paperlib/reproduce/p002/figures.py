"""Paper 002's figures: regenerated model, published rows, ns-3 and real stacks (colours from the style registry).

Each function returns a matplotlib figure; the notebook saves it with :func:`paperlib.figures.save_figure`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from paperlib.data import Paper
from paperlib.emulation import notebook as emulation_notebook
from paperlib.figures import style
from paperlib.reproduce.p002 import ns3

#: The two printed tables as panels: table, x column, x label, title.
PANELS = (("table2", "p", "packet loss ratio p", "Table II (RTT 0.256 s)"),
          ("table3", "rtt_s", "round-trip time (s)", "Table III (p = 1 %)"))


def response_vs_p_and_rtt(paper: Paper, regen: pd.DataFrame, simulations: ns3.Simulations | None = None) -> Figure:
    """Return Tables II (against p) and III (against RTT): regenerated model, published rows, ns-3 TCP if run.

    ``simulations`` is the ns-3 record (:func:`paperlib.reproduce.p002.ns3.run`), ``None`` when not run.
    """
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.3))
    for ax, (table, xname, xlabel, title) in zip(axes, PANELS, strict=True):
        sub = regen[regen["table"] == table]
        printed = paper.tables[table].cells.set_index("Protocol")
        x = sub[xname].to_numpy()
        for proto, P in (("tcp", "TCP"), ("sctp", "SCTP")):
            ax.plot(x, sub[f"{proto}_s"], **style(proto, "model"))
            ax.plot(x, printed.loc[f"{P} (Model) (Sec)"].astype(float), **style(proto, "published_model"))
            ax.plot(x, printed.loc[f"{P} (Experimental) (Sec)"].astype(float), **style(proto, "experiment"))
        if simulations is not None:
            keyed = ns3.summary(simulations).set_index(["rtt_s", "p"])
            ys = [keyed.loc[(r, pp)] for r, pp in zip(sub["rtt_s"], sub["p"], strict=True)]
            ax.errorbar(x, [y["mean_s"] for y in ys], yerr=[y["ci95_s"] for y in ys], capsize=3,
                        **style("tcp", "simulation"))
        ax.set(xlabel=xlabel, ylabel="response time for M = 5 objects (s)", title=title)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def what_if_response_vs_p(curve: pd.DataFrame) -> Figure:
    """Return the what-if curve (:func:`paperlib.reproduce.p002.what_if.response_vs_p`) as TCP and SCTP steps."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for proto in ("tcp", "sctp"):
        ax.step(curve["p"], curve[f"{proto}_s"], where="post", **style(proto, "model"))
    first = curve.iloc[0]
    ax.set(xlabel="packet loss ratio p", ylabel="response time (s)",
           title=f"what if: O = {first['obj_bits'] / 8:g} B, R = {first['rate_bps']:g} bit/s, "
                 f"RTT = {first['rtt_s']:g} s")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def emulated_vs_published(emu_table: pd.DataFrame) -> Figure:
    """Return Tables II and III's published experiment, model, ns-3 TCP (if run) and emulated means with CIs.

    ``emu_table`` is :func:`paperlib.reproduce.p002.emulated.summary`.
    """
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.3))
    for ax, tname, xname, xlabel in ((axes[0], "Table II", "p", "packet loss ratio p"),
                                     (axes[1], "Table III", "rtt_s", "round-trip time (s)")):
        sub = emu_table[emu_table["table"] == tname]
        for proto in ("sctp", "tcp"):
            P = proto.upper()
            ax.plot(sub[xname], sub[f"published {P} (s)"], **style(proto, "experiment"))
            ax.plot(sub[xname], sub[f"model {P} (s)"], **style(proto, "model"))
            emulation_notebook.errorbars(ax, sub[xname], sub[f"emulated {P} (s)"], sub[f"CI95 {P} (s)"], proto)
        if sub["ns-3 TCP (s)"].notna().any():
            ax.errorbar(sub[xname], sub["ns-3 TCP (s)"], yerr=sub["ns-3 CI95 TCP (s)"].fillna(0), capsize=3,
                        **style("tcp", "simulation"))
        ax.set(xlabel=xlabel, ylabel="mean response time (s)", title=f"{tname}: published, model, ns-3, real stacks")
        ax.grid(True, alpha=0.3)
    # one legend below both panels, where it hides no point or interval
    entries = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            entries.setdefault(label, handle)
    fig.legend(entries.values(), entries.keys(), loc="lower center", ncol=4, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig
