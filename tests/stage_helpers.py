"""Helpers of the tests of the papers' stages (``tests/test_reproduce_p<id>_reproduce.py``)."""

from __future__ import annotations

import importlib
from pathlib import Path

from paperlib import notebook


def opened(paper: str, tmp_path: Path, **parameters) -> notebook.PaperRun:
    """Return a run of paper ``paper`` writing into ``tmp_path/out``, its ``parameters`` checked by its ``what_if``."""
    what_if = importlib.import_module(f"paperlib.reproduce.p{paper}.what_if")
    return notebook.open_paper(paper, parameters=parameters, output_dir=tmp_path / "out", check=what_if.check)


def written(run: notebook.PaperRun) -> set[str]:
    """Return the names of the files in the run's output folder."""
    return {p.name for p in run.out.iterdir()} if run.out.exists() else set()


def model_fixture(paper: str, **parameters):
    """Return a module-scoped fixture ``staged``: the run of paper ``paper`` (``parameters`` checked) and its model
    stage's result, made once for the test module (a later stage writes into a run of its own)."""
    import pytest

    reproduce = importlib.import_module(f"paperlib.reproduce.p{paper}.reproduce")

    @pytest.fixture(scope="module")
    def staged(tmp_path_factory):
        run = opened(paper, tmp_path_factory.mktemp("model"), **parameters)
        return run, reproduce.model(run)

    return staged
