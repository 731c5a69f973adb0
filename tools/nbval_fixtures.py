"""Regenerate the nbval fixtures: every notebook executed with small parameters, committed in tests/nbval/.

``python tools/nbval_fixtures.py [NAME ...]`` (``make nbval-fixtures``) runs each notebook of
``notebooks/`` (or only the named ones, e.g. ``002_http_sctp_response``) with papermill and the
small parameters of ``tests/nbval/parameters.yml`` (the one place they are declared), in a scratch
folder so that ``output_dir`` and ``cache_dir`` are relative (``nbval-out``, ``nbval-cache``) and
the copy runs anywhere. The executed copy, minus papermill's timing metadata, replaces
``tests/nbval/<name>.ipynb``; ``tests/test_nbval.py`` re-executes it with nbval and compares every
output. Two notebooks run at a time (one kernel each). Same tree, same fixtures, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import yaml

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
FIXTURES = REPO / "tests" / "nbval"
PARAMETERS = FIXTURES / "parameters.yml"
#: Folders, relative to the notebook's working directory, that a fixture run writes to
#: (outputs in ``nbval-out/<paper>``, the sweep cache in ``nbval-cache``).
OUTPUT_DIR, CACHE_DIR = "nbval-out", "nbval-cache"


def small_parameters(name: str, notebook: Path) -> dict:
    """Return the parameters of ``name``'s fixture run: parameters.yml plus relative output/cache folders."""
    table = yaml.safe_load(PARAMETERS.read_text()) or {}
    params = dict(table.get(name) or {})
    declared = notebook_parameters(notebook)
    unknown = sorted(set(params) - declared)
    if unknown:
        raise SystemExit(f"{PARAMETERS}: {name}: {unknown} are not parameters of {notebook.name} "
                         f"(it has {sorted(declared)})")
    if "output_dir" in declared:
        params["output_dir"] = f"{OUTPUT_DIR}/{name[:3]}"
    if "cache_dir" in declared:
        params["cache_dir"] = CACHE_DIR
    return params


def notebook_parameters(notebook: Path) -> set[str]:
    """Return the names assigned in the notebook's cell tagged ``parameters``."""
    import ast

    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            tree = ast.parse(cell.source)
            return {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)}
    return set()  # a notebook without parameters (explorers.ipynb) runs as it is


def clean(nb) -> None:
    """Drop what nbval never compares, so reruns of the same tree give the same bytes and the files stay small.

    Papermill's wall-clock metadata; stderr streams (progress bars, warnings, the ns-3 JIT's
    messages: ``tools/nbval_streams.py`` drops them from the comparison too); PNG/JPEG data
    (nbval skips images; figures are checked through the tables they are drawn from); widget
    state and view ids (random per run; nbval skips them, and compares the widget's text form).
    """
    nb.metadata.pop("papermill", None)
    nb.metadata.pop("widgets", None)
    nb.metadata.setdefault("kernelspec", {})["name"] = "webperf-repro"
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell.id = "injected-parameters"  # papermill draws a random id
        if cell.cell_type != "code":
            continue
        kept = []
        for out in cell.outputs:
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                continue
            for mime in ("image/png", "image/jpeg", "application/vnd.jupyter.widget-view+json"):
                out.get("data", {}).pop(mime, None)
            kept.append(out)
        cell.outputs = kept


def regenerate(name: str) -> Path:
    """Execute ``notebooks/<name>.ipynb`` with its small parameters; write ``tests/nbval/<name>.ipynb``."""
    import papermill as pm

    notebook = NOTEBOOKS / f"{name}.ipynb"
    params = small_parameters(name, notebook)
    with tempfile.TemporaryDirectory(prefix=f"nbval-{name}-") as work:
        out = Path(work) / f"{name}.ipynb"
        pm.execute_notebook(str(notebook), str(out), parameters=params, cwd=work, progress_bar=False,
                            kernel_name="python3", log_output=False)
        nb = nbformat.read(out, as_version=4)
    clean(nb)
    target = FIXTURES / f"{name}.ipynb"
    from paperlib.atomic import atomic_write_text

    atomic_write_text(target, json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    """Write the nbval fixtures of the named notebooks (all by default); return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebook names without .ipynb (default: all of notebooks/)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="notebooks run at once (default 2)")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    missing = [n for n in names if not (NOTEBOOKS / f"{n}.ipynb").exists()]
    if missing:
        parser.error(f"no such notebook in notebooks/: {missing}")
    # processes, not threads: papermill changes the working directory of the process it runs in
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        failed = [name for name in pool.map(_one, names) if name]
    return 1 if failed else 0


def _one(name: str) -> str | None:
    """Regenerate one fixture; return its name if it failed (every failure is reported, not only the first)."""
    try:
        print(f"{name}: {regenerate(name).relative_to(REPO)}", flush=True)
    except Exception as err:
        print(f"{name}: FAILED: {getattr(err, 'ename', type(err).__name__)}: {getattr(err, 'evalue', err)}",
              file=sys.stderr, flush=True)
        return name
    return None


if __name__ == "__main__":
    raise SystemExit(main())
