"""Paper 001's ns-3 testbed, tiny: queue discs behave, browsers complete requests, runs are deterministic."""

import numpy as np
import pytest

from paperlib.sim import web_testbed
from paperlib.sweep import run_sweep
from paperlib.validate import ParameterError

pytestmark = pytest.mark.ns3

# Half a megabit and a few dozen busy (parametric) browsers: a congested bottleneck in a few seconds of run time.
# These tests check the testbed's mechanics; the workload's own tests are in test_models_web_traffic.py.
TINY = {"bottleneck_bps": 0.5e6, "browsers": 60, "sim_time_s": 20.0, "warmup_s": 4.0, "queue_packets": 30,
        "traffic": {"family": "parametric"}}
RED = {"queue": "red", "queue_packets": 40, "red_min_th": 3.0, "red_max_th": 15.0, "red_weight": 1 / 32,
       "red_max_p": 0.1}


@pytest.fixture(scope="module")
def fifo_run():
    return web_testbed.simulate(TINY, 7)


@pytest.fixture(scope="module")
def red_run():
    return web_testbed.simulate({**TINY, **RED}, 7)


def test_fifo_never_exceeds_its_limit_and_drops_only_when_full(fifo_run):
    r = fifo_run
    assert r["queue_max_packets"] <= 30 and max(r["queue_samples"]) <= 30
    assert r["queue_max_packets"] == 30 and r["drops"] > 0  # this load does fill it
    assert r["early_drops"] == 0 and r["forced_drops"] == r["drops"]


def test_red_drops_early_before_its_queue_is_full(red_run):
    r = red_run
    assert r["early_drops"] > 0  # probabilistic drops between min_th and max_th
    assert r["queue_max_packets"] < 40  # ... keep the physical queue from filling
    longer = web_testbed.simulate({**TINY, "queue_packets": 40}, 7)
    assert np.mean(r["queue_samples"]) < np.mean(longer["queue_samples"])


def test_every_red_drop_is_early_or_forced_also_at_its_physical_limit():
    # a slow average (w_q = 1/512) lets the instantaneous queue reach RED's limit of 16 packets before the average
    # passes max_th: ns-3 files those drops under its internal queue, and they count as forced
    r = web_testbed.simulate({**TINY, **RED, "queue_packets": 16, "red_weight": 1 / 512}, 7)
    assert r["queue_max_packets"] == 16
    assert r["drops"] == r["early_drops"] + r["forced_drops"] and r["forced_drops"] > 0


def test_browsers_complete_requests_and_measure_them(fifo_run):
    r = fifo_run
    rt = np.asarray(r["response_s"])
    assert r["requests"] == len(rt) == len(r["response_bytes"]) > 50 and r["failed"] == 0
    # no response beats the handshake plus the request and its reply: two round trips of the shortest pair (7 ms)
    assert rt.min() >= 2 * 0.007
    assert 0 < r["throughput_bps"] <= 0.5e6
    assert set(r["response_primary"]) == {0, 1}
    assert r["queue_sample_times_s"][1] == pytest.approx(0.1)


def test_long_latency_takes_longer():
    short = web_testbed.simulate({**TINY, "bottleneck_bps": 5e6}, 3)
    long = web_testbed.simulate({**TINY, "bottleneck_bps": 5e6, "latency_scale": 3.0}, 3)
    assert np.median(long["response_s"]) > 2 * np.median(short["response_s"])


def test_same_seed_same_run_in_one_process(red_run):
    assert web_testbed.simulate({**TINY, **RED}, 7) == red_run
    assert web_testbed.simulate({**TINY, **RED}, 8) != red_run


def test_sweep_caches_and_reproduces_across_processes(tmp_path):
    points = [{**TINY, "sim_time_s": 8.0, "rep": r} for r in range(2)]
    here = run_sweep(web_testbed.simulate, points, cache_dir=tmp_path / "a", scheduler="synchronous", progress=False)
    cached = run_sweep(web_testbed.simulate, points, cache_dir=tmp_path / "a", scheduler="synchronous", progress=False)
    assert here.equals(cached)
    assert here.loc[0, "seed"] != here.loc[1, "seed"]  # a seed per point
    workers = run_sweep(web_testbed.simulate, points, cache_dir=tmp_path / "b", n_workers=1,
                        progress=False)  # a Dask worker
    assert here.equals(workers)


def test_bad_parameters_are_named():
    with pytest.raises(ParameterError, match="red_max_th"):
        web_testbed.simulate({**TINY, **RED, "red_max_th": 50.0}, 1)
    with pytest.raises(ParameterError, match="unknown testbed parameter"):
        web_testbed.simulate({**TINY, "queue_size": 10}, 1)
    with pytest.raises(ParameterError, match="queue"):
        web_testbed.simulate({**TINY, "queue": "codel"}, 1)
    with pytest.raises(ParameterError, match="browsers"):
        web_testbed.simulate({**TINY, "browsers": 0}, 1)


def test_common_random_numbers_give_every_queue_the_same_workload():
    fifo = {**web_testbed.DEFAULTS, **TINY, "workload_seed": 11}
    red = {**web_testbed.DEFAULTS, **TINY, **RED, "workload_seed": 11}
    a, b = web_testbed.workload(fifo, 1), web_testbed.workload(red, 2)  # different run seeds, one workload seed
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = web_testbed.workload({**fifo, "workload_seed": None}, 1)
    assert not np.array_equal(a["browser_start_s"], c["browser_start_s"])
