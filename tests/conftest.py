"""Shared test setup: hypothesis profiles (derandomised on CI), a writable copy of data/, and the two workers of
``make test`` (pytest-xdist): which tests share a worker, which come first, which run alone."""

import contextlib
import fcntl
import functools
import importlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent

# CI runs a fixed, derandomised sample so a red run is reproducible; locally hypothesis explores.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=200,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of data/ to corrupt."""
    dst = tmp_path / "data"
    shutil.copytree(REPO / "data", dst)
    return dst


# --- the paper and its chosen convention, for the tests of a paper package -----------------------------------
# A test module tests/test_reproduce_p<id>_<module>.py gets paper <id>'s published data as the fixture ``paper``
# and its chosen convention as ``conv`` (paper 002's and 003's written out in tests/p00x_helpers.py, whose
# operating_point tests check them against the search), each loaded once per session.


def _paper_id(request) -> str:
    name = Path(str(request.node.path)).name
    match = re.match(r"test_reproduce_p(\d{3})_", name)
    if match is None:
        raise pytest.UsageError(f"{name}: the fixtures paper/conv are for tests/test_reproduce_p<id>_*.py modules")
    return match.group(1)


@functools.cache
def _paper(paper_id: str):
    from paperlib.data import load_paper

    return load_paper(paper_id)


@functools.cache
def _chosen(paper_id: str) -> dict:
    if paper_id == "002":
        from p002_helpers import CHOSEN
    elif paper_id == "003":
        from p003_helpers import CHOSEN
    else:
        operating_point = importlib.import_module(f"paperlib.reproduce.p{paper_id}.operating_point")
        CHOSEN = operating_point.chosen_convention(_paper(paper_id))
    return CHOSEN


@pytest.fixture(scope="module")
def paper(request):
    """The published data of the paper whose package the test module tests."""
    return _paper(_paper_id(request))


@pytest.fixture(scope="module")
def conv(request):
    """Return the chosen convention of that paper (a dict is copied: a test may change it; a Convention is frozen)."""
    chosen = _chosen(_paper_id(request))
    return dict(chosen) if isinstance(chosen, dict) else chosen


# --- pytest -n 2 --dist loadfile (make test): one module per worker, the slow modules first, `exclusive` alone -----
# Each module is one unit of work, so its module-scoped fixtures are built once. The modules holding a `slow` test
# are handed out first, so that no long test is left for the end while the other worker idles. A test marked
# `exclusive` (real-time emulation, CPU hogs) runs while no other test runs: it takes a lock exclusively; every other
# test takes it shared. Without -n (a plain `pytest`) none of this applies: the tests run one after the other, in
# file order.


def _lock_path(config) -> Path | None:
    """Return the lock of the `exclusive` tests of this xdist run, or None when this process is no xdist worker."""
    lock = getattr(config, "workerinput", {}).get("webperf_exclusive_lock")
    return Path(lock) if lock else None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Hand each worker the lock file of this run (the xdist controller's; removed when the run ends)."""
    config = node.config
    if not hasattr(config, "_webperf_lock_dir"):
        config._webperf_lock_dir = tempfile.mkdtemp(prefix="webperf-pytest-")
        config.add_cleanup(functools.partial(shutil.rmtree, config._webperf_lock_dir, ignore_errors=True))
    node.workerinput["webperf_exclusive_lock"] = os.path.join(config._webperf_lock_dir, "exclusive.lock")


def pytest_collection_modifyitems(config, items):
    """On an xdist worker: the modules that hold a slow test first, then the others, each in file order."""
    if _lock_path(config) is None:
        return
    first = {}  # module -> its place in file order
    slow = set()  # the modules holding a test marked slow
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        first.setdefault(module, len(first))
        if item.get_closest_marker("slow"):
            slow.add(module)
    order = {module: (module not in slow, place) for module, place in first.items()}
    items.sort(key=lambda item: order[item.nodeid.split("::", 1)[0]])  # stable: a module keeps its own order


@contextlib.contextmanager
def _turn(lock: Path, exclusive: bool):
    """Hold ``lock`` exclusively or shared for the block; a waiting exclusive holder blocks new shared ones."""
    with open(lock.with_suffix(".gate"), "a") as gate, open(lock, "a") as room:
        fcntl.flock(gate, fcntl.LOCK_EX)  # the gate: an exclusive test keeps it shut while it waits and runs
        try:
            fcntl.flock(room, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            if not exclusive:
                fcntl.flock(gate, fcntl.LOCK_UN)
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Run the test (its fixtures' set-up and tear-down included) under the run's lock, if it has one."""
    lock = _lock_path(item.config)
    if lock is None:
        return (yield)
    with _turn(lock, exclusive=item.get_closest_marker("exclusive") is not None):
        return (yield)
