"""Simulate functions for tests/test_sweep.py, in their own module so Dask worker processes can import them.

Each takes ``(params, seed)`` and returns a dict, as :func:`paperlib.sweep.run_sweep` expects.
Functions given a ``log`` parameter append one line per call to that file, so a test can count
the calls made (by any process).
"""

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
