"""The reproduction ledger: one row per published result and per stated claim.

Each notebook builds its rows with :func:`result_row` / :func:`claim_row` and
writes them with :func:`write_partial` to ``figures/<paper>/ledger.csv``;
``python -m paperlib.ledger merge`` joins the partial ledgers into
``figures/ledger.csv`` and writes the human summary ``figures/ledger-summary.md``.

Statuses (DEVELOPERS.md):

* ``reproduced``: equal at the published precision, under the paper's one
  documented rounding rule;
* ``close``: within 5% (relative to the published value);
* ``differs``: further off;
* ``not_regenerable``: cannot be regenerated here (``regenerated`` then holds the
  best honest figure, if any, and ``reason`` says what it is);
* for claims: ``supported`` / ``refuted`` / ``untestable``.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path

import pandas as pd

from paperlib.atomic import atomic_write_csv, atomic_write_text
from paperlib.data import PAPERS
from paperlib.provenance import Stamp
from paperlib.rounding import matches_printed, printed_decimals

FIGURES_DIR = Path(__file__).resolve().parent.parent / "figures"

RESULT_STATUSES = ("reproduced", "close", "differs", "not_regenerable")
CLAIM_STATUSES = ("supported", "refuted", "untestable")
STATUSES = RESULT_STATUSES + CLAIM_STATUSES
CLOSE = 0.05

COLUMNS = ("paper", "source", "row", "column", "published", "regenerated", "rel_error", "status", "reason")
PROVENANCE_COLUMNS = ("commit", "dirty", "notebook", "parameters", "seed", "environment")
ALL_COLUMNS = COLUMNS + PROVENANCE_COLUMNS


class LedgerError(ValueError):
    """A malformed ledger row or file."""


@dataclass(frozen=True)
class Row:
    paper: str
    source: str
    row: str
    column: str
    published: str
    regenerated: str
    rel_error: str
    status: str
    reason: str

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise LedgerError(f"paper must be one of {PAPERS}, got {self.paper!r}")
        if self.status not in STATUSES:
            raise LedgerError(f"status must be one of {STATUSES}, got {self.status!r}")
        if not self.reason.strip() and self.status not in ("reproduced",):
            raise LedgerError(f"a {self.status!r} row needs a reason ({self.source} {self.row} {self.column})")


def format_value(value: float | None, decimals: int | None = None) -> str:
    """Return the regenerated value as text: ``decimals + 2`` places, so rounding stays visible."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    places = 4 if decimals is None else decimals + 2
    return f"{value:.{places}f}"


def relative_error(regenerated: float, published: float) -> float:
    """Return ``(regenerated - published) / published`` (signed)."""
    if published == 0:
        return math.inf if regenerated != 0 else 0.0
    return (regenerated - published) / published


def classify(regenerated: float, printed: str, rule: str) -> str:
    """Return ``reproduced``, ``close`` or ``differs`` for a regenerated value against a printed number."""
    if matches_printed(regenerated, printed, rule):
        return "reproduced"
    published = float(Decimal(printed))
    return "close" if abs(relative_error(regenerated, published)) <= CLOSE else "differs"


def result_row(
    paper: str,
    source: str,
    row: str,
    column: str,
    published: str,
    regenerated: float | None,
    *,
    rule: str,
    reason: str = "",
    not_regenerable: bool = False,
    compare_as: str | None = None,
) -> Row:
    """Return the ledger row of one published number.

    ``published`` is the printed text (``"17.4%"``, ``"93/2%"``); ``compare_as``
    is the plain number it is compared as when that differs from the print
    (``"17.4"``, or a correction's ``"93.2"``, whose reason must then be in
    ``reason``). ``rule`` is the paper's rounding convention. With
    ``not_regenerable`` the status is ``not_regenerable`` whatever the numbers
    say; ``regenerated`` is then the best honest figure (or ``None``) and
    ``reason`` must say what.
    """
    number = published if compare_as is None else compare_as
    decimals = printed_decimals(number)
    pub = float(Decimal(number))
    if regenerated is None or (isinstance(regenerated, float) and math.isnan(regenerated)):
        if not not_regenerable:
            raise LedgerError(f"{source} {row} {column}: no regenerated value, so it must be not_regenerable")
        return Row(paper, source, row, column, published, "", "", "not_regenerable", reason)
    rel = relative_error(regenerated, pub)
    status = "not_regenerable" if not_regenerable else classify(regenerated, number, rule)
    return Row(paper, source, row, column, published, format_value(regenerated, decimals), f"{rel:.4f}", status, reason)


def claim_row(
    paper: str,
    source: str,
    claim: str,
    published: str,
    regenerated: float | None,
    status: str,
    reason: str,
    *,
    column: str = "claim",
) -> Row:
    """Return the ledger row of a stated claim (``supported`` / ``refuted`` / ``untestable``)."""
    if status not in CLAIM_STATUSES:
        raise LedgerError(f"claim status must be one of {CLAIM_STATUSES}, got {status!r}")
    rel = ""
    if regenerated is not None and published.strip():
        try:
            rel = f"{relative_error(regenerated, float(Decimal(published))):.4f}"
        except ArithmeticError:
            rel = ""
    return Row(paper, source, claim, column, published, format_value(regenerated), rel, status, reason)


def to_frame(rows: list[Row], stamp: Stamp) -> pd.DataFrame:
    """Return the rows as a ledger table with the provenance columns of ``stamp``."""
    prov = stamp.columns()
    records = [{**asdict(r), **prov} for r in rows]
    return pd.DataFrame.from_records(records, columns=list(ALL_COLUMNS))


def write_partial(rows: list[Row], stamp: Stamp, path: Path | str) -> pd.DataFrame:
    """Write one notebook's ledger rows atomically; return them as a table."""
    frame = to_frame(rows, stamp)
    dup = frame.duplicated(subset=["paper", "source", "row", "column"])
    if dup.any():
        first = frame[dup].iloc[0]
        raise LedgerError(f"duplicate ledger row: {first['source']} / {first['row']} / {first['column']}")
    atomic_write_csv(path, frame)
    return frame


def read(path: Path | str) -> pd.DataFrame:
    """Read a ledger file and check its columns and statuses."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in ALL_COLUMNS if c not in frame.columns]
    if missing:
        raise LedgerError(f"{path}: missing columns {missing}")
    bad = frame[~frame["status"].isin(STATUSES)]
    if len(bad):
        raise LedgerError(f"{path}: row {bad.index[0] + 1}: unknown status {bad['status'].iloc[0]!r}")
    return frame[list(ALL_COLUMNS)]


def merge(paths: list[Path]) -> pd.DataFrame:
    """Return the partial ledgers joined and sorted by paper (stable within a paper)."""
    frames = [read(p) for p in sorted(paths)]
    if not frames:
        return pd.DataFrame(columns=list(ALL_COLUMNS))
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values("paper", kind="stable").reset_index(drop=True)


def summary(frame: pd.DataFrame) -> str:
    """Return a Markdown summary: counts by paper and status."""
    statuses = [s for s in STATUSES if (frame["status"] == s).any()] or list(RESULT_STATUSES)
    counts = (
        frame.groupby(["paper", "status"]).size().unstack(fill_value=0).reindex(columns=statuses, fill_value=0)
        if len(frame)
        else pd.DataFrame(columns=statuses)
    )
    lines = ["# Reproduction ledger summary", "", f"{len(frame)} rows in `figures/ledger.csv`.", ""]
    lines.append("| paper | " + " | ".join(statuses) + " | total |")
    lines.append("|---|" + "---|" * (len(statuses) + 1))
    for paper, counts_row in counts.iterrows():
        cells = [str(int(counts_row[s])) for s in statuses]
        lines.append(f"| {paper} | " + " | ".join(cells) + f" | {int(counts_row.sum())} |")
    missing = [p for p in PAPERS if p not in counts.index]
    if missing:
        lines += ["", "No ledger rows yet for paper(s) " + ", ".join(missing) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paperlib.ledger", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("merge", help="join partial ledgers into figures/ledger.csv and write the summary")
    m.add_argument("partials", nargs="+", type=Path)
    m.add_argument("--out", type=Path, default=FIGURES_DIR / "ledger.csv")
    m.add_argument("--summary", type=Path, default=FIGURES_DIR / "ledger-summary.md")
    args = parser.parse_args(argv)
    frame = merge(args.partials)
    atomic_write_csv(args.out, frame)
    atomic_write_text(args.summary, summary(frame))
    sys.stdout.write(f"{args.out}: {len(frame)} rows from {len(args.partials)} notebook ledger(s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
