"""A stage's outputs: written atomically where the run writes, kept by file name, frozen in the Reproduction."""

from __future__ import annotations

import dataclasses

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from paperlib import notebook  # noqa: E402
from paperlib.conventions import Convention  # noqa: E402
from paperlib.data import load_paper  # noqa: E402
from paperlib.reproduction import Reproduction, ReproductionError  # noqa: E402


@pytest.fixture
def run(tmp_path):
    return notebook.open_paper("004", parameters={}, output_dir=tmp_path / "out")


def empty(run) -> Reproduction:
    return Reproduction(paper=run.paper, search=pd.DataFrame(), convention=Convention())


def test_a_stage_s_tables_and_figures_are_written_and_kept_by_file_name(run):
    out = run.outputs()
    frame = pd.DataFrame({"a": [1, 2]})
    assert out.table("t.csv", frame) is frame
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    path = out.figure("f.png", fig)
    out.note("n", "**two** words")
    r = empty(run).adding(out, rows=())
    assert (run.out / "t.csv").read_text() == "a\n1\n2\n"
    assert path == run.out / "f.png" and path.read_bytes().startswith(b"\x89PNG")
    assert r.table("t.csv") is frame and r.figures["f.png"] == path and r.notes["n"] == "**two** words"
    assert r.note("n").data == "**two** words" and r.image("f.png").data == path.read_bytes()
    # a figure a stage did not draw is left out of images(), in the order asked
    assert [i.data for i in r.images(["missing.png", "f.png"])] == [path.read_bytes()]


def test_a_table_another_module_wrote_is_kept_to_show_and_none_is_nothing(run):
    out = run.outputs()
    frame = pd.DataFrame({"b": [3]})
    assert out.written("emulation_runs.csv", frame) is frame
    assert out.written("emulator_accuracy.csv", None) is None
    r = empty(run).adding(out)
    assert list(r.tables) == ["emulation_runs.csv"] and not (run.out / "emulation_runs.csv").exists()
    assert r.tables.get("emulator_accuracy.csv") is None


def test_a_later_stage_adds_to_what_the_earlier_found_without_changing_it(run):
    first = run.outputs()
    first.table("a.csv", pd.DataFrame({"x": [1]}))
    r1 = empty(run).adding(first)
    second = run.outputs()
    second.table("b.csv", pd.DataFrame({"y": [2]}))
    second.note("runs", "3 runs")
    r2 = r1.adding(second, stamp_parameters={"emulation": "off"})
    assert list(r1.tables) == ["a.csv"] and list(r2.tables) == ["a.csv", "b.csv"]
    assert dict(r2.stamp_parameters) == {"emulation": "off"} and dict(r1.stamp_parameters) == {}


def test_a_reproduction_is_frozen(run):
    r = empty(run)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.rows = ()
    with pytest.raises(TypeError):
        r.tables["x.csv"] = pd.DataFrame()


def test_a_missing_output_is_named_with_what_there_is(run):
    out = run.outputs()
    out.table("convention_search.csv", pd.DataFrame({"a": [1]}))
    r = empty(run).adding(out)
    with pytest.raises(ReproductionError, match=r"no table 'convention_search' in this reproduction; it holds "
                                                r"\['convention_search.csv'\]"):
        r.table("convention_search")
    with pytest.raises(ReproductionError, match="no figure 'x.png'"):
        r.image("x.png")


@pytest.mark.parametrize(("name", "suffix"), [("t.txt", ".csv"), ("../t.csv", ".csv"), ("sub/t.csv", ".csv")])
def test_an_output_name_is_a_plain_file_name_with_its_suffix(run, name, suffix):
    with pytest.raises(ValueError, match=f"output name {name!r}: expected a file name ending in '{suffix}'"):
        run.outputs().table(name, pd.DataFrame())


def test_close_paper_writes_the_rows_and_stamp_parameters_of_a_reproduction(run):
    from paperlib.reproduce.p004 import ledger_rows

    paper = load_paper("004")
    r = dataclasses.replace(empty(run), rows=tuple(ledger_rows.ledger_rows(paper)),
                            stamp_parameters={"emulation": "off"})
    frame = notebook.close_paper(run, r)
    assert len(frame) == len(r.rows) and (run.out / "ledger.csv").exists()
    assert '"emulation": "off"' in (run.out / "provenance.json").read_text()


def test_claim_verdicts_are_keyed_by_claim_id_and_evidence(run):
    from paperlib import ledger

    rows = (ledger.claim_row("004", "Abstract", "within 4%", "", None, "refuted", "mean |M-E|/E = 9%",
                             claim_id="c1", evidence="model"),
            ledger.claim_row("004", "Abstract", "within 4%", "", None, "untestable", "not run",
                             claim_id="c1", evidence="real stacks"),
            ledger.claim_row("004", "Sec. 4", "SCTP is faster", "", None, "supported", "by 2 RTT",
                             claim_id="c2", evidence="model"))
    r = dataclasses.replace(empty(run), rows=rows)
    assert r.claim_verdicts() == {"c1": {"model": "refuted", "real stacks": "untestable"},
                                  "c2": {"model": "supported"}}
