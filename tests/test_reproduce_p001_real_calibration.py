"""Paper 001's calibration on real stacks and its figures beside ns-3 (paperlib.reproduce.p001.emulated): the plan,
the fit, the ledger rows, the three lines' table and figure, the paper's figures on both testbeds.

Pure: every real-stack run is faked (the short real run of the calibration testbed is the last test, marked like
tests/test_emulation_web_testbed_real.py's real runs).
"""

import dataclasses

import fidelity_helpers
import matplotlib
import numpy as np
import pandas as pd
import pytest

from paperlib import ledger
from paperlib.data import load_paper
from paperlib.emulation import web_testbed_real
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import REAL_STACKS
from paperlib.reproduce.p001 import calibration, emulated, figures, findings, ledger_rows, testbed
from paperlib.sim import web_testbed
from paperlib.sweep import point_seed, run_sweep

matplotlib.use("Agg")
PAPER = load_paper("001")
BROWSERS = {0.8: 1000, 0.9: 1100, 0.98: 1200}
OFF = "the real-stack column was not run, by choice (EMULATION=off)"


def test_the_calibration_points_are_ns3s_with_the_reduced_run_length_and_ns3s_workload_seeds(tmp_path):
    prof = testbed.PROFILES["scaled"]
    on_ns3 = testbed.calibration_points(PAPER, prof, "rtt")
    real = emulated.calibration_points(PAPER, "reduced", base_seed=7)
    # the profile's 6 browser counts x calibration_reps 2, every link 10 x 10 Mbit/s (nothing congests)
    assert len(real) == 12 and [p["browsers"] for p in real] == [p["browsers"] for p in on_ns3]
    assert {p["bottleneck_bps"] for p in real} == {100e6} and {p["queue"] for p in real} == {"fifo"}
    assert {(p["sim_time_s"], p["warmup_s"]) for p in real} == {(20.0, 5.0)}
    for p in real:
        web_testbed._check({**web_testbed.DEFAULTS, **p})  # exactly ns-3's parameters
    # the workload seed of each run is the seed the ns-3 sweep gives the same point (base seed 7)
    ns3_sweep = run_sweep(_seed_only, on_ns3, cache_dir=tmp_path, base_seed=7, scheduler="synchronous",
                          progress=False)
    assert [p["workload_seed"] for p in real] == ns3_sweep["seed"].tolist()
    assert [p["workload_seed"] for p in real] == [point_seed(p, 7) for p in on_ns3]
    # full: ns-3's own run length
    assert {(p["sim_time_s"], p["warmup_s"]) for p in emulated.calibration_points(PAPER, "full")} == {(40.0, 10.0)}
    assert emulated.calibration_points(PAPER, "off") == []


def _seed_only(params: dict, seed: int) -> dict:
    return {"seen": seed}


def test_the_plans_cost_includes_the_calibration_one_testbed_at_a_time():
    size = emulated.plan_hours(PAPER, "reduced", BROWSERS)
    # 80 experiment runs + 12 calibration runs, each 20 + 1.5 s: 92 x 21.5 = 1978 s; one testbed at a time
    # (emulated.LINKS) 32.97 min, of which the calibration's 12 x 21.5 s = 258 s = 4.3 min
    assert emulated.LINKS == 1
    assert (size["runs"], size["calibration_runs"]) == (92, 12)
    assert size["machine_hours"] == pytest.approx(1978 / 3600) and size["wall_minutes"] == pytest.approx(1978 / 60)
    two = emulated.plan_hours(PAPER, "reduced", BROWSERS, links=2)
    assert two["wall_minutes"] == pytest.approx(1978 / 120)  # two at a time: half the wall time, same machine-hours
    # full: 600 + 12 runs, the calibration at ns-3's 40 s: 600 x 41.5 + 12 x 41.5 = 25398 s
    assert emulated.plan_hours(PAPER, "full", BROWSERS)["machine_hours"] == pytest.approx(612 * 41.5 / 3600)


def _cal_runs(slope_kbps: float, intercept_kbps: float, kept=True, counts=(1000, 2000, 3000)) -> pd.DataFrame:
    """Two runs per count; run 0 measures the line + 1 kbit/s, run 1 the line - 1 kbit/s."""
    rows = []
    for p in emulated.calibration_points(PAPER, "reduced", testbed.replace(testbed.PROFILES["scaled"],
                                                                          calibration_browsers=counts)):
        y = slope_kbps * p["browsers"] + intercept_kbps + (1.0 if p["rep"] == 0 else -1.0)
        rows.append({**p, "seed": 1, "throughput_bps": y * 1e3, "requests": 100, "response_s": [],
                     "queue_samples": [0], "queue_sample_times_s": [0.0], "fidelity": fidelity_helpers.record(10_000,
                                                                                                            0.1),
                     "generator": {"issue_lateness_p99_s": 0.001}, "fidelity_kept": kept, "rtt_s": 0.0507})
    return pd.DataFrame(rows)


def _em(runs: pd.DataFrame, lost: pd.DataFrame | None = None) -> Emulated:
    pts = [{k: v for k, v in r.items() if k in web_testbed.DEFAULTS or k in web_testbed.LABELS or k == "workload_seed"}
           for r in runs.to_dict("records")] if len(runs) else [
        {k: v for k, v in r.items() if k in web_testbed.DEFAULTS or k in web_testbed.LABELS}
        for r in lost.to_dict("records")]
    return Emulated("reduced", pts, runs, lost=lost if lost is not None else runs.iloc[0:0])


def test_the_fit_and_the_rows_of_a_known_line():
    em = _em(_cal_runs(0.1, 5.0))
    fit = emulated.calibration_fit(em)
    # the noise is +1/-1 at every count, so the line through the counts' means is exact: slope 0.1, intercept 5
    assert fit.params[1] == pytest.approx(0.1) and fit.params[0] == pytest.approx(5.0)
    rows = {r.row: r for r in emulated.calibration_rows(PAPER, em)}
    slope, intercept = rows["slope"], rows["intercept"]
    assert {r.column for r in rows.values()} == {REAL_STACKS} and {r.source for r in rows.values()} == {
        "Section 2.2 (calibration line)"}
    # residuals +-1 on 6 runs: s^2 = 6 / (6 - 2) = 1.5; Sxx = 2 x (1000^2 + 0 + 1000^2) = 4e6;
    # se(slope) = sqrt(1.5 / 4e6) = 6.1237e-4, t(0.975, 4) = 2.7764: half-width 1.7002e-3
    assert float(slope.low) == pytest.approx(0.1 - 1.7002e-3, abs=1e-6)
    assert float(slope.high) == pytest.approx(0.1 + 1.7002e-3, abs=1e-6)
    # se(intercept) = sqrt(1.5 x (1/6 + 2000^2 / 4e6)) = sqrt(1.75) = 1.3229: half-width 3.6729
    assert float(intercept.low) == pytest.approx(5.0 - 3.6729, abs=1e-3)
    # 0.1 against the printed 2.9327: the whole interval far below 2.9327 x 0.95, (0.1 - 2.9327) / 2.9327 = -96.6 %
    assert slope.status == "measured_differs" and float(slope.rel_error) == pytest.approx(-0.9659, abs=1e-4)
    assert intercept.status == "measured_differs"
    assert (slope.n, slope.evidence, slope.emulation, slope.claim_id) == ("6", "real stacks", "ran", "")
    for r in rows.values():
        ledger.check_row(dataclasses.asdict(r))  # a result row of the schema, not a claim's


def test_a_line_through_the_print_is_close_and_ns3_is_quoted_beside():
    em = _em(_cal_runs(2.9327, -125.0857))
    ns3 = calibration.coefficients(calibration.fit([1, 2, 3, 1, 2, 3], [100, 190, 310, 110, 210, 290]))
    rows = {r.row: r for r in emulated.calibration_rows(PAPER, em, ns3)}
    # the fitted line is the printed one exactly (the +-1 noise cancels at every count); the slope's interval 2.9327
    # +/- 1.7e-3 and the intercept's -125.0857 +/- 3.67 lie within 5% of the prints (+/- 0.147 and +/- 6.25)
    assert rows["slope"].status == rows["intercept"].status == "measured_close"
    assert float(rows["slope"].regenerated) == pytest.approx(2.9327)
    assert f"ns-3's {ns3.loc['slope', 'estimate']:.4f}" in rows["slope"].reason


def test_rows_when_nothing_ran_and_when_the_runs_lost_their_timing():
    off = emulated.calibration_rows(PAPER, Emulated("off", not_run=OFF))
    assert [r.row for r in off] == ["slope", "intercept"]
    assert {(r.status, r.emulation, r.evidence, r.column) for r in off} == {
        ("not_regenerable", "not run by choice", "none", REAL_STACKS)}
    lost = _cal_runs(0.1, 5.0, kept=False)
    rows = emulated.calibration_rows(PAPER, _em(lost.iloc[0:0], lost))
    assert emulated.calibration_fit(_em(lost.iloc[0:0], lost)) is None
    assert {(r.status, r.emulation) for r in rows} == {("not_regenerable", "fidelity lost")}
    assert "0 of 6 calibration runs kept their timing" in rows[0].reason
    for r in off + rows:
        ledger.check_row(dataclasses.asdict(r))


def test_calibration_run_fits_the_kept_runs_and_says_why_not(monkeypatch, tmp_path):
    def fake_run(points, **kw):  # the largest count's two runs lose their timing
        frame = _cal_runs(0.1, 5.0, counts=(1000, 2000, 3000, 4000))
        return frame.assign(fidelity_kept=frame["browsers"] != 4000)

    monkeypatch.setattr(emulated.experiments, "run", fake_run)
    monkeypatch.setattr(emulated.web_testbed_real, "unavailable_reason", lambda: None)
    monkeypatch.setattr("paperlib.emulation.notebook.not_run_reason", lambda profile: None)
    em = emulated.calibration_run(PAPER, "reduced", tmp_path)
    assert (len(em.runs), len(em.lost)) == (6, 2) and (tmp_path / "emulation_calibration_runs.csv").exists()
    assert emulated.calibration_fit(em).nobs == 6  # the lost runs are not fitted
    assert emulated.calibration_sentence(em).endswith("6 kept their timing, 2 lost it (docs/fidelity.md)")
    # emulated.run runs it after the experiments, in the same turn, and keeps it in its record
    monkeypatch.setattr(emulated, "replacement_points", lambda *a, **k: [])  # the fake sweep answers any points
    monkeypatch.setattr(emulated, "stage_two_points", lambda *a, **k: [])  # with calibration runs: no claim to judge
    real = emulated.run(PAPER, "reduced", tmp_path, browsers=BROWSERS)
    assert isinstance(real, emulated.RealStacks) and len(real.calibration.runs) == 6
    monkeypatch.setattr("paperlib.emulation.notebook.not_run_reason", lambda profile: OFF)
    assert emulated.calibration_run(PAPER, "off", tmp_path).not_run == OFF
    off = emulated.run(PAPER, "off", tmp_path, browsers=BROWSERS)
    assert off.not_run == off.calibration.not_run == OFF


def test_the_ledger_puts_the_calibration_rows_before_the_real_stack_claims():
    rows = ledger_rows.ledger_rows(PAPER, real_stacks=emulated.RealStacks("off", not_run=OFF,
                                                                          calibration=Emulated("off", not_run=OFF)))
    # Table 3 (4), calibration (2), text (8), claims (35) on ns-3, the real stacks' calibration (2) and claims (35)
    assert len(rows) == 4 + 2 + 8 + 35 + 2 + 35
    assert [(r.row, r.column) for r in rows[49:51]] == [("slope", REAL_STACKS), ("intercept", REAL_STACKS)]
    frame = ledger.to_frame(rows, _stamp())  # the keys stay unique beside ns-3's (row "y = ...", column "slope")
    assert len(frame) == len(rows)
    # the calibration's own runs, judged: the rows of the known line come from the record's calibration
    judged = ledger_rows.ledger_rows(PAPER, real_stacks=emulated.RealStacks("reduced",
                                                                            calibration=_em(_cal_runs(0.1, 5.0))))
    assert {r.row: r.status for r in judged[49:51]} == {"slope": "measured_differs", "intercept": "measured_differs"}


def _stamp():
    from paperlib.provenance import Stamp

    return Stamp(notebook="nb")


def test_the_three_lines_their_bands_and_the_figure():
    real = emulated.calibration_fit(_em(_cal_runs(0.1, 5.0)))
    ns3 = calibration.fit([1000, 2000, 3000, 1000, 2000, 3000], [105e3, 205e3, 305e3, 95e3, 195e3, 295e3])
    lines = emulated.calibration_lines(PAPER, ns3, real).set_index("line")
    assert list(lines.index) == list(emulated.LINES)
    # the paper's line as printed, without an interval or runs
    assert (lines.loc["paper", "slope"], lines.loc["paper", "intercept"]) == (2.9327, -125.0857)
    assert np.isnan(lines.loc["paper", "slope_ci95_low"]) and np.isnan(lines.loc["paper", "runs"])
    # ns-3's made-up runs: 100 kbit/s per 1000 browsers (+-5): slope 0.1, intercept 5; 6 runs
    assert lines.loc["ns-3", "slope"] == pytest.approx(0.1) and lines.loc["ns-3", "runs"] == 6
    assert lines.loc["real stacks", "slope_ci95_high"] == pytest.approx(0.1 + 1.7002e-3, abs=1e-6)
    # by default 61 browser counts from 0 to 1.1 x the most fitted, 3000: 3300
    assert emulated.calibration_bands(PAPER, ns3, real)["browsers"].max() == pytest.approx(3300.0)
    bands = emulated.calibration_bands(PAPER, ns3, real, x_max=3000.0)  # every 50 browsers
    assert bands.groupby("line").size().to_dict() == {"ns-3": 61, "paper": 61, "real stacks": 61}
    at = bands[(bands["line"] == "real stacks") & np.isclose(bands["browsers"], 2000.0)].iloc[0]
    # at the mean count the band's half-width is t x s / sqrt(n) = 2.7764 x sqrt(1.5 / 6) = 1.3882
    assert (at["kbps"], at["ci95_high"] - at["kbps"]) == pytest.approx((205.0, 1.3882), abs=1e-3)
    assert bands.loc[bands["line"] == "paper", "ci95_low"].isna().all()
    measured = emulated.calibration_measurements(calibration.table(pd.DataFrame(
        {"browsers": [1000, 2000], "rep": [0, 0], "throughput_bps": [1e5, 2e5]})), _em(_cal_runs(0.1, 5.0)))
    assert measured.groupby("testbed").size().to_dict() == {"ns-3": 2, "real stacks": 6}
    fig = figures.calibration_lines_figure(emulated.calibration_lines(PAPER, ns3, real), bands, measured)
    assert len(fig.axes) == 2 and len(fig.axes[0].lines) >= 3


def _cell_runs(cells, value_s: float, queue: int, testbed_name: str) -> list[dict]:
    qconf = testbed.queue_configs(PAPER)
    rows = []
    for config, load, latency in cells:
        for rep in range(2):
            rows.append({**qconf[config], "config": config, "load": load, "latency": latency, "rep": rep,
                         "warmup_s": 1.0, "response_s": [0.1, 0.2, 0.3, 0.4] if rep == 0 else [value_s] * 4,
                         "queue_samples": [0, queue, queue], "queue_sample_times_s": [0.0, 1.0, 2.0],
                         "drops": 0, "arrivals": 10, "early_drops": 0, "throughput_bps": 1e6,
                         "bottleneck_bps": 1e7, "unfinished": 0, "failed": 0, "testbed": testbed_name})
    return rows


def test_the_paper_figures_the_reduced_grid_draws_on_both_testbeds():
    every = [(c, x, lat) for c in testbed.queue_configs(PAPER) for x in (0.8, 0.9, 0.98) for lat in ("short", "long")]
    sweep = pd.DataFrame(_cell_runs(every, 0.5, 40, "ns-3"))
    real = pd.DataFrame(_cell_runs(emulated.REDUCED_CELLS, 0.25, 20, "real stacks"))
    em = Emulated("reduced", [], real)
    groups, loads = findings.groups(testbed.queue_configs(PAPER)), testbed.loads(PAPER)
    tables = emulated.beside_ns3_tables(em, sweep, groups, loads)
    # every paper figure but Fig. 6 (RED at 480: not in the reduced grid)
    assert list(tables) == [n for n in figures.PAPER_FIGURES if not n.startswith("fig6")]
    fig3 = tables["fig3_fifo_response_cdf.png"]
    # Fig. 3's cells the real stacks ran: FIFO-60/120/180 at 98 % short, FIFO-180 at 98 % long, on both testbeds
    assert set(zip(fig3["testbed"], fig3["config"], fig3["latency"], strict=True)) == {
        (t, c, "short") for t in ("ns-3", "real stacks") for c in ("FIFO-60", "FIFO-120", "FIFO-180")} | {
        (t, "FIFO-180", "long") for t in ("ns-3", "real stacks")}
    cell = fig3[(fig3["testbed"] == "real stacks") & (fig3["config"] == "FIFO-60")]
    # 8 responses pooled: 100, 200, 300, 400 ms and four of 250 ms; sorted 100 200 250 250 250 250 300 400:
    # the median (share 0.5, the 4th of 8) is 250 ms, share 1 the largest, 400 ms
    assert cell.loc[np.isclose(cell["cdf"], 0.5), "response_ms"].item() == pytest.approx(250.0)
    assert cell["response_ms"].max() == pytest.approx(400.0) and (cell["runs"] == 2).all()
    fig8 = tables["fig8_red_queue_240.png"]
    # Fig. 8's panels in the grid: RED-A-240 and RED-C-240 at short latency; the mean queue after the 1 s warm-up
    # of two runs whose samples after it are (q, q): q itself, 20 real, 40 ns-3
    assert set(zip(fig8["config"], fig8["latency"], strict=True)) == {("RED-A-240", "short"), ("RED-C-240", "short")}
    assert set(fig8.groupby("testbed")["mean_queue"].first().items()) == {("ns-3", 40.0), ("real stacks", 20.0)}
    assert (fig8["limit"] == 240).all()
    shown = emulated.figures_beside_ns3(em, sweep, groups, loads)
    assert list(shown) == [emulated.beside_name(n) for n in tables]
    # a CDF figure: a row of two panels (ns-3, real stacks) per latency set; Fig. 8: a row per cell
    assert len(shown["fig3_fifo_response_cdf_real_vs_ns3.png"].axes) == 4
    assert len(shown["fig8_red_queue_240_real_vs_ns3.png"].axes) == 4
    assert emulated.figures_beside_ns3(Emulated("off", not_run=OFF), sweep, groups, loads) == {}
    assert emulated.beside_ns3_sentence({}, Emulated("off", not_run=OFF)).startswith("no figure on real stacks")


REASON = web_testbed_real.unavailable_reason()


@pytest.mark.skipif(REASON is not None, reason=f"real-stack testbed unavailable: {REASON}")
def test_a_short_real_calibration_run_measures_the_offered_throughput():
    # the smallest count of the reduced calibration (21977 browsers at 0.091 kbit/s each: about 2 Mbit/s offered
    # through the uncongested 100 Mbit/s link), 6 s with 1.5 s warm-up, one try (about 8 s). Nothing asserted here
    # depends on the machine's load (whether the run kept its timing is only judged), so it runs beside other tests
    p = {**emulated.calibration_points(PAPER, "reduced")[0], "sim_time_s": 6.0, "warmup_s": 1.5}
    r = web_testbed_real.simulate(p, 1)
    # its fidelity record is judged (on a machine shared with other work a run may lose its timing: the plan re-runs
    # it, then leaves it out of the fit)
    assert isinstance(web_testbed_real.judge(r, p).kept, bool) and r["fidelity"]["lateness_n"] > 0
    # nothing queues: the largest reply backlog is a few packets of the 10 000
    assert r["queue_max_packets"] < 100 and r["drops"] == 0
    # the throughput is that of the browsers' replies: positive, far below the link
    assert 0 < r["throughput_bps"] < 20e6
