"""make test's two workers (tests/conftest.py under pytest-xdist): exclusive tests run alone, shared runs are made
once, the modules holding an exclusive test are handed out first (their exclusive tests at their front), then those
holding a slow test.

A small suite of sleeping tests runs under ``pytest -n 2 --dist loadfile --no-loadscope-reorder`` (make test's
options) with a copy of tests/conftest.py; each test writes when it started and ended, on which worker.
"""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytest.importorskip("xdist")

PROBE = '''

@pytest.fixture(scope="session")
def made(request, tmp_path_factory):
    """A folder made once per run, by _made_once, counting its makes in the log."""
    def make(folder):
        with open(os.environ["WORKERS_LOG"], "a") as log:
            log.write("made\\n")
        (folder / "x").write_text("x")
    return _made_once(request.config, tmp_path_factory, "probe", make)


def record(name):
    start = time.time()
    time.sleep(0.3)
    with open(os.environ["WORKERS_LOG"], "a") as log:
        log.write(f"{name} {os.environ.get('PYTEST_XDIST_WORKER')} {start} {time.time()}\\n")
'''

#: the suite: module -> its source (test_b holds the exclusive tests, after a shared one; test_c holds the only slow
#: test, and comes third in file order)
SUITE = {
    "test_a.py": """
        from conftest import record

        def test_a0(made):
            assert (made / "x").read_text() == "x"
            record("a0")

        def test_a1():
            record("a1")
    """,
    "test_b.py": """
        import pytest
        from conftest import record

        def test_b0():
            record("b0")

        @pytest.mark.exclusive
        def test_b1(made):
            assert (made / "x").read_text() == "x"
            record("EXCLUSIVE-b1")

        @pytest.mark.exclusive
        def test_b2():
            record("EXCLUSIVE-b2")
    """,
    "test_c.py": """
        import pytest
        from conftest import record

        @pytest.mark.slow
        def test_c0():
            record("c0")

        def test_c1():
            record("c1")
    """,
    "test_d.py": """
        from conftest import record

        def test_d0():
            record("d0")

        def test_d1():
            record("d1")
    """,
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Run the suite on two workers; return its output and the log's lines."""
    root = tmp_path_factory.mktemp("workers")
    (root / "conftest.py").write_text((REPO / "tests" / "conftest.py").read_text() + "\nimport time\n" + PROBE)
    (root / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n    exclusive: alone\n")
    for name, source in SUITE.items():
        (root / name).write_text(textwrap.dedent(source))
    log = root / "log.txt"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadfile", "--no-loadscope-reorder",
                           "-p", "no:cacheprovider", "-q", "--rootdir", str(root), "-c", str(root / "pytest.ini"),
                           "--basetemp", str(root / "tmp"), str(root)],
                          cwd=root, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "WORKERS_LOG": str(log)})
    shutil.rmtree(root / "tmp", ignore_errors=True)
    return proc, log.read_text().splitlines() if log.exists() else []


def _records(lines):
    """Return (name, worker, start, end) per test, in the order they were written."""
    return [(n, w, float(a), float(b)) for n, w, a, b in (line.split() for line in lines if line != "made")]


def test_the_suite_runs_on_both_workers(run):
    proc, lines = run
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert re.search(r"\b9 passed\b", proc.stdout), proc.stdout[-2000:]
    # four modules for two workers: each worker takes at least one
    assert {w for _, w, _, _ in _records(lines)} == {"gw0", "gw1"}


def test_an_exclusive_test_runs_while_no_other_test_runs(run):
    records = _records(run[1])
    exclusive = [r for r in records if r[0].startswith("EXCLUSIVE")]
    assert len(exclusive) == 2
    # the lock is held from before a test starts until after it ends, so no interval overlaps an exclusive one
    assert [(x[0], y[0]) for x in exclusive for y in records if y is not x and x[2] < y[3] and y[2] < x[3]] == []


def test_a_run_made_once_is_made_once_and_read_by_both_modules(run):
    lines = run[1]
    assert lines.count("made") == 1  # test_a and test_b both read it, on whichever workers they ran
    assert {"a0", "EXCLUSIVE-b1"} <= {r[0] for r in _records(lines)}


def test_the_exclusive_tests_come_first_then_the_module_with_a_slow_test(run):
    records = _records(run[1])
    [exclusive_worker] = {w for n, w, _, _ in records if n == "EXCLUSIVE-b1"}
    [slow_worker] = {w for n, w, _, _ in records if n == "c0"}
    # test_b holds the exclusive tests: the first unit handed out, its exclusive tests before its shared one
    assert [n for n, w, _, _ in records if w == exclusive_worker][:3] == ["EXCLUSIVE-b1", "EXCLUSIVE-b2", "b0"]
    # test_c is third in file order, but holds the only slow test: the next unit, the other worker's first (in the
    # module's own order)
    assert slow_worker != exclusive_worker
    assert [n for n, w, _, _ in records if w == slow_worker][:2] == ["c0", "c1"]


def test_the_order_exclusive_modules_then_slow_ones_with_an_exclusive_module_holding_a_slow_test_last_of_its_kind():
    """The order conftest's hook gives the items of five modules (no suite run: its function on stand-in items)."""
    import conftest

    class Item:
        def __init__(self, nodeid: str, *marks: str):
            self.nodeid, self.marks = nodeid, marks

        def get_closest_marker(self, name):
            return name if name in self.marks else None

    class Config:
        workerinput = {"webperf_exclusive_lock": "/nonexistent/exclusive.lock"}  # as on an xdist worker

    items = [Item("a.py::t0"), Item("b.py::t0", "slow"), Item("b.py::t1", "exclusive"),  # exclusive + slow: 2nd
             Item("c.py::t0", "slow"), Item("d.py::t0"), Item("d.py::t1", "exclusive"),  # exclusive only: 1st
             Item("e.py::t0")]
    conftest.pytest_collection_modifyitems(Config(), items)
    # d (exclusive), b (exclusive and slow), c (slow), then a and e in file order; exclusive tests first in a module
    assert [i.nodeid for i in items] == ["d.py::t1", "d.py::t0", "b.py::t1", "b.py::t0", "c.py::t0", "a.py::t0",
                                         "e.py::t0"]
