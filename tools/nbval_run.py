"""Re-execute executed notebooks with nbval in a scratch folder and compare their outputs cell by cell.

``python tools/nbval_run.py --fixtures [NAME ...]``: the small-parameter fixtures of tests/nbval/
(what ``make test`` checks, through tests/test_nbval.py).
``python tools/nbval_run.py --executed``: figures/executed/*.ipynb of the last ``make reproduce``
(``make validate``); they run in ``<scratch>/notebooks/`` beside a fresh ``<scratch>/figures/`` and
the repository's ``.cache/`` (linked), so their relative ``output_dir`` ("../figures/<paper>") writes
into the scratch folder and their sweeps come from the cache the reproduction filled.

Either way nothing is written into the repository: every output of the re-execution lands in the
scratch folder (``--keep DIR`` keeps it). Exit status is pytest's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "nbval"
SANITIZE = FIXTURES / "sanitize.cfg"
EXECUTED = REPO / "figures" / "executed"
REGENERATE_HINT = ("If the change is intended (a notebook or a model changed on purpose), regenerate the fixtures "
                   "with `make nbval-fixtures` (about 2 minutes) and commit tests/nbval/.")


def nbval_command(notebooks: list[Path], rootdir: Path, *extra: str) -> list[str]:
    """Return the pytest command that validates ``notebooks`` (paths inside ``rootdir``)."""
    return [
        sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(SANITIZE),
        "-p", "nbval_streams", "-p", "no:cacheprovider", "--rootdir", str(rootdir), "-c", str(rootdir / "pytest.ini"),
        "-q", "-W", "ignore::DeprecationWarning", *extra, *map(str, notebooks),
    ]


def run(notebooks: list[Path], *, layout: str, scratch: Path,
        extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Copy ``notebooks`` into ``scratch`` (``layout`` "fixtures" or "executed") and run nbval over the copies."""
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "pytest.ini").write_text("[pytest]\naddopts =\n")
    if layout == "executed":
        folder = scratch / "notebooks"
        folder.mkdir(exist_ok=True)
        (scratch / "figures").mkdir(exist_ok=True)
        cache = REPO / ".cache"
        if cache.is_dir() and not (scratch / ".cache").exists():
            (scratch / ".cache").symlink_to(cache, target_is_directory=True)
    else:
        folder = scratch
    copies = []
    for nb in notebooks:
        shutil.copyfile(nb, folder / nb.name)
        copies.append(folder / nb.name)
    pythonpath = os.pathsep.join(filter(None, [str(REPO / "tools"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": pythonpath, "MPLBACKEND": "Agg"}
    # the kernels start in the copies' folder: a small one, as ns-3's loader scans its working directory
    return subprocess.run(nbval_command(copies, scratch, *extra), cwd=scratch, env=env, text=True,
                          capture_output=True)


def main(argv: list[str] | None = None) -> int:
    """Validate the fixtures or the executed notebooks with nbval; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fixtures", action="store_true", help="the small-parameter fixtures of tests/nbval/")
    which.add_argument("--executed", action="store_true", help="figures/executed/*.ipynb of the last make reproduce")
    parser.add_argument("names", nargs="*", help="only these notebooks (names without .ipynb)")
    parser.add_argument("--keep", type=Path, help="scratch folder to keep (default: a temporary one, removed)")
    args = parser.parse_args(argv)
    folder = FIXTURES if args.fixtures else EXECUTED
    notebooks = sorted(p for p in folder.glob("*.ipynb") if not args.names or p.stem in args.names)
    if not notebooks:
        hint = "run `make nbval-fixtures`" if args.fixtures else "run `make reproduce` first"
        print(f"no notebook to validate in {folder.relative_to(REPO)}: {hint}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="nbval-") as tmp:
        scratch = args.keep.resolve() if args.keep else Path(tmp)
        result = run(notebooks, layout="fixtures" if args.fixtures else "executed", scratch=scratch)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.returncode and args.fixtures:
        print(REGENERATE_HINT, file=sys.stderr)
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
