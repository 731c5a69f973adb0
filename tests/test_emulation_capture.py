"""The packet capture of an emulated run and its cross-check against the application and the link
(paperlib.emulation.capture), and handshakes counted on the wire from synthetic captures of both devices
built byte by byte. The testbed run (about 15 s on 2 cores) skips with the reason where the machine has no
root, TUN or namespaces."""

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.emulation import capture, experiments, netns

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def test_pcap_reader_rejects_other_files(tmp_path):
    bad = tmp_path / "x.pcap"
    bad.write_bytes(b"\0" * 40)
    with pytest.raises(ValueError, match="not a pcap"):
        capture.read_pcap(bad)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("protocol", experiments.protocols())
def test_one_run_agrees_with_its_capture_and_the_link(protocol):
    # 20 000 B at 1 Mbit/s, RTT 0.1 s, no loss: at least the serialisation of 20 000 B (0.16 s) plus the
    # handshake and request round trips (0.2 s); the capture and the application agree within 5 ms
    # -- on a run that kept its timing (crosscheck runs up to three): a busy machine makes the application's clock
    # lag the wire by the CPU it waited for, which says nothing about the two clocks
    params = dict(paper="004", protocol=protocol, rate_bps=1e6, rtt_s=0.1, loss=0.0, queue_packets=100,
                  mss_bytes=1460, initcwnd=2, object_bytes=20000, objects=1, users=1, mode="per_object", rep=0)
    row = capture.crosscheck(params, seed=2)
    assert row["app_latency_s"] >= 0.16 + 0.2
    if not row["fidelity_kept"]:
        pytest.skip(f"no run of {row['fidelity_tries']} kept its timing on this machine now: {row['fidelity_broken']}")
    assert abs(row["difference_s"]) < 5e-3


def _pcap(packets, magic=0xA1B2C3D4, end="<", linktype=101) -> bytes:
    import struct

    out = struct.pack(end + "IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for sec, frac, ip in packets:
        out += struct.pack(end + "IIII", sec, frac, len(ip), len(ip)) + ip
    return out


def _ipv4_tcp(src: str, dst: str, payload: int) -> bytes:
    # 20 B IPv4 header (IHL 5, protocol 6) + 20 B TCP header (data offset 5) + payload
    import struct

    total = 20 + 20 + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 0, 0, 64, 6, 0, bytes(int(x) for x in src.split(".")),
                     bytes(int(x) for x in dst.split(".")))
    return ip + bytes([0] * 12 + [0x50] + [0] * 7) + b"x" * payload


def test_capture_latency_from_a_hand_made_pcap(tmp_path):
    c, s = netns.CLIENT_IP, netns.SERVER_IP
    packets = [(1, 1, _ipv4_tcp(c, s, 0)),  # the client's SYN at 1.000001 s
               (1, 250_000, _ipv4_tcp(s, c, 100)),  # the server's last data at 1.25 s
               (1, 300_000, _ipv4_tcp(s, c, 0))]  # a pure ACK later: no payload, not counted
    path = tmp_path / "run.pcap"
    path.write_bytes(_pcap(packets))
    read = capture.read_pcap(path)
    assert [t for t, _ in read] == pytest.approx([1.000001, 1.25, 1.3])
    # 1.25 - 1.000001 = 0.249999 s
    assert capture.capture_latency_s(read) == pytest.approx(0.249999, abs=1e-9)
    # the same packets big-endian with nanosecond stamps read the same
    path.write_bytes(_pcap([(1, 1000, packets[0][2]), (1, 250_000_000, packets[1][2])], magic=0xA1B23C4D, end=">"))
    assert [t for t, _ in capture.read_pcap(path)] == pytest.approx([1.000001, 1.25])
    path.write_bytes(_pcap(packets, linktype=1))  # Ethernet
    with pytest.raises(ValueError, match="link type 1, expected raw IP"):
        capture.read_pcap(path)


# --- handshakes counted on the wire: synthetic captures built byte by byte --------------------------------
#
# The link of every case: rate 8 Mbit/s, so a packet of L bytes takes L microseconds to serialise; one-way
# delay 25 ms (rtt_s = 0.05). A packet departs on its sender's device at `dep`, leaves the link's queue at
# link_done = max(dep, previous link_done) + L us, and arrives on the receiver's device at link_done + 25 ms.


RATE, RTT = 8e6, 0.05
C, S = netns.CLIENT_IP, netns.SERVER_IP


def _ip(src: str, dst: str, proto: int, body: bytes, ident: int = 0) -> bytes:
    """IPv4 header (20 B, no options) + ``body``; the total length is the real one."""
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), ident, 0, 64, proto, 0,
                       bytes(int(x) for x in src.split(".")), bytes(int(x) for x in dst.split("."))) + body


def _seg(src, dst, seq, flags, payload=b"", size=None) -> bytes:
    """TCP segment (20-B header: data offset 5) with ``payload`` padded with zeros to ``size`` bytes."""
    payload = payload + bytes((size or len(payload)) - len(payload))
    return _ip(src, dst, 6, struct.pack("!HHIIBBHHH", 40000 if src == C else 443, 443 if src == C else 40000, seq,
                                        0, 0x50, flags, 65535, 0, 0) + payload)


SYN, ACK = 0x02, 0x10


def _record(kind: int, length: int) -> bytes:
    """A TLS record: type, legacy version 0x0303, length, then ``length`` bytes."""
    return struct.pack("!BHH", kind, 0x0303, length) + bytes(length)


def _tcp_tls_run(lost_s3: bool = False):
    """The client's and the server's captures of a TCP + TLS 1.3 handshake, request and response.

    Client ISN 0 (stream offset = seq - 1), server ISN 0. Hand-made times (s), by the link rule above:
      C1 SYN 40 B        dep 1.000000, link_done 1.000040, arr 1.025040
      S1 SYN-ACK 40 B    dep 1.025100 (server hold 60 us), link_done 1.025140, arr 1.050140
      C2 ACK 40 B        dep 1.050200 (pure ACK: carries nothing), link_done 1.050240, arr 1.075240
      C3 ClientHello     dep 1.051140 (client hold 1 ms), 340 B (record 0x16, 295 B), link_done 1.051480,
                         arr 1.076480
      S2 server flight   dep 1.078480 (server hold 2 ms), 1500 B, link_done 1.079980, arr 1.104980
      S3 server flight   dep 1.078490, 540 B, link_done max(1.078490, 1.079980) + 540 us = 1.080520, arr 1.105520
      C4 ACK 40 B        dep 1.105600, link_done 1.105640, arr 1.130640
      C5 CCS + Finished  dep 1.107520 (client hold 2 ms after S3), 104 B: records 0x14 (1 B) and 0x17 (53 B),
                         link_done 1.107624, arr 1.132624
      C6 request         dep 1.117520 (the application writes it 10 ms later), 240 B: record 0x17 (195 B),
                         link_done 1.117760, arr 1.142760
      S4 response        dep 1.152760 (server hold 10 ms), 1500 B, link_done 1.154260, arr 1.179260
    ``lost_s3``: S3 is lost on the link and the server sends it again (same bytes) at 1.278490: link_done
    1.279030, arr 1.304030; C4 (its ACK of S2) departs at 1.105100 (arr 1.130140) and C5 at 1.306030 (2 ms
    after S3's second copy), C6 at 1.316030, S4 at 1.361270 (C6 arr 1.341270, link_done 1.341510 from 1.316030:
    hold 10 ms from 1.341270 gives 1.351270; S4 dep 1.351270, link_done 1.352770, arr 1.377770).
    """
    c1 = _seg(C, S, 0, SYN)
    s1 = _seg(S, C, 0, SYN | ACK)
    c2 = _seg(C, S, 1, ACK)
    c3 = _seg(C, S, 1, ACK, _record(0x16, 295))
    s2 = _seg(S, C, 1, ACK, _record(0x16, 90) + _record(0x14, 1) + _record(0x17, 1000), size=1460)
    s3 = _seg(S, C, 1461, ACK, size=500)
    c4 = _seg(C, S, 301, ACK)
    c5 = _seg(C, S, 301, ACK, _record(0x14, 1) + _record(0x17, 53))
    c6 = _seg(C, S, 365, ACK, _record(0x17, 195))
    s4 = _seg(S, C, 1961, ACK, _record(0x17, 1455), size=1460)
    if not lost_s3:
        client = [(1.000000, c1), (1.050140, s1), (1.050200, c2), (1.051140, c3), (1.104980, s2), (1.105520, s3),
                  (1.105600, c4), (1.107520, c5), (1.117520, c6), (1.179260, s4)]
        server = [(1.025040, c1), (1.025100, s1), (1.075240, c2), (1.076480, c3), (1.078480, s2), (1.078490, s3),
                  (1.130640, c4), (1.132624, c5), (1.142760, c6), (1.152760, s4)]
        return client, server
    client = [(1.000000, c1), (1.050140, s1), (1.050200, c2), (1.051140, c3), (1.104980, s2), (1.105100, c4),
              (1.304030, s3), (1.306030, c5), (1.316030, c6), (1.377770, s4)]
    server = [(1.025040, c1), (1.025100, s1), (1.075240, c2), (1.076480, c3), (1.078480, s2), (1.078490, s3),
              (1.130140, c4), (1.278490, s3), (1.331134, c5), (1.341270, c6), (1.351270, s4)]
    return client, server


def test_tcp_tls_handshake_on_the_wire():
    client, server = _tcp_tls_run()
    w = capture.wire_handshake(client, server, RTT, "tcp-tls", RATE)
    # t_first = C1 1.0; t_request = C5 (the first client record of type 0x17: the Finished) 1.107520
    assert (w["t_first"], w["t_request"]) == (1.0, 1.107520)
    # wire 0.107520 s = 2.1504 round trips
    assert w["wire_s"] == pytest.approx(0.107520, abs=1e-9) and w["wire_rtts"] == pytest.approx(2.1504, abs=1e-7)
    # path C1 -> S1 -> C3 -> S3 -> C5: 4 crossings; transits 0.025040 + 0.025040 + 0.025340 + 0.027030 =
    # 0.102450; serialisation 40 + 40 + 340 + (1500 + 540 - 10) us = 0.002450; server holds 60 us + (S2 - C3's
    # arrival 2 ms + S3 10 us after S2, new data: its processing) = 0.002070; client holds 1 ms (C3 after S1;
    # C2 is a pure ACK) + 2 ms (C5 after S3) = 0.003
    assert w["crossings"] == 4
    assert w["transit_s"] == pytest.approx(0.102450, abs=1e-9)
    assert w["serialisation_s"] == pytest.approx(0.002450, abs=1e-9)
    assert w["server_hold_s"] == pytest.approx(0.002070, abs=1e-9)
    assert w["client_hold_s"] == pytest.approx(0.003, abs=1e-9) and w["wait_s"] == 0.0
    # protocol: (0.107520 - 0.005070 - 0.002450) / 0.05 = 0.1 / 0.05 = 2 round trips; processing 0.005070 s
    assert w["protocol_rtts"] == pytest.approx(2.0, abs=1e-7)
    assert w["processing_s"] == pytest.approx(0.005070, abs=1e-9)
    assert w["processing_rtts"] == pytest.approx(0.1014, abs=1e-7)


def test_tcp_tls_first_byte_on_the_wire():
    client, server = _tcp_tls_run()
    t = capture.wire_ttfb(client, server, RTT, "tcp-tls", RATE)
    # response S4 arrives 1.179260: 0.179260 s after C1 = 3.5852 round trips
    assert t["t_response"] == 1.179260 and t["ttfb_wire_s"] == pytest.approx(0.179260, abs=1e-9)
    # path C1 -> S1 -> C3 -> S3 -> C6 -> S4: 6 crossings; the client's hold after S3 runs to C6 (C5 at 2 ms,
    # then the request 10 ms later, new data: processing) = 0.012, plus 1 ms = 0.013; server 60 us + 2.01 ms +
    # 10 ms (S4 after C6's arrival) = 0.012070; serialisation 0.002450 - 0 (C5 is off this path) + C6 240 us +
    # S4 1500 us = 0.004190; protocol (0.179260 - 0.025070 - 0.004190) / 0.05 = 0.15 / 0.05 = 3
    assert t["ttfb_crossings"] == 6
    assert t["ttfb_client_hold_s"] == pytest.approx(0.013, abs=1e-9)
    assert t["ttfb_server_hold_s"] == pytest.approx(0.012070, abs=1e-9)
    assert t["ttfb_serialisation_s"] == pytest.approx(0.004190, abs=1e-9)
    assert t["ttfb_protocol_rtts"] == pytest.approx(3.0, abs=1e-7)


def test_a_retransmitted_server_flight_counts_its_wait():
    client, server = _tcp_tls_run(lost_s3=True)
    w = capture.wire_handshake(client, server, RTT, "tcp-tls", RATE)
    # C5 at 1.306030: wire 0.306030 s. S3's second copy (same bytes, the first lost) is matched to the copy that
    # left at least 25 ms before its arrival (1.278490). Path C1 -> S1 -> C3 -> S3' -> C5: the server answered
    # C3 with S2 after 2 ms and S3' repeats data sent before (sequence 1461 < 1961): its 0.200010 s are the
    # protocol's wait, not processing. Serialisation 40 + 40 + 340 + 540 us = 0.000960; holds: server 60 us +
    # 2 ms, client 1 ms + 2 ms = 0.005060; protocol (0.306030 - 0.005060 - 0.000960) / 0.05 = 0.30001 / 0.05 =
    # 6.0002 round trips: the 2 of the message flow and the 0.2 s retransmission wait (4 round trips)
    assert w["wire_s"] == pytest.approx(0.306030, abs=1e-9)
    assert w["wait_s"] == pytest.approx(0.200010, abs=1e-9)
    assert w["processing_s"] == pytest.approx(0.005060, abs=1e-9)
    assert w["serialisation_s"] == pytest.approx(0.000960, abs=1e-9)
    assert w["protocol_rtts"] == pytest.approx(6.0002, abs=1e-7)


def _quic(first: int, body_len: int, version: int = 1, token: bool = True) -> bytes:
    """A QUIC long-header packet (RFC 9000 section 17.2): first byte, version, DCID (8 B), SCID (8 B), for an
    Initial a token length of 0, a 2-byte Length of ``body_len`` and ``body_len`` bytes."""
    out = bytes([first]) + struct.pack("!I", version) + bytes([8]) + b"D" * 8 + bytes([8]) + b"S" * 8
    if token:
        out += b"\x00"
    return out + struct.pack("!H", 0x4000 | body_len) + b"\x01" * body_len


INITIAL, HANDSHAKE = 0xC3, 0xE3  # long header, fixed bit, type 0 or 2, 4-byte packet number
SHORT = 0x43  # short header (1-RTT): high bit clear, fixed bit set


def _udp(src, dst, payload: bytes, size: int | None = None) -> bytes:
    payload = payload + bytes((size - 28 if size else len(payload)) - len(payload))  # zeros: padding, no packet
    return _ip(src, dst, 17, struct.pack("!HHHH", 40000 if src == C else 443, 443 if src == C else 40000,
                                         8 + len(payload), 0) + payload)


def _quic_run(lost_initial: bool = False):
    """The captures of a QUIC handshake, its coalesced Finished + 1-RTT flight and a response.

      C1 Initial, zeros after it to 1200 B   dep 2.000000, link_done 2.001200, arr 2.026200
      S1 Initial + Handshake, 1200 B         dep 2.028200 (hold 2 ms), link_done 2.029400, arr 2.054400
      C2 Initial + Handshake + 1-RTT, 1200 B dep 2.057400 (hold 3 ms), link_done 2.058600, arr 2.083600
      S2 1-RTT, 1200 B                       dep 2.093600 (hold 10 ms), link_done 2.094800, arr 2.119800
    ``lost_initial``: C1 is lost (never reaches the server) and the client sends a new Initial at its probe
    timeout, 2.200000: everything after moves 0.2 s later.
    """
    c1 = _udp(C, S, _quic(INITIAL, 300), size=1200)
    c1b = _udp(C, S, _quic(INITIAL, 301), size=1200)  # the probe's new Initial (other bytes)
    s1 = _udp(S, C, _quic(INITIAL, 100) + _quic(HANDSHAKE, 900, token=False), size=1200)
    c2 = _udp(C, S, _quic(INITIAL, 40) + _quic(HANDSHAKE, 60, token=False) + bytes([SHORT]) + b"\x02" * 50, size=1200)
    s2 = _udp(S, C, bytes([SHORT]) + b"\x03" * 1100, size=1200)
    if not lost_initial:
        return ([(2.0, c1), (2.054400, s1), (2.057400, c2), (2.119800, s2)],
                [(2.026200, c1), (2.028200, s1), (2.083600, c2), (2.093600, s2)])
    return ([(2.0, c1), (2.2, c1b), (2.254400, s1), (2.257400, c2), (2.319800, s2)],
            [(2.226200, c1b), (2.228200, s1), (2.283600, c2), (2.293600, s2)])


def test_quic_packets_of_a_datagram():
    client, server = _quic_run()
    # C1: one Initial, then zero bytes (no fixed bit: padding, not a 1-RTT packet); C2: three coalesced packets
    assert capture.quic_packet_types(client[0][1]) == ["initial"]
    assert capture.quic_packet_types(client[2][1]) == ["initial", "handshake", "1rtt"]
    with pytest.raises(ValueError, match="larger snap length"):
        # IP and UDP 28 B + Initial 26 + 40 B = 94: cut at 100, inside the Handshake packet's header
        capture.quic_packet_types(client[2][1][:100])


def test_quic_handshake_and_first_byte_on_the_wire():
    client, server = _quic_run()
    w = capture.wire_handshake(client, server, RTT, "quic", RATE)
    # t_request = C2 (its third packet is 1-RTT) at 2.0574: wire 0.0574 s = 1.148 round trips; path C1 -> S1 ->
    # C2: transits 0.0262 + 0.0262, serialisation 1.2 + 1.2 ms, holds 2 ms (server) and 3 ms (client);
    # protocol (0.0574 - 0.005 - 0.0024) / 0.05 = 0.05 / 0.05 = 1
    assert w["t_request"] == 2.057400 and w["wire_rtts"] == pytest.approx(1.148, abs=1e-7)
    assert (w["crossings"], w["server_hold_s"], w["client_hold_s"]) == (2, pytest.approx(0.002), pytest.approx(0.003))
    assert w["protocol_rtts"] == pytest.approx(1.0, abs=1e-7)
    t = capture.wire_ttfb(client, server, RTT, "quic", RATE)
    # S2 arrives 2.1198: 0.1198 s; holds 0.015 (10 ms more at the server), serialisation 4 x 1.2 ms;
    # protocol (0.1198 - 0.015 - 0.0048) / 0.05 = 2
    assert t["ttfb_wire_s"] == pytest.approx(0.1198, abs=1e-9) and t["ttfb_protocol_rtts"] == pytest.approx(2.0)


def test_a_lost_initial_counts_the_probe_timeout():
    client, server = _quic_run(lost_initial=True)
    w = capture.wire_handshake(client, server, RTT, "quic", RATE)
    # nothing arrived before the second Initial (2.2): its 0.2 s wait is the protocol's. wire 0.2574 s; holds
    # 0.005, serialisation 0.0024 (the lost Initial takes no link time); protocol (0.2574 - 0.005 - 0.0024) /
    # 0.05 = 0.25 / 0.05 = 5 round trips (1 + the 0.2 s timeout)
    assert w["wait_s"] == pytest.approx(0.2) and w["wire_rtts"] == pytest.approx(5.148, abs=1e-7)
    assert w["protocol_rtts"] == pytest.approx(5.0, abs=1e-7) and w["crossings"] == 2


def _sctp(src, dst, *chunks: tuple[int, int]) -> bytes:
    """An SCTP packet over UDP: common header (12 B) and chunks (type, length) padded to 4 B; a DATA chunk's
    TSN (bytes 4-7) is 7."""
    body = b""
    for kind, length in chunks:
        chunk = struct.pack("!BBH", kind, 0, length) + (struct.pack("!I", 7) if kind == 0 else b"")
        body += chunk + bytes(-(-length // 4) * 4 - len(chunk))
    return _udp(src, dst, bytes(12) + body)


def test_sctp_handshake_and_first_byte_on_the_wire():
    # INIT (20 B chunk: 60 B)   dep 3.000000, link_done 3.000060, arr 3.025060
    # INIT-ACK (300: 340 B)     dep 3.025160, link_done 3.025500, arr 3.050500
    # COOKIE-ECHO (280: 320 B)  dep 3.050600, link_done 3.050920, arr 3.075920
    # COOKIE-ACK (4: 44 B)      dep 3.076020, link_done 3.076064, arr 3.101064
    # DATA request (36: 76 B)   dep 3.101164, link_done 3.101240, arr 3.126240
    # SACK + DATA (16 + 1016: 1072 B) dep 3.136240, link_done 3.137312, arr 3.162312
    pk = [_sctp(C, S, (1, 20)), _sctp(S, C, (2, 300)), _sctp(C, S, (10, 280)), _sctp(S, C, (11, 4)),
          _sctp(C, S, (0, 36)), _sctp(S, C, (3, 16), (0, 1016))]
    assert capture.sctp_chunk_types(pk[5]) == [3, 0]
    client = [(3.0, pk[0]), (3.050500, pk[1]), (3.050600, pk[2]), (3.101064, pk[3]), (3.101164, pk[4]),
              (3.162312, pk[5])]
    server = [(3.025060, pk[0]), (3.025160, pk[1]), (3.075920, pk[2]), (3.076020, pk[3]), (3.126240, pk[4]),
              (3.136240, pk[5])]
    w = capture.wire_handshake(client, server, RTT, "sctp", RATE)
    # 4 crossings, holds 4 x 100 us, serialisation 60 + 340 + 320 + 44 = 764 us; wire 0.101164 s;
    # protocol (0.101164 - 0.0004 - 0.000764) / 0.05 = 2 (usrsctp sends DATA after the COOKIE-ACK)
    assert w["crossings"] == 4 and w["processing_s"] == pytest.approx(0.0004, abs=1e-9)
    assert w["protocol_rtts"] == pytest.approx(2.0, abs=1e-7)
    t = capture.wire_ttfb(client, server, RTT, "sctp", RATE)
    # response 0.162312 s; holds 0.0004 + 0.010; serialisation 764 + 76 + 1072 us; protocol 0.15 / 0.05 = 3
    assert t["ttfb_wire_s"] == pytest.approx(0.162312, abs=1e-9) and t["ttfb_protocol_rtts"] == pytest.approx(3.0)


def test_malformed_captures_name_what_is_missing():
    client, server = _tcp_tls_run()
    with pytest.raises(ValueError, match="no TLS application_data record"):
        capture.wire_handshake(client[:7], server[:7], RTT, "tcp-tls", RATE)  # cut before the Finished
    with pytest.raises(ValueError, match="not a TCP SYN"):
        capture.wire_handshake(client[1:], server[1:], RTT, "tcp-tls", RATE)
    with pytest.raises(ValueError, match="no packet from the client"):
        capture.wire_handshake([], server, RTT, "tcp-tls", RATE)
    with pytest.raises(ValueError, match="no sent packet to match"):
        capture.wire_handshake(client, server + [(1.2, _seg(C, S, 999, ACK, b"x"))], RTT, "tcp-tls", RATE)
    with pytest.raises(ValueError, match="larger snap length"):
        # 40 B of IP and TCP headers + 8 B of payload: C5's Finished record header (payload bytes 6-10) is cut
        capture.wire_handshake([(t, ip[:48]) for t, ip in client], [(t, ip[:48]) for t, ip in server], RTT,
                               "tcp-tls", RATE)
    with pytest.raises(ValueError, match="no response"):
        capture.wire_ttfb(client[:-1], server[:-1], RTT, "tcp-tls", RATE)
    q_client, q_server = _quic_run()
    with pytest.raises(ValueError, match="1-RTT"):
        capture.wire_handshake(q_client[:2], q_server[:2], RTT, "quic", RATE)
    with pytest.raises(ValueError, match="kind"):
        capture.wire_handshake(client, server, RTT, "tcp", RATE)


def test_alike_packets_queued_back_to_back_are_matched_in_order():
    # Two identical pure ACKs (no timestamps: same bytes) leave at 1.000 and 1.001 s and wait in the link's queue, so
    # both arrive (1.030, 1.031) more than the one-way delay (25 ms) after the second left. Each arrival could come
    # from either copy by the one-way rule; the first must be the first copy, or the second arrival has none left.
    ack, src = _seg(C, S, 1, ACK), bytes(int(x) for x in C.split("."))
    sent = capture._direction([(1.000, ack), (1.001, ack)], [(1.030, ack), (1.031, ack)], src, RATE, RTT / 2)
    assert [p.arr for p in sent] == [1.030, 1.031]
    # one copy received, the other lost: the rule still matches it to the last copy that left a one-way delay before
    sent = capture._direction([(1.000, ack), (1.300, ack)], [(1.326, ack)], src, RATE, RTT / 2)
    assert [p.arr for p in sent] == [None, 1.326]


def test_an_extra_exchange_counts_a_round_trip():
    # A HelloRetryRequest (RFC 8446 section 4.1.4): the server answers C3 with a 140-B HRR and the client sends
    # a second ClientHello before the server's flight.
    #   C1, S1, C2, C3 as in _tcp_tls_run (C3 arr 1.076480)
    #   HRR 140 B   dep 1.077480 (server hold 1 ms), link_done 1.077620, arr 1.102620
    #   CH2 340 B   dep 1.103620 (client hold 1 ms), link_done 1.103960, arr 1.128960
    #   S2 1500 B   dep 1.129960 (1 ms), link_done 1.131460, arr 1.156460
    #   S3 540 B    dep 1.129970, link_done 1.132000, arr 1.157000
    #   C5 104 B    dep 1.159000 (2 ms)
    c1, s1, c2, c3 = (_seg(C, S, 0, SYN), _seg(S, C, 0, SYN | ACK), _seg(C, S, 1, ACK),
                      _seg(C, S, 1, ACK, _record(0x16, 295)))
    hrr = _seg(S, C, 1, ACK, _record(0x16, 95))
    ch2 = _seg(C, S, 301, ACK, _record(0x16, 295))
    s2 = _seg(S, C, 101, ACK, size=1460)
    s3 = _seg(S, C, 1561, ACK, size=500)
    c5 = _seg(C, S, 601, ACK, _record(0x14, 1) + _record(0x17, 53))
    client = [(1.0, c1), (1.050140, s1), (1.050200, c2), (1.051140, c3), (1.102620, hrr), (1.103620, ch2),
              (1.156460, s2), (1.157000, s3), (1.159000, c5)]
    server = [(1.025040, c1), (1.025100, s1), (1.075240, c2), (1.076480, c3), (1.077480, hrr), (1.128960, ch2),
              (1.129960, s2), (1.129970, s3), (1.184104, c5)]
    w = capture.wire_handshake(client, server, RTT, "tcp-tls", RATE)
    # 6 crossings; serialisation 40 + 40 + 340 + 140 + 340 + 2030 us = 0.002930; holds: server 60 us + 1 ms +
    # 1.01 ms = 0.002070, client 1 + 1 + 2 ms = 0.004; protocol (0.159 - 0.00607 - 0.00293) / 0.05 = 3
    assert w["crossings"] == 6 and w["serialisation_s"] == pytest.approx(0.002930, abs=1e-9)
    assert w["processing_s"] == pytest.approx(0.006070, abs=1e-9)
    assert w["protocol_rtts"] == pytest.approx(3.0, abs=1e-7)


@given(delta=st.floats(min_value=0.0, max_value=0.5))
def test_processing_moves_the_wire_figure_but_not_the_protocol_count(delta):
    # the server takes `delta` longer before its TLS flight: every packet from S2 on leaves and arrives delta
    # later; the wire grows by delta, the server's hold by delta, the protocol count stays 2
    client, server = _tcp_tls_run()
    client = [(t + delta if t >= 1.078480 else t, ip) for t, ip in client]
    server = [(t + delta if t >= 1.078480 else t, ip) for t, ip in server]
    w = capture.wire_handshake(client, server, RTT, "tcp-tls", RATE)
    assert w["wire_s"] == pytest.approx(0.107520 + delta, abs=1e-9)
    assert w["server_hold_s"] == pytest.approx(0.002070 + delta, abs=1e-9)
    assert w["protocol_rtts"] == pytest.approx(2.0, abs=1e-7)


@needs_testbed
@pytest.mark.exclusive  # real stacks on the wall clock: alone under pytest -n
def test_captures_written_in_blocks_hold_every_packet_of_the_run_at_their_stop(tmp_path):
    # tcpdump runs without --immediate-mode (the kernel hands it packets in blocks, a block at the latest a second
    # after its first packet) and the run stops both captures at once, right after its last packet: stop_captures
    # must wait for each one's last block. On a loss-free link every packet one device sends reaches the other, so
    # both files hold the same packets: 40 kB over TCP (about 28 data segments and their ACKs, the handshake and
    # the teardown), all of them, none dropped
    import subprocess

    from paperlib.emulation import standin_app

    link = netns.Link(rate_bps=1e6, delay_s=0.01, loss_down=0.0, queue_packets=100, mtu_bytes=1500)
    pcaps = {side: tmp_path / f"{side}.pcap" for side in ("client", "server")}
    with netns.Testbed(link, seed=1) as tb:
        dumps = [experiments.start_capture(tb, pcap, side) for side, pcap in pcaps.items()]
        try:
            server = tb.popen("server", standin_app.server_argv("tcp", netns.SERVER_IP, experiments.PORT),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert server.stdout.readline().strip(), "the stand-in server did not start"
            client = tb.popen("client", standin_app.client_argv("tcp", netns.SERVER_IP, experiments.PORT, 40_000,
                                                                  1, 1, "per_object"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            netns.finish(client, 30, "the stand-in client")
        finally:
            counts = experiments.stop_captures(dumps)
    client_packets, server_packets = (capture.read_pcap(pcap) for pcap in pcaps.values())
    assert all(c.complete and c.dropped == 0 for c in counts), counts
    assert [c.captured for c in counts] == [len(client_packets), len(server_packets)]
    # the run's packets are IPv4; the kernel's own IPv6 packets when a device comes up (router solicitation,
    # multicast listener reports) may fall in one capture's window and not the other's, and are not the run's
    run_client, run_server = ([ip for _, ip in packets if ip[0] >> 4 == 4] for packets in (client_packets,
                                                                                           server_packets))
    assert all(ip[0] >> 4 == 6 for _, ip in client_packets + server_packets if ip[0] >> 4 != 4)
    assert len(run_client) == len(run_server) >= 28 + 3


def test_wire_late_allows_each_crossing_its_share_of_the_rtt():
    from tests.fidelity_helpers import wire_late

    # 4 crossings at RTT 40 ms propagate in 80 ms; 2% of an RTT each allows 4 x 0.8 = 3.2 ms
    on_time = {"crossings": 4, "propagation_s": 0.0831}
    late = {"crossings": 4, "propagation_s": 0.0833}
    assert wire_late(on_time, 0.04) is None
    why = wire_late(late, 0.04)
    assert why is not None and "3.30 ms" in why and "handshake" in why
    # the response's path is read too, under its prefix
    assert "ttfb_crossings (5)" in wire_late({**on_time, "ttfb_crossings": 5, "ttfb_propagation_s": 0.106}, 0.04)
