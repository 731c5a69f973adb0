"""Statistical figures drawn with seaborn, in the colours and markers of :mod:`paperlib.figures`.

* :func:`response_time_ecdf`: empirical CDFs of response times, one curve per configuration
  (paper 001's Figs. 3, 6, 7 and 9 are such CDFs);
* :func:`calibration_regression`: a linear fit with its 95% band beside its residuals (paper 001's
  calibration of throughput against browsers);
* :func:`ledger_overview`: ledger rows by paper and source, stacked by status (the report's index).

Each returns a matplotlib figure; :func:`paperlib.figures.save_figure` writes it with provenance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib import pyplot as plt

from paperlib.figures import PROTOCOLS, SOURCES, STATUS_COLORS


def config_palette(names) -> dict[str, str]:
    """Return a colour per configuration name: its protocol's registry colour (``"RED-A"`` -> RED), shaded by order.

    A name whose prefix (before ``-``, ``_`` or a space) is no protocol of the registry gets grey shades.
    """
    names = list(dict.fromkeys(names))
    groups: dict[str, list[str]] = {}
    for name in names:
        key = str(name).replace("_", "-").replace(" ", "-").split("-")[0].lower()
        groups.setdefault(key if key in PROTOCOLS else "", []).append(name)
    palette = {}
    for key, members in groups.items():
        base = PROTOCOLS[key]["color"] if key else "#555555"
        shades = sns.dark_palette(base, n_colors=len(members) + 1, reverse=True)[: len(members)]
        palette.update({name: shade for name, shade in zip(members, shades, strict=True)})
    return palette


def response_time_ecdf(frame: pd.DataFrame, *, value: str = "response_s", hue: str = "config",
                       ax=None, log_x: bool = True, title: str | None = None):
    """Return a figure of the empirical CDF of ``frame[value]``, one curve per ``frame[hue]``.

    ``frame`` is long: one row per response (e.g. ``config``, ``response_s``); values in seconds.
    """
    for col in (value, hue):
        if col not in frame.columns:
            raise ValueError(f"response_time_ecdf: frame has no column {col!r} (it has {list(frame.columns)})")
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    sns.ecdfplot(data=frame, x=value, hue=hue, palette=config_palette(frame[hue]), log_scale=log_x, ax=ax)
    ax.set(xlabel="response time (s)", ylabel="fraction of responses", title=title)
    ax.grid(True, which="both", alpha=0.3)
    return fig


def calibration_regression(x, y, *, xlabel: str = "browsers", ylabel: str = "throughput (kbit/s)",
                           title: str | None = None):
    """Return a figure: ``y`` against ``x`` with the OLS line and its 95% band (left), the residuals (right).

    The line is seaborn's OLS fit (``regplot``, ``ci=95``), the same least-squares line as
    the calibration fits of the paper packages that call this; the residuals are ``y`` minus that line.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 3:
        raise ValueError(f"calibration_regression: x and y must be 1-D of equal length >= 3, "
                         f"got {x.shape} and {y.shape}")
    sim = SOURCES["simulation"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    sns.regplot(x=x, y=y, ci=95, ax=left, color=PROTOCOLS["fifo"]["color"], marker=sim["marker"],
                line_kws={"label": "OLS fit, 95% band"}, scatter_kws={"label": sim["label"]})
    left.set(xlabel=xlabel, ylabel=ylabel, title=title)
    left.legend(fontsize=8)
    sns.residplot(x=x, y=y, ax=right, color=PROTOCOLS["fifo"]["color"], scatter_kws={"marker": sim["marker"]})
    right.axhline(0.0, color="#333333", lw=0.8)
    right.set(xlabel=xlabel, ylabel=f"residual of {ylabel}", title="residuals of the fit")
    fig.tight_layout()
    return fig


def ledger_overview(frame: pd.DataFrame):
    """Return a figure: ledger rows per (paper, source), stacked by status in the registry's status colours."""
    for col in ("paper", "source", "status"):
        if col not in frame.columns:
            raise ValueError(f"ledger_overview: frame has no column {col!r}")
    short = frame["source"].astype(str).map(lambda t: t if len(t) <= 38 else t[:37] + "…")
    data = frame.assign(where=frame["paper"].astype(str) + " · " + short)
    order = list(dict.fromkeys(data.sort_values(["paper"], kind="stable")["where"]))
    statuses = [s for s in STATUS_COLORS if (data["status"] == s).any()]
    statuses += sorted(set(data["status"]) - set(statuses))
    counts = (data.groupby(["where", "status"]).size().unstack(fill_value=0)
              .reindex(index=order, columns=statuses, fill_value=0))
    with sns.axes_style("whitegrid"):  # applies to axes created inside
        fig, ax = plt.subplots(figsize=(10, 1.4 + 0.28 * len(order)))
    left = np.zeros(len(order))
    for status in statuses:
        widths = counts[status].to_numpy()
        ax.barh(order, widths, left=left, color=STATUS_COLORS.get(status, "#999999"), label=status,
                edgecolor="white", linewidth=0.5)
        left += widths
    ax.invert_yaxis()
    ax.set(xlabel="ledger rows", ylabel="paper · source (shortened)")
    ax.set_title("Ledger rows by paper and source, stacked by status", loc="left", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="status")
    sns.despine(ax=ax)
    fig.tight_layout()
    return fig
