"""Shared test setup: hypothesis profiles (derandomised on CI) and a writable copy of data/."""

import os
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
