"""The HTTP/2 and HTTP/3 page application (paperlib.emulation.page_app) and the first-flight count of a capture
(paperlib.emulation.capture.first_flight). The testbed runs (a few seconds each) skip with the reason where the
machine has no root, TUN or namespaces, or lacks h2 or aioquic."""

import importlib.util
import json
import ssl
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from paperlib.emulation import capture, experiments, netns, page_app
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.reproduce.p005 import emulated
from tests.fidelity_helpers import on_time

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")
PACKAGE = {"h2": "h2", "h3": "aioquic"}


# --- arguments ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, named", [
    (["client", "--protocol", "h2", "--port", "1", "--address", "10.0.0.1", "--cert", "x"], "--objects"),
    (["server", "--protocol", "h9", "--port", "1", "--address", "10.0.0.1", "--cert", "x"], "--protocol"),
    (["client", "--protocol", "h2", "--port", "70000", "--address", "10.0.0.1", "--cert", "x",
      "--objects", "5"], "--port"),
    (["client", "--protocol", "h2", "--port", "1", "--address", "10.0.0.1", "--cert", "x",
      "--objects", "5,0"], "--objects item"),
    (["client", "--protocol", "h2", "--port", "1", "--address", "10.0.0.1", "--cert", "x",
      "--objects", "5", "--timeout", "-1"], "--timeout"),
])
def test_bad_arguments_name_the_argument(argv, named):
    with pytest.raises(page_app.UsageError, match=named):
        page_app.parse_args(argv)


def test_h3_server_needs_its_initial_window(tmp_path):
    cert = tmp_path / "c.pem"
    cert.write_text("x")
    with pytest.raises(page_app.UsageError, match="--iw"):
        page_app.parse_args(["server", "--protocol", "h3", "--port", "1", "--address", "10.0.0.1",
                             "--cert", str(cert), "--key", str(cert)])
    with pytest.raises(page_app.UsageError, match="--cert .* is not a file"):
        page_app.parse_args(["client", "--protocol", "h2", "--port", "1", "--address", "10.0.0.1",
                             "--cert", str(tmp_path / "none"), "--objects", "5"])


def test_main_exits_2_with_one_line(capsys):
    assert page_app.main(["client", "--protocol", "h2"]) == page_app.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("page_app: bad argument:") and err.count("\n") == 1


def test_request_path_round_trip_and_bad_path():
    assert page_app._parse_path(page_app._path(3, 1234)) == 1234
    with pytest.raises(ValueError, match="not /<index>/<bytes>"):
        page_app._parse_path(b"/1234")
    with pytest.raises(ValueError, match="asks for"):
        page_app._parse_path(b"/1/0")


@pytest.mark.skipif(importlib.util.find_spec("cryptography") is None, reason="cryptography is not installed")
def test_certificate_is_trusted_for_the_server_name(tmp_path):
    cert, key = page_app.make_certificate(tmp_path, netns.SERVER_IP)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)  # raises if the key does not match the certificate
    client = page_app._tls_context(False, cert, None)
    assert client.minimum_version == ssl.TLSVersion.TLSv1_3 and client.check_hostname


# --- the first flight on synthetic packets -----------------------------------------------------

SERVER = bytes(int(x) for x in netns.SERVER_IP.split("."))
CLIENT = bytes(int(x) for x in netns.CLIENT_IP.split("."))


def _tcp(src: bytes, dst: bytes, payload: int) -> bytes:
    """An IPv4 + TCP header (20 + 20 B, data offset 5) claiming ``payload`` bytes (the capture keeps headers)."""
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40 + payload, 0, 0, 64, 6, 0, src, dst)
    return ip + struct.pack("!HHIIBBHHH", 8443, 40000, 0, 0, 5 << 4, 0x10, 0, 0, 0)


def _sctp(src: bytes, dst: bytes, chunks: list[tuple[int, int]]) -> bytes:
    """IPv4 + UDP + SCTP common header and ``chunks`` (type, length) headers; the lengths set the total."""
    body = b"".join(struct.pack("!BBH", kind, 0, length) + b"\0" * (((length + 3) // 4 * 4) - 4)
                    for kind, length in chunks)
    total = 20 + 8 + 12 + len(body)
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 0, 0, 64, 17, 0, src, dst) + b"\0" * 8 + b"\0" * 12 + body


def test_first_flight_counts_the_window_before_the_first_ack():
    # RTT 0.1 s. The handshake flight (1 data packet) arrives at 0.2, the request leaves at 0.21; the response
    # arrives from 0.31: a 100-byte packet, then 10 packets of 1448 B; the client's first ACK leaves at 0.3101
    # (after the 100-byte packet), so the flight ends at 0.4101: the packet at 0.41 is in it, the one at 0.4102
    # (sent on that ACK) is not. Flight: 1 + 10 = 11 packets, 100 + 14480 = 14580 B, in 1448-B packets
    # ceil(14580 / 1448) = ceil(10.07) = 11 full packets.
    pk = [(0.0, _tcp(CLIENT, SERVER, 0)), (0.2, _tcp(SERVER, CLIENT, 736)), (0.21, _tcp(CLIENT, SERVER, 300)),
          (0.31, _tcp(SERVER, CLIENT, 100)), (0.3101, _tcp(CLIENT, SERVER, 0))]
    pk += [(0.32 + 0.001 * i, _tcp(SERVER, CLIENT, 1448)) for i in range(9)]
    pk += [(0.41, _tcp(SERVER, CLIENT, 1448)), (0.4102, _tcp(SERVER, CLIENT, 1448))]
    ff = capture.first_flight(pk, 0.1, "sctp", request_time=0.21)
    assert (ff["packets"], ff["bytes"], ff["full_packets"], ff["handshake_packets"]) == (11, 14580, 11, 1)
    assert ff["t_ack"] == 0.3101
    # IW 10 plus the 1 handshake packet whose ACK may have grown the window: 10 <= 11 <= 11
    assert capture.iw_checked(ff, 10) and not capture.iw_checked(ff, 12) and not capture.iw_checked(ff, 9)


def test_sctp_data_behind_a_sack_counts_and_a_handshake_does_not():
    # a SACK (type 3, 16 B) then a DATA chunk (type 0, 16 + 1000 B): UDP payload 12 + 16 + 1016 = 1044 B, data
    # counted as the payload less the common header = 1032 B; an INIT-ACK (type 2) carries no data
    sack_data = _sctp(SERVER, CLIENT, [(3, 16), (0, 1016)])
    assert capture.data_bytes(sack_data, "sctp") == 1032
    assert capture.data_bytes(_sctp(SERVER, CLIENT, [(2, 100)]), "sctp") == 0
    # the same datagram read as QUIC: all of its UDP payload
    assert capture.data_bytes(sack_data, "quic") == 1044
    with pytest.raises(ValueError, match="udp"):
        capture.data_bytes(sack_data, "tcp")


def test_first_flight_from_a_lone_early_packet_is_short_and_fails():
    # The h2 server as it was, under CPU load (a capture of the reduced grid's point, RTT 50 ms, IW 10, times
    # rounded): the request leaves at 0.1221; the server's preface (113 B, written when the handshake
    # completed) arrives alone at 0.1592 and the client answers it at 0.1600 (its SETTINGS ACK), so the flight
    # ends at 0.1600 + 0.05 = 0.2100; the response's window of 10 packets, written 48 ms after the preface,
    # arrives from 0.2077 every 1.2 ms. Counted: the preface and the packets at 0.2077 and 0.2089 = 3 packets,
    # 113 + 2 x 1448 = 3009 B, ceil(3009 / 1448) = 3 full packets: the check of IW 10 fails, as it must when
    # the server's first packet after the request is not the window's.
    pk = [(0.0, _tcp(CLIENT, SERVER, 0)), (0.1065, _tcp(SERVER, CLIENT, 738)), (0.1221, _tcp(CLIENT, SERVER, 1448)),
          (0.1592, _tcp(SERVER, CLIENT, 113)), (0.1600, _tcp(CLIENT, SERVER, 40))]
    pk += [(0.2077 + 0.0012 * i, _tcp(SERVER, CLIENT, 1448)) for i in range(10)]
    ff = capture.first_flight(pk, 0.05, "sctp", request_time=0.1221)
    assert (ff["packets"], ff["bytes"], ff["full_packets"], ff["handshake_packets"]) == (3, 3009, 3, 1)
    assert not capture.iw_checked(ff, 10) and capture.iw_checked(ff, 3)


class _Transport:
    """What an asyncio transport needs to be for :class:`page_app._H2Server`: it keeps every write."""

    def __init__(self):
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_h2_server_writes_its_preface_with_the_responses_in_one_write():
    if importlib.util.find_spec("h2") is None:
        pytest.skip("h2 is not installed")
    import h2.config
    import h2.connection
    import h2.events

    sizes = [30000, 1, 5000]
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    client.initiate_connection()
    page_app._h2_open(client)
    preface = client.data_to_send()
    for i, size in enumerate(sizes):
        client.send_headers(client.get_next_available_stream_id(),
                            [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", b"x"),
                             (b":path", page_app._path(i, size))], end_stream=True)
    requests = client.data_to_send()
    transport = _Transport()
    server = page_app._H2Server()
    server.connection_made(transport)
    server.data_received(preface)  # the client's preface alone: nothing is answered, nothing is written
    assert transport.writes == []
    server.data_received(requests)
    assert len(transport.writes) == 1 and not transport.closed
    events = client.receive_data(transport.writes[0])
    # the server's preface first (its SETTINGS), then every response whole
    assert isinstance(events[0], h2.events.RemoteSettingsChanged)
    got, order = {}, []
    for e in events:
        if isinstance(e, h2.events.DataReceived):
            got[e.stream_id] = got.get(e.stream_id, 0) + len(e.data)
            order.append((e.stream_id, len(e.data)))
    assert [got[sid] for sid in (1, 3, 5)] == sizes
    assert sum(isinstance(e, h2.events.StreamEnded) for e in events) == len(sizes)
    # in turns of one frame of H2_DATA_FRAME_BYTES = 1417 B per unfinished stream: 1417, 1, 1417 B (stream
    # 3 ends), then streams 1 and 5 alternate until 5's 5000 B end (its 4th frame: 5000 - 3 x 1417 = 749 B),
    # then 1 alone
    frame = page_app.H2_DATA_FRAME_BYTES
    assert frame == 1417
    assert order[:6] == [(1, frame), (3, 1), (5, frame), (1, frame), (5, frame), (1, frame)]
    assert order[6:9] == [(5, frame), (1, frame), (5, 5000 - 3 * frame)]
    assert {sid for sid, _ in order[9:]} == {1}


def test_first_flight_without_a_response_is_an_error():
    with pytest.raises(ValueError, match="no server data after the request"):
        capture.first_flight([(0.0, _tcp(CLIENT, SERVER, 10)), (0.1, _tcp(SERVER, CLIENT, 0))], 0.1, "sctp")


# --- one page over the emulated link ------------------------------------------------------------

def _run(protocol: str, sizes: list[int], iw: int, pcap: Path | None, server_pcap: Path | None = None):
    """One page over a 50 Mbit/s, 40 ms link; return (server settings, client records, the client device's capture
    packets, the server device's capture packets); a capture not asked for is None."""
    link = Link(rate_bps=50e6, delay_s=0.02, queue_packets=200, mtu_bytes=1500)
    snap = capture.SNAP_BYTES[WIRE_KIND[protocol]]
    with tempfile.TemporaryDirectory() as tmp, Testbed(link, seed=3, tcp=TcpSettings(initcwnd=iw, sack=True,
                                                                                     timestamps=True)) as tb:
        cert, key = page_app.make_certificate(Path(tmp), netns.SERVER_IP)
        common = ["--protocol", protocol, "--port", "8443", "--address", netns.SERVER_IP, "--cert", str(cert)]
        py = [sys.executable, "-m", "paperlib.emulation.page_app"]
        srv = tb.popen("server", py + ["server", *common, "--key", str(key), "--iw", str(iw), "--timeout", "30"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        settings = json.loads(srv.stdout.readline())
        dumps = [experiments.start_capture(tb, path, side, snap)
                 for side, path in (("client", pcap), ("server", server_pcap)) if path]
        client = tb.popen("client", py + ["client", *common, "--objects", ",".join(map(str, sizes)),
                                          "--timeout", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = client.communicate(timeout=30)
        loaded = time.time()  # the page is in: what the captures hold after it is the teardown
        experiments.stop_captures(dumps)
        assert client.returncode == 0, err
    # read up to the page loaded, as paper 005's runs are (emulated.until: a teardown packet can sit in one capture)
    return (settings, [json.loads(x) for x in out.splitlines()],
            emulated.until(capture.read_pcap(pcap), loaded) if pcap else None,
            emulated.until(capture.read_pcap(server_pcap), loaded) if server_pcap else None)


#: The wire kind of each page protocol (:data:`paperlib.emulation.capture.WIRE_KINDS`).
WIRE_KIND = {"h2": "tcp-tls", "h3": "quic"}


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("protocol, iw", [(p, w) for p in page_app.PROTOCOLS for w in (3, 10)])
def test_page_over_the_link_and_its_first_flight(protocol, iw, tmp_path):
    if importlib.util.find_spec(PACKAGE[protocol]) is None:
        pytest.skip(f"{PACKAGE[protocol]} is not installed")
    sizes = [30000, 20000, 1000]  # 51 kB: more than IW 10 + a handshake packet or two of 1.5 kB (17.6 kB)
    expected = {"h2": 2, "h3": 1}[protocol]

    def attempt():
        settings, recs, packets, server_packets = _run(protocol, sizes, iw, tmp_path / "c.pcap", tmp_path / "s.pcap")
        wire = capture.wire_handshake(packets, server_packets, 0.04, WIRE_KIND[protocol], 50e6)
        return {"settings": settings, "recs": recs, "packets": packets, "wire": wire}

    # a run whose crossings the machine delivered late says nothing of the message flow: up to three runs
    got = on_time(attempt, 0.04)
    settings, recs, packets, wire = got["settings"], got["recs"], got["packets"], got["wire"]
    if protocol == "h3":
        assert settings["initial_window_datagrams"] == iw and settings["congestion_control"] == "reno"
    conn = next(r for r in recs if r["type"] == "conn")
    objects = sorted((r for r in recs if r["type"] == "object"), key=lambda r: r["object"])
    assert [o["bytes"] for o in objects] == sizes
    assert all(conn["t_first_request"] <= o["t_first_byte"] <= o["t_done"] <= conn["t_done"] for o in objects)
    # Handshake round trips before the first request, at RTT 40 ms, counted on the wire (both devices' captures,
    # the applications' holds taken out): TCP's SYN exchange and TLS 1.3's ClientHello -> Finished are 2 (RFC 8446
    # section 2), QUIC's Initial/Handshake exchange 1 (RFC 9001 section 4.1), within 0.1 of a round trip on a
    # loss-free link. The client's clock includes both applications' processing (aioquic's handshake has taken
    # 0.68 of this round trip on a busy machine), so it is only bounded below by the wire count.
    assert wire["protocol_rtts"] == pytest.approx(expected, abs=0.1), wire
    h = (conn["t_first_request"] - conn["t_connect_start"]) / 0.04
    assert h >= expected - 0.1
    ff = capture.first_flight(packets, 0.04, "quic" if protocol == "h3" else "sctp",
                              conn["realtime_first_request"])
    assert capture.iw_checked(ff, iw), ff
