"""Shared test setup: hypothesis profiles (derandomised on CI), a writable copy of data/, and the two workers of
``make test`` (pytest-xdist): which tests share a worker, which come first, which run alone."""

import contextlib
import dataclasses
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

# CI runs a fixed, derandomised sample so a red run is reproducible; locally hypothesis explores. Either way 100
# examples a property (Hypothesis's default), no deadline, and no failure for slow data generation: make test runs
# two workers on two cores, so a loaded machine must not fail a property that holds.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=100,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
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


# --- notebook runs and a report that several test modules check, made once per test run ------------------------
# A notebook run costs seconds to a minute, so the modules that check the same run share it: test_notebook_000.py
# and test_notebook_determinism.py check paper 000's pair of runs, test_notebooks.py and test_notebook_determinism.py
# paper 004's; test_report_build.py and test_report_browser.py the same small report. Under pytest -n the first
# worker that needs one makes it and the other waits for it and reads it. The tests only read these folders.


@dataclasses.dataclass(frozen=True)
class Twice:
    """A notebook run twice with the same parameters (the same output_dir and cache_dir both times).

    ``executed``: the two executed notebooks, each in a run folder of its own; ``outputs``: copies of the output
    folder taken after each run; ``cache``: the sweep cache the first run filled and the second read, or None.
    """

    params: dict
    executed: tuple[Path, Path]
    outputs: tuple[Path, Path]
    cache: Path | None


def _made_once(config, tmp_path_factory, name: str, make) -> Path:
    """Return the folder ``make(folder)`` filled, made once per test run by whichever process needs it first."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if hasattr(config, "workerinput") else base  # an xdist worker's base is <run's base>/gwN
    folder = root / f"once-{name}"
    with open(root / f"once-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():  # a failed attempt is made again (and fails again, in every test)
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder


def _twice(config, tmp_path_factory, notebook: str, params: dict, with_cache: bool) -> Twice:
    """Run ``notebooks/<notebook>.ipynb`` twice with ``params`` (once per test run); return the pair."""
    from paperlib.run_notebook import run

    def paths(folder: Path) -> Twice:
        cache = {"cache_dir": str(folder / "cache")} if with_cache else {}
        return Twice({**params, "output_dir": str(folder / "out"), **cache},
                     tuple(folder / f"run-{i}" / f"{notebook}.ipynb" for i in (1, 2)),
                     tuple(folder / f"out-{i}" for i in (1, 2)), folder / "cache" if with_cache else None)

    def make(folder: Path) -> None:
        pair = paths(folder)
        for executed, copy in zip(pair.executed, pair.outputs, strict=True):
            run(REPO / "notebooks" / f"{notebook}.ipynb", executed, pair.params)
            shutil.copytree(folder / "out", copy)

    return paths(_made_once(config, tmp_path_factory, notebook, make))


def nbval_parameters(notebook: str) -> dict:
    """Return the small parameters of ``notebook`` that its nbval fixture runs with (tests/nbval/parameters.yml)."""
    import yaml

    return yaml.safe_load((REPO / "tests" / "nbval" / "parameters.yml").read_text())[notebook]


@pytest.fixture(scope="session")
def nb000_twice(request, tmp_path_factory) -> Twice:
    """Paper 000 with its nbval parameters (its ns-3 sweeps included), run cold (an empty sweep cache) and warm."""
    params = nbval_parameters("000_multiuser_waiting")
    assert params["ns3_replications"] > 0  # else no sweep runs and the cold run is no cold run
    return _twice(request.config, tmp_path_factory, "000_multiuser_waiting", params, with_cache=True)


@pytest.fixture(scope="session")
def nb004_twice(request, tmp_path_factory) -> Twice:
    """Paper 004 with its nbval parameters, run twice (no sweep: nothing is cached)."""
    params = nbval_parameters("004_slow_start_latency")
    return _twice(request.config, tmp_path_factory, "004_slow_start_latency", params, with_cache=False)


@pytest.fixture(scope="session")
def published_rows(request, tmp_path_factory) -> list[dict]:
    """Every paper's ledger rows on its published data, as dicts (tests/test_verdicts_reasons.py's ``_rows``: the
    real stacks off, 004's hand-made runs), computed once per test run for the modules that read them."""
    import pickle
    from dataclasses import asdict

    def make(folder: Path) -> None:
        import test_verdicts_reasons as reasons

        from paperlib.data import PAPERS

        (folder / "rows.pickle").write_bytes(pickle.dumps([asdict(r) for p in PAPERS for r in reasons._rows(p)]))

    folder = _made_once(request.config, tmp_path_factory, "published-rows", make)
    return pickle.loads((folder / "rows.pickle").read_bytes())


@pytest.fixture(scope="session")
def small_site(request, tmp_path_factory) -> tuple[Path, Path]:
    """Return (figures, site): tests/report_helpers.py's small figures/ and docs/ trees and the report built from
    them, made once per test run for test_report_build.py and test_report_browser.py (which only read them)."""
    from report_helpers import small_docs, small_figures

    from paperlib.report.build import build

    def make(root: Path) -> None:
        assert build(small_figures(root), docs=small_docs(root)) == root / "figures" / "report"

    root = _made_once(request.config, tmp_path_factory, "report-site", make)
    return root / "figures", root / "figures" / "report"


# --- pytest -n 2 --dist loadfile (make test): one module per worker, the slow modules first, `exclusive` alone -----
# Each module is one unit of work, so its module-scoped fixtures are built once. The modules holding an `exclusive`
# test are handed out first (their exclusive tests at their front), then those holding a `slow` test, so that no
# exclusive test waits for a long one and no long test is left for the end while the other worker idles. A test marked
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
    """On an xdist worker: the modules that hold an `exclusive` test first (those that also hold a slow test last
    among them), then those that hold a slow test, then the others, each in file order but for its `exclusive`
    tests, which run first in their module.

    Why the exclusive ones first: an exclusive test waits until the other worker's current test has finished, and
    the other worker waits while it runs. At the start of the run both workers are in such modules, so an
    exclusive test waits for another exclusive test or a short one; after a slow module had started, it could wait
    minutes (paper notebooks re-executed by nbval) with a core idle. For the same reason a module's long tests
    that need not run alone belong in a module without exclusive tests (tests/test_bench.py and
    tests/test_bench_emulated.py), and an exclusive module that also holds a slow test comes last of
    them, when the other worker has few exclusive tests left to hold up.
    """
    if _lock_path(config) is None:
        return
    first = {}  # module -> its place in file order
    slow, exclusive = set(), set()  # the modules holding a test marked slow, or exclusive
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        first.setdefault(module, len(first))
        if item.get_closest_marker("slow"):
            slow.add(module)
        if item.get_closest_marker("exclusive"):
            exclusive.add(module)
    order = {module: (module not in exclusive, (module in slow) if module in exclusive else (module not in slow), place)
             for module, place in first.items()}
    # stable: a module keeps its own order, its exclusive tests moved to its front
    items.sort(key=lambda item: (order[item.nodeid.split("::", 1)[0]], item.get_closest_marker("exclusive") is None))


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


#: Set to a file's path, every test appends one line to it: worker, when it asked for its turn, started and ended
#: (time.time(), s), exclusive or not, its node id; tools/timeline_summary.py reads the file and says where the two
#: workers of ``make test`` waited (make test's time, docs/testing.md).
TIMELINE = os.environ.get("WEBPERF_TEST_TIMELINE")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Run the test (its fixtures' set-up and tear-down included) under the run's lock, if it has one."""
    import time

    lock = _lock_path(item.config)
    exclusive = item.get_closest_marker("exclusive") is not None
    asked = time.time()
    with contextlib.nullcontext() if lock is None else _turn(lock, exclusive=exclusive):
        started = time.time()
        try:
            return (yield)
        finally:
            if TIMELINE:
                worker = getattr(item.config, "workerinput", {}).get("workerid", "main")
                with open(TIMELINE, "a") as fh:  # one short write per line: workers' lines do not interleave
                    fh.write(f"{worker}\t{asked:.3f}\t{started:.3f}\t{time.time():.3f}\t{int(exclusive)}\t"
                             f"{item.nodeid}\n")
