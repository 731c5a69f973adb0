"""What the notebooks of papers 000, 002 and 004 call for their emulated column (so each cell is one call)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from paperlib import sweep
from paperlib.atomic import atomic_write_csv
from paperlib.emulation import accuracy, capture, experiments, ledger_rows, netns
from paperlib.figures import style

RUN_COLUMNS = ["protocol", "rate_bps", "rtt_s", "loss", "users", "rep", "seed", "t0", "t_start", "t_done", "user"]


@dataclass
class Emulated:
    """The emulated runs of one paper: its points, the runs table, and why nothing ran (if so)."""

    profile: str
    points: list = field(default_factory=list)
    runs: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=RUN_COLUMNS))
    not_run: str | None = None


def not_run_reason(profile: str) -> str | None:
    """Return why no real-stack run happens under ``profile``, or None when they can run.

    ``"off"`` is the user's choice (:data:`ledger_rows.NOT_RUN_BY_CHOICE`); otherwise the machine's lack
    (:func:`netns.unavailable_reason`, after :data:`ledger_rows.NOT_RUN_CANNOT`), checked before any point.
    """
    if experiments.check_profile(profile) == "off":
        return ledger_rows.NOT_RUN_BY_CHOICE
    reason = netns.unavailable_reason()
    return f"{ledger_rows.NOT_RUN_CANNOT}: {reason}" if reason else None


def run(module, paper, profile: str, out: Path, scheduler_links: int | None = None) -> Emulated:
    """Run ``module.points(paper, profile)`` through the sweep runner (or say why not) and write the runs table.

    Nothing runs with ``profile`` "off" (the user's choice: :data:`ledger_rows.NOT_RUN_BY_CHOICE`) or when
    :func:`netns.unavailable_reason` names what this machine lacks (:data:`ledger_rows.NOT_RUN_CANNOT`),
    checked before any point starts.
    """
    profile = experiments.check_profile(profile)
    reason = not_run_reason(profile)
    if reason:
        return Emulated(profile, not_run=reason)
    pts = module.points(paper, profile)
    runs = experiments.run(pts, n_links=scheduler_links, desc=f"{module.PAPER} emulated ({profile})")
    flat = runs.drop(columns=["link_stats", "provenance"]).copy()
    for col in ("t_start", "t_done", "user", "object"):
        flat[col] = flat[col].map(lambda v: " ".join(f"{x:.6f}" if isinstance(x, float) else str(x) for x in v))
    atomic_write_csv(Path(out) / "emulation_runs.csv", flat)
    return Emulated(profile, pts, runs)


def accuracy_table(rates_bps, out: Path, profile: str) -> pd.DataFrame | None:
    """Return (and write) the emulator's accuracy at the paper's rates, or None when the testbed is unavailable/off."""
    if profile == "off" or netns.unavailable_reason():
        return None
    # Through the sweep runner, cached like the experiments (a measurement is made once per rate and code
    # version), so a re-executed notebook (make validate) and a rerun show the same table.
    points = [{"rate_bps": r, "delay_s": 0.05} for r in sorted(set(float(r) for r in rates_bps))]
    return _measured_table(accuracy_point, points, _accuracy_code_version(), Path(out) / "emulator_accuracy.csv")


def _measured_table(measure, points: list[dict], code_version: str, path: Path) -> pd.DataFrame:
    """Return (and write to ``path``) the rows ``measure`` returns as JSON for ``points``, each measured once.

    Through the sweep runner and its cache, in this process: a re-executed notebook reads the same table.
    """
    swept = sweep.run_sweep(measure, points, cache_dir=experiments.CACHE_DIR, code_version=code_version,
                            scheduler="synchronous", progress=False)
    table = pd.DataFrame([json.loads(row) for row in swept["row"]])
    atomic_write_csv(path, table)
    return table


def _measuring_code_version(module) -> str:
    """The experiments' code version (link emulator, namespaces, applications) and ``+<module>-<hash>``."""
    digest = hashlib.sha256(Path(module.__file__).read_bytes()).hexdigest()[:12]
    return f"{experiments.code_version()}+{module.__name__.rsplit('.', 1)[-1]}-{digest}"


def _accuracy_code_version() -> str:
    """The experiments' code version and a hash of the measuring module (:mod:`accuracy`)."""
    return _measuring_code_version(accuracy)


def accuracy_point(params: dict, seed: int) -> dict:
    """Sweep function: the emulator's accuracy at one rate (:func:`accuracy.measure_point`, its seed 1 as
    before the cache; the sweep's seed is unused), the row as JSON."""
    return {"row": json.dumps(accuracy.measure_point(params["rate_bps"], params["delay_s"], 1), default=float)}


def capture_table(points: list[dict], out: Path) -> pd.DataFrame | None:
    """Return (and write ``emulated_capture_check.csv``) the packet-capture cross-check of ``points``, or None
    when there is no point (emulation off or not run).

    One :func:`paperlib.emulation.capture.crosscheck` per point (users = objects = 1): the application's own
    latency against tcpdump's on the client's TUN device. Through the sweep runner and its cache (keyed
    by the experiments' code and the capture module's), like :func:`accuracy_table`: a re-executed notebook
    (make validate) shows the same table.
    """
    if not points:
        return None
    return _measured_table(capture_point, points, _capture_code_version(),
                           Path(out) / "emulated_capture_check.csv")


def _capture_code_version() -> str:
    """The experiments' code version and a hash of the capture module (:mod:`capture`)."""
    return _measuring_code_version(capture)


def capture_point(params: dict, seed: int) -> dict:
    """Sweep function: one packet-capture cross-check of ``params`` (its seed 1 as before the cache; the
    sweep's seed is unused), the row as JSON."""
    return {"row": json.dumps(capture.crosscheck(params, seed=1), default=float)}


def verdicts(rows) -> pd.DataFrame:
    """Return the re-judged claims (column 'emulated (real stacks)') as a small table, their reasons without the
    bracketed markers (``[emulated on real stacks]``, ``[emulation not run]``)."""
    sel = [r for r in rows if r.column == ledger_rows.REAL_STACKS]
    return pd.DataFrame({"claim": [r.row for r in sel], "verdict on real stacks": [r.status for r in sel],
                         "measure": [re.sub(r"\[[^\]]*\] ", "", r.reason) for r in sel]})


def errorbars(ax, x, mean, half, proto: str) -> None:
    """Plot emulated means with their 95% CIs in the registry's emulation style."""
    kw = style(proto, "emulation")
    ok = np.isfinite(np.asarray(mean, float))
    if ok.any():
        ax.errorbar(np.asarray(x)[ok], np.asarray(mean, float)[ok],
                    yerr=np.where(np.isfinite(half), half, 0)[ok], capsize=3, **kw)
    else:
        ax.plot([], [], **kw)


def close(fig) -> None:
    """Close a figure (free its memory)."""
    plt.close(fig)
