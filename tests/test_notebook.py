"""The shared opening and closing of the paper notebooks (paperlib.notebook)."""

from __future__ import annotations

import json

import pytest

from paperlib import ledger, notebook
from paperlib.data import paper_ids
from paperlib.parameters import notebook_parameters
from paperlib.validate import ParameterError


def _check(**params):
    if params["rtt_s"] is not None and params["rtt_s"] <= 0:
        raise ParameterError(f"rtt_s must be positive, got {params['rtt_s']!r}")


def test_a_bad_parameter_fails_before_anything_is_written(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ParameterError, match="rtt_s"):
        notebook.open_paper("004", parameters={"rtt_s": -1.0}, output_dir=out, check=_check)
    assert not out.exists()


def test_a_bad_seed_is_named(tmp_path):
    with pytest.raises(ParameterError, match="seed"):
        notebook.open_paper("004", parameters={}, output_dir=tmp_path, seed=-3)


def test_open_then_close_writes_the_ledger_and_the_stamp(tmp_path):
    run = notebook.open_paper("004", parameters={"rtt_s": None}, output_dir=tmp_path, check=_check)
    assert run.paper.paper == "004" and run.stamp.notebook == "notebooks/004_slow_start_latency.ipynb"
    row = ledger.claim_row("004", "Abstract", "a claim", "", None, "untestable", "no evidence",
                           claim_id="c", evidence="printed")
    frame = notebook.close_paper(run, [row], emulation="off")
    assert list(frame.columns) == list(ledger.COLUMNS + ledger.STRUCTURED_COLUMNS) and len(frame) == 1
    written = ledger.read(tmp_path / "ledger.csv")
    assert json.loads(written.parameters[0]) == {"emulation": "off", "rtt_s": None}
    stamp = json.loads((tmp_path / "provenance.json").read_text())
    assert stamp["parameters"] == {"emulation": "off", "rtt_s": None} and stamp["seed"] is None
    assert run.parameters == {"rtt_s": None}  # the run's own stamp is unchanged by the extra parameters


def _cluster(events: list):
    """A stand-in for a Dask cluster a run holds: it records its opening and closing in ``events``."""
    import contextlib

    @contextlib.contextmanager
    def cluster():
        events.append("open")
        yield "tcp://scheduler"
        events.append("closed")

    return cluster()


def test_what_a_run_holds_is_released_when_the_paper_is_closed(tmp_path):
    events = []
    run = notebook.open_paper("004", parameters={}, output_dir=tmp_path)
    assert run.hold(_cluster(events)) == "tcp://scheduler" and events == ["open"]
    notebook.close_paper(run, [])
    assert events == ["open", "closed"]
    notebook.close_paper(run, [])  # a second write (a notebook's real-stack rows) releases nothing twice
    assert events == ["open", "closed"]


def test_every_paper_has_exactly_one_notebook():
    papers = paper_ids()
    assert {"000", "001", "002", "003", "004"} <= set(papers)  # the five seeds; a sixth paper adds to them
    paths = [notebook.notebook_path(p) for p in papers]
    assert paths[:5] == ["notebooks/000_multiuser_waiting.ipynb", "notebooks/001_fifo_red_response.ipynb",
                         "notebooks/002_http_sctp_response.ipynb", "notebooks/003_specweb96_abr.ipynb",
                         "notebooks/004_slow_start_latency.ipynb"]
    assert all(p.startswith(f"notebooks/{i}_") for i, p in zip(papers, paths, strict=True))
    with pytest.raises(ParameterError, match="999"):
        notebook.notebook_path("999")


def test_every_paper_notebook_writes_to_scratch_by_default():
    # what a run without papermill's parameters (JupyterLab) writes into: scratch/<paper>, never figures/
    for paper in paper_ids():
        nb = notebook.REPO / notebook.notebook_path(paper)
        default = notebook_parameters(nb)["output_dir"]
        assert (nb.parent / default).resolve() == notebook.SCRATCH / paper, nb.name
    assert (notebook.SCRATCH / ".gitignore").read_text().splitlines()[1:] == ["*", "!.gitignore"]


@pytest.mark.parametrize("folder", ["figures/004", "figures", "figures/001-sensitivity/sub", "figures/.004.old"])
def test_open_paper_refuses_figures_outside_a_staged_run(folder):
    target = notebook.REPO / folder
    with pytest.raises(ParameterError, match=r"output_dir: .* inside figures/, which only make reproduce writes"):
        notebook.open_paper("004", parameters={}, output_dir=target)


def test_open_paper_accepts_run_notebooks_staging_folder(tmp_path, monkeypatch):
    # paperlib.run_notebook hands the kernel figures/.<paper>.staging (relative to the notebooks' folder)
    monkeypatch.chdir(notebook.REPO / "notebooks")
    run = notebook.open_paper("004", parameters={}, output_dir="../figures/.004.staging")
    assert run.out == notebook.Path("../figures/.004.staging")
    assert notebook.check_output_dir(tmp_path / "anywhere") == tmp_path / "anywhere"


def _tree(folder):
    return {p: p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))} if folder.exists() else {}


@pytest.mark.notebook
def test_a_jupyterlab_run_leaves_figures_and_its_manifests_alone(tmp_path):
    # JupyterLab executes the notebook as it is (no injected parameters) with the notebook's folder as working
    # directory. A copy in tmp/notebooks/ writes its default ../scratch/004 into tmp/scratch/004. Only
    # emulation is switched off in the copy (real stacks have their own tests and take minutes).
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from paperlib import manifest

    figures = notebook.FIGURES
    before = _tree(figures)
    complete = [f for f in sorted(figures.glob("[0-9][0-9][0-9]*")) if (f / manifest.NAME).exists()]
    nb = nbformat.read(notebook.REPO / notebook.notebook_path("004"), as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert 'emulation = "reduced"' in cell.source and 'output_dir = "../scratch/004"' in cell.source
    cell.source = cell.source.replace('emulation = "reduced"', 'emulation = "off"')
    (tmp_path / "notebooks").mkdir()
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path / "notebooks")}}).execute()
    assert (tmp_path / "scratch" / "004" / "ledger.csv").exists()
    assert _tree(figures) == before  # nothing under figures/ written, moved or touched
    assert [p for f in complete for p in manifest.problems(f)] == []


def test_the_rows_so_far_read_as_close_paper_returns_them_without_a_write(tmp_path):
    run = notebook.open_paper("004", parameters={}, output_dir=tmp_path / "out")
    row = ledger.claim_row("004", "Abstract", "a claim", "", None, "untestable", "no evidence",
                           claim_id="c", evidence="printed")
    table = notebook.ledger_table(run, [row])
    assert not (tmp_path / "out").exists()
    assert table.equals(notebook.close_paper(run, [row]))


def test_tables_are_shown_each_after_its_title_in_bold():
    import pandas as pd

    a, b = pd.DataFrame({"x": [1]}), pd.DataFrame({"y": [2]})
    shown = notebook.titled({"Table 1: waiting": a, "Table 2": b})
    assert [s.data for s in shown[::2]] == ["**Table 1: waiting**", "**Table 2**"]
    assert shown[1] is a and shown[3] is b


def test_the_finding_is_the_paper_s_verdict_paragraph_and_a_paper_without_rows_is_named(tmp_path):
    from paperlib.reproduce.p004 import ledger_rows
    from paperlib.verdicts import paper_verdicts

    run = notebook.open_paper("004", parameters={}, output_dir=tmp_path)
    frame = notebook.close_paper(run, ledger_rows.ledger_rows(run.paper))
    assert notebook.finding(frame, "004").data == paper_verdicts(frame)[0].paragraph()
    with pytest.raises(ParameterError, match="paper '003': no rows of it in the ledger given"):
        notebook.finding(frame, "003")
