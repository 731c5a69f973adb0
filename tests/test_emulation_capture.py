"""The packet capture of an emulated run and its cross-check against the application and the link
(paperlib.emulation.capture). The testbed run (about 15 s on 2 cores) skips with the reason where the
machine has no root, TUN or namespaces."""

import pytest

from paperlib.emulation import capture, experiments, netns

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def test_pcap_reader_rejects_other_files(tmp_path):
    bad = tmp_path / "x.pcap"
    bad.write_bytes(b"\0" * 40)
    with pytest.raises(ValueError, match="not a pcap"):
        capture.read_pcap(bad)


@needs_testbed
@pytest.mark.parametrize("protocol", experiments.protocols())
def test_one_run_agrees_with_its_capture_and_the_link(protocol):
    # 20 000 B at 1 Mbit/s, RTT 0.1 s, no loss: at least the serialisation of 20 000 B (0.16 s) plus the
    # handshake and request round trips (0.2 s); the capture and the application agree within 5 ms
    params = dict(paper="004", protocol=protocol, rate_bps=1e6, rtt_s=0.1, loss=0.0, queue_packets=100,
                  mss_bytes=1460, initcwnd=2, object_bytes=20000, objects=1, users=1, mode="per_object", rep=0)
    row = capture.crosscheck(params, seed=2)
    assert row["app_latency_s"] >= 0.16 + 0.2
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
