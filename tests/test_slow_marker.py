"""The `slow` pytest marker: declared, on the longest tests, and never deselected by `make test`.

`pytest -m "not slow"` skips the long runs (CONTRIBUTING.md); `make test` runs the whole suite, slow tests included.
"""

import ast
import re
import shlex
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"

#: The longest tests of `make test`'s --durations table on a quiet 2-core machine (20 s or more each; a minute or
#: more when the cores are shared), and the test modules whose every test waits for a long module fixture.
LONGEST = {
    "test_nbval.py::test_nbval_reexecutes_every_fixture_to_the_same_outputs",  # every fixture re-executed
    # make reproduce's runner, sequential and overlapped, on small papers (the first test builds both trees)
    "test_make_run.py::test_a_run_prints_a_line_per_paper_as_it_starts_and_ends_its_sweeps_progress_and_nothing_else",
    "test_nbval.py::test_notebook_003_small",  # 003's notebook again on the nbval run's cache
    "test_nbval.py::test_notebook_001_small",  # waits for the nbval run (001's testbed calibration in it)
    "test_sim_ns3_env.py::test_the_package_loader_parses_and_simulates_as_the_wheel_loader_of_every_module",
    "test_cluster.py",  # Dask schedulers and workers started from the command line
    # the pairs of runs of 000 (ns-3 sweeps, cold and warm) and 004, shared with test_notebook_000.py and
    # test_notebooks.py (tests/conftest.py): the first of these modules to run makes them
    "test_notebook_determinism.py",
}


def _marks(decorators) -> set[str]:
    """Return the names of the pytest marks among ``decorators`` (``pytest.mark.slow`` -> ``slow``)."""
    names = set()
    for node in decorators:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) and sub.value.attr == "mark":
                names.add(sub.attr)
    return names


def slow_marked() -> set[str]:
    """Return the test modules marked slow as a whole and the slow test functions (``module::function``)."""
    found = set()
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
                if "slow" in _marks([node.value]):
                    found.add(path.name)
            elif isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if "slow" in _marks(node.decorator_list):
                    found.add(f"{path.name}::{node.name}")
    return found


def test_slow_is_declared_as_a_marker():
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in options["addopts"].split()  # an undeclared marker is an error, not a no-op
    assert any(m.startswith("slow:") for m in options["markers"])


def test_the_longest_tests_are_marked_slow():
    marked = slow_marked()
    assert LONGEST <= marked, f"not marked slow: {sorted(LONGEST - marked)}"


def test_make_test_runs_the_slow_tests_too():
    makefile = (REPO / "Makefile").read_text()
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, flags=re.M)
    assert recipe is not None, "Makefile: no test target"
    [pytest_line] = [line for line in recipe.group(1).splitlines() if "pytest" in line]
    words = shlex.split(pytest_line.strip())
    words = words[words.index("pytest") + 1:]  # pytest's own options (python's "-m pytest" is not one)
    assert not {"-m", "-k"} & set(words) and not any(w.startswith(("-m", "--deselect")) for w in words), pytest_line
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-m" not in options["addopts"].split(), options["addopts"]
