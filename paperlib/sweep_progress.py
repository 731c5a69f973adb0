"""A sweep's progress, from the sweep runner in a notebook's kernel to the terminal of ``make reproduce``.

:func:`paperlib.run_progress.run` names a file in the environment (:data:`PROGRESS_FILE`) for each paper it runs;
every :func:`paperlib.sweep.run_sweep` call in that paper's process tree that has points to compute appends one
line of JSON to it per event (:class:`SweepProgress`): as it starts, as each point is done and as it ends. A line
is written in one ``write`` on a file opened for appending, so lines from several sweeps never interleave.
:class:`ProgressFeed` reads the lines as they come (a line not yet ended is left for the next read; one that is
not an event is skipped). Outside such a run (no :data:`PROGRESS_FILE` in the environment) nothing is written.

An event is ``{"event": "start" | "point" | "end", "id", "sweep", "planned", "cached", "done", "workers",
"left_s", "t"}``: the sweep's id (unique in the run) and name, its points, those read from the cache (done at
once), those done so far (cached included), how many run at once, the estimated wall seconds left
(:func:`time_left_s`, None when nothing was timed yet) and the wall-clock time of the event (``time.time()``).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from pathlib import Path

#: The environment variable naming the file to which each sweep of a paper's run appends its progress events.
PROGRESS_FILE = "WEBPERF_SWEEP_PROGRESS"
#: The kinds of event a sweep writes.
EVENTS = ("start", "point", "end")

_ids = itertools.count(1)


def time_left_s(costs: Sequence[float], known_s: Sequence[float | None], timed: Sequence[tuple[float, float]],
                workers: int) -> float | None:
    """Return the estimated wall seconds until the remaining points of a sweep are done, or None if unknown.

    Parameters
    ----------
    costs : each remaining point's relative cost (the simulating module's ``sweep_cost``, or 1 for every point).
    known_s : each remaining point's wall seconds in an earlier run of the same point (same parameters and seed,
        any code version), or None.
    timed : ``(cost, wall seconds)`` of the points timed so far; they set the rate, seconds per unit of cost:
        sum of seconds / sum of costs.
    workers : how many points run at once.

    Assumes: a point without an earlier run takes its cost times the rate (a point's time in proportion to its
    cost); the remaining points share ``min(workers, len(costs))`` workers evenly. None when such a point has no
    rate to go by (nothing timed, or timed points of zero cost). 0.0 when no point remains.
    """
    if len(costs) != len(known_s):
        raise ValueError(f"known_s: one entry per remaining point expected ({len(costs)}), got {len(known_s)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    if not costs:
        return 0.0
    total_cost = sum(c for c, _ in timed)
    rate = sum(s for _, s in timed) / total_cost if total_cost > 0 else None
    seconds = 0.0
    for cost, known in zip(costs, known_s, strict=True):
        if known is not None:
            seconds += known
        elif rate is None:
            return None
        else:
            seconds += cost * rate
    return seconds / min(workers, len(costs))


class SweepProgress:
    """One sweep's progress events, appended to ``path`` (see the module docstring).

    ``remaining``: index -> (cost, seconds of an earlier run of that point or None) of each point to compute;
    ``timed``: ``(cost, seconds)`` of points timed before this sweep, the rate until one of its own is done
    (:func:`time_left_s`); ``costs``: index -> cost of this sweep's points, for those done here.
    """

    def __init__(self, path: Path | str, name: str, planned: int, cached: int,
                 remaining: dict[int, tuple[float, float | None]], timed: Sequence[tuple[float, float]]):
        self.path, self.name, self.planned, self.cached = Path(path), name, planned, cached
        self.remaining = dict(remaining)
        self.earlier = list(timed)
        self.own: list[tuple[float, float]] = []
        self.costs = {i: cost for i, (cost, _) in remaining.items()}
        self.workers = 1
        self.id = f"{os.getpid()}.{next(_ids)}"

    @property
    def done(self) -> int:
        """Return the points done so far, those read from the cache included."""
        return self.planned - len(self.remaining)

    def left_s(self) -> float | None:
        """Return the estimated wall seconds left: this sweep's own points set the rate once one is done."""
        values = list(self.remaining.values())
        return time_left_s([c for c, _ in values], [k for _, k in values], self.own or self.earlier, self.workers)

    def _write(self, event: str, now: float) -> None:
        left = self.left_s()
        line = json.dumps({"event": event, "id": self.id, "sweep": self.name, "planned": self.planned,
                           "cached": self.cached, "done": self.done, "workers": self.workers,
                           "left_s": None if left is None else round(left, 1), "t": round(now, 3)}) + "\n"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line)

    def start(self, workers: int, now: float) -> None:
        """Note that the sweep starts its points on ``workers`` workers at ``now`` (``time.time()``)."""
        self.workers = max(1, int(workers))
        self._write("start", now)

    def point_done(self, index: int, wall_s: float, now: float) -> None:
        """Note that point ``index`` is done, after ``wall_s`` seconds on its worker."""
        self.remaining.pop(index, None)
        self.own.append((self.costs.get(index, 1.0), float(wall_s)))
        self._write("point", now)

    def end(self, now: float) -> None:
        """Note that the sweep has all its points."""
        self._write("end", now)


def progress_path() -> Path | None:
    """Return the progress file this process's run names in the environment, or None outside such a run."""
    path = os.environ.get(PROGRESS_FILE)
    return Path(path) if path else None


def _event(line: bytes) -> dict | None:
    """Return the event a line holds, or None if it is not one (see the module docstring)."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if not isinstance(event, dict) or event.get("event") not in EVENTS:
        return None
    whole = ("planned", "cached", "done", "workers")
    if not (isinstance(event.get("id"), str) and isinstance(event.get("sweep"), str)
            and all(isinstance(event.get(k), int) and not isinstance(event.get(k), bool) for k in whole)
            and event["planned"] >= 1 and 0 <= event["cached"] <= event["done"] <= event["planned"]
            and isinstance(event.get("t"), (int, float))
            and (event.get("left_s") is None or isinstance(event["left_s"], (int, float)))):
        return None
    return event


class ProgressFeed:
    """The events appended to a progress file, read as they come (:meth:`read`)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.offset = 0
        self.partial = b""
        self.skipped = 0

    def read(self) -> list[dict]:
        """Return the events of the lines ended since the last read, in order; skip (and count) lines that are not
        events. A missing file has none yet."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read()
        except FileNotFoundError:
            return []
        self.offset += len(data)
        *lines, self.partial = (self.partial + data).split(b"\n")
        events = []
        for line in lines:
            event = _event(line)
            if event is None:
                self.skipped += 1
            else:
                events.append(event)
        return events
