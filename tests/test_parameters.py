"""A notebook's parameters read from the notebook itself and checked strictly before anything runs
(paperlib.parameters). No kernel starts: the checks read the real 004 notebook's parameters cell."""

from pathlib import Path

import pytest

from paperlib.parameters import check, kinds, notebook_parameters
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
NB004 = REPO / "notebooks" / "004_slow_start_latency.ipynb"


def test_parameters_are_read_from_the_notebook_itself():
    assert list(notebook_parameters(NB004)) == ["obj_size_bytes", "mtu_bytes", "rtt_s", "initial_window",
                                                "initial_windows", "rates_bps", "emulation", "output_dir"]
    assert kinds(NB004)["rates_bps"] == "numbers" and kinds(NB004)["output_dir"] == "path"


@pytest.mark.parametrize("name, value, match", [
    ("rtt_s", True, "rtt_s must be a number, got a boolean"),
    ("rtt_s", "0.05", "rtt_s must be a number, got a string"),
    ("rtt_s", [0.05, 0.1], "rtt_s must be a single value"),
    ("initial_window", 2.5, "initial_window must be a whole number"),
    ("rates_bps", [1e6, "fast"], r"rates_bps\[1\] must be a number"),
    ("output_dir", 3, "output_dir must be a folder path"),
    # -p emulation off arrives as False (YAML 1.1): the message says so and how to quote it
    ("emulation", False, r"emulation must be a string, got False \(a -p value off, on, yes or no is read as a "
                         r"boolean: quote it, e.g. -p emulation '\"off\"'\)"),
])
def test_strict_kinds(tmp_path, name, value, match):
    with pytest.raises(ParameterError, match=match):
        check(NB004, {name: value}, tmp_path)


def test_relative_output_dir_is_resolved_against_the_callers_directory(tmp_path):
    assert check(NB004, {"output_dir": "rel/out"}, tmp_path)["output_dir"] == tmp_path / "rel" / "out"


def test_output_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(ParameterError, match="output_dir: .* is a file, not a folder"):
        check(NB004, {"output_dir": str(tmp_path / "f" / "sub")}, tmp_path)


@pytest.mark.parametrize("notebook", sorted((REPO / "notebooks").glob("0*.ipynb")), ids=lambda p: p.stem)
def test_papermill_reads_the_same_parameters_as_the_package(notebook):
    # papermill parses `name = value  # comment` lines with its own rules (an "=" inside the comment breaks them:
    # it then warns "Passed unknown parameter" and injects blindly); the package reads the cell with ast
    import papermill

    assert set(papermill.inspect_notebook(str(notebook))) == set(notebook_parameters(notebook))
