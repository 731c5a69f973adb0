"""The request/response application of papers 000, 002 and 004 on real stacks.

One C program, ``c/webperf_app.c``, in two modes (server, client) and two
transports: ``tcp`` (kernel sockets, TCP_NODELAY) and ``sctp`` (usrsctp, the
FreeBSD SCTP stack in user space, over UDP encapsulation; Debian's
``libusrsctp-dev``). It imitates HTTP the way the papers' own test programs did
(paper 000 section 4: "two Linux C server programs ... imitate HTTP over SCTP and
HTTP over TCP", clients for "pipelining (TCP/SCTP) and multi-streaming (SCTP)";
paper 004 section 3: five objects, "on multiple streams using round robin" for
SCTP, "on a single stream" for TCP): a client asks for an object of N bytes and
the server replies with N bytes, over one persistent connection (TCP) or one
association (SCTP) per user; m users run concurrently, each with its own
connection, all started together.

This module builds the program (:func:`build_app`), writes its command lines
(:func:`server_argv`, :func:`client_argv`), states and pins the SCTP stack's
parameters (:class:`AppSettings`, :func:`paper_settings`) and reads its output
(:func:`parse_client_output`, :func:`parse_server_output`). The per-user
metrics of paper 000 are :func:`turnaround_times_s` and :func:`waiting_times_s`.
Everything about namespaces, links and kernel TCP settings lives elsewhere in
:mod:`paperlib.emulation` (the experiments pin TCP per namespace).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib.emulation import build, netns
from paperlib.provenance import REPO_ROOT
from paperlib.validate import ParameterError

#: The program's source; its hash names the build folder.
APP_SOURCE = Path(__file__).resolve().parent / "c" / "webperf_app.c"
#: Compiler flags (part of the build hash).
CFLAGS = ("-O2", "-std=gnu11", "-Wall", "-Wextra")
LIBS = ("-lusrsctp", "-lpthread")
#: Where built programs go: ``<cache>/<sha of source and flags>/webperf_app``.
BUILD_CACHE = REPO_ROOT / ".cache" / "emulation" / "bin"
#: Debian package with the usrsctp headers and library.
USRSCTP_PACKAGE = "libusrsctp-dev"

TRANSPORTS = ("tcp", "sctp")
#: Default UDP encapsulation ports of usrsctp (server, client); RFC 6951 registers 9899.
SERVER_UDP_PORT = 9899
CLIENT_UDP_PORT = 9900
#: Exit codes of the program.
EXIT_RUNTIME, EXIT_USAGE, EXIT_TIMEOUT = 1, 2, 3

#: Columns of :func:`parse_client_output`, in order (times in seconds, CLOCK_MONOTONIC).
OBJECT_COLUMNS = ("user", "object", "stream", "bytes", "t_request", "t_first_byte", "t_done")
USER_COLUMNS = ("user", "t_start", "t_connected", "t_done")


class AppBuildError(RuntimeError):
    """The application could not be compiled (missing compiler or usrsctp)."""


class AppOutputError(ValueError):
    """The application's output is malformed; the message names the line and field."""


# --- settings -----------------------------------------------------------------------


@dataclass(frozen=True)
class AppSettings:
    """Transport parameters given to both ends of a run, with the reason for each.

    ``None`` leaves the stack's default, which the program prints in its
    settings line (:func:`parse_client_output` keeps it in ``attrs``), so every
    run records what was in force, pinned or not.

    Parameters
    ----------
    transport : "tcp" or "sctp"
    mss_bytes : user data per packet (TCP_MAXSEG; for SCTP the fragmentation
        point, with the path MTU set to it plus 56 bytes of IPv4, UDP, SCTP
        common and DATA chunk headers and path-MTU discovery off)
    init_cwnd_mtus : usrsctp ``sctp_initial_cwnd``, initial congestion window in MTUs
    rto_initial_ms, rto_min_ms, rto_max_ms : usrsctp RTO defaults (ms)
    sack_delay_ms : usrsctp delayed-SACK timer (ms, 0 = no delay)
    sack_freq : usrsctp packets per SACK
    max_burst : usrsctp ``sctp_max_burst_default``, packets sent per send opportunity (RFC 4960
        section 6.1 (D): Max.Burst, default 4; 0 = no limit); an initial window above it goes out
        whole only with the limit raised to at least that window
    basis : a sentence per parameter: which seed fixes it, or why the default stands
    """

    transport: str
    mss_bytes: int | None = None
    init_cwnd_mtus: int | None = None
    rto_initial_ms: int | None = None
    rto_min_ms: int | None = None
    rto_max_ms: int | None = None
    sack_delay_ms: int | None = None
    sack_freq: int | None = None
    max_burst: int | None = None
    basis: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if self.transport not in TRANSPORTS:
            raise ParameterError(f"transport must be one of {TRANSPORTS}, got {self.transport!r}")
        limits = {
            "mss_bytes": (88, 65000),
            "init_cwnd_mtus": (1, 1000),
            "rto_initial_ms": (1, 600000),
            "rto_min_ms": (1, 600000),
            "rto_max_ms": (1, 600000),
            "sack_delay_ms": (0, 500),
            "sack_freq": (1, 1000),
            "max_burst": (0, 1000),
        }
        for name, (lo, hi) in limits.items():
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
                raise ParameterError(f"{name} must be a whole number in [{lo}, {hi}] or None, got {value!r}")
            if self.transport == "tcp" and name != "mss_bytes":
                raise ParameterError(
                    f"{name} pins usrsctp and needs transport='sctp'; kernel TCP is pinned per namespace"
                )
        if self.rto_min_ms is not None and self.rto_max_ms is not None and self.rto_min_ms > self.rto_max_ms:
            raise ParameterError(f"rto_min_ms ({self.rto_min_ms}) exceeds rto_max_ms ({self.rto_max_ms})")

    def argv(self) -> list[str]:
        """Return the program options for these settings (same for server and client)."""
        flags = {
            "mss_bytes": "--mss",
            "init_cwnd_mtus": "--init-cwnd",
            "rto_initial_ms": "--rto-initial-ms",
            "rto_min_ms": "--rto-min-ms",
            "rto_max_ms": "--rto-max-ms",
            "sack_delay_ms": "--sack-delay-ms",
            "sack_freq": "--sack-freq",
            "max_burst": "--max-burst",
        }
        out: list[str] = []
        for name, flag in flags.items():
            value = getattr(self, name)
            if value is not None:
                out += [flag, str(int(value))]
        return out

    def provenance(self) -> dict:
        """Return the settings and their reasons as a JSON-ready dict."""
        return asdict(self)


#: What the papers' models leave unpinned, stated once (a paper's ``stack.app_settings`` adds it to its basis):
#: usrsctp's defaults are RFC 4960's.
SCTP_UNPINNED = {
    "rto": "not fixed by the paper: usrsctp defaults = RFC 4960 section 15 "
    "(RTO.Initial 3 s, RTO.Min 1 s, RTO.Max 60 s)",
    "sack": "not fixed by the paper: usrsctp default = RFC 4960 section 6.2 "
    "(SACK at least every second packet, delay 200 ms)",
}


def paper_settings(paper: str, transport: str) -> AppSettings:
    """Return the transport settings paper ``paper``'s model assumes, pinned where the paper fixes them.

    They are the paper's own: its package's ``stack.app_settings(transport)`` (found by
    :func:`paperlib.registry.part`), which reads them from ``data/<id>/`` where the paper states them.

    Assumes: kernel TCP's initial window, congestion control and RTO are pinned per namespace by the
    experiment (:func:`paperlib.emulation.tcp_settings.for_paper`), not here; only TCP's segment size is an
    application option. Raises :class:`~paperlib.validate.ParameterError` for a paper without a ``stack``
    part, naming the papers that have one.
    """
    from paperlib import registry

    if transport not in TRANSPORTS:
        raise ParameterError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    stack = registry.part(str(paper), "stack")
    if stack is None:
        raise ParameterError(f"paper {paper!r} declares no stack settings (no {registry.package_name(str(paper))}"
                             f".stack); the papers that declare them are {list(registry.papers_with('stack'))}")
    return stack.app_settings(transport)


# --- build ----------------------------------------------------------------------------


def app_source_sha() -> str:
    """Return the hash naming a build: SHA-256 of the source, flags and libraries (16 hex digits)."""
    h = hashlib.sha256(APP_SOURCE.read_bytes())
    h.update(" ".join(CFLAGS + LIBS).encode())
    return h.hexdigest()[:16]


def build_app(cache_dir: Path | str | None = None) -> Path:
    """Compile ``webperf_app`` once per source version and return the path of the binary.

    The binary goes to ``<cache_dir>/<sha>/webperf_app`` (default
    ``.cache/emulation/bin``), compiled into a temporary file and renamed, so
    concurrent builds and interrupted builds never leave a half-written program.
    """
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise AppBuildError("no C compiler: install Debian's gcc (apt-get install gcc)")
    if not netns.usrsctp_header_present():
        raise AppBuildError(
            f"usrsctp.h not found: install the Debian package {USRSCTP_PACKAGE} "
            f"(apt-get install {USRSCTP_PACKAGE})"
        )
    folder = Path(cache_dir) if cache_dir is not None else BUILD_CACHE
    target = folder / app_source_sha() / "webperf_app"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    try:
        return build.compile_into(APP_SOURCE, target, CFLAGS, LIBS)
    except build.BuildError as err:
        hint = f" (is the Debian package {USRSCTP_PACKAGE} complete?)" if "usrsctp" in str(err) else ""
        raise AppBuildError(f"{err}{hint}") from None


# --- command lines ----------------------------------------------------------------------


def _check_transport(transport: str) -> str:
    if transport not in TRANSPORTS:
        raise ParameterError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    return transport


def _check_int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise ParameterError(f"{name} must be a whole number in [{lo}, {hi}], got {value!r}")
    return int(value)


def _check_timeout(timeout) -> float:
    try:
        t = float(timeout)
    except (TypeError, ValueError):
        raise ParameterError(f"timeout must be a number of seconds, got {timeout!r}") from None
    if not (0 < t <= 86400):
        raise ParameterError(f"timeout must be in (0, 86400] seconds, got {timeout!r}")
    return t


def _settings_for(transport: str, settings: AppSettings | None) -> AppSettings:
    if settings is None:
        return AppSettings(transport)
    if not isinstance(settings, AppSettings):
        raise ParameterError(f"settings must be an AppSettings, got {type(settings).__name__}")
    if settings.transport != transport:
        raise ParameterError(f"settings are for {settings.transport!r} but transport is {transport!r}")
    return settings


def server_argv(
    transport: str,
    port: int,
    *,
    app: Path | str | None = None,
    bind: str = "0.0.0.0",
    udp_port: int = SERVER_UDP_PORT,
    connections: int = 0,
    timeout: float = 60.0,
    settings: AppSettings | None = None,
) -> list[str]:
    """Return the command line of a server.

    Parameters
    ----------
    transport : "tcp" or "sctp"
    port : TCP or SCTP port to listen on
    app : the binary (default :func:`build_app`)
    bind : IPv4 address to listen on
    udp_port : local UDP encapsulation port (sctp only)
    connections : exit 0 after this many connections ended (0: run until SIGTERM/SIGINT, which
        exit 0, or the timeout)
    timeout : the server exits with code 3 after this many seconds
    settings : :class:`AppSettings` (the client must get the same)
    """
    transport = _check_transport(transport)
    port = _check_int("port", port, 1, 65535)
    udp_port = _check_int("udp_port", udp_port, 1, 65535)
    connections = _check_int("connections", connections, 0, 1_000_000)
    settings = _settings_for(transport, settings)
    argv = [str(app if app is not None else build_app()), "server", "--transport", transport,
            "--port", str(port), "--bind", str(bind), "--timeout", repr(_check_timeout(timeout))]
    if transport == "sctp":
        argv += ["--udp-port", str(udp_port)]
    if connections:
        argv += ["--connections", str(connections)]
    return argv + settings.argv()


def client_argv(
    transport: str,
    server_addr: str,
    port: int,
    objects_bytes,
    users: int = 1,
    streams: bool = False,
    seed: int = 0,
    timeout: float = 60.0,
    *,
    app: Path | str | None = None,
    pipeline: bool = True,
    udp_port: int = CLIENT_UDP_PORT,
    server_udp_port: int = SERVER_UDP_PORT,
    start_jitter_s: float = 0.0,
    settings: AppSettings | None = None,
) -> list[str]:
    """Return the command line of a client run: ``users`` users, each fetching ``objects_bytes``.

    Parameters
    ----------
    transport : "tcp" or "sctp"
    server_addr : the server's IPv4 address
    port : the server's TCP or SCTP port
    objects_bytes : object sizes in bytes, fetched in this order by every user
    users : m concurrent users, each with its own connection or association
    streams : SCTP only: object i on stream i (multi-streaming; implies pipelining);
        otherwise every object on stream 0
    seed : seeds the users' start jitter (recorded even when the jitter is 0)
    timeout : the client exits with code 3 after this many seconds
    pipeline : send every request at once (the papers' clients pipelined); False
        waits for each object before asking for the next
    udp_port, server_udp_port : UDP encapsulation ports (sctp only)
    start_jitter_s : each user starts after a uniform delay in [0, start_jitter_s]
    settings : :class:`AppSettings` (the server must get the same)
    """
    transport = _check_transport(transport)
    port = _check_int("port", port, 1, 65535)
    users = _check_int("users", users, 1, 1024)
    seed = _check_int("seed", seed, 0, 2**31 - 1)
    udp_port = _check_int("udp_port", udp_port, 1, 65535)
    server_udp_port = _check_int("server_udp_port", server_udp_port, 1, 65535)
    sizes = list(np.atleast_1d(np.asarray(objects_bytes, dtype=object)))
    if not 1 <= len(sizes) <= 1024:
        raise ParameterError(f"objects_bytes must list 1 to 1024 object sizes, got {len(sizes)}")
    for i, size in enumerate(sizes):
        _check_int(f"objects_bytes[{i}]", size, 1, 64 * 1024 * 1024)
    if streams and transport != "sctp":
        raise ParameterError("streams=True needs transport='sctp' (TCP has one byte stream)")
    jitter = float(start_jitter_s)
    if not 0 <= jitter <= 3600:
        raise ParameterError(f"start_jitter_s must be in [0, 3600] seconds, got {start_jitter_s!r}")
    settings = _settings_for(transport, settings)
    argv = [str(app if app is not None else build_app()), "client", "--transport", transport,
            "--server", str(server_addr), "--port", str(port),
            "--objects", ",".join(str(int(s)) for s in sizes), "--users", str(users),
            "--seed", str(seed), "--timeout", repr(_check_timeout(timeout))]
    if streams:
        argv.append("--streams")
    if pipeline or streams:
        argv.append("--pipeline")
    if jitter > 0:
        argv += ["--start-jitter", repr(jitter)]
    if transport == "sctp":
        argv += ["--udp-port", str(udp_port), "--server-udp-port", str(server_udp_port)]
    return argv + settings.argv()


# --- running -------------------------------------------------------------------------------


def start_server(argv: list[str], *, ready_timeout_s: float = 10.0) -> tuple[subprocess.Popen, dict]:
    """Start a server (``argv``, e.g. ``["ip", "netns", "exec", ns, *server_argv(...)]``) and wait until it listens.

    The program prints its settings line only after ``listen()``, so reading that line is the
    readiness signal (no sleeps). Returns the process (stdout still open: pass it to
    :func:`parse_server_output` with the settings line re-added, or use :func:`finish_server`) and
    the settings. Raises :class:`AppOutputError` with the server's stderr if it exits or stays silent.
    """
    import select

    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], ready_timeout_s)
    line = proc.stdout.readline() if ready else ""
    if not line:
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate(timeout=10)
        raise AppOutputError(f"server did not start within {ready_timeout_s} s: {err.strip() or 'no message'}")
    settings = next(rec for _, rec in _json_lines(line, "server output"))
    if settings.get("type") != "settings":
        proc.kill()
        proc.communicate(timeout=10)
        raise AppOutputError(f"server output line 1: field 'type' is {settings.get('type')!r}, expected settings")
    proc.first_line = line  # kept for finish_server
    return proc, settings


def finish_server(proc: subprocess.Popen, *, timeout_s: float = 30.0) -> tuple[dict, pd.DataFrame]:
    """Wait for a server started by :func:`start_server` (with ``connections``) and parse its output.

    Kills it if it has not exited after ``timeout_s`` (then raises). Returns
    :func:`parse_server_output`'s result; a non-zero exit raises with the server's stderr.
    """
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate(timeout=10)
        raise AppOutputError(f"server still running after {timeout_s} s (killed): {err.strip()}") from None
    if proc.returncode != 0:
        raise AppOutputError(f"server exited with code {proc.returncode}: {err.strip()}")
    return parse_server_output(getattr(proc, "first_line", "") + out)


# --- output ------------------------------------------------------------------------------


def _json_lines(text: str, source: str):
    if not isinstance(text, str):
        raise AppOutputError(f"{source}: expected the program's stdout as text, got {type(text).__name__}")
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AppOutputError(f"{source} line {lineno}: not JSON ({exc.msg}): {line[:80]!r}") from None
        if not isinstance(record, dict) or "type" not in record:
            raise AppOutputError(f"{source} line {lineno}: field 'type' missing")
        yield lineno, record


def _field(record: dict, name: str, kind, where: str):
    if name not in record:
        raise AppOutputError(f"{where}: field {name!r} missing")
    value = record[name]
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    else:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value)
    if not ok:
        wanted = "non-negative integer" if kind is int else "finite number"
        raise AppOutputError(f"{where}: field {name!r} must be a {wanted}, got {value!r}")
    return value


def parse_client_output(text: str, source: str = "client output") -> pd.DataFrame:
    """Return one row per object (columns :data:`OBJECT_COLUMNS`), validated.

    ``attrs["settings"]`` holds the settings line (stack values in force),
    ``attrs["users"]`` a frame with one row per user (:data:`USER_COLUMNS`).
    Raises :class:`AppOutputError` naming the line and field of the first fault:
    missing or ill-typed fields, times out of order (t_request <= t_first_byte
    <= t_done), an object or user missing or repeated, bytes differing from the
    requested sizes.
    """
    settings = None
    users: dict[int, dict] = {}
    objects: dict[tuple[int, int], dict] = {}
    for lineno, rec in _json_lines(text, source):
        where = f"{source} line {lineno}"
        kind = rec["type"]
        if kind == "settings":
            if settings is not None:
                raise AppOutputError(f"{where}: a second settings line")
            settings = rec
        elif kind == "user":
            row = {"user": _field(rec, "user", int, where)}
            for name in USER_COLUMNS[1:]:
                row[name] = float(_field(rec, name, float, where))
            if not row["t_start"] <= row["t_connected"] <= row["t_done"]:
                raise AppOutputError(f"{where}: field 't_connected' out of order (t_start <= t_connected <= t_done)")
            if row["user"] in users:
                raise AppOutputError(f"{where}: field 'user' repeats user {row['user']}")
            users[row["user"]] = row
        elif kind == "object":
            row = {name: _field(rec, name, int, where) for name in OBJECT_COLUMNS[:4]}
            for name in OBJECT_COLUMNS[4:]:
                row[name] = float(_field(rec, name, float, where))
            if not row["t_request"] <= row["t_first_byte"]:
                raise AppOutputError(f"{where}: field 't_first_byte' precedes 't_request'")
            if not row["t_first_byte"] <= row["t_done"]:
                raise AppOutputError(f"{where}: field 't_done' precedes 't_first_byte'")
            key = (row["user"], row["object"])
            if key in objects:
                raise AppOutputError(f"{where}: field 'object' repeats object {key[1]} of user {key[0]}")
            row["_line"] = lineno
            objects[key] = row
        else:
            raise AppOutputError(f"{where}: field 'type' is {kind!r}, expected settings, user or object")
    if settings is None:
        raise AppOutputError(f"{source}: no settings line (did the client fail? see its stderr)")
    n_users = settings.get("users")
    sizes = settings.get("objects")
    if not isinstance(n_users, int) or not isinstance(sizes, list) or not sizes:
        raise AppOutputError(f"{source}: settings line lacks 'users' or 'objects'")
    if sorted(users) != list(range(n_users)):
        raise AppOutputError(f"{source}: user lines {sorted(users)} do not match 'users' = {n_users}")
    for u in range(n_users):
        for i, size in enumerate(sizes):
            if (u, i) not in objects:
                raise AppOutputError(f"{source}: object {i} of user {u} missing")
            row = objects[(u, i)]
            if row["bytes"] != size:
                raise AppOutputError(
                    f"{source} line {row['_line']}: field 'bytes' is {row['bytes']}, requested {size}"
                )
            if row["t_done"] > users[u]["t_done"] or row["t_request"] < users[u]["t_connected"]:
                raise AppOutputError(
                    f"{source} line {row['_line']}: field 't_done' outside the user's connection"
                )
    if len(objects) != n_users * len(sizes):
        extra = sorted(set(objects) - {(u, i) for u in range(n_users) for i in range(len(sizes))})
        raise AppOutputError(f"{source} line {objects[extra[0]]['_line']}: field 'object' not requested")
    frame = pd.DataFrame(
        [{k: objects[key][k] for k in OBJECT_COLUMNS} for key in sorted(objects)], columns=list(OBJECT_COLUMNS)
    )
    frame.attrs["settings"] = settings
    frame.attrs["users"] = pd.DataFrame([users[u] for u in sorted(users)], columns=list(USER_COLUMNS))
    return frame


def parse_server_output(text: str, source: str = "server output") -> tuple[dict, pd.DataFrame]:
    """Return the server's settings line and one row per accepted connection (sender state at accept).

    With ``--connections`` the server's closing line is kept as ``settings["end"]``
    (connections served, ``udp_rcvbuf_errors``: host drops in its namespace).
    """
    settings = None
    conns = []
    for lineno, rec in _json_lines(text, source):
        where = f"{source} line {lineno}"
        if rec["type"] == "settings":
            if settings is not None:
                raise AppOutputError(f"{where}: a second settings line")
            settings = rec
        elif rec["type"] == "end":
            if settings is None:
                raise AppOutputError(f"{where}: 'end' before the settings line")
            settings = {**settings, "end": rec}
        elif rec["type"] == "conn":
            _field(rec, "conn", int, where)
            conns.append({k: v for k, v in rec.items() if k != "type"})
        else:
            raise AppOutputError(f"{where}: field 'type' is {rec['type']!r}, expected settings, conn or end")
    if settings is None:
        raise AppOutputError(f"{source}: no settings line (did the server start? see its stderr)")
    return settings, pd.DataFrame(conns)


# --- metrics of paper 000 -------------------------------------------------------------------


def object_latency_s(objects: pd.DataFrame) -> pd.Series:
    """Return each object's transfer latency: last byte received minus request sent (s).

    Paper: 004 section 3 and paper 002 section III measure transfer time per
    object from the captures; this is the application-level equivalent.
    """
    return (objects["t_done"] - objects["t_request"]).rename("latency_s")


def turnaround_times_s(objects: pd.DataFrame) -> pd.Series:
    """Return each user's turnaround time: his last object's arrival minus his start (s).

    Paper: 000 section 3: all m users ask at the same time; the turnaround
    time of a user is his finish time (Fig. 2: "the finish time of a_3"). The
    start is the user's own ``t_start``, taken before connecting, so the
    association/connection set-up is inside the turnaround as it is inside
    E(T_sctp) (paper 000 section 3: "total time for a user to connect to a web
    server and download an object").
    """
    users = objects.attrs.get("users")
    if users is None:
        raise ParameterError("objects must come from parse_client_output (attrs['users'] missing)")
    finish = objects.groupby("user")["t_done"].max()
    start = users.set_index("user")["t_start"]
    return (finish - start.reindex(finish.index)).rename("turnaround_s")


def waiting_times_s(turnaround_s, solo_response_s) -> np.ndarray:
    """Return waiting times: turnaround minus the user's own service time (s).

    Paper: 000 section 3 and Eqs. (4), (6): a user's waiting time is the
    time spent on the other users' packets, so turnaround - waiting = n tau =
    E(T_sctp), his single-user response time (T - W = n tau per user).

    Assumes: the own service time is the mean response time of the same
    objects fetched by one user alone over the same link (a run with m = 1).

    Parameters
    ----------
    turnaround_s : per-user turnaround times (s)
    solo_response_s : single-user response time of the same objects (s)
    """
    t = np.asarray(turnaround_s, dtype=float)
    solo = float(solo_response_s)
    if not np.isfinite(solo) or solo <= 0:
        raise ParameterError(f"solo_response_s must be positive and finite, got {solo_response_s!r}")
    return t - solo
