"""Two runs of the same tree give byte-identical outputs: executed notebooks (000 and 004), and a cold run's every
output file and its warm rerun's (000's ns-3 sweep computed, then read from the cache).

papermill's start/end times, durations and run paths are removed by paperlib.notebook_output, and so are a
progress bar's intermediate frames, so an executed notebook depends only on the notebook, its parameters,
the package and the sweep's results, not on whether the sweep computed them or read them from the cache.

The pairs of runs are the session's (tests/conftest.py: nb000_twice, nb004_twice, with the nbval fixtures' small
parameters), shared with test_notebook_000.py and test_notebooks.py; each run writes its executed notebook into a
folder of its own, and both runs have the same output_dir (and cache_dir).
"""

import json
from pathlib import Path

import pytest

# every test waits for a pair of runs: 000's (its ns-3 sweeps, cold and warm) is the longest of them
pytestmark = [pytest.mark.notebook, pytest.mark.slow]

#: notebook -> the session fixture that runs it twice; 000's real-stack emulation is off in its nbval parameters
#: (it measures wall-clock behaviour; a rerun of make reproduce reads it from the cache)
CASES = {"000_multiuser_waiting.ipynb": "nb000_twice", "004_slow_start_latency.ipynb": "nb004_twice"}


def _files(folder: Path) -> dict[str, bytes]:
    """Return every file under ``folder``: its path relative to ``folder`` -> its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_two_runs_give_byte_identical_executed_notebooks(request, name):
    pair = request.getfixturevalue(CASES[name])  # the same parameters both times
    assert pair.params["emulation"] == "off"
    first, second = pair.executed
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text()
    nb = json.loads(text)
    for key in ('"start_time"', '"end_time"', '"duration"', '"iopub.status.busy"', str(first.parent)):
        assert key not in text, key
    assert nb["metadata"]["papermill"]["parameters"]["output_dir"] == pair.params["output_dir"]


@pytest.mark.ns3
def test_a_cold_run_and_its_warm_rerun_write_byte_identical_files(nb000_twice):
    # 000 with its nbval fixture's small parameters: the cheapest paper with an ns-3 sweep (two of them). The
    # cold run computes every point into an empty cache; the warm rerun reads every point from that cache.
    assert nb000_twice.params["ns3_replications"] > 0  # else no sweep runs and the test checks nothing
    files = {label: {**_files(out), "executed.ipynb": executed.read_bytes()}
             for label, out, executed in zip(("cold", "warm"), nb000_twice.outputs, nb000_twice.executed, strict=True)}
    computed = list(nb000_twice.cache.glob("*/*.json"))
    assert computed, "the cold run cached no sweep point"
    assert "ns3_tables.csv" in files["cold"]
    assert sorted(files["cold"]) == sorted(files["warm"])
    assert [f for f in files["cold"] if files["cold"][f] != files["warm"][f]] == []
