"""The stand-in web server and client over kernel TCP (paperlib.emulation.standin_app), run on the
loopback interface (no testbed needed; about 1 s)."""

import socket
import subprocess
import sys

import pytest

from paperlib.emulation import standin_app


def test_command_lines():
    assert standin_app.server_argv("tcp", "10.0.0.2", 8080)[1:] == ["-m", "paperlib.emulation.standin_app", "server",
                                                                    "--host", "10.0.0.2", "--port", "8080"]
    argv = standin_app.client_argv("tcp", "10.0.0.2", 8080, 13500, 5, 3, "pipelined")
    assert argv[argv.index("--size") + 1] == "13500" and argv[-2:] == ["--mode", "pipelined"]
    for make in (lambda: standin_app.server_argv("sctp", "h", 1),
                 lambda: standin_app.client_argv("sctp", "h", 1, 1, 1, 1, "x")):
        with pytest.raises(ValueError, match="protocol must be one of"):
            make()


def test_client_output_keeps_only_object_lines():
    text = 'listening\n{"user": 0, "object": 1}\nwarning: slow\n{"user": 1, "object": 0}\n'
    assert standin_app.parse_client_output(text) == [{"user": 0, "object": 1}, {"user": 1, "object": 0}]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(standin_app.server_argv("tcp", "127.0.0.1", port), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "listening"
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.mark.parametrize("mode", ["pipelined", "per_object"])
def test_every_user_gets_every_object(server, mode):
    # 3 users x 2 objects of 5000 B: six records, in (user, object) order, timed after the common start
    out = subprocess.run(standin_app.client_argv("tcp", "127.0.0.1", server, 5000, 2, 3, mode), capture_output=True,
                         text=True, timeout=60, check=True).stdout
    recs = standin_app.parse_client_output(out)
    assert [(r["user"], r["object"]) for r in recs] == [(u, k) for u in range(3) for k in range(2)]
    assert all(r["bytes"] == 5000 and r["t0"] <= r["t_start"] <= r["t_done"] for r in recs)
    assert len({r["t0"] for r in recs}) == 1
    # pipelined: one connection per user, objects on streams 0, 1; per object: a new connection each
    streams = [r["stream"] for r in recs]
    assert streams == ([0, 1] * 3 if mode == "pipelined" else [0] * 6)
    starts = {(r["user"], r["t_start"]) for r in recs}
    assert len(starts) == (3 if mode == "pipelined" else 6)


def test_the_module_runs_as_a_program():
    proc = subprocess.run([sys.executable, "-m", "paperlib.emulation.standin_app", "client", "--host", "127.0.0.1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--port" in proc.stderr  # argparse names the missing argument
