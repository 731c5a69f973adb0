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


def square(params: dict, seed: int) -> dict:
    """Return x squared, the seed seen, a list and a label (one of each result type)."""
    time.sleep(params.get("delay", 0))
    _log(params)
    x = params["x"]
    return {"y": x * x, "seed_seen": seed, "trace": [x, x + 0.5], "label": f"x={x}"}


def fails_at_two(params: dict, seed: int) -> dict:
    """Return x, or raise ValueError at x == 2."""
    _log(params)
    if params["x"] == 2:
        raise ValueError("x must not be 2")
    return {"y": params["x"]}
