"""The 004 notebook runs under papermill with small parameters, deterministically; bad parameters fail by name.

What notebooks 001-003 write at their small parameters is checked on the nbval run of tests/test_nbval.py,
which executes them anyway.
"""

from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger
from paperlib.run_notebook import run

REPO = Path(__file__).resolve().parent.parent
NB004 = REPO / "notebooks" / "004_slow_start_latency.ipynb"

pytestmark = pytest.mark.notebook

# emulation "off": the emulated testbed has its own tests (tests/test_emulation_*.py)
SMALL = {"rates_bps": [1e5, 1e6, 1e7], "initial_windows": [1, 2, 4], "emulation": "off"}


@pytest.fixture(scope="module")
def two_runs(nb004_twice):
    """The output folders of two runs of 004 with its nbval parameters, which are SMALL (tests/conftest.py)."""
    assert nb004_twice.params.items() >= SMALL.items()  # the numbers below are those of SMALL
    return list(nb004_twice.outputs)


def test_notebook_writes_tables_figures_and_ledger(two_runs):
    out = two_runs[0]
    for name in ("ledger.csv", "table2_regenerated.csv", "convention_search.csv", "mean_difference.csv",
                 "latency_vs_bandwidth.png", "latency_vs_initial_window.png", "closed_form_vs_schedule.csv",
                 "provenance.json"):
        assert (out / name).exists(), name
    frame = ledger.read(out / "ledger.csv")
    # 20 Table II cells + Fig. 1 alpha (a text result) + 2 claims + the 2 claims re-judged on the emulated testbed
    assert len(frame) == 25
    assert set(frame["paper"]) == {"004"}
    assert frame["parameters"].iloc[0] == '{"emulation":"off","initial_window":null,"initial_windows":[1,2,4],' \
        '"mtu_bytes":null,' \
        '"obj_size_bytes":null,"rates_bps":[100000.0,1000000.0,10000000.0],"rtt_s":null}'


def test_two_runs_are_byte_identical(two_runs):
    a, b = two_runs
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_outputs_carry_provenance(two_runs):
    import json

    from PIL import Image

    prov = json.loads((two_runs[0] / "provenance.json").read_text())
    assert set(prov) >= {"commit", "dirty", "parameters", "seed", "versions", "environment"}
    assert prov["parameters"]["initial_windows"] == [1, 2, 4]
    assert prov["versions"]["numpy"] == __import__("numpy").__version__

    info = Image.open(two_runs[0] / "latency_vs_bandwidth.png").info
    assert "notebooks/004_slow_start_latency.ipynb @" in info["Source"]
    assert '"parameters"' in info["Comment"]


def test_other_parameters_change_the_figures_not_the_ledger(tmp_path, two_runs):
    run(NB004, tmp_path / "x.ipynb", {**SMALL, "rtt_s": 0.05, "initial_window": 3, "output_dir": str(tmp_path)})
    curves = pd.read_csv(tmp_path / "latency_vs_initial_window.csv")
    base = pd.read_csv(two_runs[0] / "latency_vs_initial_window.csv")
    assert not curves["sctp_latency_s"].equals(base["sctp_latency_s"])
    cols = list(ledger.COLUMNS)
    assert ledger.read(tmp_path / "ledger.csv")[cols].equals(ledger.read(two_runs[0] / "ledger.csv")[cols])


@pytest.mark.parametrize("name, value", [("rtt_s", -1.0), ("initial_window", 0), ("rates_bps", [1e6, -5.0])])
def test_bad_parameter_fails_naming_it(tmp_path, name, value):
    from paperlib.validate import ParameterError

    with pytest.raises(ParameterError, match=name):
        run(NB004, tmp_path / "bad.ipynb", {**SMALL, name: value, "output_dir": str(tmp_path)})
    assert not (tmp_path / "bad.ipynb").exists()  # no half-written executed notebook


NB003 = REPO / "notebooks" / "003_specweb96_abr.ipynb"
SMALL003 = {"n_servers": [1, 2], "k_clients": 2, "repetitions": 2, "sim_time_s": 3.0, "warmup_s": 1.0,
            "scheduler": "synchronous", "n_samples": 20000}


def test_notebook_003_bad_parameter_is_named(tmp_path):
    from paperlib.validate import ParameterError

    # refused by the notebook's what_if.check before a kernel starts, nothing written
    with pytest.raises(ParameterError, match="^within_class must be one of"):
        run(NB003, tmp_path / "bad.ipynb", {**SMALL003, "within_class": "gaussian", "run_simulation": False,
                                             "output_dir": str(tmp_path / "out")})
    assert not (tmp_path / "out").exists() and not (tmp_path / "bad.ipynb").exists()


NB002 = REPO / "notebooks" / "002_http_sctp_response.ipynb"


def test_notebook_002_bad_parameter_is_named(tmp_path):
    import papermill

    from paperlib.validate import ParameterError

    bad = {"repetitions": 0, "run_simulation": False, "output_dir": str(tmp_path / "out")}
    # run_notebook refuses it before a kernel starts (the notebook's what_if.check) ...
    with pytest.raises(ParameterError, match="repetitions"):
        run(NB002, tmp_path / "bad.ipynb", bad)
    # ... and so does the notebook itself when executed directly (open_paper runs the same check)
    with pytest.raises(papermill.PapermillExecutionError, match="repetitions"):
        papermill.execute_notebook(str(NB002), str(tmp_path / "bad.ipynb"), parameters=bad, cwd=str(NB002.parent),
                                   progress_bar=False, kernel_name="python3")
    assert not (tmp_path / "out").exists()


NB001 = REPO / "notebooks" / "001_fifo_red_response.ipynb"
SMALL001 = {"bottleneck_bps": 0.5e6, "calibration_browsers": [2000, 4000, 6000], "reps": 1, "sim_time_s": 15.0,
            "warmup_s": 3.0, "run_scale_check": False, "run_latency_check": False, "run_table3_counts": False,
            "scheduler": "synchronous", "n_samples": 20000, "emulation": "off"}


def test_notebook_001_bad_parameter_is_named(tmp_path):
    from paperlib.validate import ParameterError

    # refused by the notebook's what_if.check before a kernel starts, nothing written
    with pytest.raises(ParameterError, match="^profile must be one of"):
        run(NB001, tmp_path / "bad.ipynb", {**SMALL001, "profile": "huge", "output_dir": str(tmp_path / "out")})
    assert not (tmp_path / "out").exists() and not (tmp_path / "bad.ipynb").exists()
