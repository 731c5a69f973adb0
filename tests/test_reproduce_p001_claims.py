"""Paper 001's claims: one function per claim of data/001/claims.csv, decided by the confidence-interval rule.

The rule itself and the shared readings are tested on their own (tests/test_reproduce_p001_decision_rule.py).

Every claim is tested on synthetic evidence (summary tables, no simulation): ten replications
that all hold the claim give a zero-width interval above 0 (supported), ten that all fail it one
below 0 (refuted), five of each an interval that straddles 0 (inconclusive). The margin of the
holding world is derived by hand in the comment beside each assert.

The base world: a configuration's p90 is 400 ms (short latency) or 1000 ms (long) times 1, 1.2,
1.5 at 80, 90, 98 % load, whatever the queue; mean queue 10, 20, 30 packets at the three loads;
drop rate 1 %.
"""

import numpy as np
import pandas as pd
import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p001 import claims, testbed

PAPER = load_paper("001")
CONFIGS = list(testbed.queue_configs(PAPER))
LOADS = (0.8, 0.9, 0.98)
BASE_RT = {"short": 400.0, "long": 1000.0}
GROWTH = {0.8: 1.0, 0.9: 1.2, 0.98: 1.5}
BASE_QUEUE = {0.8: 10.0, 0.9: 20.0, 0.98: 30.0}


def world(p90=None, queue=None, drops=None) -> pd.DataFrame:
    """Return a summary: the base world with overrides {(config, load, latency): value} (or a function of the key)."""

    def pick(override, key, default):
        if callable(override):
            return override(*key)
        return (override or {}).get(key, default)

    rows = []
    for c in CONFIGS:
        for x in LOADS:
            for lat in ("short", "long"):
                key = (c, x, lat)
                rt = pick(p90, key, BASE_RT[lat] * GROWTH[x])
                rows.append({"config": c, "load": x, "latency": lat, "p90_ms": rt, "p90_rep_min": rt,
                             "p90_rep_max": rt, "mean_queue": pick(queue, key, BASE_QUEUE[x]),
                             "drop_rate": pick(drops, key, 0.01)})
    return pd.DataFrame(rows)


#: The base world's evidence (no replications): the configuration groups the claims compare.
BASE = claims.Evidence.from_summaries(world(), [], PAPER)


def base(c, x, lat):
    """The base world's p90 (ms)."""
    return BASE_RT[lat] * GROWTH[x]


def scaled(configs, factors, loads=LOADS, latencies=("short", "long")) -> dict:
    """Return p90 overrides: config i of ``configs`` at ``factors[i]`` times the base world."""
    return {(c, x, lat): base(c, x, lat) * f
            for c, f in zip(configs, factors, strict=True) for x in loads for lat in latencies}


def evidence(worlds) -> claims.Evidence:
    """Return evidence whose replications are ``worlds`` (the first one doubles as the pooled summary)."""
    return claims.Evidence.from_summaries(worlds[0], worlds, PAPER)


def statuses(claim_id: str, holds: pd.DataFrame, fails: pd.DataFrame) -> tuple[str, str, str]:
    """Return the claim's status on 10 holding replications, 5 holding + 5 failing, and 10 failing."""
    judge = claims.CLAIMS.functions[claim_id]
    return tuple(judge(evidence(w)).status for w in ([holds] * 10, [holds] * 5 + [fails] * 5, [fails] * 10))


def margin(claim_id: str, summary: pd.DataFrame) -> float:
    """Return the claim's margin read off one summary."""
    return claims.CLAIMS.functions[claim_id].reading(claims.Evidence.from_summaries(summary, [], PAPER)).margin


DECIDED = ("supported", "inconclusive", "refuted")


def check(claim_id, holds, fails, expected_margin):
    """Assert the three statuses and the holding world's margin."""
    assert margin(claim_id, holds) == pytest.approx(expected_margin)
    assert margin(claim_id, fails) < 0
    assert statuses(claim_id, holds, fails) == DECIDED


# --- the registry ---


def test_every_claim_of_the_data_has_exactly_one_function():
    claims.CLAIMS.check_against(PAPER)
    assert len(claims.CLAIMS.functions) == 35
    for claim_id, fn in claims.CLAIMS.functions.items():  # each function is named after its claim and says how
        assert fn.__name__ == claim_id and fn.__doc__.strip()


def test_rows_are_one_per_claim_in_data_order_with_the_interval_in_the_reason():
    rows = claims.CLAIMS.rows(PAPER, evidence([world()] * 10))
    assert len(rows) == 35 and all("95% CI" in r.reason for r in rows)
    assert [r.row for r in rows] == list(PAPER.claims.cells["claim"])


def test_the_claims_table_is_the_verdicts_with_their_mean_margin():
    holds, fails = world(), world(p90=scaled(BASE.fifo, (1.0, 1.0, 1.2), loads=(0.8,)))
    table = claims.claims_table(PAPER, evidence([holds] * 6 + [fails] * 4))
    assert list(table.columns) == ["claim", "status", "regenerated", "reason", "margin", "replications_to_decide"]
    assert list(table["claim"]) == list(PAPER.claims.cells["id"])
    row = table.set_index("claim").loc["fifo_queue_size_same"]
    # margins +0.1 (6 times) and -0.1 (4 times): mean (0.6 - 0.4) / 10 = +0.02
    assert row["status"] == "inconclusive" and row["margin"] == pytest.approx(0.02)
    # s = 0.1033 and |mean| 0.02: 105 replications (tests/test_reproduce_p001_decision_rule.py)
    assert row["replications_to_decide"] == 105
    # the ledger's verdict is the same judgement
    verdict = claims.CLAIMS.functions["fifo_queue_size_same"](evidence([holds] * 6 + [fails] * 4))
    assert (verdict.status, verdict.reason) == (row["status"], row["reason"])


# --- the decision rule applied to a claim ---


def test_the_reason_carries_the_interval_and_the_replications_needed():
    holds, fails = world(), world(p90=scaled(BASE.fifo, (1.0, 1.0, 1.2), loads=(0.8,)))
    mixed, decision = claims.judged("fifo_queue_size_same", evidence([holds] * 6 + [fails] * 4))
    # margins +0.1 (6 times) and -0.1 (4 times): mean +0.02, s = 0.1033, half-width 2.2622 x 0.1033 / sqrt(10) = 0.0739
    assert mixed.status == decision.status == "inconclusive" and decision.mean == pytest.approx(0.02)
    assert "95% CI [-0.054, +0.094]" in mixed.reason
    # the fewest n with t(0.975, n - 1) x 0.1033 / sqrt(n) < 0.02 is 105 (tests/test_reproduce_p001_decision_rule.py);
    # the pooled summary (the first, holding world) meets the threshold
    assert "(pooled reading: supported); about 105 replications would decide it" in mixed.reason
    assert mixed.replications_to_decide == 105  # the number itself, for the caller
    few, _ = claims.judged("fifo_queue_size_same", evidence([holds] * 3))
    assert few.status == "inconclusive" and "fewer than 10 replications" in few.reason
    one, _ = claims.judged("fifo_queue_size_same", evidence([holds]))
    assert one.status == "untestable" and one.replications_to_decide is None  # one replication: no interval


def test_the_reason_says_how_far_single_repetitions_stray_in_the_configurations_read():
    # FIFO at 80 %: p90 of single repetitions from 400 to 480 ms in the six configurations read: spread 20 %
    spread = world(p90=lambda c, x, lat: BASE_RT[lat] * GROWTH[x])
    spread["p90_rep_max"] = spread["p90_rep_min"] * 1.2
    verdict, _ = claims.judged("fifo_queue_size_same", evidence([spread] * 10))
    assert verdict.reason.endswith("[largest spread of single repetitions' p90 in these 6 configurations: 20%]")


def test_claims_decided_from_a_sweep_of_replications():
    # 9 replications see p90 grow 20% per load step, one sees it fall: the mean margin is positive and the
    # interval (t(0.975, 9) x s / sqrt(10)) does not reach 0, so the claim is supported; 7 up, 3 down straddles 0
    def sweep(growths):
        rows = []
        for rep, growth in enumerate(growths):
            for c in CONFIGS:
                for i, x in enumerate(LOADS):
                    for lat in ("short", "long"):
                        rt = np.full(50, BASE_RT[lat] * (1 + growth * i) / 1e3)
                        rows.append({"config": c, "load": x, "latency": lat, "rep": rep, "response_s": list(rt),
                                     "queue_samples": [10, 10], "queue_sample_times_s": [0.0, 1.0], "warmup_s": 0.0,
                                     "drops": 1, "arrivals": 100, "early_drops": 0, "throughput_bps": 1.0,
                                     "bottleneck_bps": 1.0, "unfinished": 0, "failed": 0})
        return claims.Evidence.from_sweep(pd.DataFrame(rows), PAPER)

    up, _ = claims.judged("fifo_intensity_increases", sweep([0.2] * 9 + [-0.2]))
    assert up.status == "supported" and "95% CI" in up.reason
    assert claims.judged("fifo_intensity_increases", sweep([0.2] * 7 + [-0.2] * 3))[0].status == "inconclusive"


# --- FIFO (Section 3.1) ---


def test_fifo_queue_size_same():
    # base: the three queue sizes equal, spread 0: margin 0.10 - 0 = 0.10; FIFO-180 x 1.2 at 80%: spread 0.2, -0.10
    check("fifo_queue_size_same", world(), world(p90=scaled(BASE.fifo, (1, 1, 1.2), loads=(0.8,))), 0.10)


def test_fifo_intensity_increases():
    # base steps 1.2 / 1 - 1 = 0.2 and 1.5 / 1.2 - 1 = 0.25: margin 0.2; FIFO-60 short back to 400 ms at 98%:
    # step 400 / 480 - 1 = -0.167
    check("fifo_intensity_increases", world(), world(p90={("FIFO-60", 0.98, "short"): 400.0}), 0.2)


def test_fifo_intensity_more_than_queue():
    # base: spread over loads 1.5 - 1 = 0.5, over queue sizes 0: margin 0.5; flat loads, queues 1 : 1.5 : 2:
    # load spread 0, queue spread 2 - 1 = 1: margin -1
    flat = {c: f for c, f in zip(BASE.fifo, (1.0, 1.5, 2.0), strict=True)}
    fails = world(p90=lambda c, x, lat: BASE_RT[lat] * flat.get(c, 1.0))
    check("fifo_intensity_more_than_queue", world(), fails, 0.5)


def test_fifo_80_short_500():
    # base 400 ms: 'less than around 500' met below 600: margin 600 / 400 - 1 = 0.5; at 800 ms: 600 / 800 - 1 = -0.25
    check("fifo_80_short_500", world(), world(p90=scaled(BASE.fifo, (2, 2, 2), loads=(0.8,))), 0.5)


def test_fifo_80_long_1200():
    # base 1000 ms, bound 1200 x 1.2 = 1440: margin 0.44; at 1800 ms: 1440 / 1800 - 1 = -0.2
    check("fifo_80_long_1200", world(), world(p90=scaled(BASE.fifo, (1.8, 1.8, 1.8), loads=(0.8,))), 0.44)


def test_fifo_98_longer_larger_queue():
    # queues 1 : 1.1 : 1.2 at 98%: steps 0.1 and 1.2 / 1.1 - 1 = 0.0909; reversed: 1 / 1.1 - 1 = -0.0909
    holds = world(p90=scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.98,)))
    fails = world(p90=scaled(BASE.fifo, (1.2, 1.1, 1.0), loads=(0.98,)))
    check("fifo_98_longer_larger_queue", holds, fails, 1.2 / 1.1 - 1)


def test_fifo_diff_90_98():
    # queue-size spread 0.2 at 90 and 98%, 0 at 80%: margin 0.2; the other way round: -0.2
    holds = world(p90=scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.9, 0.98)))
    fails = world(p90=scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.8,)))
    check("fifo_diff_90_98", holds, fails, 0.2)


def test_fifo_diff_short_latency():
    # queue-size spread 0.2 short, 0 long at 90 and 98%: margin 0.2; long instead of short: -0.2
    holds = world(p90=scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.9, 0.98), latencies=("short",)))
    fails = world(p90=scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.9, 0.98), latencies=("long",)))
    check("fifo_diff_short_latency", holds, fails, 0.2)


def test_occupancy_intensity():
    # mean queue 10, 20, 30 by load: steps 1.0 and 0.5, margin 0.5; 30, 20, 10: steps -1/3 and -0.5, margin -0.5
    fails = world(queue=lambda c, x, lat: 40.0 - BASE_QUEUE[x])
    check("occupancy_intensity", world(), fails, 0.5)


def test_occupancy_longer_queue():
    # mean queue 10, 20, 30 by queue size: margin 0.5; 30, 20, 10: margin -0.5
    size = dict(zip(BASE.fifo, (10.0, 20.0, 30.0), strict=True))
    holds = world(queue=lambda c, x, lat: size.get(c, 10.0))
    fails = world(queue=lambda c, x, lat: 40.0 - size.get(c, 30.0))
    check("occupancy_longer_queue", holds, fails, 0.5)


def test_occupancy_long_latency_fewer():
    # at 90%: 20 packets short, 10 long: margin 20 - 10 = 10 packets; 10 short, 20 long: -10
    holds = world(queue={(c, 0.9, "long"): 10.0 for c in BASE.fifo})
    fails = world(queue={(c, 0.9, "short"): 10.0 for c in BASE.fifo})
    check("occupancy_long_latency_fewer", holds, fails, 10.0)


def test_drops_short_latency():
    # 90 and 98%: drops 2% short vs 1% long and queue-size spread 0.2 short vs 0 long: margin min(0.01, 0.2) = 0.01;
    # drops 1% short vs 2% long: -0.01
    spreads = scaled(BASE.fifo, (1.0, 1.1, 1.2), loads=(0.9, 0.98), latencies=("short",))
    holds = world(p90=spreads, drops={(c, x, "short"): 0.02 for c in BASE.fifo for x in (0.9, 0.98)})
    fails = world(p90=spreads, drops={(c, x, "long"): 0.02 for c in BASE.fifo for x in (0.9, 0.98)})
    check("drops_short_latency", holds, fails, 0.01)


# --- RED (Section 3.2) ---


def test_red_80_short_500():
    # RED (queue 480) at 80%, short: 400 ms, margin 600 / 400 - 1 = 0.5; 800 ms: -0.25
    check("red_80_short_500", world(), world(p90=scaled(BASE.red480, (2, 2, 2), loads=(0.8,))), 0.5)


def test_red_80_long_1200():
    # 1000 ms against 1440: margin 0.44; 1800 ms: -0.2
    check("red_80_long_1200", world(), world(p90=scaled(BASE.red480, (1.8, 1.8, 1.8), loads=(0.8,))), 0.44)


def test_red_98_short_700():
    # 'around 700' within 20%: at 700 ms margin 0.2 - 0 = 0.2; at 1050 ms 0.2 - 0.5 = -0.3 (base at 98%: 600 ms)
    holds = world(p90=scaled(BASE.red480, (700 / 600,) * 3, loads=(0.98,), latencies=("short",)))
    fails = world(p90=scaled(BASE.red480, (1050 / 600,) * 3, loads=(0.98,), latencies=("short",)))
    check("red_98_short_700", holds, fails, 0.2)


def test_red_98_long_1500():
    # base at 98%, long: 1500 ms, margin 0.2; 2250 ms: 0.2 - 0.5 = -0.3
    fails = world(p90=scaled(BASE.red480, (1.5,) * 3, loads=(0.98,), latencies=("long",)))
    check("red_98_long_1500", world(), fails, 0.2)


def test_red_intensity_increases():
    # base steps 0.2, 0.25: margin 0.2; RED-A-480 short at 98% back to 400 ms: 400 / 480 - 1 = -0.167
    check("red_intensity_increases", world(), world(p90={("RED-A-480", 0.98, "short"): 400.0}), 0.2)


def test_red_params_same():
    # RED-A/B/C equal everywhere: margin 0.1; RED-C-480 x 1.2 at 80% short: spread 0.2, margin -0.1
    check("red_params_same", world(), world(p90={("RED-C-480", 0.8, "short"): 480.0}), 0.1)


def test_red_480_same():
    # equal at 98%: margin 0.1; RED-C-480 short 720 vs 600: spread 0.2, margin -0.1
    check("red_480_same", world(), world(p90={("RED-C-480", 0.98, "short"): 720.0}), 0.1)


def test_red_240_c_longer_short():
    # short: C = 600 x 1.32 = 792 vs 660 = max(A, B) x 1.1: 792 / 660 - 1 = 0.2; long equal: 1 - 1500 / 1650 = 0.0909;
    # margin min = 0.0909. Base (C equal short): 600 / 660 - 1 = -0.0909
    holds = world(p90={("RED-C-240", 0.98, "short"): 792.0})
    check("red_240_c_longer_short", holds, world(), 1 - 1 / 1.1)


def test_red_240_short_differ_long_same():
    # short spread 780 / 600 - 1 = 0.3, long 0: margin min(0.3 - 0.1, 0.1 - 0) = 0.1; base: min(-0.1, 0.1) = -0.1
    check("red_240_short_differ_long_same", world(p90={("RED-C-240", 0.98, "short"): 780.0}), world(), 0.1)


def test_fig8b_above_150():
    # RED-C-240 short queue 198 > 150 x 1.1 = 165: margin 198 / 165 - 1 = 0.2; 132: -0.2
    check("fig8b_above_150", world(queue={("RED-C-240", 0.98, "short"): 198.0}),
          world(queue={("RED-C-240", 0.98, "short"): 132.0}), 0.2)


def test_fig8a_below_150():
    # RED-A-240 short queue 135 in [120, 150): margin min(135 / 120 - 1, 1 - 135 / 150) = min(0.125, 0.1) = 0.1;
    # 165: min(0.375, -0.1) = -0.1
    check("fig8a_below_150", world(queue={("RED-A-240", 0.98, "short"): 135.0}),
          world(queue={("RED-A-240", 0.98, "short"): 165.0}), 0.1)


def test_fig8_ab_response_differ():
    # RED-A 600 vs RED-C 780 ms short: spread 0.3, margin 0.3 - 0.1 = 0.2; base (equal): -0.1
    check("fig8_ab_response_differ", world(p90={("RED-C-240", 0.98, "short"): 780.0}), world(), 0.2)


def test_fig8d_around_150():
    # RED-C-240 long queue 150: margin 0.2; 225: 0.2 - 0.5 = -0.3
    check("fig8d_around_150", world(queue={("RED-C-240", 0.98, "long"): 150.0}),
          world(queue={("RED-C-240", 0.98, "long"): 225.0}), 0.2)


def test_fig8c_around_100():
    # RED-A-240 long queue 100: margin 0.2; 150: 0.2 - 0.5 = -0.3
    check("fig8c_around_100", world(queue={("RED-A-240", 0.98, "long"): 100.0}),
          world(queue={("RED-A-240", 0.98, "long"): 150.0}), 0.2)


def test_fig8_cd_response_similar():
    # RED-A vs RED-C: short spread 0.3, long 0: margin 0.3 - 0 = 0.3; long spread 0.3, short 0: -0.3
    check("fig8_cd_response_similar", world(p90={("RED-C-240", 0.98, "short"): 780.0}),
          world(p90={("RED-C-240", 0.98, "long"): 1950.0}), 0.3)


# --- FIFO against RED (Section 4, Fig. 9) and the conclusions ---


def test_fifo_red_80_short_same():
    # FIFO-180 and RED-A-180 equal: margin 0.1; RED-A-180 480 vs 400: spread 0.2, -0.1
    check("fifo_red_80_short_same", world(), world(p90={("RED-A-180", 0.8, "short"): 480.0}), 0.1)


def test_fifo_red_98_long_differ():
    # FIFO-180 1950 vs RED-A-180 1500 ms: spread 0.3, margin 0.2; equal: -0.1
    check("fifo_red_98_long_differ", world(p90={("FIFO-180", 0.98, "long"): 1950.0}), world(), 0.2)


def test_fifo_red_small_queue_same():
    # equal at 98% short: margin 0.1; RED-A-180 720 vs 600: -0.1
    check("fifo_red_small_queue_same", world(), world(p90={("RED-A-180", 0.98, "short"): 720.0}), 0.1)


def test_red_better_long_latency():
    # FIFO-180 1980 vs RED-A-180 1500 ms: 1980 / (1500 x 1.1) - 1 = 0.2; equal: 1 / 1.1 - 1 = -0.0909
    check("red_better_long_latency", world(p90={("FIFO-180", 0.98, "long"): 1980.0}), world(), 0.2)


def test_red_a_better_small_queue():
    # RED-A-240 at 0.8 x the others: lead 1 / 0.8 - 1 = 0.25 short and long; at 1.25 x: 1 / 1.25 - 1 = -0.2
    holds = world(p90=scaled(BASE.red240[:1], (0.8,), loads=(0.98,)))
    fails = world(p90=scaled(BASE.red240[:1], (1.25,), loads=(0.98,)))
    check("red_a_better_small_queue", holds, fails, 0.25)


def test_red_a_beneficial():
    # long, 98%: FIFO-180 1980 vs RED-A-180 1500: 0.2; RED-A-240 1200 vs 1500: lead 0.25; margin min = 0.2.
    # Base: 1 / 1.1 - 1 = -0.0909 and lead 0
    holds = world(p90={("FIFO-180", 0.98, "long"): 1980.0, ("RED-A-240", 0.98, "long"): 1200.0})
    check("red_a_beneficial", holds, world(), 0.2)


def test_long_latency_larger():
    # base: long / short = 1000 / 400 = 2.5 everywhere, margin 1.5; long at half the short: -0.5
    fails = world(p90=lambda c, x, lat: 400.0 * GROWTH[x] * (0.5 if lat == "long" else 1))
    check("long_latency_larger", world(), fails, 1.5)


def test_red_beneficial_conclusion():
    # long, 90 and 98%: FIFO-180 x 1.32 vs RED-A-180: 1.32 / 1.1 - 1 = 0.2; equal: -0.0909
    holds = world(p90=scaled(["FIFO-180"], (1.32,), loads=(0.9, 0.98), latencies=("long",)))
    check("red_beneficial_conclusion", holds, world(), 0.2)


# --- the other workload ---


def test_flip_table_says_which_verdicts_depend_on_the_workload(tmp_path):
    found = pd.DataFrame({"claim": ["a", "b"], "status": ["supported", "refuted"]})
    path = tmp_path / "claims.csv"
    pd.DataFrame({"claim": ["a", "b"], "status": ["supported", "inconclusive"]}).to_csv(path, index=False)
    other = claims.other_workload_verdicts(path)
    flips = claims.flip_table(found, other)
    assert flips["depends_on_workload"].tolist() == [False, True]
    assert claims.flip_sentence(flips, other, path).endswith("1 of 2")
    assert claims.other_workload_verdicts(tmp_path / "missing.csv") == {}
    assert not claims.flip_table(found, {})["depends_on_workload"].any()
    assert claims.other_workload_path(None, "sensitivity") == "../figures/001/claims.csv"
    assert claims.other_workload_path("x.csv", "scaled") == "x.csv"
