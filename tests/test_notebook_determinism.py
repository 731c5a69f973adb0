"""Two runs of the same tree give byte-identical outputs: executed notebooks (000 and 004; about 60 s), and a
cold run's every output file and its warm rerun's (000's ns-3 sweep computed, then read from the cache).

papermill's start/end times, durations and run paths are removed by paperlib.notebook_output, and so are a
progress bar's intermediate frames, so an executed notebook depends only on the notebook, its parameters,
the package and the sweep's results, not on whether the sweep computed them or read them from the cache.
"""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from paperlib.run_notebook import run

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.notebook

CASES = {
    # the real-stack emulation measures wall-clock behaviour: off here
    # (a rerun of make reproduce reads it from the cache)
    "000_multiuser_waiting.ipynb": {"m_values": [1, 2, 8], "p": 0.02, "emulation": "off", "ns3_replications": 0},
    "004_slow_start_latency.ipynb": {"rates_bps": [1e5, 1e6, 1e7], "initial_windows": [1, 2, 4], "emulation": "off"},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_two_runs_give_byte_identical_executed_notebooks(tmp_path, name):
    params = {**CASES[name], "output_dir": str(tmp_path / "fig")}  # the same parameters both times
    first = run(REPO / "notebooks" / name, tmp_path / "first" / name, params)
    second = run(REPO / "notebooks" / name, tmp_path / "second" / name, params)
    assert first.read_bytes() == second.read_bytes()
    nb = json.loads(first.read_text())
    text = first.read_text()
    for key in ('"start_time"', '"end_time"', '"duration"', '"iopub.status.busy"', str(tmp_path / "first")):
        assert key not in text, key
    assert nb["metadata"]["papermill"]["parameters"]["output_dir"] == params["output_dir"]




@pytest.mark.slow
@pytest.mark.ns3
def test_a_cold_run_and_its_warm_rerun_write_byte_identical_files(tmp_path):
    # 000 with its nbval fixture's small parameters: the cheapest paper with an ns-3 sweep (two of them). The
    # cold run computes every point into an empty cache; the warm rerun reads every point from that cache.
    name = "000_multiuser_waiting"
    fixture = yaml.safe_load((REPO / "tests" / "nbval" / "parameters.yml").read_text())[name]
    assert fixture["ns3_replications"] > 0  # else no sweep runs and the test checks nothing
    out = tmp_path / "out"  # the same output_dir both times: it is one of the parameters the notebook shows
    params = {**fixture, "output_dir": str(out), "cache_dir": str(tmp_path / "cache")}
    files = {}
    for label in ("cold", "warm"):
        run(REPO / "notebooks" / f"{name}.ipynb", out / "executed.ipynb", params)
        shutil.copytree(out, tmp_path / label)
        files[label] = {p.relative_to(tmp_path / label).as_posix(): p.read_bytes()
                        for p in sorted((tmp_path / label).rglob("*")) if p.is_file()}
    computed = list((tmp_path / "cache").glob("*/*.json"))
    assert computed, "the cold run cached no sweep point"
    assert "executed.ipynb" in files["cold"] and "ns3_tables.csv" in files["cold"]
    assert sorted(files["cold"]) == sorted(files["warm"])
    assert [f for f in files["cold"] if files["cold"][f] != files["warm"][f]] == []
