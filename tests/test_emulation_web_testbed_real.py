"""Paper 001's testbed on real stacks (paperlib.emulation.web_testbed_real): the TCP mapping, the fidelity rule, a
short run (the plan and the ledger rows: tests/test_reproduce_p001_emulated.py).

The real runs (FIFO and RED, a few thousand browsers through a slow bottleneck, 8 s each: about 25 s on an idle
2-core machine) are ``exclusive`` and skipped, with the reason, where the testbed cannot run.
"""

import fidelity_helpers
import pytest

from paperlib.emulation import web_testbed_real
from paperlib.sim import web_testbed
from paperlib.validate import ParameterError

REASON = web_testbed_real.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"real-stack testbed unavailable: {REASON}")


def test_linux_tcp_follows_the_ns3_settings():
    tcp = web_testbed_real.linux_tcp(dict(web_testbed.DEFAULTS))
    # web_testbed.DEFAULTS: NewReno, MSS 1460, initial window 2, min RTO 1 s, delayed ACKs, no SACK/TS/WS, 64 KiB
    assert (tcp.congestion_control, tcp.mss_bytes, tcp.initcwnd, tcp.rto_min_ms) == ("reno", 1460, 2, 1000)
    assert (tcp.quickack, tcp.sack, tcp.timestamps, tcp.window_scaling) == (False, False, False, False)
    sysctls = tcp.sysctls()
    assert sysctls["net.ipv4.tcp_window_scaling"] == "0" and sysctls["net.ipv4.tcp_wmem"] == "4096 65535 65535"
    assert web_testbed_real.linux_tcp({**web_testbed.DEFAULTS, "delayed_ack": False}).quickack is True


def test_bad_parameters_are_named_before_any_namespace_exists():
    with pytest.raises(ParameterError, match="bogus"):
        web_testbed_real.simulate({"bogus": 1}, 1)
    with pytest.raises(ParameterError, match="RED thresholds"):
        web_testbed_real.simulate({"queue": "red", "red_min_th": 50.0, "red_max_th": 40.0}, 1)
    with pytest.raises(ParameterError, match="seed"):
        web_testbed_real.simulate({}, -1)


def test_mean_base_rtt_is_the_mean_of_the_pairs_round_trips():
    # Table 2 short set read as round trips: mean of 48, 109, 38, 7, 91, 10 ms = 50.5 ms, plus 2 x 0.1 ms bottleneck
    assert web_testbed_real.mean_base_rtt_s(dict(web_testbed.DEFAULTS)) == pytest.approx(0.0507)
    # long set (x 3): 151.5 + 0.2 ms
    assert web_testbed_real.mean_base_rtt_s({**web_testbed.DEFAULTS, "latency_scale": 3.0}) == pytest.approx(0.1517)


_record = fidelity_helpers.record


def _result(p99_ns=10_000, wait_s=0.1, issue_s=0.001, scheduled=100, issued=100) -> dict:
    return {"requests": 50, "fidelity": _record(p99_ns, wait_s),
            "generator": {"issue_lateness_p99_s": issue_s, "scheduled": scheduled, "issued": issued}}


def test_the_rule_judges_emulator_applications_and_generator():
    p = dict(web_testbed.DEFAULTS)
    assert web_testbed_real.judge(_result(), p).kept
    # emulator lateness limit: 2% of 50.7 ms = 1.014 ms; 1.1 ms breaks it
    assert not web_testbed_real.judge(_result(p99_ns=1_100_000), p).kept
    # application wait limit: 5% of the 20 s wall (no transfer interval known) = 1 s; 1.2 s breaks it
    assert not web_testbed_real.judge(_result(wait_s=1.2), p).kept
    # generator issue lateness limit: 5% of 50.7 ms = 2.535 ms
    assert web_testbed_real.judge(_result(issue_s=0.0025), p).kept
    broken = web_testbed_real.judge(_result(issue_s=0.0026), p).broken
    assert len(broken) == 1 and "issue lateness" in broken[0]
    # 98 of 100 scheduled requests issued: below 99%
    assert "issued 98 of 100" in web_testbed_real.judge(_result(issued=98), p).broken[0]


def _short_run(queue: dict) -> dict:
    # 3000 Mah browsers offer about 3000 x 91 bit/s = 270 kbit/s (the calibration's slope), 2.7 times a
    # 100 kbit/s bottleneck: its queue fills
    return web_testbed_real.simulate({"browsers": 3000, "bottleneck_bps": 100e3, "sim_time_s": 8.0, "warmup_s": 2.0,
                                      "queue_packets": 30, "sample_interval_s": 0.05, "workload_seed": 3, **queue}, 3)


@needs_testbed
@pytest.mark.exclusive
def test_a_short_real_run_fifo_and_red():
    fifo = _short_run({"queue": "fifo"})
    red = _short_run({"queue": "red", "red_min_th": 5.0, "red_max_th": 15.0, "red_weight": 1 / 16,
                      "red_max_p": 0.1})
    for r in (fifo, red):
        for key in ("requests", "unfinished", "failed", "throughput_bps", "response_s", "response_bytes",
                    "response_primary", "queue_sample_times_s", "queue_samples", "queue_max_packets", "drops",
                    "arrivals", "early_drops", "forced_drops", "fidelity", "generator"):
            assert key in r, key
        assert r["requests"] == len(r["response_s"]) > 0
        # seconds: a response over a 100 kbit/s link takes at least one 7 ms round trip, and less than the run
        assert all(0.003 < x < 8.0 for x in r["response_s"])
        # the queue never holds more than its 30-packet limit; samples every 0.05 s over 8 s
        assert max(r["queue_samples"]) <= 30 and len(r["queue_samples"]) > 50
        assert r["fidelity"]["lateness_n"] > 0 and "issue_lateness_p99_s" in r["fidelity"]["generator"]
    # drop-tail drops only when full; RED drops early, before its queue is full
    assert fifo["early_drops"] == 0 and fifo["drops"] > 0
    assert red["early_drops"] > 0
    # the counts run from the end of the 2 s warm-up: those of the whole run are larger (the queue fills at once)
    for r in (fifo, red):
        whole, after = r["link_stats"]["ba"], r["link_stats"]["ba"]["since_mark"]
        assert r["counters_span"] == "after warm-up" and r["drops"] == after["queue_drops"]
        assert 0 < after["in"] < whole["in"] and after["queue_drops"] <= whole["queue_drops"]
        # marked 2 s after the browsers' time 0 (both CLOCK_MONOTONIC), within the timer's and signal's delay
        assert 2.0 <= r["counters_from_s"] < 2.1
