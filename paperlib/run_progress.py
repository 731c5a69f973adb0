"""Run one paper's command with its full output in a log file and short lines on the terminal: start, sweeps, end.

``python -m paperlib.run_progress 001 --log figures/logs/001.log -- .venv/bin/python -m paperlib.run_notebook ...``

* The start line names the paper, its log and the time to expect: the last successful run of the same
  command on this machine (kept in ``.cache/run-times/<paper>.json``, or ``--times-dir``), or "first run
  here" when there is none. No number is made up: a run with other parameters has no expectation.
* Everything the command writes (the notebook runner, the kernel, ns-3, Dask workers) goes to the log.
* While a sweep computes, the paper prints progress lines (:func:`sweep_line`, :class:`SweepLines`): the
  sweep's name, its runs done out of planned (those read from the cache count as done at once) and an estimate
  of the time left from the cache's records of how long points took. Each line is whole (no carriage returns,
  so a log or six papers side by side read the same) and a paper prints one at most every 30 s
  (``WEBPERF_PROGRESS_EVERY`` seconds), only with news: a sweep still computing that it has not shown, a
  further tenth of its runs done, its end, or five minutes without either. The sweeps write their events to a
  file this module names in the environment (:mod:`paperlib.sweep_progress`); a run without sweeps to compute
  prints none.
* The end line gives the elapsed time. The record also keeps the CPU time (user + system) of the command and
  every descendant it waited for (the kernel, its Dask workers and ns-3, the emulated links and
  applications): ``cpu_seconds``, from which ``make bench`` gives the floor of an overlapped cold run
  (the papers' CPU work over the machine's cores). On failure the end line is followed by the log's last lines,
  and the exit status is the command's.
* The record also says whether the run was **cold**: whether every sweep point it needed was computed, none read
  from the sweep cache. Each :func:`paperlib.sweep.run_sweep` call in the command's process tree appends its
  counts to a tally file this module names in the environment (:data:`SWEEP_TALLY`, :func:`note_sweep`); a run
  without sweeps computes everything it shows, so it is cold too. The last successful cold run is kept beside
  the last run (``last_cold``): ``make bench`` sizes a cold run from it, not from a warm rerun that read its
  sweeps from the cache.
* ``--nice N`` lowers the command's CPU priority (inherited by the kernel and its worker processes),
  ``--idle`` runs it under the scheduler's idle policy (``SCHED_IDLE``, inherited likewise: it runs only on
  a CPU that no normal task wants, and a normal task that wakes takes the CPU at once; in a cpu cgroup marked
  idle where the machine has one, else in a session of its own whose scheduler group has the lowest weight,
  since with autogroup scheduling the policy counts only within a session: :func:`make_idle_cgroup`,
  :func:`lower_priority`), and
  ``--exclusive NAME`` holds the lock ``.cache/locks/NAME.lock`` for the whole run: ``make reproduce``
  overlaps the papers and uses them to keep CPU-bound simulations from delaying a real-time emulation (whose
  runs record how long their processes waited for a CPU, ``docs/fidelity.md``), and to run the real-time
  emulations one at a time (docs/running.md).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from paperlib.atomic import atomic_write_text
from paperlib.sweep_progress import PROGRESS_FILE, ProgressFeed

REPO = Path(__file__).resolve().parent.parent
TIMES_DIR = REPO / ".cache" / "run-times"
LOCKS_DIR = REPO / ".cache" / "locks"
TAIL_LINES = 40
#: The environment variable naming the file to which each sweep of a run appends its counts (:func:`note_sweep`).
SWEEP_TALLY = "WEBPERF_SWEEP_TALLY"
#: The environment variable that sets the least time between two progress lines of a paper, in seconds.
PROGRESS_EVERY = "WEBPERF_PROGRESS_EVERY"
#: The least time between two progress lines of a paper unless :data:`PROGRESS_EVERY` says otherwise.
PROGRESS_EVERY_S = 30.0
#: A computing sweep's line comes again after this long without a further tenth of its runs (its time left moves).
HEARTBEAT_S = 300.0
#: How often the sweeps' progress file is read while the command runs.
POLL_S = 1.0


def duration(seconds: float) -> str:
    """Return ``seconds`` as a short text: ``"42 s"``, ``"3 min 05 s"``, ``"1 h 02 min"``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def times_file(paper: str, times_dir: Path = TIMES_DIR) -> Path:
    """Return the file that keeps ``paper``'s last run (``<times_dir>/<paper>.json``)."""
    return Path(times_dir) / f"{paper}.json"


def read_record(paper: str, times_dir: Path = TIMES_DIR) -> dict | None:
    """Return ``paper``'s last recorded run (``command``, ``seconds``, ``ok``, ``started``, ``run_id``), or None."""
    try:
        record = json.loads(times_file(paper, times_dir).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return record if isinstance(record, dict) else None


def expected_seconds(paper: str, command: list[str], times_dir: Path = TIMES_DIR) -> float | None:
    """Return the time of ``paper``'s last successful run of exactly ``command`` here, or None if there is none."""
    record = read_record(paper, times_dir)
    if record and record.get("command") == command:
        return record.get("last_ok_seconds")
    return None


def note_sweep(points: int, cached: int, computed: int, simulate: str = "") -> None:
    """Append one sweep's counts (points, read from the cache, computed) to the tally file of the run, if any.

    :func:`paperlib.sweep.run_sweep` calls it once per sweep; outside a run of this module (no
    :data:`SWEEP_TALLY` in the environment) it does nothing. One line of JSON per sweep, appended in one write.
    """
    path = os.environ.get(SWEEP_TALLY)
    if path:
        line = json.dumps({"simulate": simulate, "points": int(points), "cached": int(cached),
                           "computed": int(computed)}, sort_keys=True) + "\n"
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line)


def read_tally(path: Path) -> dict:
    """Return the sweeps a run's tally file counts: ``{"sweeps", "points", "cached", "computed"}`` (zeros if none).

    Raises ValueError naming the file and line for a line that is not a sweep's counts.
    """
    total = {"sweeps": 0, "points": 0, "cached": 0, "computed": 0}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return total
    for number, line in enumerate(text.splitlines(), 1):
        try:
            counts = json.loads(line)
            total["points"] += int(counts["points"])
            total["cached"] += int(counts["cached"])
            total["computed"] += int(counts["computed"])
        except (ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}, line {number}: not a sweep's counts ({err}): {line!r}") from None
        total["sweeps"] += 1
    return total


def is_cold(sweeps: dict | None) -> bool | None:
    """Return whether a run with these sweep counts (:func:`read_tally`) was cold: nothing read from the cache.

    None when the counts are unknown (a record written before runs were tallied).
    """
    if sweeps is None:
        return None
    return sweeps["cached"] == 0


def children_cpu_seconds() -> float:
    """Return the user + system CPU seconds of this process's terminated, waited-for descendants so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def write_record(paper: str, command: list[str], seconds: float, ok: bool, started: float,
                 times_dir: Path = TIMES_DIR, cpu_seconds: float | None = None, sweeps: dict | None = None) -> None:
    """Record a finished run of ``paper``: this run's time and outcome, and the last successful time of ``command``.

    ``cpu_seconds`` is the CPU time of the command's process tree (:func:`children_cpu_seconds` across
    the run; ``None``: not measured). A descendant that outlives the command or is never waited for is
    not counted, so it is a lower bound of the run's CPU work.

    ``sweeps`` are the run's sweep counts (:func:`read_tally`; ``None``: not tallied). The record says whether
    the run was ``cold`` (:func:`is_cold`) and keeps ``last_cold``: this run if it succeeded cold, else the
    previous record's ``last_cold`` (``command``, ``seconds``, ``cpu_seconds``, ``started``, ``run_id``; None
    before the first successful cold run).

    ``run_id`` is the environment's ``WEBPERF_RUN_ID`` (``make reproduce`` sets one per invocation), so
    the closing summary can tell the papers run by this invocation from those that were up to date.
    """
    previous = read_record(paper, times_dir) or {}
    last_ok = seconds if ok else (previous.get("last_ok_seconds") if previous.get("command") == command else None)
    cold = is_cold(sweeps)
    record = {"paper": paper, "command": command, "seconds": round(seconds, 1), "ok": ok, "started": started,
              "run_id": os.environ.get("WEBPERF_RUN_ID"),
              "cpu_seconds": None if cpu_seconds is None else round(cpu_seconds, 1),
              "last_ok_seconds": None if last_ok is None else round(last_ok, 1),
              "sweeps": sweeps, "cold": cold}
    if ok and cold:
        record["last_cold"] = {k: record[k] for k in ("command", "seconds", "cpu_seconds", "started", "run_id")}
    else:
        record["last_cold"] = previous.get("last_cold")
    atomic_write_text(times_file(paper, times_dir), json.dumps(record, indent=1, sort_keys=True) + "\n")


def start_line(paper: str, label: str, log: Path, expected: float | None) -> str:
    """Return the line printed as a paper starts: its label, the time to expect and its log."""
    expect = f"expect about {duration(expected)} (last run here)" if expected is not None else "first run here"
    return f"[{paper}] start  {label}: {expect}; log {_shown(log)}"


def end_line(paper: str, seconds: float, expected: float | None, returncode: int) -> str:
    """Return the line printed as a paper ends: done or FAILED, the elapsed time, the expected one if known."""
    expect = f" (expected about {duration(expected)})" if expected is not None else ""
    if returncode == 0:
        return f"[{paper}] done   in {duration(seconds)}{expect}"
    return f"[{paper}] FAILED after {duration(seconds)} (exit status {returncode})"


def sweep_line(paper: str, name: str, done: int, planned: int, cached: int, left_s: float | None) -> str:
    """Return a computing sweep's progress line: its runs done out of planned, those from the cache, the time left.

    ``left_s`` None: nothing timed yet to estimate from; 0 or less: the sweep runs past its estimate; less than a
    second shows as 1 s.
    """
    if left_s is None:
        left = "time left not known yet"
    elif left_s <= 0:
        left = "past its estimate"
    else:
        left = f"about {duration(max(left_s, 1.0))} left"
    return f"[{paper}] sweep  {name}: {done}/{planned} runs done{_from_cache(cached)}, {left}"


def sweep_end_line(paper: str, name: str, planned: int, cached: int, seconds: float | None) -> str:
    """Return the line of a sweep that has all its runs, with the time it took (if its start was seen)."""
    took = "" if seconds is None else f" in {duration(seconds)}"
    return f"[{paper}] sweep  {name}: {planned}/{planned} runs done{_from_cache(cached)}{took}"


def _from_cache(cached: int) -> str:
    return f" ({cached} from the cache)" if cached else ""


def tenth(done: int, planned: int) -> int:
    """Return how many whole tenths of ``planned`` runs ``done`` runs are (0-10)."""
    return 10 * done // planned


class SweepLines:
    """The progress lines of one paper, from its sweeps' events (:mod:`paperlib.sweep_progress`).

    :meth:`feed` takes each event as it is read and :meth:`tick` the passing time; each returns the lines to
    print now (none or one). A line comes at least ``every_s`` seconds after the paper's last one (``last_t``:
    its start line, a ``time.time()``), and only with news of the latest sweep: it computes and has not been
    shown, it has done a further tenth of its runs since its last line, it has ended after being shown, or it
    computes and the paper's last line is :data:`HEARTBEAT_S` old. A sweep that ends before it is shown prints
    nothing. An event is judged at its own time (``t``), so the lines do not depend on when the file is read.
    """

    def __init__(self, paper: str, every_s: float = PROGRESS_EVERY_S, last_t: float = 0.0):
        self.paper, self.every_s, self.last_t = paper, float(every_s), float(last_t)
        self.sweeps: dict[str, dict] = {}
        self.current: dict | None = None

    def feed(self, event: dict) -> list[str]:
        """Return the lines due at an event's time, after taking the event into account."""
        sweep = self.sweeps.setdefault(event["id"], {"shown": False, "shown_tenth": 0, "closed": False,
                                                     "t_start": None})
        if event["event"] == "start":
            sweep["t_start"] = event["t"]
        sweep.update({k: event[k] for k in ("sweep", "planned", "cached", "done", "left_s", "t")})
        sweep["ended"] = event["event"] == "end"
        self.current = sweep
        return self._due(event["t"])

    def tick(self, now: float) -> list[str]:
        """Return the lines due at ``now`` (a ``time.time()``) without a new event."""
        return self._due(now)

    def _news(self, sweep: dict, now: float) -> bool:
        if sweep["ended"]:
            return sweep["shown"] and not sweep["closed"]
        if not sweep["shown"]:
            return True
        if sweep["done"] < sweep["planned"] and tenth(sweep["done"], sweep["planned"]) > sweep["shown_tenth"]:
            return True
        return now - self.last_t >= HEARTBEAT_S

    def _due(self, now: float) -> list[str]:
        sweep = self.current
        if sweep is None or now - self.last_t < self.every_s or not self._news(sweep, now):
            return []
        if sweep["ended"]:
            took = None if sweep["t_start"] is None else sweep["t"] - sweep["t_start"]
            line = sweep_end_line(self.paper, sweep["sweep"], sweep["planned"], sweep["cached"], took)
            sweep["closed"] = True
        else:
            left = None if sweep["left_s"] is None else sweep["left_s"] - max(0.0, now - sweep["t"])
            line = sweep_line(self.paper, sweep["sweep"], sweep["done"], sweep["planned"], sweep["cached"], left)
        sweep["shown"], sweep["shown_tenth"] = True, tenth(sweep["done"], sweep["planned"])
        self.last_t = now
        return [line]


def progress_every_s(environ=None) -> float:
    """Return the least seconds between two progress lines: :data:`PROGRESS_EVERY` in the environment, else 30.

    Raises ValueError naming the variable if it is not a number >= 0.
    """
    text = (os.environ if environ is None else environ).get(PROGRESS_EVERY)
    if text is None:
        return PROGRESS_EVERY_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{PROGRESS_EVERY} must be a number of seconds >= 0, got {text!r}")
    return value


def log_tail(log: Path, lines: int = TAIL_LINES) -> str:
    """Return the last ``lines`` lines of ``log``, each indented by four spaces."""
    try:
        text = Path(log).read_text(errors="replace")
    except FileNotFoundError:
        return "    (no log)\n"
    return "".join(f"    {line}\n" for line in text.splitlines()[-lines:])


def _shown(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@contextlib.contextmanager
def exclusive(name: str | None, locks_dir: Path = LOCKS_DIR):
    """Hold the lock ``<locks_dir>/<name>.lock`` (blocking) while the block runs; no lock when ``name`` is None."""
    if name is None:
        yield
        return
    Path(locks_dir).mkdir(parents=True, exist_ok=True)
    with open(Path(locks_dir) / f"{name}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


#: The scheduler's per-session task groups (Linux ``CONFIG_SCHED_AUTOGROUP``): the calling process's group and its
#: niceness. Writing a niceness there sets the weight of the whole group.
AUTOGROUP = Path("/proc/self/autogroup")
#: The lowest weight a group can have (niceness 19): what an ``idle`` command's session gets.
LOWEST_NICE = 19


#: Where the kernel's cpu controller is mounted (cgroup v1's own hierarchy, or the unified v2 one).
CPU_CGROUP_ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))
#: The name of an idle run's cgroup (its runner's pid appended).
IDLE_CGROUP_PREFIX = "webperf-idle-"


def make_idle_cgroup() -> Path | None:
    """Create a cpu cgroup marked idle (``cpu.idle`` = 1, Linux 5.15+) for one idle run; return its folder, None
    where the machine cannot (no cpu controller with ``cpu.idle``, or not root).

    The kernel's scheduler treats the whole group as ``SCHED_IDLE`` against every other group: a task of another
    group that wakes preempts it at once, and the group's weight is the least there is. The measured alternative,
    a session whose autogroup has niceness 19 (:func:`lower_priority`), still let CPU-bound simulations delay the
    frequent wake-ups of an emulated run's applications (CHANGELOG). Remove it with :func:`remove_cgroup` when the
    run ends.
    """
    for root in CPU_CGROUP_ROOTS:
        if not (root / "cgroup.procs").exists():
            continue
        folder = root / f"{IDLE_CGROUP_PREFIX}{os.getpid()}"
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        try:
            (folder / "cpu.idle").write_text("1\n")
            return folder
        except OSError:
            remove_cgroup(folder)
    return None


def remove_cgroup(folder: Path | None) -> None:
    """Remove an emptied cgroup made by :func:`make_idle_cgroup` (left in place while a process still uses it)."""
    if folder is not None:
        with contextlib.suppress(OSError):
            folder.rmdir()


def join_cgroup(folder: Path, pid: int = 0) -> None:
    """Move process ``pid`` (0: the caller, with all its threads) into the cgroup ``folder``."""
    (folder / "cgroup.procs").write_text(f"{pid or os.getpid()}\n")


def idle_cgroup_of_self() -> Path | None:
    """Return the idle cgroup (:func:`make_idle_cgroup`) the calling process runs in, else None."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, rel = line.split(":", 2)
        v1_cpu = "cpu" in controllers.split(",")
        if not (v1_cpu or controllers == ""):
            continue
        folder = CPU_CGROUP_ROOTS[0 if v1_cpu else 1] / rel.lstrip("/")
        if folder.name.startswith(IDLE_CGROUP_PREFIX) and (folder / "cgroup.procs").exists():
            return folder
    return None


def lower_priority(nice: int, idle: bool, cgroup: Path | None = None) -> None:
    """Lower the calling process's CPU priority by ``nice`` and, with ``idle``, put it under ``SCHED_IDLE`` in a
    session of its own whose scheduler group has the lowest weight (all inherited by its children; a child's preexec
    function).

    Why the session: with autogroup scheduling (Linux's default on desktop and many server kernels,
    ``/proc/sys/kernel/sched_autogroup_enabled``) every session is a task group, and groups share the CPUs by the
    groups' weights before any task's policy counts. ``SCHED_IDLE`` then yields only to tasks of its own group,
    while the applications of an emulated run, started each in a session of their own
    (:meth:`paperlib.emulation.netns.Testbed.popen`), would share the CPUs with the idle command's whole session as
    with any other. A session of its own at niceness :data:`LOWEST_NICE` gives the command's group the weight 15 of
    a nice-0 group's 1024. Without autogroup support (no ``/proc/self/autogroup``) the policy and niceness alone
    apply, as they then do. ``cgroup`` (:func:`make_idle_cgroup`, where the machine has one): the process joins
    it, and with it every process it starts, kernels in their own sessions included (a task in a cgroup has no
    autogroup); the group is idle as a whole.
    """
    if nice:
        os.nice(nice)
    if idle:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        os.setsid()
        set_group_nice(LOWEST_NICE)
    if cgroup is not None:
        join_cgroup(cgroup)


def set_group_nice(nice: int) -> bool:
    """Set the niceness of the calling process's scheduler group (:data:`AUTOGROUP`); return whether it was set
    (False: no autogroup support, or a niceness below the present one without the privilege to lower it)."""
    try:
        AUTOGROUP.write_text(f"{int(nice)}\n")
    except OSError:
        return False
    return True


def lowest_group_when_idle() -> bool:
    """Give the calling process's session group the lowest weight (:data:`LOWEST_NICE`) if the process runs under
    ``SCHED_IDLE`` and leads its session; return whether it did.

    A notebook's kernel is started in a session of its own (Jupyter's launcher), so the session :func:`lower_priority`
    made for an idle run does not hold it, and the kernel's group (its ns-3 and Dask workers) would weigh as much
    as any other. :func:`paperlib.notebook.open_paper` calls this: an idle run's kernel inherits ``SCHED_IDLE`` and
    leads its session, an interactive kernel or a user's shell does neither.
    """
    if os.sched_getscheduler(0) != os.SCHED_IDLE or os.getsid(0) != os.getpid():
        return False
    return set_group_nice(LOWEST_NICE)


def group_nice() -> int | None:
    """Return the niceness of the calling process's scheduler group, None without autogroup support."""
    try:
        return int(AUTOGROUP.read_text().split("nice")[1])
    except (OSError, IndexError, ValueError):
        return None


def run(paper: str, command: list[str], log: Path, *, label: str | None = None, nice: int = 0,
        exclusive_name: str | None = None, times_dir: Path = TIMES_DIR, locks_dir: Path = LOCKS_DIR,
        out=None, idle: bool = False, every_s: float | None = None) -> int:
    """Run ``command`` with its output in ``log``; print the start, progress and end lines to ``out``; return its
    exit status.

    ``nice`` and ``idle`` lower the command's CPU priority (:func:`lower_priority`); ``every_s`` is the least
    time between two progress lines (default :func:`progress_every_s`)."""
    out = out or sys.stdout
    log = Path(log)
    label = label or paper
    every_s = progress_every_s() if every_s is None else every_s
    expected = expected_seconds(paper, command, times_dir)
    with exclusive(exclusive_name, locks_dir):
        log.parent.mkdir(parents=True, exist_ok=True)
        _print([start_line(paper, label, log, expected)], out)
        started = time.time()
        lines = SweepLines(paper, every_s, started)
        t0 = time.monotonic()
        cpu0 = children_cpu_seconds()
        with open(log, "w") as fh, tempfile.TemporaryDirectory(prefix="webperf-run-") as tally_dir:
            fh.write(f"$ {' '.join(command)}\n")
            fh.flush()
            tally = Path(tally_dir) / "sweeps.jsonl"
            feed = ProgressFeed(Path(tally_dir) / "progress.jsonl")

            def show(now: float | None) -> None:
                """Print the progress lines due: at each new event, then (with ``now``) for the time passed."""
                for event in feed.read():
                    _print(lines.feed(event), out)
                if now is not None:
                    _print(lines.tick(now), out)

            cgroup = make_idle_cgroup() if idle else None
            try:
                proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.STDOUT,
                                        env={**os.environ, SWEEP_TALLY: str(tally), PROGRESS_FILE: str(feed.path)},
                                        preexec_fn=(lambda: lower_priority(nice, idle, cgroup)) if nice or idle
                                        else None)
                returncode = _wait(proc, lambda: show(time.time()))
            finally:
                remove_cgroup(cgroup)
            show(None)  # the events written since the last look, judged at their own times
            sweeps = read_tally(tally)
        seconds = time.monotonic() - t0
        write_record(paper, command, seconds, returncode == 0, started, times_dir,
                     cpu_seconds=children_cpu_seconds() - cpu0, sweeps=sweeps)
        # still holding the lock: the next run's start line comes after this end line
        _print([end_line(paper, seconds, expected, returncode)], out)
        if returncode != 0:
            _write(f"    last lines of {_shown(log)}:\n{log_tail(log)}", out)
    return returncode


def _own_session(proc: subprocess.Popen) -> bool:
    """Return whether ``proc`` leads a session of its own (not the caller's)."""
    try:
        return os.getsid(proc.pid) == proc.pid != os.getsid(0)
    except ProcessLookupError:
        return False


def _print(lines: list[str], out) -> None:
    """Print ``lines`` to ``out``, each with its newline in one write (:func:`_write`)."""
    for line in lines:
        _write(line + "\n", out)


def _write(text: str, out) -> None:
    """Write ``text`` to ``out`` in one call and flush it.

    ``print`` writes a line and its newline in two calls; with unbuffered output (``PYTHONUNBUFFERED``, ``python
    -u``) they are two writes to the terminal, and the papers a ``make -j`` runs side by side share it: another
    paper's line could land between them. One write of a short line to a pipe or terminal is not split.
    """
    out.write(text)
    out.flush()


def _wait(proc: subprocess.Popen, poll=None) -> int:
    """Wait for ``proc``, calling ``poll()`` every :data:`POLL_S` seconds from another thread while it runs; pass
    SIGTERM and SIGHUP on to it (SIGINT from a terminal reaches it directly, or from here when it runs in a session
    of its own)."""
    def forward(signum, frame):
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signum)

    stop = threading.Event()

    def polling() -> None:
        while not stop.wait(POLL_S):
            poll()

    poller = threading.Thread(target=polling, name="progress", daemon=True) if poll is not None else None
    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        if poller is not None:
            poller.start()
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                # a command in the terminal's session got the same SIGINT; one in a session of its own (an idle
                # run, lower_priority) did not: it and its process group get it from here
                if _own_session(proc):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGINT)
                continue  # its exit status says how it ended
    finally:
        stop.set()
        if poller is not None and poller.is_alive():
            poller.join()
        for sig, old in previous.items():
            signal.signal(sig, old)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (see the module docstring); return the command's exit status (2 for bad usage)."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.run_progress", description=__doc__.splitlines()[0])
    parser.add_argument("paper", help="the paper's id (three digits, as in data/<id>/)")
    parser.add_argument("--log", type=Path, required=True, help="file for the command's full output")
    parser.add_argument("--label", help="what the start line calls the run (default the paper's id)")
    parser.add_argument("--nice", type=int, default=0, help="lower the command's CPU priority by N (0-19)")
    parser.add_argument("--idle", action="store_true",
                        help="run under the idle scheduling policy (SCHED_IDLE): only on CPUs no normal task wants")
    parser.add_argument("--exclusive", metavar="NAME", help="run while holding the lock .cache/locks/NAME.lock")
    parser.add_argument("--times-dir", type=Path, default=TIMES_DIR, help="where the last runs' times are kept")
    parser.add_argument("--locks-dir", type=Path, default=LOCKS_DIR, help="where the --exclusive locks are")
    parser.usage = "%(prog)s PAPER --log FILE [options] -- COMMAND ..."
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args, command = parser.parse_args(argv[:split]), argv[split + 1:]
    if not command:
        parser.error("no command given (put it after --)")
    if not 0 <= args.nice <= 19:
        parser.error(f"--nice must be 0-19, got {args.nice}")
    try:
        every_s = progress_every_s()
    except ValueError as err:
        parser.error(str(err))
    return run(args.paper, command, args.log, label=args.label, nice=args.nice, exclusive_name=args.exclusive,
               idle=args.idle, times_dir=args.times_dir, locks_dir=args.locks_dir, every_s=every_s)


if __name__ == "__main__":
    raise SystemExit(main())
