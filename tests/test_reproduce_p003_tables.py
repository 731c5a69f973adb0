"""Paper 003's table of printed derived numbers beside their regenerated values, and its corrections."""

import pytest
from p003_helpers import CHOSEN

from paperlib.data import load_paper
from paperlib.reproduce.p003 import tables


def test_derived_table_puts_each_print_beside_its_regenerated_value():
    t = tables.derived_table(load_paper("003"), CHOSEN)
    assert list(t.columns) == ["number", "row", "printed", "regenerated"] and len(t) == 23
    row = t[t["row"] == "max_payload_t3"].iloc[0]
    # 0.78 x 45 Mbit/s = 35.1 Mbit/s, printed "35.1 Mbps"
    assert row["printed"] == "35.1 Mbps" and row["regenerated"] == pytest.approx(35.1)


def test_corrections_table_lists_the_three_corrections_of_the_print():
    t = tables.corrections_table()
    # 120.2 kB read as kb, "100 kb" read as 100 kB, "93/2%" read as 93.2% (docs/papers/003.md)
    assert len(t) == 3 and set(t["paper"]) == {"003"}
