"""A run's fidelity record (paperlib.emulation.fidelity): /proc parsing on fake files, the CPU watch on a fake
process tree, the record's dict form, the rule at, below and above each limit, run_kept and summarise; as root,
a small transfer beside a CPU hog shows the load in the record (about 15 s on 2 cores)."""

import json
import os
import subprocess
import sys
import time

import pytest

from paperlib.emulation import fidelity, netns
from paperlib.emulation.fidelity import CpuWatch, FidelityRecord, RoleCpu, judge, run_kept, summarise
from paperlib.validate import ParameterError

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


# --- /proc parsing ----------------------------------------------------------------------------------

def _task(root, pid, tid, run_ns, wait_ns, ppid=1, comm="app"):
    (root / str(pid) / "task" / str(tid)).mkdir(parents=True, exist_ok=True)
    (root / str(pid) / "task" / str(tid) / "schedstat").write_text(f"{run_ns} {wait_ns} 7\n")
    (root / str(pid) / "stat").write_text(f"{pid} ({comm}) S {ppid} {pid} {pid} 0 -1 4194560 0 0\n")
    if pid == tid:
        (root / str(pid) / "schedstat").write_text(f"{run_ns} {wait_ns} 7\n")


def test_schedstat_pressure_and_loadavg_are_read(tmp_path):
    _task(tmp_path, 42, 42, 123456789, 2000000)
    _task(tmp_path, 42, 43, 5, 6)
    assert fidelity.read_schedstat(42, proc_root=str(tmp_path)) == (123456789, 2000000)  # the first two fields
    assert fidelity.read_schedstat(42, 43, proc_root=str(tmp_path)) == (5, 6)
    assert fidelity.read_schedstat(99, proc_root=str(tmp_path)) is None  # gone
    (tmp_path / "42" / "schedstat").write_text("\n")
    with pytest.raises(ValueError, match="schedstat"):
        fidelity.read_schedstat(42, proc_root=str(tmp_path))
    assert fidelity.read_cpu_pressure_some_s(str(tmp_path)) is None  # no PSI
    (tmp_path / "pressure").mkdir()
    (tmp_path / "pressure" / "cpu").write_text("some avg10=11.93 avg60=2.80 avg300=0.82 total=5124206\n"
                                               "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    assert fidelity.read_cpu_pressure_some_s(str(tmp_path)) == pytest.approx(5.124206, abs=1e-12)  # 5124206 us
    (tmp_path / "pressure" / "cpu").write_text("full avg10=0.00 total=0\n")
    with pytest.raises(ValueError, match="some"):
        fidelity.read_cpu_pressure_some_s(str(tmp_path))
    assert fidelity.read_loadavg(str(tmp_path)) is None
    (tmp_path / "loadavg").write_text("0.70 0.54 0.24 5/104 6051\n")
    assert fidelity.read_loadavg(str(tmp_path)) == 0.70


def test_cpu_watch_totals_roles_with_descendants_and_exited_tasks(tmp_path):
    root = str(tmp_path)
    _task(tmp_path, 100, 100, 1000, 10, ppid=1)               # the client, registered
    _task(tmp_path, 100, 102, 2000, 20, ppid=1)               # its second thread
    _task(tmp_path, 101, 101, 4000, 40, ppid=100, comm="a) b")  # its child (a command with ") " in it)
    _task(tmp_path, 103, 103, 8000, 80, ppid=101)             # its grandchild
    _task(tmp_path, 200, 200, 10**9, 10**9, ppid=1)           # someone else's process
    _task(tmp_path, 300, 300, 16000, 160, ppid=1)             # the emulator
    watch = CpuWatch(proc_root=root, period_s=60)
    watch.add(100, "client")
    watch.add(300, "emulator")
    # the grandchild exits after this read: its last figures count, and it counts as exited
    import shutil
    shutil.rmtree(tmp_path / "103")
    _task(tmp_path, 100, 100, 1500, 15, ppid=1)  # the client ran on since
    got = watch.stop()
    # client: 1500 + 2000 + 4000 + 8000 = 15500 ns run; 15 + 20 + 40 + 80 = 155 ns wait; 4 tasks, 1 exited
    assert got["client"] == RoleCpu("client", 15500 / 1e9, 155 / 1e9, 4, 1)
    assert got["emulator"] == RoleCpu("emulator", 16000 / 1e9, 160 / 1e9, 1, 0)
    assert list(got) == ["client", "emulator"]  # pid 200 is not ours
    with pytest.raises(ParameterError, match="role"):
        watch.add(1, "browser")


# --- the record ---------------------------------------------------------------------------------------

LINK_STATS = {"ab": {"out": 3, "lateness": {"n": 3, "median_ns": 4000, "p99_ns": 9000, "max_ns": 9500,
                                            "overflow": 0}},
              "ba": {"out": 5, "lateness": {"n": 5, "median_ns": 2000, "p99_ns": 30000, "max_ns": 30400,
                                            "overflow": 0}},
              "lateness": {"n": 8, "median_ns": 3000, "p99_ns": 30000, "max_ns": 30400, "overflow": 0}}
CPU = {"client": RoleCpu("client", 0.2, 0.01, 1, 1), "server": RoleCpu("server", 0.3, 0.02, 2, 0),
       "emulator": RoleCpu("emulator", 0.05, 0.001, 1, 0)}


def _record(**changes) -> FidelityRecord:
    rec = fidelity.make_record(LINK_STATS, CPU, wall_s=2.0, pressure_start_s=10.0, pressure_end_s=10.5,
                               load_start=0.5, load_end=1.5)
    return FidelityRecord(**{**{k: getattr(rec, k) for k in rec.__dataclass_fields__}, **changes})


def test_record_from_counters_and_its_dict_round_trip():
    rec = _record()
    assert (rec.lateness_n, rec.lateness_median_s, rec.lateness_p99_s, rec.lateness_max_s) == (8, 3e-6, 30e-6,
                                                                                                30.4e-6)
    # the worse direction is ba (p99 30 us > 9 us), linkemu's b->a: server -> client, "down"
    assert (rec.worst_direction, rec.worst_lateness_n, rec.worst_lateness_p99_s) == ("down", 5, 30e-6)
    assert rec.app_run_s == pytest.approx(0.5) and rec.app_wait_s == pytest.approx(0.03)  # client + server only
    # 10.5 - 10.0 = 0.5 s of "some" stall over 2 s of wall time
    assert rec.cpu_pressure_s == 0.5 and rec.cpu_pressure_fraction == 0.25
    text = json.dumps(rec.to_dict())
    assert FidelityRecord.from_dict(json.loads(text)) == rec
    broken = rec.to_dict()
    del broken["wall_s"]
    with pytest.raises(ParameterError, match="wall_s"):
        FidelityRecord.from_dict(broken)
    empty = fidelity.make_record(None, {}, wall_s=1.0, pressure_start_s=None, pressure_end_s=None, load_start=None,
                                 load_end=None)
    assert empty.lateness_n == 0 and empty.worst_lateness_p99_s is None and empty.cpu_pressure_fraction is None


# --- the rule -----------------------------------------------------------------------------------------

# RTT 0.5 s: the lateness limit is 0.02 x 0.5 = 0.01 s; with 2 handshakes the wait limit is 0.05 x 0.5 = 0.025 s
# per handshake, i.e. 0.05 s of application wait in all. "Below" is strict: a value at the limit breaks it.
@pytest.mark.parametrize("p99, kept", [(0.0099, True), (0.01, False), (0.0101, False)])
def test_lateness_limit_below_at_above(p99, kept):
    verdict = judge(_record(worst_lateness_p99_s=p99, app_wait_s=0.0), rtt_s=0.5, handshakes=2)
    assert verdict.kept is kept
    if not kept:
        assert len(verdict.broken) == 1 and f"{p99 * 1e3:.3f} ms" in verdict.broken[0]
        assert "10.000 ms" in verdict.broken[0]  # the limit, 0.01 s


# The records of _record() carry no transfer times, so the transfer's duration is their wall time, 2.0 s: the wait
# limit is 0.05 x 2.0 = 0.1 s of application wait in all, whatever the handshakes (they are reported, not judged).
@pytest.mark.parametrize("wait, kept", [(0.0999, True), (0.1, False), (0.1001, False)])
def test_app_wait_limit_below_at_above(wait, kept):
    verdict = judge(_record(worst_lateness_p99_s=0.0, app_wait_s=wait), rtt_s=0.5, handshakes=2)
    assert verdict.kept is kept
    if not kept:
        assert len(verdict.broken) == 1 and f"over the processes' lives {wait * 1e3:.3f} ms" in verdict.broken[0]
        assert "100.000 ms" in verdict.broken[0] and "2000.0 ms" in verdict.broken[0]


def test_both_limits_broken_and_no_lateness_and_bad_arguments():
    verdict = judge(_record(worst_lateness_p99_s=1.0, app_wait_s=1.0).to_dict(), rtt_s=0.5, handshakes=2)
    assert not verdict.kept and len(verdict.broken) == 2
    assert not judge(_record(worst_lateness_p99_s=None, app_wait_s=0.0), rtt_s=0.5, handshakes=1).kept
    with pytest.raises(ParameterError, match="rtt_s"):
        judge(_record(), rtt_s=0, handshakes=1)
    with pytest.raises(ParameterError, match="handshakes"):
        judge(_record(), rtt_s=0.5, handshakes=0)


def _fake_point(p99s):
    """A point function whose k-th call returns a record with lateness p99 ``p99s[k]`` (and no wait)."""
    calls = []

    def fn(params, seed):
        calls.append((params, seed))
        return {"plt_s": 1.0 + len(calls), "fidelity": _record(worst_lateness_p99_s=p99s[len(calls) - 1],
                                                               app_wait_s=0.0).to_dict()}
    return fn, calls


@pytest.mark.parametrize("p99s, tries, kept", [
    ([0.001], 1, True),                    # kept on the first try
    ([0.5, 0.001], 2, True),               # broken, then kept
    ([0.5, 0.5, 0.5, 0.001], 3, False),    # never kept within 3 tries: the 4th record is never asked for
])
def test_run_kept(p99s, tries, kept):
    fn, calls = _fake_point(p99s)
    out = run_kept(fn, {"a": 1}, 7, rtt_s=0.5, handshakes=1)
    assert out["fidelity_kept"] is kept and out["fidelity_tries"] == tries == len(calls)
    assert out["plt_s"] == 1.0 + tries  # the last run's result
    assert all(c == ({"a": 1}, 7) for c in calls)  # the same params and seed each time
    assert (out["fidelity_broken"] == []) is kept
    with pytest.raises(ParameterError, match="fidelity"):
        run_kept(lambda p, s: {"plt_s": 1.0}, {}, 0, rtt_s=0.5, handshakes=1)


def test_summarise_one_cell():
    recs = [_record(worst_lateness_p99_s=0.001, app_wait_s=0.01, cpu_pressure_fraction=0.1),
            _record(worst_lateness_p99_s=0.004, app_wait_s=0.03, cpu_pressure_fraction=0.3).to_dict(),
            _record(worst_lateness_p99_s=0.02, app_wait_s=0.02, cpu_pressure_fraction=None)]
    got = summarise(recs, rtt_s=0.5, handshakes=1)
    # kept: lateness < 0.02 x 0.5 = 0.01 s and wait < 0.05 x 2.0 s = 0.1 s: the first two (the third is 0.02 late)
    assert got["runs"] == 3 and got["runs_kept"] == 2
    assert got["worst_lateness_p99_s"] == 0.02 and got["worst_lateness_p99_rtt_fraction"] == 0.04  # 0.02 / 0.5
    # waits over the 2.0 s transfer: 0.005, 0.015, 0.01 -> median 0.01, max 0.015
    assert got["app_wait_transfer_fraction_median"] == pytest.approx(0.01)
    assert got["app_wait_transfer_fraction_max"] == pytest.approx(0.015)
    # waits per handshake over the RTT: 0.02, 0.06, 0.04 -> median 0.04, max 0.06
    assert got["app_wait_per_handshake_rtt_fraction_median"] == pytest.approx(0.04)
    assert got["app_wait_per_handshake_rtt_fraction_max"] == pytest.approx(0.06)
    assert got["cpu_pressure_fraction_mean"] == pytest.approx(0.2)  # (0.1 + 0.3) / 2, the third has none
    assert fidelity.describe(got).startswith("2 of 3 runs kept their timing")


# --- as root: the load shows in the record ----------------------------------------------------------

SERVER = ("import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); "
          "s.bind((sys.argv[1], 9000)); s.listen(); print('up', flush=True); c, _ = s.accept(); "
          "c.sendall(b'x' * int(sys.argv[2])); c.close()")
CLIENT = ("import socket,sys\ns = socket.create_connection((sys.argv[1], 9000), timeout=60); n = 0\n"
          "while True:\n    b = s.recv(65536)\n    if not b: break\n    n += len(b)\nprint(n)")


def transfer(tb, nbytes: int) -> int:
    """Move ``nbytes`` from the server to the client over one TCP connection; return the bytes received."""
    srv = tb.popen("server", [sys.executable, "-c", SERVER, tb.server_ip, str(nbytes)], stdout=subprocess.PIPE,
                   text=True)
    assert srv.stdout.readline().strip() == "up"
    client = tb.popen("client", [sys.executable, "-c", CLIENT, tb.server_ip], stdout=subprocess.PIPE, text=True)
    out, _ = client.communicate(timeout=60)
    srv.wait(timeout=10)
    return int(out)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_a_cpu_hog_shows_in_the_record():
    # two busy loops at normal priority, one per core, each ending by itself after 60 s and killed in the finally
    # (the loop is the process itself: a wrapper such as timeout(1) would leave it running when killed)
    busy = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end:\n    pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", busy]) for _ in range(max(2, os.cpu_count() or 2))]
    try:
        time.sleep(0.5)  # the hogs are running
        with netns.Testbed(netns.Link(rate_bps=10e6, delay_s=0.01), seed=1) as tb:
            assert transfer(tb, 300_000) == 300_000
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    rec = tb.fidelity
    # with more runnable tasks than cores some task always waits: the machine's "some" stall grows, and the
    # applications (which must share the cores with the hogs) wait on a run queue for some time
    assert rec.cpu_pressure_s is None or rec.cpu_pressure_s > 0
    assert rec.app_wait_s > 0
    assert rec.role("client").wait_s > 0 or rec.role("server").wait_s > 0
    # the emulator framed the transfer (its first and last IPv4 packet), inside the testbed's life, and the wait
    # within it is part of the wait over the processes' lives
    assert rec.transfer_start_s is not None and rec.transfer_start_s < rec.transfer_end_s
    assert rec.app_wait_transfer_s is not None and 0 <= rec.app_wait_transfer_s <= rec.app_wait_s + 1e-9


def test_app_wait_within_an_interval_interpolates_between_reads():
    # reads at t = 10, 11, 12 s with app waits 0, 1, 3 s: between 10.5 and 11.5 the wait grows
    # from 0.5 (halfway 0 -> 1) to 2.0 (halfway 1 -> 3), i.e. 1.5 s
    rec = _record(app_series=((10.0, 0.0, 0.0), (11.0, 0.5, 1.0), (12.0, 0.9, 3.0)))
    assert rec.app_wait_between(10.5, 11.5) == pytest.approx(1.5)
    assert rec.app_wait_between(10.0, 12.0) == pytest.approx(3.0)
    assert rec.app_wait_between(9.0, 11.0) is None  # before the first read
    with pytest.raises(ParameterError, match="t0"):
        rec.app_wait_between(11.0, 10.0)
    assert FidelityRecord.from_dict(json.loads(json.dumps(rec.to_dict()))) == rec


def test_the_rule_judges_the_wait_while_the_link_carried_the_run():
    # linkemu saw the run's first packet at t = 10.5 s and wrote its last at 11.5 s: a 1.0 s transfer, so the wait
    # limit is 0.05 x 1.0 = 50 ms (the lateness limit at RTT 20 s is 0.4 s; p99 30 us is far below)
    stats = {**LINK_STATS, "first_in_ns": 10_500_000_000, "last_out_ns": 11_500_000_000}

    def record(series, cpu=CPU):
        return fidelity.make_record(stats, cpu, wall_s=2.0, pressure_start_s=10.0, pressure_end_s=10.5,
                                    load_start=0.5, load_end=1.5, app_series=series)

    # the watch's reads give the applications' wait 0, 1, 3 s at t = 10, 11, 12 s, so during the transfer it grew
    # by 2.0 - 0.5 = 1.5 s (as in the test above): far above 50 ms
    busy = record(((10.0, 0.0, 0.0), (11.0, 0.5, 1.0), (12.0, 0.9, 3.0)))
    assert (busy.transfer_start_s, busy.transfer_end_s, busy.transfer_duration_s) == (10.5, 11.5, 1.0)
    assert busy.app_wait_transfer_s == pytest.approx(1.5) and busy.judged_wait_s == pytest.approx(1.5)
    verdict = judge(busy, rtt_s=20.0, handshakes=1)
    assert not verdict.kept and "during the transfer 1500.000 ms is not below 50.000 ms" in verdict.broken[0]
    # waits 0, 0.02, 0.04 s at the reads: 0.01 at 10.5 s and 0.03 at 11.5 s, 20 ms during the transfer: kept,
    # although the processes waited 2.02 s over their lives (an interpreter's start-up, say), which alone would
    # break the limit of a record without the transfer's times (0.05 x its 2.0 s wall time = 0.1 s)
    slow_start = {**CPU, "client": RoleCpu("client", 0.2, 2.0, 1, 1)}
    quiet = record(((10.0, 0.0, 0.0), (11.0, 0.5, 0.02), (12.0, 0.9, 0.04)), slow_start)
    assert quiet.app_wait_transfer_s == pytest.approx(0.02) and quiet.app_wait_s == pytest.approx(2.02)
    assert judge(quiet, rtt_s=20.0, handshakes=1).kept
    assert not judge(_record(app_wait_s=2.02, worst_lateness_p99_s=0.0), rtt_s=20.0, handshakes=1).kept
    # a record without the interval (an older emulator) is judged on the wait over the processes' lives
    assert _record().app_wait_transfer_s is None and _record().judged_wait_s == _record().app_wait_s
    assert FidelityRecord.from_dict(json.loads(json.dumps(busy.to_dict()))) == busy
