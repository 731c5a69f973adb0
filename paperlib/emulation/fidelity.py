"""What a real-time emulated run's timing was, and whether the run keeps it (its fidelity record).

A real-stack run is only as good as its timing: a link emulator that writes packets late, or applications
that wait on a busy machine's run queues, add time that the paper's model does not have. Every
:class:`paperlib.emulation.netns.Testbed` therefore measures, on every run (``tb.fidelity`` after its
``with`` block, a :class:`FidelityRecord`):

* the emulator's own lateness per delivered packet (write time minus scheduled time; ``linkemu.c``'s
  histogram: median and 99th percentile to 1 us, the exact maximum), both directions together and the
  worse direction;
* per role (``client``, ``server``, ``emulator``, ``capture``, ``other``) the CPU time and the time spent
  waiting on a run queue of the processes the testbed started and of their descendants, from
  ``/proc/<pid>/task/<tid>/schedstat`` (:class:`CpuWatch`);
* the machine's CPU pressure over the run (``/proc/pressure/cpu``, "some" stall time), the 1-minute load
  average at its start and end, and its wall time.

:data:`RULE` says, fixed before any run, which records keep their timing (:func:`judge`);
:func:`run_kept` repeats a sweep point until its record is kept (at most ``tries`` times) and
:func:`summarise` condenses the records of one ledger cell. ``docs/fidelity.md`` explains each figure and
its error.
"""

from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass, fields, replace
from typing import Callable

from paperlib.validate import ParameterError

#: The /proc this machine's figures are read from (tests pass a fake tree).
PROC = "/proc"
#: The roles a testbed's processes are counted under.
ROLES = ("client", "server", "emulator", "capture", "other")
#: The roles whose run-queue wait counts as the applications' (:attr:`FidelityRecord.app_wait_s`).
APP_ROLES = ("client", "server")
#: How often a :class:`CpuWatch` reads its processes' counters while they run (s).
SAMPLE_PERIOD_S = 0.05
#: linkemu's directions: a is the client, so a->b is the uplink and b->a the downlink (the data direction).
DIRECTIONS = {"ab": "up", "ba": "down"}


# --- reading /proc --------------------------------------------------------------------------------

def read_schedstat(pid: int, tid: int | None = None, proc_root: str = PROC) -> tuple[int, int] | None:
    """Return (time on a CPU, time waiting on a run queue), both in ns, of task ``tid`` of process ``pid``
    (``tid`` None: the file ``<proc_root>/<pid>/schedstat``, the process's main thread); None if it is gone.

    The file holds three numbers: ns on a CPU, ns runnable but waiting on a run queue, time slices run.
    """
    path = f"{proc_root}/{pid}/schedstat" if tid is None else f"{proc_root}/{pid}/task/{tid}/schedstat"
    try:
        with open(path) as f:
            text = f.read()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    parts = text.split()
    if len(parts) < 2:
        raise ValueError(f"{path}: expected 'run_ns wait_ns slices', got {text!r}")
    return int(parts[0]), int(parts[1])


def read_cpu_pressure_some_s(proc_root: str = PROC) -> float | None:
    """Return the machine's total CPU "some" stall time in s (``<proc_root>/pressure/cpu``, its ``total=``
    in us: time during which at least one runnable task waited for a CPU); None without PSI."""
    path = f"{proc_root}/pressure/cpu"
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except (FileNotFoundError, OSError):
        return None
    for line in lines:
        words = line.split()
        if words and words[0] == "some":
            for word in words[1:]:
                if word.startswith("total="):
                    return int(word[len("total="):]) * 1e-6
    raise ValueError(f"{path}: no 'some ... total=' line in {lines!r}")


def read_loadavg(proc_root: str = PROC) -> float | None:
    """Return the machine's 1-minute load average (``<proc_root>/loadavg``'s first field); None if absent."""
    try:
        with open(f"{proc_root}/loadavg") as f:
            return float(f.read().split()[0])
    except FileNotFoundError:
        return None


def _parent_pid(pid: int, proc_root: str) -> int | None:
    """Return the parent pid of ``pid`` from ``<proc_root>/<pid>/stat`` (the field after the state)."""
    try:
        with open(f"{proc_root}/{pid}/stat") as f:
            text = f.read()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return int(text[text.rindex(")") + 1:].split()[1])  # ") S ppid ...": the command may hold spaces


# --- the CPU watch --------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoleCpu:
    """CPU time and run-queue wait (s) of one role's tasks; ``tasks`` seen, ``exited_tasks`` of them gone before
    the last read (each of those may lack up to one sampling period of run + wait)."""

    role: str
    run_s: float
    wait_s: float
    tasks: int
    exited_tasks: int


class CpuWatch:
    """Total, per role, the CPU time and run-queue wait of registered processes and of their descendants.

    :meth:`add` registers a process under a role; :meth:`start` starts a thread that every ``period_s``
    lists ``<proc_root>``, finds the descendants of the registered processes (a new pid whose parent is
    watched is watched under its parent's role) and reads ``schedstat`` of every thread of every watched
    process; :meth:`stop` reads once more and returns the totals per role. A task's figures are its last
    read, so a task still alive at :meth:`stop` counts exactly.

    Error: a task that exits before :meth:`stop` lacks what it ran and waited after its last read, at most
    ``period_s`` (a task cannot run and wait at once, so run + wait <= wall time); a task that starts and
    exits between two reads is not seen at all (also at most ``period_s`` each). The totals are therefore low
    by at most ``period_s`` times the number of exited tasks (:attr:`RoleCpu.exited_tasks` counts those seen).
    Cost: one listing of ``<proc_root>`` and one small read per watched thread each period, and one read of
    ``stat`` per new process on the machine.
    """

    def __init__(self, proc_root: str = PROC, period_s: float = SAMPLE_PERIOD_S):
        if not (isinstance(period_s, (int, float)) and math.isfinite(period_s) and period_s > 0):
            raise ParameterError(f"period_s must be a number > 0, got {period_s!r}")
        self.proc_root, self.period_s = proc_root, float(period_s)
        self._ours: dict[int, str] = {}  # watched live pids -> role
        self._not_ours: dict[int, int | None] = {}  # other live pids -> their parent pid
        self._tasks: dict[tuple[int, int], tuple[str, int, int]] = {}  # (pid, tid) -> role, run ns, wait ns
        self._last_seen: set[tuple[int, int]] = set()
        self._series: list[tuple[float, float, float]] = []  # (CLOCK_MONOTONIC s, app run s, app wait s) per read
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, pid: int, role: str) -> None:
        """Watch process ``pid`` and its descendants under ``role`` (one of :data:`ROLES`)."""
        if role not in ROLES:
            raise ParameterError(f"role must be one of {ROLES}, got {role!r}")
        with self._lock:
            self._ours[int(pid)] = role
            self._not_ours.pop(int(pid), None)
        self.sample()

    def _pids(self) -> set[int]:
        return {int(name) for name in os.listdir(self.proc_root) if name.isdigit()}

    def sample(self) -> None:
        """Read every watched task's counters once (called by the thread; also callable directly)."""
        with self._lock:
            alive = self._pids()
            parents = {pid: ppid for pid, ppid in self._not_ours.items() if pid in alive}  # a child forked before
            for pid in alive - set(parents) - set(self._ours):  # its parent's add() is found again here
                parents[pid] = _parent_pid(pid, self.proc_root)
            changed = True
            while changed:  # a new pid whose parent is watched (or became watched in this loop) is watched
                changed = False
                for pid, ppid in list(parents.items()):
                    if ppid in self._ours:
                        self._ours[pid] = self._ours[ppid]
                        del parents[pid]
                        changed = True
            self._not_ours = parents
            seen = set()
            for pid, role in list(self._ours.items()):
                try:
                    tids = [int(t) for t in os.listdir(f"{self.proc_root}/{pid}/task") if t.isdigit()]
                except (FileNotFoundError, ProcessLookupError):
                    if pid not in alive:
                        del self._ours[pid]  # gone: its pid may be reused by another process
                    continue
                for tid in tids:
                    got = read_schedstat(pid, tid, self.proc_root)
                    if got is not None:
                        self._tasks[(pid, tid)] = (role, got[0], got[1])
                        seen.add((pid, tid))
            self._last_seen = seen
            run = sum(v[1] for v in self._tasks.values() if v[0] in APP_ROLES)
            wait = sum(v[2] for v in self._tasks.values() if v[0] in APP_ROLES)
            self._series.append((time.monotonic(), run / 1e9, wait / 1e9))

    def app_series(self) -> tuple[tuple[float, float, float], ...]:
        """Return (CLOCK_MONOTONIC time s, applications' CPU time s, their run-queue wait s) at every read."""
        with self._lock:
            return tuple(self._series)

    def start(self) -> CpuWatch:
        """Start the sampling thread; return self."""
        def loop():
            while not self._stop.wait(self.period_s):
                try:
                    self.sample()
                except (OSError, ValueError):  # a task vanished mid-read: the next read catches up
                    continue

        self._thread = threading.Thread(target=loop, name="fidelity-cpu-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> dict[str, RoleCpu]:
        """Stop the thread, read once more, and return :class:`RoleCpu` per role that had a task."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()
        with self._lock:
            totals: dict[str, list] = {}
            for key, (role, run, wait) in self._tasks.items():
                t = totals.setdefault(role, [0, 0, 0, 0])
                t[0] += run
                t[1] += wait
                t[2] += 1
                t[3] += key not in self._last_seen
        return {role: RoleCpu(role, t[0] / 1e9, t[1] / 1e9, t[2], t[3])
                for role, t in sorted(totals.items(), key=lambda kv: ROLES.index(kv[0]))}


# --- the record -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class FidelityRecord:
    """One run's timing (s unless named otherwise; None where the machine gives no figure).

    ``lateness_*``: the emulator's lateness over both directions' delivered packets (``n`` packets, median,
    99th percentile, maximum, ``overflow`` packets beyond the 100 ms histogram); ``worst_*``: the same for
    the direction with the larger 99th percentile (``worst_direction`` "up" client -> server or "down").
    ``cpu``: :class:`RoleCpu` per role; ``app_run_s``/``app_wait_s``: client + server. ``cpu_pressure_s``:
    the machine's CPU "some" stall time over the run, ``cpu_pressure_fraction`` that over ``wall_s``.
    ``load_start``/``load_end``: 1-minute load averages. ``sample_period_s``: the CPU watch's period.
    ``app_series``: the applications' (CLOCK_MONOTONIC time, CPU time, run-queue wait) at each of the watch's
    reads (:meth:`app_wait_between` takes the wait within an interval, e.g. the measured transfer's).
    ``transfer_start_s``/``transfer_end_s``: the CLOCK_MONOTONIC times of the first IPv4 packet the emulator
    read and the last one it wrote (the run's traffic on the link); ``app_wait_transfer_s``: the applications'
    run-queue wait between them (:meth:`app_wait_between`), the wait the rule judges (:attr:`judged_wait_s`);
    None where a figure is missing.
    """

    lateness_n: int
    lateness_median_s: float | None
    lateness_p99_s: float | None
    lateness_max_s: float | None
    lateness_overflow: int
    worst_direction: str | None
    worst_lateness_n: int
    worst_lateness_median_s: float | None
    worst_lateness_p99_s: float | None
    worst_lateness_max_s: float | None
    cpu: tuple[RoleCpu, ...]
    app_run_s: float
    app_wait_s: float
    cpu_pressure_s: float | None
    cpu_pressure_fraction: float | None
    load_start: float | None
    load_end: float | None
    wall_s: float
    sample_period_s: float
    app_series: tuple[tuple[float, float, float], ...] = ()
    transfer_start_s: float | None = None
    transfer_end_s: float | None = None
    app_wait_transfer_s: float | None = None

    @property
    def transfer_duration_s(self) -> float:
        """Return the transfer's duration (s): from the emulator's first IPv4 packet to its last, or the run's
        wall time when they are unknown."""
        if self.transfer_start_s is None or self.transfer_end_s is None:
            return self.wall_s
        return self.transfer_end_s - self.transfer_start_s

    @property
    def judged_wait_s(self) -> float:
        """Return the applications' wait the rule judges: while the link carried the run's packets
        (``app_wait_transfer_s``), or over the processes' whole lives (``app_wait_s``, an upper bound: it includes
        an interpreter's start-up, when no packet of the run is on the link) when the interval is unknown."""
        return self.app_wait_s if self.app_wait_transfer_s is None else self.app_wait_transfer_s

    def app_wait_between(self, t0: float, t1: float) -> float | None:
        """Return the applications' run-queue wait (s) between CLOCK_MONOTONIC times ``t0`` <= ``t1`` (the clock of
        ``time.monotonic()`` and of the applications' timestamps), interpolating linearly between the watch's
        reads; None if the reads do not span the interval. Error: at most the wait accrued within one sampling
        period at each end (plus :class:`CpuWatch`'s bound for tasks that exit inside the interval)."""
        if not t0 <= t1:
            raise ParameterError(f"t0 must be <= t1, got {t0!r} > {t1!r}")
        series = self.app_series
        if len(series) < 2 or t0 < series[0][0] or t1 > series[-1][0]:
            return None

        def at(t):
            for (ta, _, wa), (tb, _, wb) in zip(series, series[1:], strict=False):
                if ta <= t <= tb:
                    return wa if tb == ta else wa + (wb - wa) * (t - ta) / (tb - ta)
            return series[-1][2]

        return max(at(t1) - at(t0), 0.0)

    def role(self, name: str) -> RoleCpu | None:
        """Return the :class:`RoleCpu` of role ``name``, or None if no task had it."""
        return next((r for r in self.cpu if r.role == name), None)

    def to_dict(self) -> dict:
        """Return the record as JSON-able builtins (``cpu`` as {role: {run_s, wait_s, tasks, exited_tasks}})."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("cpu", "app_series")}
        out["app_series"] = [list(row) for row in self.app_series]
        out["cpu"] = {r.role: {"run_s": r.run_s, "wait_s": r.wait_s, "tasks": r.tasks,
                               "exited_tasks": r.exited_tasks} for r in self.cpu}
        return out

    @classmethod
    def from_dict(cls, data: dict) -> FidelityRecord:
        """Return the record of :meth:`to_dict`'s ``data``; a missing field raises ParameterError naming it."""
        if not isinstance(data, dict):
            raise ParameterError(f"a fidelity record must be a dict, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        optional = ("app_series", "transfer_start_s", "transfer_end_s", "app_wait_transfer_s")
        missing = [n for n in names if n not in data and n not in optional]
        if missing:
            raise ParameterError(f"the fidelity record lacks {missing}")
        cpu = tuple(RoleCpu(role, float(v["run_s"]), float(v["wait_s"]), int(v["tasks"]), int(v["exited_tasks"]))
                    for role, v in data["cpu"].items())
        series = tuple(tuple(float(x) for x in row) for row in data.get("app_series", ()))
        return cls(**{n: data[n] for n in names if n not in ("cpu", "app_series") and n in data}, cpu=cpu,
                   app_series=series)


def _lateness(block: dict | None) -> tuple[int, float | None, float | None, float | None, int]:
    if not block or not block.get("n"):
        return 0, None, None, None, int(block.get("overflow", 0)) if block else 0
    return (int(block["n"]), block["median_ns"] / 1e9, block["p99_ns"] / 1e9, block["max_ns"] / 1e9,
            int(block["overflow"]))


def make_record(link_stats: dict | None, cpu: dict[str, RoleCpu], *, wall_s: float, pressure_start_s: float | None,
                pressure_end_s: float | None, load_start: float | None, load_end: float | None,
                sample_period_s: float = SAMPLE_PERIOD_S,
                app_series: tuple[tuple[float, float, float], ...] = ()) -> FidelityRecord:
    """Return the record of a run from linkemu's final counters (``link_stats``, None if it gave none), the CPU
    watch's totals and the machine's figures at the run's start and end."""
    both = _lateness((link_stats or {}).get("lateness"))
    dirs = {name: _lateness((link_stats or {}).get(key, {}).get("lateness")) for key, name in DIRECTIONS.items()}
    measured = {name: d for name, d in dirs.items() if d[0]}
    worst_name = max(measured, key=lambda name: (measured[name][2], name)) if measured else None
    worst = dirs[worst_name] if worst_name else (0, None, None, None, 0)
    pressure = None if pressure_start_s is None or pressure_end_s is None else max(pressure_end_s - pressure_start_s,
                                                                                   0.0)
    app = [cpu[r] for r in APP_ROLES if r in cpu]
    first, last = (link_stats or {}).get("first_in_ns", -1), (link_stats or {}).get("last_out_ns", -1)
    start, end = (first / 1e9, last / 1e9) if first is not None and last is not None and 0 <= first <= last \
        else (None, None)
    record = FidelityRecord(
        lateness_n=both[0], lateness_median_s=both[1], lateness_p99_s=both[2], lateness_max_s=both[3],
        lateness_overflow=both[4], worst_direction=worst_name, worst_lateness_n=worst[0],
        worst_lateness_median_s=worst[1], worst_lateness_p99_s=worst[2], worst_lateness_max_s=worst[3],
        cpu=tuple(cpu.values()), app_run_s=sum(r.run_s for r in app), app_wait_s=sum(r.wait_s for r in app),
        cpu_pressure_s=pressure, cpu_pressure_fraction=None if pressure is None or wall_s <= 0 else pressure / wall_s,
        load_start=load_start, load_end=load_end, wall_s=float(wall_s), sample_period_s=float(sample_period_s),
        app_series=tuple(app_series), transfer_start_s=start, transfer_end_s=end)
    if start is None or len(record.app_series) < 2:
        return record
    # the watch's reads frame the applications' lives: a packet the emulator writes after the last read (a
    # teardown's last acknowledgement) or reads before the first adds no wait the watch could have seen
    t0 = min(max(start, record.app_series[0][0]), record.app_series[-1][0])
    t1 = min(max(end, t0), record.app_series[-1][0])
    wait = record.app_wait_between(t0, t1)
    return replace(record, app_wait_transfer_s=wait)


# --- the rule -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FidelityRule:
    """A run keeps its timing when the worse direction's emulator lateness p99 is below
    ``lateness_p99_rtt_fraction`` of the round trip and the applications' run-queue wait during the transfer
    is below ``app_wait_transfer_fraction`` of the transfer's duration
    (:attr:`FidelityRecord.transfer_duration_s`): a wait of ``w`` can lengthen a time measured within the
    transfer by at most ``w``, so the share bounds the machine's part of every measured time."""

    lateness_p99_rtt_fraction: float
    app_wait_transfer_fraction: float


#: The rule, fixed before any run (docs/fidelity.md gives the reasons for the two limits).
RULE = FidelityRule(lateness_p99_rtt_fraction=0.02, app_wait_transfer_fraction=0.05)


@dataclass(frozen=True)
class Judgement:
    """Whether a run keeps its timing; ``broken`` names each limit it missed, with the measured value."""

    kept: bool
    broken: tuple[str, ...]


def _check(rtt_s: float, handshakes: int) -> None:
    if isinstance(rtt_s, bool) or not isinstance(rtt_s, (int, float)) or not math.isfinite(rtt_s) or rtt_s <= 0:
        raise ParameterError(f"rtt_s must be a number > 0, got {rtt_s!r}")
    if isinstance(handshakes, bool) or not isinstance(handshakes, int) or handshakes < 1:
        raise ParameterError(f"handshakes must be a whole number >= 1, got {handshakes!r}")


def _as_record(record) -> FidelityRecord:
    return record if isinstance(record, FidelityRecord) else FidelityRecord.from_dict(record)


def judge(record: FidelityRecord | dict, rtt_s: float, handshakes: int = 1, rule: FidelityRule = RULE) -> Judgement:
    """Return whether ``record`` (a run over a path of round trip ``rtt_s`` s) keeps its timing under ``rule``:
    each measured value strictly below its limit. A record without emulator lateness (no packet delivered) breaks
    the lateness limit. ``handshakes`` (the run's connection handshakes) is checked but not judged: the summaries
    report the wait per handshake beside the rule's figure."""
    _check(rtt_s, handshakes)
    rec = _as_record(record)
    broken = []
    late_limit = rule.lateness_p99_rtt_fraction * rtt_s
    if rec.worst_lateness_p99_s is None:
        broken.append(f"no emulator lateness was recorded (limit: p99 below {late_limit * 1e3:.3f} ms, "
                      f"{rule.lateness_p99_rtt_fraction:g} of the RTT)")
    elif not rec.worst_lateness_p99_s < late_limit:
        broken.append(f"emulator lateness p99 {rec.worst_lateness_p99_s * 1e3:.3f} ms ({rec.worst_direction} "
                      f"direction) is not below {late_limit * 1e3:.3f} ms ({rule.lateness_p99_rtt_fraction:g} of "
                      f"the RTT {rtt_s * 1e3:g} ms)")
    duration = rec.transfer_duration_s
    wait_limit = rule.app_wait_transfer_fraction * duration
    if not rec.judged_wait_s < wait_limit:
        during = "during the transfer" if rec.app_wait_transfer_s is not None else "over the processes' lives"
        broken.append(f"application run-queue wait {during} {rec.judged_wait_s * 1e3:.3f} ms is not below "
                      f"{wait_limit * 1e3:.3f} ms ({rule.app_wait_transfer_fraction:g} of the transfer's "
                      f"{duration * 1e3:.1f} ms)")
    return Judgement(kept=not broken, broken=tuple(broken))


def run_kept(fn: Callable[[dict, int], dict], params: dict, seed: int, *, rtt_s: float, handshakes: int,
             tries: int = 3, rule: FidelityRule = RULE) -> dict:
    """Return ``fn(params, seed)``'s result of the first run whose ``"fidelity"`` record :func:`judge` keeps,
    running it at most ``tries`` times (the same params and seed each time), else the last run's; with
    ``fidelity_kept`` (bool), ``fidelity_tries`` (runs made) and ``fidelity_broken`` (the last judgement's
    texts) added."""
    _check(rtt_s, handshakes)
    if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
        raise ParameterError(f"tries must be a whole number >= 1, got {tries!r}")
    attempt = 0
    while attempt < tries:
        attempt += 1
        result = fn(params, seed)
        if not isinstance(result, dict) or result.get("fidelity") is None:
            raise ParameterError("the point function's result must be a dict with a 'fidelity' record")
        verdict = judge(result["fidelity"], rtt_s, handshakes, rule)
        if verdict.kept:
            break
    return {**result, "fidelity_kept": verdict.kept, "fidelity_tries": attempt,
            "fidelity_broken": list(verdict.broken)}


def summarise(records, rtt_s: float, handshakes: int, rule: FidelityRule = RULE) -> dict:
    """Return one ledger cell's fidelity: ``runs``, ``runs_kept``, ``worst_lateness_p99_s`` and
    ``worst_lateness_p99_rtt_fraction`` (the largest worse-direction p99 over the runs), the median and
    maximum of the applications' wait during the transfer as a share of its duration (the rule's figure,
    ``app_wait_transfer_fraction_median``/``_max``) and per handshake as fractions of the RTT
    (``app_wait_per_handshake_rtt_fraction_median``/``_max``), and ``cpu_pressure_fraction_mean`` (None where
    no record has a figure). ``records``: :class:`FidelityRecord` or their dicts."""
    _check(rtt_s, handshakes)
    recs = [_as_record(r) for r in records]
    kept = sum(judge(r, rtt_s, handshakes, rule).kept for r in recs)
    p99 = [r.worst_lateness_p99_s for r in recs if r.worst_lateness_p99_s is not None]
    waits = sorted(r.judged_wait_s / handshakes / rtt_s for r in recs)
    shares = sorted(r.judged_wait_s / r.transfer_duration_s for r in recs if r.transfer_duration_s > 0)
    pressure = [r.cpu_pressure_fraction for r in recs if r.cpu_pressure_fraction is not None]
    return {"runs": len(recs), "runs_kept": int(kept),
            "worst_lateness_p99_s": max(p99) if p99 else None,
            "worst_lateness_p99_rtt_fraction": max(p99) / rtt_s if p99 else None,
            "app_wait_transfer_fraction_median": _median(shares),
            "app_wait_transfer_fraction_max": shares[-1] if shares else None,
            "app_wait_per_handshake_rtt_fraction_median": _median(waits),
            "app_wait_per_handshake_rtt_fraction_max": waits[-1] if waits else None,
            "cpu_pressure_fraction_mean": sum(pressure) / len(pressure) if pressure else None}


def _median(sorted_values: list[float]) -> float | None:
    if not sorted_values:
        return None
    mid = len(sorted_values) // 2
    return sorted_values[mid] if len(sorted_values) % 2 else (sorted_values[mid - 1] + sorted_values[mid]) / 2


def describe(summary: dict) -> str:
    """Return a one-line text of a :func:`summarise` dict, for people (code reads the dict's fields)."""
    def pct(x):
        return "n/a" if x is None else f"{100 * x:.2f}%"

    return (f"{summary['runs_kept']} of {summary['runs']} runs kept their timing; emulator lateness p99 at most "
            f"{pct(summary['worst_lateness_p99_rtt_fraction'])} of the RTT; application run-queue wait during the "
            f"transfer {pct(summary['app_wait_transfer_fraction_median'])} of its duration (median), "
            f"{pct(summary['app_wait_transfer_fraction_max'])} (max), per handshake "
            f"{pct(summary['app_wait_per_handshake_rtt_fraction_median'])} of the RTT (median); CPU pressure "
            f"{pct(summary['cpu_pressure_fraction_mean'])} of the wall time (mean)")
