"""Paper 001's calibration, regenerated: throughput against browsers, an OLS line, inverted for the loads.

The paper measured throughput y against the number of browsers x on its uncongested
testbed and fitted y = 2.9327 x - 125.0857 with SigmaPlot's regression (ordinary least
squares). Here the same measurement comes from the ns-3 testbed (``testbed``); y is the
reply payload delivered per second after the warm-up, in kbit/s (the unit under which the
published line gives the published Table 3, see ``operating_point``). The fit is statsmodels OLS; the
browser count for a load is the line inverted at y = load x bottleneck rate and truncated to a
whole browser, the paper's own rounding (``operating_point.convention_search``). Its confidence interval is
where the line's 95% confidence band crosses the target.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm

from paperlib import validate
from paperlib.data import Paper
from paperlib.reproduce.p001 import testbed, workload

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


def regenerated_browsers(result, paper: Paper, prof: testbed.Profile) -> pd.DataFrame:
    """Return :func:`browsers_for_loads` at the paper's loads, beside Table 3's printed counts and the moments' count.

    ``table3_published``: the paper's counts as printed; ``predicted_from_moments``: the browsers
    whose load predicted from the workload's moments (:func:`~paperlib.reproduce.p001.workload.browsers_for_load`)
    is the load.
    """
    inverse = browsers_for_loads(result, testbed.loads(paper), prof.bottleneck_bps)
    inverse["table3_published"] = paper.tables["table3"].cells["The Number of Browsers"].astype(int).to_numpy()
    inverse["predicted_from_moments"] = [workload.browsers_for_load(x, prof.bottleneck_bps,
                                                                    prof.predicted_kbps_per_browser())
                                         for x in inverse["load"]]
    return inverse


def slope_sentence(coef: pd.DataFrame, predicted_kbps: float, paper: Paper) -> str:
    """Return the regenerated slope with its 95% CI beside the moments' prediction and the paper's slope."""
    return (f"slope {coef.loc['slope', 'estimate']:.4f} kbit/s per browser (95% CI {coef.loc['slope', 'ci95_low']:.4f}-"
            f"{coef.loc['slope', 'ci95_high']:.4f}); predicted from the moments {predicted_kbps:.4f}; "
            f"paper {paper.text_value('calib_slope').printed}")


def published_line(paper: Paper) -> tuple[float, float]:
    """Return the paper's calibration line (slope, intercept), y in kbit/s (Section 2.2)."""
    return paper.text_value("calib_slope").value, paper.text_value("calib_intercept").value
