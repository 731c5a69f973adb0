"""Simulate functions for tests/test_sweep.py, in their own module so Dask worker processes can import them.

Each takes ``(params, seed)`` and returns a dict, as :func:`paperlib.sweep.run_sweep` expects.
Functions given a ``log`` parameter append one line per call to that file, so a test can count
the calls made (by any process). The files named by ``log``, ``mark`` and ``gate`` are the tests'
instruments (worker and test on one machine); the sweep runner itself never shares a file with a worker.
"""

import ctypes
import ctypes.util
import os
import random
import time


def _log(params: dict) -> None:
    if "log" in params:
        with open(params["log"], "a", encoding="utf-8") as fh:
            fh.write(f"{params['x']}\n")


def _wait_for_others(params: dict) -> None:
    """Block until the ``log`` file holds ``wait_for_others`` lines (other points finished), or fail after 120 s.

    An ordering by events, not by durations: the point runs only after others have, whatever the speeds.
    """
    need = params.get("wait_for_others", 0)
    deadline = time.monotonic() + 120
    while need:
        try:
            with open(params["log"], encoding="utf-8") as fh:
                if len(fh.read().split()) >= need:
                    return
        except FileNotFoundError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"no other point finished within 120 s: {params}")
        time.sleep(0.01)


def square(params: dict, seed: int) -> dict:
    """Return x squared, the seed seen, a list and a label (one of each result type)."""
    _wait_for_others(params)
    _log(params)
    x = params["x"]
    return {"y": x * x, "seed_seen": seed, "trace": [x, x + 0.5], "label": f"x={x}"}


def fails_at_two(params: dict, seed: int) -> dict:
    """Return x, or raise ValueError at x == 2."""
    _log(params)
    if params["x"] == 2:
        raise ValueError("x must not be 2")
    return {"y": params["x"]}


def sweep_cost(params: dict) -> float:
    """Return the estimated cost of a point of :func:`square`: x (the sweep runner starts the largest first)."""
    return float(params["x"])


def _wait_for_gate(params: dict) -> None:
    """Block until the file ``params["gate"]`` exists, or fail after 120 s (so a forgotten point ends)."""
    deadline = time.monotonic() + 120
    while not os.path.exists(params["gate"]):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the gate {params['gate']} did not open within 120 s")
        time.sleep(0.02)


def _seeded(params: dict, seed: int) -> dict:
    """Return results that depend on the seed: x squared and three draws of a generator seeded with ``seed``."""
    rng = random.Random(seed)
    return {"y": params["x"] ** 2, "draws": [rng.random() for _ in range(3)]}


def gated(params: dict, seed: int) -> dict:
    """Return :func:`_seeded`'s results; points with ``"gated": True`` first wait for the gate file."""
    if params.get("gated"):
        _wait_for_gate(params)
    _log(params)
    return _seeded(params, seed)


def held_on_first_attempt(params: dict, seed: int) -> dict:
    """Return :func:`_seeded`'s results; the first attempt of the point with ``"mark"`` hangs until the gate opens.

    Each attempt appends its process id to the file ``params["mark"]``, so a test knows which worker
    runs the point and can kill it there; a later attempt (on another worker) returns at once.
    """
    if "mark" in params:
        with open(params["mark"], "a+", encoding="utf-8") as fh:
            fh.seek(0)
            first = not fh.read().split()
            fh.write(f"{os.getpid()}\n")
        if first:
            _wait_for_gate(params)
    _log(params)
    return _seeded(params, seed)


def holds_the_gil(params: dict, seed: int) -> dict:
    """Return :func:`_seeded`'s results after holding the GIL for ``params["hold_s"]`` whole seconds.

    libc's ``sleep`` called through ``ctypes.PyDLL`` keeps the GIL, as ns-3's event loop does when
    Python calls it: the worker's other threads (its heartbeats to the scheduler) cannot run meanwhile.
    """
    ctypes.PyDLL(ctypes.util.find_library("c")).sleep(int(params["hold_s"]))
    return _seeded(params, seed)


def timing_lost_until(params: dict, seed: int) -> dict:
    """A real-stack point stand-in: its ``log`` file gets one line per call; the call keeps its timing from the
    ``keeps_from``-th call of its ``x`` on (1: the first; 0: never), and returns the seed and its call number."""
    _log(params)
    with open(params["log"], encoding="utf-8") as fh:
        call = fh.read().split().count(str(params["x"]))
    keeps_from = params.get("keeps_from", 1)
    return {"seed_seen": seed, "call": call, "fidelity_kept": bool(keeps_from) and call >= keeps_from,
            "fidelity_tries": 3}
