"""A real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes, started by their command line.

The command lines are the ones docs/cluster.md gives (plus a free port on 127.0.0.1 and self-shutdown
timeouts, so nothing outlives the test). The workers run in their own scratch folder, not the
client's: the client alone reads and writes the sweep cache, so results and cache entries must be
those of the in-process run, byte for byte. Then the failures: the client killed mid-sweep, a
worker holding the GIL for longer than the heartbeat interval, and a worker killed (SIGKILL) while
it runs a point. Every process started here is killed by a finalizer, also when a test fails.
About 1-2 min on 2 cores (each worker imports ns-3 and compiles the 001 browsers once).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
import sweep_helpers

from paperlib.emulation import netns
from paperlib.sweep import grid, run_sweep, sweep_record

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

TESTS = Path(__file__).resolve().parent
DASK = Path(sys.executable).parent / "dask"
#: The scheduler's setting docs/cluster.md gives: a worker whose thread holds the GIL in a long
#: simulation sends no heartbeat; Dask's default time-to-live (5 min) would restart it.
DOCUMENTED_ENV = {"DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": "2 hours"}
#: Longest wait for any one step (a worker's start, a point, a file to appear).
STEP_S = 180


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(what: str, ready, timeout_s: float = STEP_S):
    """Return ``ready()`` once it is truthy; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not (value := ready()):
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout_s:.0f} s")
        time.sleep(0.05)
    return value


class Cluster:
    """A scheduler and workers started with Dask's command line, each in its own process group."""

    def __init__(self, root: Path, env: dict[str, str]):
        self.root = root
        self.env = {**os.environ, **env,
                    # sweep_helpers lives in tests/; paperlib is installed in the venv the workers run from
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))}
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.workdir = root / "workers"  # not the client's folder: nothing is shared through files
        self.workdir.mkdir(parents=True)

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 (kept open for the process's life)
        proc = subprocess.Popen(argv, cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def start_scheduler(self) -> None:
        """Start ``dask scheduler`` on the free port; return once it accepts connections."""
        port = self.address.rsplit(":", 1)[1]
        self._start("scheduler", [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard",
                                  "--idle-timeout", "600s"])

        def accepts():
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", int(port))) == 0
        _wait("the scheduler accepts connections", accepts)

    def start_worker(self) -> subprocess.Popen:
        """Start ``dask worker`` with one thread (and its nanny) in the workers' folder."""
        proc = self._start(f"worker{len(self.workers)}", [
            str(DASK), "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
            "--death-timeout", "60s"])
        self.workers.append(proc)
        return proc

    def client(self):
        """Return a client of this cluster."""
        from distributed import Client

        return Client(self.address, set_as_default=False, timeout=60)

    def wait_for_workers(self, n: int) -> None:
        """Return once ``n`` workers have joined."""
        with self.client() as client:
            client.wait_for_workers(n, timeout=STEP_S)

    def worker_of(self, pid: int) -> subprocess.Popen:
        """Return the ``dask worker`` command whose process group holds process ``pid``."""
        group = os.getpgid(pid)
        return next(w for w in self.workers if w.pid == group)

    def kill(self, proc: subprocess.Popen) -> None:
        """SIGKILL ``proc``'s whole process group (a worker's nanny and worker: a lost machine)."""
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)

    def close(self) -> None:
        """Kill every process started here, workers first."""
        for proc in reversed(self.procs):
            self.kill(proc)

    def logs(self) -> str:
        """Return the last lines of every process's log (for a failure's message)."""
        return "\n".join(f"--- {p.name}\n" + "\n".join(p.read_text(errors="replace").splitlines()[-15:])
                         for p in sorted(self.root.glob("*.log")))


def _cluster(root: Path, env: dict[str, str], n_workers: int):
    cluster = Cluster(root, env)
    try:
        cluster.start_scheduler()
        for _ in range(n_workers):
            cluster.start_worker()
        cluster.wait_for_workers(n_workers)
    except BaseException:
        cluster.close()
        print(cluster.logs())
        raise
    return cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler with the documented settings and two workers, all started by Dask's command line."""
    running = _cluster(tmp_path_factory.mktemp("cluster"), DOCUMENTED_ENV, 2)
    yield running
    running.close()


def _entries(cache: Path) -> dict[str, dict]:
    """Return every cache entry under ``cache`` (relative path -> its JSON but for the point's time and the checksum
    that covers it), without the sweeps' run records."""
    timing = ("seconds", "cpu_seconds", "checksum")
    return {str(p.relative_to(cache)): {k: v for k, v in json.loads(p.read_text()).items() if k not in timing}
            for p in sorted(cache.rglob("*.json")) if "runs" not in p.parts}


def _same_as_in_process(simulate, points, tmp_path, address, **opts) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run ``points`` by address and in this process; return both frames after checking the cache keys agree."""
    remote = run_sweep(simulate, points, cache_dir=tmp_path / "remote", scheduler=address, progress=False, **opts)
    here = run_sweep(simulate, points, cache_dir=tmp_path / "here", scheduler="synchronous", progress=False, **opts)
    assert list(_entries(tmp_path / "remote")) == list(_entries(tmp_path / "here"))  # the same keys
    assert sweep_record(remote)["computed"] == len(points) and sweep_record(remote)["retried"] == []
    return remote, here


# --- the same results by address as in this process -----------------------------------------------------------

@pytest.mark.ns3
def test_001_sweep_by_address_is_byte_identical_to_the_in_process_run(cluster, tmp_path):
    from paperlib.sim import web_testbed

    # a small 001 testbed (0.5 Mbit/s, 40 parametric browsers, 6 s simulated): two points, one per worker
    tiny = {"bottleneck_bps": 0.5e6, "browsers": 40, "sim_time_s": 6.0, "warmup_s": 2.0, "queue_packets": 30,
            "traffic": {"family": "parametric"}}
    points = [{**tiny, "rep": r} for r in range(2)]
    remote, here = _same_as_in_process(web_testbed.simulate, points, tmp_path, cluster.address)
    pd.testing.assert_frame_equal(remote, here)
    assert _entries(tmp_path / "remote") == _entries(tmp_path / "here")
    assert not list(cluster.workdir.rglob("*.json"))  # the workers wrote no cache entry in their folder


@pytest.mark.skipif(netns.unavailable_reason() is not None,
                    reason=f"emulated testbed unavailable: {netns.unavailable_reason()}")
def test_emulated_sweep_by_address_matches_the_in_process_run(cluster, tmp_path):
    # real stacks on the wall clock, but what is asserted (the points, seeds and objects; times that run forward)
    # holds however loaded the machine is, so it runs beside other tests (a run that loses its timing is re-run, and
    # its last try returned: the same rows)
    from paperlib.emulation import experiments

    # two repetitions of a 2-object transfer over a 10 Mbit/s, 10 ms link: real stacks in namespaces on a worker
    points = grid(paper=["002"], protocol=["tcp"], rate_bps=[10e6], rtt_s=[0.01], loss=[0.0], queue_packets=[50],
                  mss_bytes=[1460], initcwnd=[4], object_bytes=[20000], objects=[2], users=[1], mode=["pipelined"],
                  rep=[0, 1])
    remote, here = _same_as_in_process(experiments.run_point, points, tmp_path, cluster.address,
                                       code_version=experiments.code_version())
    # Times are measured on the real clock, so they differ from run to run; what the point is does not.
    same = [*points[0], "seed", "user", "object", "application"]
    pd.testing.assert_frame_equal(remote[same], here[same])
    assert list(remote.columns) == list(here.columns)
    assert all(max(d) > min(s) for d, s in zip(remote["t_done"], remote["t_start"], strict=True))


# --- failures -----------------------------------------------------------------------------------------------------

def test_killed_client_leaves_whole_entries_and_the_rerun_computes_only_the_missing(cluster, tmp_path):
    cache, gate = tmp_path / "cache", tmp_path / "gate"
    # x = 4 and 5 run at once (largest first, sweep_helpers.sweep_cost); x = 0..3 wait for the gate, which opens
    # only after the client is killed
    points = [{"x": x, "gated": x < 4, "gate": str(gate)} for x in range(6)]
    script = ("import sys, sweep_helpers; from paperlib.sweep import run_sweep; "
              f"run_sweep(sweep_helpers.gated, {points!r}, cache_dir=sys.argv[1], scheduler=sys.argv[2], "
              "progress=False)")
    client = subprocess.Popen([sys.executable, "-c", script, str(cache), cluster.address], env=cluster.env)
    try:
        folder = cache / "sweep_helpers.gated"
        _wait("the client caches the two ungated points", lambda: len(list(folder.glob("*.json"))) == 2)
        client.kill()
        client.wait(timeout=30)
    finally:
        client.kill()
    gate.touch()  # the killed client's gated points, still running on the workers, finish and go nowhere
    stored = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    assert sorted(e["params"]["x"] for e in stored) == [4, 5]
    rerun = run_sweep(sweep_helpers.gated, points, cache_dir=cache, scheduler=cluster.address, progress=False)
    # whole entries are read back (a damaged one would be recomputed with a warning): 2 cached, 4 computed
    record = sweep_record(rerun)
    assert (record["cached"], record["computed"]) == (2, 4)
    here = run_sweep(sweep_helpers.gated, points, cache_dir=tmp_path / "here", scheduler="synchronous",
                     progress=False)
    pd.testing.assert_frame_equal(rerun, here)
    assert _entries(cache) == _entries(tmp_path / "here")


def test_worker_holding_the_gil_past_its_heartbeats_is_kept_with_the_documented_ttl(cluster, tmp_path):
    # 6 s holding the GIL: 12 heartbeat intervals (0.5 s with under 11 workers), and past the 5 s floor
    # Dask puts under the time-to-live (10 heartbeat intervals); the control below shows it is long enough
    # to get a worker restarted by a scheduler with a short time-to-live.
    frame = run_sweep(sweep_helpers.holds_the_gil, [{"x": 0, "hold_s": 6}], cache_dir=tmp_path, progress=False,
                      scheduler=cluster.address)
    assert sweep_record(frame)["retried"] == []
    with cluster.client() as client:
        assert not [e for _, e in client.get_events("scheduler") if e.get("action") == "worker-ttl-timed-out"]
        assert len(client.scheduler_info()["workers"]) == 2


def test_control_a_short_ttl_restarts_the_worker_holding_the_gil(tmp_path):
    # The same 6 s hold on a scheduler whose time-to-live is 1 s (so 5 s, Dask's floor, checked every second).
    short = _cluster(tmp_path, {"DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": "1s"}, 1)
    try:
        with short.client() as client:
            future = client.submit(sweep_helpers.holds_the_gil, {"x": 0, "hold_s": 6}, 1, pure=False)
            _wait("the scheduler times the worker out", lambda: [
                e for _, e in client.get_events("scheduler") if e.get("action") == "worker-ttl-timed-out"], 60)
            future.cancel()
    finally:
        short.close()


def test_worker_killed_mid_point_the_sweep_finishes_on_the_other_and_records_the_retry(cluster, tmp_path):
    # Runs last in this module: it leaves the cluster one worker short.
    mark, gate, cache = tmp_path / "mark", tmp_path / "gate", tmp_path / "cache"
    # x = 5 starts first (largest first); its first attempt hangs (the gate never opens) until its worker is killed
    points = [{"x": x, **({"mark": str(mark), "gate": str(gate)} if x == 5 else {})} for x in range(6)]
    killed: list[subprocess.Popen] = []

    def kill_the_worker_running_x5():
        pid = int(_wait("x = 5 starts on a worker", lambda: mark.exists() and mark.read_text().split())[0])
        killed.append(cluster.worker_of(pid))
        cluster.kill(killed[0])

    killer = threading.Thread(target=kill_the_worker_running_x5, daemon=True)
    killer.start()
    frame = run_sweep(sweep_helpers.held_on_first_attempt, points, cache_dir=cache, scheduler=cluster.address,
                      progress=False)
    killer.join(timeout=STEP_S)
    assert killed and killed[0].poll() is not None, "no worker was killed"
    first, second = (int(p) for p in mark.read_text().split())
    survivor = next(w for w in cluster.workers if w is not killed[0])
    assert cluster.worker_of(second) is survivor  # the retry ran on the other worker
    with cluster.client() as client:
        assert len(client.scheduler_info()["workers"]) == 1

    record = sweep_record(frame)
    assert {"x": 5, "mark": str(mark), "gate": str(gate)} in [r["params"] for r in record["retried"]]
    assert all(r["workers_lost"] == 1 for r in record["retried"])  # one worker was lost
    written = [json.loads(p.read_text()) for p in (cache / "runs").glob("sweep_helpers.held_on_first_attempt-*")]
    assert [w["retried"] for w in written] == [record["retried"]]

    # The undisturbed run: in this process (the mark now holds two attempts, so x = 5 does not hang).
    here = run_sweep(sweep_helpers.held_on_first_attempt, points, cache_dir=tmp_path / "here",
                     scheduler="synchronous", progress=False)
    pd.testing.assert_frame_equal(frame, here)
    assert _entries(cache) == _entries(tmp_path / "here")  # whole entries, equal but for the points' times
