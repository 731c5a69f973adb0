"""The 004 notebook runs under papermill with small parameters, deterministically; bad parameters fail by name."""

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


def run_small(notebook: Path, small: dict, tmp_path: Path, outputs: tuple[str, ...]):
    """Run ``notebook`` with small parameters into tmp_path; check its outputs exist; return (folder, ledger)."""
    params = {**small, "output_dir": str(tmp_path / "fig"), "cache_dir": str(tmp_path / "cache")}
    run(notebook, tmp_path / "executed.ipynb", params)
    out = tmp_path / "fig"
    for name in ("ledger.csv", "provenance.json", *outputs):
        assert (out / name).exists(), name
    return out, ledger.read(out / "ledger.csv")


@pytest.mark.ns3
@pytest.mark.slow
def test_notebook_003_small(tmp_path):
    out, frame = run_small(NB003, SMALL003, tmp_path, (
        "derived_numbers.csv", "convention_search.csv", "workload_moments.csv", "analogue_summary.csv",
        "class_distributions.png", "file_size_cdf.png", "efficiency_queue_vs_n.png"))
    assert set(frame["paper"]) == {"003"}
    assert len(frame) == 10 + 5 + 16 + 7  # text results, modified-table probabilities, results table, claims
    summary = pd.read_csv(out / "analogue_summary.csv")
    assert summary["N"].tolist() == [1, 2] and (summary["runs"] == 2).all()
    # the sweep cached every point: a rerun computes nothing and gives the same summary
    run(NB003, tmp_path / "again.ipynb", {**SMALL003, "output_dir": str(out), "cache_dir": str(tmp_path / "cache")})
    assert pd.read_csv(out / "analogue_summary.csv").equals(summary)


def test_notebook_003_bad_parameter_is_named(tmp_path):
    from paperlib.validate import ParameterError

    # refused by the notebook's what_if.check before a kernel starts, nothing written
    with pytest.raises(ParameterError, match="^within_class must be one of"):
        run(NB003, tmp_path / "bad.ipynb", {**SMALL003, "within_class": "gaussian", "run_simulation": False,
                                             "output_dir": str(tmp_path / "out")})
    assert not (tmp_path / "out").exists() and not (tmp_path / "bad.ipynb").exists()


NB002 = REPO / "notebooks" / "002_http_sctp_response.ipynb"


@pytest.mark.ns3
def test_notebook_002_small(tmp_path):
    _, frame = run_small(NB002, {"repetitions": 2, "scheduler": "synchronous", "emulation": "off"}, tmp_path, (
        "convention_search.csv", "table2_regenerated.csv", "table3_regenerated.csv", "ns3_summary.csv",
        "response_vs_p_and_rtt.png", "what_if_response_vs_p.png"))
    assert set(frame["paper"]) == {"002"} and len(frame) == 32 + 11 + 3  # + 3 claims re-judged on the testbed
    # the TCP experimental cells carry the ns-3 mean as their best honest figure
    tcp_exp = frame[frame["column"] == "TCP (Experimental) (Sec)"]
    assert (tcp_exp["regenerated"] != "").all() and (tcp_exp["status"] == "not_regenerable").all()


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


@pytest.mark.ns3
@pytest.mark.slow
def test_notebook_001_small(tmp_path):
    out, frame = run_small(NB001, SMALL001, tmp_path, (
        "table3_regenerated.csv", "calibration_fit.csv", "calibration_browsers.csv", "summary.csv", "claims.csv",
        "traffic_model_moments.csv", "calibration.png", "fig3_fifo_response_cdf.png", "fig4_fifo_queue_short.png",
        "fig8_red_queue_240.png", "fig9_fifo_vs_red_a_cdf.png"))
    assert set(frame["paper"]) == {"001"}
    # Table 3 (3 counts + the mislabelled load), the line's slope and intercept, 8 numbers read off figures, 35 claims
    # on ns-3, and the 35 claims on real stacks (not run: emulation off)
    assert len(frame) == 4 + 2 + 8 + 35 + 35
    assert (frame[frame["column"] == "emulated (real stacks)"]["emulation"] == "not run by choice").all()
    t3 = frame[(frame["source"] == "Table 3") & (frame["column"] == "The Number of Browsers")]
    assert (t3["status"] == "reproduced").all()
    claims = frame[frame["column"] == "claim"]
    # one row per claim of claims.csv, in its order (the row is the claim's id)
    assert claims["row"].tolist() == list(pd.read_csv(REPO / "data" / "001" / "claims.csv")["id"])
    # the printed "95%" load label is the text's 98%: a typo, never scored by its distance
    label = frame[(frame["source"] == "Table 3") & (frame["column"] == "Traffic Load")]
    assert label[["published", "status", "rel_error"]].values.tolist() == [["95%", "typo", ""]]
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 10 * 3 * 2 and (summary["requests"] > 0).all()
    # the tiny calibration still measures something: throughput grows with the browsers (Mah's CDFs, 2000-6000
    # browsers at about 0.09 kbit/s each: 180-550 kbit/s expected)
    fit = pd.read_csv(out / "calibration_fit.csv").set_index("coefficient")
    assert fit.loc["slope", "estimate"] > 0


def test_notebook_001_bad_parameter_is_named(tmp_path):
    from paperlib.validate import ParameterError

    # refused by the notebook's what_if.check before a kernel starts, nothing written
    with pytest.raises(ParameterError, match="^profile must be one of"):
        run(NB001, tmp_path / "bad.ipynb", {**SMALL001, "profile": "huge", "output_dir": str(tmp_path / "out")})
    assert not (tmp_path / "out").exists() and not (tmp_path / "bad.ipynb").exists()
