"""The TCP/SCTP request-response application: build, arguments, output parsing, a loopback run.

The loopback run creates its own network namespace (``webperf-test-<pid>``) and
deletes it, also on failure; it is skipped with the reason when the machine
lacks root, namespaces or libusrsctp. About 5 s in all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from paperlib.emulation import apps, netns
from paperlib.validate import ParameterError


def _skip_reason() -> str | None:
    if not netns.usrsctp_header_present():
        return f"usrsctp headers missing (Debian package {apps.USRSCTP_PACKAGE})"
    if shutil.which("gcc") is None:
        return "no gcc"
    return None


needs_build = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


def _netns_reason() -> str | None:
    if _skip_reason():
        return _skip_reason()
    if os.geteuid() != 0:
        return "not root: network namespaces need CAP_NET_ADMIN"
    if shutil.which("ip") is None:
        return "no ip(8) (Debian package iproute2)"
    if not Path("/proc/self/ns/net").exists():
        return "kernel without network namespaces"
    return None


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Path:
    if _skip_reason():
        pytest.skip(_skip_reason())
    return apps.build_app(tmp_path_factory.mktemp("bin"))


# --- build ---------------------------------------------------------------------------------


@needs_build
def test_build_is_cached_by_source_hash(app, tmp_path):
    assert app.name == "webperf_app" and app.parent.name == apps.app_source_sha()
    assert os.access(app, os.X_OK)
    # A second build in the same folder returns the same file without recompiling.
    mtime = app.stat().st_mtime_ns
    assert apps.build_app(app.parent.parent) == app
    assert app.stat().st_mtime_ns == mtime
    # No temporary files left beside it.
    assert [p.name for p in app.parent.iterdir()] == ["webperf_app"]


def test_build_names_the_debian_package_when_headers_are_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(netns, "usrsctp_header_present", lambda: False)
    with pytest.raises(apps.AppBuildError, match="libusrsctp-dev"):
        apps.build_app(tmp_path)


# --- bad arguments: the program itself ----------------------------------------------------------


@needs_build
@pytest.mark.parametrize(
    "args, message",
    [
        ([], "missing mode"),
        (["proxy"], "mode must be"),
        (["server", "--port", "5000"], "--transport is required"),
        (["server", "--transport", "udp", "--port", "5000"], "--transport must be"),
        (["server", "--transport", "tcp", "--port", "70000"], "--port must be in"),
        (["server", "--transport", "tcp", "--port", "x"], "--port must be an integer"),
        (["client", "--transport", "tcp", "--port", "5000", "--objects", "10"], "--server ADDR is required"),
        (["client", "--transport", "tcp", "--server", "10.0.0.1", "--port", "5000"], "--objects"),
        (["client", "--transport", "tcp", "--server", "10.0.0.1", "--port", "5000", "--objects", "10,0"],
         "--objects item 2"),
        (["client", "--transport", "tcp", "--server", "10.0.0.1", "--port", "5000", "--objects", "10",
          "--streams"], "--streams needs --transport sctp"),
        (["client", "--transport", "sctp", "--server", "host", "--port", "5000", "--objects", "10"],
         "--server must be an IPv4 address"),
        (["server", "--transport", "tcp", "--port", "5000", "--init-cwnd", "2"], "need --transport sctp"),
        (["server", "--transport", "sctp", "--port", "5000", "--sack-delay-ms", "600"], "--sack-delay-ms"),
        (["server", "--transport", "sctp", "--port", "5000", "--rto-min-ms", "900", "--rto-max-ms", "800"],
         "exceeds"),
        (["server", "--transport", "tcp", "--port", "5000", "--bogus"], "--bogus"),
    ],
)
def test_program_rejects_bad_arguments(app, args, message):
    proc = subprocess.run([str(app), *args], capture_output=True, text=True, timeout=10)
    assert proc.returncode == apps.EXIT_USAGE, proc.stderr
    assert message in proc.stderr


@needs_build
def test_start_server_reports_a_server_that_cannot_start(app):
    with pytest.raises(apps.AppOutputError, match="did not start.*--port"):
        apps.start_server([str(app), "server", "--transport", "tcp", "--port", "0"])


@needs_build
def test_program_timeout_exits_3_with_a_message(app):
    # A client towards a port nobody listens on in a namespace-free setting would fail fast;
    # a server with nothing to do is the simplest process that must be stopped by --timeout.
    t0 = time.monotonic()
    proc = subprocess.run([str(app), "server", "--transport", "tcp", "--port", "1", "--bind", "127.0.0.1",
                           "--timeout", "0.3"], capture_output=True, text=True, timeout=10)
    if proc.returncode == apps.EXIT_RUNTIME:  # port 1 not bindable here: the error must say so
        assert "bind" in proc.stderr
        return
    assert proc.returncode == apps.EXIT_TIMEOUT
    assert "--timeout" in proc.stderr
    assert time.monotonic() - t0 < 5


# --- bad arguments: the Python side ---------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(transport="quic"), "transport"),
        (dict(port=0), "port"),
        (dict(objects_bytes=[]), "objects_bytes"),
        (dict(objects_bytes=[100, -1]), r"objects_bytes\[1\]"),
        (dict(objects_bytes=[1.5]), r"objects_bytes\[0\]"),
        (dict(users=0), "users"),
        (dict(streams=True), "streams"),
        (dict(timeout=0), "timeout"),
        (dict(seed=-1), "seed"),
    ],
)
def test_client_argv_rejects_bad_parameters(kwargs, message):
    args = dict(transport="tcp", server_addr="10.0.0.1", port=5000, objects_bytes=[13824], users=1,
                streams=False, seed=0, timeout=10.0, app="/bin/true")
    args.update(kwargs)
    with pytest.raises(ParameterError, match=message):
        apps.client_argv(**args)


def test_settings_reject_sctp_pins_on_tcp_and_bad_values():
    with pytest.raises(ParameterError, match="init_cwnd_mtus"):
        apps.AppSettings("tcp", init_cwnd_mtus=2)
    with pytest.raises(ParameterError, match="sack_delay_ms"):
        apps.AppSettings("sctp", sack_delay_ms=501)
    with pytest.raises(ParameterError, match="rto_min_ms"):
        apps.AppSettings("sctp", rto_min_ms=2000, rto_max_ms=1000)
    with pytest.raises(ParameterError, match="settings are for 'sctp'"):
        apps.server_argv("tcp", 5000, app="/bin/true", settings=apps.AppSettings("sctp"))


def test_paper_settings_pin_what_the_seeds_fix():
    s = apps.paper_settings("000", "sctp")
    # Paper 000, Fig. 1: cwnd starts at 2 x mtu; section 4: mtu = 536 B.
    assert (s.init_cwnd_mtus, s.mss_bytes) == (2, 536)
    assert s.argv() == ["--mss", "536", "--init-cwnd", "2"]
    assert "rto" in s.basis and "sack" in s.basis  # unpinned, and said so
    assert apps.paper_settings("004", "sctp").init_cwnd_mtus == 2  # paper 004 Fig. 1, x = 2
    assert apps.paper_settings("002", "tcp").argv() == ["--mss", "536"]
    with pytest.raises(ParameterError, match="paper"):
        apps.paper_settings("003", "tcp")


# --- output parsing --------------------------------------------------------------------------

SETTINGS = {"type": "settings", "mode": "client", "transport": "tcp", "users": 2, "objects": [100, 200]}


def _output(objects=None, users=None, settings=SETTINGS) -> str:
    users = users if users is not None else [
        {"type": "user", "user": u, "t_start": 1.0, "t_connected": 1.1, "t_done": 3.0} for u in range(2)
    ]
    objects = objects if objects is not None else [
        {"type": "object", "user": u, "object": i, "stream": 0, "bytes": b, "t_request": 1.2 + i,
         "t_first_byte": 1.5 + i, "t_done": 1.6 + i}
        for u in range(2) for i, b in enumerate([100, 200])
    ]
    lines = ([json.dumps(settings)] if settings else []) + [json.dumps(r) for r in users + objects]
    return "\n".join(lines) + "\n"


def test_parse_client_output_reads_a_valid_run():
    df = apps.parse_client_output(_output())
    assert list(df.columns) == list(apps.OBJECT_COLUMNS)
    assert len(df) == 4 and df["bytes"].tolist() == [100, 200, 100, 200]
    assert df.attrs["settings"]["transport"] == "tcp"
    # Turnaround = last t_done (2.6) - t_start (1.0) = 1.6 s per user.
    assert apps.turnaround_times_s(df).round(9).tolist() == [1.6, 1.6]
    # Waiting = turnaround - solo response: 1.6 - 1.0 = 0.6 s.
    assert apps.waiting_times_s(apps.turnaround_times_s(df), 1.0).round(9).tolist() == [0.6, 0.6]
    # Latency of object 1: 2.6 - 2.2 = 0.4 s.
    assert apps.object_latency_s(df).round(9).tolist()[1] == 0.4


def _objects_with(index, **change):
    rows = [
        {"type": "object", "user": u, "object": i, "stream": 0, "bytes": b, "t_request": 1.2 + i,
         "t_first_byte": 1.5 + i, "t_done": 1.6 + i}
        for u in range(2) for i, b in enumerate([100, 200])
    ]
    rows[index].update(change)
    for k, v in list(change.items()):
        if v is None:
            del rows[index][k]
    return rows


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json\n", "line 1: not JSON"),
        (_output(settings=None), "no settings line"),
        # Line 1 settings, lines 2-3 users, lines 4-7 objects: object index 2 is line 6.
        (_output(objects=_objects_with(2, t_done=None)), "line 6: field 't_done' missing"),
        (_output(objects=_objects_with(2, bytes="100")), "line 6: field 'bytes'"),
        (_output(objects=_objects_with(2, bytes=99)), "line 6: field 'bytes' is 99, requested 100"),
        (_output(objects=_objects_with(1, t_first_byte=0.5)), "line 5: field 't_first_byte' precedes"),
        (_output(objects=_objects_with(1, t_done=2.0)), "line 5: field 't_done' precedes"),
        (_output(objects=_objects_with(3, object=0)), "line 7: field 'object' repeats"),
        (_output(objects=_objects_with(0, t_done=float("nan"))), "line 4: field 't_done'"),
        (_output(objects=_objects_with(3, t_done=5.0, t_first_byte=4.0)), "line 7: field 't_done' outside"),
        (_output(users=[{"type": "user", "user": 0, "t_start": 1.0, "t_connected": 1.1, "t_done": 3.0}]),
         "do not match 'users' = 2"),
        ('{"type": "bogus"}\n', "line 1: field 'type' is 'bogus'"),
    ],
)
def test_parse_client_output_names_line_and_field(text, message):
    with pytest.raises(apps.AppOutputError, match=message.replace("(", r"\(")):
        apps.parse_client_output(text)


# --- a real run on loopback inside one namespace --------------------------------------------------


@contextmanager
def _namespace():
    name = f"webperf-test-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", name], check=True, capture_output=True, timeout=10)
    try:
        subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True,
                       capture_output=True, timeout=10)
        yield name
    finally:
        subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=10)


@pytest.mark.skipif(_netns_reason() is not None, reason=_netns_reason() or "")
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("transport, streams", [("tcp", False), ("sctp", False), ("sctp", True)])
def test_loopback_run_in_a_namespace(app, transport, streams):
    settings = apps.paper_settings("000", transport)
    sizes = [200000, 5000, 13824]  # a large first object: bursts that overflowed a 128 KiB UDP buffer
    users = 3
    with _namespace() as ns:
        server, _ = apps.start_server(["ip", "netns", "exec", ns, *apps.server_argv(
            transport, 5001, app=app, connections=users, timeout=15, settings=settings)])
        try:
            client = subprocess.run(
                ["ip", "netns", "exec", ns, *apps.client_argv(transport, "127.0.0.1", 5001, sizes, users=users,
                                                              streams=streams, seed=7, timeout=10, app=app,
                                                              settings=settings)],
                capture_output=True, text=True, timeout=20)
            server_settings, conns = apps.finish_server(server, timeout_s=15)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    assert client.returncode == 0, client.stderr
    df = apps.parse_client_output(client.stdout)
    assert len(df) == users * len(sizes)
    assert df.groupby("user")["bytes"].sum().tolist() == [sum(sizes)] * users
    # One object per stream with streams=True, else all on stream 0.
    assert df["stream"].tolist() == ([0, 1, 2] if streams else [0, 0, 0]) * users
    s = df.attrs["settings"]
    assert s["transport"] == transport and s["nagle"] == "off" and s["seed"] == 7
    assert len(conns) == users and server_settings["end"]["connections"] == users
    # No datagram dropped by the hosts (usrsctp's UDP socket buffers are enlarged).
    assert s["udp_rcvbuf_errors"] == 0 and server_settings["end"]["udp_rcvbuf_errors"] == 0
    if transport == "sctp":
        # The pins are in force on both ends: cwnd 2 MTUs, 536 data bytes per packet.
        assert s["sctp"]["initial_cwnd_mtus"] == 2 and server_settings["sctp"]["initial_cwnd_mtus"] == 2
        assert (conns["fragmentation_point"] == 536).all()
        # cwnd at accept holds 2 but not 3 packets of 536 data bytes.
        assert ((conns["cwnd_bytes"] >= 2 * 536) & (conns["cwnd_bytes"] < 3 * 536)).all()
    else:
        assert (conns["snd_mss"] <= 536).all()
    assert (apps.turnaround_times_s(df) > 0).all()
