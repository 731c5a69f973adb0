"""Seed 001's Table 3 from its calibration line y = 2.9327 x - 125.0857."""

import pytest

from paperlib.data import load_paper
from paperlib.reproduce import p001
from paperlib.validate import ParameterError


@pytest.fixture(scope="module")
def paper():
    return load_paper("001")


def test_line_inversion_reference_points():
    # x = (y + 125.0857) / 2.9327: y = 8000 -> 8125.0857 / 2.9327 = 2770.514;
    # y = 9000 -> 9125.0857 / 2.9327 = 3111.496; y = 9800 -> 3384.283; y = 9500 (95%) -> 3281.988
    xs = p001.browsers_for_throughput([8000, 9000, 9800, 9500], 2.9327, -125.0857)
    assert xs == pytest.approx([2770.514, 3111.496, 3384.283, 3281.988], abs=0.001)
    with pytest.raises(ParameterError, match="slope"):
        p001.browsers_for_throughput(1.0, 0.0, 1.0)


def test_printed_counts_need_y_in_kbps_of_a_10_mbps_link_and_98_percent(paper):
    search = p001.table3_search(paper)
    best = search.iloc[0]
    assert best["reproduced"] == 3
    full = search[search["reproduced"] == 3]
    # every reading that reproduces all three counts puts 80 % of the link at y = 8000:
    # kbit/s of 10 Mbit/s, or 10-kbit/s units of 100 Mbit/s
    assert set(zip(full["y_unit_bps"], full["link_bps"])) == {(1e3, 10e6), (1e4, 100e6)}
    # and reads the third row as the text's 98 %, not the printed 95 %, and truncates
    # (2770.514 -> 2770, 3111.496 -> 3111, 3384.283 -> 3384; half-up would print 2771)
    assert set(full["load_column"]) == {"text"}
    assert set(full["browser_rounding"]) == {"truncate"}
    # with the printed 95 % the best reading reproduces two of three counts (95 % needs 3282)
    printed95 = search[search["load_column"] == "printed"]
    assert printed95["reproduced"].max() == 2
