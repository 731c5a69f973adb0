"""Paper 001's calibration: the OLS line of throughput on browsers, inverted for the loads."""

import numpy as np
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p001 import calibration, testbed
from paperlib.validate import ParameterError


def _published_fit():
    x = np.repeat(np.arange(100, 1001, 100), 2).astype(float)
    noise = np.tile([-30.0, 30.0], 10)
    return calibration.fit(x, (2.9327 * x - 125.0857 + noise) * 1e3)


def test_calibration_fit_recovers_a_known_line_and_inverts_it():
    fit = _published_fit()
    coef = calibration.coefficients(fit)
    assert coef.loc["slope", "estimate"] == pytest.approx(2.9327, abs=1e-9)
    assert coef.loc["intercept", "estimate"] == pytest.approx(-125.0857, abs=1e-6)
    assert coef.loc["slope", "ci95_low"] < 2.9327 < coef.loc["slope", "ci95_high"]
    table = calibration.browsers_for_loads(fit, [0.8, 0.9, 0.98], 10e6)
    # the published line's own inverse (test_reproduce_p001_tables), truncated
    assert table["browsers"].tolist() == [2770, 3111, 3384]
    assert (table["x_ci95_low"] < table["x"]).all() and (table["x"] < table["x_ci95_high"]).all()
    with pytest.raises(ParameterError, match="two different"):
        calibration.fit([5, 5], [1.0, 2.0])


def test_regenerated_browsers_beside_the_printed_and_the_predicted_counts():
    paper = load_paper("001")
    prof = testbed.profile("scaled")
    inverse = calibration.regenerated_browsers(_published_fit(), paper, prof)
    # the fit is the published line, so it gives the printed counts back
    assert inverse["browsers"].tolist() == inverse["table3_published"].tolist() == [2770, 3111, 3384]
    # the moments' count: trunc(0.8 x 10 Mbit/s / predicted bit/s per browser)
    expected = int(np.trunc(0.8 * 10e6 / (prof.predicted_kbps_per_browser() * 1e3)))
    assert inverse["predicted_from_moments"].iloc[0] == expected
    sentence = calibration.slope_sentence(calibration.coefficients(_published_fit()), 0.0912, paper)
    assert sentence.startswith("slope 2.9327 kbit/s per browser") and sentence.endswith("paper 2.9327")
    assert calibration.published_line(paper) == (2.9327, -125.0857)


def test_calibration_table_is_in_kbps():
    import pandas as pd

    sweep = pd.DataFrame({"browsers": [10.0], "rep": [0.0], "throughput_bps": [2500.0]})
    assert calibration.table(sweep).to_dict("records") == [{"browsers": 10, "rep": 0, "throughput_kbps": 2.5}]
