"""seaborn figures: what they draw is the data they were given (about 3 s)."""

import numpy as np
import pandas as pd
import pytest

from paperlib import plots
from paperlib.figures import STATUS_COLORS


def test_ledger_overview_stacks_every_row_once():
    frame = pd.DataFrame({"paper": ["000", "000", "000", "004", "004"],
                          "source": ["Table 1", "Table 1", "Abstract", "Table II", "Table II"],
                          "status": ["differs", "close", "refuted", "reproduced", "reproduced"]})
    fig = plots.ledger_overview(frame)
    bars = fig.axes[0].patches
    assert sum(b.get_width() for b in bars) == len(frame)
    for status in set(frame["status"]):
        rgba = pytest.approx(tuple(int(STATUS_COLORS[status][i:i + 2], 16) / 255 for i in (1, 3, 5)) + (1.0,))
        assert sum(b.get_width() for b in bars if b.get_facecolor() == rgba) == (frame["status"] == status).sum()
    with pytest.raises(ValueError, match="status"):
        plots.ledger_overview(frame.drop(columns="status"))


def test_ecdf_one_curve_per_configuration_ending_at_one():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"config": np.repeat(["FIFO-60", "RED-A", "RED-B"], 50),
                          "response_s": rng.lognormal(0, 1, 150)})
    fig = plots.response_time_ecdf(frame)
    lines = fig.axes[0].get_lines()
    assert len(lines) == 3
    for line in lines:
        assert line.get_ydata()[-1] == pytest.approx(1.0)
        assert len(set(line.get_ydata())) == 51  # 0, 1/50, ..., 1: one step per response
    palette = plots.config_palette(frame["config"])
    assert len(set(map(tuple, palette.values()))) == 3
    with pytest.raises(ValueError, match="latency"):
        plots.response_time_ecdf(frame, value="latency")


def test_regression_line_is_the_least_squares_line_and_residuals_are_the_rest():
    x = np.array([20.0, 40, 60, 80, 100, 120])
    y = 3.0 * x + 10 + np.array([1.0, -2, 0.5, 1.5, -1, 0])
    fig = plots.calibration_regression(x, y)
    left, right = fig.axes
    line = left.get_lines()[0]
    xs, ys = line.get_xdata(), line.get_ydata()
    slope, intercept = np.polyfit(x, y, 1)
    assert (ys[-1] - ys[0]) / (xs[-1] - xs[0]) == pytest.approx(slope)
    assert ys[0] == pytest.approx(slope * xs[0] + intercept)
    resid = right.collections[0].get_offsets()[:, 1]
    assert np.asarray(resid) == pytest.approx(y - (slope * x + intercept))
    with pytest.raises(ValueError, match="length"):
        plots.calibration_regression(x, y[:4])
