"""Packet-capture cross-check: the applications' own latency against tcpdump on the client's TUN device.

:func:`crosscheck` runs one single-user, one-object experiment with ``tcpdump`` on the client's device
and compares the application's latency (``t_done - t_start``, its CLOCK_MONOTONIC) with the capture's
(first packet the client sends to the server's port or UDP encapsulation port -> last packet from the
server carrying payload). Both clocks tick at the same rate on one host, so durations compare directly;
the capture sees the first packet after ``connect`` started and the last one before the application
reads it, so the two agree to within the stack's processing time (well below a millisecond).
"""

from __future__ import annotations

import struct
import tempfile
from pathlib import Path

from paperlib.emulation import experiments, netns

_LINKTYPE_RAW = (101, 12, 228)


def read_pcap(path: Path) -> list[tuple[float, bytes]]:
    """Return (timestamp s, IP packet bytes) of a raw-IP pcap file (tcpdump on a TUN device)."""
    data = Path(path).read_bytes()
    if len(data) < 24:
        raise ValueError(f"{path}: not a pcap file (shorter than its header)")
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        end = "<"
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        end = ">"
    else:
        raise ValueError(f"{path}: not a pcap file (magic {magic:#x})")
    scale = 1e-9 if magic in (0xA1B23C4D, 0x4D3CB2A1) else 1e-6
    linktype = struct.unpack(end + "I", data[20:24])[0]
    if linktype not in _LINKTYPE_RAW:
        raise ValueError(f"{path}: link type {linktype}, expected raw IP (TUN)")
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append((sec + frac * scale, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def _payload_len(ip: bytes) -> int:
    """Return the transport payload length of an IPv4 packet (TCP payload, or UDP payload for usrsctp)."""
    total = struct.unpack("!H", ip[2:4])[0]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] == 6:  # TCP
        return total - ihl - (ip[ihl + 12] >> 4) * 4
    if ip[9] == 17:  # UDP: SCTP common header 12 B; payload beyond it counts only if a DATA chunk is there
        return max(0, total - ihl - 8 - 12 - 16) if len(ip) > ihl + 20 and ip[ihl + 20] == 0 else 0
    return 0


def capture_latency_s(packets: list[tuple[float, bytes]]) -> float:
    """Return last server packet with payload minus first client packet, in seconds."""
    server = bytes(int(x) for x in netns.SERVER_IP.split("."))
    client = bytes(int(x) for x in netns.CLIENT_IP.split("."))
    first = next(t for t, ip in packets if ip[12:16] == client)
    last = max(t for t, ip in packets if ip[12:16] == server and _payload_len(ip) > 0)
    return last - first


def crosscheck(params: dict, seed: int = 1) -> dict:
    """Return the application's and the capture's latency of one run of ``params`` (users = objects = 1)."""
    if params.get("users") != 1 or params.get("objects") != 1:
        raise ValueError("crosscheck needs users = 1 and objects = 1 (one transfer to time)")
    with tempfile.TemporaryDirectory() as tmp:
        pcap = Path(tmp) / "client.pcap"
        result = experiments.run_point_captured(params, seed, pcap)
        packets = read_pcap(pcap)
    app = result["t_done"][0] - result["t_start"][0]
    cap = capture_latency_s(packets)
    return {"protocol": params["protocol"], "rate_bps": params["rate_bps"], "app_latency_s": app,
            "capture_latency_s": cap, "difference_s": app - cap, "packets": len(packets)}


# --- the first flight of a response (paper 005) ----------------------------------------------------

#: How a UDP packet's data is read: ``"sctp"`` (usrsctp's UDP encapsulation: a packet carries data when
#: one of its chunks is DATA or I-DATA) or ``"quic"`` (every datagram: QUIC encrypts its frames, so the
#: capture cannot tell data from control).
UDP_KINDS = ("sctp", "quic")
_SCTP_DATA_CHUNKS = (0, 64)


def data_bytes(ip: bytes, udp: str) -> int:
    """Return the bytes of transport payload an IPv4 packet carries, 0 if it carries no data.

    TCP: the segment's payload. UDP with ``udp`` "sctp": the UDP payload less the 12-byte SCTP common
    header when a DATA or I-DATA chunk is among the chunks the capture holds (a SACK may come first),
    else 0. UDP with ``udp`` "quic": the UDP payload.
    """
    if udp not in UDP_KINDS:
        raise ValueError(f"udp must be one of {UDP_KINDS}, got {udp!r}")
    total = struct.unpack("!H", ip[2:4])[0]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] == 6:
        return total - ihl - (ip[ihl + 12] >> 4) * 4
    if ip[9] != 17:
        return 0
    payload = total - ihl - 8
    if udp == "quic":
        return payload
    off = ihl + 8 + 12
    while off + 4 <= len(ip):
        kind, length = ip[off], struct.unpack("!H", ip[off + 2:off + 4])[0]
        if kind in _SCTP_DATA_CHUNKS:
            return payload - 12
        if length < 4:
            break
        off += (length + 3) // 4 * 4
    return 0


def first_flight(packets: list[tuple[float, bytes]], rtt_s: float, udp: str,
                 request_time: float | None = None) -> dict:
    """Return the server's first flight of response data seen on the client's device.

    What is counted (times are the capture's, on the client's device):

    * response data: server packets carrying data (:func:`data_bytes`) captured after ``request_time``
      (the wall-clock time the client sent its first request; None: the first client packet carrying
      data, which for SCTP is the first request, its handshake carrying no DATA);
    * the first flight: those of them that arrive before ``t_ack + rtt_s``, where ``t_ack`` is the first
      client packet after the first response packet (the first acknowledgement of response data). A
      server packet sent at ``s`` arrives at ``s + rtt_s/2`` or later, and the acknowledgement reaches the
      server at ``t_ack + rtt_s/2``; so a packet arriving before ``t_ack + rtt_s`` was sent before the
      server could know of any acknowledgement of response data: it was sent on the window alone;
    * ``handshake_packets``: server packets carrying data before the request (the TLS or QUIC handshake's
      server flight). Their acknowledgements arrive before the response starts and may grow a slow-start
      window by up to one packet each (RFC 5681 section 3.1, RFC 9002 section 7.3.1), so the response's
      window is between the initial window and the initial window plus ``handshake_packets``;
    * ``full_packets``: the flight's bytes in packets of the flight's largest payload (rounded up), the
      window as a count of full-sized packets (small control packets, such as HTTP/2's SETTINGS or
      QUIC's HANDSHAKE_DONE, ride in the same flight).

    The flight is the sender's window when the server's first data packet after the request belongs to
    the response and the application had written at least a window's worth of data when it left; a
    packet the server sends alone before its response (such as an HTTP/2 preface written at the end of
    the handshake) moves ``t_first`` and ``t_ack`` ahead of the response and makes the flight short, and
    :func:`iw_checked` then fails (``docs/real-stacks-005.md``).

    Returns a dict with ``packets``, ``bytes``, ``full_packets``, ``handshake_packets``, ``t_first``
    and ``t_ack``. Raises ValueError if the capture holds no response or no acknowledgement.
    """
    server = bytes(int(x) for x in netns.SERVER_IP.split("."))
    client = bytes(int(x) for x in netns.CLIENT_IP.split("."))
    if request_time is None:
        request_time = next((t for t, ip in packets if ip[12:16] == client and data_bytes(ip, udp) > 0), None)
        if request_time is None:
            raise ValueError("the capture holds no client packet carrying data (no request)")
    data = [(t, data_bytes(ip, udp)) for t, ip in packets if ip[12:16] == server]
    data = [(t, n) for t, n in data if n > 0]
    response = [(t, n) for t, n in data if t > request_time]
    if not response:
        raise ValueError("the capture holds no server data after the request")
    t_first = response[0][0]
    t_ack = next((t for t, ip in packets if ip[12:16] == client and t > t_first), None)
    if t_ack is None:
        raise ValueError("the capture holds no client packet after the first response packet")
    flight = [n for t, n in response if t < t_ack + rtt_s]
    total = sum(flight)
    return {"packets": len(flight), "bytes": total, "full_packets": -(-total // max(flight)),
            "handshake_packets": sum(1 for t, _ in data if t <= request_time), "t_first": t_first, "t_ack": t_ack}


def iw_checked(flight: dict, iw_packets: int, extra_packets: int = 0) -> bool:
    """Return whether a first flight (:func:`first_flight`) shows the initial window ``iw_packets``:
    ``iw <= full_packets <= iw + handshake_packets + extra_packets``.

    The handshake's acknowledged packets may grow the window before the response (:func:`first_flight`);
    ``extra_packets`` is what the sender's rule lets it send beyond its window: 1 for SCTP (RFC 4960
    section 6.1 (B): a sender may send while fewer than cwnd bytes are outstanding, so its last packet may
    go past cwnd), 0 for TCP and QUIC (whole segments within cwnd; RFC 9002 section 7: bytes in flight not
    above the window).
    """
    return iw_packets <= flight["full_packets"] <= iw_packets + flight["handshake_packets"] + extra_packets
