"""The closing table of ``make reproduce``: time per paper, ledger rows by status, where the outputs are.

``python -m paperlib.run_summary --run-id ID --since EPOCH --papers 000 001 ... --ledger figures/ledger.csv``

A paper's line comes from its record in ``.cache/run-times/`` (:mod:`paperlib.run_progress`): run by this
invocation (same ``run_id``: done or FAILED, with its time) or not (up to date, nothing was run).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from paperlib.run_progress import TIMES_DIR, duration, read_record

#: Where make reproduce puts what it makes (shown under the table).
OUTPUTS = (
    ("figures/<paper>/", "each paper's tables (CSV), figures (PNG), ledger rows and provenance"),
    ("figures/executed/", "the executed notebooks"),
    ("figures/ledger.csv", "every published number against the regenerated one, with its status"),
    ("figures/ledger-summary.md", "the ledger's rows by paper and status"),
    ("figures/logs/<paper>.log", "each paper's full output (notebook runner, kernel, simulators)"),
)


def paper_rows(papers: list[str], run_id: str | None, times_dir: Path = TIMES_DIR,
               log_dir: str = "figures/logs") -> list[tuple[str, str, str, str]]:
    """Return (paper, outcome, time, log) for each of ``papers`` and every other run recorded under ``run_id``."""
    names = list(papers)
    if run_id is not None and Path(times_dir).is_dir():
        names += sorted(p.stem for p in Path(times_dir).glob("*.json")
                        if p.stem not in names and (read_record(p.stem, times_dir) or {}).get("run_id") == run_id)
    rows = []
    for paper in sorted(names):
        record = read_record(paper, times_dir)
        log = f"{log_dir}/{paper}.log"
        if record is None or run_id is None or record.get("run_id") != run_id:
            rows.append((paper, "up to date", "-", log))
        else:
            rows.append((paper, "done" if record.get("ok") else "FAILED", duration(record["seconds"]), log))
    return rows


def status_counts(ledger: Path) -> dict[str, dict[str, int]] | None:
    """Return the number of ledger rows per paper and status (statuses in :data:`paperlib.ledger.STATUSES` order).

    The key ``"all"`` holds the whole ledger's counts; None if there is no ledger.
    """
    from paperlib.ledger import status_counts as count

    try:
        with open(ledger, newline="") as fh:
            rows = [(row["paper"], row["status"]) for row in csv.DictReader(fh)]
    except FileNotFoundError:
        return None
    return {paper: count(s for p, s in rows if paper in ("all", p)) for paper in ["all", *sorted({p for p, _ in rows})]}


def quick_note(ledger: Path) -> str | None:
    """Return :func:`paperlib.profiles.quick_note` of the ledger at ``ledger`` (None when no row is the quick
    profile's, or the file is not a ledger)."""
    from paperlib import ledger as ledger_file
    from paperlib import profiles

    try:
        frame = ledger_file.read(ledger)
    except (OSError, ValueError):
        return None
    return profiles.quick_note(frame, str(ledger))


def counts_text(counts: dict[str, int] | None) -> str:
    """Return ``{"reproduced": 2, "close": 1}`` as ``"3: 2 reproduced, 1 close"`` (``"-"`` for no rows)."""
    if not counts:
        return "-"
    from paperlib.ledger import status_text

    return f"{sum(counts.values())}: " + status_text(counts)


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> list[str]:
    """Return ``rows`` under ``header`` as left-aligned text columns, two spaces apart."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]


def summary(papers: list[str], run_id: str | None, ledger: Path, since: float | None = None,
            times_dir: Path = TIMES_DIR, now: float | None = None) -> str:
    """Return the closing summary as text (see the module docstring)."""
    rows = paper_rows(papers, run_id, times_dir)
    counts = status_counts(ledger)
    lines = [""]
    wall = "" if since is None else f" in {duration((now if now is not None else time.time()) - since)}"
    ran = sum(1 for r in rows if r[1] != "up to date")
    failed = [r[0] for r in rows if r[1] == "FAILED"]
    lines.append(f"make reproduce {'FAILED' if failed else 'finished'}{wall}: "
                 f"{ran} notebook run(s), {len(rows) - ran} up to date"
                 + (f"; failed: {', '.join(failed)}" if failed else ""))
    table_rows = [(paper, outcome, took, counts_text((counts or {}).get(paper))) for paper, outcome, took, _ in rows]
    lines += ["  " + line for line in table(table_rows, ("paper", "outcome", "time", "ledger rows by status"))]
    if counts is None:
        lines.append(f"ledger: {ledger} was not written")
    else:
        lines.append(f"ledger: {ledger}, {counts_text(counts['all']).replace(':', ' rows:', 1)}")
        quick = quick_note(ledger)
        if quick:
            lines.append(f"  {quick}")
    lines.append("outputs:")
    width = max(len(p) for p, _ in OUTPUTS)
    lines += [f"  {path.ljust(width)}  {what}" for path, what in OUTPUTS]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the closing summary (see the module docstring); return 0."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.run_summary", description=__doc__.splitlines()[0])
    parser.add_argument("--papers", nargs="+", required=True, help="the papers' ids")
    parser.add_argument("--run-id", help="the invocation's WEBPERF_RUN_ID (papers recorded with another ran before)")
    parser.add_argument("--since", type=float, help="the invocation's start, seconds since the epoch")
    parser.add_argument("--ledger", type=Path, default=Path("figures/ledger.csv"))
    parser.add_argument("--times-dir", type=Path, default=TIMES_DIR, help="where run_progress keeps the runs' times")
    args = parser.parse_args(argv)
    print(summary(args.papers, args.run_id, args.ledger, args.since, times_dir=args.times_dir), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
