"""The shared parts of the real-stack column: the runs of a paper's grid (:func:`run`, behind ``emulated.run`` of
papers 000, 002 and 004), the runs' fidelity per cell, the accuracy and capture checks, the notebooks' tables."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from paperlib import replications, sweep
from paperlib.atomic import atomic_write_csv
from paperlib.emulation import accuracy, capture, experiments, ledger_rows, netns
from paperlib.figures import style

RUN_COLUMNS = ["protocol", "rate_bps", "rtt_s", "loss", "users", "rep", "seed", "t0", "t_start", "t_done", "user"]


#: The per-run fidelity figures ``emulation_runs.csv`` holds beside each run (:func:`fidelity_columns`).
FIDELITY_COLUMNS = ["fidelity_kept", "fidelity_tries", "fidelity_passes", "lateness_p99_s", "app_wait_s",
                    "app_wait_transfer_s", "transfer_s", "handshakes", "cpu_pressure_fraction"]


@dataclass
class Emulated:
    """The emulated runs of one paper: its points, the runs that kept their timing, and why nothing ran (if so).

    ``runs`` holds only the runs whose fidelity record the rule keeps (:mod:`paperlib.emulation.fidelity`):
    every mean, interval and verdict rests on them. ``lost`` holds the runs that broke the rule on every try;
    :meth:`cell_fidelity` summarises both for one ledger cell.
    """

    profile: str
    points: list = field(default_factory=list)
    runs: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=RUN_COLUMNS))
    not_run: str | None = None
    lost: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=RUN_COLUMNS))
    plans: list = field(default_factory=list)  # a CellPlan per published measurement measured again

    def plan_at(self, printed: float, **at) -> CellPlan | None:
        """Return the plan of the published measurement ``printed`` at the cell ``at`` (None: none was made)."""
        for plan in self.plans:
            if plan.printed == printed and plan.at.keys() == at.keys() and all(
                    _same(plan.at[k], v) for k, v in at.items()):
                return plan
        return None

    def every_run(self) -> pd.DataFrame:
        """Return every run, kept and lost, kept first (an empty table of :data:`RUN_COLUMNS` when none ran)."""
        frames = [f for f in (self.runs, self.lost) if f is not None and len(f)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=RUN_COLUMNS)

    def cell_runs(self, **at) -> pd.DataFrame:
        """Return every run (kept and lost) whose parameters equal ``at`` (floats by ``np.isclose``)."""
        every = self.every_run()
        if not len(every):
            return every
        mask = np.ones(len(every), dtype=bool)
        for name, value in at.items():
            if name not in every.columns:
                raise ValueError(f"cell_runs: the runs have no parameter {name!r} (they have {list(every.columns)})")
            col = every[name]
            mask &= (np.isclose(col.astype(float), float(value)) if isinstance(value, (int, float, np.number))
                     and not isinstance(value, bool) else (col == value).to_numpy())
        return every[mask]

    def cell_fidelity(self, **at) -> dict | None:
        """Return the fidelity of the runs of one cell (:func:`cell_fidelity` of :meth:`cell_runs`), or None when
        no run has a fidelity record (nothing ran there)."""
        return cell_fidelity(self.cell_runs(**at))

    def lost_at(self, **at) -> int:
        """Return how many runs of the cell ``at`` lost their timing on every try."""
        runs = self.cell_runs(**at)
        return int(fidelity_columns(runs)["fidelity_kept"].eq(False).sum()) if len(runs) else 0


def _same(a, b) -> bool:
    """Return whether the parameter value ``a`` is ``b`` (floats by ``np.isclose``, others by ``==``), or one of
    ``b`` when ``b`` is a tuple (a cell whose runs span several values of one parameter, e.g. m users and 1)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(b, tuple):
        return any(_same(a, x) for x in b)
    if isinstance(a, (int, float, np.number)) and isinstance(b, (int, float, np.number)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return bool(np.isclose(float(a), float(b)))
    return a == b


@dataclass(frozen=True)
class MeasuredCell:
    """A published measurement that the real stacks measure again: what a paper's ``measured_cells`` returns.

    ``label`` names the ledger cell (source, column, row); ``at`` the sweep parameters of its runs (protocol and
    operating point, as the paper's ``points`` write them; a tuple: any of these values, as for a difference of two
    kinds of runs); ``printed`` the published value it is scored against; ``values`` one measurement per replication
    whose runs kept their timing (the quantity the ledger row's mean is of).
    """

    label: str
    at: dict
    printed: float
    values: tuple[float, ...]


@dataclass(frozen=True)
class CellPlan:
    """The replications of one published measurement measured again (:func:`paperlib.replications.measured_plan`):
    the cell (``label``, ``at``, ``printed``), the runs its pilot kept and the plan made from them."""

    label: str
    at: dict
    printed: float
    pilot_n: int
    plan: replications.Plan


def measured_plans(cells: list[MeasuredCell]) -> list[CellPlan]:
    """Return the plan of every cell (:data:`paperlib.replications.MEASURED_RULE`): from its pilot's spread and a 5%
    difference from the print where the pilot kept at least two runs (:func:`paperlib.replications.measured_plan`),
    else the same fixed replications with no spread to size from (:func:`paperlib.replications.unsized_plan`): a
    cell whose pilot lost its timing is brought to the rule's number like the others."""
    return [CellPlan(c.label, dict(c.at), float(c.printed), len(c.values),
                     replications.measured_plan(c.values, float(c.printed)) if len(c.values) >= 2
                     else replications.unsized_plan(float(c.printed)))
            for c in cells]


def second_stages(cells: list[MeasuredCell], plans: list[CellPlan]) -> list[CellPlan]:
    """Return ``plans`` (:func:`measured_plans` of the same cells, in their order) with the second stage of every
    cell whose ``values`` (the replications that kept their timing, once the plan ran) give an interval near an edge
    of the print's band (:func:`paperlib.replications.second_stage`)."""
    if [c.label for c in cells] != [p.label for p in plans]:
        raise ValueError("second_stages: the cells and the plans must be the same, in the same order; got "
                         f"{[c.label for c in cells]} and {[p.label for p in plans]}")
    return [replace(p, plan=replications.second_stage(p.plan, c.values, c.printed)) for c, p in zip(cells, plans,
                                                                                                     strict=True)]


def more_points(points: list[dict], plans: list[CellPlan], kept: pd.DataFrame) -> list[dict]:
    """Return the points that bring every planned cell to its plan's replications that kept their timing.

    A cell's runs are the ``points`` its ``at`` matches; they fall into groups that differ only in ``rep`` (one group
    for most cells; two for a difference, e.g. m users and 1). A group read by several plans runs the most any of
    them asks. A group short of it gets as many new repetitions as it lacks among ``kept`` (the runs that kept their
    timing), after its last ``rep`` among ``points`` (the points run so far): copies of its first point with ``rep``
    k, so new seeds (the sweep runner's seed hashes the parameters). The runs lost on the way are replaced once, in
    this one extension: no third round.
    """
    groups: dict[tuple, dict[int, dict]] = {}  # group -> rep -> point
    want: dict[tuple, int] = {}
    named: dict[tuple, set] = {}  # group -> the parameters its plans name (what its kept runs are counted by)
    for plan in plans:
        cell = [p for p in points if all(k in p and _same(p[k], v) for k, v in plan.at.items())]
        if not cell:
            raise ValueError(f"the plan of {plan.label} (at {plan.at}) matches no point of the sweep")
        for p in cell:
            key = tuple(sorted((k, repr(v)) for k, v in p.items() if k != "rep"))
            groups.setdefault(key, {})[int(p["rep"])] = p
            want[key] = max(want.get(key, 0), plan.plan.n)
            named.setdefault(key, set()).update(plan.at)
    out = []
    for key, group in groups.items():
        base = group[min(group)]
        have = len(Emulated("", runs=kept).cell_runs(**{k: base[k] for k in sorted(named[key])})) if len(kept) else 0
        first = max(group) + 1
        out.extend({**base, "rep": k} for k in range(first, first + max(0, want[key] - have)))
    return out


def plans_table(real_stacks: Emulated) -> pd.DataFrame:
    """Return the plans of ``real_stacks`` as the notebook shows them: per published measurement measured again,
    the pilot's runs and spread, the difference the test is sized for, the replications run and those the rule
    asks for (more than run when the cap binds); empty when nothing was planned."""
    columns = ["cell", "printed", "pilot runs", "pilot spread", "sized for", "replications", "needed by the rule"]
    return pd.DataFrame([{"cell": p.label, "printed": p.printed, "pilot runs": p.pilot_n, "pilot spread": p.plan.spread,
                          "sized for": p.plan.effect, "replications": p.plan.n, "needed by the rule": p.plan.n_needed}
                         for p in real_stacks.plans], columns=columns)


def fidelity_columns(runs: pd.DataFrame) -> pd.DataFrame:
    """Return one row per run with :data:`FIDELITY_COLUMNS`: whether it kept its timing, its tries (in all) and
    later passes (:mod:`paperlib.emulation.later_tries`), the emulator's
    worse-direction lateness p99, the applications' run-queue wait over their lives and during the transfer (the
    one the rule judges when known, :attr:`paperlib.emulation.fidelity.FidelityRecord.judged_wait_s`), its
    handshakes and the machine's CPU pressure."""
    rows = []
    for r in runs.to_dict("records"):
        rec = r.get("fidelity") or {}
        handshakes = experiments.handshakes_of(r) if "users" in r and "mode" in r else 1
        start, end = rec.get("transfer_start_s"), rec.get("transfer_end_s")
        transfer = end - start if start is not None and end is not None else rec.get("wall_s")
        rows.append({"fidelity_kept": r.get("fidelity_kept"), "fidelity_tries": r.get("fidelity_tries"),
                     "fidelity_passes": r.get("fidelity_passes"),
                     "lateness_p99_s": rec.get("worst_lateness_p99_s"), "app_wait_s": rec.get("app_wait_s"),
                     "app_wait_transfer_s": rec.get("app_wait_transfer_s"), "transfer_s": transfer,
                     "handshakes": handshakes, "cpu_pressure_fraction": rec.get("cpu_pressure_fraction")})
    return pd.DataFrame(rows, columns=FIDELITY_COLUMNS, index=runs.index)


def cell_fidelity(runs: pd.DataFrame) -> dict | None:
    """Return one ledger cell's fidelity from its runs (kept and lost), or None when none has a record.

    The keys of :func:`paperlib.emulation.fidelity.summarise` (so :func:`~paperlib.emulation.fidelity.describe`
    words it): ``runs``, ``runs_kept`` (by each run's own judgement, ``fidelity_kept``), the worst lateness p99 (s
    and as a fraction of the run's round trip), the median and largest applications' wait during the transfer as a
    share of its duration (the rule's figure) and per handshake as a fraction of the round trip, the mean CPU
    pressure; and ``tries``, the runs made in all (re-runs included).
    """
    if not len(runs) or "fidelity" not in runs.columns or runs["fidelity"].isna().all():
        return None
    f = fidelity_columns(runs)
    rtt = runs["rtt_s"].astype(float).to_numpy()
    late = f["lateness_p99_s"].astype(float).to_numpy() / rtt
    judged = f["app_wait_transfer_s"].astype(float).fillna(f["app_wait_s"].astype(float))  # as the rule judges it
    wait = np.sort(judged.to_numpy() / f["handshakes"].astype(float).to_numpy() / rtt)
    share = np.sort((judged / f["transfer_s"].astype(float)).dropna().to_numpy())
    pressure = f["cpu_pressure_fraction"].dropna().astype(float)
    late_s = f["lateness_p99_s"].dropna().astype(float)
    return {"runs": int(len(runs)), "runs_kept": int(f["fidelity_kept"].eq(True).sum()),
            "tries": int(f["fidelity_tries"].fillna(1).astype(int).sum()),
            "worst_lateness_p99_s": float(late_s.max()) if len(late_s) else None,
            "worst_lateness_p99_rtt_fraction": float(np.nanmax(late)) if np.isfinite(late).any() else None,
            "app_wait_transfer_fraction_median": float(np.median(share)) if share.size else None,
            "app_wait_transfer_fraction_max": float(share[-1]) if share.size else None,
            "app_wait_per_handshake_rtt_fraction_median": float(np.median(wait)),
            "app_wait_per_handshake_rtt_fraction_max": float(wait[-1]),
            "cpu_pressure_fraction_mean": float(pressure.mean()) if len(pressure) else None}


def split_kept(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (the runs that kept their timing, the runs that lost it), each re-indexed from 0."""
    if not len(runs) or "fidelity_kept" not in runs.columns:
        return runs.reset_index(drop=True), runs.iloc[0:0]
    kept = runs["fidelity_kept"].astype(bool).to_numpy()
    return runs[kept].reset_index(drop=True), runs[~kept].reset_index(drop=True)


def flat_runs(runs: pd.DataFrame, drop: tuple[str, ...] = ()) -> pd.DataFrame:
    """Return ``runs`` without their nested columns (link counters, provenance, fidelity record) and with the
    per-run fidelity figures (:func:`fidelity_columns`) beside them: what ``emulation_runs.csv`` holds."""
    nested = [c for c in ("link_stats", "provenance", "fidelity", "fidelity_broken", *drop) if c in runs.columns]
    flat = runs.drop(columns=nested + [c for c in FIDELITY_COLUMNS if c in runs.columns]).copy()
    return pd.concat([flat, fidelity_columns(runs)], axis=1)


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

    A module with ``measured_cells(paper, kept)`` (a :class:`MeasuredCell` per published measurement measured
    again, from the runs that kept their timing) has its points run as a pilot, each cell planned by
    :data:`paperlib.replications.MEASURED_RULE` (:func:`measured_plans`) and extended to its plan
    (:func:`more_points`); then a cell whose interval lies near an edge of the print's band runs its second stage
    (:func:`second_stages`, :data:`paperlib.replications.SECOND_STAGE_RULE`). The earlier runs come from the sweep
    cache each time.
    """
    profile = experiments.check_profile(profile)
    reason = not_run_reason(profile)
    if reason:
        return Emulated(profile, not_run=reason)
    pts = module.points(paper, profile)
    desc = f"{module.PAPER} emulated ({profile})"
    runs = experiments.run(pts, n_links=scheduler_links, desc=desc)
    kept, lost = split_kept(runs)
    plans = []
    if hasattr(module, "measured_cells"):
        plans = measured_plans(module.measured_cells(paper, kept))
        pts, runs = _extended(pts, runs, more_points(pts, plans, kept), scheduler_links,
                              f"{desc}, to the planned replications")
        kept, lost = split_kept(runs)
        plans = second_stages(module.measured_cells(paper, kept), plans)
        pts, runs = _extended(pts, runs, more_points(pts, plans, kept), scheduler_links,
                              f"{desc}, second stage of the cells near an edge of the print's band")
        kept, lost = split_kept(runs)
    flat = flat_runs(runs)
    for col in ("t_start", "t_done", "user", "object"):
        flat[col] = flat[col].map(lambda v: " ".join(f"{x:.6f}" if isinstance(x, float) else str(x) for x in v))
    atomic_write_csv(Path(out) / "emulation_runs.csv", flat)
    return Emulated(profile, pts, kept, lost=lost, plans=plans)


def _extended(pts: list[dict], runs: pd.DataFrame, extra: list[dict], scheduler_links: int | None,
              desc: str) -> tuple[list[dict], pd.DataFrame]:
    """Return ``pts`` with ``extra`` after them and the runs of them all (the earlier ones from the sweep cache), or
    ``pts`` and ``runs`` as they are when there is nothing extra to run."""
    if not extra:
        return pts, runs
    pts = [*pts, *extra]
    return pts, experiments.run(pts, n_links=scheduler_links, desc=desc)


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
    """Return the re-judged claims (column 'emulated (real stacks)') as a small table: the claim, its verdict, how
    its real-stack column came about (the structured ``emulation`` column: ran, or why not) and its reason."""
    sel = [r for r in rows if r.column == ledger_rows.REAL_STACKS]
    return pd.DataFrame({"claim": [r.row for r in sel], "verdict on real stacks": [r.status for r in sel],
                         "emulation": [r.emulation for r in sel], "measure": [r.reason for r in sel]})


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
