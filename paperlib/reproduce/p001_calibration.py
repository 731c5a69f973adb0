"""Seed 001's calibration, regenerated: throughput against browsers, an OLS line, inverted for the loads.

The paper measured throughput y against the number of browsers x on its uncongested
testbed and fitted y = 2.9327 x - 125.0857 with SigmaPlot's regression (ordinary least
squares). Here the same measurement comes from the ns-3 testbed (``p001_testbed``); y is the
reply payload delivered per second after the warm-up, in kbit/s (the unit under which the
published line gives the published Table 3, see ``p001``). The fit is statsmodels OLS; the
browser count for a load is the line inverted at y = load x bottleneck rate and truncated to a
whole browser, the paper's own rounding (``p001.table3_search``). Its confidence interval is
where the line's 95% confidence band crosses the target.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm

from paperlib import validate

KBPS = 1e3  # y of the calibration line is in kbit/s


def fit(browsers, throughput_bps):
    """Return the statsmodels OLS fit of throughput (kbit/s) on browsers (with intercept)."""
    x = np.asarray(browsers, dtype=float)
    y = np.asarray(throughput_bps, dtype=float) / KBPS
    if x.shape != y.shape or x.ndim != 1:
        raise validate.ParameterError("browsers and throughput_bps must be 1-d and of equal length")
    if len(np.unique(x)) < 2:
        raise validate.ParameterError("the calibration needs at least two different browser counts")
    if np.any(~np.isfinite(y)) or np.any(y < 0):
        raise validate.ParameterError("throughput_bps must be finite and >= 0")
    return sm.OLS(y, sm.add_constant(x)).fit()


def coefficients(result) -> pd.DataFrame:
    """Return slope and intercept with standard errors and 95% confidence intervals."""
    ci = np.asarray(result.conf_int(0.05))
    names = ["intercept", "slope"]
    return pd.DataFrame({"estimate": result.params, "std_err": result.bse, "ci95_low": ci[:, 0],
                         "ci95_high": ci[:, 1]}, index=names).rename_axis("coefficient")


def invert(result, target_kbps: float) -> float:
    """Return x where the fitted line reaches ``target_kbps`` (not rounded)."""
    intercept, slope = np.asarray(result.params)
    if slope <= 0:
        raise validate.ParameterError(f"the fitted slope must be positive to invert the line, got {slope}")
    return (target_kbps - intercept) / slope


def band_crossings(result, target_kbps: float, x_max: float) -> tuple[float, float]:
    """Return the x range where the line's 95% confidence band contains ``target_kbps``."""
    xs = np.linspace(0.0, x_max, 20_001)
    band = np.asarray(result.get_prediction(sm.add_constant(xs, has_constant="add")).conf_int(alpha=0.05))
    inside = (band[:, 0] <= target_kbps) & (target_kbps <= band[:, 1])
    if not inside.any():
        return float("nan"), float("nan")
    return float(xs[inside].min()), float(xs[inside].max())


def browsers_for_loads(result, loads, bottleneck_bps: float) -> pd.DataFrame:
    """Return, per load, the target y (kbit/s), x on the line, its 95% range and the browsers (truncated)."""
    validate.positive("bottleneck_bps", bottleneck_bps)
    rows = []
    for load in loads:
        target = float(load) * bottleneck_bps / KBPS
        x = invert(result, target)
        lo, hi = band_crossings(result, target, 3 * x)
        rows.append({"load": float(load), "target_kbps": target, "x": x, "x_ci95_low": lo, "x_ci95_high": hi,
                     "browsers": int(np.trunc(x))})
    return pd.DataFrame(rows)


def table(sweep: pd.DataFrame) -> pd.DataFrame:
    """Return the calibration measurements: browsers, repetition, throughput in kbit/s."""
    return pd.DataFrame({"browsers": sweep["browsers"].astype(int), "rep": sweep["rep"].astype(int),
                         "throughput_kbps": sweep["throughput_bps"] / KBPS})


def figure(cal: pd.DataFrame, result, inverse: pd.DataFrame, published_line: tuple[float, float], path, stamp,
           profile_name: str):
    """Plot the calibration runs, the OLS line with its 95% band, the published line and the residuals; save."""
    import matplotlib.pyplot as plt

    from paperlib.figures import save_figure

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    ax = axes[0]
    ax.plot(cal["browsers"], cal["throughput_kbps"], "o", color="#1b9e77", label="ns-3 runs")
    xs = np.linspace(0, max(cal["browsers"]) * 1.1, 50)
    band = np.asarray(result.get_prediction(np.column_stack([np.ones_like(xs), xs])).conf_int(alpha=0.05))
    ax.plot(xs, result.params[0] + result.params[1] * xs, color="#1b9e77",
            label=f"OLS y = {result.params[1]:.4f} x {result.params[0]:+.1f}")
    ax.fill_between(xs, band[:, 0], band[:, 1], color="#1b9e77", alpha=0.2, label="95% confidence band")
    px = np.linspace(0, min(xs.max(), 1.2 * max(inverse["target_kbps"].max() - published_line[1], 1) / published_line[0]), 50)
    ax.plot(px, published_line[0] * px + published_line[1], color="#e7298a", ls="--",
            label=f"published y = {published_line[0]} x {published_line[1]:+} (kbit/s)")
    for _, r in inverse.iterrows():
        ax.axhline(r["target_kbps"], color="grey", lw=0.6, ls=":")
    ax.set(xlim=(0, xs.max()), ylim=(0, max(cal["throughput_kbps"].max(), inverse["target_kbps"].max()) * 1.15),
           xlabel="browsers", ylabel="throughput (kbit/s)", title=f"Calibration ({profile_name} profile)")
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.axhline(0, color="grey", lw=0.8)
    ax.plot(result.fittedvalues, result.resid, "o", color="#7570b3")
    ax.set(xlabel="fitted throughput (kbit/s)", ylabel="residual (kbit/s)", title="OLS residuals")
    fig.tight_layout()
    save_figure(fig, path, stamp)
    plt.close(fig)
    return path
