"""Paper 003's ns-3 analogue: its sweep points from the slides, its run through the sweep runner, its summary.

No ns-3 run here (tests/test_sim_web_bottleneck.py runs the simulation itself, tests/test_notebooks.py the
notebook's small analogue).
"""

import numpy as np
import pandas as pd
import pytest
from p003_helpers import CHOSEN

from paperlib.reproduce.p003 import ns3
from paperlib.validate import ParameterError

SMALL = dict(n_servers=[1, 2], k_clients=2, repetitions=2, sim_time_s=3.0, warmup_s=1.0, queue_limit_packets=100)


def test_points_carry_the_slides_inputs(paper):
    points = ns3.analogue_points(paper, CHOSEN, **SMALL)
    # one point per (N, repetition), N-major
    assert [(p["n_servers"], p["rep"]) for p in points] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    p = points[0]
    # 45 Mbit/s T3, MSS 512 B, 10 s inter-batch; window 16 x 64 kB of 1024 B = 1 048 576 B
    assert (p["bottleneck_bps"], p["mss_bytes"], p["inter_batch_s"]) == (45e6, 512, 10.0)
    assert p["window_bytes"] == 16 * 64 * 1024
    assert p["workload"]["files_per_page"] == 5 and p["workload"]["class_probs"] == [0.2, 0.28, 0.4, 0.112, 0.008]


def test_bad_points_are_named(paper):
    with pytest.raises(ParameterError, match="warmup_s"):
        ns3.analogue_points(paper, CHOSEN, **{**SMALL, "warmup_s": 3.0})
    with pytest.raises(ParameterError, match="n_servers"):
        ns3.analogue_points(paper, CHOSEN, **{**SMALL, "n_servers": [0]})


def test_run_analogue_goes_through_the_sweep_runner(monkeypatch):
    seen = {}

    def fake_run_sweep(simulate, points, **kwargs):
        seen.update(simulate=simulate.__name__, points=points, **kwargs)
        return pd.DataFrame(points)

    monkeypatch.setattr("paperlib.sweep.run_sweep", fake_run_sweep)
    ns3.run_analogue([{"n_servers": 1}], cache_dir="c", seed=5, scheduler="synchronous")
    assert seen == {"simulate": "simulate", "points": [{"n_servers": 1}], "cache_dir": "c", "base_seed": 5,
                    "scheduler": "synchronous", "n_workers": None, "desc": "003 ns-3 analogue"}


def test_summary_is_the_mean_and_t_interval_beside_the_published_numbers(paper):
    sims = pd.DataFrame({"n_servers": [1, 1], "k_clients": [15, 15], "max_queue_packets": [10, 20],
                         "throughput_bps": [6e6, 8e6], "offered_bps": [7e6, 7e6], "drops": [0, 2]})
    s = ns3.analogue_summary(sims, paper, CHOSEN).iloc[0]
    assert (s["N"], s["clients"], s["runs"]) == (1, 15, 2)
    # mean of 6 and 8 Mbit/s = 7; 95% t half-width t(0.975, 1) x sd / sqrt(2) = 12.706 x 1.414 / 1.414 = 12.706
    assert s["throughput_mbps"] == pytest.approx(7.0)
    assert s["throughput_mbps_ci95"] == pytest.approx(12.7062, abs=1e-4)
    # 15 packets x 12 cells; efficiency 7 / 35.1 Mbit/s; published N = 1: 3677 cells, 6.1 Mbit/s
    assert s["queue_cells"] == pytest.approx(180.0)
    assert s["efficiency_pct"] == pytest.approx(100 * 7 / 35.1)
    assert (s["published_queue_cells"], s["published_throughput_mbps"]) == (3677.0, 6.1)
    # the packet link's maximum: 45 Mbit/s x 512 / (512 + 40 + 2)
    assert s["efficiency_packet_pct"] == pytest.approx(100 * 7e6 / (45e6 * 512 / 554))
    assert np.isnan(ns3.analogue_summary(sims.iloc[:1], paper, CHOSEN)["throughput_mbps_ci95"].iloc[0])
