"""The run manifest of a notebook's output folder, and its check.

:mod:`paperlib.run_notebook` stages a notebook's outputs in a scratch folder and swaps the
folder in only once the whole run succeeded, with a ``.run-manifest.json`` that lists every
file and its sha256. ``python -m paperlib.manifest check figures/000 figures/004`` (run by
``make reproduce`` before merging the ledger) fails loudly on a folder without a complete
manifest (outputs written by hand, by Jupyter, or by an interrupted or pre-manifest run) or
whose files no longer match it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from paperlib.atomic import atomic_write_text

NAME = ".run-manifest.json"
COMPLETE = "complete"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def files_of(folder: Path) -> dict[str, str]:
    """Return relative path -> sha256 of every file under ``folder`` but the manifest, sorted."""
    folder = Path(folder)
    return {p.relative_to(folder).as_posix(): _sha256(p)
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != NAME}


def write(folder: Path, *, notebook: str, parameters: dict) -> Path:
    """Write ``folder``'s manifest: status complete, the notebook, its parameters, every file's sha256."""
    record = {"status": COMPLETE, "notebook": notebook, "parameters": parameters, "files": files_of(folder)}
    return atomic_write_text(Path(folder) / NAME, json.dumps(record, indent=1, sort_keys=True, default=str) + "\n")


def problems(folder: Path) -> list[str]:
    """Return what is wrong with ``folder`` as a complete set of outputs (empty list: nothing)."""
    folder = Path(folder)
    path = folder / NAME
    if not folder.is_dir():
        return [f"{folder}: missing (a run was interrupted while swapping its outputs in?)"]
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"{folder}: no {NAME}: these outputs were not written by a complete "
                f"paperlib.run_notebook run (interrupted, or run by hand); remove the folder and rerun"]
    except ValueError as err:
        return [f"{path}: unreadable ({err})"]
    if not isinstance(record, dict) or record.get("status") != COMPLETE or not isinstance(record.get("files"), dict):
        return [f"{path}: marks an incomplete set of outputs"]
    out = []
    actual = files_of(folder)
    for name, digest in record["files"].items():
        if name not in actual:
            out.append(f"{folder / name}: listed in {NAME} but missing")
        elif actual[name] != digest:
            out.append(f"{folder / name}: changed since the run that wrote it (sha256 differs from {NAME})")
    for name in actual.keys() - record["files"].keys():
        out.append(f"{folder / name}: not written by the run recorded in {NAME}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Check the run manifests of ``folders``, printing each incomplete output; return the exit status."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m paperlib.manifest", description="check run manifests")
    parser.add_argument("command", choices=["check"])
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    found = [p for folder in args.folders for p in problems(folder)]
    for p in found:
        sys.stderr.write(f"incomplete outputs: {p}\n")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
