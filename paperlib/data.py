"""Load the published tables of ``data/`` and validate them against their schema.

Each paper's folder holds a ``datapackage.json`` (paper, seed, and per file its
source, location and field schema; see ``data/README.md``) and CSV files whose
cells are the printed text. Loading checks every cell against its field's type
and unit and fails with a :class:`DataError` that names the file, the row and
the column. Cells stay strings exactly as printed; typed values are parsed on
demand, so the printed precision of every number is never lost.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import units

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "data"
NOTEBOOKS_DIR = REPO / "notebooks"
#: A paper id: three digits, the name of its folder ``data/<id>/`` and the prefix of ``notebooks/<id>_*.ipynb``.
PAPER_ID_RE = re.compile(r"\d{3}")

FIELD_TYPES = ("number", "integer", "quantity", "text")
ROLES = ("label", "input", "result")

NUMBER_RE = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)")
INTEGER_RE = re.compile(r"[-+]?\d+")
# Numbers in running text may be printed as fractions ("3/2", "1/128").
TEXT_NUMBER_RE = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:/\d+(?:\.\d+)?)?")

TEXT_VALUES_COLUMNS = ("id", "quantity", "printed", "unit", "role", "location", "quote", "number")
#: Numbers printed as words stay words in ``printed``; their value goes in the ``number`` column.
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}
CLAIMS_COLUMNS = ("id", "claim", "printed", "unit", "location", "quote")


class DataError(ValueError):
    """A published-data file that does not match its schema."""


def _ids_with_data(data_dir: Path) -> set[str]:
    return {p.parent.name for p in Path(data_dir).glob("*/datapackage.json") if PAPER_ID_RE.fullmatch(p.parent.name)}


def pending_ids(data_dir: Path | str = DATA_DIR) -> tuple[str, ...]:
    """Return the ids of papers whose data exists but whose notebook is still to be written, sorted.

    Such a paper says so in its ``datapackage.json``: ``"notebook_pending"`` holds why (a non-empty
    text). Its data is loaded and validated like any other paper's (``load_paper``, ``make
    reproduce``'s data check), but it is not a paper of the pipeline (:data:`PAPERS`) until its
    notebook exists and the key is removed.
    """
    out = []
    for pid in sorted(_ids_with_data(Path(data_dir))):
        path = Path(data_dir) / pid / "datapackage.json"
        try:
            pending = json.loads(path.read_text(encoding="utf-8")).get("notebook_pending")
        except (OSError, ValueError) as err:
            raise DataError(f"{path}: cannot be read as JSON ({err})") from err
        if pending is None:
            continue
        if not isinstance(pending, str) or not pending.strip():
            raise DataError(f"{path}: 'notebook_pending' must say why the notebook is pending (a non-empty text), "
                            f"got {pending!r}")
        out.append(pid)
    return tuple(out)


def paper_ids(data_dir: Path | str = DATA_DIR, notebooks_dir: Path | str = NOTEBOOKS_DIR, *,
              strict: bool = True) -> tuple[str, ...]:
    """Return the ids of the papers, sorted: every ``data/<id>/datapackage.json`` with its ``notebooks/<id>_*.ipynb``.

    A paper is discovered, not listed: adding ``data/005/`` and ``notebooks/005_<name>.ipynb`` adds
    paper ``005`` to the loader, the ledger, the report and the tests. With ``strict`` (the tests'
    check), a half-added paper (data without its notebook, a notebook without its data, or two
    notebooks of one id) raises a :class:`DataError` naming what is missing; without it, such a
    paper is left out (so its data can be validated before its notebook exists). A paper whose data
    declares its notebook pending (:func:`pending_ids`) is no paper yet and no problem either; a
    notebook beside it is a problem (remove the key once the notebook exists).
    """
    data_dir, notebooks_dir = Path(data_dir), Path(notebooks_dir)
    pending = set(pending_ids(data_dir))
    with_data = _ids_with_data(data_dir) - pending
    notebooks: dict[str, list[str]] = {}
    for nb in notebooks_dir.glob("*_*.ipynb"):
        prefix = nb.name.split("_", 1)[0]
        if PAPER_ID_RE.fullmatch(prefix):
            notebooks.setdefault(prefix, []).append(nb.name)
    problems = [f"{data_dir / p / 'datapackage.json'} has no notebook {notebooks_dir / p}_<name>.ipynb"
                for p in sorted(with_data - set(notebooks))]
    problems += [f"{notebooks_dir / names[0]} has no published data {data_dir / p / 'datapackage.json'}"
                 for p, names in sorted(notebooks.items()) if p not in with_data and p not in pending]
    problems += [f"{notebooks_dir / names[0]} exists, but {data_dir / p / 'datapackage.json'} says its notebook is "
                 f"pending ('notebook_pending'): remove that key"
                 for p, names in sorted(notebooks.items()) if p in pending]
    problems += [f"paper {p} has {len(names)} notebooks ({', '.join(sorted(names))}); keep one"
                 for p, names in sorted(notebooks.items()) if len(names) > 1]
    if problems and strict:
        raise DataError("papers are discovered from data/ and notebooks/: " + "; ".join(problems))
    found = tuple(sorted(p for p in with_data if len(notebooks.get(p, ())) == 1))
    if not found and strict:
        raise DataError(f"no paper found: no {data_dir}/<id>/datapackage.json beside a {notebooks_dir}/<id>_*.ipynb")
    return found


#: The papers of this package (:func:`paper_ids`), discovered when the package is imported.
PAPERS = paper_ids(strict=False)


@dataclass(frozen=True)
class Field:
    """One column of a published table, as described in ``datapackage.json``."""

    name: str
    type: str
    role: str
    unit: str | None = None
    printed: str | None = None
    fill: str | None = None
    header_type: str | None = None
    pattern: str | None = None
    minimum: float | None = None
    description: str = ""

    @property
    def label(self) -> str:
        """The column label as printed."""
        return self.name if self.printed is None else self.printed


@dataclass
class Table:
    """One published table: its cells as printed (after fill-down) and its metadata."""

    paper: str
    name: str
    path: Path
    source: str
    title: str
    location: str
    notes: str
    fields: list[Field]
    cells: pd.DataFrame = field(repr=False)

    def field(self, name: str) -> Field:
        """Return the metadata of column ``name`` (KeyError naming the file if absent)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.path}: no column {name!r}")

    def columns(self, role: str) -> list[str]:
        """Return the names of the columns that have ``role``."""
        return [f.name for f in self.fields if f.role == role]

    def values(self, column: str) -> np.ndarray:
        """Return a ``number``/``integer``/``quantity`` column as floats (printed units, no conversion)."""
        f = self.field(column)
        if f.type in ("number", "integer"):
            return self.cells[column].astype(float).to_numpy()
        if f.type == "quantity":
            return np.array([units.parse_quantity(c).value for c in self.cells[column]])
        raise TypeError(f"{self.path}: column {column!r} is {f.type}, not numeric")


@dataclass
class Paper:
    """All published data of one paper: its tables, text values and claims."""

    paper: str
    seed: str
    title: str
    tables: dict[str, Table]

    @property
    def text_values(self) -> Table:
        """Return the paper's numbers stated in the running text (text_values.csv)."""
        return self.tables["text_values"]

    @property
    def claims(self) -> Table:
        """Return the paper's stated claims (claims.csv)."""
        return self.tables["claims"]

    def text_value(self, ident: str) -> units.Quantity:
        """Return a number stated in the running text, by its ``id``."""
        rows = self.text_values.cells
        match = rows[rows["id"] == ident]
        if len(match) != 1:
            raise KeyError(f"paper {self.paper}: text_values.csv has {len(match)} rows with id {ident!r}")
        row = match.iloc[0]
        number = row["number"] if row["number"].strip() else row["printed"]
        return units.Quantity(row["printed"], float(Fraction(number)), row["unit"])

    def claim(self, ident: str) -> pd.Series:
        """Return the row of claims.csv with this ``id``."""
        rows = self.claims.cells
        match = rows[rows["id"] == ident]
        if len(match) != 1:
            raise KeyError(f"paper {self.paper}: claims.csv has {len(match)} rows with id {ident!r}")
        return match.iloc[0]


def _fail(path: Path, problem: str, row: int | None = None, column: str | None = None):
    where = str(path)
    if row is not None:
        where += f": row {row} (line {row + 1})"
    if column is not None:
        where += f", column {column!r}" if row is not None else f": column {column!r}"
    raise DataError(f"{where}: {problem}")


def _parse_field(path: Path, spec: dict) -> Field:
    name = spec.get("name")
    if not isinstance(name, str):
        _fail(path, f"a field without a name: {spec!r}")
    ftype = spec.get("type")
    if ftype not in FIELD_TYPES:
        _fail(path, f"type {ftype!r} is not one of {FIELD_TYPES}", column=name)
    role = spec.get("role")
    if role not in ROLES:
        _fail(path, f"role {role!r} is not one of {ROLES}", column=name)
    unit = spec.get("unit")
    if unit is not None:
        try:
            units.check_unit(unit)
        except units.UnitError as err:
            _fail(path, str(err), column=name)
    constraints = spec.get("constraints") or {}
    pattern = constraints.get("pattern")
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as err:
            _fail(path, f"bad pattern {pattern!r}: {err}", column=name)
    return Field(
        name=name,
        type=ftype,
        role=role,
        unit=unit,
        printed=spec.get("printed"),
        fill=spec.get("fill"),
        header_type=spec.get("header_type"),
        pattern=pattern,
        minimum=constraints.get("minimum"),
        description=spec.get("description", ""),
    )


def _check_cell(path: Path, row: int, f: Field, cell: str) -> None:
    if f.type == "number" and not NUMBER_RE.fullmatch(cell):
        _fail(path, f"{cell!r} is not a number", row, f.name)
    if f.type == "integer" and not INTEGER_RE.fullmatch(cell):
        _fail(path, f"{cell!r} is not an integer", row, f.name)
    if f.type == "quantity":
        try:
            units.parse_quantity(cell)
        except ValueError as err:  # UnitError is a ValueError
            _fail(path, str(err), row, f.name)
    if f.type == "text" and f.pattern is not None and not re.fullmatch(f.pattern, cell):
        _fail(path, f"{cell!r} does not match pattern {f.pattern!r}", row, f.name)
    if f.minimum is not None and f.type in ("number", "integer") and float(cell) < f.minimum:
        _fail(path, f"{cell!r} is below the minimum {f.minimum}", row, f.name)


def _check_header_label(path: Path, f: Field) -> None:
    if f.header_type == "quantity":
        try:
            units.parse_quantity(f.name)
        except ValueError as err:
            _fail(path, f"header is declared a quantity: {err}", column=f.name)
    elif f.header_type == "number" and not NUMBER_RE.fullmatch(f.name):
        _fail(path, "header is declared a number but is not one", column=f.name)


def read_table(path: Path, fields: list[Field]) -> pd.DataFrame:
    """Read one CSV and validate it against ``fields``; return its cells as strings."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:  # a byte-order mark is encoding, not a cell
            rows = list(csv.reader(fh))
    except FileNotFoundError:
        _fail(path, "file is missing")
    except UnicodeDecodeError as err:
        _fail(path, f"not UTF-8: {err}")
    if not rows:
        _fail(path, "file is empty (no header row)")
    header, body = rows[0], rows[1:]
    names = [f.name for f in fields]
    for name in names:
        if name not in header:
            _fail(path, "declared in datapackage.json but missing from the header", column=name)
    for name in header:
        if name not in names:
            _fail(path, "in the header but not declared in datapackage.json", column=name)
    if len(set(header)) != len(header):
        _fail(path, f"duplicate column names in header {header!r}")
    if header != names:  # swapped headers would silently swap what the columns mean
        _fail(path, f"columns are in the order {header!r}, datapackage.json declares {names!r}")
    for f in fields:
        _check_header_label(path, f)
    by_name = {f.name: f for f in fields}
    filled: list[list[str]] = []
    for i, raw in enumerate(body, start=1):
        if len(raw) != len(header):
            _fail(path, f"has {len(raw)} cells, the header has {len(header)}", row=i)
        out = []
        for name, cell in zip(header, raw, strict=True):
            f = by_name[name]
            if cell.strip() == "":
                if f.fill == "down" and filled:
                    cell = filled[-1][len(out)]
                elif f.role == "result" or f.role == "label" or f.type != "text":
                    _fail(path, "empty cell", i, name)
            else:
                _check_cell(path, i, f, cell)
            out.append(cell)
        filled.append(out)
    return pd.DataFrame(filled, columns=header, dtype=str).reindex(columns=names)


def _builtin_fields(kind: str) -> list[Field]:
    if kind == "text_values":
        return [
            Field("id", "text", "label", pattern=r"[A-Za-z0-9_.\-]+"),
            Field("quantity", "text", "label"),
            Field("printed", "text", "input", pattern=f"{TEXT_NUMBER_RE.pattern}|{'|'.join(NUMBER_WORDS)}"),
            Field("unit", "text", "input"),
            Field("role", "text", "input", pattern="input|result"),
            Field("location", "text", "input"),
            Field("quote", "text", "input"),
            Field("number", "text", "input", pattern=f"(?:{TEXT_NUMBER_RE.pattern})?"),
        ]
    return [
        Field("id", "text", "label", pattern=r"[A-Za-z0-9_.\-]+"),
        Field("claim", "text", "label"),
        Field("printed", "text", "input", pattern=f"(?:{TEXT_NUMBER_RE.pattern})?"),
        Field("unit", "text", "input"),
        Field("location", "text", "input"),
        Field("quote", "text", "input"),
    ]


def _check_text_tables(path: Path, cells: pd.DataFrame, kind: str) -> None:
    for i, (unit, printed) in enumerate(zip(cells["unit"], cells["printed"], strict=True), start=1):
        if unit.strip():
            try:
                units.check_unit(unit)
            except units.UnitError as err:
                _fail(path, str(err), i, "unit")
        elif kind == "text_values" or printed.strip():
            _fail(path, "empty cell (use '1' for a dimensionless number)", i, "unit")
    if kind == "text_values":
        for i, (printed, number) in enumerate(zip(cells["printed"], cells["number"], strict=True), start=1):
            word = NUMBER_WORDS.get(printed)
            if word is None and number.strip():
                _fail(path, f"a number is given ({number!r}) but printed {printed!r} is not a number word", i, "number")
            if word is not None and (not number.strip() or float(Fraction(number)) != word):
                _fail(path, f"printed as the word {printed!r}: the number column must say {word}, got {number!r}",
                      i, "number")
    dup = cells["id"][cells["id"].duplicated()]
    if len(dup):
        _fail(path, f"duplicate id {dup.iloc[0]!r}", column="id")


# --- shape and meaning: declared rows and unit dimensions (issue 13) ---------------------------

def _row_label(cells: pd.DataFrame, labels: list[str], i: int) -> str:
    return " | ".join(str(cells[c].iloc[i]) for c in labels)


def check_rows(meta_path: Path, res: dict, path: Path, fields: list[Field], cells: pd.DataFrame) -> None:
    """Raise :class:`DataError` unless the table has the rows ``datapackage.json`` declares, once each.

    ``"rows": {"labels": [...]}`` lists the label of every row in order (the label columns joined
    by `` | ``); ``"rows": {"count": n}`` gives their number. Either way no two rows may share a label.
    """
    decl = res.get("rows")
    if not isinstance(decl, dict) or not ({"labels", "count"} & decl.keys()):
        _fail(meta_path, f"resource {res['name']!r} declares no rows "
                         f"(\"rows\": {{\"labels\": [...]}} or {{\"count\": n}})")
    labels = [f.name for f in fields if f.role == "label"]
    seen: dict[str, int] = {}
    for i in range(len(cells)):
        key = _row_label(cells, labels, i)
        if key in seen:
            _fail(path, f"duplicates row {seen[key]} (label {key!r})", i + 1, labels[0] if labels else None)
        seen[key] = i + 1
    if "labels" in decl:
        expected = [str(x) for x in decl["labels"]]
        for i, key in enumerate(seen):
            if key not in expected:
                _fail(path, f"{key!r} is not a row datapackage.json declares (rows.labels: {expected})", i + 1,
                      labels[0] if labels else None)
        missing = [x for x in expected if x not in seen]
        if missing:
            _fail(path, f"declared row(s) {missing} missing")
        if list(seen) != expected:
            _fail(path, f"rows are in the order {list(seen)}, datapackage.json declares {expected}")
    count = decl.get("count")
    if count is not None and len(cells) != count:
        _fail(path, f"has {len(cells)} rows, datapackage.json declares {count} (rows.count)")


def check_dimensions(meta_path: Path, res: dict, path: Path, cells: pd.DataFrame) -> None:
    """Raise :class:`DataError` unless every ``quantity`` cell has its column's declared ``dimension``.

    A time in a rate column (``28 ms`` for ``28 Kbps``) parses as a quantity; only its dimension
    tells it is wrong. Every quantity column must declare one (e.g. ``"dimension": "bit/s"``).
    """
    for spec in res.get("schema", {}).get("fields", []):
        if spec.get("type") != "quantity":
            continue
        name, dim = spec["name"], spec.get("dimension")
        if not isinstance(dim, str):
            _fail(meta_path, f"quantity column of {res['name']!r} declares no \"dimension\" "
                             f"(e.g. \"bit/s\", \"s\", \"1\")", column=name)
        for i, cell in enumerate(cells[name], start=1):
            got = units.dimension(units.parse_quantity(cell).unit)
            if got != dim:
                _fail(path, f"{cell!r} has dimension {got!r}, the column's declared dimension is {dim!r}", i, name)


def check_shape_and_meaning(meta_path: Path, res: dict, path: Path, fields: list[Field], cells: pd.DataFrame) -> None:
    """Check a printed table's declared rows and the unit dimension of its quantity columns."""
    check_dimensions(meta_path, res, path, cells)  # first: a wrong unit is the more telling error
    check_rows(meta_path, res, path, fields, cells)


def load_paper(paper: str, root: Path | str = DATA_DIR) -> Paper:
    """Return every published table of ``paper`` (a paper id, ``data/<id>/``), validated."""
    folder = Path(root) / paper
    meta_path = folder / "datapackage.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{meta_path}: file is missing") from None
    except json.JSONDecodeError as err:
        raise DataError(f"{meta_path}: not valid JSON: {err}") from None
    for key in ("paper", "seed", "title", "resources"):
        if key not in meta:
            _fail(meta_path, f"missing key {key!r}")
    if meta["paper"] != paper:
        _fail(meta_path, f"says paper {meta['paper']!r} but sits in folder {paper!r}")
    tables: dict[str, Table] = {}
    for res in meta["resources"]:
        for key in ("name", "path", "source"):
            if key not in res:
                _fail(meta_path, f"a resource without {key!r}: {res.get('name', res)!r}")
        path = folder / res["path"]
        kind = Path(res["path"]).stem
        if kind in ("text_values", "claims"):
            fields = _builtin_fields(kind)
        else:
            specs = res.get("schema", {}).get("fields")
            if not specs:
                _fail(meta_path, f"resource {res['name']!r} has no schema.fields")
            fields = [_parse_field(path, s) for s in specs]
        cells = read_table(path, fields)
        if kind in ("text_values", "claims"):
            _check_text_tables(path, cells, kind)
        else:
            check_shape_and_meaning(meta_path, res, path, fields, cells)
        name = kind if kind in ("text_values", "claims") else res["name"]
        tables[name] = Table(
            paper=paper,
            name=name,
            path=path,
            source=res["source"],
            title=res.get("title", ""),
            location=res.get("location", ""),
            notes=res.get("notes", ""),
            fields=fields,
            cells=cells,
        )
    for kind in ("text_values", "claims"):
        if kind not in tables:
            _fail(meta_path, f"no resource for {kind}.csv")
    return Paper(paper=paper, seed=meta["seed"], title=meta["title"], tables=tables)


def load_all(root: Path | str = DATA_DIR) -> dict[str, Paper]:
    """Return the validated published data of every paper folder of ``root`` (``<id>/datapackage.json``), by id."""
    return {p: load_paper(p, root) for p in sorted(_ids_with_data(Path(root)))}


def report(papers: dict[str, Paper]) -> str:
    """Return a short text report of what was loaded: files, rows, result cells, text values, claims."""
    lines = ["# Published data, loaded and validated", ""]
    lines.append("| paper | file | source | rows | result cells |")
    lines.append("|---|---|---|---|---|")
    for key, paper in papers.items():
        for name, table in paper.tables.items():
            n_results = len(table.cells) * len(table.columns("result")) if name not in ("text_values", "claims") else ""
            lines.append(f"| {key} | {table.path.name} | {table.source} | {len(table.cells)} | {n_results} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Validate every file of data/ (``python -m paperlib.data``); return the exit status."""
    import argparse
    import sys

    from paperlib.atomic import atomic_write_text

    parser = argparse.ArgumentParser(prog="python -m paperlib.data", description="validate every file of data/")
    parser.add_argument("--root", type=Path, default=DATA_DIR)
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    try:
        papers = load_all(args.root)
    except DataError as err:
        sys.stderr.write(f"invalid published data: {err}\n")
        return 1
    text = report(papers)
    if args.report:
        atomic_write_text(args.report, text)
    sys.stdout.write(f"data/: {sum(len(p.tables) for p in papers.values())} files of {len(papers)} papers valid\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
