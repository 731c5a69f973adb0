"""The quick profile (issue 34, item 3): its parameters are the notebooks' own, its rows say so, and what reads the
ledger as the reference refuses them. No notebook runs here (tests/test_run_notebook.py runs the kernel side)."""

from __future__ import annotations

import inspect
import json
from importlib import import_module
from pathlib import Path

import pandas as pd
import pytest

from paperlib import ledger, profiles, registry, run_summary, verdicts
from paperlib.parameters import check as check_parameters
from paperlib.parameters import notebook_parameters
from paperlib.provenance import Stamp
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9][0-9]_*.ipynb"))
#: what the Makefile passes itself (EMULATION, PROFILE, the output folder): never a profile's parameter
MAKE_OWNED = ("emulation", "profile", "output_dir")


def test_every_paper_notebook_has_quick_parameters_and_nothing_else_has():
    # each paper's package declares them (a dict, empty for a paper that keeps its defaults); the package's
    # table for other notebooks is empty
    assert NOTEBOOKS  # the papers
    declared = {profiles.paper_of(nb): registry.declared(profiles.paper_of(nb), "QUICK_PARAMETERS")
                for nb in NOTEBOOKS}
    assert all(isinstance(v, dict) for v in declared.values()), declared
    assert profiles.QUICK == {}
    assert profiles.parameters("quick", NOTEBOOKS[0]) == declared[profiles.paper_of(NOTEBOOKS[0])]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name[:3])
def test_the_quick_parameters_are_the_notebooks_own_and_pass_its_checks(notebook, tmp_path):
    quick = profiles.parameters(profiles.QUICK_NAME, notebook)
    assert not set(quick) & set(MAKE_OWNED)
    assert set(quick) <= set(notebook_parameters(notebook))
    checked = check_parameters(notebook, quick, cwd=tmp_path)  # kinds: raises naming a bad one
    check = import_module(f"paperlib.reproduce.p{profiles.paper_of(notebook)}.what_if").check
    names = set(inspect.signature(check).parameters)
    values = {**notebook_parameters(notebook), **checked, "output_dir": str(tmp_path)}
    check(**{k: v for k, v in values.items() if k in names})  # the paper's own bounds


def test_parameters_is_a_copy_and_an_unknown_profile_is_named():
    nb = REPO / "notebooks" / "000_multiuser_waiting.ipynb"
    got = profiles.parameters("quick", nb)
    got["m_values"].append(99)
    assert profiles.parameters("quick", nb)["m_values"] == [1, 2, 8]
    assert profiles.parameters("quick", "notebooks/explorers.ipynb") == {}
    with pytest.raises(ParameterError, match="profile must be one of .'quick'.*'fast'"):
        profiles.parameters("fast", nb)


def test_the_profile_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(profiles.ENV, raising=False)
    assert profiles.current() == "" and Stamp("nb").profile == ""
    monkeypatch.setenv(profiles.ENV, "quick")
    assert profiles.current() == "quick"
    stamp = Stamp("nb")
    assert stamp.columns()["profile"] == "quick" and stamp.as_dict()["profile"] == "quick"
    assert '"profile":"quick"' in stamp.png_metadata()["Comment"]
    monkeypatch.setenv(profiles.ENV, "reference")
    with pytest.raises(ParameterError, match="WEBPERF_PROFILE must be one of"):
        profiles.current()


def _ledger(tmp_path: Path, profile: str, n: int = 3) -> Path:
    rows = [ledger.result_row("004", "Table II", f"r{i}", "c", "1.00", 1.0, rule="half_up", reason="",
                              evidence="model")
            for i in range(n)]
    path = tmp_path / f"{profile or 'full'}.csv"
    ledger.write_partial(rows, Stamp("nb", profile=profile), path)
    return path


def test_the_ledger_writer_adds_the_profile_and_the_summary_counts_the_quick_rows(tmp_path):
    quick = ledger.read(_ledger(tmp_path, "quick"))
    full = ledger.read(_ledger(tmp_path, ""))
    assert list(quick["profile"]) == ["quick"] * 3 and list(full["profile"]) == [""] * 3
    assert list(profiles.quick_rows(quick)) == [True] * 3 and not profiles.quick_rows(full).any()
    assert profiles.quick_note(full, "l.csv") is None
    mixed = pd.concat([quick.iloc[:2], full], ignore_index=True)
    note = profiles.quick_note(mixed, "l.csv")
    assert note.startswith("l.csv: 2 of 5 rows come from the quick profile") and "not the reference's" in note
    assert profiles.quick_note(mixed, "figures/ledger.csv") in ledger.summary(mixed)
    assert "quick profile" not in ledger.summary(full)


def test_a_ledger_without_the_profile_column_reads_as_a_full_scale_one(tmp_path):
    path = _ledger(tmp_path, "")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns=["profile"])
    frame.to_csv(path, index=False)
    back = ledger.read(path)
    assert list(back.columns) == list(ledger.ALL_COLUMNS) and list(back["profile"]) == [""] * 3
    assert not profiles.quick_rows(frame).any()  # a table without the column has no quick row


@pytest.mark.parametrize("action", ["--check", "--write"])
def test_validate_refuses_a_quick_ledger(tmp_path, capsys, action):
    readme = tmp_path / "README.md"
    readme.write_text("no results block\n")
    assert verdicts.main(["--ledger", str(_ledger(tmp_path, "quick")), action, str(readme)]) == 2
    err = capsys.readouterr().err
    assert "3 of 3 rows come from the quick profile" in err and "without PROFILE=quick" in err
    assert readme.read_text() == "no results block\n"  # --write wrote nothing


def test_make_validate_refuses_a_quick_ledger_and_checks_the_readme_against_the_reference(tmp_path, capsys):
    assert profiles.main(["full-scale", str(_ledger(tmp_path, "quick"))]) == 1
    assert "3 of 3 rows come from the quick profile" in capsys.readouterr().out
    assert profiles.main(["full-scale", str(_ledger(tmp_path, ""))]) == 0
    assert profiles.main(["full-scale", str(tmp_path / "none.csv")]) == 1
    assert "no ledger" in capsys.readouterr().out
    # the README shows the reference run's verdicts: make validate checks it against reference/ledger.csv, and this
    # machine's run only for the quick profile (its differences from the reference are the closing comparison's)
    recipe = (REPO / "Makefile").read_text().split("\nvalidate:", 1)[1].split("\n\n", 1)[0]
    assert "paperlib.verdicts --ledger $(REFERENCE)/ledger.csv --check README.md" in recipe
    assert "paperlib.profiles full-scale figures/ledger.csv" in recipe
    assert "--ledger figures/ledger.csv" not in recipe


def test_the_closing_summary_says_when_the_ledger_is_the_quick_profiles(tmp_path):
    text = run_summary.summary(["004"], None, _ledger(tmp_path, "quick"), times_dir=tmp_path / "times")
    assert "3 of 3 rows come from the quick profile" in text
    full = run_summary.summary(["004"], None, _ledger(tmp_path, ""), times_dir=tmp_path / "times")
    assert "quick profile" not in full


def test_the_quick_rows_are_found_by_the_column_not_by_the_reason(tmp_path):
    frame = ledger.read(_ledger(tmp_path, ""))
    frame["reason"] = "made by the quick profile"  # prose: never read back
    assert not profiles.quick_rows(frame).any()
    assert json.loads(frame["parameters"].iloc[0]) == {}
