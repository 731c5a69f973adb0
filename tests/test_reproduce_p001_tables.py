"""Paper 001's Table 3 from its calibration line y = 2.9327 x - 125.0857, and Table 1 on ns-3's RED."""

import pytest

from paperlib.reproduce.p001 import operating_point, tables, testbed
from paperlib.validate import ParameterError


def test_line_inversion_reference_points():
    # x = (y + 125.0857) / 2.9327: y = 8000 -> 8125.0857 / 2.9327 = 2770.514;
    # y = 9000 -> 9125.0857 / 2.9327 = 3111.496; y = 9800 -> 3384.283; y = 9500 (95%) -> 3281.988
    xs = tables.browsers_for_throughput([8000, 9000, 9800, 9500], 2.9327, -125.0857)
    assert xs == pytest.approx([2770.514, 3111.496, 3384.283, 3281.988], abs=0.001)
    with pytest.raises(ParameterError, match="slope"):
        tables.browsers_for_throughput(1.0, 0.0, 1.0)


def test_table3_beside_printed_under_the_chosen_reading(paper):
    conv = operating_point.Convention(y_unit_bps=1e3, link_bps=10e6, load_column="text", browser_rounding="truncate",
                                      rounding="half_up")
    t3 = tables.table3_beside_printed(paper, conv)
    # 80, 90, 98 % of 10 Mbit/s in kbit/s: y = 8000, 9000, 9800 -> 2770.514, 3111.496, 3384.283, truncated
    assert t3["y"].tolist() == pytest.approx([8000, 9000, 9800])
    assert t3["browsers"].tolist() == t3["published"].tolist() == [2770, 3111, 3384]
    assert t3["printed_load"].tolist() == ["80%", "90%", "95%"]
    # half-up would print 2771 for the first row (2770.514 + 0.5 = 2771.01)
    assert tables.table3(paper, conv.replace(browser_rounding="half_up"))["browsers"].iloc[0] == 2771
    # the printed third load 95% gives 3281 (x = 3281.99, truncated)
    assert tables.table3(paper, conv.replace(load_column="printed"))["browsers"].iloc[2] == 3281


def test_queue_configuration_table_gives_ns3s_linterm(paper):
    table = tables.queue_configuration_table(testbed.queue_configs(paper))
    # Table 1's max 1/20 (RED-A) -> LInterm 20; 1/10 (RED-B) -> 10; FIFO has no max_p
    assert table.loc["RED-A-480", "LInterm (1/max_p)"] == pytest.approx(20)
    assert table.loc["RED-B-240", "LInterm (1/max_p)"] == pytest.approx(10)
    assert table.index.name == "configuration" and len(table) == 10
    t1, t2, t3 = tables.tables123(paper)
    assert len(t3) == 3 and "qlen" in t1
