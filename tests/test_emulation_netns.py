"""The emulated testbed: set-up, teardown (normal, exception, SIGTERM of a child run), bad parameters.

About 10 s on 2 cores. Skipped, with the reason, where the machine has no root, TUN or namespaces.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from paperlib.emulation import netns, tcp_settings
from paperlib.emulation.netns import Link, Testbed, TestbedError
from paperlib.emulation.tcp_settings import TcpSettings, for_paper
from paperlib.validate import ParameterError

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def _namespaces() -> set[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child of ours counts as gone
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


@pytest.mark.parametrize("kwargs, name", [
    ({"rate_bps": 0, "delay_s": 0.1}, "rate_bps"),
    ({"rate_bps": 1e6, "delay_s": -0.1}, "delay_s"),
    ({"rate_bps": 1e6, "delay_s": 0.1, "loss_down": 1.0}, "loss_down"),
    ({"rate_bps": 1e6, "delay_s": 0.1, "loss_up": -0.01}, "loss_up"),
    ({"rate_bps": 1e6, "delay_s": 0.1, "queue_packets": 0}, "queue_packets"),
    ({"rate_bps": 1e6, "delay_s": 0.1, "mtu_bytes": 100}, "mtu_bytes"),
    ({"rate_bps": float("nan"), "delay_s": 0.1}, "rate_bps"),
])
def test_bad_link_parameters_name_the_parameter(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        Link(**kwargs)


def test_bad_tcp_settings_and_testbed_arguments():
    with pytest.raises(ParameterError, match="congestion_control"):
        TcpSettings(congestion_control="vegas")
    with pytest.raises(ParameterError, match="initcwnd"):
        TcpSettings(initcwnd=0)
    with pytest.raises(ParameterError, match="seed"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=-1)
    with pytest.raises(ParameterError, match="mss_bytes"):  # 1460 B segments need a 1500 B MTU
        Testbed(Link(rate_bps=1e6, delay_s=0.01, mtu_bytes=576), seed=1, tcp=TcpSettings(mss_bytes=1460))
    with pytest.raises(ParameterError, match="paper"):
        for_paper("001")


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_setup_pins_tcp_and_teardown_leaves_nothing():
    before = _namespaces()
    with Testbed(Link(rate_bps=1e6, delay_s=0.01, mtu_bytes=576), seed=3, tcp=for_paper("002")) as tb:
        names = {tb.client_ns, tb.server_ns}
        assert names <= _namespaces()
        emu_pid = tb._emu.pid
        got = tb.sysctl_values("client", ["net.ipv4.tcp_congestion_control", "net.ipv4.tcp_sack",
                                          "net.ipv4.tcp_timestamps", "net.ipv4.tcp_slow_start_after_idle"])
        assert got == {"net.ipv4.tcp_congestion_control": "reno", "net.ipv4.tcp_sack": "0",
                       "net.ipv4.tcp_timestamps": "0", "net.ipv4.tcp_slow_start_after_idle": "0"}
        route = subprocess.run(["ip", "-n", tb.server_ns, "route", "show", tb.client_ip],
                               capture_output=True, text=True).stdout
        for part in (f"initcwnd {tcp_settings.INITIAL_WINDOW['002']}", "advmss 536", "rto_min lock 200ms",
                     "quickack 1"):
            assert part in route
        link = subprocess.run(["ip", "-n", tb.client_ns, "link", "show", netns.DEVICE],
                              capture_output=True, text=True).stdout
        assert "mtu 576" in link
        sleeper = tb.popen("server", ["sleep", "60"])
        # the host namespace has no route into the testbed: its addresses exist only inside
        host = subprocess.run(["ip", "route", "get", tb.server_ip], capture_output=True, text=True).stdout
        assert netns.DEVICE not in host
    assert not names & _namespaces()
    # this process's namespaces only: other runs on the machine may make and delete theirs meanwhile
    mine = f"{netns.PREFIX}{os.getpid()}n"
    assert {n for n in _namespaces() if n.startswith(mine)} <= {n for n in before if n.startswith(mine)}
    assert not _alive(emu_pid) and not _alive(sleeper.pid)
    assert tb.link_stats is not None and set(tb.link_stats) == {"ab", "ba", "lateness", "first_in_ns", "last_out_ns"}
    assert tb.fidelity is not None and tb.fidelity.role("server") is not None  # the sleeper, as a server


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_a_transfer_leaves_a_fidelity_record():
    from tests.test_emulation_fidelity import transfer

    with Testbed(Link(rate_bps=10e6, delay_s=0.01), seed=6) as tb:
        assert transfer(tb, 400_000) == 400_000
        # a shell and its child (it prints the child's pid once that exists)
        sleeper = tb.popen("client", ["sh", "-c", "sleep 30 & echo $!; wait"], role="other", stdout=subprocess.PIPE,
                           text=True)
        assert sleeper.stdout.readline().strip().isdigit()
    rec, stats = tb.fidelity, tb.link_stats
    # one lateness per packet the emulator wrote, per direction and in all
    assert stats["ab"]["lateness"]["n"] == stats["ab"]["out"] and stats["ba"]["lateness"]["n"] == stats["ba"]["out"]
    assert rec.lateness_n == stats["ab"]["out"] + stats["ba"]["out"] > 400_000 / 1500
    assert rec.worst_lateness_n in (stats["ab"]["out"], stats["ba"]["out"])
    assert 0 <= rec.lateness_median_s <= rec.lateness_p99_s <= rec.lateness_max_s
    assert 0 <= rec.worst_lateness_median_s <= rec.worst_lateness_p99_s <= rec.worst_lateness_max_s
    assert {r.role for r in rec.cpu} == {"client", "server", "emulator", "other"}
    assert all(r.run_s > 0 and r.wait_s >= 0 for r in rec.cpu if r.role != "other")
    assert rec.role("other").tasks == 2  # sh and its sleep, found as a descendant
    assert rec.app_run_s == rec.role("client").run_s + rec.role("server").run_s
    assert rec.wall_s > 0 and (rec.cpu_pressure_fraction is None or rec.cpu_pressure_fraction >= 0)
    assert not _alive(sleeper.pid)
    # the applications' wait over the whole series is the total (the last read is the final one)
    assert rec.app_series[-1][2] == pytest.approx(rec.app_wait_s)
    assert rec.app_wait_between(rec.app_series[0][0], rec.app_series[-1][0]) == pytest.approx(rec.app_wait_s)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_counters_marked_midway_count_what_came_after_the_mark():
    from tests.test_emulation_fidelity import transfer

    with Testbed(Link(rate_bps=10e6, delay_s=0.01), seed=6) as tb:
        assert transfer(tb, 200_000) == 200_000
        tb.mark_counters()
        time.sleep(0.2)  # the emulator takes the mark when it next wakes (at once: the signal ends its wait)
        tb.mark_counters()  # a second mark changes nothing
        assert transfer(tb, 400_000) == 400_000
    stats = tb.link_stats
    assert stats["first_in_ns"] < stats["mark_ns"] < stats["last_out_ns"]
    for direction in ("ab", "ba"):
        whole, after = stats[direction], stats[direction]["since_mark"]
        assert 0 < after["in"] < whole["in"] and 0 < after["out"] < whole["out"]
        assert after["lost"] == after["queue_drops"] == 0
    # the server's bytes flow ba: the second transfer's 400,000 and their headers, not the first one's 200,000
    assert 400_000 < stats["ba"]["since_mark"]["bytes_out"] < 400_000 * 1.1 < 600_000 < stats["ba"]["bytes_out"]


def test_mark_counters_needs_a_running_testbed():
    with pytest.raises(TestbedError, match="not up"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1).mark_counters()


def test_several_addresses_per_side_are_checked():
    with pytest.raises(ParameterError, match="client_ips"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1, client_ips=())
    with pytest.raises(ParameterError, match="server_ips"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1, server_ips=("10.77.2.1", "not an address"))
    with pytest.raises(ParameterError, match="share"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1, client_ips=("10.77.1.1",), server_ips=("10.77.1.1",))
    with pytest.raises(ParameterError, match="emulator_flags"):
        Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1, emulator_flags="--ns3-backlog")


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_several_addresses_per_side_reach_each_other_with_their_pair_delays():
    import socket
    import time

    clients, servers = ("10.77.1.1", "10.77.1.2"), ("10.77.2.1", "10.77.2.2")
    # the second pair gets 0.1 s more one-way delay each way on top of the link's 0.005 s
    flags = ("--pair", "10.77.1.2,10.77.2.2,0.1,0.1")
    with Testbed(Link(rate_bps=10e6, delay_s=0.005), seed=2, tcp=TcpSettings(), client_ips=clients,
                 server_ips=servers, emulator_flags=flags) as tb:
        assert tb.provenance()["client_ips"] == list(clients) and tb.provenance()["emulator_flags"] == list(flags)
        listeners = []
        for ip in servers:
            srv = netns.socket_in(tb.server_ns, socket.AF_INET, socket.SOCK_STREAM)
            srv.bind((ip, 8080))
            srv.listen(4)
            listeners.append(srv)
        handshakes = []
        for client, server in zip(clients, servers, strict=True):
            sock = netns.socket_in(tb.client_ns, socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((client, 0))
            t0 = time.monotonic()
            sock.connect((server, 8080))  # returns after one round trip (SYN, SYN-ACK)
            handshakes.append(time.monotonic() - t0)
            sock.close()
        for srv in listeners:
            srv.close()
    # round trips: 2 x 0.005 = 0.01 s for the first pair, 2 x 0.105 = 0.21 s for the second
    assert 0.01 <= handshakes[0] < 0.2 <= handshakes[1]


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_teardown_on_exception():
    with pytest.raises(RuntimeError, match="boom"):
        with Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=4) as tb:
            names = {tb.client_ns, tb.server_ns}
            sleeper = tb.popen("client", ["sleep", "60"])
            raise RuntimeError("boom")
    assert not names & _namespaces()
    assert not _alive(sleeper.pid)


CHILD = """
import json, sys, time
from paperlib.emulation.netns import Link, Testbed
with Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=5) as tb:
    sleeper = tb.popen("server", ["sleep", "60"])
    print(json.dumps({"ns": [tb.client_ns, tb.server_ns], "pids": [sleeper.pid, tb._emu.pid]}), flush=True)
    time.sleep(60)
"""


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_teardown_on_sigterm_of_a_child_run():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    info = json.loads(child.stdout.readline())
    assert set(info["ns"]) <= _namespaces()
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=20)
    assert child.returncode != 0  # it was interrupted, not finished
    assert not set(info["ns"]) & _namespaces()
    time.sleep(0.2)
    for pid in info["pids"]:
        assert not os.path.exists(f"/proc/{pid}") or not _alive(pid)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_sigkill_of_the_owner_is_cleaned_up_by_the_watchdog():
    # SIGKILL runs no teardown (nor does a signal that kills a Dask worker whose task thread holds the
    # testbed): the testbed's watchdog, outside the owner's session, deletes both namespaces and kills
    # what ran in them. It polls every 0.5 s; allow 10 s.
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    info = json.loads(child.stdout.readline())
    assert set(info["ns"]) <= _namespaces()
    child.kill()
    child.wait(timeout=20)
    deadline = time.monotonic() + 10
    while set(info["ns"]) & _namespaces() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(info["ns"]) & _namespaces()
    time.sleep(0.2)
    for pid in info["pids"]:
        assert not os.path.exists(f"/proc/{pid}") or not _alive(pid)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_remove_stale_touches_only_dead_owners():
    # a namespace named like ours with an owner pid that cannot exist, and one owned by this live process
    dead = f"{netns.PREFIX}{2**22 + 12345}n0c"
    live = f"{netns.PREFIX}{os.getpid()}n99999c"
    for ns in (dead, live):
        subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        removed = netns.remove_stale()
        assert dead in removed and live not in removed
        assert live in _namespaces() and dead not in _namespaces()
    finally:
        for ns in (dead, live):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_unavailable_reason_is_a_sentence_or_none():
    assert REASON is None or len(REASON) > 10
    if os.geteuid() != 0:
        with pytest.raises(TestbedError, match="root"):
            Testbed(Link(rate_bps=1e6, delay_s=0.01), seed=1).__enter__()


def test_finish_returns_the_output_or_names_what_hung_or_failed():
    import subprocess

    def start(script):
        return subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    assert netns.finish(start("echo out; echo err >&2"), 10, "the echo") == ("out\n", "err\n")
    slow = start("sleep 5")
    with pytest.raises(RuntimeError, match=r"^the sleeper did not finish within 0 s$"):
        netns.finish(slow, 0.2, "the sleeper")
    assert slow.wait(timeout=5) == -9  # killed (SIGKILL), not left running
    with pytest.raises(RuntimeError, match=r"^the failure failed \(3\): boom$"):
        netns.finish(start("echo boom >&2; exit 3"), 10, "the failure")
