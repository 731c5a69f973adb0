"""Where the workers of ``make test`` spent the run: a summary of a timeline that tests/conftest.py wrote.

Run the suite with ``WEBPERF_TEST_TIMELINE=<file>`` set (``WEBPERF_TEST_TIMELINE=/tmp/t.tsv make test``), then
``python tools/timeline_summary.py /tmp/t.tsv``. Each line of the file is one test: worker, when it asked for its turn
(tests/conftest.py's lock of the ``exclusive`` tests), when it started and ended (s since the epoch), whether it is
exclusive, its node id. Per worker the summary gives the time spent in tests, waiting for a turn (the other worker
ran an exclusive test, or this one waited to run one alone), and between tests (collection, fixtures of a module
made outside a test, the end of the run after the worker's last test); then the longest waits and the tests that
ran alone, longest first.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    """One test of the timeline (times in s since the epoch)."""

    worker: str
    asked: float
    started: float
    ended: float
    exclusive: bool
    nodeid: str


def read(path: Path) -> list[Entry]:
    """Return the timeline's tests in the order they started; a malformed line is an error naming its number."""
    entries = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 6:
            raise ValueError(f"{path}, line {number}: expected 6 tab-separated fields, got {len(fields)}")
        try:
            asked, started, ended = (float(f) for f in fields[1:4])
        except ValueError:
            raise ValueError(f"{path}, line {number}: the times are not numbers: {fields[1:4]}") from None
        entries.append(Entry(fields[0], asked, started, ended, fields[4] == "1", fields[5]))
    return sorted(entries, key=lambda e: e.started)


def summary(entries: list[Entry], top: int = 10) -> str:
    """Return the summary described in the module docstring as lines of text."""
    if not entries:
        return "the timeline is empty"
    begin, end = min(e.asked for e in entries), max(e.ended for e in entries)
    lines = [f"{len(entries)} tests, {end - begin:.1f} s from the first test's turn to the last test's end"]
    for worker in sorted({e.worker for e in entries}):
        mine = [e for e in entries if e.worker == worker]
        running = sum(e.ended - e.started for e in mine)
        waiting = sum(e.started - e.asked for e in mine)
        alone = sum(e.ended - e.started for e in mine if e.exclusive)
        between = (end - begin) - running - waiting
        lines.append(f"  {worker}: {len(mine)} tests, {running:.1f} s in tests ({alone:.1f} s of them alone), "
                     f"{waiting:.1f} s waiting for a turn, {between:.1f} s between tests or after its last")
    lines.append(f"longest waits for a turn (top {top}):")
    for e in sorted(entries, key=lambda e: e.asked - e.started)[:top]:
        lines.append(f"  {e.started - e.asked:7.1f} s  {e.worker}  {e.nodeid}")
    lines.append(f"tests that ran alone, longest first (top {top}):")
    for e in sorted((e for e in entries if e.exclusive), key=lambda e: e.started - e.ended)[:top]:
        lines.append(f"  {e.ended - e.started:7.1f} s  {e.nodeid}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the summary of the timeline named on the command line; return the exit status (2: unreadable)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("timeline", type=Path, help="the file WEBPERF_TEST_TIMELINE named")
    parser.add_argument("--top", type=int, default=10, help="how many of the longest waits and lone tests to list")
    args = parser.parse_args(argv)
    try:
        print(summary(read(args.timeline), args.top))
    except (OSError, ValueError) as err:
        print(f"timeline_summary: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
