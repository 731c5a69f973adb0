"""Paper 001's workload before any simulation: Mah's distributions' load per browser and the sampler's moments."""

import numpy as np
import pytest

from paperlib.models import web_traffic
from paperlib.reproduce.p001 import workload

MAH = web_traffic.model()


def test_implied_load_table_against_samples():
    table = workload.implied_load((0.0,))
    row = table[(table.family == "mah") & (table.mah_reading == "discrete") & (table.mah_objects == "files_per_page")]
    # by hand from the moments: 8 x 2.838 files x 7231 B / 1804 s = 91 bit/s = 0.091 kbit/s
    assert row.kbps_per_browser.iloc[0] == pytest.approx(8 * 2.838 * 7231 / 1804 / 1e3, rel=1e-3)
    assert row.ratio_to_paper.iloc[0] == pytest.approx(2.9327 / row.kbps_per_browser.iloc[0])
    # capping think times at c gives the paper's rate: E[min(T, c)] = page bits / 2932.7 bit/s
    c = workload.think_cap_for_rate()
    t = web_traffic.mah_tables()["think"]
    assert np.sum(np.minimum(t.values, c) * t.probs) == pytest.approx(web_traffic.bits_per_page(MAH) / 2932.7, rel=1e-6)
    # the sentence the notebook prints: the cap and the share of think times above it
    share = 1 - t.cdf[t.values <= c][-1]
    assert workload.think_cap_sentence(c).endswith(f"{share:.1%} of Mah's think times exceed it")


def test_browsers_for_load_truncates():
    # 0.8 x 10 Mbit/s / 0.1 kbit/s = 80 000 browsers exactly; 0.8 x 10 Mbit/s / 0.3 kbit/s = 26 666.7 -> 26 666
    assert workload.browsers_for_load(0.8, 10e6, 0.1) == 80_000
    assert workload.browsers_for_load(0.8, 10e6, 0.3) == 26_666


def test_moment_checks_agree_with_the_exact_means():
    table = workload.moment_checks(20_000, np.random.default_rng(1))
    assert set(table["workload"]) == {"mah discrete", "mah linear", "parametric"} and len(table) == 12
    # the sample means of request sizes and objects per page (light tails) sit within a few standard errors
    light = table[table["quantity"].isin(["request (B)", "objects per page"])]
    assert (light["z"].abs() < 5).all()


def test_mah_summary_lists_every_file():
    summary = workload.mah_summary()
    assert set(summary["quantity"]) == set(web_traffic.mah_tables())
    think = summary.set_index("quantity").loc["think"]
    assert think["min"] == pytest.approx(1.005) and think["median"] == pytest.approx(16, abs=1)  # Mah: median 16 s
