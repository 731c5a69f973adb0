"""Paper 004's Table II regenerated (paperlib/reproduce/p004/tables.py)."""

import numpy as np
import pytest

from paperlib.reproduce.p004 import operating_point, tables


def test_regenerated_table2_reference_rows(paper):
    conv = operating_point.chosen_convention(paper)
    table = tables.regenerate_table2(operating_point.operating_point(paper), conv).set_index("BANDWIDTH")
    assert list(table.columns) == ["rate_bps", *tables.MODEL_COLUMNS]
    # 100 Kbps under T_r = 0.2 s, KB = 1000, x = 4: no stall (beta = 0), LT = 2 x 0.2 + 400 000 / 1e5 = 4.4 s;
    # TCP = SCTP + 2 T_r = 4.8 s: both printed as 4.40 / 4.80
    assert table.loc["100 Kbps", "Model(SCTP)"] == pytest.approx(4.4)
    assert table.loc["100 Kbps", "Model(TCP)"] == pytest.approx(4.8)
    # 28 Kbps: 2 x 0.2 + 400 000 / 28 000 = 0.4 + 14.2857 = 14.6857 s (truncated: the printed 14.68)
    assert table.loc["28 Kbps", "Model(SCTP)"] == pytest.approx(0.4 + 400_000 / 28_000)


def test_side_by_side_keeps_the_print_and_adds_the_printed_form_for_a_power_of_two_window(paper):
    conv = operating_point.chosen_convention(paper)
    side = tables.side_by_side(paper, conv)
    cells = paper.tables["table2"].cells
    assert list(side["Model(SCTP) printed"]) == list(cells["Model(SCTP)"])  # the print, as strings
    assert side["Model(SCTP) regenerated"].iloc[2] == 4.4
    assert "Model(SCTP) by printed Eq. 5" in side  # x = 4: the printed closed form is defined
    # x = 3 is no power of 2: the printed form (log2 x) is undefined, so its column is absent
    assert "Model(SCTP) by printed Eq. 5" not in tables.side_by_side(paper, conv.replace(initial_window=3))
    assert np.isfinite(side["Model(TCP) regenerated"]).all()
