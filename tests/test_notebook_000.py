"""The 000 notebook runs under papermill with small parameters and writes its outputs; a bad parameter fails by name."""

import json
from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.run_notebook import run

REPO = Path(__file__).resolve().parent.parent
NB000 = REPO / "notebooks" / "000_multiuser_waiting.ipynb"

pytestmark = pytest.mark.notebook

SMALL = {"m_values": [1, 2, 8], "p": 0.02, "ns3_replications": 2, "ns3_users": [5], "scheduler": "synchronous",
         "emulation": "off"}


@pytest.fixture(scope="module")
def out(nb000_twice):
    """The outputs of 000's first (cold) run with its nbval parameters, which are SMALL (tests/conftest.py)."""
    assert SMALL.items() <= nb000_twice.params.items()  # the numbers below are those of SMALL
    return nb000_twice.outputs[0]


def test_notebook_writes_tables_figures_and_ledger(out):
    for name in ("ledger.csv", "provenance.json", "convention_search.csv", "response_times.csv",
                 "table1_regenerated.csv", "table2_regenerated.csv", "table3_regenerated.csv", "law_in_m.csv",
                 "shared_operating_point.csv", "diff_mean.csv", "figure2_schedule_check.csv",
                 "eq7_eq8_schedule_check.csv", "printed_departures.csv", "figure4_data.csv",
                 "figure4_waiting_times.png", "waiting_vs_users.csv", "waiting_vs_users.png",
                 "ns3_tables.csv", "ns3_setup_check.csv", "ns3_waiting.png"):
        assert (out / name).exists(), name
    frame = ledger.read(out / "ledger.csv")
    # every printed cell of Tables 1-3, every claim, 2 re-judged on the testbed; with ns-3 run at m = 5 (ns3_users),
    # one row per printed T_tcp cell with m = 5 (9 blocks) in its own column and the claim re-judged on ns-3
    assert len(frame) == 144 + 11 + 2 + 9 + 1
    ns3 = frame[frame["column"] == "T_{tcp} (ns-3)"]
    assert len(ns3) == 9 and set(ns3["status"]) == {"not_regenerable"} and all(ns3["row"].str.endswith("m=5"))
    assert all("95% CI +/- " in r for r in ns3["reason"])
    assert (frame["column"] == "claim (ns-3, TCP)").sum() == 1
    assert set(frame["paper"]) == {"000"}
    assert (frame["notebook"] == "notebooks/000_multiuser_waiting.ipynb").all()
    assert json.loads(frame["parameters"].iloc[0])["m_values"] == [1, 2, 8]


def test_parameters_change_the_what_if_figure_not_the_ledger(out):
    users = pd.read_csv(out / "waiting_vs_users.csv")
    assert sorted(set(users["m"])) == [1, 2, 8]
    # Table 1's p = 2 % block is the ledger's business; the what-if point only follows the parameter
    assert users["E_s"].nunique() == 2  # one E(T) per protocol
    frame = ledger.read(out / "ledger.csv")
    row = frame[(frame["source"] == "Table 1") & (frame["row"] == "1 %, m=5") & (frame["column"] == "W_{sctp}")]
    # the ledger's W is Eq. (4): (m-1)(2n-1)/2 x E/n = 4 x 51/2 x 3.57877/26 s = 14.0398 s, whatever the what-if p
    assert float(row["regenerated"].iloc[0]) == pytest.approx(4 * 51 / 2 * 3.57877 / 26, abs=1e-3)


def test_bad_parameter_fails_naming_it(tmp_path):
    from paperlib.validate import ParameterError

    with pytest.raises(ParameterError, match="m_values"):
        run(NB000, tmp_path / "bad.ipynb", {"m_values": [0, 5], "output_dir": str(tmp_path / "fig")})
    assert not (tmp_path / "bad.ipynb").exists()  # no half-written executed notebook
    assert not (tmp_path / "fig" / "ledger.csv").exists()  # it stopped before writing anything
