"""Compare two output trees of make reproduce (figures/ folders): what moved, file by file, row by row.

    python tools/compare_outputs.py BEFORE AFTER [--papers 000 004]

Meant for a change that should move no result (a refactor): the commit a run records differs between
the two trees by construction, so it is left out of the comparison (the ledger's ``commit`` and ``dirty``
columns, provenance.json's same keys, any 40-hex commit in other text). Compared:

* CSV and Markdown files: byte for byte after that; a ledger's differing rows are listed by
  (source, row, column) with the fields that differ;
* PNG figures: their decoded pixels and their text chunks (the stamp);
* executed notebooks: the outputs of every code cell, in order, embedded PNGs by their pixels and text
  chunks (the cells' sources may differ: an interface change rewrites the calls, not what they print).

Logs, the report and the run manifests (hashes of files that hold the commit) are not compared.
Exit status 0 when nothing moved, 1 otherwise.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

COMMIT = re.compile(rb"\b[0-9a-f]{40}\b")
SKIPPED_DIRS = {"logs", "report"}
RUN_COLUMNS = ["commit", "dirty"]


def _text(path: Path) -> bytes:
    return COMMIT.sub(b"<commit>", path.read_bytes())


def _ledger_diff(a: Path, b: Path) -> list[str]:
    """Return the rows of two ledger CSVs that differ (without the run's commit columns)."""
    fa, fb = (pd.read_csv(p, dtype=str, keep_default_na=False).drop(columns=RUN_COLUMNS, errors="ignore")
              for p in (a, b))
    key = ["paper", "source", "row", "column"]
    if list(fa.columns) != list(fb.columns):
        return [f"columns {list(fa.columns)} -> {list(fb.columns)}"]
    ia, ib = fa.set_index(key), fb.set_index(key)
    out = [f"row only before: {k}" for k in ia.index.difference(ib.index)]
    out += [f"row only after: {k}" for k in ib.index.difference(ia.index)]
    for k in ia.index.intersection(ib.index):
        ra, rb = ia.loc[[k]].iloc[0], ib.loc[[k]].iloc[0]
        for col in ia.columns:
            if ra[col] != rb[col]:
                out.append(f"{k} {col}: {ra[col]!r} -> {rb[col]!r}")
    if not out and not fa.equals(fb):
        out.append("same rows in another order")
    return out


def _png_diff(a: Path, b: Path) -> list[str]:
    ia, ib = Image.open(io.BytesIO(a.read_bytes())), Image.open(io.BytesIO(b.read_bytes()))
    out = []
    if ia.size != ib.size or not np.array_equal(np.asarray(ia), np.asarray(ib)):
        out.append(f"pixels differ ({ia.size} vs {ib.size})")
    ta = {k: COMMIT.sub(b"<commit>", str(v).encode()) for k, v in ia.text.items()}
    tb = {k: COMMIT.sub(b"<commit>", str(v).encode()) for k, v in ib.text.items()}
    out += [f"text chunk {k!r} differs" for k in sorted(set(ta) | set(tb)) if ta.get(k) != tb.get(k)]
    return out


def _png_fingerprint(data: bytes) -> str:
    """Return a PNG's pixels and text chunks (commit masked) as one digest: what two runs must share."""
    image = Image.open(io.BytesIO(data))
    digest = hashlib.sha256(np.ascontiguousarray(np.asarray(image)).tobytes())
    for key, value in sorted(image.text.items()):
        digest.update(key.encode() + COMMIT.sub(b"<commit>", str(value).encode()))
    return f"png {image.size} {digest.hexdigest()}"


def _notebook_outputs(path: Path) -> list:
    """Return the outputs of every code cell, embedded PNGs replaced by their :func:`_png_fingerprint`."""
    nb = json.loads(path.read_bytes())
    cells = [c.get("outputs", []) for c in nb["cells"] if c["cell_type"] == "code"]
    for outputs in cells:
        for out in outputs:
            data = out.get("data", {})
            if "image/png" in data:
                data["image/png"] = _png_fingerprint(base64.b64decode(data["image/png"]))
    return json.loads(COMMIT.sub(b"<commit>", json.dumps(cells).encode()))


def _notebook_diff(a: Path, b: Path) -> list[str]:
    oa, ob = _notebook_outputs(a), _notebook_outputs(b)
    if len(oa) != len(ob):
        return [f"{len(oa)} code cells -> {len(ob)}"]
    return [f"code cell {i}: outputs differ: {json.dumps(x)[:300]} -> {json.dumps(y)[:300]}"
            for i, (x, y) in enumerate(zip(oa, ob, strict=True)) if x != y]


def compare_file(a: Path, b: Path) -> list[str]:
    """Return how file ``b`` differs from ``a`` (empty if it does not, by the rules of the module docstring)."""
    if a.suffix == ".png":
        return _png_diff(a, b)
    if a.suffix == ".ipynb":
        return _notebook_diff(a, b)
    if a.name == "ledger.csv":
        return _ledger_diff(a, b)
    if a.name == "provenance.json":
        ja, jb = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
        for j in (ja, jb):
            for k in RUN_COLUMNS:
                j.pop(k, None)
        return [] if ja == jb else [f"provenance differs: {ja} -> {jb}"]
    return [] if _text(a) == _text(b) else ["content differs"]


def files(root: Path, papers: list[str] | None) -> set[str]:
    """Return the compared files under ``root`` (relative paths), of ``papers`` only when given."""
    out = set()
    for p in root.rglob("*"):
        rel = p.relative_to(root)
        if not p.is_file() or rel.parts[0] in SKIPPED_DIRS or any(part.startswith(".") for part in rel.parts):
            continue
        if papers and not any(part.startswith(tuple(papers)) for part in rel.parts):
            continue
        out.add(str(rel))
    return out


def compare(before: Path, after: Path, papers: list[str] | None = None) -> dict[str, list[str]]:
    """Return {relative path: differences} for every file that moved between the two trees."""
    fa, fb = files(before, papers), files(after, papers)
    moved = {f: ["only before"] for f in sorted(fa - fb)} | {f: ["only after"] for f in sorted(fb - fa)}
    for f in sorted(fa & fb):
        diff = compare_file(before / f, after / f)
        if diff:
            moved[f] = diff
    return moved


def main(argv: list[str] | None = None) -> int:
    """Print what moved between two output trees; return 1 if anything did."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--papers", nargs="*", help="compare only these papers' files (e.g. 000 004)")
    args = p.parse_args(argv)
    moved = compare(args.before, args.after, args.papers)
    for f, diffs in moved.items():
        print(f)
        for d in diffs[:20]:
            print(f"    {d}")
        if len(diffs) > 20:
            print(f"    ... {len(diffs) - 20} more")
    n = len(files(args.before, args.papers) | files(args.after, args.papers))
    print(f"{len(moved)} of {n} files moved")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
