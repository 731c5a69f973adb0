r"""Stand-in web server and client over kernel TCP, used until the C application (webperf_app.c) is merged.

Same interface as :mod:`paperlib.emulation.apps` is expected to have: :func:`server_argv`,
:func:`client_argv`, :func:`parse_client_output`. Run as ``python -m paperlib.emulation.standin_app``.

Protocol: the client sends ``GET <bytes>\n`` per object; the server answers with that many bytes.
``--users m`` clients start together, each on its own connection; each fetches ``--objects k``
objects, on one persistent connection with all requests pipelined (``--mode pipelined``) or on a new
connection per object (``--mode per_object``). One JSON line per object, times from the client's
own ``CLOCK_MONOTONIC``: ``t_start`` (before ``connect`` of the connection that carries the object),
``t_done`` (last byte read), and ``t0`` (common start of all users).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time

PROTOCOLS = ("tcp",)


def server_argv(protocol: str, host: str, port: int) -> list[str]:
    """Return the command line of the server listening on ``host:port``."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS} for the stand-in application, got {protocol!r}")
    return [sys.executable, "-m", "paperlib.emulation.standin_app", "server", "--host", host, "--port", str(port)]


def client_argv(protocol: str, host: str, port: int, object_bytes: int, objects: int, users: int,
                mode: str) -> list[str]:
    """Return the command line of ``users`` clients each fetching ``objects`` objects of ``object_bytes``."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS} for the stand-in application, got {protocol!r}")
    return [sys.executable, "-m", "paperlib.emulation.standin_app", "client", "--host", host, "--port", str(port),
            "--size", str(object_bytes), "--objects", str(objects), "--users", str(users), "--mode", mode]


def parse_client_output(text: str) -> list[dict]:
    """Return one dict per object line of the client's output (other lines are ignored)."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def _serve_one(conn: socket.socket) -> None:
    with conn:
        buf = b""
        while True:
            data = conn.recv(4096)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                n = int(line.split()[1])
                conn.sendall(b"x" * n)


def serve(host: str, port: int) -> None:
    """Serve clients on ``host:port`` forever, one thread per connection."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((host, port))
    srv.listen(256)
    print("listening", flush=True)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=_serve_one, args=(conn,), daemon=True).start()


def _read_exact(sock: socket.socket, n: int) -> None:
    while n > 0:
        chunk = sock.recv(min(n, 1 << 16))
        if not chunk:
            raise ConnectionError("server closed early")
        n -= len(chunk)


def _user(u: int, args, t0: float, out: list, lock: threading.Lock) -> None:
    def connect():
        t = time.monotonic()
        s = socket.create_connection((args.host, args.port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s, t

    request = f"GET {args.size}\n".encode()
    if args.mode == "pipelined":
        sock, t_start = connect()
        with sock:
            sock.sendall(request * args.objects)
            for k in range(args.objects):
                _read_exact(sock, args.size)
                with lock:
                    out.append({"user": u, "object": k, "stream": k, "t0": t0, "t_start": t_start,
                                "t_done": time.monotonic(), "bytes": args.size})
    else:
        for k in range(args.objects):
            sock, t_start = connect()
            with sock:
                sock.sendall(request)
                _read_exact(sock, args.size)
            with lock:
                out.append({"user": u, "object": k, "stream": 0, "t0": t0, "t_start": t_start,
                            "t_done": time.monotonic(), "bytes": args.size})


def fetch(args) -> None:
    """Run ``args.users`` concurrent users and print one JSON record per object, sorted."""
    out: list[dict] = []
    lock = threading.Lock()
    t0 = time.monotonic()
    threads = [threading.Thread(target=_user, args=(u, args, t0, out, lock)) for u in range(args.users)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for rec in sorted(out, key=lambda r: (r["user"], r["object"])):
        print(json.dumps(rec))


def main(argv=None) -> int:
    """Run the ``server`` or ``client`` command; return the exit status."""
    p = argparse.ArgumentParser(prog="python -m paperlib.emulation.standin_app")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--host", required=True)
    s.add_argument("--port", type=int, required=True)
    c = sub.add_parser("client")
    c.add_argument("--host", required=True)
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--size", type=int, required=True)
    c.add_argument("--objects", type=int, default=1)
    c.add_argument("--users", type=int, default=1)
    c.add_argument("--mode", choices=("pipelined", "per_object"), default="per_object")
    args = p.parse_args(argv)
    if args.cmd == "server":
        serve(args.host, args.port)
    else:
        fetch(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
