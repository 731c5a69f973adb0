"""Later passes of a real-stack sweep: a point that lost its timing in all its tries runs again after the others.

A real-stack point function re-runs a run that breaks the fidelity rule up to
:data:`paperlib.emulation.experiments.FIDELITY_TRIES` times, at once (:func:`paperlib.emulation.fidelity.run_kept`).
Tries made back to back share whatever made the first lose its timing (another process's burst of CPU, the
host's stolen time), so a point can lose all of them and its cell keep fewer runs in one run of the package than
in the next. :func:`run_sweep_kept` runs the sweep, then runs each point whose result lost its timing again,
after all the sweep's other points, with the same parameters and seed, up to :data:`LATER_PASSES` times; the
first pass that keeps its timing replaces the point's result (else the last pass's does). The rule does not look
at what a run measured, only at its fidelity record, so the passes cannot chase a result.

Each later pass is a point of its own in the sweep cache (:func:`later_point`, keyed by the point, its seed, the
pass and the sweep's code version), so a rerun reads it back as it reads the sweep's other points. The result
says what happened: ``fidelity_passes`` (later passes made, 0 for a point kept on its first pass) and
``fidelity_tries`` (the runs made in all, over every pass).
"""

from __future__ import annotations

import importlib

import pandas as pd

from paperlib import sweep
from paperlib.validate import ParameterError

#: Later passes of a point that lost its timing in all the tries of its first pass.
LATER_PASSES = 2
#: The parameter of a later pass's point: what it runs again (:func:`later_point`).
LATER = "later_pass"


def function_name(fn) -> str:
    """Return ``fn``'s importable name, ``module:qualname`` (a module-level function, as the sweep runner needs)."""
    name = f"{fn.__module__}:{fn.__qualname__}"
    if "<" in name:
        raise ParameterError(f"the point function must be a module-level function, got {name}")
    return name


def _resolve(name: str):
    module, _, qualname = name.partition(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _lost(row: dict) -> bool:
    kept = row.get("fidelity_kept")
    return kept is not None and not pd.isna(kept) and not bool(kept)


def later_point(params: dict, seed: int) -> dict:
    """Run one later pass of a point: ``params[LATER]`` holds the point function's name (:func:`function_name`),
    the point's own parameters and seed, and the pass; the sweep's seed of this wrapper point is not used."""
    spec = params[LATER]
    return _resolve(spec["fn"])(spec["params"], int(spec["seed"]))


def run_sweep_kept(point_fn, points: list[dict], *, code_version: str, passes: int = LATER_PASSES,
                   desc: str | None = None, **sweep_options) -> pd.DataFrame:
    """Return :func:`paperlib.sweep.run_sweep`'s frame of ``point_fn`` over ``points``, each point whose result
    lost its timing (``fidelity_kept`` false) run again after the sweep, same parameters and seed, up to
    ``passes`` times (:mod:`this module's <paperlib.emulation.later_tries>` rule), with ``fidelity_passes`` added.

    ``code_version`` and ``sweep_options`` (``cache_dir``, ``scheduler``, ``n_workers``, ``progress``) go to every
    pass's sweep; ``desc`` labels the first, and the later ones "<desc>, later pass k". A result without
    ``fidelity_kept`` is left as it is (``fidelity_passes`` 0).
    """
    if isinstance(passes, bool) or not isinstance(passes, int) or passes < 0:
        raise ParameterError(f"passes must be a whole number >= 0, got {passes!r}")
    frame = sweep.run_sweep(point_fn, points, code_version=code_version, desc=desc, **sweep_options)
    attrs = dict(frame.attrs)
    rows = frame.to_dict("records")
    for row in rows:
        row["fidelity_passes"] = 0
    name = function_name(point_fn)
    for k in range(1, passes + 1):
        lost = [i for i, row in enumerate(rows) if _lost(row)]
        if not lost:
            break
        again = [{LATER: {"fn": name, "pass": k, "seed": int(rows[i]["seed"]), "params": points[i]}} for i in lost]
        later = sweep.run_sweep(later_point, again, code_version=code_version,
                                desc=f"{desc or name}, later pass {k}", **sweep_options)
        for i, result in zip(lost, later.drop(columns=[LATER, "seed"]).to_dict("records"), strict=True):
            tries = int(rows[i].get("fidelity_tries") or 0) + int(result.get("fidelity_tries") or 0)
            rows[i] = {**rows[i], **result, "fidelity_tries": tries, "fidelity_passes": k}
    out = pd.DataFrame(rows, columns=[*frame.columns, "fidelity_passes"])
    out.attrs = attrs
    return out
