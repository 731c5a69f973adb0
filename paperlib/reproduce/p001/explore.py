"""Paper 001's explorer: response-time distributions of the testbed by queue, load and latency, from cached sweeps.

It runs no simulation: it reads the results the 001 notebook's sweeps left in the sweep cache
(``.cache/sweeps/paperlib.sim.web_testbed.simulate/*.json``, one JSON entry per run, written by
:func:`paperlib.sweep.run_sweep`) and draws the CDF of the response times, pooled over the
repetitions, of every configuration of one queue group (the FIFO sizes, RED at 480 packets, RED at
240: :func:`paperlib.reproduce.p001.findings.groups`) at one load and latency set. Without any
cached result it raises :class:`paperlib.explore.NoData` saying to run the notebook first.

Which runs are pooled: the cache may hold several experiments (the scaled and the full profile,
the parametric workload, the other reading of Table 2, the scale check's shorter runs, tests' tiny
runs). Runs are told apart by their *run* (workload, bottleneck rate, run length and Table 2
reading), a choice of the explorer, the run with most results first. Within a run, all
configurations at a load and latency set share one browser count (common random numbers); runs
with another count (Table 3's printed counts) are left out. Only results of the current code version
of the simulator are read (the sweep cache's own key), so an edit of the testbed never shows stale
distributions.

The paper's two absolute readings of its FIFO CDFs (90 % of responses below about 500 ms, short
latency, and 1200 ms, long, at 80 % load: ``data/001/claims.csv``) show as points where they apply.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from paperlib import sweep
from paperlib.data import load_paper
from paperlib.explore import Axis, Curves, Explorer, NoData, log_grid
from paperlib.figures import color, sequence_style
from paperlib.reproduce.p001.findings import groups, printed_80_percentiles
from paperlib.reproduce.p001.testbed import LATENCY_SETS, queue_configs

#: The sweep cache the 001 notebook fills (its ``cache_dir`` default, from the repository's root).
CACHE_DIR = Path(__file__).resolve().parents[3] / ".cache" / "sweeps"
#: The simulator whose results are read (the cache's folder is named after it).
SIMULATOR = "paperlib.sim.web_testbed.simulate"
#: Response-time axis of the CDFs (ms).
RESPONSE_MS = (10.0, 1e5)
#: Names of the queue groups in the explorer's menu.
GROUP_NAMES = {"fifo": "FIFO (60, 120, 180 packets)", "red480": "RED A/B/C, 480 packets",
               "red240": "RED A/B/C, 240 packets"}


def _code_version() -> str:
    """Return the code version the sweep cache files the simulator's current results under."""
    from paperlib.sim import web_testbed

    return sweep.code_version(web_testbed.simulate)


def run_label(params: dict) -> str:
    """Return the name of the run a cached point belongs to: workload, bottleneck, run length, Table 2 reading."""
    return (f"{params.get('workload', 'default')} workload, {float(params['bottleneck_bps']) / 1e6:g} Mbit/s, "
            f"{float(params['sim_time_s']):g} s, {params.get('latency_reading', 'rtt')} reading")


def cached_runs(cache_dir: Path | str = CACHE_DIR, code_version: str | None = None) -> list[dict]:
    """Return the cached testbed results with response times: ``{"run", "config", "load", "latency", "browsers",
    "response_s"}`` each, of ``code_version`` (default: the simulator's current one); entries that fail their
    schema or checksum are skipped."""
    version = _code_version() if code_version is None else code_version
    out = []
    for entry in sweep.read_entries(Path(cache_dir) / SIMULATOR, version):
        params, result = entry.get("params", {}), entry["result"]
        if not {"config", "load", "latency", "browsers"} <= set(params) or "response_s" not in result:
            continue
        out.append({"run": run_label(params), "config": params["config"], "load": float(params["load"]),
                    "latency": params["latency"], "browsers": int(params["browsers"]),
                    "response_s": result["response_s"]})
    return out


def distributions(runs: list[dict]) -> dict[tuple, np.ndarray]:
    """Return ``(run, config, load, latency)`` -> sorted response times (ms), pooled over repetitions.

    Within a run, the browser count of a (load, latency) is the one most configurations share;
    results at another count are left out (module docstring).
    """
    counts = defaultdict(Counter)
    for r in runs:
        counts[(r["run"], r["load"], r["latency"])][(r["browsers"], r["config"])] += 1
    shared = {}
    for key, by_count in counts.items():
        configs_per_count = Counter(b for b, _ in by_count)
        shared[key] = max(configs_per_count, key=lambda b: (configs_per_count[b], -b))
    pooled = defaultdict(list)
    for r in runs:
        if r["browsers"] == shared[(r["run"], r["load"], r["latency"])]:
            pooled[(r["run"], r["config"], r["load"], r["latency"])].append(np.asarray(r["response_s"], dtype=float))
    return {k: np.sort(np.concatenate(v)) * 1e3 for k, v in pooled.items() if sum(len(a) for a in v)}


def load_label(load: float) -> str:
    """Return a load as the menu shows it (``0.8`` -> ``"80 %"``)."""
    return f"{100 * load:g} %"


def explorer(cache_dir: Path | str = CACHE_DIR, code_version: str | None = None) -> Explorer:
    """Return the explorer of paper 001's response-time CDFs over the cached sweep results in ``cache_dir``."""
    dists = distributions(cached_runs(cache_dir, code_version))
    if not dists:
        raise NoData(f"no cached 001 testbed results in {Path(cache_dir) / SIMULATOR} (of the simulator's current "
                     f"code version): run `make reproduce` or the 001 notebook first; this explorer reads their "
                     f"sweeps and runs no simulation")
    paper = load_paper("001")
    readings = printed_80_percentiles(paper)
    size = Counter(k[0] for k in dists)
    runs = tuple(sorted(size, key=lambda r: (-size[r], r)))
    present = {k[1] for k in dists}
    in_paper_order = [c for c in queue_configs(paper) if c in present]
    menu = {GROUP_NAMES[g]: names for g, names in groups(in_paper_order).items() if names}
    loads = {load_label(k[2]): k[2] for k in sorted(dists, key=lambda k: k[2])}
    latencies = tuple(lat for lat in LATENCY_SETS if any(k[3] == lat for k in dists))
    axes = {"response time": Axis(None, "response time (ms)", True, log_grid(*RESPONSE_MS))}

    def evaluate(axis, v):
        x = axes[axis].grid()
        load = loads[v["load"]]
        names = menu[v["queue"]]
        lines = []
        for i, name in enumerate(names):
            samples = dists.get((v["run"], name, load, v["latency"]))
            if samples is None:
                continue
            kw = {k: val for k, val in sequence_style(i, len(names), name).items() if k not in ("marker", "markersize")}
            lines.append((kw, np.searchsorted(samples, x, side="right") / samples.size))
        points = []
        if names == menu.get(GROUP_NAMES["fifo"]) and np.isclose(load, 0.8):  # the paper reads its FIFO CDFs at 80 %
            points.append(({"color": color("fifo"), "marker": "o", "linestyle": "none", "markersize": 7,
                            "label": "paper: 90 % of responses below (FIFO, 80 %)"},
                           np.array([readings[v["latency"]]]), np.array([0.9])))
        return Curves(x, lines, points)

    return Explorer("001", "Paper 001: response-time CDFs on the simulated testbed (cached sweeps)", "CDF",
                    {}, axes, evaluate,
                    choices={"queue": tuple(menu), "load": tuple(loads), "latency": latencies, "run": runs},
                    ylim=(0.0, 1.02))
