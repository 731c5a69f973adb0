"""Shared test setup: hypothesis profiles (derandomised on CI) and a writable copy of data/."""

import functools
import importlib
import os
import re
import shutil
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
