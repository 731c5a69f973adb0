"""A web page over HTTP/2 (TLS 1.3, Linux TCP) or HTTP/3 (QUIC) between the emulator's namespaces.

Run as ``python -m paperlib.emulation.page_app server|client ...`` inside a namespace
(:meth:`paperlib.emulation.netns.Testbed.popen`); paper 005's real-stack runs (its package's ``emulated``)
use it for its ``h2`` and ``h3`` families, and the C program ``c/webperf_app.c`` for ``sctp``.

Implementations, and why these: ``h2`` (PyPI, 4.x) with Python's :mod:`ssl` (OpenSSL, TLS 1.3 only)
for HTTP/2, and ``aioquic`` (PyPI, 1.x, with its own HTTP/3 layer) for HTTP/3. Both are maintained,
install as wheels from PyPI (no root, no system package), and run in one language on one asyncio event
loop, so the application's own overhead is alike for both; aioquic exposes its congestion control, its
initial window and its flow-control limits.

What the two ends do. The client opens one connection, sends every request at once (HTTP/2 and HTTP/3
multiplex them on that connection: one stream per object) and waits for every response; the server
answers each ``GET /<index>/<bytes>`` with ``<bytes>`` bytes of body. The server sends the responses in
stream order, each whole before the next (RFC 9218 section 4: the default priority is urgency 3,
non-incremental, and non-incremental responses of one urgency go in stream-ID order; aioquic sends its
streams in the order they were opened). The HTTP/2 server writes its connection preface with its first
responses, in one write (:class:`_H2Server`), so that its first packets after the handshake are the
response's and the packet capture sees the initial window (:func:`paperlib.emulation.capture.first_flight`).

Settings of a run (``--iw``, ``--cc`` and the limits below; the settings line prints what is in force):

* congestion control: Linux TCP's is set per namespace by the caller (``reno``); aioquic's
  ``QuicConfiguration.congestion_control_algorithm = "reno"`` (its NewReno, RFC 9002 section 7).
* initial window: Linux TCP's per route (``initcwnd``, by the caller). aioquic's is the module constant
  ``aioquic.quic.congestion.base.K_INITIAL_WINDOW`` (10 datagrams, RFC 9002 section 7.2) read when a
  connection's congestion controller is made; nothing in ``QuicConfiguration`` sets it, so the server
  process assigns it from ``--iw`` before it accepts a connection, and prints the value in force. aioquic
  paces its packets (RFC 9002 section 7.7); that is left as it is.
* datagram size: QUIC packets fill the link's 1500-byte MTU like TCP's segments (``max_datagram_size``
  = 1500 - 20 (IPv4) - 8 (UDP) = 1472 bytes); aioquic's default is 1200.
* flow control never binds: HTTP/2's stream window (SETTINGS_INITIAL_WINDOW_SIZE) and connection window
  (a WINDOW_UPDATE on stream 0) and QUIC's ``max_data`` and ``max_stream_data`` are :data:`FLOW_WINDOW`
  bytes (larger than any page the client accepts, :data:`MAX_PAGE_BYTES`), so only the congestion
  window and the link pace the transfer.
* TLS 1.3 only (``minimum_version = TLSv1_3``), a self-signed certificate the caller makes at run time
  (:func:`make_certificate`) and the client trusts explicitly; the server issues no session ticket
  (``num_tickets = 0``: no connection is resumed, and tickets would add packets to the response's
  first flight).

Output: JSON lines on stdout. Server: one ``settings`` line once it listens. Client: one ``settings``
line, one ``conn`` line (``t_connect_start`` before the connection is opened, ``t_handshake_done`` when
the handshake completes at the client, ``t_first_request`` when the first request leaves the
application, and ``realtime_first_request``, the wall clock at that moment, to place it in a packet
capture) and one ``object`` line per object (``t_request``, ``t_first_byte``: the response's headers,
``t_done``: its last byte); times in seconds of ``time.monotonic()``. Exit codes: 0 success, 1 run-time
error, 2 bad arguments, 3 ``--timeout`` reached.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import ipaddress
import json
import ssl
import sys
import time
from pathlib import Path

#: The application's families (paper 005's names for them, its package's ``transports.PROTOCOLS``).
PROTOCOLS = ("h2", "h3")
#: Exit codes (as the C program's).
EXIT_RUNTIME, EXIT_USAGE, EXIT_TIMEOUT = 1, 2, 3
#: The name the certificate is made for and the client checks.
SERVER_NAME = "webperf.test"
#: Largest page (sum of object sizes, bytes) a client accepts; flow-control windows exceed it.
MAX_PAGE_BYTES = 64 * 1024 * 1024
#: Flow-control window of every stream and of the connection (bytes), above :data:`MAX_PAGE_BYTES`.
FLOW_WINDOW = 2**30
#: HTTP/2's largest stream window (RFC 9113 section 6.9.1: 2^31 - 1).
H2_MAX_WINDOW = 2**31 - 1
#: QUIC datagram size: the 1500-byte MTU less 20 B IPv4 and 8 B UDP headers.
QUIC_DATAGRAM_BYTES = 1472
#: Most objects a client asks for.
MAX_OBJECTS = 1024


class UsageError(ValueError):
    """A bad command-line argument (exit code :data:`EXIT_USAGE`); the message names it."""


# --- certificate ------------------------------------------------------------------------------


def make_certificate(folder: Path, address: str) -> tuple[Path, Path]:
    """Write a self-signed certificate and its key for :data:`SERVER_NAME` and ``address`` into ``folder``.

    An ECDSA P-256 key (the smallest common choice, so the TLS handshake fits one or two packets),
    valid from a day ago for two days; made at run time with ``cryptography`` (a dependency of
    aioquic), nothing from the network. Returns (certificate path, key path), PEM files.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SERVER_NAME)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(SERVER_NAME),
                                                        x509.IPAddress(ipaddress.ip_address(address))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    folder = Path(folder)
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


# --- arguments --------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # a UsageError (exit 2 with one line) instead of argparse's exit
        raise UsageError(message)


def _positive_int(name: str, lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be in [{lo}, {hi}], got {value}")
        return value
    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timeout must be a number of seconds, got {text!r}") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"--timeout must be in (0, 86400] seconds, got {text!r}")
    return value


def _objects(text: str) -> list[int]:
    parse = _positive_int("--objects item", 1, MAX_PAGE_BYTES)
    sizes = [parse(tok) for tok in text.split(",")] if text else []
    if not 1 <= len(sizes) <= MAX_OBJECTS:
        raise argparse.ArgumentTypeError(f"--objects must list 1 to {MAX_OBJECTS} sizes, got {len(sizes)}")
    if sum(sizes) > MAX_PAGE_BYTES:
        raise argparse.ArgumentTypeError(f"--objects sum to {sum(sizes)} bytes, above {MAX_PAGE_BYTES}")
    return sizes


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Return the parsed command line; raise :class:`UsageError` naming a bad or missing argument."""
    parser = _Parser(prog="python -m paperlib.emulation.page_app", add_help=False)
    parser.add_argument("mode", choices=("server", "client"))
    parser.add_argument("--protocol", required=True, choices=PROTOCOLS)
    parser.add_argument("--port", required=True, type=_positive_int("--port", 1, 65535))
    parser.add_argument("--address", required=True, type=ipaddress.IPv4Address,
                        help="server: address to listen on; client: the server's address")
    parser.add_argument("--cert", required=True, type=Path, help="PEM certificate (the client trusts it)")
    parser.add_argument("--key", type=Path, help="server: PEM private key")
    parser.add_argument("--iw", type=_positive_int("--iw", 1, 100), help="server, h3: initial window (packets)")
    parser.add_argument("--cc", default="reno", choices=("reno",), help="h3: congestion control")
    parser.add_argument("--objects", type=_objects, help="client: object sizes in bytes, B1,B2,...")
    parser.add_argument("--timeout", type=_seconds, default=60.0)
    args = parser.parse_args(argv)
    if args.mode == "server" and args.key is None:
        raise UsageError("--key is required in server mode")
    if args.mode == "server" and args.protocol == "h3" and args.iw is None:
        raise UsageError("--iw is required for an h3 server (aioquic's initial window)")
    if args.mode == "client" and args.objects is None:
        raise UsageError("--objects B1,B2,... is required in client mode")
    if args.mode == "client" and (args.key is not None or args.iw is not None):
        raise UsageError("--key and --iw are server options")
    if args.mode == "server" and args.objects is not None:
        raise UsageError("--objects is a client option")
    for name in ("cert", "key"):
        path = getattr(args, name)
        if path is not None and not path.is_file():
            raise UsageError(f"--{name} {path} is not a file")
    return args


def _emit(record: dict) -> None:
    sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
    sys.stdout.flush()


def _path(index: int, size: int) -> bytes:
    return f"/{index}/{size}".encode()


def _parse_path(path: bytes) -> int:
    """Return the size a request path ``/<index>/<bytes>`` asks for (ValueError if malformed)."""
    parts = path.decode("ascii").strip("/").split("/")
    if len(parts) != 2:
        raise ValueError(f"request path {path!r} is not /<index>/<bytes>")
    size = int(parts[1])
    if not 0 < size <= MAX_PAGE_BYTES:
        raise ValueError(f"request path {path!r} asks for {size} bytes")
    return size


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": sys.version.split()[0], "openssl": ssl.OPENSSL_VERSION}
    for pkg in ("h2", "aioquic"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = None
    return out


# --- HTTP/2 over TLS 1.3 over TCP ------------------------------------------------------------


def _tls_context(server: bool, cert: Path, key: Path | None) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER if server else ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.set_alpn_protocols(["h2"])
    if server:
        ctx.load_cert_chain(cert, key)
        ctx.num_tickets = 0
    else:
        ctx.load_verify_locations(cert)
    return ctx


def _h2_settings() -> dict:
    from h2.settings import SettingCodes

    return {SettingCodes.INITIAL_WINDOW_SIZE: H2_MAX_WINDOW, SettingCodes.MAX_CONCURRENT_STREAMS: MAX_OBJECTS,
            SettingCodes.ENABLE_PUSH: 0}


def _h2_open(conn) -> None:
    """Send the preface with :func:`_h2_settings` and open the connection window to :data:`FLOW_WINDOW`."""
    conn.update_settings(_h2_settings())
    conn.increment_flow_control_window(FLOW_WINDOW - 65535)


#: Payload of the HTTP/2 server's DATA frames: about one TCP segment (1448 B with timestamps) less TLS 1.3's
#: record overhead (5 B header, 1 B type, 16 B tag) and the frame's 9 B header, so that its round robin
#: turns once per segment, as aioquic's turns once per packet.
H2_DATA_FRAME_BYTES = 1448 - 22 - 9


class _H2Server(asyncio.Protocol):
    """The HTTP/2 server of one connection: its first write carries its preface and the first responses.

    The server's connection preface (SETTINGS and the connection window's WINDOW_UPDATE) is made when the
    connection opens but written only with the first responses, in one write: nothing the server sends
    after the handshake comes before the response (RFC 9113 section 3.4 lets a server send its preface at
    any time before its other frames, and lets a client send requests before it arrives). Written alone,
    as soon as the handshake completed, the preface was a small packet of its own ahead of the responses,
    and the client's reply to it (its SETTINGS acknowledgement) an acknowledgement that was not of
    response data; the first flight's rule (:func:`paperlib.emulation.capture.first_flight`) then measured
    the window from the preface and counted only what the server wrote within a round trip of it, which
    under CPU load was 1 to 3 packets of an initial window of 10. Every request a read delivers is
    answered in that read's one write; the client writes all its requests at once, so with asyncio's TLS
    (one ``data_received`` per batch of decrypted records) one write carries the preface and the whole
    page, and the kernel's send buffer, not the server's speed, decides what the initial window sends.
    """

    def connection_made(self, transport):
        import h2.config
        import h2.connection

        self.transport = transport
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        self.conn.initiate_connection()
        _h2_open(self.conn)
        self.answered = False  # the preface waits in h2's buffer for the first responses

    def data_received(self, data):
        import h2.events

        try:
            requests = [(event.stream_id, _parse_path(dict(event.headers)[b":path"]))
                        for event in self.conn.receive_data(data) if isinstance(event, h2.events.RequestReceived)]
            if requests:
                self._respond(requests)
                self.answered = True
        except Exception as err:  # noqa: BLE001 - one line on stderr, and the client sees the connection end
            print(f"page_app: error: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
            self.transport.close()
            return
        if self.answered:  # until the first request, the preface and any SETTINGS ACK wait with it
            out = self.conn.data_to_send()
            if out:
                self.transport.write(out)

    def _respond(self, requests: list[tuple[int, int]]) -> None:
        """Answer ``requests`` ((stream id, size) pairs): every header, then the bodies' DATA frames in turns.

        The bodies are interleaved one frame of :data:`H2_DATA_FRAME_BYTES` per unfinished stream per turn,
        in request order: the round robin of the page model (``order="round_robin"``) and of aioquic, which
        serves its streams one packet each in turn. Written body after body, HTTP/2 would finish its first
        objects early and HTTP/3 all of them late, and their mean object times would compare schedulers,
        not transports.
        """
        left = {}
        for stream_id, size in requests:
            self.conn.send_headers(stream_id, [(b":status", b"200"), (b"content-length", str(size).encode())])
            if self.conn.local_flow_control_window(stream_id) < size:
                raise RuntimeError(f"HTTP/2 flow control would bind: window "
                                   f"{self.conn.local_flow_control_window(stream_id)} < {size} bytes")
            left[stream_id] = size
        frame = min(H2_DATA_FRAME_BYTES, self.conn.max_outbound_frame_size)
        while left:
            for stream_id in list(left):
                n = min(frame, left[stream_id])
                left[stream_id] -= n
                self.conn.send_data(stream_id, bytes(n), end_stream=left[stream_id] == 0)
                if not left[stream_id]:
                    del left[stream_id]


async def _h2_server(args) -> None:
    import h2.config  # noqa: F401 - imported before listening, not while the first request waits
    import h2.connection  # noqa: F401
    import h2.events  # noqa: F401

    loop = asyncio.get_running_loop()
    server = await loop.create_server(_H2Server, str(args.address), args.port,
                                      ssl=_tls_context(True, args.cert, args.key))
    _emit({"type": "settings", "mode": "server", "protocol": "h2", "versions": _versions(),
           "tls": "1.3 only", "session_tickets": 0, "h2_settings": {str(k): v for k, v in _h2_settings().items()},
           "connection_window": FLOW_WINDOW, "congestion_control": "kernel (set per namespace)",
           "initial_window": "kernel (set per route)"})
    async with server:
        await server.serve_forever()


async def _h2_client(args) -> None:
    import h2.config
    import h2.connection
    import h2.events

    sizes = args.objects
    t_start = time.monotonic()
    reader, writer = await asyncio.open_connection(str(args.address), args.port,
                                                   ssl=_tls_context(False, args.cert, None),
                                                   server_hostname=SERVER_NAME)
    t_hs = time.monotonic()
    alpn = writer.get_extra_info("ssl_object").selected_alpn_protocol()
    if alpn != "h2":
        raise RuntimeError(f"the server chose ALPN {alpn!r}, not h2")
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    _h2_open(conn)
    streams = {}
    for i, size in enumerate(sizes):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", SERVER_NAME.encode()),
                                (b":path", _path(i, size))], end_stream=True)
        streams[sid] = {"object": i, "stream": sid, "expected": size, "bytes": 0}
    t_req, real_req = time.monotonic(), time.time()
    writer.write(conn.data_to_send())
    for rec in streams.values():
        rec["t_request"] = t_req
    done = 0
    while done < len(streams):
        data = await reader.read(1 << 16)
        now = time.monotonic()
        if not data:
            raise RuntimeError(f"the server closed the connection with {len(streams) - done} objects missing")
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                streams[event.stream_id]["t_first_byte"] = now
            elif isinstance(event, h2.events.DataReceived):
                streams[event.stream_id]["bytes"] += len(event.data)
                # the windows exceed the page (FLOW_WINDOW); acknowledging keeps h2's accounting exact
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                streams[event.stream_id]["t_done"] = now
                done += 1
            elif isinstance(event, h2.events.StreamReset):
                raise RuntimeError(f"the server reset stream {event.stream_id} ({event.error_code})")
        out = conn.data_to_send()
        if out:
            writer.write(out)
    conn.close_connection()
    writer.write(conn.data_to_send())
    writer.close()
    _report("h2", sizes, t_start, t_hs, t_req, real_req, streams.values(),
            {"tls_version": writer.get_extra_info("ssl_object").version(), "alpn": alpn,
             "h2_settings": {str(k): v for k, v in _h2_settings().items()}, "connection_window": FLOW_WINDOW})


# --- HTTP/3 over QUIC ------------------------------------------------------------------------


def _quic_configuration(client: bool, args):
    from aioquic.h3.connection import H3_ALPN
    from aioquic.quic.configuration import QuicConfiguration

    cfg = QuicConfiguration(is_client=client, alpn_protocols=H3_ALPN, max_datagram_size=QUIC_DATAGRAM_BYTES,
                            congestion_control_algorithm=args.cc, max_data=FLOW_WINDOW,
                            max_stream_data=FLOW_WINDOW, idle_timeout=args.timeout)
    if client:
        cfg.server_name = SERVER_NAME
        cfg.load_verify_locations(str(args.cert))
    else:
        cfg.load_cert_chain(str(args.cert), str(args.key))
    return cfg


def _set_quic_initial_window(iw: int) -> int:
    """Set aioquic's initial window (datagrams) for every connection this process makes; return it.

    aioquic reads the module constant ``K_INITIAL_WINDOW`` when it makes a connection's congestion
    controller (``QuicCongestionControl.__init__``); no configuration field sets it.
    """
    from aioquic.quic.congestion import base

    base.K_INITIAL_WINDOW = int(iw)
    return base.K_INITIAL_WINDOW


def _h3_protocol(handler):
    from aioquic.asyncio import QuicConnectionProtocol
    from aioquic.h3.connection import H3Connection

    class Protocol(QuicConnectionProtocol):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.h3 = H3Connection(self._quic)
            self.handler = handler(self)

        def quic_event_received(self, event):
            self.handler.quic_event(event)
            for h3_event in self.h3.handle_event(event):
                self.handler.h3_event(h3_event)
            self.transmit()

    return Protocol


class _H3ServerHandler:
    def __init__(self, proto):
        self.proto = proto

    def quic_event(self, event):
        pass

    def h3_event(self, event):
        from aioquic.h3.events import HeadersReceived

        if isinstance(event, HeadersReceived):
            try:
                size = _parse_path(dict(event.headers)[b":path"])
            except (KeyError, ValueError) as err:  # one line on stderr; the client sees the connection end
                print(f"page_app: error: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
                self.proto.close()
                return
            h3 = self.proto.h3
            h3.send_headers(event.stream_id, [(b":status", b"200"), (b"content-length", str(size).encode())])
            h3.send_data(event.stream_id, bytes(size), end_stream=True)


async def _h3_server(args) -> None:
    from aioquic.asyncio import serve

    iw = _set_quic_initial_window(args.iw)
    cfg = _quic_configuration(False, args)
    await serve(str(args.address), args.port, configuration=cfg, create_protocol=_h3_protocol(_H3ServerHandler))
    _emit({"type": "settings", "mode": "server", "protocol": "h3", "versions": _versions(), "tls": "1.3 (QUIC)",
           "congestion_control": cfg.congestion_control_algorithm, "initial_window_datagrams": iw,
           "initial_window_set_by": "aioquic.quic.congestion.base.K_INITIAL_WINDOW assigned in the server process",
           "max_datagram_size": cfg.max_datagram_size, "max_data": cfg.max_data,
           "max_stream_data": cfg.max_stream_data, "pacing": "aioquic's (RFC 9002 section 7.7)"})
    await asyncio.Event().wait()


class _H3ClientHandler:
    def __init__(self, proto):
        self.proto = proto
        self.streams: dict[int, dict] = {}
        self.finished = asyncio.Event()
        self.t_handshake = None
        self.error = None

    def quic_event(self, event):
        from aioquic.quic.events import ConnectionTerminated, HandshakeCompleted

        if isinstance(event, HandshakeCompleted) and self.t_handshake is None:
            self.t_handshake = time.monotonic()
        elif isinstance(event, ConnectionTerminated):
            self.error = f"the connection ended ({event.error_code}: {event.reason_phrase})"
            self.finished.set()

    def h3_event(self, event):
        from aioquic.h3.events import DataReceived, HeadersReceived

        now = time.monotonic()
        rec = self.streams.get(event.stream_id)
        if rec is None:
            return
        if isinstance(event, HeadersReceived):
            rec["t_first_byte"] = now
        elif isinstance(event, DataReceived):
            rec["bytes"] += len(event.data)
        if getattr(event, "stream_ended", False):
            rec["t_done"] = now
            if all("t_done" in r for r in self.streams.values()):
                self.finished.set()


async def _h3_client(args) -> None:
    from aioquic.asyncio import connect

    sizes = args.objects
    cfg = _quic_configuration(True, args)
    t_start = time.monotonic()
    async with connect(str(args.address), args.port, configuration=cfg,
                       create_protocol=_h3_protocol(_H3ClientHandler)) as proto:
        handler = proto.handler
        t_hs = handler.t_handshake if handler.t_handshake is not None else time.monotonic()
        for i, size in enumerate(sizes):
            sid = proto._quic.get_next_available_stream_id()
            proto.h3.send_headers(sid, [(b":method", b"GET"), (b":scheme", b"https"),
                                        (b":authority", SERVER_NAME.encode()), (b":path", _path(i, size))],
                                  end_stream=True)
            handler.streams[sid] = {"object": i, "stream": sid, "expected": size, "bytes": 0}
        t_req, real_req = time.monotonic(), time.time()
        proto.transmit()
        for rec in handler.streams.values():
            rec["t_request"] = t_req
        await handler.finished.wait()
        if handler.error and not all("t_done" in r for r in handler.streams.values()):
            raise RuntimeError(handler.error)
        proto.close()
    _report("h3", sizes, t_start, t_hs, t_req, real_req, handler.streams.values(),
            {"congestion_control": cfg.congestion_control_algorithm, "max_datagram_size": cfg.max_datagram_size,
             "max_data": cfg.max_data, "max_stream_data": cfg.max_stream_data})


# --- common -----------------------------------------------------------------------------------


def _report(protocol, sizes, t_start, t_hs, t_req, real_req, streams, settings) -> None:
    streams = sorted(streams, key=lambda r: r["object"])
    for rec in streams:
        if rec["bytes"] != rec["expected"]:
            raise RuntimeError(f"object {rec['object']}: received {rec['bytes']} bytes, asked for {rec['expected']}")
    _emit({"type": "settings", "mode": "client", "protocol": protocol, "objects": list(sizes),
           "versions": _versions(), **settings})
    _emit({"type": "conn", "t_connect_start": t_start, "t_handshake_done": t_hs, "t_first_request": t_req,
           "realtime_first_request": real_req, "t_done": max(r["t_done"] for r in streams)})
    for rec in streams:
        _emit({"type": "object", "object": rec["object"], "stream": rec["stream"], "bytes": rec["bytes"],
               "t_request": rec["t_request"], "t_first_byte": rec["t_first_byte"], "t_done": rec["t_done"]})


async def _main(args) -> None:
    run = {("server", "h2"): _h2_server, ("client", "h2"): _h2_client,
           ("server", "h3"): _h3_server, ("client", "h3"): _h3_client}[(args.mode, args.protocol)]
    await asyncio.wait_for(run(args), timeout=args.timeout)


def main(argv: list[str] | None = None) -> int:
    """Run a server or a client from ``argv``; return the exit code (errors go to stderr in one line)."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as err:
        print(f"page_app: bad argument: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        asyncio.run(_main(args))
    except (asyncio.TimeoutError, TimeoutError):
        print(f"page_app: error: --timeout {args.timeout:g} s reached before the run finished", file=sys.stderr)
        return EXIT_TIMEOUT
    except ImportError as err:
        print(f"page_app: error: {err.name or err} is not installed", file=sys.stderr)
        return EXIT_RUNTIME
    except Exception as err:  # noqa: BLE001 - one line naming the failure, as the C program does
        print(f"page_app: error: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_RUNTIME
    return 0


if __name__ == "__main__":
    sys.exit(main())
