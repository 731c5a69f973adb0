"""Write the reference run ``reference/`` from a complete ``make reproduce`` run, and check it is not stale.

``python -m paperlib.reference_run write`` (``make reference``) copies from ``figures/``:

* ``ledger.csv``: the run's merged ledger, byte for byte;
* ``figures/<id>/<name>.png``: each paper's key figures (its package's ``KEY_FIGURES``), at most
  :data:`MAX_WIDTH` pixels wide and in 256 colours, keeping the run's provenance text chunks
  (:func:`small_png`; the same input gives the same bytes);
* ``figures/<id>/<table>.csv``: each paper's real-stack table (``REAL_STACK_INTERVALS``), byte for byte;
* ``RUN.json``: the commit(s) and dirty flag of the run, when its ledger was written, the schedule
  (``JOBS``), each paper's parameters, rows and run time, the machine (cores, CPU model, memory,
  kernel, OS, Python) and the command that regenerates it.

It refuses an incomplete run, naming every missing or incomplete file, and replaces ``reference/`` whole
(built beside it, then swapped in). Run it on the machine that made the run: the machine it records is
the one it runs on.

``python -m paperlib.reference_run check`` (``make validate``) says what in ``reference/`` is stale against
the code: rows the code declares that its ledger lacks (:func:`declared_keys`), papers it lacks or has too
many, key figures and real-stack tables missing or left over, and paper pages that do not show their key
figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from paperlib.atomic import atomic_write_text, replace_folder
from paperlib.ledger import ALL_COLUMNS
from paperlib.reference import FIGURES, KEY, LEDGER, REFERENCE_DIR, REPO, RUN, Declaration, declarations

#: The widest key figure the reference keeps, in pixels (wider ones are scaled down, aspect kept).
MAX_WIDTH = 1200
#: The colours of a key figure in the reference (a palette PNG).
COLOURS = 256
DOCS_DIR = REPO / "docs"


#: What renews a stale reference, after a complete ``make reproduce``.
FIX = "make reference"


class IncompleteRun(ValueError):
    """A ``figures/`` folder that does not hold a complete ``make reproduce`` run."""


def small_png(data: bytes, max_width: int | None = None) -> bytes:
    """Return the PNG ``data`` at most ``max_width`` pixels wide (default :data:`MAX_WIDTH`), in :data:`COLOURS`
    colours, its text kept.

    The image is flattened on white, scaled down (Lanczos, aspect kept) if wider than ``max_width``, and
    quantised (median cut, no dithering): the same bytes in give the same bytes out.
    """
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    max_width = MAX_WIDTH if max_width is None else max_width
    if max_width < 1:
        raise ValueError(f"max_width must be at least 1 pixel, got {max_width}")
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        text = dict(getattr(img, "text", {}) or {})
        rgba = img.convert("RGBA")
    flat = Image.new("RGB", rgba.size, (255, 255, 255))
    flat.paste(rgba, mask=rgba.getchannel("A"))
    if flat.width > max_width:
        flat = flat.resize((max_width, max(1, round(flat.height * max_width / flat.width))),
                           Image.Resampling.LANCZOS)
    small = flat.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    info = PngInfo()
    for key in sorted(text):
        info.add_text(key, text[key])
    buf = io.BytesIO()
    small.save(buf, format="PNG", optimize=True, pnginfo=info)
    return buf.getvalue()


def cpu_model(cpuinfo: str) -> str:
    """Return the CPU model of a ``/proc/cpuinfo`` text (its first ``model name``; "" if none)."""
    match = re.search(r"^model name\s*:\s*(.+?)\s*$", cpuinfo, re.M)
    return match.group(1) if match else ""


def os_name(os_release: str) -> str:
    """Return the ``PRETTY_NAME`` of an ``/etc/os-release`` text ("" if none)."""
    match = re.search(r"^PRETTY_NAME=(.*)$", os_release, re.M)
    return match.group(1).strip().strip('"') if match else ""


def memory_gib(meminfo: str) -> float | None:
    """Return ``MemTotal`` of a ``/proc/meminfo`` text in GiB, two decimals (None if absent)."""
    match = re.search(r"^MemTotal:\s*(\d+)\s*kB", meminfo, re.M)
    return round(int(match.group(1)) * 1024 / 2**30, 2) if match else None


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def machine() -> dict:
    """Return this machine: cores, CPU model, memory (GiB), kernel, OS and Python version."""
    return {"cores": os.cpu_count(), "cpu": cpu_model(_read("/proc/cpuinfo")) or platform.processor(),
            "memory_gib": memory_gib(_read("/proc/meminfo")), "kernel": platform.release(),
            "os": os_name(_read("/etc/os-release")) or platform.platform(), "python": platform.python_version()}


def incomplete(figures: Path, decls: list[Declaration]) -> list[str]:
    """Return what keeps ``figures`` from being a complete run to copy (empty: it is one).

    Every paper's folder must carry a complete run manifest (:func:`paperlib.manifest.problems`), its key figures
    and its real-stack table; ``figures/ledger.csv`` must exist and hold each paper's own ledger as it is (else
    the run stopped before merging).
    """
    from paperlib import manifest

    figures = Path(figures)
    merged = figures / "ledger.csv"
    out = []
    if not merged.exists():
        out.append(f"{merged} missing (make reproduce merges it once every paper has run)")
    for d in decls:
        folder = figures / d.paper
        out += manifest.problems(folder) if folder.is_dir() else [f"{folder}/ missing (paper {d.paper} has not run)"]
        if not folder.is_dir():
            continue
        wanted = [*d.key_figures, *([d.intervals.file] if d.intervals else [])]
        out += [f"{folder / name} missing" for name in wanted if not (folder / name).exists()]
    if not merged.exists():
        return out
    frame = pd.read_csv(merged, dtype=str, keep_default_na=False)
    out += _profiled(frame, merged)
    for d in decls:
        partial = figures / d.paper / "ledger.csv"
        rows = frame[frame["paper"] == d.paper].reset_index(drop=True)
        if not len(rows):
            out.append(f"{merged} has no row of paper {d.paper}")
        elif partial.exists() and not rows.equals(pd.read_csv(partial, dtype=str, keep_default_na=False)):
            out.append(f"{merged} does not hold the rows of {partial} (the run stopped before merging the ledger)")
    return out


def _profiled(frame: pd.DataFrame, path: Path) -> list[str]:
    """Return why a ledger of a reduced profile (its ``profile`` column set, e.g. quick) cannot be the reference."""
    if "profile" not in frame.columns:
        return []
    named = frame["profile"].astype(str).str.strip()
    profiles = sorted(set(named[named != ""]))
    if not profiles:
        return []
    return [f"{path} holds {int((named != '').sum())} row(s) of profile {', '.join(profiles)}: a reference is a run at "
            "the notebooks' own scale (make reproduce without PROFILE=quick)"]


def _json_or_text(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _one_or_all(values: list[str], parse=lambda v: v):
    """Return the one text of ``values`` or, if they differ, all of them sorted; each through ``parse``."""
    unique = [parse(v) for v in sorted(set(values))]
    return unique[0] if len(unique) == 1 else unique


def run_record(frame: pd.DataFrame, decls: list[Declaration], *, finished: float, jobs: str | None,
               times: dict[str, dict], host: dict) -> dict:
    """Return ``RUN.json``'s content for the merged ledger ``frame`` of a run whose ledger was written at ``finished``.

    ``times`` holds each paper's run record (:func:`paperlib.run_progress.read_record`); a paper's time is kept
    only from a successful record that started before ``finished`` (the run behind the ledger). ``host`` is
    :func:`machine`'s record.
    """
    papers = {}
    for d in decls:
        rows = frame[frame["paper"] == d.paper]
        entry = {"rows": len(rows), "commit": _one_or_all(list(rows["commit"])),
                 "parameters": _one_or_all(list(rows["parameters"]), _json_or_text) if len(rows) else None,
                 "key_figures": list(d.key_figures)}
        if d.intervals:
            entry["real_stack_table"] = d.intervals.file
        record = times.get(d.paper) or {}
        if record.get("ok") and isinstance(record.get("started"), (int, float)) and record["started"] <= finished:
            entry["seconds"] = record.get("seconds")
            entry["cold"] = record.get("cold")
        papers[d.paper] = entry
    schedule = f" JOBS={jobs}" if jobs else ""
    return {
        "what": "one complete `make reproduce` run: its ledger, each paper's key figures and real-stack table",
        "command": f"make reproduce{schedule} && make reference{schedule}",
        "commit": _one_or_all(list(frame["commit"])),
        "dirty": bool((frame["dirty"].astype(str).str.lower() == "true").any()),
        "finished": datetime.fromtimestamp(finished, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "jobs": jobs,
        "ledger_rows": len(frame),
        "machine": host,
        "papers": papers,
    }


def write(figures: Path, out: Path = REFERENCE_DIR, *, decls: list[Declaration] | None = None,
          jobs: str | None = None, times_dir: Path | None = None, host: dict | None = None) -> Path:
    """Write the reference run ``out`` from the complete run in ``figures``; return ``out``.

    Raises :class:`IncompleteRun` naming every missing or incomplete file (:func:`incomplete`); ``out`` is then
    left as it was. Otherwise ``out`` is replaced whole (built beside it, then swapped in).
    """
    from paperlib.run_progress import read_record

    figures, out = Path(figures), Path(out)
    decls = declarations() if decls is None else decls
    problems = incomplete(figures, decls)
    if problems:
        raise IncompleteRun(f"{figures} does not hold a complete make reproduce run:\n  " + "\n  ".join(problems))
    merged = figures / "ledger.csv"
    frame = pd.read_csv(merged, dtype=str, keep_default_na=False)
    times = {d.paper: read_record(d.paper, times_dir) for d in decls} if times_dir else {}
    record = run_record(frame, decls, finished=merged.stat().st_mtime, jobs=jobs, times=times,
                        host=machine() if host is None else host)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        tmp.chmod(0o755)
        shutil.copyfile(merged, tmp / LEDGER)
        for d in decls:
            folder = tmp / FIGURES / d.paper
            folder.mkdir(parents=True)
            for name in d.key_figures:
                (folder / name).write_bytes(small_png((figures / d.paper / name).read_bytes()))
            if d.intervals:
                shutil.copyfile(figures / d.paper / d.intervals.file, folder / d.intervals.file)
        atomic_write_text(tmp / RUN, json.dumps(record, indent=1, sort_keys=True) + "\n")
        replace_folder(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out



def declared_keys(papers: tuple[str, ...] | list[str] | None = None) -> set[tuple[str, str, str, str]]:
    """Return the (paper, source, row, column) of every ledger row the code declares without running anything.

    Each paper's ``ledger_rows.ledger_rows(paper)`` without simulations or real stacks (the protocol's call):
    the rows that need a run are there too, saying they were not run. A run adds rows (claims judged on the
    real stacks), so these are the rows any complete run's ledger must hold.
    """
    import importlib

    from paperlib.data import PAPERS, load_paper

    keys = set()
    for paper in PAPERS if papers is None else papers:
        module = importlib.import_module(f"paperlib.reproduce.p{paper}.ledger_rows")
        keys |= {(r.paper, r.source, r.row, r.column) for r in module.ledger_rows(load_paper(paper))}
    return keys


def _key_text(key: tuple[str, ...]) -> str:
    text = " / ".join(" ".join(str(k).split()) for k in key)
    return text if len(text) <= 150 else text[:147] + "..."


def stale(reference: Path, decls: list[Declaration], keys: set[tuple[str, str, str, str]] | None,
          docs: Path | None = DOCS_DIR) -> list[str]:
    """Return what in the reference run ``reference`` is stale against the code (empty: nothing found).

    ``decls`` are the papers' declarations, ``keys`` the rows the code declares (:func:`declared_keys`; None
    skips that check), ``docs`` the documents whose ``papers/<id>.md`` must show each key figure from the
    reference (None skips it).
    """
    reference = Path(reference)
    ledger_path, run_path = reference / LEDGER, reference / RUN
    out = []
    if not ledger_path.exists():
        return [f"{ledger_path} missing: the package carries no reference run"]
    frame = pd.read_csv(ledger_path, dtype=str, keep_default_na=False)
    missing_cols = [c for c in (*KEY, "status") if c not in frame.columns]
    if missing_cols:
        return [f"{ledger_path}: no column(s) {missing_cols}"]
    # as paperlib.ledger.read: a ledger without ``profile`` reads as one at the notebooks' own scale
    lacking_cols = [c for c in ALL_COLUMNS if c not in frame.columns and c != "profile"]
    if lacking_cols:
        out.append(f"{ledger_path} has no column(s) {lacking_cols} of the ledger the code writes")
    out += _profiled(frame, ledger_path)
    try:
        run = json.loads(run_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        out.append(f"{run_path} missing or unreadable ({err})")
        run = {}
    wanted = ("commit", "finished", "jobs", "machine", "command", "papers")
    out += [f"{run_path} has no {k!r}" for k in wanted if run and k not in run]
    registered = [d.paper for d in decls]
    papers = set(frame["paper"])
    out += [f"{ledger_path} has no row of paper {p}" for p in registered if p not in papers]
    out += [f"{ledger_path} has rows of paper {p}, which is not a registered paper"
            for p in sorted(papers - set(registered))]
    if keys is not None:
        have = set(map(tuple, frame[list(KEY)].itertuples(index=False, name=None)))
        lacking = sorted(keys - have)
        if lacking:
            shown = "; ".join(_key_text(k) for k in lacking[:3])
            out.append(f"{ledger_path} lacks {len(lacking)} row(s) the code declares (e.g. {shown})")
    for d in decls:
        folder = reference / FIGURES / d.paper
        wanted_files = set(d.key_figures) | ({d.intervals.file} if d.intervals else set())
        out += [f"{folder / name} missing (a key figure of paper {d.paper})" for name in d.key_figures
                if not (folder / name).exists()]
        present = {p.name for p in folder.iterdir() if p.is_file()} if folder.is_dir() else set()
        out += [f"{folder / name} is not declared by paper {d.paper} any more"
                for name in sorted(present - wanted_files)]
        if d.intervals:
            path = folder / d.intervals.file
            if not path.exists():
                out.append(f"{path} missing (paper {d.paper}'s real-stack table)")
            else:
                columns = list(pd.read_csv(path, nrows=0).columns)
                lack = [c for c in d.intervals.columns if c not in columns]
                if lack:
                    out.append(f"{path} has no column(s) {lack} that paper {d.paper} declares")
        if docs is not None:
            page = Path(docs) / "papers" / f"{d.paper}.md"
            text = page.read_text(encoding="utf-8") if page.exists() else ""
            out += [f"{page} does not show the key figure {name} (link ../../reference/{FIGURES}/{d.paper}/{name})"
                    for name in d.key_figures if f"reference/{FIGURES}/{d.paper}/{name}" not in text]
    out += [f"{folder} holds no declared paper" for folder in sorted((reference / FIGURES).glob("*"))
            if folder.name not in registered]
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the reference from a run (``write``) or check it against the code (``check``); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.reference_run", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="copy the last make reproduce run of --figures into --out (make reference)")
    w.add_argument("--figures", type=Path, default=REPO / "figures")
    w.add_argument("--out", type=Path, default=REFERENCE_DIR)
    w.add_argument("--jobs", default=None, help="the schedule the run used (make's JOBS)")
    w.add_argument("--times-dir", type=Path, default=None, help="the run's records (.cache/run-times)")
    c = sub.add_parser("check", help="say what in --reference is stale against the code (make validate)")
    c.add_argument("--reference", type=Path, default=REFERENCE_DIR)
    c.add_argument("--docs", type=Path, default=DOCS_DIR)
    c.add_argument("--no-rows", action="store_true", help="skip the rows the code declares (the slow part)")
    args = parser.parse_args(argv)
    if args.command == "write":
        try:
            out = write(args.figures, args.out, jobs=args.jobs or None, times_dir=args.times_dir)
        except IncompleteRun as err:
            print(f"make reference: {err}", file=sys.stderr)
            return 1
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"{out}: the reference run ({size / 2**20:.2f} MB); commit it to publish it")
        return 0
    decls = declarations()
    problems = stale(args.reference, decls, None if args.no_rows else declared_keys([d.paper for d in decls]),
                     args.docs)
    if problems:
        print(f"{args.reference} is stale (make reproduce, then {FIX}):\n  " + "\n  ".join(problems),
              file=sys.stderr)
        return 1
    print(f"{args.reference}: the reference run matches the code (papers, rows, key figures, real-stack tables)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
