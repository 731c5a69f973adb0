"""A tiny ns-3 run of paper 003's analogue: seconds, deterministic, and measures what it says."""

import pytest

from paperlib.models.specweb96 import Workload
from paperlib.sim import web_bottleneck
from paperlib.validate import ParameterError

pytestmark = pytest.mark.ns3

KIB = 8192
W = Workload("tiny", (0.5, 0.5), (KIB, 10 * KIB), "uniform", files_per_page=2)
PARAMS = {"n_servers": 1, "k_clients": 3, "workload": web_bottleneck.workload_params(W), "sim_time_s": 6.0,
          "warmup_s": 1.0, "inter_batch_s": 2.0, "queue_limit_packets": 40, "bottleneck_bps": 2e6}


def test_page_schedule_is_seeded_and_open_loop():
    a, b = web_bottleneck.page_schedule(PARAMS, 11), web_bottleneck.page_schedule(PARAMS, 11)
    assert a == b and a != web_bottleneck.page_schedule(PARAMS, 12)
    # 3 clients, a page every 2 s over 6 s, random phase in [0, 2): exactly 3 pages each
    assert sorted(c for c, _, _ in a) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    for c in range(3):
        starts = [t for cc, t, _ in a if cc == c]
        assert starts[1] - starts[0] == pytest.approx(2.0)


def test_tiny_simulation_is_deterministic_and_respects_the_queue_limit():
    r1 = web_bottleneck.simulate(PARAMS, 5)
    r2 = web_bottleneck.simulate(PARAMS, 5)  # same process, second run: nothing left over from the first
    assert r1 == r2
    assert 0 < r1["max_queue_packets"] <= 40  # FIFO never exceeds its limit
    assert max(r1["queue_packets"]) <= 40
    # delivered payload cannot exceed the bottleneck's rate, nor what was asked for plus the backlog at warm-up
    assert 0 < r1["throughput_bps"] <= 2e6
    assert len(r1["queue_times_s"]) == len(r1["queue_packets"]) == pytest.approx(6.0 / 0.1, abs=2)


def test_bad_simulation_parameters_are_named():
    with pytest.raises(ParameterError, match="warmup_s"):
        web_bottleneck.page_schedule({**PARAMS, "warmup_s": 7.0}, 1)
    with pytest.raises(ParameterError, match="k_clients"):
        web_bottleneck.page_schedule({**PARAMS, "k_clients": 0}, 1)
