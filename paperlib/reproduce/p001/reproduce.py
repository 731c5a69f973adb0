"""Paper 001's stages: the model (Table 3 from the published line, the traffic model, what it implies, the queue
configurations), the ns-3 testbed (the calibration, the experiments, the paper's figures, the checks and the
claims), then the testbed on real stacks.

The notebook calls :func:`model`, :func:`with_ns3` and :func:`with_real_stacks` and shows what they return; each
stage writes its tables and figures into the run's output folder (:class:`paperlib.reproduction.Outputs`) and the
ledger rows of everything so far travel in the result, which :func:`paperlib.notebook.close_paper` writes. The run's
profile and switches are its checked parameters (``run.checked.profile``, :func:`what_if.check`); the ns-3 stage
holds one Dask cluster for every sweep until the paper is closed (:meth:`paperlib.notebook.PaperRun.hold`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import reproduction
from paperlib.models import web_traffic
from paperlib.notebook import PaperRun
from paperlib.reproduce.p001 import (
    calibration,
    claims,
    emulated,
    figures,
    findings,
    ledger_rows,
    operating_point,
    sweeps,
    tables,
    testbed,
    workload,
)


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 001's results: the common ones, the run's profile and queue configurations, and after the ns-3 stage
    what the real stacks are compared with: the calibration runs and their OLS fit, the browser count of each load,
    the experiments' runs and the figures' groups of configurations (None before that stage)."""

    profile: testbed.Profile
    queue_configs: dict
    calibration_runs: pd.DataFrame | None = None
    fit: object | None = None
    browsers: dict | None = None
    runs: pd.DataFrame | None = None
    groups: dict | None = None


def model(run: PaperRun) -> Reproduction:
    """Return what needs no simulation: Table 3 from the published line under every reading (and the one chosen),
    the traffic model's moments against seeded samples (``n_samples``, ``seed`` of the run) and its
    distributions, the load they imply, the queue configurations, and the ledger rows so far.

    Writes ``table3_search.csv``, ``table3_regenerated.csv``, ``traffic_model_moments.csv``, ``traffic_model.png``,
    ``implied_load.csv``, ``mean_sources.csv``, ``queue_configurations.csv``; note ``think_cap``.
    """
    paper, out, params = run.paper, run.outputs(), run.checked
    search = out.table("table3_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    out.table("table3_regenerated.csv", tables.table3_beside_printed(paper, conv))
    out.table("traffic_model_moments.csv",
              workload.moment_checks(params["n_samples"], np.random.default_rng(params["seed"])))
    out.figure("traffic_model.png", figures.distributions_figure(
        web_traffic.mah_tables(), web_traffic.model({"family": "parametric"}), params["seed"]))
    out.table("implied_load.csv", workload.implied_load((0.0, 1.0)))
    out.table("mean_sources.csv", workload.mean_sources())
    out.note("think_cap", workload.think_cap_sentence(workload.think_cap_for_rate()))
    qconf = testbed.queue_configs(paper)
    out.table("queue_configurations.csv", tables.queue_configuration_table(qconf).reset_index())
    return Reproduction(paper=paper, search=search, convention=conv, profile=run.checked.profile,
                        queue_configs=qconf).adding(out, rows=ledger_rows.ledger_rows(paper, search=search))


def with_ns3(run: PaperRun, r: Reproduction, *, cache_dir, seed: int, scheduler=None, n_workers=None) -> Reproduction:
    """Return ``r`` with the ns-3 testbed of the run's profile (seeds from ``seed``, one Dask cluster of
    ``scheduler``/``n_workers`` held until the paper is closed): the calibration and its line, the experiments of
    the run's ``configs`` (every queue configuration when None), the measured warm-up, the paper's seven figures,
    the Table 3 counts, the latency-reading and scale checks where the run asks for them, the claims (only with
    every configuration), and the ledger rows with ns-3's columns.

    Writes ``calibration_runs.csv``, ``calibration_fit.csv``, ``calibration_browsers.csv``, ``calibration.png``,
    ``summary.csv``, ``warmup.csv``, ``warmup.png``, the figures of
    :data:`paperlib.reproduce.p001.figure_cells.PAPER_FIGURES`, and where they ran ``table3_counts_load.csv``,
    ``latency_reading_check.csv``, ``scale_check.csv``, ``claims.csv`` and ``workload_dependence.csv``; notes
    ``slope``, ``plan``, ``warmup``, ``checks`` and ``claims``.
    """
    paper, prof, params, out = r.paper, r.profile, run.checked, run.outputs()
    latency_reading, configs = params["latency_reading"], params["configs"]
    every_config = configs is None
    scheduler_address = run.hold(sweeps.shared_cluster(scheduler, n_workers))
    opts = dict(cache_dir=cache_dir, base_seed=int(seed), scheduler=scheduler_address)

    cal = out.table("calibration_runs.csv", calibration.table(sweeps.calibration(paper, prof, latency_reading,
                                                                                 **opts)))
    fit = calibration.fit(cal["browsers"], cal["throughput_kbps"] * calibration.KBPS)
    coef = calibration.coefficients(fit)
    inverse = calibration.regenerated_browsers(fit, paper, prof)
    out.table("calibration_fit.csv", coef.reset_index())
    out.table("calibration_browsers.csv", inverse)
    out.note("slope", calibration.slope_sentence(coef, prof.predicted_kbps_per_browser(), paper))
    out.figure("calibration.png", figures.calibration_figure(cal, fit, inverse, calibration.published_line(paper),
                                                             params["profile"]))

    names = list(r.queue_configs) if every_config else list(configs)
    browsers = dict(zip(inverse["load"], inverse["browsers"], strict=True))
    sweep = sweeps.experiments(paper, prof, browsers, names, latency_reading, **opts)
    out.note("plan", sweeps.plan_sentence(len(sweep), names, prof, browsers))
    summary = out.table("summary.csv", findings.summarise(sweep))
    warm = out.table("warmup.csv", findings.warmup_profile(sweep, prof.bottleneck_bps))
    warm_end = findings.warmup_end_s(warm, tail_from_s=prof.warmup_s)
    out.note("warmup", f"measured warm-up {warm_end:g} s; used {prof.warmup_s:g} s; "
                       f"measured window {prof.sim_time_s - prof.warmup_s:g} s per run")
    out.figure("warmup.png", figures.warmup_figure(warm, prof.warmup_s, warm_end))
    groups = findings.groups(r.queue_configs)
    for name in figures.PAPER_FIGURES:  # Figs. 3, 6, 7, 9 (response-time CDFs), 4, 5 (FIFO queues), 8 (RED queues)
        out.figure(name, figures.paper_figure(name, sweep, summary, r.queue_configs, groups, testbed.loads(paper)))

    _checks(paper, prof, params, browsers, summary, fit, opts, out)
    evidence, other = (None, {})
    if every_config:
        evidence, other = _claims(paper, params, sweep, out)
    else:
        out.note("claims", "claims need every configuration (configs = None)")
    simulations = sweeps.Simulations(profile=prof, coefficients=coef, n_calibration_runs=len(cal),
                                     summary=summary if every_config else None, evidence=evidence,
                                     other_workload=other)
    rows = ledger_rows.ledger_rows(paper, search=r.search, simulations=simulations)
    return r.adding(out, rows=rows, simulations=simulations, calibration_runs=cal, fit=fit, browsers=browsers,
                    runs=sweep, groups=groups)


def _checks(paper, prof, params, browsers, summary, fit, opts, out: reproduction.Outputs) -> None:
    """Run the Table 3 counts, the latency-reading check and the scale check where the run asks for them (each
    needs every configuration), writing their tables; note ``checks`` names those skipped."""
    skipped = []
    every_config = params["configs"] is None
    latency_reading = params["latency_reading"]
    if params["run_table3_counts"] and every_config:
        out.table("table3_counts_load.csv", testbed.table3_count_loads(
            sweeps.table3_counts(paper, prof, latency_reading, **opts), fit, prof.bottleneck_bps))
    else:
        skipped.append("the Table 3 counts")
    if params["run_latency_check"] and every_config:
        alt = sweeps.latency_check(paper, prof, browsers, latency_reading, **opts)
        out.table("latency_reading_check.csv", findings.latency_reading_table(
            {latency_reading: summary, sweeps.other_latency_reading(latency_reading): findings.summarise(alt)},
            paper, min(testbed.loads(paper))))
    else:
        skipped.append("the latency-reading check")
    if params["run_scale_check"] and every_config and sweeps.runs_scale_check(prof):
        out.table("scale_check.csv", findings.scale_comparison(*sweeps.scale_check(
            paper, prof, browsers, latency_reading, params["scale_check_sim_time_s"], **opts)))
    else:
        skipped.append("the scale check")
    out.note("checks", f"skipped: {', '.join(skipped)}" if skipped else "every check ran")


def _claims(paper, params, sweep, out: reproduction.Outputs) -> tuple[claims.Evidence, dict]:
    """Judge the paper's observations on the experiments (and beside the other workload's verdicts when that run
    exists); write ``claims.csv`` and ``workload_dependence.csv``; note ``claims``. Return the evidence and the other
    workload's verdicts."""
    evidence = claims.Evidence.from_sweep(sweep, paper)
    verdict_table = out.table("claims.csv", claims.claims_table(paper, evidence))
    other_path = claims.other_workload_path(params["compare_with"], params["profile"])
    other = claims.other_workload_verdicts(other_path)
    flips = out.table("workload_dependence.csv", claims.flip_table(verdict_table, other))
    out.note("claims", claims.flip_sentence(flips, other, other_path))
    return evidence, other


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str, lock=None) -> Reproduction:
    """Return ``r`` with the testbed on real stacks (``emulation``: "reduced", "full" or "off"; ``lock``: the
    lock held, at normal priority, around the real-stack sweep only, :func:`paperlib.reproduce.p001.emulated.run`):
    the runs, the headline cell beside ns-3, the paper's figures on both testbeds, the calibration on real stacks,
    and the ledger rows with the real stacks' column. Needs the ns-3 stage's runs (:func:`with_ns3`).

    Writes ``emulation_runs.csv`` and what :mod:`paperlib.reproduce.p001.emulated` writes with it,
    ``real_vs_ns3_cdf.png``, ``real_queue.png``, the figures beside ns-3 the grid can draw,
    ``calibration_lines.csv`` and ``calibration_lines.png``; notes ``runs``, ``calibration`` and ``beside``.
    """
    if r.runs is None:
        raise ValueError("with_real_stacks: paper 001's real stacks are compared with its ns-3 runs; "
                         "call with_ns3 first")
    paper, out, seed = r.paper, run.outputs(), run.checked["seed"]
    real = emulated.run(paper, emulation, run.out, browsers=r.browsers, prof=r.profile, base_seed=seed,
                        latency_reading=run.checked["latency_reading"], lock=lock)
    out.note("runs", emulated.summary_sentence(real))
    out.note("calibration", emulated.calibration_sentence(real.calibration))
    out.figure("real_vs_ns3_cdf.png", emulated.cdf_figure(real, r.runs))
    out.figure("real_queue.png", emulated.queue_figure(real))
    beside = emulated.figures_beside_ns3(real, r.runs, r.groups, testbed.loads(paper))
    out.note("beside", emulated.beside_ns3_sentence(beside, real))
    for name, fig in beside.items():
        out.figure(name, fig)
    real_fit = emulated.calibration_fit(real.calibration)
    lines = out.table("calibration_lines.csv", emulated.calibration_lines(paper, r.fit, real_fit))
    out.figure("calibration_lines.png", figures.calibration_lines_figure(
        lines, emulated.calibration_bands(paper, r.fit, real_fit),
        emulated.calibration_measurements(r.calibration_runs, real.calibration)))
    rows = ledger_rows.ledger_rows(paper, search=r.search, simulations=r.simulations, real_stacks=real)
    return r.adding(out, rows=rows, real_stacks=real)


def beside_figures() -> list[str]:
    """Return the file names of the paper's figures drawn on both testbeds, in the paper's order
    (:func:`paperlib.reproduce.p001.emulated.beside_name`; a grid draws those of its cells,
    :meth:`paperlib.reproduction.Reproduction.images` shows those there are)."""
    return [emulated.beside_name(name) for name in figures.PAPER_FIGURES]
