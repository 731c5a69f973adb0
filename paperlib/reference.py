"""A run's ledger compared with the reference run the package carries in ``reference/``.

``reference/`` (written by ``make reference``, :mod:`paperlib.reference_run`) holds one complete ``make
reproduce`` run: its ledger, each paper's key figures and its real-stack table, and ``RUN.json`` (machine,
commit, schedule). ``make reproduce`` ends with ``python -m paperlib.reference compare``, which prints

* the rows whose status changed (paper, source, row, column, reference status -> this run's status), apart
  those where one of the two is ``fidelity_lost`` (that run's real-stack runs lost their timing: it says what the
  machine did, not what the stacks do) and those that changed at the edge of their threshold (one run decided, the
  other undecided, :data:`paperlib.ledger.ACROSS_THRESHOLD`, on 95% intervals that overlap: where the two
  intervals fall on the threshold, not a contradiction),
* the real-stack cells whose 95% intervals do not overlap,
* of the rows the real stacks ran for, how many kept their status, changed where one run lost its timing,
  changed at the edge of their threshold, and changed otherwise,
* the rows (and real-stack cells) present in one run and not the other, and the papers run with other
  parameters than the reference's,

then ``figures/ledger.csv agrees with the reference on N of M rows``; the full list goes to
``figures/reference-comparison.csv``. It informs and never fails: its exit status is 0.

Where the intervals come from: structured columns only, never ``reason``. A ledger row's 95% interval is its
``low``/``high`` columns (compared when both ledgers have them: a reference written before they existed is
compared on statuses); and each paper that runs real stacks declares its table of (mean, 95% half-width)
columns in its package (``REAL_STACK_INTERVALS``, an :class:`IntervalTable`), every cell of which is compared,
also those no ledger row carries. A paper's package also declares its ``KEY_FIGURES``: the figures the reference
keeps and its page ``docs/papers/<id>.md`` shows. This module loops over the registered papers; it names none.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from paperlib import ledger
from paperlib.atomic import atomic_write_csv
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
REFERENCE_DIR = REPO / "reference"
FIGURES_DIR = REPO / "figures"
#: The reference's files: its ledger, its record of the run, and its per-paper folders.
LEDGER = "ledger.csv"
RUN = "RUN.json"
FIGURES = "figures"
#: Where ``compare`` writes every difference (under the run's figures folder).
COMPARISON = "reference-comparison.csv"

KEY = ("paper", "source", "row", "column")
#: The columns of a comparison's differences (and of ``figures/reference-comparison.csv``).
DIFF_COLUMNS = ("kind", *KEY, "reference", "run")
#: Every kind of difference, in the order they are printed, with what it means.
KINDS: dict[str, str] = {
    "status": "status changed",
    "timing": "status changed where one run's runs lost their timing (fidelity_lost: the machine, not a finding)",
    "edge": "status changed at the edge of its threshold (decided in one run, undecided in the other, on 95% "
            "intervals that overlap: not a contradiction)",
    "interval": "rows whose 95% intervals (low, high) do not overlap",
    "cell": "real-stack cells whose 95% intervals do not overlap",
    "only_reference": "rows only in the reference",
    "only_run": "rows only in this run",
    "cell_only_reference": "real-stack cells measured only in the reference",
    "cell_only_run": "real-stack cells measured only in this run",
    "table_missing": "real-stack tables missing",
    "parameters": "papers run with other parameters than the reference's",
}


@dataclass(frozen=True)
class IntervalTable:
    """A paper's table of real-stack cells, each a mean with its 95% half-width (a file of ``figures/<id>/``).

    ``file`` is the CSV's name in the paper's output folder, ``keys`` the columns that name a row (unique),
    ``cells`` the (mean column, 95% half-width column) pairs. A cell is measured when both are finite numbers
    (the half-width at least 0); its interval is ``[mean - half, mean + half]``.
    """

    file: str
    keys: tuple[str, ...]
    cells: tuple[tuple[str, str], ...]

    def __post_init__(self):
        if not self.file.endswith(".csv") or "/" in self.file:
            raise ParameterError(f"IntervalTable.file must be a CSV file's name in figures/<paper>/, got {self.file!r}")
        if not self.keys or not all(isinstance(k, str) and k for k in self.keys):
            raise ParameterError(f"IntervalTable.keys must name at least one column, got {self.keys!r}")
        if not self.cells or not all(len(c) == 2 and all(isinstance(x, str) and x for x in c) for c in self.cells):
            raise ParameterError(f"IntervalTable.cells must be (mean column, half-width column) pairs, "
                                 f"got {self.cells!r}")

    @property
    def columns(self) -> tuple[str, ...]:
        """Return every column the table must have: the keys, then each cell's mean and half-width."""
        return self.keys + tuple(c for pair in self.cells for c in pair)


@dataclass(frozen=True)
class Declaration:
    """What a paper's package declares for the reference: its key figures and its real-stack table (or None)."""

    paper: str
    key_figures: tuple[str, ...]
    intervals: IntervalTable | None


def declaration(paper: str) -> Declaration:
    """Return paper ``paper``'s declaration: ``KEY_FIGURES`` and ``REAL_STACK_INTERVALS`` of its package.

    ``KEY_FIGURES`` is a non-empty tuple of PNG names of ``figures/<paper>/``; ``REAL_STACK_INTERVALS`` an
    :class:`IntervalTable`, absent for a paper without real stacks. A malformed one raises ParameterError.
    """
    name = f"paperlib.reproduce.p{paper}"
    package = importlib.import_module(name)
    figures = getattr(package, "KEY_FIGURES", None)
    if not (isinstance(figures, tuple) and figures and
            all(isinstance(f, str) and f.endswith(".png") and "/" not in f for f in figures)):
        raise ParameterError(f"{name}.KEY_FIGURES must be a non-empty tuple of PNG names in figures/{paper}/, "
                             f"got {figures!r}")
    if len(set(figures)) != len(figures):
        raise ParameterError(f"{name}.KEY_FIGURES names a figure twice: {figures!r}")
    intervals = getattr(package, "REAL_STACK_INTERVALS", None)
    if intervals is not None and not isinstance(intervals, IntervalTable):
        raise ParameterError(f"{name}.REAL_STACK_INTERVALS must be a paperlib.reference.IntervalTable, "
                             f"got {type(intervals).__name__}")
    return Declaration(paper, figures, intervals)


def declarations(papers: tuple[str, ...] | list[str] | None = None) -> list[Declaration]:
    """Return the declaration of every paper of ``papers`` (default: the registered papers, in order)."""
    if papers is None:
        from paperlib.data import PAPERS

        papers = PAPERS
    return [declaration(p) for p in papers]


@dataclass(frozen=True)
class Comparison:
    """What differs between a run and the reference: ``differences`` (columns :data:`DIFF_COLUMNS`, kinds
    :data:`KINDS`), and how many of the ``total`` compared items (ledger rows, or real-stack cells) agree."""

    differences: pd.DataFrame
    agree: int
    total: int
    #: Of the rows in both ledgers that the real stacks ran for in either (``emulation`` in
    #: :data:`paperlib.ledger.RAN`): (the same status, changed where one is ``fidelity_lost``, changed at the edge
    #: of its threshold (:func:`across_threshold`), changed otherwise); None when a ledger has no ``emulation``
    #: column (and for the real-stack cells).
    real_stacks: tuple[int, int, int, int] | None = None


def _require(frame: pd.DataFrame, columns: tuple[str, ...], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ParameterError(f"{what}: missing column(s) {missing} (it has {list(frame.columns)})")


def _diffs(records: list[dict]) -> pd.DataFrame:
    return pd.DataFrame.from_records(records, columns=list(DIFF_COLUMNS)).astype(str) if records else \
        pd.DataFrame({c: pd.Series([], dtype=str) for c in DIFF_COLUMNS})


def _number(value) -> float:
    """Return ``value`` as a float (NaN for an empty or non-numeric cell)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _interval(row: dict) -> tuple[float, float]:
    """Return a row's (low, high) from its text fields, (NaN, NaN) when the ledger has none."""
    return _number(row.get("low")), _number(row.get("high"))


def overlap(a_low: float, a_high: float, b_low: float, b_high: float) -> bool:
    """Return whether the closed intervals [a_low, a_high] and [b_low, b_high] share a point."""
    return a_low <= b_high and b_low <= a_high


def across_threshold(status_a: str, status_b: str, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Return whether two runs' statuses of one row differ only by where their 95% intervals ``a`` and ``b`` (low,
    high) fall on the row's threshold: the statuses one step apart (:data:`paperlib.ledger.ACROSS_THRESHOLD`: one
    decided, the other undecided) and the intervals both known and overlapping. Supported against refuted, a
    re-measured cell close in one run and differing in the other, or intervals apart are a change of finding."""
    known = not any(math.isnan(x) for x in (*a, *b))
    return frozenset({status_a, status_b}) in ledger.ACROSS_THRESHOLD and known and overlap(*a, *b)


def _change_kind(status_a: str, status_b: str, a: tuple[float, float], b: tuple[float, float]) -> str:
    """Return the kind of a status change (:data:`KINDS`): ``timing``, ``edge`` or ``status``."""
    if ledger.FIDELITY_LOST in (status_a, status_b):
        return "timing"
    return "edge" if across_threshold(status_a, status_b, a, b) else "status"


def _parameters_text(reference: set[str], run: set[str]) -> tuple[str, str] | None:
    """Return the two runs' parameters as text: only the entries that differ when both are single JSON objects
    (None when those are equal: the same parameters written in another order)."""
    if len(reference) == 1 and len(run) == 1:
        try:
            a, b = json.loads(next(iter(reference))), json.loads(next(iter(run)))
        except ValueError:
            a = b = None
        if isinstance(a, dict) and isinstance(b, dict):
            names = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            if not names:
                return None
            return (", ".join(f"{k}={json.dumps(a.get(k))}" for k in names),
                    ", ".join(f"{k}={json.dumps(b.get(k))}" for k in names))
    return " | ".join(sorted(reference)), " | ".join(sorted(run))


def _rows(frame: pd.DataFrame, fields: tuple[str, ...], what: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Return {(paper, source, row, column): (the row's ``fields`` as text)} of a ledger table, in its order."""
    _require(frame, (*KEY, *fields), what)
    keys = list(zip(*(frame[k].astype(str) for k in KEY), strict=True))
    values = list(zip(*(frame[c].astype(str) for c in fields), strict=True))
    out = dict(zip(keys, values, strict=True))
    if len(out) < len(keys):
        seen: set = set()
        first = next(k for k in keys if k in seen or seen.add(k))
        raise ParameterError(f"{what}: duplicate row {' / '.join(first)}")
    return out


def compare_ledgers(reference: pd.DataFrame, run: pd.DataFrame) -> Comparison:
    """Return how ledger ``run`` differs from ledger ``reference``, row by row (key ``paper, source, row, column``).

    A row of both agrees when its status is the same and, if both ledgers have ``low`` and ``high`` columns and
    both rows hold numbers there, the two intervals overlap. ``total`` counts the rows of either ledger (a row
    of one only does not agree). A paper whose ``parameters`` (when both ledgers have the column) differ gets
    one ``parameters`` difference, whatever its rows say. Both frames need :data:`KEY` and ``status``; the rows the
    real stacks ran for are counted (:attr:`Comparison.real_stacks`) when both have ``emulation``.
    """
    both = (lambda *columns: all(c in f.columns for c in columns for f in (reference, run)))
    fields = ("status", *(("low", "high") if both("low", "high") else ()),
              *(("emulation",) if both("emulation") else ()))
    ref, now = ({k: dict(zip(fields, v, strict=True)) for k, v in _rows(f, fields, what).items()}
                for f, what in ((reference, "reference ledger"), (run, "run's ledger")))
    records: list[dict] = []
    agree = 0
    counts = {"same": 0, "timing": 0, "edge": 0, "status": 0}  # of the rows the real stacks ran for
    for key in [*ref, *(k for k in now if k not in ref)]:
        where = dict(zip(KEY, key, strict=True))
        if key not in now:
            records.append({"kind": "only_reference", **where, "reference": ref[key]["status"], "run": ""})
            continue
        if key not in ref:
            records.append({"kind": "only_run", **where, "reference": "", "run": now[key]["status"]})
            continue
        status_ref, status_run = ref[key]["status"], now[key]["status"]
        a, b = _interval(ref[key]), _interval(now[key])
        same = status_ref == status_run
        kind = "same" if same else _change_kind(status_ref, status_run, a, b)
        if not same:
            records.append({"kind": kind, **where, "reference": status_ref, "run": status_run})
        if ref[key].get("emulation") in ledger.RAN or now[key].get("emulation") in ledger.RAN:
            counts[kind] += 1
        if not any(math.isnan(x) for x in (*a, *b)) and not overlap(*a, *b):
            same = False
            records.append({"kind": "interval", **where, "reference": f"[{a[0]:.6g}, {a[1]:.6g}]",
                            "run": f"[{b[0]:.6g}, {b[1]:.6g}]"})
        agree += same
    if both("parameters"):
        for paper in sorted(set(reference["paper"].astype(str)) & set(run["paper"].astype(str))):
            ref_p = set(reference.loc[reference["paper"].astype(str) == paper, "parameters"].astype(str))
            now_p = set(run.loc[run["paper"].astype(str) == paper, "parameters"].astype(str))
            texts = _parameters_text(ref_p, now_p) if ref_p != now_p else None
            if texts:
                records.append({"kind": "parameters", "paper": paper, "source": "", "row": "", "column": "",
                                "reference": texts[0], "run": texts[1]})
    real_stacks = (counts["same"], counts["timing"], counts["edge"], counts["status"]) if both("emulation") else None
    return Comparison(_diffs(records), agree, len(set(ref) | set(now)), real_stacks)


def _cells(table: pd.DataFrame, spec: IntervalTable, what: str) -> dict[tuple[str, str], tuple[float, float]]:
    """Return {(row name, mean column): (mean, half)} of every measured cell of ``table``."""
    _require(table, spec.columns, what)
    names = table[list(spec.keys)].astype(str).agg(lambda r: ", ".join(f"{k}={v}" for k, v in r.items()), axis=1)
    if names.duplicated().any():
        raise ParameterError(f"{what}: the key columns {list(spec.keys)} name row {names[names.duplicated()].iloc[0]!r}"
                             " twice")
    out = {}
    for mean_col, half_col in spec.cells:
        means = pd.to_numeric(table[mean_col], errors="coerce")
        halves = pd.to_numeric(table[half_col], errors="coerce")
        for name, m, h in zip(names, means, halves, strict=True):
            if math.isfinite(m) and math.isfinite(h) and h >= 0:
                out[(name, mean_col)] = (float(m), float(h))
    return out


def compare_cells(paper: str, spec: IntervalTable, reference: pd.DataFrame, run: pd.DataFrame) -> Comparison:
    """Return how the real-stack table ``run`` differs from ``reference`` (both laid out as ``spec`` says).

    A cell measured in both agrees when its two 95% intervals overlap, ``|mean_a - mean_b| <= half_a + half_b``
    (``cell`` otherwise); a cell measured in one only is ``cell_only_reference`` / ``cell_only_run``. ``total``
    counts the cells measured in either. A difference's ``source`` is ``figures/<paper>/<file>``, its ``row`` the
    key columns as ``name=value``, its ``column`` the mean's column, its values ``mean +/- half`` (the run's with
    its mean's change relative to the reference's, ``(+1.2%)``).
    """
    ref = _cells(reference, spec, f"reference/figures/{paper}/{spec.file}")
    now = _cells(run, spec, f"figures/{paper}/{spec.file}")
    source = f"figures/{paper}/{spec.file}"
    records = []
    agree = 0
    for name, column in sorted(set(ref) | set(now)):
        key = {"paper": paper, "source": source, "row": name, "column": column}
        a, b = ref.get((name, column)), now.get((name, column))
        text = (lambda mh: "" if mh is None else f"{mh[0]:.4g} +/- {mh[1]:.2g}")
        if a is None or b is None:
            records.append({"kind": "cell_only_run" if a is None else "cell_only_reference", **key,
                            "reference": text(a), "run": text(b)})
        elif overlap(a[0] - a[1], a[0] + a[1], b[0] - b[1], b[0] + b[1]):
            agree += 1
        else:
            change = f" ({(b[0] - a[0]) / abs(a[0]):+.1%})" if a[0] else ""
            records.append({"kind": "cell", **key, "reference": text(a), "run": text(b) + change})
    return Comparison(_diffs(records), agree, len(set(ref) | set(now)))


def _read_csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def compare_runs(reference_dir: Path, figures: Path, decls: list[Declaration]) -> tuple[Comparison, Comparison]:
    """Return (rows, cells): the run in ``figures`` compared with the reference in ``reference_dir``.

    ``rows`` compares ``figures/ledger.csv`` with ``reference/ledger.csv`` (:func:`compare_ledgers`, which needs
    only their key, status and parameters, so a reference written before a column was added still compares);
    ``cells``
    every declared real-stack table (:func:`compare_cells`); a table the reference has and the run lacks is a
    ``table_missing`` difference.
    """
    rows = compare_ledgers(_read_csv(reference_dir / LEDGER), _read_csv(figures / "ledger.csv"))
    frames, agree, total = [], 0, 0
    for d in decls:
        if d.intervals is None:
            continue
        ref_path = reference_dir / FIGURES / d.paper / d.intervals.file
        run_path = figures / d.paper / d.intervals.file
        if not ref_path.exists():
            continue
        if not run_path.exists():
            frames.append(_diffs([{"kind": "table_missing", "paper": d.paper, "source": f"figures/{d.paper}/"
                                   f"{d.intervals.file}", "row": "", "column": "", "reference": "present",
                                   "run": "missing"}]))
            continue
        c = compare_cells(d.paper, d.intervals, _read_csv(ref_path), _read_csv(run_path))
        frames.append(c.differences)
        agree += c.agree
        total += c.total
    cells = pd.concat(frames, ignore_index=True) if frames else _diffs([])
    return rows, Comparison(cells, agree, total)


def _short(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def lines(rows: Comparison, cells: Comparison, *, limit: int = 5, ledger_name: str = "figures/ledger.csv",
          full: str | None = None) -> list[str]:
    """Return the comparison as short lines: per kind a count and at most ``limit`` examples, then the summary.

    The last line is ``<ledger_name> agrees with the reference on N of M rows`` (and the real-stack cells whose
    intervals overlap, when there are any); ``full`` names the file holding every difference.
    """
    diffs = pd.concat([rows.differences, cells.differences], ignore_index=True)
    out = []
    for kind, title in KINDS.items():
        some = diffs[diffs["kind"] == kind]
        if not len(some):
            continue
        out.append(f"  {title} ({len(some)}):")
        for rec in some.head(limit).to_dict("records"):
            if kind == "parameters":
                out.append(f"    {rec['paper']}: {_short(rec['reference'], 60)} -> {_short(rec['run'], 60)}")
                continue
            if kind.startswith("cell") or kind == "table_missing":  # the table's file, the cell's whole name
                where = " ".join(x for x in (rec["source"].rsplit("/", 1)[-1], _short(rec["row"], 90), rec["column"])
                                 if x)
            else:
                where = " / ".join(_short(rec[k], 45) for k in ("source", "row", "column") if rec[k])
            change = {"only_reference": rec["reference"], "only_run": rec["run"],
                      "table_missing": "missing in this run"}.get(
                kind, f"{rec['reference'] or '-'} -> {rec['run'] or '-'}")
            out.append(f"    {rec['paper']} {where}: {change}")
        if len(some) > limit:
            out.append(f"    ... and {len(some) - limit} more")
    if rows.real_stacks is not None and sum(rows.real_stacks):
        same, timing, edge, other = rows.real_stacks
        out.append(f"  of the {same + timing + edge + other} rows the real stacks ran for: {same} with the same "
                   f"status, {timing} changed where one run lost its timing, {edge} changed at the edge of their "
                   f"threshold, {other} changed otherwise")
    summary = f"{ledger_name} agrees with the reference on {rows.agree} of {rows.total} rows"
    if cells.total:
        summary += f"; {cells.agree} of {cells.total} real-stack cells' 95% intervals overlap the reference's"
    out.append(summary + (f" (every difference: {full})" if full and len(diffs) else ""))
    return out


def _run_line(reference_dir: Path) -> str:
    """Return one line naming the reference run: commit, date, machine (from RUN.json; what it has)."""
    try:
        run = json.loads((reference_dir / RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"compared with {reference_dir.name}/ (no readable {RUN})"
    machine = run.get("machine") or {}
    parts = [str(run.get("commit", "?"))[:12], str(run.get("finished", "?"))[:10],
             f"{machine.get('cores', '?')} cores {machine.get('cpu', '?')}"]
    return f"compared with the reference run ({', '.join(parts)}; {reference_dir.name}/{RUN}), reference -> this run:"


def main(argv: list[str] | None = None) -> int:
    """Compare the run in ``--figures`` with the reference and print what differs; return 0 (it only informs)."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.reference", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare", help="compare figures/ledger.csv (and the real-stack tables) with reference/")
    c.add_argument("--reference", type=Path, default=REFERENCE_DIR)
    c.add_argument("--figures", type=Path, default=FIGURES_DIR)
    c.add_argument("--limit", type=int, default=5, help="examples printed per kind of difference (default 5)")
    args = parser.parse_args(argv)
    if not (args.reference / LEDGER).exists():
        print(f"reference: no reference run in {args.reference}/ to compare with ({LEDGER} missing; "
              "`make reference` writes one from a complete run)")
        return 0
    if not (args.figures / "ledger.csv").exists():
        print(f"reference: no {args.figures}/ledger.csv to compare with the reference")
        return 0
    try:
        rows, cells = compare_runs(args.reference, args.figures, declarations())
        full = args.figures / COMPARISON
        atomic_write_csv(full, pd.concat([rows.differences, cells.differences], ignore_index=True))
    except (OSError, ValueError) as err:
        print(f"reference: not compared ({err})")
        return 0
    print(_run_line(args.reference))
    print("\n".join(lines(rows, cells, limit=args.limit, ledger_name=f"{args.figures.name}/ledger.csv",
                          full=f"{args.figures.name}/{COMPARISON}")))
    return 0


if __name__ == "__main__":  # run as paperlib.reference, so the papers' IntervalTable is this module's class
    from paperlib.reference import main as _main

    raise SystemExit(_main())
