"""Paper 001's simulations: every sweep the notebook runs on the ns-3 testbed, through the one sweep runner.

Each function builds its points with :mod:`~paperlib.reproduce.p001.testbed` and runs them with
:func:`paperlib.sweep.run_sweep` (cached, seeded); ``opts`` are run_sweep's options (``cache_dir``,
``base_seed``, ``scheduler``). :func:`shared_cluster` gives all of them one set of workers.
:class:`Simulations` is what the ledger takes from them
(``ledger_rows.ledger_rows(paper, simulations=...)``).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from paperlib.data import Paper
from paperlib.reproduce.p001 import testbed
from paperlib.reproduce.p001.testbed import Profile
from paperlib.sim import web_testbed
from paperlib.sweep import local_cluster, run_sweep

if TYPE_CHECKING:
    from paperlib.reproduce.p001.claims import Evidence


@dataclass(frozen=True, eq=False)
class Simulations:
    """Paper 001's record of its ns-3 runs: what the ledger rows need from the notebook's sweeps.

    ``profile`` is the run's :class:`~paperlib.reproduce.p001.testbed.Profile`; ``coefficients`` the
    regenerated calibration line (:func:`paperlib.reproduce.p001.calibration.coefficients`: rows
    ``intercept`` and ``slope``) fitted on ``n_calibration_runs`` runs. ``summary``
    (:func:`paperlib.reproduce.p001.findings.summarise` of the experiments) and ``evidence``
    (:class:`paperlib.reproduce.p001.claims.Evidence`) are ``None`` unless every queue configuration
    ran; ``other_workload`` maps claim ids to their status on the other workload's run
    (:func:`paperlib.reproduce.p001.claims.other_workload_verdicts`; empty when it has not run).
    """

    profile: Profile
    coefficients: pd.DataFrame
    n_calibration_runs: int
    summary: pd.DataFrame | None = None
    evidence: Evidence | None = None
    other_workload: dict[str, str] = field(default_factory=dict)


@contextlib.contextmanager
def shared_cluster(scheduler=None, n_workers=None):
    """Yield a scheduler for every sweep of the notebook: one local Dask cluster for all of them.

    ``run_sweep`` starts a cluster per call when ``scheduler`` is None, and each new worker pays
    ns-3's import and the C++ compilation again (about 10-20 s per worker per call); one cluster
    for the whole notebook pays it once per worker. An address or ``"synchronous"`` is passed through.
    """
    if scheduler is not None:
        yield scheduler
        return
    with local_cluster(n_workers or os.cpu_count() or 1) as cluster:
        yield cluster.scheduler_address


def calibration(paper: Paper, prof: Profile, latency_reading: str, simulate=web_testbed.simulate,
                **opts) -> pd.DataFrame:
    """Return the calibration runs: browser counts x repetitions on the uncongested testbed."""
    return run_sweep(simulate, testbed.calibration_points(paper, prof, latency_reading), desc="001 calibration", **opts)


def experiments(paper: Paper, prof: Profile, browsers: dict[float, int], configs, latency_reading: str,
                simulate=web_testbed.simulate, **opts) -> pd.DataFrame:
    """Return the experiment runs: every configuration x load x latency set x replication (common random numbers)."""
    points = testbed.experiment_points(paper, prof, browsers, configs=configs, latency_reading=latency_reading,
                                       base_seed=int(opts.get("base_seed", 0)))
    return run_sweep(simulate, points, desc="001 experiments", **opts)


def table3_counts(paper: Paper, prof: Profile, latency_reading: str, simulate=web_testbed.simulate,
                  **opts) -> pd.DataFrame:
    """Return the runs of Table 3's printed browser counts (FIFO-120, short latency, one replication each)."""
    points = testbed.table3_count_points(paper, prof, latency_reading, base_seed=int(opts.get("base_seed", 0)))
    return run_sweep(simulate, points, desc="001 Table 3 counts", **opts)


def other_latency_reading(latency_reading: str) -> str:
    """Return the reading of Table 2 that is not ``latency_reading`` (one-way delays or round trips)."""
    return "rtt" if latency_reading == "one_way" else "one_way"


def latency_check(paper: Paper, prof: Profile, browsers: dict[float, int], latency_reading: str,
                  simulate=web_testbed.simulate, **opts) -> pd.DataFrame:
    """Return FIFO at the lowest load run with the other reading of Table 2 than ``latency_reading``."""
    other = other_latency_reading(latency_reading)
    return run_sweep(simulate, testbed.latency_check_points(paper, prof, browsers, other),
                     desc=f"001 latency reading {other}", **opts)


def scale_check(paper: Paper, prof: Profile, browsers: dict[float, int], latency_reading: str, sim_time_s: float,
                simulate=web_testbed.simulate, **opts) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (scaled runs, full-scale runs) of :data:`~paperlib.reproduce.p001.testbed.SCALE_CHECK`."""
    scaled_pts, full_pts = testbed.scale_pairs(paper, browsers, sim_time_s=sim_time_s,
                                               latency_reading=latency_reading, prof=prof)
    return (run_sweep(simulate, scaled_pts, desc="001 scale check (scaled)", **opts),
            run_sweep(simulate, full_pts, desc="001 scale check (full)", **opts))


def runs_scale_check(prof: Profile) -> bool:
    """Return whether ``prof`` is at the scaled profile's bottleneck (the scale check compares it with full scale)."""
    return prof.bottleneck_bps == testbed.PROFILES["scaled"].bottleneck_bps


def plan_sentence(n_runs: int, names, prof: Profile, browsers: dict) -> str:
    """Return the sentence the notebook prints about the experiment sweep's size."""
    return (f"{n_runs} runs: {len(names)} configurations x 3 loads x 2 latency sets x {prof.reps} replications, "
            f"{prof.sim_time_s:g} s each (first {prof.warmup_s:g} s not measured); browsers {browsers}")
