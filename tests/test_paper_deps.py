"""A paper's run depends on the package code its notebook imports, not on all of paperlib (tools/paper_deps.py and the
Makefile's ``code_of``): a change to another paper, to the report or to a finding's words reruns no notebook; a change
to the code a notebook runs reruns it. Runs make with the notebook runner replaced by an echo: a few seconds."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperlib.data import PAPERS

REPO = Path(__file__).resolve().parent.parent
TOOL = REPO / "tools" / "paper_deps.py"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")


def _deps(paper: str) -> set[str]:
    (notebook,) = (REPO / "notebooks").glob(f"{paper}_*.ipynb")
    out = subprocess.run([sys.executable, str(TOOL), str(notebook)], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("paper", PAPERS)
def test_a_paper_depends_on_its_own_package_and_the_runner_not_on_other_papers_or_the_words(paper):
    deps = _deps(paper)
    own = {str(p.relative_to(REPO)) for p in (REPO / f"paperlib/reproduce/p{paper}").glob("*.py")}
    words = {f"paperlib/reproduce/p{paper}/verdict.py", "paperlib/verdicts.py"}
    assert own - words <= deps
    assert not deps & words
    assert {"paperlib/run_notebook.py", "paperlib/__init__.py", "paperlib/reproduce/__init__.py"} <= deps
    assert not any(d.startswith("paperlib/report/") for d in deps)
    for other in PAPERS:
        if other != paper:
            # another paper's package reaches this one only through registry.papers_with(...) (its stack settings)
            # and the packages' __init__.py on the import path
            theirs = {d for d in deps if d.startswith(f"paperlib/reproduce/p{other}/")}
            assert theirs <= {f"paperlib/reproduce/p{other}/stack.py", f"paperlib/reproduce/p{other}/__init__.py"}


def test_the_list_is_closed_under_import():
    """Importing every listed module (in a fresh interpreter) loads no paperlib module the list lacks, except the
    words modules it leaves off on purpose and what only they import."""
    deps = _deps("001")
    modules = sorted(".".join(Path(d).with_suffix("").parts).removesuffix(".__init__")
                     for d in deps if d.endswith(".py"))
    code = ("import json, sys\n"
            f"for m in {modules!r}: __import__(m)\n"
            "print(json.dumps(sorted(getattr(m, '__file__', None) or '' for n, m in sys.modules.items()"
            " if n == 'paperlib' or n.startswith('paperlib.'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    loaded = {str(Path(f).relative_to(REPO)) for f in json.loads(out.stdout) if f}
    assert loaded - deps == set()


def test_a_notebook_import_a_module_is_followed(tmp_path):
    """A module only the notebook imports (not the paper's package) is on the list, with its own imports."""
    (notebook,) = (REPO / "notebooks").glob("003_*.ipynb")
    nb = json.loads(notebook.read_text())
    nb["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                        "source": ["%matplotlib inline\n", "from paperlib.report import build\n"]})
    copy = tmp_path / notebook.name
    copy.write_text(json.dumps(nb))
    out = subprocess.run([sys.executable, str(TOOL), str(copy)], capture_output=True, text=True, check=True)
    deps = set(out.stdout.split())
    assert "paperlib/report/__init__.py" in deps and "paperlib/report/build.py" in deps


def _tree(tmp_path: Path) -> Path:
    """A copy of what make needs to decide paper 001's rule, every file dated in the past."""
    root = tmp_path / "repo"
    root.mkdir()
    for name in ("Makefile", "tools", "paperlib", "notebooks", "data", "requirements.lock", "pyproject.toml"):
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, root / name)
    return root


def _reruns(root: Path) -> bool:
    """Whether make would run paper 001's notebook (the runner replaced by an echo; the stamps made first)."""
    # STAMP (.venv's) taken as old and never remade (-o), the system check replaced by true
    out = subprocess.run(["make", "--no-print-directory", "STAMP=stamp", "-o", "stamp", "PREREQS=true",
                          "RUN_PAPER=echo RAN", "figures/001/ledger.csv"], cwd=root, capture_output=True, text=True,
                         check=True).stdout
    return "RAN" in out


def test_make_reruns_a_notebook_for_its_code_only(tmp_path):
    root = _tree(tmp_path)
    _reruns(root)  # writes the stamps .cache/*
    (root / "figures/001").mkdir(parents=True)
    (root / "figures/001/ledger.csv").write_text("")
    past, output_time = 1_000_000_000, 1_000_000_100
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (past, past))
    os.utime(root / "figures/001/ledger.csv", (output_time, output_time))
    assert not _reruns(root)
    later = output_time + 100
    for unrelated in ("paperlib/reproduce/p001/verdict.py", "paperlib/verdicts.py", "paperlib/reproduce/p003/tables.py",
                      "paperlib/report/build.py"):
        os.utime(root / unrelated, (later, later))
        assert not _reruns(root), unrelated
    for related in ("paperlib/reproduce/p001/tables.py", "paperlib/sweep.py", "paperlib/emulation/linkemu.c"):
        os.utime(root / related, (later, later))
        assert _reruns(root), related
        os.utime(root / related, (past, past))
