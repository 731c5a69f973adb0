"""Paper 001's explorer: CDFs of cached testbed results, pooled by run; no cache is a clear NoData.

The cache is written here with the sweep runner's own entry format (``paperlib.sweep._store``), so
the explorer is tested without ns-3.
"""

import numpy as np
import pytest

from paperlib import sweep
from paperlib.explore import NoData
from paperlib.reproduce.p001 import explore as p001_explore

VERSION = "test-version"
BASE = {"workload": "default", "bottleneck_bps": 10e6, "sim_time_s": 60.0, "latency_reading": "rtt"}


def _entry(cache, i, params, response_s, version=VERSION):
    folder = cache / p001_explore.SIMULATOR
    folder.mkdir(parents=True, exist_ok=True)
    record = {"params": {**BASE, **params}, "seed": i, "code_version": version, "versions": {}}
    sweep._store(folder / f"{i}.json", record, {"response_s": response_s}, "simulate")


@pytest.fixture
def cache(tmp_path):
    # FIFO-60 and FIFO-120 at 80 %, short latency, 40 browsers, two repetitions each
    _entry(tmp_path, 0, {"config": "FIFO-60", "load": 0.8, "latency": "short", "browsers": 40, "rep": 0}, [0.1, 0.3])
    _entry(tmp_path, 1, {"config": "FIFO-60", "load": 0.8, "latency": "short", "browsers": 40, "rep": 1}, [0.2, 0.4])
    _entry(tmp_path, 2, {"config": "FIFO-120", "load": 0.8, "latency": "short", "browsers": 40, "rep": 0}, [1.0])
    # Table 3's printed count (another browser count at the same point): left out of the pooled run
    _entry(tmp_path, 3, {"config": "FIFO-120", "load": 0.8, "latency": "short", "browsers": 55, "rep": 0}, [9.0])
    # another run (the full profile's rate) and an older code version
    _entry(tmp_path, 4, {"config": "FIFO-60", "load": 0.8, "latency": "short", "browsers": 400, "rep": 0,
                         "bottleneck_bps": 100e6}, [0.05])
    _entry(tmp_path, 5, {"config": "FIFO-60", "load": 0.8, "latency": "short", "browsers": 40, "rep": 2}, [5.0],
           version="old")
    return tmp_path


def test_cdfs_pool_the_repetitions_of_one_run(cache):
    ex = p001_explore.explorer(cache, code_version=VERSION)
    assert ex.choices["run"][0] == "default workload, 10 Mbit/s, 60 s, rtt reading"  # 4 results, the other run 1
    assert ex.choices["load"] == ("80 %",) and ex.choices["latency"] == ("short",)
    c = ex.curves("response time")
    assert len(c.x) == 10_000 and c.x[0] == pytest.approx(10.0) and c.x[-1] == pytest.approx(1e5)
    (kw60, fifo60), (kw120, fifo120) = c.lines
    assert (kw60["label"], kw120["label"]) == ("FIFO-60", "FIFO-120")
    at = np.searchsorted(c.x, [150.0, 250.0, 350.0, 450.0])  # grid points just above these times (ms)
    # FIFO-60 pools 100, 200, 300, 400 ms (the old version's 5 s is not read): CDF 1/4, 2/4, 3/4, 4/4
    assert fifo60[at].tolist() == [0.25, 0.5, 0.75, 1.0]
    # FIFO-120: 1000 ms only (Table 3's count, 9 s, is left out): 0 below 1 s, 1 from 1 s on
    assert fifo120[at].tolist() == [0, 0, 0, 0] and fifo120[-1] == 1.0
    # the paper's 80 % reading of the short-latency FIFO CDF (data/001/claims.csv: about 500 ms at 90 %)
    (_, x, y), = c.points
    assert x.tolist() == [500.0] and y.tolist() == [0.9]


def test_the_other_run_and_groups(cache):
    ex = p001_explore.explorer(cache, code_version=VERSION)
    other = ex.curves("response time", run="default workload, 100 Mbit/s, 60 s, rtt reading")
    assert [kw["label"] for kw, _ in other.lines] == ["FIFO-60"]
    assert list(ex.choices["queue"]) == [p001_explore.GROUP_NAMES["fifo"]]  # only FIFO results are cached
    frame = ex.redraw("response time")
    assert frame.ndim == 3


def test_no_cache_says_what_to_run(tmp_path):
    with pytest.raises(NoData, match=r"no cached 001 testbed results in .*web_testbed.simulate.*make reproduce"):
        p001_explore.explorer(tmp_path, code_version=VERSION)


def test_damaged_entries_are_skipped(cache):
    path = cache / p001_explore.SIMULATOR / "0.json"
    path.write_text(path.read_text().replace("0.1", "0.7"))  # edited: its checksum no longer matches
    runs = p001_explore.cached_runs(cache, code_version=VERSION)
    assert len(runs) == 4 and all(r["response_s"] != [0.7, 0.3] for r in runs)
