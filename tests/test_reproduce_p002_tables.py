"""Paper 002's Tables II and III with the regenerated model rows beside the printed ones."""

import pandas as pd
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.provenance import Stamp
from paperlib.reproduce.p002 import tables
from paperlib.reproduction import Outputs


def test_rows_name_every_printed_row(paper):
    for name in ("table2", "table3"):
        assert set(tables.ROWS) == set(paper.tables[name].cells["Protocol"])


def test_regenerated_rows_beside_the_printed_ones(paper):
    regen = tables.regenerated_tables(paper, CONV)
    t2 = regen["table2"]
    assert list(t2.index[:4]) == list(paper.tables["table2"].cells["Protocol"])  # printed rows first, unchanged
    assert t2.loc["TCP (Model) (Sec)", "1%"] == "21.33"
    # TCP at p = 1 %: IT + M (RTT + OT) = 0.512 + 5 x (0.256 + 3.8752) = 21.168 s; SCTP 0.536 s less (M MSS/R)
    assert t2.loc["TCP (Model, regenerated)", "1%"] == "21.168"
    assert t2.loc["SCTP (Model, regenerated)", "1%"] == "20.632"
    # a = ceil(N p), N = 13 824 / 536 = 25.8: 1 up to p = 2 %, 2 at 5 %
    assert list(t2.loc["losses a per object"]) == ["1", "1", "1", "2"]
    assert list(regen["table3"].columns) == ["0.055", "0.08", "0.256", "1.0"]


def test_write_regenerated_writes_one_csv_per_table(paper, tmp_path):
    out = Outputs(tmp_path, Stamp("002_http_sctp_response.ipynb"))
    tables.write_regenerated(tables.regenerated_tables(paper, CONV), out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table2_regenerated.csv", "table3_regenerated.csv"]
    assert sorted(out.tables) == ["table2_regenerated.csv", "table3_regenerated.csv"]  # kept with the stage's
    back = pd.read_csv(tmp_path / "table2_regenerated.csv", dtype=str)
    assert back.columns[0] == "Protocol" and len(back) == 7
