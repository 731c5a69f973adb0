"""Paper 002's TCP scenario in ns-3: the sweep points, the run through the sweep runner, the summary per point.

:mod:`paperlib.sim.tcp_loss_transfer` simulates one TCP NewReno connection carrying the M objects back to
back over the table's link (ns-3 has no SCTP, so only TCP is simulated); :func:`run` runs every distinct
printed TCP operating point ``replications`` times through :func:`paperlib.sweep.run_sweep`.

:func:`run` returns :class:`Simulations`, the paper's record of its ns-3 runs (the ``simulations`` of
:func:`paperlib.reproduce.p002.ledger_rows.ledger_rows`); :func:`summary` is its frame
(:func:`simulation_summary`: one row per operating point with ``obj_bytes``, ``rate_bps``, ``rtt_s``, ``p``,
``runs``, ``finished``, ``mean_s``, ``ci95_s``), :func:`written` writes it for the notebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import units, validate
from paperlib.atomic import atomic_write_csv
from paperlib.data import Paper
from paperlib.reproduce.p002.operating_point import Convention, Point, model_points, operating_points
from paperlib.sim import record


def simulation_points(paper: Paper, conv: Convention, replications: int) -> list[dict]:
    """Return the ns-3 sweep points: every distinct TCP operating point x ``replications``."""
    reps = int(validate.positive_integer("replications", replications))
    frame = model_points(operating_points(paper), conv.kilo).drop_duplicates(
        subset=["obj_bits", "rate_bps", "rtt_s", "p"]
    )
    return [
        {"obj_bytes": row.obj_bits / 8, "rate_bps": row.rate_bps, "rtt_s": row.rtt_s, "p": row.p,
         "mss_bytes": int(row.mss_bits / 8), "objects": int(row.objects), "rep": r}
        for row in frame.itertuples()
        for r in range(reps)
    ]


def simulation_summary(sims: pd.DataFrame) -> pd.DataFrame:
    """Return mean response time and 95% t-interval half-width per operating point of the ns-3 runs."""
    from scipy import stats

    keys = ["obj_bytes", "rate_bps", "rtt_s", "p"]
    rows = []
    for key, g in sims.groupby(keys, sort=False):
        x = g["response_time_s"].astype(float)
        n = int(x.notna().sum())
        half = float(stats.t.ppf(0.975, n - 1) * x.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan
        rows.append({**dict(zip(keys, key, strict=True)), "runs": len(g), "finished": n, "mean_s": float(x.mean()),
                     "ci95_s": half})
    return pd.DataFrame(rows)


@dataclass(frozen=True, eq=False)
class Simulations(record.Simulations):
    """Paper 002's record of its ns-3 runs: ``summary`` (:func:`simulation_summary`), ``replications`` seeded runs
    per operating point."""

    summary: pd.DataFrame


def summary(simulations: Simulations) -> pd.DataFrame:
    """Return the frame of ``simulations``: one row per operating point (:func:`simulation_summary`)."""
    return simulations.summary


def summary_at(simulations: Simulations | None, pt: Point, kilo: int) -> pd.Series | None:
    """Return the summary row of the printed column ``pt`` (object of ``pt.obj_kb`` KB of ``kilo`` bytes), or None
    (also when ``simulations`` is None: not run)."""
    if simulations is None:
        return None
    summary = simulations.summary
    obj = float(units.kbytes_to_bits(pt.obj_kb, kilo=kilo)) / 8
    hit = summary[np.isclose(summary["obj_bytes"], obj) & np.isclose(summary["rtt_s"], pt.rtt_s)
                  & np.isclose(summary["p"], pt.p) & np.isclose(summary["rate_bps"], pt.rate_bps)]
    return None if hit.empty else hit.iloc[0]


def run(paper: Paper, conv: Convention, *, replications: int, cache_dir, seed: int, scheduler=None,
        n_workers=None) -> Simulations:
    """Run the ns-3 sweep, ``replications`` seeded runs per operating point (seeds from ``seed``); return its record.

    The runs are cached by the sweep runner (parameters, seed and the simulating module's code), so a re-run
    computes only what is missing.
    """
    from paperlib.sim import tcp_loss_transfer
    from paperlib.sweep import run_sweep

    points = simulation_points(paper, conv, replications)
    sims = run_sweep(tcp_loss_transfer.simulate, points, cache_dir=cache_dir, base_seed=int(seed),
                     scheduler=scheduler, n_workers=n_workers, desc="002 ns-3 TCP")
    return Simulations(replications=int(replications), summary=simulation_summary(sims))


def written(simulations: Simulations | None, out: Path) -> pd.DataFrame | None:
    """Write :func:`summary` of ``simulations`` to ``<out>/ns3_summary.csv`` and return it; None (and say so) when
    the simulation was not run (``simulations`` None)."""
    if simulations is None:
        print("simulation skipped (run_simulation = False)")
        return None
    atomic_write_csv(Path(out) / "ns3_summary.csv", summary(simulations))
    return summary(simulations)
