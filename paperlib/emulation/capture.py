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
