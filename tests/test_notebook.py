"""The shared opening and closing of the paper notebooks (paperlib.notebook)."""

from __future__ import annotations

import json

import pytest

from paperlib import ledger, notebook
from paperlib.data import paper_ids
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
    row = ledger.claim_row("004", "Abstract", "a claim", "", None, "untestable", "no evidence")
    frame = notebook.close_paper(run, [row], emulation="off")
    assert list(frame.columns) == list(ledger.COLUMNS) and len(frame) == 1
    written = ledger.read(tmp_path / "ledger.csv")
    assert json.loads(written.parameters[0]) == {"emulation": "off", "rtt_s": None}
    stamp = json.loads((tmp_path / "provenance.json").read_text())
    assert stamp["parameters"] == {"emulation": "off", "rtt_s": None} and stamp["seed"] is None
    assert run.parameters == {"rtt_s": None}  # the run's own stamp is unchanged by the extra parameters


def test_every_paper_has_exactly_one_notebook():
    papers = paper_ids()
    assert {"000", "001", "002", "003", "004"} <= set(papers)  # the five seeds; a sixth paper adds to them
    paths = [notebook.notebook_path(p) for p in papers]
    assert paths[:5] == ["notebooks/000_multiuser_waiting.ipynb", "notebooks/001_fifo_red_response.ipynb",
                         "notebooks/002_http_sctp_response.ipynb", "notebooks/003_specweb96_abr.ipynb",
                         "notebooks/004_slow_start_latency.ipynb"]
    assert all(p.startswith(f"notebooks/{i}_") for i, p in zip(papers, paths))
    with pytest.raises(ParameterError, match="999"):
        notebook.notebook_path("999")
