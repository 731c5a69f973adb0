"""One page load with a C implementation of HTTP/2 or HTTP/3 inside a :class:`~paperlib.emulation.netns.Testbed`.

Beside paper 005's Python stacks (:mod:`paperlib.emulation.page_app`: ``h2`` + ``ssl``, ``aioquic``), the same page
over the same link with the C programs Debian ships (``docs/c-stacks.md``):

* ``nghttp2``: the server ``nghttpd`` (package nghttp2-server) and the client ``nghttp`` (nghttp2-client), HTTP/2
  over TLS 1.3 (OpenSSL) over the namespace's Linux TCP, whose congestion control and initial window the
  Testbed's :class:`~paperlib.emulation.tcp_settings.TcpSettings` pin (sysctl, route ``initcwnd``);
* ``ngtcp2``: the example server ``gtlsserver`` (ngtcp2-server) and client ``gtlsclient`` (ngtcp2-client), HTTP/3
  over QUIC (ngtcp2 + nghttp3, TLS 1.3 from GnuTLS), NewReno (``--cc=reno``).

What runs. The page is one file per object in a temporary document root (``obj0`` ... ``obj<N-1>``, zero bytes
of the object's size: names with a letter, because ngtcp2's server answers a path of digits alone with
generated content of that length). The server binds to the testbed's server address only; the client opens one
connection and asks for every object at once (one URI each, in object order), then exits.

Settings, each stated where the programs allow it (``--help`` of each, their sources at the Debian versions):

* TLS 1.3 only. ``nghttpd`` accepts only the group P-256 (``SSL_CTX_set1_curves_list(ctx, "P-256")`` in its
  source), while OpenSSL's client offers an X25519 key share first: left alone, every handshake takes a
  HelloRetryRequest and a second round trip. Both nghttp2 programs therefore run with an OpenSSL configuration
  (``OPENSSL_CONF``, :func:`openssl_conf`) that sets ``Groups = P-256`` and ``Protocol = -ALL, TLSv1.3``.
  ngtcp2's GnuTLS programs negotiate TLS 1.3 only by their default priority string (X25519 on both ends).
  Neither client authenticates the test certificate (``nghttp`` checks it and only warns, silenced by ``-y``;
  the ngtcp2 example client does not check it); the handshake's signature work is done all the same.
* Priorities: RFC 9218's defaults (urgency 3, not incremental) on both, so each server sends whole responses one
  after another, in the order the requests reach it: ``--no-rfc7540-pri`` on both nghttp2 programs and
  ``--no-dep`` on the client (no RFC 7540 dependency tree, whose equal weights would interleave the responses);
  nghttp3 uses RFC 9218 itself.
* Flow control never binds: the nghttp client's stream and connection windows are 2^30 - 1 bytes (``-w 30
  -W 30``, the largest it takes); the ngtcp2 client's ``--max-data`` and ``--max-stream-data-bidi-local`` are
  1 GiB; concurrent streams at least the page's object count on both (``-m``/``-M``, ``--max-streams-bidi``).
* Packets fill the 1500-byte link: TCP's MSS comes from the Testbed; ngtcp2 sends 1472-byte UDP payloads
  (``--max-udp-payload-size=1472``, which also turns off its payload shaping) and no path-MTU probes
  (``--no-pmtud``).
* Initial window: TCP's is the route's ``initcwnd`` (``iw_segments`` must equal the Testbed's). ngtcp2 0.12
  sets its window from the payload size, ``min(10 x 1472, max(2 x 1472, 14720))`` = 14720 bytes = 10
  datagrams (RFC 9002 section 7.2); the example programs have no option for it, so only ``iw_segments`` 10
  runs (:data:`NGTCP2_INITIAL_WINDOW`).
* Left at the programs' defaults: nghttpd's TLS session tickets (OpenSSL sends two after the handshake,
  79 bytes each), its 16 KB TLS records; ngtcp2's initial RTT (333 ms), its acknowledgement of every second
  packet (``--ack-thresh`` 2) and its pacing.

What the clients measure (:func:`parse_har`, :func:`parse_client_log`; seconds on each client's own steady
clock):

* nghttp writes a HAR file (``-r``): the connection start (after the address lookup), the end of the TCP and
  TLS handshakes (nghttp's ``connect`` ends when TLS is done) and per request the time its HEADERS frame is
  sent, the response's first HEADERS and its last byte, in microseconds -- except where each request after the
  first was sent relative to the connection's start, which the HAR gives only as a wall-clock time in whole
  milliseconds; those requests' times carry up to 1 ms of that rounding. Bytes are the HAR's body sizes.
* gtlsclient prints ngtcp2's debug log (written to a file): one line per frame sent or received, stamped with
  whole milliseconds since the connection was made. Per object: the frame that sent its request, the frame that
  brought its stream's byte 0 (the response's HEADERS frame) and the frame after which its stream's bytes were
  all in (up to the final size its FIN frame gives); the handshake's end is the client's Handshake CRYPTO frame
  (its Finished). Bytes are the sizes of the files the client saved (``--download``). Its qlog cannot serve:
  ngtcp2 0.12 keeps a packet's qlog record in a 4096-byte buffer and drops the record of a packet with more
  frames than fit, as the first packet of 71 requests has. The log costs the client some eight lines of output
  per packet (about 22 000 for paper 005's page).

Every process is started with :meth:`Testbed.popen` and ended by the run (or by the testbed's teardown); a run
is bounded by ``bound_s``; a failure raises :class:`CStackError` naming the program and the tail of its stderr.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from paperlib.emulation import netns, page_app
from paperlib.validate import ParameterError

#: The implementations, each with its programs and the Debian package of each.
PROGRAMS = {"nghttp2": {"nghttpd": "nghttp2-server", "nghttp": "nghttp2-client"},
            "ngtcp2": {"gtlsserver": "ngtcp2-server", "gtlsclient": "ngtcp2-client"}}
#: The protocol each implementation carries (paper 005's family names).
PROTOCOL = {"nghttp2": "h2", "ngtcp2": "h3"}
#: Where a program is looked for when PATH does not reach it (nghttpd and gtlsserver are in /usr/sbin).
SEARCH_DIRS = ("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")
#: Server port (TCP for nghttpd, UDP for gtlsserver).
PORT = 8443
#: The nghttp client's window exponent: stream and connection windows of 2^30 - 1 bytes (its largest).
NGHTTP_WINDOW_BITS = 30
#: The ngtcp2 client's connection and stream flow-control windows (bytes): 1 GiB.
NGTCP2_WINDOW_BYTES = 2**30
#: QUIC's UDP payload: the 1500-byte MTU less 20 B IPv4 and 8 B UDP, as page_app's.
QUIC_DATAGRAM_BYTES = page_app.QUIC_DATAGRAM_BYTES
#: ngtcp2's initial window in datagrams: min(10 x 1472, max(2 x 1472, 14720)) / 1472 (ngtcp2_cc_compute_initcwnd).
NGTCP2_INITIAL_WINDOW = min(10 * QUIC_DATAGRAM_BYTES, max(2 * QUIC_DATAGRAM_BYTES, 14720)) // QUIC_DATAGRAM_BYTES
#: The OpenSSL configuration of the nghttp2 programs (:func:`openssl_conf`).
OPENSSL_CONF_TEXT = """openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_sect
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
Groups = P-256
Protocol = -ALL, TLSv1.3
"""
#: Lines of a program's stderr quoted in an error.
STDERR_TAIL_CHARS = 800
#: Seconds a server has to start listening.
SERVER_START_S = 10.0


class CStackError(RuntimeError):
    """A C program failed, ran past its bound or printed what could not be read; the message names it."""


# --- programs -------------------------------------------------------------------------------------------


def program_path(name: str) -> str | None:
    """Return the path of program ``name`` (PATH, then :data:`SEARCH_DIRS`), or None."""
    found = shutil.which(name)
    if found:
        return found
    for folder in SEARCH_DIRS:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def check_implementation(implementation: str) -> str:
    """Return ``implementation`` if it is a key of :data:`PROGRAMS`, else raise a ParameterError naming them."""
    if implementation not in PROGRAMS:
        raise ParameterError(f"implementation must be one of {sorted(PROGRAMS)}, got {implementation!r}")
    return implementation


def missing_reason(implementation: str) -> str | None:
    """Return why ``implementation`` cannot run here (its programs' Debian packages not installed), or None."""
    programs = PROGRAMS[check_implementation(implementation)]
    missing = [pkg for prog, pkg in programs.items() if program_path(prog) is None]
    if not missing:
        return None
    return (f"the Debian package{'s' if len(missing) > 1 else ''} {', '.join(missing)} of {implementation} "
            f"{'are' if len(missing) > 1 else 'is'} not installed (apt-get install {' '.join(missing)})")


def package_versions(implementation: str) -> dict:
    """Return Debian package -> installed version of ``implementation``'s programs (None where dpkg cannot say)."""
    out = {}
    for pkg in PROGRAMS[check_implementation(implementation)].values():
        try:
            proc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True,
                                  timeout=20)
            out[pkg] = proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None
        except (OSError, subprocess.TimeoutExpired):
            out[pkg] = None
    return out


# --- inputs ---------------------------------------------------------------------------------------------


def check_objects(objects_bytes) -> list[int]:
    """Return ``objects_bytes`` as a list of ints: 1 to page_app.MAX_OBJECTS sizes of at least 1 byte summing to
    at most page_app.MAX_PAGE_BYTES; else raise a ParameterError naming it."""
    ok = isinstance(objects_bytes, (list, tuple)) and 1 <= len(objects_bytes) <= page_app.MAX_OBJECTS
    ok = ok and all(not isinstance(s, bool) and isinstance(s, int) and s >= 1 for s in objects_bytes)
    if not ok or sum(objects_bytes) > page_app.MAX_PAGE_BYTES:
        raise ParameterError(f"objects_bytes must list 1 to {page_app.MAX_OBJECTS} whole sizes of at least 1 byte "
                             f"summing to at most {page_app.MAX_PAGE_BYTES}, got {objects_bytes!r:.80}")
    return [int(s) for s in objects_bytes]


def _check_bound(bound_s) -> float:
    if isinstance(bound_s, bool) or not isinstance(bound_s, (int, float)) or not 0 < bound_s <= 3600:
        raise ParameterError(f"bound_s must be a number of seconds in (0, 3600], got {bound_s!r}")
    return float(bound_s)


def _check_iw(iw_segments) -> int:
    if isinstance(iw_segments, bool) or not isinstance(iw_segments, int) or not 1 <= iw_segments <= 100:
        raise ParameterError(f"iw_segments must be a whole number in [1, 100], got {iw_segments!r}")
    return iw_segments


def object_name(index: int) -> str:
    """Return the file name (and URL path without its slash) of object ``index``: ``obj<index>``."""
    return f"obj{index}"


def write_page(folder: Path, objects_bytes: list[int]) -> Path:
    """Write one file of zero bytes per object (:func:`object_name`) into ``folder``/htdocs; return that folder."""
    docs = Path(folder) / "htdocs"
    docs.mkdir(parents=True, exist_ok=True)
    for i, size in enumerate(check_objects(objects_bytes)):
        (docs / object_name(i)).write_bytes(bytes(size))
    return docs


def openssl_conf(folder: Path) -> Path:
    """Write :data:`OPENSSL_CONF_TEXT` to ``folder``/openssl.cnf; return its path."""
    path = Path(folder) / "openssl.cnf"
    path.write_text(OPENSSL_CONF_TEXT)
    return path


def uris(n_objects: int, address: str = netns.SERVER_IP, port: int = PORT) -> list[str]:
    """Return the https URIs of objects 0 ... n_objects - 1 at ``address``:``port``."""
    return [f"https://{address}:{port}/{object_name(i)}" for i in range(n_objects)]


# --- command lines --------------------------------------------------------------------------------------


def nghttpd_argv(binary: str, htdocs: Path, cert: Path, key: Path, n_objects: int,
                 address: str = netns.SERVER_IP, port: int = PORT) -> list[str]:
    """Return nghttpd's command line: bound to ``address``, document root ``htdocs``, RFC 9218 priorities, at
    least ``n_objects`` concurrent streams (and nghttpd's default 100)."""
    return [binary, f"--address={address}", f"--htdocs={htdocs}", "--no-rfc7540-pri",
            f"--max-concurrent-streams={max(100, n_objects)}", str(port), str(key), str(cert)]


def nghttp_argv(binary: str, har: Path, n_objects: int, timeout_s: float,
                address: str = netns.SERVER_IP, port: int = PORT) -> list[str]:
    """Return nghttp's command line: every object's URI on one connection, bodies discarded (``-n``), a HAR file,
    RFC 9218 priorities without a dependency tree, windows of 2^30 - 1 bytes, no certificate warning (``-y``)."""
    return [binary, "--null-out", f"--har={har}", "--no-rfc7540-pri", "--no-dep", "--no-verify-peer",
            f"--window-bits={NGHTTP_WINDOW_BITS}", f"--connection-window-bits={NGHTTP_WINDOW_BITS}",
            f"--peer-max-concurrent-streams={max(100, n_objects)}", f"--timeout={max(1, math.ceil(timeout_s))}",
            *uris(n_objects, address, port)]


def gtlsserver_argv(binary: str, htdocs: Path, cert: Path, key: Path, n_objects: int, idle_timeout_s: float,
                    address: str = netns.SERVER_IP, port: int = PORT) -> list[str]:
    """Return ngtcp2's example server's command line: quiet, NewReno, 1472-byte datagrams without path-MTU
    probes, document root ``htdocs``, at least ``n_objects`` concurrent request streams, bound to ``address``."""
    return [binary, "--quiet", "--cc=reno", f"--max-udp-payload-size={QUIC_DATAGRAM_BYTES}", "--no-pmtud",
            f"--htdocs={htdocs}", f"--max-streams-bidi={max(100, n_objects)}",
            f"--timeout={max(1, math.ceil(idle_timeout_s))}s", address, str(port), str(key), str(cert)]


def gtlsclient_argv(binary: str, download: Path, n_objects: int, idle_timeout_s: float,
                    address: str = netns.SERVER_IP, port: int = PORT) -> list[str]:
    """Return ngtcp2's example client's command line: its debug log on (no ``--quiet``: the frame lines are its
    timing, :func:`parse_client_log`) without the hex dumps of stream data, NewReno, 1472-byte datagrams without
    path-MTU probes, the bodies saved into ``download``, 1 GiB windows, every object's URI, exit once every
    request stream closed."""
    return [binary, "--no-quic-dump", "--no-http-dump", "--cc=reno", f"--max-udp-payload-size={QUIC_DATAGRAM_BYTES}",
            "--no-pmtud", f"--download={download}", "--exit-on-all-streams-close",
            f"--max-data={NGTCP2_WINDOW_BYTES}", f"--max-stream-data-bidi-local={NGTCP2_WINDOW_BYTES}",
            f"--timeout={max(1, math.ceil(idle_timeout_s))}s", address, str(port), *uris(n_objects, address, port)]


# --- the clients' outputs -------------------------------------------------------------------------------


def _iso_s(text: str, where: str) -> float:
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except (TypeError, ValueError, AttributeError):
        raise CStackError(f"nghttp's HAR: {where} startedDateTime {text!r} is not an ISO 8601 time") from None


def parse_har(text: str, n_objects: int) -> tuple[dict, list[dict]]:
    """Return (conn, objects) from nghttp's HAR file; times in seconds from nghttp's start (its steady clock).

    nghttp's HAR (its ``output_har``): entry k is the k-th URI; ``timings.dns`` and ``timings.connect`` (entry 0,
    ms) run from the start to the end of the address lookup and then to the end of the TCP and TLS handshakes;
    ``wait`` is request sent -> response headers, ``receive`` headers -> last byte; ``time`` is start -> last byte
    for entry 0 and request sent -> last byte for the others; ``startedDateTime`` is the wall-clock start (entry 0)
    or request time (others) in whole ms; ``connection`` is the request's stream ID. So: connection start = dns,
    handshake done = dns + connect, request 0 = time0 - wait0 - receive0 (all to the microsecond); request k > 0 =
    its startedDateTime less entry 0's, within 1 ms (both rounded down to whole ms), and not before request 0
    (nghttp sends HEADERS in request order). ``realtime_first_request`` is entry 0's wall-clock start plus
    request 0's offset (its ms rounding).
    Raises :class:`CStackError` when the file is not such a HAR or a response is missing, not 200, or of another
    object count.
    """
    try:
        log = json.loads(text)["log"]
        entries = log["entries"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        raise CStackError(f"nghttp's HAR could not be read: {err}") from None
    if len(entries) != n_objects:
        raise CStackError(f"nghttp's HAR holds {len(entries)} completed responses, expected {n_objects} "
                          f"(nghttp leaves out the requests that did not complete)")
    by_index = {}
    for k, entry in enumerate(entries):
        try:
            path = entry["request"]["url"].rsplit("/", 1)[-1]
            index = int(path[3:]) if path.startswith("obj") and path[3:].isdigit() else -1
            status, size = entry["response"]["status"], entry["response"]["content"]["size"]
            t = entry["timings"]
            rec = {"time": float(entry["time"]) / 1e3, "wait": float(t["wait"]) / 1e3,
                   "receive": float(t["receive"]) / 1e3, "dns": float(t["dns"]) / 1e3,
                   "connect": float(t["connect"]) / 1e3, "iso": _iso_s(entry["startedDateTime"], f"entry {k}"),
                   "bytes": int(size), "entry": k, "stream": int(entry["connection"])}
        except (KeyError, TypeError, ValueError) as err:
            raise CStackError(f"nghttp's HAR entry {k} lacks {err}") from None
        if status != 200:
            raise CStackError(f"nghttp's HAR entry {k} ({path}) has status {status}, not 200")
        if not 0 <= index < n_objects or index in by_index:
            raise CStackError(f"nghttp's HAR entry {k} asks for {path!r}, not one of obj0 ... obj{n_objects - 1}")
        by_index[index] = rec
    first = next(rec for rec in by_index.values() if rec["entry"] == 0)
    t_req0 = first["time"] - first["wait"] - first["receive"]
    conn = {"t_connect_start": first["dns"], "t_handshake_done": first["dns"] + first["connect"],
            "t_first_request": t_req0, "realtime_first_request": first["iso"] + t_req0}
    objects = []
    for index in range(n_objects):
        rec = by_index[index]
        if rec is first:
            t_req, t_done = t_req0, rec["time"]
        else:
            t_req = max(t_req0, rec["iso"] - first["iso"])
            t_done = t_req + rec["time"]
        objects.append({"object": index, "stream": rec["stream"], "bytes": rec["bytes"], "t_request": t_req,
                        "t_first_byte": t_req + rec["wait"], "t_done": t_done})
    return conn, objects


#: A frame line of ngtcp2's debug log (``ngtcp2_log.c``): milliseconds since the connection was made, the source
#: connection ID, direction, packet number, packet type, then the frame.
_LOG_FRAME = re.compile(r"^I(?P<ms>\d+) 0x[0-9a-f]* frm (?P<dir>rx|tx) \d+ (?P<pkt>\S+) (?P<frame>.*)$")
#: A STREAM frame's fields in that log.
_LOG_STREAM = re.compile(r"^STREAM\(0x[0-9a-f]+\) id=0x(?P<id>[0-9a-f]+) fin=(?P<fin>[01]) offset=(?P<offset>\d+) "
                         r"len=(?P<len>\d+) uni=[01]$")


def _covered(ranges: list[tuple[int, int]], size: int) -> bool:
    """Return whether the byte ranges [start, end) cover [0, size)."""
    end = 0
    for start, stop in sorted(ranges):
        if start > end:
            return False
        end = max(end, stop)
    return end >= size


def parse_client_log(text: str, bytes_received: list[int]) -> tuple[dict, list[dict]]:
    """Return (conn, objects) from the ngtcp2 example client's debug log (its stderr without ``--quiet``); times
    in seconds since the client made its connection (each line's ``I<ms>``: whole milliseconds, rounded down).

    Object k is request stream 4k (the client opens its bidirectional streams in URI order). Per stream: the
    request is the first ``frm tx`` STREAM frame of it; the first byte the first ``frm rx`` STREAM frame with its
    offset 0 (the response's HEADERS frame); done the ``frm rx`` line after which the received ranges cover its
    final size (the end of its FIN frame), so a retransmission that fills a gap counts and a duplicate does not.
    The connection starts at 0 (the client's first Initial packet leaves then); the handshake ends with the first
    ``frm tx`` Handshake CRYPTO frame (the client's Finished, sent once it has read the server's). ``bytes_received``
    are the body sizes (the files the client saved), one per object. The log holds no wall-clock time:
    ``realtime_first_request`` is None. Raises :class:`CStackError` when a stream is missing or incomplete.
    """
    n = len(bytes_received)
    streams = {4 * k: {"t_request": None, "t_first_byte": None, "t_done": None, "ranges": [], "final": None}
               for k in range(n)}
    t_handshake = None
    for line in text.splitlines():
        m = _LOG_FRAME.match(line)
        if m is None:
            continue
        t = int(m["ms"]) / 1e3
        sent = m["dir"] == "tx"
        if sent and t_handshake is None and m["pkt"] == "Handshake" and m["frame"].startswith("CRYPTO("):
            t_handshake = t
        f = _LOG_STREAM.match(m["frame"])
        s = streams.get(int(f["id"], 16)) if f else None
        if s is None:
            continue
        if sent:
            if s["t_request"] is None:
                s["t_request"] = t
            continue
        start = int(f["offset"])
        stop = start + int(f["len"])
        if start == 0 and s["t_first_byte"] is None:
            s["t_first_byte"] = t
        s["ranges"].append((start, stop))
        if f["fin"] == "1":
            s["final"] = stop
        if s["t_done"] is None and s["final"] is not None and _covered(s["ranges"], s["final"]):
            s["t_done"] = t
    objects = []
    for k in range(n):
        s = streams[4 * k]
        missing = [key for key in ("t_request", "t_first_byte", "t_done") if s[key] is None]
        if missing:
            raise CStackError(f"the ngtcp2 client's log has no {missing[0][2:].replace('_', ' ')} for object {k} "
                              f"(stream {4 * k})")
        objects.append({"object": k, "stream": 4 * k, "bytes": int(bytes_received[k]), "t_request": s["t_request"],
                        "t_first_byte": s["t_first_byte"], "t_done": s["t_done"]})
    if t_handshake is None:
        raise CStackError("the ngtcp2 client's log has no Handshake CRYPTO frame sent (the client's Finished)")
    conn = {"t_connect_start": 0.0, "t_handshake_done": t_handshake,
            "t_first_request": min(o["t_request"] for o in objects), "realtime_first_request": None}
    return conn, objects


# --- running --------------------------------------------------------------------------------------------


def _tail(text: str) -> str:
    text = (text or "").strip()
    return text[-STDERR_TAIL_CHARS:] if text else "(nothing on stderr)"


def _stop(proc: subprocess.Popen) -> str:
    """Kill ``proc`` if it still runs and return its stderr."""
    if proc.poll() is None:
        proc.kill()
    try:
        _, err = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        return ""
    return err or ""


def _wait_listening(tb: netns.Testbed, server: subprocess.Popen, program: str, transport: str, port: int,
                    timeout_s: float) -> None:
    """Return once a ``transport`` ('tcp' or 'udp') socket on ``port`` is bound in the server's namespace (``ss``);
    raise :class:`CStackError` naming ``program`` if it exits or ``timeout_s`` passes first."""
    flag = "-t" if transport == "tcp" else "-u"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CStackError(f"{program} exited ({server.returncode}) before listening: {_tail(_stop(server))}")
        proc = subprocess.run(["ip", "netns", "exec", tb.namespace("server"), "ss", "-H", "-n", "-l", flag,
                               f"sport = :{port}"], capture_output=True, text=True, timeout=20)
        if proc.returncode == 0 and proc.stdout.strip():
            return
        time.sleep(0.05)
    raise CStackError(f"{program} did not listen on {transport} port {port} within {timeout_s:g} s: "
                      f"{_tail(_stop(server))}")


def _file_tail(path: Path) -> str:
    """Return the last :data:`STDERR_TAIL_CHARS` characters of file ``path`` ('' if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - STDERR_TAIL_CHARS))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def _run_client(client: subprocess.Popen, program: str, timeout_s: float, stderr_file: Path | None = None) -> str:
    """Wait for ``client`` up to ``timeout_s``; return its stderr (piped, or the tail of ``stderr_file``); raise
    naming ``program`` when it fails or runs past ``timeout_s``."""
    try:
        _, err = client.communicate(timeout=max(timeout_s, 0.1))
    except subprocess.TimeoutExpired:
        err = _stop(client)
        err = _file_tail(stderr_file) if stderr_file is not None else err
        raise CStackError(f"{program} did not finish within the run's bound: {_tail(err)}") from None
    err = _file_tail(stderr_file) if stderr_file is not None else (err or "")
    if client.returncode != 0:
        raise CStackError(f"{program} failed ({client.returncode}): {_tail(err)}")
    return err


def _paths(implementation: str) -> dict[str, str]:
    reason = missing_reason(implementation)
    if reason:
        raise CStackError(reason)
    return {prog: program_path(prog) for prog in PROGRAMS[implementation]}


def _check_testbed(tb) -> netns.Testbed:
    if not isinstance(tb, netns.Testbed):
        raise ParameterError(f"tb must be a paperlib.emulation.netns.Testbed, got {tb!r}")
    return tb


def run_nghttp2(tb: netns.Testbed, objects_bytes, *, iw_segments: int, bound_s: float,
                tmp: Path) -> tuple[dict, list[dict], dict]:
    """Load the page ``objects_bytes`` once with nghttpd and nghttp inside ``tb``; return (conn, objects, settings).

    ``iw_segments`` must be the Testbed's TCP initial window (``tb.tcp.initcwnd``: the route sets it; this
    function only checks). ``bound_s`` bounds the whole run (server start included); ``tmp`` is an existing
    folder for the page, certificate, OpenSSL configuration and HAR file. conn and objects are
    :func:`parse_har`'s (seconds on nghttp's clock); settings name the versions, command lines and the TCP
    settings read back from the namespaces.
    """
    tb = _check_testbed(tb)
    sizes = check_objects(objects_bytes)
    iw = _check_iw(iw_segments)
    bound = _check_bound(bound_s)
    if tb.tcp is None or tb.tcp.initcwnd != iw:
        raise ParameterError(f"iw_segments {iw} must equal the Testbed's TCP initcwnd "
                             f"({None if tb.tcp is None else tb.tcp.initcwnd}): the route sets TCP's initial window")
    deadline = time.monotonic() + bound
    paths = _paths("nghttp2")
    tmp = Path(tmp)
    docs = write_page(tmp, sizes)
    cert, key = page_app.make_certificate(tmp, netns.SERVER_IP)
    env = {**os.environ, "OPENSSL_CONF": str(openssl_conf(tmp))}
    har = tmp / "nghttp.har"
    srv_argv = nghttpd_argv(paths["nghttpd"], docs, cert, key, len(sizes))
    server = tb.popen("server", srv_argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_listening(tb, server, "nghttpd", "tcp", PORT, min(SERVER_START_S, bound))
        cl_argv = nghttp_argv(paths["nghttp"], har, len(sizes), deadline - time.monotonic())
        client = tb.popen("client", cl_argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        err = _run_client(client, "nghttp", deadline - time.monotonic())
        if not har.is_file():
            raise CStackError(f"nghttp wrote no HAR file: {_tail(err)}")
        try:
            conn, objects = parse_har(har.read_text(), len(sizes))
        except CStackError as exc:
            raise CStackError(f"{exc}; nghttp's stderr: {_tail(err)}") from None
    finally:
        server_err = _stop(server)
    _check_bytes("nghttp", objects, sizes, server_err)
    tcp = {side: tb.sysctl_values(side, ["net.ipv4.tcp_congestion_control"]) for side in ("client", "server")}
    settings = {"implementation": "nghttp2", "protocol": PROTOCOL["nghttp2"], "versions": package_versions("nghttp2"),
                "server_argv": srv_argv, "client_argv": cl_argv, "openssl_conf": OPENSSL_CONF_TEXT,
                "tls": "TLS 1.3 only, group P-256 (OPENSSL_CONF of both programs)", "tcp": tcp,
                "initial_window_segments": iw, "initial_window_set_by": "route initcwnd (Testbed TcpSettings)",
                "flow_window_bytes": 2**NGHTTP_WINDOW_BITS - 1, "priorities": "RFC 9218 defaults (--no-rfc7540-pri)",
                "time_source": "nghttp's HAR (-r)",
                "time_resolution_s": {"conn and object 0": 1e-6, "other objects": 1e-3}}
    return conn, objects, settings


def run_ngtcp2(tb: netns.Testbed, objects_bytes, *, iw_segments: int, bound_s: float,
               tmp: Path) -> tuple[dict, list[dict], dict]:
    """Load the page ``objects_bytes`` once with ngtcp2's example server and client inside ``tb``; return
    (conn, objects, settings).

    ``iw_segments`` must be :data:`NGTCP2_INITIAL_WINDOW` (10): the example programs cannot set another.
    ``bound_s`` bounds the whole run; ``tmp`` is an existing folder for the page, certificate, the client's log
    (written to a file, ``client.log``) and the saved bodies. conn and objects are :func:`parse_client_log`'s
    (seconds since the client made its connection).
    """
    tb = _check_testbed(tb)
    sizes = check_objects(objects_bytes)
    iw = _check_iw(iw_segments)
    bound = _check_bound(bound_s)
    if iw != NGTCP2_INITIAL_WINDOW:
        raise ParameterError(f"iw_segments must be {NGTCP2_INITIAL_WINDOW} for ngtcp2, got {iw}: its example "
                             f"programs set the initial window from the datagram size (no option for it)")
    deadline = time.monotonic() + bound
    paths = _paths("ngtcp2")
    tmp = Path(tmp)
    docs = write_page(tmp, sizes)
    cert, key = page_app.make_certificate(tmp, netns.SERVER_IP)
    log, download = tmp / "client.log", tmp / "download"
    download.mkdir(exist_ok=True)
    srv_argv = gtlsserver_argv(paths["gtlsserver"], docs, cert, key, len(sizes), bound + 30)
    server = tb.popen("server", srv_argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_listening(tb, server, "gtlsserver", "udp", PORT, min(SERVER_START_S, bound))
        cl_argv = gtlsclient_argv(paths["gtlsclient"], download, len(sizes), bound + 30)
        with open(log, "w") as log_file:  # a file, not a pipe: the client never waits for a reader
            client = tb.popen("client", cl_argv, stdout=subprocess.DEVNULL, stderr=log_file)
            _run_client(client, "gtlsclient", deadline - time.monotonic(), log)
        received = [(download / object_name(i)).stat().st_size if (download / object_name(i)).is_file() else 0
                    for i in range(len(sizes))]
        try:
            conn, objects = parse_client_log(log.read_text(errors="replace"), received)
        except CStackError as exc:
            raise CStackError(f"{exc}; gtlsclient's stderr: {_tail(_file_tail(log))}") from None
    finally:
        server_err = _stop(server)
    _check_bytes("gtlsclient", objects, sizes, server_err)
    settings = {"implementation": "ngtcp2", "protocol": PROTOCOL["ngtcp2"], "versions": package_versions("ngtcp2"),
                "server_argv": srv_argv, "client_argv": cl_argv, "tls": "TLS 1.3 (QUIC, GnuTLS)",
                "congestion_control": "reno (ngtcp2 NewReno)", "initial_window_datagrams": NGTCP2_INITIAL_WINDOW,
                "initial_window_set_by": "ngtcp2_cc_compute_initcwnd(1472): min(10 x 1472, max(2 x 1472, 14720)) B",
                "max_udp_payload_bytes": QUIC_DATAGRAM_BYTES, "flow_window_bytes": NGTCP2_WINDOW_BYTES,
                "priorities": "RFC 9218 defaults (nghttp3)", "time_source": "gtlsclient's debug log (stderr)",
                "time_resolution_s": 1e-3}
    return conn, objects, settings


def _check_bytes(program: str, objects: list[dict], sizes: list[int], server_err: str) -> None:
    for obj, size in zip(objects, sizes, strict=True):
        if obj["bytes"] != size:
            raise CStackError(f"{program}: object {obj['object']} arrived with {obj['bytes']} bytes, not {size}; "
                              f"server stderr: {_tail(server_err)}")
