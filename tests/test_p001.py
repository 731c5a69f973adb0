"""Seed 001's Table 3 from its calibration line y = 2.9327 x - 125.0857."""

import pytest

from paperlib.data import load_paper
from paperlib.reproduce import p001
from paperlib.validate import ParameterError


@pytest.fixture(scope="module")
def paper():
    return load_paper("001")


def test_line_inversion_reference_points():
    # x = (y + 125.0857) / 2.9327: y = 8000 -> 8125.0857 / 2.9327 = 2770.514;
    # y = 9000 -> 9125.0857 / 2.9327 = 3111.496; y = 9800 -> 3384.283; y = 9500 (95%) -> 3281.988
    xs = p001.browsers_for_throughput([8000, 9000, 9800, 9500], 2.9327, -125.0857)
    assert xs == pytest.approx([2770.514, 3111.496, 3384.283, 3281.988], abs=0.001)
    with pytest.raises(ParameterError, match="slope"):
        p001.browsers_for_throughput(1.0, 0.0, 1.0)


def test_printed_counts_need_y_in_kbps_of_a_10_mbps_link_and_98_percent(paper):
    search = p001.table3_search(paper)
    best = search.iloc[0]
    assert best["reproduced"] == 3
    full = search[search["reproduced"] == 3]
    # every reading that reproduces all three counts puts 80 % of the link at y = 8000:
    # kbit/s of 10 Mbit/s, or 10-kbit/s units of 100 Mbit/s
    assert set(zip(full["y_unit_bps"], full["link_bps"])) == {(1e3, 10e6), (1e4, 100e6)}
    # and reads the third row as the text's 98 %, not the printed 95 %, and truncates
    # (2770.514 -> 2770, 3111.496 -> 3111, 3384.283 -> 3384; half-up would print 2771)
    assert set(full["load_column"]) == {"text"}
    assert set(full["browser_rounding"]) == {"truncate"}
    # with the printed 95 % the best reading reproduces two of three counts (95 % needs 3281: x = 3281.99, truncated)
    printed95 = search[search["load_column"] == "printed"]
    assert printed95["reproduced"].max() == 2


# --- the testbed plan, the calibration fit and the claim verdicts (no simulation) ---

import numpy as np
import pandas as pd

from paperlib.reproduce import p001_calibration as cal
from paperlib.reproduce import p001_claims as claims
from paperlib.reproduce import p001_testbed as tb
from paperlib.sim import web_testbed


def test_table2_pairs_and_the_testbed_default_agree(paper):
    assert tb.pairs(paper) == [list(p) for p in web_testbed.PAIRS_SHORT_S]


def test_queue_configurations_map_table1_onto_ns3(paper):
    q = tb.queue_configs(paper)
    assert list(q) == ["FIFO-60", "FIFO-120", "FIFO-180", "RED-A-480", "RED-B-480", "RED-C-480",
                       "RED-A-240", "RED-B-240", "RED-C-240", "RED-A-180"]
    assert q["RED-A-480"] == {"queue": "red", "queue_packets": 480, "red_min_th": 5.0, "red_max_th": 90.0,
                              "red_weight": 1 / 128, "red_max_p": 1 / 20, "red_gentle": False}
    assert q["RED-B-240"]["red_max_p"] == 0.1 and q["RED-B-240"]["queue_packets"] == 240
    assert q["RED-A-180"]["red_max_th"] == 90.0 and q["FIFO-60"] == {"queue": "fifo", "queue_packets": 60}


def test_experiment_points_cover_every_configuration(paper):
    prof = tb.profile("scaled")
    browsers = {0.8: 100, 0.9: 110, 0.98: 120}
    pts = tb.experiment_points(paper, prof, browsers)
    assert len(pts) == 10 * 3 * 2 * prof.reps
    assert len({tuple(sorted((k, str(v)) for k, v in p.items())) for p in pts}) == len(pts)
    long = [p for p in pts if p["latency"] == "long"]
    assert {p["latency_scale"] for p in long} == {3.0}
    assert {p["browsers"] for p in pts if p["load"] == 0.98} == {120}
    for p in pts:  # every point is a valid testbed parameter set
        web_testbed._check({**web_testbed.DEFAULTS, **p})
    with pytest.raises(ParameterError, match="configs"):
        tb.experiment_points(paper, prof, browsers, configs=["FIFO-999"])
    with pytest.raises(ParameterError, match="profile"):
        tb.profile("huge")
    scaled, full = tb.scale_pairs(paper, browsers, sim_time_s=20.0)
    assert [p["browsers"] * 10 for p in scaled] == [p["browsers"] for p in full]
    assert {p["bottleneck_bps"] for p in full} == {10 * p["bottleneck_bps"] for p in scaled}


def test_calibration_fit_recovers_a_known_line_and_inverts_it():
    x = np.repeat(np.arange(100, 1001, 100), 2).astype(float)
    noise = np.tile([-30.0, 30.0], 10)
    fit = cal.fit(x, (2.9327 * x - 125.0857 + noise) * 1e3)
    coef = cal.coefficients(fit)
    assert coef.loc["slope", "estimate"] == pytest.approx(2.9327, abs=1e-9)
    assert coef.loc["intercept", "estimate"] == pytest.approx(-125.0857, abs=1e-6)
    assert coef.loc["slope", "ci95_low"] < 2.9327 < coef.loc["slope", "ci95_high"]
    table = cal.browsers_for_loads(fit, [0.8, 0.9, 0.98], 10e6)
    # the published line's own inverse (test_line_inversion_reference_points), truncated
    assert table["browsers"].tolist() == [2770, 3111, 3384]
    assert (table["x_ci95_low"] < table["x"]).all() and (table["x"] < table["x_ci95_high"]).all()
    with pytest.raises(ParameterError, match="two different"):
        cal.fit([5, 5], [1.0, 2.0])


def _summary(p90: dict, queue: dict | None = None, drops: dict | None = None) -> pd.DataFrame:
    rows = []
    for (config, load, latency), v in p90.items():
        rows.append({"config": config, "load": load, "latency": latency, "p90_ms": v,
                     "mean_queue": (queue or {}).get((config, load, latency), 10.0),
                     "drop_rate": (drops or {}).get((config, load, latency), 0.01)})
    return pd.DataFrame(rows)


def test_almost_the_same_and_longer_follow_the_stated_tolerance():
    same = claims._same("c", {"g": {"a": 100.0, "b": 109.0}}, "x")
    assert same.status == "supported" and same.regenerated == pytest.approx(0.09)
    assert claims._same("c", {"g": {"a": 100.0, "b": 111.0}}, "x").status == "refuted"
    assert claims._less("c", ("a", 80.0), ("b", 100.0), "x").status == "supported"
    assert claims._less("c", ("a", 95.0), ("b", 100.0), "x").status == "refuted"
    assert claims._around("c", 590.0, 500.0, "x", upper_bound=True).status == "supported"
    assert claims._around("c", 610.0, 500.0, "x", upper_bound=True).status == "refuted"
    assert claims._around("c", 130.0, 150.0, "x").status == "supported"


def test_every_claim_gets_a_verdict_that_can_go_either_way(paper):
    loads = [0.8, 0.9, 0.98]
    configs = list(tb.queue_configs(paper))
    numbers = {r["id"]: float(r["printed"]) for _, r in paper.claims.cells.iterrows() if str(r["printed"]).strip()}
    fifo = [c for c in configs if c.startswith("FIFO")]
    red480 = [c for c in configs if c.endswith("-480")]
    red240 = [c for c in configs if c.endswith("-240")]

    def world(growing: bool):
        p90 = {}
        for c in configs:
            for i, x in enumerate(loads):
                for lat, base in (("short", 400.0), ("long", 1000.0)):
                    p90[(c, x, lat)] = base * (1 + (0.2 * i if growing else -0.2 * i))
        return claims.verdicts(_summary(p90), loads, fifo, red480, red240, ("FIFO-180", "RED-A-180"), numbers)

    up, down = world(True), world(False)
    assert {v.claim for v in up} == set(paper.claims.cells["id"])
    by_up, by_down = {v.claim: v.status for v in up}, {v.claim: v.status for v in down}
    assert by_up["fifo_intensity_increases"] == "supported" and by_down["fifo_intensity_increases"] == "refuted"
    assert by_up["fifo_queue_size_same"] == "supported"  # all queue sizes equal in this world
    assert by_up["long_latency_larger"] == "supported"
    assert by_up["fifo_98_longer_larger_queue"] == "refuted"  # equal, not longer


def test_scale_comparison_measures_identical_runs_as_identical():
    run = {"config": "FIFO-120", "load": 0.8, "latency": "short", "browsers": 10, "warmup_s": 1.0,
           "response_s": [0.1, 0.2, 0.3, 0.4], "queue_samples": [0, 5, 7], "queue_sample_times_s": [0.0, 1.0, 2.0],
           "drops": 1, "arrivals": 100}
    a = pd.DataFrame([run])
    b = pd.DataFrame([{**run, "browsers": 100, "response_s": [0.2, 0.4, 0.6, 0.8]}])
    same = claims.scale_comparison(a, a)
    assert same.loc[0, "ks"] == 0 and same.loc[0, "p90_rel_diff"] == 0 and same.loc[0, "mean_queue_scaled"] == 6
    doubled = claims.scale_comparison(a, b)
    assert doubled.loc[0, "p50_rel_diff"] == pytest.approx(1.0) and doubled.loc[0, "ks"] == pytest.approx(0.5)


def _reps(paper, growths):
    loads = [0.8, 0.9, 0.98]
    configs = list(tb.queue_configs(paper))
    numbers = {r["id"]: float(r["printed"]) for _, r in paper.claims.cells.iterrows() if str(r["printed"]).strip()}
    groups = ([c for c in configs if c.startswith("FIFO")], [c for c in configs if c.endswith("-480")],
              [c for c in configs if c.endswith("-240")], ("FIFO-180", "RED-A-180"))
    rows = []
    for rep, growth in enumerate(growths):
        for c in configs:
            for i, x in enumerate(loads):
                for lat, base in (("short", 400.0), ("long", 1000.0)):
                    rt = np.full(50, base * (1 + growth * i) / 1e3)
                    rows.append({"config": c, "load": x, "latency": lat, "rep": rep, "response_s": list(rt),
                                 "queue_samples": [10, 10], "queue_sample_times_s": [0.0, 1.0], "warmup_s": 0.0,
                                 "drops": 1, "arrivals": 100, "early_drops": 0, "throughput_bps": 1.0,
                                 "bottleneck_bps": 1.0, "unfinished": 0, "failed": 0})
    return {v.claim: v for v in claims.ci_verdicts(pd.DataFrame(rows), loads, *groups, numbers)}


def test_decide_by_hand():
    # margins 1..10: mean 5.5, s = 3.0277, t(0.975, 9) = 2.2622, half-width 2.2622 x 3.0277 / sqrt(10) = 2.166
    d = claims.decide(np.arange(1, 11))
    assert d["status"] == "supported" and d["low"] == pytest.approx(5.5 - 2.166, abs=1e-3)
    assert claims.decide(-np.arange(1, 11))["status"] == "refuted"
    # straddling 0: mean 0.5, s = 3.0277 (same spread shifted by -5): n = (2.2622 x 3.0277 / 0.5)^2 = 187.6 -> 188
    d = claims.decide(np.arange(1, 11) - 5.0)
    assert d["status"] == "untestable" and d["n_needed"] == 188
    assert claims.decide(np.arange(1, 10))["status"] == "untestable"  # 9 < MIN_REPS replications never decide


def test_claims_decided_only_where_the_interval_decides(paper):
    # 9 replications see p90 grow 20% per load step, one sees it fall: the mean margin is positive, the interval
    # (t(0.975, 9) x s / sqrt(10)) does not reach 0, so the claim is supported; with 7 up and 3 down it straddles 0
    found = _reps(paper, [0.2] * 9 + [-0.2])
    assert found["fifo_intensity_increases"].status == "supported"
    assert "95% CI" in found["fifo_intensity_increases"].reason
    mixed = _reps(paper, [0.2] * 7 + [-0.2] * 3)
    assert mixed["fifo_intensity_increases"].status == "untestable"
    assert "replications would decide it" in mixed["fifo_intensity_increases"].reason
    # queue sizes equal in every replication: spread 0, margin 0.10 - 0 each time, a zero-width interval above 0
    assert mixed["fifo_queue_size_same"].status == "supported"


def test_views_overrides_groups_and_printed_readings(paper):
    from paperlib.reproduce import p001_views as views

    prof = views.apply_overrides(tb.profile("scaled"), reps=3, calibration_browsers=[10, 20])
    assert prof.reps == 3 and prof.calibration_counts() == (10, 20)
    with pytest.raises(Exception, match="sim_time_s"):
        views.apply_overrides(tb.profile("scaled"), sim_time_s=5.0)  # below the 10 s warm-up
    g = views.groups(tb.queue_configs(paper))
    assert g["fifo"] == ["FIFO-60", "FIFO-120", "FIFO-180"] and g["red240"] == ["RED-A-240", "RED-B-240", "RED-C-240"]
    assert views.printed_80_percentiles(paper) == {"short": 500.0, "long": 1200.0}  # claims.csv, as printed
    summary = pd.DataFrame([{"config": c, "load": 0.8, "latency": lat, "p90_ms": v, "p50_ms": v / 2}
                            for c in g["fifo"] for lat, v in (("short", 550.0), ("long", 1200.0))])
    t = views.latency_reading_table({"rtt": summary}, paper, 0.8)
    assert t.set_index("latency").loc["short", "rel_error"] == pytest.approx(0.1)  # 550 / 500 - 1


def test_warmup_profile_finds_the_transient():
    from paperlib.reproduce import p001_views as views

    # two runs at 10 Mbit/s: load 0.2 for the first 3 s then 0.8; queue 0 then 50 -> the warm-up ends at 3 s
    thr = [[2e6] * 3 + [8e6] * 17] * 2
    times = [round(0.1 * i, 1) for i in range(200)]
    queue = [0] * 30 + [50] * 170
    sweep = pd.DataFrame({"throughput_series_bps": thr, "queue_samples": [queue, queue],
                          "queue_sample_times_s": [times, times]})
    prof = views.warmup_profile(sweep, 10e6)
    assert prof.load.iloc[0] == pytest.approx(0.2) and prof.load.iloc[-1] == pytest.approx(0.8)
    assert views.warmup_end_s(prof, tail_from_s=10.0) == 3.0


def test_profiles_share_one_plan_and_differ_in_workload(paper):
    scaled, sens = tb.profile("scaled"), tb.profile("sensitivity")
    assert scaled.traffic == tb.DEFAULT_WORKLOAD and sens.traffic["family"] == "parametric"
    assert scaled.reps >= 10  # the CI rule needs 10 replications to decide anything
    # calibration counts are fractions of the predicted count for 100%: 10 Mbit/s / 0.091 kbit/s = about 110 000
    assert 100_000 < max(scaled.calibration_counts()) / 1.2 < 120_000
    pts = tb.experiment_points(paper, scaled, {0.8: 100, 0.9: 110, 0.98: 120})
    key = lambda p: (p["load"], p["latency"], p["rep"])  # noqa: E731
    seeds = {}
    for p in pts:  # common random numbers: one workload seed per (load, latency, rep), shared by all configurations
        seeds.setdefault(key(p), set()).add(p["workload_seed"])
    assert all(len(v) == 1 for v in seeds.values()) and len({next(iter(v)) for v in seeds.values()}) == len(seeds)


def test_table3_ledger_rows_read_the_95_percent_label_as_a_typo():
    paper = load_paper("001")
    rows = p001.table3_rows(paper, p001.table3_search(paper))
    counts = [r for r in rows if r.column == "The Number of Browsers"]
    # 2770, 3111, 3384: the line inverted at 80, 90, 98 % of 10 Mbit/s in kbit/s, truncated (derived above)
    assert [(r.published, r.status) for r in counts] == [("2770", "reproduced"), ("3111", "reproduced"),
                                                         ("3384", "reproduced")]
    [label] = [r for r in rows if r.column == "Traffic Load"]
    assert (label.published, label.status, label.rel_error) == ("95%", "typo", "")
    assert "corrected reading 98 reproduces" in label.reason
