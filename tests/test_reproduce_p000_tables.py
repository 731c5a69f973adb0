"""Paper 000's Tables 1-3 regenerated: a cell by hand, the tables' layout, the error summary."""

import pytest

from paperlib.reproduce.p000 import tables


def test_regenerated_cell_by_hand(paper, conv):
    regen = tables.regenerate(paper, conv).set_index(["table", "block", "m", "column"])
    # E(T_sctp) at p = 1 % under the chosen convention = 3.57875 s (test_models_narrowband_response); n = 26,
    # tau = E/26; tabulated law W(5) = (5-1)(2*26-1) tau/(2*5) = 20.4 tau = 20.4/26 * 3.57875 = 2.80794 s;
    # Eq. (4): (5-1)(51) tau/2 = 102 tau = 14.0397 s
    cell = regen.loc[("table1", "1 %", 5, "W_{sctp}")]
    assert cell["regenerated"] == pytest.approx(2.80794, abs=1e-4)
    assert cell["W by Eq. (4)"] == pytest.approx(14.0397, abs=1e-3)
    # printed 3.19: 2.80794 / 3.19 - 1 = -0.1198, more than 5% off
    assert cell["rel_error"] == pytest.approx(2.80794 / 3.19 - 1, abs=1e-4) and cell["status"] == "differs"


def test_regenerated_tables_lay_the_model_beside_the_print(paper, conv):
    out = tables.regenerated_tables(paper, conv)
    assert list(out) == ["table1", "table2", "table3"]
    t1 = out["table1"]
    assert len(t1) == 12 and list(t1.columns[2:5]) == ["W_{sctp}", "W_{sctp} regenerated", "W_{sctp} by Eq. (4)"]
    # the cell above, rounded to 3 and 2 decimals
    row = t1[(t1.iloc[:, 0] == "1 %") & (t1["m"].astype(int) == 5)].iloc[0]
    assert (row["W_{sctp} regenerated"], row["W_{sctp} by Eq. (4)"]) == (2.808, 14.04)


def test_error_summary_per_block(paper, conv):
    regen = tables.regenerate(paper, conv)
    s = tables.error_summary(regen)
    assert len(s) == 9 * 2  # 9 blocks x 2 model columns
    sub = regen[(regen.table == "table1") & (regen.block == "1 %") & (regen.column == "W_{sctp}")]
    assert s.loc[("table1", "1 %", "W_{sctp}"), "mean_rel_error"] == pytest.approx(sub["rel_error"].mean())


def test_the_printed_tables_by_source_and_title(paper):
    printed = tables.printed(paper)
    assert [k.split(":")[0] for k in printed] == ["Table 1", "Table 2", "Table 3"]
    assert printed[next(iter(printed))] is paper.tables["table1"].cells
