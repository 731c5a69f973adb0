"""Paper 005's figures: page load time against loss per transport, the IW10 gain over rate x RTT, the 40 kbit/s what-if.

Each function returns a matplotlib figure (the notebook saves it with :func:`paperlib.figures.save_figure`);
colours, markers and labels come from :func:`paperlib.figures.style` and :func:`paperlib.figures.color`
(one registry: ``h2``, ``h3``, ``sctp``). The frames are those of :mod:`paperlib.reproduce.p005.findings`
and :func:`paperlib.reproduce.p005.emulated.summary`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from paperlib import validate
from paperlib.figures import color, style
from paperlib.reproduce.p005 import transports

#: Line styles of the model curves, one per initial window of a figure (in increasing window order).
IW_LINESTYLES = ("-", "--", ":", "-.")
#: Markers of the measured means, one per initial window (same order).
IW_MARKERS = ("D", "o", "s", "^")
#: BDP contour levels of the heat map (bits): 10 kB, 100 kB, 1 MB and 10 MB in flight.
BDP_LEVELS_BITS = (8e4, 8e5, 8e6, 8e7)


def _need(frame: pd.DataFrame, name: str, columns) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise validate.ParameterError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise validate.ParameterError(f"{name} lacks the columns {missing}")
    if frame.empty:
        raise validate.ParameterError(f"{name} has no rows")


def _protocols(frame: pd.DataFrame) -> list[str]:
    """Return the frame's protocols in the order of :data:`transports.PROTOCOLS`."""
    return [p for p in transports.PROTOCOLS if p in set(frame.protocol)]


def _path_title(rate_bps: float, rtt_s: float) -> str:
    rate = f"{rate_bps / 1e6:g} Mbit/s" if rate_bps >= 1e6 else f"{rate_bps / 1e3:g} kbit/s"
    return f"{rate}, T_r = {rtt_s * 1e3:g} ms"


def plt_vs_loss(model: pd.DataFrame, measured: pd.DataFrame | None = None) -> Figure:
    """Return the page load time against the loss probability, one curve per transport and initial window.

    ``model`` is :func:`paperlib.reproduce.p005.findings.transport_times` (columns ``protocol``, ``rate_bps``,
    ``rtt_s``, ``loss``, ``iw_segments``, ``plt_s``): one panel per (rate, RTT) of the frame, a line per
    protocol (its colour) and window (its line style). ``measured``, the real stacks' summary
    (:func:`paperlib.reproduce.p005.emulated.summary`: ``plt_mean_s``, ``plt_half_s``), adds the means with
    their 95 % intervals as error bars on the panel of their (rate, RTT), the protocol's colour, the window's
    marker; rows of another (rate, RTT) are not drawn.
    """
    _need(model, "model", ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments", "plt_s"])
    if measured is not None:
        _need(measured, "measured", ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments", "plt_mean_s",
                                     "plt_half_s"])
    paths = model[["rate_bps", "rtt_s"]].drop_duplicates().sort_values(["rate_bps", "rtt_s"]).to_numpy()
    windows = sorted(set(model.iw_segments) | (set(measured.iw_segments) if measured is not None else set()))
    ncols = min(len(paths), 3)
    nrows = -(-len(paths) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.5 * ncols, 4.2 * nrows), squeeze=False)
    for ax, (rate, rtt) in zip(axes.flat, paths, strict=False):
        here = model[np.isclose(model.rate_bps, rate) & np.isclose(model.rtt_s, rtt)]
        for proto in _protocols(here):
            for w, grp in here[here.protocol == proto].groupby("iw_segments"):
                grp = grp.sort_values("loss")
                kw = style(proto, "model")
                kw.update(linestyle=IW_LINESTYLES[windows.index(w) % len(IW_LINESTYLES)],
                          label=f"{transports.LABEL[proto]}, IW {w}, model")
                ax.plot(grp.loss * 100, grp.plt_s, **kw)
        if measured is not None:
            mine = measured[np.isclose(measured.rate_bps, rate) & np.isclose(measured.rtt_s, rtt)]
            for proto in _protocols(mine) if not mine.empty else []:
                for w, grp in mine[mine.protocol == proto].groupby("iw_segments"):
                    kw = style(proto, "emulation")
                    kw.update(marker=IW_MARKERS[windows.index(w) % len(IW_MARKERS)],
                              label=f"{transports.LABEL[proto]}, IW {w}, real stack (95% CI)")
                    half = np.where(np.isfinite(grp.plt_half_s.to_numpy(float)), grp.plt_half_s.to_numpy(float), 0)
                    ax.errorbar(grp.loss * 100, grp.plt_mean_s, yerr=half, capsize=3, **kw)
        ax.set(xlabel="packet loss probability p (%)", ylabel="page load time (s)", title=_path_title(rate, rtt))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(paths):]:
        ax.set_visible(False)
    fig.suptitle("Page load time against loss\n(model: the last object's expected completion, a lower bound for "
                 "HTTP/3 and SCTP)", fontsize=8)
    fig.tight_layout()
    return fig


def iw_gain_heatmap(gain: pd.DataFrame, iw_old: int = 3, point: tuple[float, float] | None = None) -> Figure:
    """Return the IW10 gain over rate x RTT as a colour map (%), with BDP contours and an optional marked point.

    ``gain`` is :func:`paperlib.reproduce.p005.findings.iw_gain` (columns ``rate_bps``, ``rtt_s``,
    ``bdp_bits``, ``iw_old``, ``gain``); the rows with ``iw_old`` are drawn, log axes, the colour bar in
    percent (100 x gain). White lines are the bandwidth-delay product R T_r at :data:`BDP_LEVELS_BITS`.
    ``point`` = (rate in bit/s, T_r in s) marks the reduced grid's real-stack point.
    """
    _need(gain, "gain", ["rate_bps", "rtt_s", "bdp_bits", "iw_old", "gain"])
    rows = gain[gain.iw_old == iw_old]
    if rows.empty:
        raise validate.ParameterError(f"iw_old = {iw_old} is not in gain (it has {sorted(set(gain.iw_old))})")
    table = rows.pivot_table(index="rtt_s", columns="rate_bps", values="gain")
    rates, rtts = table.columns.to_numpy(float), table.index.to_numpy(float)
    fig, ax = plt.subplots(figsize=(7, 5))
    mesh = ax.pcolormesh(rates, rtts, 100 * table.to_numpy(), shading="nearest", cmap="viridis")
    bar = fig.colorbar(mesh, ax=ax)
    bar.set_label(f"gain of IW 10 over IW {iw_old} (% of the page load time)")
    if len(rates) > 1 and len(rtts) > 1:
        bdp = rates[None, :] * rtts[:, None]
        levels = [lv for lv in BDP_LEVELS_BITS if bdp.min() < lv < bdp.max()]
        if levels:
            lines = ax.contour(rates, rtts, bdp, levels=levels, colors="white", linewidths=0.8)
            ax.clabel(lines, fmt=lambda b: f"BDP {b / 8e3:g} kB", fontsize=7)
    if point is not None:
        ax.plot([point[0]], [point[1]], marker="*", markersize=12, color="red", linestyle="none",
                label="real-stack point")
        ax.legend(fontsize=7, loc="lower left")
    ax.set(xscale="log", yscale="log", xlabel="link rate R (bit/s)", ylabel="round trip T_r (s)",
           title=f"Initial window 10 against {iw_old} segments (model)")
    return fig


def narrowband(table: pd.DataFrame) -> Figure:
    """Return the 40 kbit/s what-if as grouped bars: page load time per page and window, one bar per transport.

    ``table`` is :func:`paperlib.reproduce.p005.findings.narrowband_what_if` (columns ``page``,
    ``iw_segments``, ``protocol``, ``plt_s``). Groups are page x window, in the table's order; the time axis is
    logarithmic when the largest bar is more than 20 times the smallest.
    """
    _need(table, "table", ["page", "iw_segments", "protocol", "plt_s"])
    groups = table[["page", "iw_segments"]].drop_duplicates().to_records(index=False).tolist()
    protos = _protocols(table)
    width = 0.8 / len(protos)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, proto in enumerate(protos):
        mine = table[table.protocol == proto].set_index(["page", "iw_segments"]).plt_s
        heights = [float(mine.get((page, w), np.nan)) for page, w in groups]
        ax.bar(np.arange(len(groups)) + (k - (len(protos) - 1) / 2) * width, heights, width,
               color=color(proto), label=transports.LABEL[proto])
    ax.set_xticks(np.arange(len(groups)), [f"{page}'s page\nIW {w}" for page, w in groups])
    values = table.plt_s.to_numpy(float)
    if values.min() > 0 and values.max() / values.min() > 20:
        ax.set_yscale("log")
        ax.set_ylim(values.min() / 3, values.max() * 2)  # bars grow from below the smallest
    setting = ""
    if {"rate_bps", "rtt_s"} <= set(table.columns) and len(table[["rate_bps", "rtt_s"]].drop_duplicates()) == 1:
        setting = f" ({_path_title(float(table.rate_bps.iloc[0]), float(table.rtt_s.iloc[0]))})"
    ax.set(ylabel="page load time (s)",
           title=f"Papers 000 and 002's narrowband setting{setting}:\ntheir page and today's")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return fig
