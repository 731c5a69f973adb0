"""A seventh paper in an afternoon: ``python -m paperlib.new_paper`` writes a skeleton that passes the suite as written.

The quick tests render the templates in-process (a bad id, name or title refused naming the parameter; every file
renders, parses and keeps ruff's line length; a write that fails part-way leaves nothing). The slow one copies the
repository into a temporary folder, writes a throwaway paper there and runs it through the pipeline as ``make
reproduce`` does (the data check, the protocol, the layout, owner and coverage tests over every paper, the
skeleton's own tests, the notebook through :mod:`paperlib.run_notebook` into ``figures/<id>/``), every command with
``PYTHONPATH`` at the copy so that it imports the copy's ``paperlib`` (about 40 s on 2 cores).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from paperlib import new_paper
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
#: The longest name and title the generator accepts: every rendered line must still fit ruff's 120 characters.
LONGEST_NAME = "a" * new_paper.MAX_NAME
LONGEST_TITLE = ("A title as long as the generator accepts, " * 10)[: new_paper.MAX_TITLE]


@pytest.mark.parametrize("paper", ["6", "0006", "abc", 6, None, "004"])
def test_a_bad_or_taken_id_is_refused_naming_the_parameter(paper):
    # "004" is taken: its data, package, page and notebook exist
    with pytest.raises(ParameterError, match=r"^paper: "):
        new_paper.skeleton(paper, "fine_name", "A title")


@pytest.mark.parametrize("name", ["Short", "1abc", "a-b", "a__b", "trailing_", "class", "", LONGEST_NAME + "b",
                                  "slow_start_latency"])
def test_a_bad_name_is_refused_naming_the_parameter(name):
    # "slow_start_latency" is paper 004's model module (paperlib/models/slow_start_latency.py)
    with pytest.raises(ParameterError, match=r"^name: "):
        new_paper.skeleton("900", name, "A title")


@pytest.mark.parametrize("title", ["", "   ", 'a "quoted" word', "two\nlines", "a {brace}", "a \\ backslash",
                                   "x" * (new_paper.MAX_TITLE + 1)])
def test_a_bad_title_is_refused_naming_the_parameter(title):
    with pytest.raises(ParameterError, match=r"^title: "):
        new_paper.skeleton("900", "fine_name", title)


def test_every_template_renders_to_files_that_parse_and_fit_the_line_length():
    sk = new_paper.skeleton("900", LONGEST_NAME, LONGEST_TITLE)
    assert sorted(sk.files) == sorted(
        ["data/900/datapackage.json", "data/900/example_table.csv", "data/900/text_values.csv",
         "data/900/claims.csv", "docs/papers/900.md",
         f"notebooks/900_{LONGEST_NAME}.ipynb", f"paperlib/models/{LONGEST_NAME}.py",
         f"tests/test_models_{LONGEST_NAME}.py",
         *(f"paperlib/reproduce/p900/{m}.py" for m in ("__init__", *new_paper_modules())),
         *(f"tests/test_reproduce_p900_{m}.py" for m in new_paper_modules())])
    for rel, text in sk.files.items():
        assert "{{" not in text, rel  # every placeholder has its value
        if rel.endswith(".py"):
            ast.parse(text, rel)
            long = [i for i, line in enumerate(text.splitlines(), 1) if len(line) > 120]
            assert long == [], f"{rel}: lines {long} are longer than 120 characters"
        elif rel.endswith((".json", ".ipynb")):
            json.loads(text)
    nb = json.loads(sk.files[f"notebooks/900_{LONGEST_NAME}.ipynb"])
    (cell,) = [c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", [])]
    assert 'output_dir = "../scratch/900"' in "".join(cell["source"])
    meta = json.loads(sk.files["data/900/datapackage.json"])
    assert (meta["paper"], meta["title"]) == ("900", LONGEST_TITLE)


def new_paper_modules() -> list[str]:
    """Return the modules of a paper package the skeleton writes (every named part, the explorer)."""
    return ["claims", "convention", "explore", "figures", "findings", "ledger_rows", "operating_point", "reproduce",
            "tables", "verdict", "what_if"]


def small_root(tmp_path: Path) -> Path:
    """Return a folder with what :func:`paperlib.new_paper.write` reads of a repository: the nbval parameters."""
    root = tmp_path / "repo"
    (root / "tests" / "nbval").mkdir(parents=True)
    (root / "notebooks").mkdir()
    (root / new_paper.NBVAL_PARAMETERS).write_text("explorers: {}\n")
    return root


def test_the_files_and_the_nbval_entry_are_written(tmp_path):
    root = small_root(tmp_path)
    sk = new_paper.skeleton("900", "throwaway", "A throwaway paper", root=root)
    written = new_paper.write(sk, root)
    assert [p.relative_to(root).as_posix() for p in written] == [*sk.files, str(new_paper.NBVAL_PARAMETERS)]
    assert all((root / rel).read_text(encoding="utf-8") == text for rel, text in sk.files.items())
    import yaml

    assert yaml.safe_load((root / new_paper.NBVAL_PARAMETERS).read_text()) == {"explorers": {},
                                                                               "900_throwaway": {}}
    with pytest.raises(ParameterError, match="paper: 900 exists"):  # a second run: the paper exists
        new_paper.skeleton("900", "throwaway", "A throwaway paper", root=root)


def test_an_existing_file_is_refused_before_anything_is_written(tmp_path):
    root = small_root(tmp_path)
    sk = new_paper.skeleton("900", "throwaway", "A throwaway paper", root=root)
    (root / "tests" / "test_models_throwaway.py").write_text("# someone's module\n")
    with pytest.raises(ParameterError, match="test_models_throwaway.py"):
        new_paper.write(sk, root)
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "tests/nbval/parameters.yml", "tests/test_models_throwaway.py"]


def test_a_write_that_fails_part_way_leaves_nothing(tmp_path, monkeypatch):
    root = small_root(tmp_path)
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    sk = new_paper.skeleton("900", "throwaway", "A throwaway paper", root=root)
    real, calls = new_paper.atomic_write_text, []

    def fails_on_the_fifth(path, text):
        calls.append(path)
        if len(calls) == 5:
            raise OSError("disk full")
        return real(path, text)

    monkeypatch.setattr(new_paper, "atomic_write_text", fails_on_the_fifth)
    with pytest.raises(OSError, match="disk full"):
        new_paper.write(sk, root)
    # the four files written are removed with the folders made for them; the nbval parameters are untouched
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before
    assert (root / new_paper.NBVAL_PARAMETERS).read_text() == "explorers: {}\n"


def test_the_command_refuses_a_taken_id_naming_it(capsys):
    assert new_paper.main(["004", "--name", "fine_name", "--title", "A title"]) == 2
    assert "new paper: paper: 004 exists" in capsys.readouterr().err


# --- the skeleton through the pipeline, in a copy of the repository --------------------------------------------------


def copy_repository(dst: Path) -> Path:
    """Copy the repository's files (git's tracked and untracked-but-not-ignored ones, as they are in the working tree;
    without git, the tree minus what git ignores here) into ``dst``; return ``dst``."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(REPO, dst, ignore=shutil.ignore_patterns(
            ".git", ".venv", ".cache", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info"))
        for generated in ("figures", "scratch"):
            for p in (dst / generated).iterdir():
                if p.name != ".gitignore":
                    shutil.rmtree(p) if p.is_dir() else p.unlink()
        return dst
    for rel in filter(None, listed):
        src = REPO / rel
        if src.is_file():  # a tracked file deleted in the working tree is left out
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)
    return dst


def in_copy(copy: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python args...`` in ``copy`` importing the copy's ``paperlib`` (not the installed one); fail with its
    output unless it exits 0."""
    env = {**os.environ, "PYTHONPATH": str(copy), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"python {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
@pytest.mark.notebook
def test_a_throwaway_paper_runs_through_the_pipeline(tmp_path):
    copy = copy_repository(tmp_path / "repo")
    wrote = in_copy(copy, "-m", "paperlib.new_paper", "900", "--name", "throwaway", "--title",
                    "A throwaway paper of the skeleton test", "--no-fixture").stdout
    assert "wrote paperlib/reproduce/p900/ledger_rows.py" in wrote
    # the published data validates with the others, and the package answers the protocol
    # the tests that go over every paper (the data validated with the others, the package answering the protocol,
    # its map and parts, no paper id outside its owner, the docs page, the notebook's parameters read) and the
    # skeleton's own: the new paper's cases and the repository-wide checks, not the other papers' cases again
    # (a module's failure prints its output here)
    in_copy(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_layout.py", "tests/test_owner.py",
            "tests/test_data.py", "tests/test_user_docs.py", "tests/test_report_notebooks.py",
            "tests/test_notebook_parameters.py",
            "tests/test_ledger_coverage.py::test_every_text_result_has_a_row_or_a_reason[900]",
            "tests/test_reference.py::test_every_paper_declares_key_figures_its_run_writes[900]",
            "tests/test_models_throwaway.py", *sorted(f"tests/{p.name}" for p in
                                                      (copy / "tests").glob("test_reproduce_p900_*.py")),
            "-k", "900 or throwaway or not (000 or 001 or 002 or 003 or 004 or 005)")
    # the notebook as make reproduce runs it: staged, swapped into figures/900/ with its manifest
    in_copy(copy, "-m", "paperlib.run_notebook", "notebooks/900_throwaway.ipynb", "figures/executed/900.ipynb",
            "-p", "output_dir", "figures/900")
    check = ("from paperlib import ledger, manifest\n"
             "assert manifest.main(['check', 'figures/900']) == 0\n"
             "print(len(ledger.read('figures/900/ledger.csv')))")
    assert in_copy(copy, "-c", check).stdout.strip().splitlines()[-1] == "2"  # read checks columns, statuses, schema
    frame = pd.read_csv(copy / "figures" / "900" / "ledger.csv", dtype=str, keep_default_na=False)
    # the example input, taken as given, and the example claim, untestable: nothing the skeleton invents is scored
    assert list(zip(frame["paper"], frame["row"], frame["status"], strict=True)) == [
        ("900", "example_input", "input"),
        ("900", "PLACEHOLDER example claim (replace with a claim the paper states)", "untestable")]
    assert (copy / "figures" / "900" / "placeholder_model.png").exists()
