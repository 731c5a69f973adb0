"""The Makefile finds the papers itself (issue 23): a paper is data/NNN/ with notebooks/NNN_*.ipynb, and its rule
passes exactly the make variables its notebook declares as parameters, after checking the system's prerequisites as
make reproduce does. Also make lab's command line as root and not. Runs make only (no notebook): a few seconds."""

import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from paperlib.parameters import notebook_parameters

REPO = Path(__file__).resolve().parent.parent
MAKEFILE = REPO / "Makefile"
#: the parameters the Makefile sets from its own variables when a notebook declares them
MAKE_PARAMETERS = ("scheduler", "emulation", "profile", "emulation_lock")

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")


def _make(*args, cwd=REPO) -> str:
    """Return make's output, a recipe's continued lines joined into one."""
    return subprocess.run(["make", "-s", "--no-print-directory", "-f", str(MAKEFILE), *args], cwd=cwd,
                          capture_output=True, text=True, check=True).stdout.replace("\\\n", " ")


def _show(expression: str, cwd=REPO) -> str:
    return _make("--eval", f"show-it: ; @echo '{expression}'", "show-it", cwd=cwd).strip()


def test_the_papers_are_the_data_folders_that_have_a_notebook():
    expected = sorted(d.name for d in (REPO / "data").iterdir()
                      if d.is_dir() and d.name.isdigit() and list((REPO / "notebooks").glob(f"{d.name}_*.ipynb")))
    assert expected  # the repository has papers
    assert _show("$(PAPERS)").split() == expected
    assert _show("$(PARTIALS)").split() == [f"figures/{p}/ledger.csv" for p in expected]


def test_a_data_folder_without_a_notebook_or_a_notebook_without_data_is_no_paper(tmp_path):
    for folder in ("data/007", "data/008", "notebooks"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / "data/007/table.csv").write_text("a\n1\n")
    (tmp_path / "data/008/table.csv").write_text("a\n1\n")  # no notebook
    nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / "notebooks/007_seven.ipynb"))
    nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / "notebooks/009_no_data.ipynb"))
    assert _show("$(PAPERS)", cwd=tmp_path) == "007"


@pytest.mark.parametrize("name", MAKE_PARAMETERS)
def test_the_makefile_sees_the_parameters_each_notebook_declares(name):
    # one make for every paper: "NNN=yes" where the Makefile sees the parameter declared, "NNN=" where not
    seen = dict(word.split("=") for word in _show(f"$(foreach p,$(PAPERS),$(p)=$(call declares,$(p),{name}))").split())
    assert seen
    for paper, answer in seen.items():
        (notebook,) = (REPO / "notebooks").glob(f"{paper}_*.ipynb")
        declared = name in notebook_parameters(notebook)
        assert answer == ("yes" if declared else ""), (paper, name)


def test_each_papers_rule_passes_its_output_dir_and_only_declared_parameters():
    dry = _make("-n", "-B", "EMULATION=reduced", "SCHEDULER=tcp://sched:8786", "PROFILE=scaled",
                *[f"figures/{p}/ledger.csv" for p in _show("$(PAPERS)").split()])
    runs = {line.split()[3]: line for line in dry.splitlines() if "paperlib.run_progress" in line}
    assert runs  # one run per paper
    for paper, line in runs.items():
        (notebook,) = (REPO / "notebooks").glob(f"{paper}_*.ipynb")
        declared = notebook_parameters(notebook)
        assert f"-p output_dir figures/{paper}" in line
        assert ("-p scheduler tcp://sched:8786" in line) == ("scheduler" in declared), paper
        assert ("-p emulation '\"reduced\"'" in line) == ("emulation" in declared), paper
        assert ("-p profile scaled" in line) == ("profile" in declared), paper
        # a real-time emulation holds the lock; a simulation runs at lower priority, and so does a notebook that
        # takes the lock itself around its real-stack sweep (it declares emulation_lock)
        whole_run = "emulation" in declared and "emulation_lock" not in declared
        assert ("--exclusive emulation" in line) == whole_run, paper
        assert ("--nice 10 --idle" in line) == (not whole_run), paper
        assert f"--log figures/logs/{paper}.log" in line


def test_priority_normal_runs_the_simulating_papers_at_normal_priority_and_keeps_the_lock():
    papers = _show("$(PAPERS)").split()
    dry = _make("-n", "-B", *KEEP, "EMULATION=reduced", "PRIORITY=normal", *[f"figures/{p}/ledger.csv" for p in papers])
    runs = {line.split()[3]: line for line in dry.splitlines() if "paperlib.run_progress" in line}
    assert sorted(runs) == papers
    for paper, line in runs.items():
        declared = notebook_parameters(next((REPO / "notebooks").glob(f"{paper}_*.ipynb")))
        whole_run = "emulation" in declared and "emulation_lock" not in declared
        assert ("--exclusive emulation" in line) == whole_run and "--idle" not in line and "--nice" not in line, paper
    bad = subprocess.run(["make", "-s", "-f", str(MAKEFILE), "PRIORITY=low", "help"], cwd=REPO, capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "PRIORITY must be idle or normal, got 'low'" in bad.stderr


def test_the_quick_profile_runs_every_paper_with_its_parameters_and_without_the_real_stacks():
    papers = _show("$(PAPERS)").split()
    dry = _make("-n", "-B", *KEEP, "PROFILE=quick", *[f"figures/{p}/ledger.csv" for p in papers]).splitlines()
    (check,) = [line for line in dry if line.startswith("tools/prereqs.sh ")]
    assert '--emulation "off"' in check  # no root, TUN or testbed package needed
    runs = {line.split()[3]: line for line in dry if "paperlib.run_progress" in line}
    assert sorted(runs) == papers
    for paper, line in runs.items():
        declared = notebook_parameters(next((REPO / "notebooks").glob(f"{paper}_*.ipynb")))
        assert line.endswith("--profile quick") and "--times-dir .cache/run-times-quick " in line, line
        assert ("-p emulation '\"off\"'" in line) == ("emulation" in declared), paper
        assert ("-p profile scaled" in line) == ("profile" in declared), paper  # 001 on its default workload
        assert "--exclusive" not in line and "--nice 10 --idle" in line  # nothing emulates in real time


def test_every_paper_depends_on_the_quick_stamp_and_only_quick_passes_the_profile():
    # one make: the quick stamp, then per paper its stamps and its arguments, each between two markers
    shown = _show("$(QUICK_STAMP)$(foreach p,$(PAPERS), @@ $(p) @@ $(call paper_stamps,$(p)) @@ "
                  "$(call paper_args,$(p)))").split(" @@ ")
    quick, per_paper = shown[0].strip(), shown[1:]
    assert quick and len(per_paper) == 3 * len(_show("$(PAPERS)").split())
    for paper, stamps, args in zip(per_paper[0::3], per_paper[1::3], per_paper[2::3], strict=True):
        assert quick in stamps.split(), paper
        assert "--profile" not in args, paper
    assert _show("$(EMULATION)") == "reduced" and _show("$(RUN_TIMES)") == ".cache/run-times"


def test_sensitivity_runs_the_other_workload_first():
    papers = [p for p in _show("$(PAPERS)").split() if _show(f"$(call declares,{p},profile)")]
    assert papers  # 001 declares profile
    for paper in papers:
        dry = _make("-n", "-B", "PROFILE=sensitivity", f"figures/{paper}/ledger.csv").splitlines()
        runs = [line for line in dry if "paperlib.run_progress" in line]
        assert len(runs) == 2
        assert runs[0].split()[3] == f"{paper}-sensitivity"
        assert "-p profile sensitivity" in runs[0] and "-p profile scaled" in runs[1]


def test_overlap_is_the_default_and_jobs_1_is_sequential():
    assert _show("$(JOBS)") == str(len(_show("$(PAPERS)").split()) + 1)  # every paper and the data check at once


def test_a_dry_run_changes_no_stamp():
    """A dry run (make -n) with other values rewrites neither stamp."""
    stamps = [REPO / _show(f"$({name})") for name in ("PROFILE_STAMP", "EMULATION_STAMP", "QUICK_STAMP")]
    before = [(s.read_bytes(), s.stat().st_mtime_ns) if s.exists() else None for s in stamps]
    _make("-n", "reproduce-outputs", "PROFILE=full", "EMULATION=off")
    _make("-n", "reproduce-outputs", "PROFILE=quick")
    assert [(s.read_bytes(), s.stat().st_mtime_ns) if s.exists() else None for s in stamps] == before


def test_the_stamps_are_files_no_cache_folder_of_the_package_uses():
    """A stamp at .cache/emulation would take the place of the emulator's build folder (a FileExistsError)."""
    from paperlib.emulation import apps, build, experiments

    folders = [Path(build.CACHE), Path(apps.BUILD_CACHE), Path(experiments.CACHE_DIR)]
    for name in ("PROFILE_STAMP", "EMULATION_STAMP", "QUICK_STAMP", "RUN_TIMES"):
        stamp = (REPO / _show(f"$({name})")).resolve()
        assert stamp.parent == (REPO / ".cache").resolve()
        assert not any(f.resolve() == stamp or stamp in f.resolve().parents for f in folders), (name, stamp)


# --- a paper's own target checks the system's prerequisites as make reproduce does --------------------------
#: make's options that leave the built .venv and the stamps alone (-B would remake them)
KEEP = ("-o", ".venv/.installed", "-o", ".cache/emulation-profile", "-o", ".cache/profile",
        "-o", ".cache/quick-profile")


def _lines(*args) -> list[str]:
    return _make("-n", "-B", *KEEP, *args).splitlines()


def test_a_papers_target_checks_the_prerequisites_for_reproduce_once_before_any_paper_runs():
    papers = _show("$(PAPERS)").split()
    lines = _lines(*[f"figures/{p}/ledger.csv" for p in papers])
    checks = [i for i, line in enumerate(lines) if line.startswith("tools/prereqs.sh ")]
    runs = [i for i, line in enumerate(lines) if "paperlib.run_progress" in line]
    assert len(checks) == 1 and len(runs) == len(papers)  # once, however many papers
    assert checks[0] < min(runs)
    assert lines[checks[0]].endswith("--for reproduce") and "--emulation \"reduced\"" in lines[checks[0]]


def test_make_reproduce_checks_once_and_its_sub_make_does_not_check_again():
    # make -n runs the recursive make (it only prints), so the sub-make's commands show too
    lines = _lines("reproduce")
    assert sum(line.startswith("tools/prereqs.sh ") for line in lines) == 1
    assert any("paperlib.run_progress" in line for line in lines)


def test_a_papers_target_stops_before_the_paper_when_a_prerequisite_is_missing():
    """usrsctp.h made to look missing (tools/prereqs.sh's test hook), apt-get too (nothing is installed): make
    figures/004/ledger.csv fails naming libusrsctp-dev, and the paper's command (replaced by an echo, in case the
    check let it through) never runs."""
    env = {**os.environ, "PREREQS_USRSCTP_H": "/nonexistent/usrsctp.h", "PREREQS_NO_APT": "1",
           "PREREQS_NETNS": "yes", "PREREQS_VENV_PATH": "/opt/venv"}  # the worktree's path may hold "test"
    proc = subprocess.run(["make", "-s", "--no-print-directory", "-f", str(MAKEFILE), *KEEP, "-B",
                           "RUN_PAPER=echo THE-PAPER-RAN", "figures/004/ledger.csv"],
                          cwd=REPO, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode != 0
    assert "libusrsctp-dev" in proc.stderr and "make reproduce needs" in proc.stderr, proc.stderr
    assert "THE-PAPER-RAN" not in proc.stdout + proc.stderr


# --- make lab as root ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("uid", ["0", "1000", None])  # as root, as another user (a fake `id`), as this user
def test_make_lab_allows_root_only_when_run_as_root(uid, tmp_path):
    """Jupyter refuses to run as root without --allow-root: make lab passes it when `id -u` says 0, and only then."""
    env = dict(os.environ)
    if uid is not None:
        fake = tmp_path / "id"
        fake.write_text(f"#!/bin/sh\n[ \"$1\" = -u ] && echo {uid} || exec /usr/bin/id \"$@\"\n")
        fake.chmod(0o755)
        env["PATH"] = f"{tmp_path}:{env['PATH']}"
    root = (os.geteuid() if uid is None else int(uid)) == 0
    dry = subprocess.run(["make", "-n", "-s", "--no-print-directory", "-f", str(MAKEFILE), *KEEP, "lab"],
                         cwd=REPO, capture_output=True, text=True, check=True, env=env).stdout
    (lab,) = [line for line in dry.splitlines() if "jupyter lab" in line]
    assert ("--allow-root" in lab.split()) == root, lab
    # the checkout is the server's root (scratch/ one click away), notebooks/ where it opens
    assert lab.endswith("--MultiKernelManager.default_kernel_name=webperf-repro "
                        "--ContentsManager.preferred_dir=notebooks ."), lab
