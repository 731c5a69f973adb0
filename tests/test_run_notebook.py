"""The notebook runner (issue 13): parameters checked first, outputs swapped in as a set with a manifest,
temporary files removed on SIGTERM, a failed run kept and reported with its cell and traceback.

Most tests use a three-cell notebook written here (a kernel start each, about 2-3 s); the checks
that fail before any kernel starts use the real 000 and 004 notebooks. About 20 s in all.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from paperlib import manifest, profiles
from paperlib.run_notebook import failure_report, main, parse_value, run
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
NB004 = REPO / "notebooks" / "004_slow_start_latency.ipynb"
NB000 = REPO / "notebooks" / "000_multiuser_waiting.ipynb"


def _tiny(folder: Path) -> Path:
    """Write a notebook that writes a.txt, sleeps, optionally fails, then writes b.txt into output_dir."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    params = nbformat.v4.new_code_cell('output_dir = "out"\nsleep_s = 0.0\nfail = False\ntag = "x"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        params,
        nbformat.v4.new_code_cell('import pathlib, time\nout = pathlib.Path(output_dir)\n'
                                  '(out / "a.txt").write_text(tag)\ntime.sleep(sleep_s)'),
        nbformat.v4.new_code_cell('if fail:\n    raise ValueError("deliberate failure")\n'
                                  '(out / "b.txt").write_text(tag)'),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tiny.ipynb"
    nbformat.write(nb, str(path))
    return path


@pytest.fixture
def tiny(tmp_path):
    return _tiny(tmp_path / "nb")


# --- parameters, before anything runs ---------------------------------------------------------

def test_unknown_parameter_lists_the_notebooks_parameters(tmp_path):
    with pytest.raises(ParameterError, match=r"unknown parameter 'rtt_ss'.*rtt_s, initial_window"):
        run(NB004, tmp_path / "x.ipynb", {"rtt_ss": 0.05, "output_dir": str(tmp_path / "out")})
    assert not any(tmp_path.iterdir())  # nothing written


def test_yaml_values_from_the_command_line():
    assert parse_value("1e12") == 1e12 and isinstance(parse_value("1e12"), float)  # YAML 1.1 would say "1e12"
    assert parse_value("[1e5, 2]") == [1e5, 2]
    assert parse_value('"0.05"') == "0.05"  # quoted: a string, rejected for a number by check()
    assert parse_value("true") is True


@pytest.mark.parametrize("notebook, name", [(NB004, "obj_size_bytes"), (NB000, "obj_size_bytes"),
                                            (REPO / "notebooks" / "002_http_sctp_response.ipynb", "obj_size_bytes")])
def test_huge_what_if_fails_fast_naming_the_parameter_and_limit(tmp_path, notebook, name):
    # 004 used to grow a schedule of 6.7e8 segments until the kernel died; 000 looped 1.9e7 times
    start = time.monotonic()
    with pytest.raises(ParameterError, match=f"^{name}: .* above the limit"):
        run(notebook, tmp_path / "x.ipynb", {name: 1e12, "output_dir": str(tmp_path / "out")})
    assert time.monotonic() - start < 30  # refused before any kernel starts (seconds, imports included)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("notebook", [NB004, NB000])
def test_segment_under_one_byte_is_rejected(tmp_path, notebook):
    with pytest.raises(ParameterError, match="mtu_bytes must be at least 1 byte"):
        run(notebook, tmp_path / "x.ipynb", {"mtu_bytes": 0.5, "output_dir": str(tmp_path / "out")})


def test_a_papers_own_check_runs_before_the_kernel(tmp_path):
    # 004's check is paperlib.reproduce.p004.what_if.check (a paper package): it knows the emulation profiles
    with pytest.raises(ParameterError, match="^emulation must be one of"):
        run(NB004, tmp_path / "x.ipynb", {"emulation": "tiny", "output_dir": str(tmp_path / "out")})
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("target", [NB004, NB000, REPO / "notebooks" / "new.ipynb"])
def test_runner_refuses_to_write_over_a_source_notebook(tmp_path, target):
    before = target.read_bytes() if target.exists() else None
    with pytest.raises(ParameterError, match="^output: "):
        run(NB004, target, {"output_dir": str(tmp_path / "out")})
    assert (target.read_bytes() if target.exists() else None) == before


def test_users_folder_without_manifest_is_not_replaced(tiny, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious")
    with pytest.raises(ParameterError, match="holds files not written by a run"):
        run(tiny, tmp_path / "x.ipynb", {"output_dir": str(mine)})
    assert (mine / "thesis.tex").read_text() == "precious"


# --- runs: a set swapped in, a failure kept -----------------------------------------------------

def test_outputs_are_swapped_in_as_a_set_with_a_manifest(tiny, tmp_path):
    out = tmp_path / "res"
    run(tiny, tmp_path / "ex" / "tiny.ipynb", {"output_dir": str(out), "tag": "one"}, cwd=tmp_path)
    assert sorted(p.name for p in out.iterdir()) == [manifest.NAME, "a.txt", "b.txt"]
    assert manifest.problems(out) == []
    assert not list(tmp_path.glob(".res.staging")) and not list((tmp_path / "ex").glob(".*.ipynb"))
    # the executed notebook says where its outputs went, not the staging folder's name only
    injected = [c for c in nbformat.read(tmp_path / "ex" / "tiny.ipynb", 4).cells
                if "injected-parameters" in c.metadata.get("tags", [])][0].source
    assert f'output_dir = "{out}"' in injected
    assert (tmp_path / "ex" / "tiny.ipynb").stat().st_mode & 0o777 == 0o644  # as every other output, not mkstemp's 0600


def test_a_profile_adds_its_parameters_and_tells_the_kernel(tiny, tmp_path, monkeypatch):
    """--profile quick: the profile's values for the notebook (a given -p value wins), recorded in the manifest, and
    the kernel runs with WEBPERF_PROFILE=quick (paperlib.provenance.Stamp reads it: tests/test_profiles.py); without
    a profile the variable is unset in the kernel, whatever the caller's environment holds."""
    nb = nbformat.read(tiny, 4)
    nb.cells.append(nbformat.v4.new_code_cell(
        'import os\n(out / "profile.txt").write_text(os.environ.get("WEBPERF_PROFILE", "unset"))'))
    nbformat.write(nb, str(tiny))
    monkeypatch.setitem(profiles.QUICK, "tiny.ipynb", {"tag": "quick-tag", "sleep_s": 0.0})
    monkeypatch.setenv(profiles.ENV, "quick")  # the caller's: not what a run without a profile sees
    out = tmp_path / "res"
    assert main([str(tiny), str(tmp_path / "ex.ipynb"), "-p", "output_dir", str(out), "-p", "sleep_s", "0.01",
                 "--profile", "quick"]) == 0
    assert (out / "a.txt").read_text() == "quick-tag" and (out / "profile.txt").read_text() == "quick"
    recorded = json.loads((out / manifest.NAME).read_text())["parameters"]
    assert recorded == {"sleep_s": 0.01, "tag": "quick-tag"}  # the given -p value wins
    run(tiny, tmp_path / "ex.ipynb", {"output_dir": str(out)})
    assert (out / "a.txt").read_text() == "x" and (out / "profile.txt").read_text() == "unset"
    assert os.environ[profiles.ENV] == "quick"  # the caller's environment is restored


def test_the_kernel_talks_over_ipc_sockets_and_does_not_warn(tmp_path, capfd):
    """The kernel's transport is ZeroMQ IPC (Unix sockets), so ipykernel has no TCP-without-encryption warning."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('output_dir = "out"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(
        "import pathlib\nfrom ipykernel.kernelapp import IPKernelApp\n"
        "(pathlib.Path(output_dir) / 'transport.txt').write_text(IPKernelApp.instance().transport)")]
    (tmp_path / "nb").mkdir()
    nbformat.write(nb, str(tmp_path / "nb" / "transport.ipynb"))
    run(tmp_path / "nb" / "transport.ipynb", tmp_path / "ex" / "t.ipynb", {"output_dir": str(tmp_path / "res")})
    assert (tmp_path / "res" / "transport.txt").read_text() == "ipc"
    assert "without encryption" not in capfd.readouterr().err  # the kernel's stderr is this process's


def test_failed_run_keeps_the_previous_set_and_the_failed_notebook(tiny, tmp_path, capsys):
    out, executed = tmp_path / "res", tmp_path / "ex" / "tiny.ipynb"
    run(tiny, executed, {"output_dir": str(out), "tag": "good"})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    rc = main([str(tiny), str(executed), "-p", "output_dir", str(out), "-p", "tag", "bad", "-p", "fail", "true"])
    assert rc == 1
    err = capsys.readouterr().err
    assert 'raise ValueError("deliberate failure")' in err  # the failing cell's source
    assert "Traceback" in err and "ValueError: deliberate failure" in err  # and its traceback
    assert "tiny.failed.ipynb" in err
    failed = nbformat.read(tmp_path / "ex" / "tiny.failed.ipynb", 4)
    assert any(o.get("ename") == "ValueError" for c in failed.cells if c.cell_type == "code" for o in c.outputs)
    # a.txt was written by the failed run (tag "bad") into the staging folder only
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert not (tmp_path / ".res.staging").exists()


def test_failure_report_without_a_cell_is_the_error():
    assert failure_report(RuntimeError("kernel died")) == "RuntimeError: kernel died"


def test_sigterm_removes_staging_and_temporary_notebook(tiny, tmp_path):
    out, executed = tmp_path / "res", tmp_path / "ex" / "tiny.ipynb"
    run(tiny, executed, {"output_dir": str(out), "tag": "good"})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    proc = subprocess.Popen([sys.executable, "-m", "paperlib.run_notebook", str(tiny), str(executed),
                             "-p", "output_dir", str(out), "-p", "sleep_s", "60", "-p", "tag", "new"],
                            cwd=REPO, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (tmp_path / ".res.staging" / "a.txt").exists():  # the kernel is inside the sleeping cell
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    assert not (tmp_path / ".res.staging").exists()
    assert not list((tmp_path / "ex").glob(".tiny.ipynb.*"))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the previous complete set, untouched


def test_sample_count_is_bounded_before_the_kernel_starts(tmp_path):
    nb003 = REPO / "notebooks" / "003_specweb96_abr.ipynb"
    with pytest.raises(ParameterError, match="^n_samples: .* above the limit"):
        run(nb003, tmp_path / "x.ipynb", {"n_samples": 10**12, "output_dir": str(tmp_path / "out")})
