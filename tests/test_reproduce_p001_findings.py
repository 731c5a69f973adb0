"""Paper 001's findings: summary per configuration, groups, warm-up, latency-reading and scale checks."""

import numpy as np
import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p001 import findings, testbed


def test_groups_and_printed_readings():
    paper = load_paper("001")
    g = findings.groups(testbed.queue_configs(paper))
    assert g["fifo"] == ["FIFO-60", "FIFO-120", "FIFO-180"] and g["red240"] == ["RED-A-240", "RED-B-240", "RED-C-240"]
    assert g["red480"] == ["RED-A-480", "RED-B-480", "RED-C-480"]  # RED-A-180 belongs to none: Fig. 9 only
    assert findings.printed_80_percentiles(paper) == {"short": 500.0, "long": 1200.0}  # claims.csv, as printed
    summary = pd.DataFrame([{"config": c, "load": 0.8, "latency": lat, "p90_ms": v, "p50_ms": v / 2}
                            for c in g["fifo"] for lat, v in (("short", 550.0), ("long", 1200.0))])
    t = findings.latency_reading_table({"rtt": summary}, paper, 0.8)
    assert t.set_index("latency").loc["short", "rel_error"] == pytest.approx(0.1)  # 550 / 500 - 1


def test_warmup_profile_finds_the_transient():
    # two runs at 10 Mbit/s: load 0.2 for the first 3 s then 0.8; queue 0 then 50 -> the warm-up ends at 3 s
    thr = [[2e6] * 3 + [8e6] * 17] * 2
    times = [round(0.1 * i, 1) for i in range(200)]
    queue = [0] * 30 + [50] * 170
    sweep = pd.DataFrame({"throughput_series_bps": thr, "queue_samples": [queue, queue],
                          "queue_sample_times_s": [times, times]})
    prof = findings.warmup_profile(sweep, 10e6)
    assert prof.load.iloc[0] == pytest.approx(0.2) and prof.load.iloc[-1] == pytest.approx(0.8)
    assert findings.warmup_end_s(prof, tail_from_s=10.0) == 3.0


def _run(rep, response_s, queue, drops=1):
    return {"config": "FIFO-120", "load": 0.8, "latency": "short", "rep": rep, "browsers": 10, "warmup_s": 1.0,
            "response_s": response_s, "queue_samples": queue, "queue_sample_times_s": [0.0, 1.0, 2.0],
            "drops": drops, "arrivals": 100, "early_drops": 0, "throughput_bps": 5e6, "bottleneck_bps": 10e6,
            "unfinished": 0, "failed": 0}


def test_summarise_pools_replications_and_reports_their_spread():
    sweep = pd.DataFrame([_run(0, [0.1] * 10, [0, 5, 7]), _run(1, [0.2] * 10, [0, 9, 11], drops=3)])
    [row] = findings.summarise(sweep).to_dict("records")
    # pooled: 20 responses, 10 at 100 ms and 10 at 200 ms; the p90 of each replication alone: 100 and 200 ms
    assert row["requests"] == 20 and row["mean_ms"] == pytest.approx(150.0)
    assert (row["p90_rep_min"], row["p90_rep_max"]) == pytest.approx((100.0, 200.0))
    # queue after the 1 s warm-up: samples at 1 and 2 s of both runs, (5 + 7 + 9 + 11) / 4 = 8
    assert row["mean_queue"] == pytest.approx(8.0)
    assert row["drop_rate"] == pytest.approx(4 / 200) and row["utilisation"] == pytest.approx(0.5)


def test_scale_comparison_measures_identical_runs_as_identical():
    run = {"config": "FIFO-120", "load": 0.8, "latency": "short", "browsers": 10, "warmup_s": 1.0,
           "response_s": [0.1, 0.2, 0.3, 0.4], "queue_samples": [0, 5, 7], "queue_sample_times_s": [0.0, 1.0, 2.0],
           "drops": 1, "arrivals": 100}
    a = pd.DataFrame([run])
    b = pd.DataFrame([{**run, "browsers": 100, "response_s": [0.2, 0.4, 0.6, 0.8]}])
    same = findings.scale_comparison(a, a)
    assert same.loc[0, "ks"] == 0 and same.loc[0, "p90_rel_diff"] == 0 and same.loc[0, "mean_queue_scaled"] == 6
    doubled = findings.scale_comparison(a, b)
    assert doubled.loc[0, "p50_rel_diff"] == pytest.approx(1.0) and doubled.loc[0, "ks"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same configurations"):
        findings.scale_comparison(a, pd.DataFrame([{**run, "load": 0.9}]))
    assert np.isfinite(doubled.loc[0, "p90_scaled_ms"])


def test_pooled_response_ms_pools_every_run_and_sorts():
    runs = pd.DataFrame({"response_s": [[0.3, 0.1], [0.2]]})
    # 0.1, 0.2, 0.3 s from two runs -> 100, 200, 300 ms
    assert np.allclose(findings.pooled_response_ms(runs), [100.0, 200.0, 300.0])
    assert findings.pooled_response_ms(runs.iloc[0:0]).size == 0
