"""Tests of paperlib.reference_run: make reference's writer and make validate's staleness check."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from paperlib import ledger, manifest, reference_run
from paperlib.reference import Declaration, IntervalTable
from paperlib.reference_run import (
    IncompleteRun,
    cpu_model,
    incomplete,
    memory_gib,
    os_name,
    run_record,
    small_png,
    stale,
    write,
)

HOST = {"cores": 2, "cpu": "a CPU", "memory_gib": 1.0, "kernel": "k", "os": "an OS", "python": "3"}
TABLE = IntervalTable("emulated.csv", keys=("k",), cells=(("m", "h"),))
DECLS = [Declaration("004", ("a.png", "b.png"), TABLE), Declaration("001", ("c.png",), None)]
#: The rows of the run: (paper, row, status)
ROWS = [("001", "x", "reproduced"), ("004", "y", "measured_close"), ("004", "z", "supported")]


@pytest.fixture(autouse=True)
def small_limit(monkeypatch):
    """Scale the hand-made run's figures to 120 pixels instead of 1,200: the same code, a hundredth of the pixels."""
    monkeypatch.setattr(reference_run, "MAX_WIDTH", 120)


def png(width: int, height: int, text: dict[str, str] | None = None) -> bytes:
    img = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    for x in range(0, width, 3):  # a few coloured lines, like a plot's
        draw.line([(x, 0), (width - x, height - 1)], fill=(x % 256, 80, 200, 255), width=2)
    info = PngInfo()
    for k, v in (text or {}).items():
        info.add_text(k, v)
    buf = io.BytesIO()
    img.save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()


def test_a_wide_figure_is_scaled_down_its_text_kept_and_its_bytes_fixed():
    data = png(1200, 300, {"Source": "notebooks/x.ipynb @ abc"})
    small = small_png(data, max_width=600)
    with Image.open(io.BytesIO(small)) as img:
        # 1200 x 300 halved to the 600-pixel limit: 600 x 150, a palette image, its provenance text kept
        assert (img.size, img.mode, img.text) == ((600, 150), "P", {"Source": "notebooks/x.ipynb @ abc"})
    assert small_png(data, max_width=600) == small  # same bytes in, same bytes out
    with Image.open(io.BytesIO(small_png(png(300, 200), max_width=600))) as img:
        assert img.size == (300, 200)  # narrower than the limit: not scaled
    with pytest.raises(ValueError, match="max_width"):
        small_png(data, max_width=0)


def test_machine_texts_are_read():
    assert cpu_model("processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags: x\nmodel name\t: other\n") == "AMD EPYC 7B13"
    assert cpu_model("") == ""
    assert os_name('NAME="Debian"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n') == "Debian GNU/Linux 12 (bookworm)"
    # 24,684,544 kB * 1024 B/kB / 2**30 B/GiB = 23.54 GiB
    assert memory_gib("MemTotal:       24684544 kB\nMemFree: 1 kB\n") == 23.54
    assert memory_gib("") is None


def ledger_frame(rows=ROWS, parameters='{"emulation":"reduced"}') -> pd.DataFrame:
    records = [{**dict.fromkeys(ledger.ALL_COLUMNS, ""), "paper": p, "source": "s", "row": r, "column": "c",
                "status": s, "reason": "why", "commit": "c0ffee", "dirty": "false", "parameters": parameters}
               for p, r, s in rows]
    return pd.DataFrame(records, columns=list(ledger.ALL_COLUMNS))


def complete_run(figures, decls=DECLS):
    """Write a complete run of ``decls`` into ``figures``: every paper's files and manifest, the merged ledger."""
    frame = ledger_frame()
    for d in decls:
        folder = figures / d.paper
        folder.mkdir(parents=True)
        for name in d.key_figures:
            (folder / name).write_bytes(png(132, 11, {"Source": f"{d.paper} @ c0ffee"}))
        if d.intervals:
            (folder / d.intervals.file).write_text("k,m,h\nrow,1.0,0.5\n")
        frame[frame["paper"] == d.paper].to_csv(folder / "ledger.csv", index=False)
        manifest.write(folder, notebook=f"notebooks/{d.paper}_x.ipynb", parameters={})
    frame.to_csv(figures / "ledger.csv", index=False)
    return figures


def test_an_incomplete_run_is_refused_naming_what_is_missing(tmp_path):
    figures = complete_run(tmp_path / "figures")
    assert incomplete(figures, DECLS) == []
    (figures / "004" / "b.png").unlink()
    (figures / "001" / ".run-manifest.json").unlink()
    out = tmp_path / "reference"
    with pytest.raises(IncompleteRun) as err:
        write(figures, out, decls=DECLS, host=HOST)
    text = str(err.value)
    assert f"{figures / '004' / 'b.png'} missing" in text and f"{figures / '001'}: no .run-manifest.json" in text
    assert not out.exists()  # nothing written
    (figures / "ledger.csv").unlink()
    assert f"{figures / 'ledger.csv'} missing" in "\n".join(incomplete(figures, DECLS))


def test_a_merged_ledger_without_a_paper_s_new_rows_is_an_unfinished_run(tmp_path):
    figures = complete_run(tmp_path / "figures")
    partial = figures / "004" / "ledger.csv"
    # a later run of 004 whose row y has another status than the merged ledger's (ROWS: measured_close)
    ledger_frame([("004", "y", "measured_differs"), ("004", "z", "supported")]).to_csv(partial, index=False)
    manifest.write(figures / "004", notebook="notebooks/004_x.ipynb", parameters={})  # a later run of 004
    assert incomplete(figures, DECLS) == [f"{figures / 'ledger.csv'} does not hold the rows of {partial} "
                                          "(the run stopped before merging the ledger)"]


def test_the_reference_holds_the_ledger_small_key_figures_tables_and_the_run(tmp_path):
    figures = complete_run(tmp_path / "figures")
    out = write(figures, tmp_path / "reference", decls=DECLS, jobs="7", host=HOST)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == ["RUN.json", "figures/001/c.png", "figures/004/a.png", "figures/004/b.png",
                     "figures/004/emulated.csv", "ledger.csv"]
    assert (out / "ledger.csv").read_bytes() == (figures / "ledger.csv").read_bytes()
    assert (out / "figures/004/emulated.csv").read_bytes() == (figures / "004/emulated.csv").read_bytes()
    with Image.open(out / "figures/004/a.png") as img:
        assert img.size == (120, 10)  # 132 x 11 scaled to the (patched) 120-pixel limit: 11 * 120 / 132 = 10
    run = json.loads((out / "RUN.json").read_text())
    assert (run["commit"], run["dirty"], run["jobs"], run["machine"], run["ledger_rows"]) == ("c0ffee", False, "7",
                                                                                              HOST, 3)
    assert run["command"] == "make reproduce JOBS=7 && make reference JOBS=7"
    assert run["papers"]["004"]["rows"] == 2 and run["papers"]["004"]["parameters"] == {"emulation": "reduced"}
    first = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    again = write(figures, out, decls=DECLS, jobs="7", host=HOST)  # replaces the folder whole
    assert {p: p.read_bytes() for p in again.rglob("*") if p.is_file()} == first
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging folder left


def test_a_paper_s_time_is_kept_only_from_a_successful_run_before_the_ledger():
    frame = ledger_frame()
    times = {"004": {"ok": True, "started": 100.0, "seconds": 60.0, "cold": True},
             "001": {"ok": True, "started": 500.0, "seconds": 9.0, "cold": False}}
    run = run_record(frame, DECLS, finished=200.0, jobs=None, times=times, host=HOST)
    assert (run["papers"]["004"]["seconds"], run["papers"]["004"]["cold"]) == (60.0, True)
    assert "seconds" not in run["papers"]["001"]  # started after the ledger was written: another run
    assert run["command"] == "make reproduce && make reference" and run["finished"] == "1970-01-01T00:03:20Z"
    failed = run_record(frame, DECLS, finished=200.0, jobs=None, times={"004": {**times["004"], "ok": False}},
                        host=HOST)
    assert "seconds" not in failed["papers"]["004"]


def docs_showing(tmp_path, decls=DECLS):
    docs = tmp_path / "docs"
    (docs / "papers").mkdir(parents=True)
    for d in decls:
        links = "\n".join(f"![{n}](../../reference/figures/{d.paper}/{n})" for n in d.key_figures)
        (docs / "papers" / f"{d.paper}.md").write_text(f"# Paper {d.paper}\n\n{links}\n")
    return docs


def test_a_fresh_reference_is_not_stale(tmp_path):
    out = write(complete_run(tmp_path / "figures"), tmp_path / "reference", decls=DECLS, jobs="7", host=HOST)
    keys = {(p, "s", r, "c") for p, r, _ in ROWS}
    assert stale(out, DECLS, keys, docs_showing(tmp_path)) == []


def test_what_is_stale_is_named(tmp_path):
    out = write(complete_run(tmp_path / "figures"), tmp_path / "reference", decls=DECLS, jobs="7", host=HOST)
    docs = docs_showing(tmp_path)
    (docs / "papers" / "001.md").write_text("# Paper 001\n")
    (out / "figures/004/a.png").unlink()
    (out / "figures/004/old.png").write_bytes(b"")
    keys = {(p, "s", r, "c") for p, r, _ in ROWS} | {("004", "s", "new", "c")}
    decls = [*DECLS, Declaration("005", ("d.png",), None)]
    got = stale(out, decls, keys, docs)
    assert got == [
        f"{out / 'ledger.csv'} has no row of paper 005",
        f"{out / 'ledger.csv'} lacks 1 row(s) the code declares (e.g. 004 / s / new / c)",
        f"{out / 'figures/004/a.png'} missing (a key figure of paper 004)",
        f"{out / 'figures/004/old.png'} is not declared by paper 004 any more",
        f"{docs / 'papers/001.md'} does not show the key figure c.png (link ../../reference/figures/001/c.png)",
        f"{out / 'figures/005/d.png'} missing (a key figure of paper 005)",
        f"{docs / 'papers/005.md'} does not show the key figure d.png (link ../../reference/figures/005/d.png)",
    ]
    assert stale(tmp_path / "nothing", DECLS, None, None) == [
        f"{tmp_path / 'nothing' / 'ledger.csv'} missing: the package carries no reference run"]


def test_a_real_stack_table_without_its_declared_columns_is_stale(tmp_path):
    out = write(complete_run(tmp_path / "figures"), tmp_path / "reference", decls=DECLS, jobs="7", host=HOST)
    renamed = [Declaration("004", ("a.png", "b.png"), IntervalTable("emulated.csv", keys=("k",),
                                                                    cells=(("mean", "h"),))), DECLS[1]]
    assert stale(out, renamed, None, None) == [
        f"{out / 'figures/004/emulated.csv'} has no column(s) ['mean'] that paper 004 declares"]


def test_the_commands_say_what_is_missing_and_fail(tmp_path, capsys):
    from paperlib.reference_run import main

    assert main(["write", "--figures", str(tmp_path / "figures"), "--out", str(tmp_path / "reference")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"make reference: {tmp_path / 'figures'} does not hold a complete make reproduce run:")
    assert f"{tmp_path / 'figures' / 'ledger.csv'} missing" in err and not (tmp_path / "reference").exists()
    assert main(["check", "--reference", str(tmp_path / "reference"), "--no-rows"]) == 1
    assert capsys.readouterr().err == (f"{tmp_path / 'reference'} is stale (make reproduce, then make reference):\n"
                                       f"  {tmp_path / 'reference' / 'ledger.csv'} missing: the package carries no "
                                       "reference run\n")


def test_a_reference_ledger_without_a_column_the_code_writes_is_stale(tmp_path):
    out = write(complete_run(tmp_path / "figures"), tmp_path / "reference", decls=DECLS, jobs="7", host=HOST)
    pd.read_csv(out / "ledger.csv", dtype=str, keep_default_na=False).drop(columns=["seed"]).to_csv(
        out / "ledger.csv", index=False)
    assert stale(out, DECLS, None, None) == [f"{out / 'ledger.csv'} has no column(s) ['seed'] of the ledger the code "
                                             "writes"]


def test_a_quick_run_is_no_reference(tmp_path):
    figures = complete_run(tmp_path / "figures")
    frame = pd.read_csv(figures / "ledger.csv", dtype=str, keep_default_na=False)
    frame["profile"] = "quick"
    frame.to_csv(figures / "ledger.csv", index=False)
    why = (f"{figures / 'ledger.csv'} holds 3 row(s) of profile quick: a reference is a run at the notebooks' own "
           "scale (make reproduce without PROFILE=quick)")
    assert why in incomplete(figures, DECLS)


def test_the_committed_reference_is_not_stale(published_rows):
    """The reference run the package carries (reference/, written by `make reference` from a complete `make
    reproduce`) holds every registered paper, every row the code writes on the papers' published data (conftest's
    ``published_rows``: what ``declared_keys`` gives, and 004's real-stack claims), each key figure and real-stack
    table, and the paper pages under docs/ show its figures: a change that adds a row or a figure fails here until
    a new cold run renews it (make reproduce, then make reference)."""
    decls = reference_run.declarations()
    keys = {(r["paper"], r["source"], r["row"], r["column"]) for r in published_rows}
    assert stale(reference_run.REFERENCE_DIR, decls, keys) == []
