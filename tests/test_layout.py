"""Tests mirror the modules: every ``paperlib`` module has one test module named after it.

The convention (also in ``paperlib/reproduce/__init__.py`` and docs/testing.md, "Test layout"):
``paperlib/<module>.py`` -> ``tests/test_<module>.py`` and ``paperlib/<sub>/<module>.py`` ->
``tests/test_<sub>_<module>.py`` (``paperlib/models/slow_start_latency.py`` ->
``tests/test_models_slow_start_latency.py``; ``paperlib/reproduce/p004/tables.py`` ->
``tests/test_reproduce_p004_tables.py``). An ``__init__.py`` or ``__main__.py`` without a function or
class of its own needs no test module; one with logic is named after its package
(``paperlib/report/__init__.py`` -> ``tests/test_report.py``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from paperlib.data import paper_ids

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "paperlib"
TESTS = REPO / "tests"
#: The papers, discovered from data/ and notebooks/ (strict: a half-added paper fails here, naming what is missing).
PAPERS = paper_ids()


def has_logic(path: Path) -> bool:
    """Return True if ``path`` defines a function or class (a docstring, imports and constants are not logic)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for node in tree.body)


def mirrored_test(module: Path) -> str:
    """Return the test module's file name for ``module`` (a path under ``paperlib/``)."""
    parts = list(module.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] in ("__init__", "__main__"):
        parts = parts[:-1] or ["paperlib"]
    return "test_" + "_".join(parts) + ".py"


def modules(under: Path = PACKAGE) -> list[Path]:
    """Return every module under ``under`` that needs a test module, in path order."""
    out = []
    for path in sorted(under.rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py") and not has_logic(path):
            continue
        out.append(path)
    return out


def missing(paths: list[Path]) -> list[str]:
    """Return ``"paperlib/... -> tests/test_....py"`` for every module whose test module does not exist."""
    return [f"{p.relative_to(REPO)} -> tests/{mirrored_test(p)}" for p in paths
            if not (TESTS / mirrored_test(p)).exists()]


def test_the_convention_by_hand():
    # the examples of the module docstring, and the package's own __init__
    assert mirrored_test(PACKAGE / "atomic.py") == "test_atomic.py"
    assert mirrored_test(PACKAGE / "models" / "slow_start_latency.py") == "test_models_slow_start_latency.py"
    assert mirrored_test(PACKAGE / "reproduce" / "p004" / "tables.py") == "test_reproduce_p004_tables.py"
    assert mirrored_test(PACKAGE / "report" / "__init__.py") == "test_report.py"
    assert mirrored_test(PACKAGE / "__init__.py") == "test_paperlib.py"


def test_logic_is_a_function_or_a_class(tmp_path):
    (tmp_path / "doc.py").write_text('"""Only a docstring."""\nimport os\nX = 1\n')
    (tmp_path / "main.py").write_text("from a import main\n\nraise SystemExit(main())\n")
    (tmp_path / "fn.py").write_text("def f():\n    return 1\n")
    (tmp_path / "cls.py").write_text("class C:\n    pass\n")
    assert [has_logic(tmp_path / n) for n in ("doc.py", "main.py", "fn.py", "cls.py")] == [False, False, True, True]


def test_every_module_outside_reproduce_has_its_test_module():
    outside = [p for p in modules() if "reproduce" not in p.relative_to(PACKAGE).parts]
    assert len(outside) > 40  # the walk found the package (about 50 modules)
    gaps = missing(outside)
    assert not gaps, "modules without their mirrored test module:\n  " + "\n  ".join(gaps)


def test_every_module_of_the_paper_packages_has_its_test_module():
    inside = modules(PACKAGE / "reproduce")
    assert inside
    gaps = missing(inside)
    assert not gaps, "modules without their mirrored test module:\n  " + "\n  ".join(gaps)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_has_a_claim_registry(paper):
    # issue 15 item 3: paperlib/reproduce/p<id>/claims.py holds CLAIMS, a ClaimRegistry of the paper; its
    # one-to-one match with data/<id>/claims.csv is checked by tests/test_reproduce_p<id>_claims.py.
    import importlib

    from paperlib.claims import ClaimRegistry

    claims = importlib.import_module(f"paperlib.reproduce.p{paper}.claims")
    assert isinstance(claims.CLAIMS, ClaimRegistry) and claims.CLAIMS.paper_id == paper
    assert (TESTS / f"test_reproduce_p{paper}_claims.py").exists()


#: The named parts of every paper package (paperlib/reproduce/__init__.py); every paper has all of them.
COMMON_PARTS = ("convention", "operating_point", "tables", "findings", "claims", "ledger_rows", "what_if", "figures",
                "verdict", "reproduce")


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_package_has_the_named_parts_and_a_map(paper):
    import importlib

    folder = PACKAGE / "reproduce" / f"p{paper}"
    assert [p for p in COMMON_PARTS if not (folder / f"{p}.py").exists()] == []
    package = importlib.import_module(f"paperlib.reproduce.p{paper}")
    # the map: the package docstring names the paper's notebook and every module of the package
    doc = package.__doc__ or ""
    assert f"notebooks/{paper}_" in doc
    assert [m.stem for m in sorted(folder.glob("*.py")) if m.stem != "__init__" and m.stem not in doc] == []


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_package_answers_the_protocol(paper):
    # issue 24: the calls of paperlib/reproduce/protocol.py, with its signatures and return types
    from paperlib.reproduce import protocol

    assert protocol.conformance(paper) == []


def module_name(path: Path) -> str:
    """Return the import name of a module under :data:`REPO` (a package by its ``__init__.py``)."""
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def module_level_imports(path: Path) -> set[str]:
    """Return the modules ``path`` imports when it is imported: its top-level imports, those under a top-level ``if``
    (``if TYPE_CHECKING:`` included: a checker follows them) and ``try`` (not those in functions); ``from a import
    b`` gives ``a`` and ``a.b``, whether or not ``a.b`` is a module."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    statements = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.If, ast.Try)):
            statements += node.body + node.orelse + getattr(node, "finalbody", [])
            statements += [s for h in getattr(node, "handlers", []) for s in h.body]
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            origin = ".".join(base + [node.module] if node.module else base) if node.level else node.module
            found |= {origin} | {f"{origin}.{a.name}" for a in node.names}
    return found - {name}


def import_cycles() -> list[list[str]]:
    """Return the cycles of ``paperlib``'s module-level import graph (each once, as a list of modules)."""
    paths = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    graph = {name: module_level_imports(path) & paths.keys() for name, path in paths.items()}
    cycles, done = [], set()
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    cycle = frozenset(path)
                    if cycle not in done:
                        done.add(cycle)
                        cycles.append(path)
                elif nxt not in path and nxt > start:  # each cycle found from its smallest module only
                    stack.append((nxt, path + [nxt]))
    return cycles


def test_paperlib_has_no_import_cycle():
    # issue 32: the paper packages' cycles (model <-> operating_point, ...) existed only for the type Convention,
    # now in each package's leaf module convention.py
    assert import_cycles() == []


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    root = tmp_path / "paperlib"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "a.py").write_text("from typing import TYPE_CHECKING\n"
                                       "if TYPE_CHECKING:\n    from paperlib.sub.b import B\n")
    (root / "sub" / "b.py").write_text("from . import c\n")
    (root / "sub" / "c.py").write_text("def f():\n    from paperlib.sub import a  # in a function: no cycle\n")
    (root / "sub" / "d.py").write_text("from paperlib.sub import a\n")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert import_cycles() == []
    (root / "sub" / "c.py").write_text("from paperlib.sub import d\n")
    assert import_cycles() == [["paperlib.sub.a", "paperlib.sub.b", "paperlib.sub.c", "paperlib.sub.d"]]


def test_no_notebook_opens_or_closes_a_resource_by_hand():
    # issue 32, item 4: a cluster (or any context) a notebook needs for its whole run is held by the run
    # (notebook.PaperRun.hold) and released by notebook.close_paper, never entered or exited in a cell
    import nbformat

    found = [f"{nb.name}: {line.strip()}" for nb in sorted((REPO / "notebooks").glob("*.ipynb"))
             for cell in nbformat.read(nb, as_version=4).cells if cell.cell_type == "code"
             for line in cell.source.splitlines() if ".__enter__(" in line or ".__exit__(" in line]
    assert found == []
