#!/usr/bin/env python3
"""Print the package files a paper's notebook run depends on: what its notebook imports from ``paperlib``, closed.

    tools/paper_deps.py NOTEBOOK            # one path per line, sorted, relative to the checkout
    tools/paper_deps.py --make NOTEBOOK...  # for the Makefile: one word <id>:<path> per file, all papers at once

The Makefile makes ``figures/<id>/ledger.csv`` depend on this list instead of on all of ``paperlib``, so a
change to another paper's package, to the report or to a finding's words reruns no notebook (issue: "make
reruns what changed"). Standard library only: make calls it before ``.venv`` exists, and it imports nothing
of the package (it reads the sources).

What is on the list, starting from the ``paperlib`` imports of the notebook's code cells and from the runner
``paperlib/run_notebook.py`` (it executes the notebook and runs the paper's ``what_if`` check):

* every module reached by ``import`` / ``from ... import`` statements anywhere in a listed module (inside
  functions too: a lazy import is still a dependency), with the ``__init__.py`` of each package on the way;
  ``from package import name`` lists ``package/name.py`` when that is a module;
* the paper's own package, whole: shared modules load its parts by name (:mod:`paperlib.registry`,
  ``importlib``), which no static reading can follow;
* for a ``papers_with("<part>")`` call of the registry in a listed module, that part of every paper (the one
  registry call that reaches other papers' packages);
* the C and C++ sources (``*.c``, ``*.cpp``, ``*.h``) beside a listed module and in the plain folders under
  its package: the emulator's and the simulators' programs, compiled on first use.

What is left off: the words of the findings, ``paperlib/verdicts.py`` and each paper's ``verdict.py`` (the
README, the report and the merged ledger's summary are built from them after the notebooks, in seconds). A
notebook shows its paper's finding in its closing cell, in the words of the code it ran with.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "paperlib"
#: The modules whose change reruns no notebook (see the module docstring), as module names or name patterns.
WORDS = (re.compile(r"paperlib\.verdicts"), re.compile(r"paperlib\.reproduce\.p\d{3}\.verdict"))
#: Non-Python sources compiled at run time.
NATIVE_SUFFIXES = (".c", ".cpp", ".h")
RUNNER = "paperlib.run_notebook"


def module_path(name: str) -> Path | None:
    """Return the source file of module ``name`` under the checkout (a package's ``__init__.py``), else None."""
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path) -> str:
    """Return the import name of a source file under the checkout."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: An import statement at the start of a line: ``from [dots]module import names`` (names in parentheses may span
#: lines) or ``import names``.
IMPORT_RE = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
                       r"|import[ \t]+([^\n#;]+))", re.MULTILINE)
#: A literal part name given to the registry's ``papers_with``.
PAPERS_WITH_RE = re.compile(r"papers_with\(\s*[\"'](\w+)[\"']")


def _names(text: str) -> list[str]:
    """Return the imported names of an import list (``a as b, c`` gives a and c; parentheses and ``*`` dropped)."""
    words = (part.strip().split() for part in text.strip().strip("()").split(","))
    return [w[0] for w in words if w and w[0] != "*"]


def imported_names(source: str, current: str, is_package: bool) -> set[str]:
    """Return the ``paperlib`` module names a source imports (``from a import b`` gives ``a`` and ``a.b``).

    Read line by line (a regular expression, not a parse: an import-like line in a string counts too, which can
    only add a dependency), so that make pays milliseconds for it; ``tests/test_paper_deps.py`` checks the list
    against what the interpreter loads.
    """
    names: set[str] = set()
    for dots, module, listed, plain in IMPORT_RE.findall(source.replace("\\\n", " ")):
        if plain:
            names.update(_names(plain))
            continue
        if dots:
            base = current.split(".")
            base = base[: len(base) - len(dots) + (1 if is_package else 0)]
            origin = ".".join(base + ([module] if module else []))
        else:
            origin = module
        names.add(origin)
        names.update(f"{origin}.{name}" for name in _names(listed))
    return {n for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")}


def registry_parts(source: str) -> set[str]:
    """Return the part names given as literals to ``papers_with(...)`` calls in a source."""
    return set(PAPERS_WITH_RE.findall(source))


def notebook_imports(notebook: Path) -> set[str]:
    """Return the ``paperlib`` modules the notebook's code cells import."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    names: set[str] = set()
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = "".join(cell["source"])
        # IPython syntax (magics, shell escapes) is not Python: such lines cannot import anything of the package.
        source = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
        names |= imported_names(source, "__main__", False)
    return names


@functools.lru_cache(maxsize=None)
def _read(path: Path, name: str) -> tuple[frozenset[str], frozenset[str]]:
    """Return the ``paperlib`` modules a source file imports and the parts it asks ``papers_with`` for (read once)."""
    text = path.read_text(encoding="utf-8")
    return frozenset(imported_names(text, name, path.name == "__init__.py")), frozenset(registry_parts(text))


def dependencies(notebook: Path) -> list[Path]:
    """Return the sorted source files the run of ``notebook`` depends on (see the module docstring)."""
    paper = notebook.name.split("_", 1)[0]
    own = ROOT / PACKAGE / "reproduce" / f"p{paper}"
    seeds = notebook_imports(notebook) | {RUNNER}
    if own.is_dir():
        seeds |= {module_name(p) for p in own.glob("*.py")}
    seen: set[str] = set()
    files: set[Path] = set()
    wanted_parts: set[str] = set()
    queue = sorted(seeds)
    while queue:
        name = queue.pop()
        if name in seen or any(w.fullmatch(name) for w in WORDS):
            continue
        seen.add(name)
        # Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        queue.extend(p for p in parents if p not in seen)
        path = module_path(name)
        if path is None:
            continue  # an imported attribute, not a module (``from paperlib.x import function``)
        files.add(path)
        imports, parts = _read(path, name)
        queue.extend(sorted(imports - seen))
        for part in parts - wanted_parts:
            wanted_parts.add(part)
            found = (ROOT / PACKAGE / "reproduce").glob(f"p[0-9][0-9][0-9]/{part}.py")
            queue.extend(module_name(p) for p in sorted(found))
    for folder in {path.parent for path in files}:
        plain = [d for d in folder.iterdir()
                 if d.is_dir() and not (d / "__init__.py").exists() and d.name != "__pycache__"]
        candidates = list(folder.iterdir()) + [p for d in plain for p in d.rglob("*")]
        files.update(p for p in candidates if p.suffix in NATIVE_SUFFIXES and p.is_file())
    return sorted(p.relative_to(ROOT) for p in files)


def main(argv: list[str]) -> int:
    """Print the dependencies of one notebook, or (``--make``) of several as make words; return the exit status."""
    make = argv[:1] == ["--make"]
    notebooks = [Path(a) for a in argv[1:]] if make else argv
    if not notebooks or (not make and len(argv) != 1):
        print("usage: tools/paper_deps.py NOTEBOOK | tools/paper_deps.py --make NOTEBOOK...", file=sys.stderr)
        return 2
    for notebook in map(Path, notebooks):
        if not notebook.is_file():
            print(f"tools/paper_deps.py: no notebook {notebook}", file=sys.stderr)
            return 2
    if not make:
        print("\n".join(map(str, dependencies(Path(notebooks[0]).resolve()))))
        return 0
    words = []
    for notebook in notebooks:
        paper = notebook.name.split("_", 1)[0]
        words += [f"{paper}:{path}" for path in dependencies(notebook.resolve())]
    print(" ".join(words))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
