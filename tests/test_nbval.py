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
import pandas as pd
import pytest
import yaml

from paperlib import ledger
from paperlib.run_notebook import run as run_notebook

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


@pytest.fixture(scope="module")
def nbval_scratch(tmp_path_factory):
    """One nbval run over every fixture: (the completed process, its scratch folder).

    The fixtures' ``output_dir`` is ``nbval-out/<paper>`` and their ``cache_dir`` ``nbval-cache``, relative to the
    folder the kernels start in (the scratch folder), so what the re-executed notebooks write stays there and the
    tests below check it without running the notebooks a second time.
    """
    scratch = tmp_path_factory.mktemp("nbval")
    return nbval_run.run(sorted(FIXTURES.glob("*.ipynb")), layout="fixtures", scratch=scratch), scratch


def _small(paper_stem: str) -> dict:
    return yaml.safe_load((FIXTURES / "parameters.yml").read_text())[paper_stem]


def _outputs(nbval_scratch, paper: str, names: tuple[str, ...]) -> tuple[Path, pd.DataFrame]:
    """The folder a re-executed fixture wrote and its ledger, after checking that ``names`` are in it."""
    result, scratch = nbval_scratch
    out = scratch / "nbval-out" / paper
    assert out.is_dir(), f"the nbval run wrote no {out}:\n{_report(result)}"
    for name in ("ledger.csv", "provenance.json", *names):
        assert (out / name).exists(), name
    return out, ledger.read(out / "ledger.csv")


@pytest.mark.slow
def test_nbval_reexecutes_every_fixture_to_the_same_outputs(nbval_scratch):
    result, _ = nbval_scratch
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
    # ... at the regenerated Table II (the model stage's tables.side_by_side, shown by its cell), whose 28 Kbps model
    # cell moved by 1 ms: 2 x 0.2 s + 400 000 bit / 28 000 bit/s = 14.6857 s, plus 0.001 s = 14.6867 s
    assert 'r.table("table2_regenerated.csv")' in out and "<td>14.6867</td>" in out, out[-3000:]


def test_fixtures_are_compact_and_free_of_volatile_output():
    for fixture in sorted(FIXTURES.glob("*.ipynb")):
        nb = json.loads(fixture.read_text())
        assert "papermill" not in nb["metadata"], fixture.name
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                assert not (out["output_type"] == "stream" and out["name"] == "stderr"), fixture.name
                assert "image/png" not in out.get("data", {}), fixture.name


# --- what notebooks 001-003 write at their small parameters (tests/nbval/parameters.yml), from the run above ---------

@pytest.mark.ns3
@pytest.mark.slow
def test_notebook_003_small(nbval_scratch, tmp_path):
    small = _small("003_specweb96_abr")
    assert small["n_servers"] == [1, 2] and small["repetitions"] == 2  # the numbers below are these
    out, frame = _outputs(nbval_scratch, "003", (
        "derived_numbers.csv", "convention_search.csv", "workload_moments.csv", "analogue_summary.csv",
        "class_distributions.png", "file_size_cdf.png", "efficiency_queue_vs_n.png"))
    assert set(frame["paper"]) == {"003"}
    assert len(frame) == 10 + 5 + 16 + 7  # text results, modified-table probabilities, results table, claims
    summary = pd.read_csv(out / "analogue_summary.csv")
    assert summary["N"].tolist() == [1, 2] and (summary["runs"] == 2).all()
    # the sweep cached every point: a rerun on the same cache computes nothing and gives the same summary
    again = tmp_path / "again"
    run_notebook(REPO / "notebooks" / "003_specweb96_abr.ipynb", tmp_path / "again.ipynb",
                 {**small, "output_dir": str(again), "cache_dir": str(nbval_scratch[1] / "nbval-cache")})
    assert pd.read_csv(again / "analogue_summary.csv").equals(summary)


@pytest.mark.ns3
def test_notebook_002_small(nbval_scratch):
    assert _small("002_http_sctp_response") == {"repetitions": 2, "scheduler": "synchronous", "emulation": "off"}
    _, frame = _outputs(nbval_scratch, "002", (
        "convention_search.csv", "table2_regenerated.csv", "table3_regenerated.csv", "ns3_summary.csv",
        "response_vs_p_and_rtt.png", "what_if_response_vs_p.png"))
    assert set(frame["paper"]) == {"002"} and len(frame) == 32 + 11 + 3  # + 3 claims re-judged on the testbed
    # the TCP experimental cells carry the ns-3 mean as their best honest figure
    tcp_exp = frame[frame["column"] == "TCP (Experimental) (Sec)"]
    assert (tcp_exp["regenerated"] != "").all() and (tcp_exp["status"] == "not_regenerable").all()


@pytest.mark.ns3
@pytest.mark.slow
def test_notebook_001_small(nbval_scratch):
    small = _small("001_fifo_red_response")
    assert small["reps"] == 1 and small["calibration_browsers"] == [2000, 4000, 6000]  # the numbers below are these
    out, frame = _outputs(nbval_scratch, "001", (
        "table3_regenerated.csv", "calibration_fit.csv", "calibration_browsers.csv", "summary.csv", "claims.csv",
        "traffic_model_moments.csv", "calibration.png", "fig3_fifo_response_cdf.png", "fig4_fifo_queue_short.png",
        "fig8_red_queue_240.png", "fig9_fifo_vs_red_a_cdf.png", "calibration_lines.csv", "calibration_lines.png"))
    assert set(frame["paper"]) == {"001"}
    # Table 3 (3 counts + the mislabelled load), the line's slope and intercept, 8 numbers read off figures, 35 claims
    # on ns-3, and on real stacks (not run: emulation off in the nbval parameters) the line's slope and intercept and
    # the 35 claims
    assert small["emulation"] == "off"
    assert len(frame) == 4 + 2 + 8 + 35 + 2 + 35
    # the three lines' table holds the paper's and ns-3's only: no real-stack calibration ran
    assert pd.read_csv(out / "calibration_lines.csv")["line"].tolist() == ["paper", "ns-3"]
    assert (frame[frame["column"] == "emulated (real stacks)"]["emulation"] == "not run by choice").all()
    t3 = frame[(frame["source"] == "Table 3") & (frame["column"] == "The Number of Browsers")]
    assert (t3["status"] == "reproduced").all()
    claims = frame[frame["column"] == "claim"]
    # one row per claim of claims.csv, in its order (the row is the claim's id)
    assert claims["row"].tolist() == list(pd.read_csv(REPO / "data" / "001" / "claims.csv")["id"])
    # the printed "95%" load label is the text's 98%: a typo, never scored by its distance
    label = frame[(frame["source"] == "Table 3") & (frame["column"] == "Traffic Load")]
    assert label[["published", "status", "rel_error"]].values.tolist() == [["95%", "typo", ""]]
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 10 * 3 * 2 and (summary["requests"] > 0).all()
    # the tiny calibration still measures something: throughput grows with the browsers (Mah's CDFs, 2000-6000
    # browsers at about 0.09 kbit/s each: 180-550 kbit/s expected)
    fit = pd.read_csv(out / "calibration_fit.csv").set_index("coefficient")
    assert fit.loc["slope", "estimate"] > 0
