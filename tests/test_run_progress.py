"""One paper's run as make reproduce shows it (issue 23): a start and an end line, the full output in a log,
the time to expect taken only from a measured run, the log's tail on failure, priority and the emulation lock.

The commands are small Python one-liners (no kernel): a few seconds in all.
"""

import io
import json
import os
import sys
from pathlib import Path

import pytest

from paperlib import run_progress
from paperlib.run_progress import duration, end_line, expected_seconds, main, run, start_line

PY = sys.executable


def _run(tmp_path, command, paper="007", **kw):
    out = io.StringIO()
    code = run(paper, command, tmp_path / "logs" / f"{paper}.log", times_dir=tmp_path / "times",
               locks_dir=tmp_path / "locks", out=out, **kw)
    return code, out.getvalue()


@pytest.mark.parametrize("seconds, text", [(0.4, "0 s"), (59.4, "59 s"), (61, "1 min 01 s"), (3599, "59 min 59 s"),
                                           (3600 + 125, "1 h 02 min")])
def test_duration_reads_as_minutes_and_seconds(seconds, text):
    assert duration(seconds) == text


def test_the_terminal_gets_two_lines_and_the_log_everything(tmp_path):
    code, out = _run(tmp_path, [PY, "-c", "import sys; print('to stdout'); print('to stderr', file=sys.stderr)"],
                     label="007_tiny")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("[007] start  007_tiny: first run here; log ")  # no measurement, no number
    assert lines[1].startswith("[007] done   in ")
    log = (tmp_path / "logs" / "007.log").read_text()
    assert "to stdout" in log and "to stderr" in log and "to stdout" not in out


class _Writes(io.StringIO):
    """A terminal that records each write: with unbuffered output (PYTHONUNBUFFERED) each is a write of its own."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def write(self, text):
        self.calls.append(text)
        return super().write(text)


def test_each_line_reaches_the_terminal_in_one_write(tmp_path):
    # papers run side by side (make -j) share the terminal: a line and its newline written apart let another paper's
    # line in between ("[900] start ... 900.log[901] start ...", then an empty line)
    out = _Writes()
    script = "import sys\nfor i in range(30): print('line', i)\nsys.exit(4)"
    code = run("007", [PY, "-c", script], tmp_path / "logs" / "007.log", times_dir=tmp_path / "times",
               locks_dir=tmp_path / "locks", out=out, every_s=0.0)
    assert code == 4
    lines = [c for c in out.calls if not c.startswith("    last lines of ")]
    assert [c[:13] for c in lines] == ["[007] start  ", "[007] FAILED "]
    assert all(c.endswith("\n") and c.count("\n") == 1 for c in lines), out.calls
    # the log's tail too, in one write that ends its last line
    tail = [c for c in out.calls if c.startswith("    last lines of ")]
    assert len(tail) == 1 and tail[0].endswith("line 29\n")


def test_the_expected_time_is_the_last_successful_run_of_the_same_command(tmp_path):
    command = [PY, "-c", "pass"]
    _run(tmp_path, command)
    record = json.loads((tmp_path / "times" / "007.json").read_text())
    assert record["ok"] and record["command"] == command
    assert expected_seconds("007", command, tmp_path / "times") == record["seconds"]
    code, out = _run(tmp_path, command)
    assert f"expect about {duration(record['seconds'])} (last run here)" in out.splitlines()[0]
    # another command (other parameters) has no expectation
    assert expected_seconds("007", [PY, "-c", "pass", "x"], tmp_path / "times") is None
    # a failed run keeps the last successful time of the same command
    failing = [PY, "-c", "raise SystemExit(3)"]
    _run(tmp_path, failing)
    assert expected_seconds("007", failing, tmp_path / "times") is None


def test_a_failure_shows_the_exit_status_and_the_logs_tail(tmp_path):
    script = "import sys\nfor i in range(100): print('line', i)\nsys.exit(4)"
    code, out = _run(tmp_path, [PY, "-c", script])
    assert code == 4
    assert "[007] FAILED after " in out and "(exit status 4)" in out
    # the last TAIL_LINES lines of the log
    assert f"line {99}" in out and f"line {100 - run_progress.TAIL_LINES}" in out
    assert f"line {99 - run_progress.TAIL_LINES}" not in out
    assert not json.loads((tmp_path / "times" / "007.json").read_text())["ok"]


def test_start_and_end_lines():
    assert start_line("001", "001_x", Path("figures/logs/001.log"), 125.0).startswith(
        "[001] start  001_x: expect about 2 min 05 s (last run here); log ")
    assert end_line("001", 61.0, 125.0, 0) == "[001] done   in 1 min 01 s (expected about 2 min 05 s)"
    assert end_line("001", 61.0, None, 0) == "[001] done   in 1 min 01 s"
    assert end_line("001", 61.0, None, 2) == "[001] FAILED after 1 min 01 s (exit status 2)"


def test_nice_lowers_the_commands_priority(tmp_path):
    base = os.nice(0)
    code, _ = _run(tmp_path, [PY, "-c", "import os; print('niceness', os.nice(0))"], nice=5)
    assert code == 0
    assert f"niceness {min(base + 5, 19)}" in (tmp_path / "logs" / "007.log").read_text()


def test_idle_runs_the_command_and_its_children_under_the_idle_policy(tmp_path):
    # SCHED_IDLE is policy 5 (os.SCHED_IDLE); a child started by the command inherits it
    child = "import os; print('policy', os.sched_getscheduler(0))"
    command = [PY, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"]
    code, _ = _run(tmp_path, command, nice=5, idle=True)
    assert code == 0
    assert f"policy {os.SCHED_IDLE}" in (tmp_path / "logs" / "007.log").read_text()


AUTOGROUP = pytest.mark.skipif(run_progress.group_nice() is None,
                               reason="no scheduler autogroups here (/proc/self/autogroup)")


@AUTOGROUP
def test_an_idle_command_runs_in_a_session_of_its_own_whose_group_has_the_lowest_weight(tmp_path):
    # with autogroup scheduling SCHED_IDLE counts only within a session (lower_priority's docstring): an idle run
    # gets a session of its own and the group's niceness 19; the caller's group is left as it was
    mine = run_progress.group_nice()
    show = ("import os; from paperlib import run_progress as r; "
            "print('session', os.getsid(0) == os.getpid(), r.group_nice())")
    code, _ = _run(tmp_path, [PY, "-c", show], nice=5, idle=True)
    assert code == 0
    assert f"session True {run_progress.LOWEST_NICE}" in (tmp_path / "logs" / "007.log").read_text()
    code, _ = _run(tmp_path, [PY, "-c", show])  # not idle: the caller's session and group
    assert "session False" in (tmp_path / "logs" / "007.log").read_text()
    assert run_progress.group_nice() == mine


@AUTOGROUP
def test_a_kernel_in_a_session_of_its_own_lowers_its_group_only_when_idle(tmp_path):
    """Jupyter starts a kernel in a new session: open_paper's call gives that session's group the lowest weight
    when the kernel inherited SCHED_IDLE, and leaves a normal kernel's group alone."""
    import subprocess

    script = "from paperlib import run_progress as r; print(r.lowest_group_when_idle(), r.group_nice())"
    idle = subprocess.run([PY, "-c", script], capture_output=True, text=True, check=True, start_new_session=True,
                          preexec_fn=lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)))
    assert idle.stdout.split() == ["True", str(run_progress.LOWEST_NICE)]
    if os.sched_getscheduler(0) == os.SCHED_OTHER:  # (a test run under SCHED_IDLE has no normal child to start)
        normal = subprocess.run([PY, "-c", script], capture_output=True, text=True, check=True, start_new_session=True)
        assert normal.stdout.split() == ["False", "0"]
    # idle but not leading its session (a process of the caller's session): the caller's group is not touched
    mine = run_progress.group_nice()
    follower = subprocess.run([PY, "-c", script], capture_output=True, text=True, check=True,
                              preexec_fn=lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)))
    assert follower.stdout.split() == ["False", str(mine)]


def _can_make_idle_cgroup() -> bool:
    folder = run_progress.make_idle_cgroup()
    run_progress.remove_cgroup(folder)
    return folder is not None


IDLE_CGROUP = pytest.mark.skipif(not _can_make_idle_cgroup(), reason="no idle cpu cgroup here (root, cpu.idle)")


@IDLE_CGROUP
def test_an_idle_run_runs_in_an_idle_cgroup_that_is_removed_after_it(tmp_path):
    # the command and what it starts (a child here, a kernel in its own session under make) are in the cgroup
    show = ("import subprocess, sys; from paperlib import run_progress as r; c = r.idle_cgroup_of_self(); "
            "print('cgroup', c, (c / 'cpu.idle').read_text().strip()); sys.stdout.flush(); "
            "subprocess.run([sys.executable, '-c', 'from paperlib import run_progress as r; "
            "print(\\'child\\', r.idle_cgroup_of_self())'], start_new_session=True)")
    code, _ = _run(tmp_path, [PY, "-c", show], nice=5, idle=True)
    log = (tmp_path / "logs" / "007.log").read_text()
    assert code == 0, log
    folder = log.split("cgroup ")[1].split()[0]
    assert f"cgroup {folder} 1" in log and f"child {folder}" in log
    assert run_progress.IDLE_CGROUP_PREFIX in folder and not Path(folder).exists()
    assert run_progress.idle_cgroup_of_self() is None  # the runner itself stays where it was


def test_open_paper_asks_for_the_lowest_group_when_idle(tmp_path, monkeypatch):
    from paperlib import notebook

    calls = []
    monkeypatch.setattr(run_progress, "lowest_group_when_idle", lambda: calls.append(1) or False)
    notebook.open_paper("004", parameters={}, output_dir=tmp_path / "out")
    assert calls == [1]


def test_sigint_reaches_an_idle_command_in_its_own_session(tmp_path):
    """A terminal's Ctrl-C reaches only its own session's processes: the runner passes it to an idle command's
    process group (the command, a child of it) itself."""
    import subprocess
    import threading
    import time

    ready = tmp_path / "ready"
    # the child says it is ready once its handler is in place (a loaded machine may take seconds to start it)
    child = (f"import pathlib, signal, sys, time; signal.signal(signal.SIGINT, lambda *a: sys.exit(7)); "
             f"pathlib.Path({str(ready)!r}).touch(); time.sleep(20)")
    script = (f"import signal, subprocess, sys, time; c = None; "
              f"signal.signal(signal.SIGINT, lambda *a: sys.exit(c.wait() if c else 9)); "
              f"c = subprocess.Popen([sys.executable, '-c', {child!r}]); time.sleep(20)")
    proc = subprocess.Popen([PY, "-c", script], start_new_session=True)

    def interrupt():
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGINT)  # what the terminal sends the runner's session

    import signal

    # Python's own SIGINT handler, whatever this process inherited: a shell starts a background job with SIGINT
    # ignored, and Python then keeps it ignored, so no KeyboardInterrupt would reach the runner's wait
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    thread = threading.Thread(target=interrupt)
    thread.start()
    try:
        assert run_progress._wait(proc) == 7  # the child got SIGINT too, and the command exited with its status
    finally:
        thread.join()
        signal.signal(signal.SIGINT, previous)
        if proc.poll() is None:
            proc.kill()


def test_runs_holding_the_same_lock_do_not_overlap(tmp_path):
    """Two runs started together under one --exclusive name: one's start and end marks never fall between the
    other's (each command marks, sleeps, marks; without the lock the four marks would interleave), and on the
    shared terminal the first run's end line comes before the second one's start line."""
    import subprocess

    marks, terminal = tmp_path / "marks.txt", tmp_path / "terminal.txt"
    script = ("import sys, time; m = open(sys.argv[1], 'a'); m.write(sys.argv[2] + ' start\\n'); m.flush(); "
              "time.sleep(1.0); m.write(sys.argv[2] + ' end\\n'); m.close()")
    with open(terminal, "a") as shared:
        procs = [subprocess.Popen([PY, "-m", "paperlib.run_progress", paper, "--log", str(tmp_path / f"{paper}.log"),
                                   "--times-dir", str(tmp_path / "times"), "--locks-dir", str(tmp_path / "locks"),
                                   "--exclusive", "emulation", "--", PY, "-c", script, str(marks), paper],
                                  stdout=shared)
                 for paper in ("a", "b")]
        assert [p.wait(timeout=60) for p in procs] == [0, 0]
    lines = marks.read_text().splitlines()
    assert sorted(lines) == ["a end", "a start", "b end", "b start"]
    first, second = lines[0].split()[0], lines[2].split()[0]
    assert lines == [f"{first} start", f"{first} end", f"{second} start", f"{second} end"]
    shown = [line.split()[:2] for line in terminal.read_text().splitlines()]
    assert shown == [[f"[{first}]", "start"], [f"[{first}]", "done"], [f"[{second}]", "start"], [f"[{second}]", "done"]]


def test_command_line_needs_a_command(tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        main(["007", "--log", str(tmp_path / "x.log"), "--"])
    assert err.value.code == 2
    assert "no command given" in capsys.readouterr().err


def test_command_line_rejects_a_niceness_out_of_range(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["007", "--log", str(tmp_path / "x.log"), "--nice", "25", "--", PY, "-c", "pass"])
    assert "--nice must be 0-19, got 25" in capsys.readouterr().err


def test_the_record_keeps_the_cpu_time_of_the_command_and_its_children(tmp_path):
    # the command busies a grandchild for about 0.3 s of CPU, then itself for about 0.3 s: the record counts
    # both (waited-for descendants), and the wall time bounds neither from below on 2 cores
    spin = "import time; t = time.process_time(); exec('while time.process_time() - t < 0.3: pass')"
    command = [PY, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {spin!r}]); {spin}"]
    code, _ = _run(tmp_path, command)
    record = json.loads((tmp_path / "times" / "007.json").read_text())
    assert code == 0
    assert 0.6 <= record["cpu_seconds"] <= record["seconds"] + 0.5


def test_a_record_written_without_cpu_time_says_it_was_not_measured(tmp_path):
    run_progress.write_record("007", [PY], 1.0, True, 0.0, tmp_path)
    assert json.loads((tmp_path / "007.json").read_text())["cpu_seconds"] is None
