"""nbval over every notebook: the committed small-parameter runs (tests/nbval/) re-execute to the same outputs.

Each fixture is a notebook of notebooks/ executed with the small parameters of
tests/nbval/parameters.yml (``make nbval-fixtures``). nbval re-executes it with today's paperlib
and compares every output cell by cell (text, tables, Markdown; not images, not stderr), so a
changed number, table or error fails here. About 1.5 minutes on 2 cores (the three simulation
notebooks run their small ns-3 sweeps again, without cache).
"""

import json
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import nbval_run  # noqa: E402

FIXTURES = REPO / "tests" / "nbval"
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))

pytestmark = pytest.mark.notebook


def _code(nb) -> list[str]:
    """The code cells' sources, without papermill's injected parameters."""
    return [c.source for c in nb.cells
            if c.cell_type == "code" and "injected-parameters" not in c.get("metadata", {}).get("tags", [])]


def _report(result) -> str:
    tail = "\n".join((result.stdout + result.stderr).splitlines()[-60:])
    return f"nbval failed (exit {result.returncode}):\n{tail}\n\n{nbval_run.REGENERATE_HINT}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_has_a_current_fixture(notebook):
    fixture = FIXTURES / notebook.name
    hint = nbval_run.REGENERATE_HINT
    assert fixture.exists(), f"{notebook.name} has no nbval fixture in tests/nbval/. {hint}"
    table = yaml.safe_load((FIXTURES / "parameters.yml").read_text())
    assert notebook.stem in table, f"tests/nbval/parameters.yml has no entry for {notebook.stem}"
    # nbval re-executes the fixture's own code: it must be the notebook's code of today
    assert _code(nbformat.read(fixture, as_version=4)) == _code(nbformat.read(notebook, as_version=4)), (
        f"tests/nbval/{notebook.name} is stale: notebooks/{notebook.name} changed since it was made. {hint}")


@pytest.mark.slow
def test_nbval_reexecutes_every_fixture_to_the_same_outputs(tmp_path):
    result = nbval_run.run(sorted(FIXTURES.glob("*.ipynb")), layout="fixtures", scratch=tmp_path)
    assert result.returncode == 0, _report(result)
    # every code cell of every fixture was a test item (nbval names them "::Cell <n>")
    cells = sum(c.cell_type == "code" for f in FIXTURES.glob("*.ipynb") for c in nbformat.read(f, as_version=4).cells)
    assert f"{cells} passed" in result.stdout, result.stdout[-2000:]


def test_a_changed_number_in_a_model_fails_nbval(tmp_path):
    """Paper 004's Eq. (5) made 1 ms slower (in the kernel only, by an IPython startup file): nbval must fail."""
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-mutate.py").write_text(
        "from paperlib.models import slow_start_latency as _slow_start_latency\n"  # private: the kernel's namespace
        "_orig = _slow_start_latency.transfer_latency_s\n"
        "_slow_start_latency.transfer_latency_s = lambda *a, **k: _orig(*a, **k) + 0.001\n")
    import os

    os.environ["IPYTHONDIR"] = str(tmp_path / "ipython")
    try:
        result = nbval_run.run([FIXTURES / "004_slow_start_latency.ipynb"], layout="fixtures",
                               scratch=tmp_path / "run")
    finally:
        del os.environ["IPYTHONDIR"]
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    # it fails because an output differs (not because the notebook crashed) ...
    assert "disagrees with newly computed" in out or "mismatch" in out.lower(), out[-3000:]
    # ... at the regenerated Table II (tables.side_by_side), whose 28 Kbps model cell moved by 1 ms:
    # 2 x 0.2 s + 400 000 bit / 28 000 bit/s = 14.6857 s, plus 0.001 s = 14.6867 s
    assert "tables.side_by_side(paper, conv)" in out and "<td>14.6867</td>" in out, out[-3000:]


def test_fixtures_are_compact_and_free_of_volatile_output():
    for fixture in sorted(FIXTURES.glob("*.ipynb")):
        nb = json.loads(fixture.read_text())
        assert "papermill" not in nb["metadata"], fixture.name
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                assert not (out["output_type"] == "stream" and out["name"] == "stderr"), fixture.name
                assert "image/png" not in out.get("data", {}), fixture.name
