"""Packet-capture cross-check: the applications' own latency against tcpdump on the client's TUN device.

:func:`crosscheck` runs one single-user, one-object experiment with ``tcpdump`` on the client's device
and compares the application's latency (``t_done - t_start``, its CLOCK_MONOTONIC) with the capture's
(first packet the client sends to the server's port or UDP encapsulation port -> last packet from the
server carrying payload). Both clocks tick at the same rate on one host, so durations compare directly;
the capture sees the first packet after ``connect`` started and the last one before the application
reads it, so the two agree to within the stack's processing time (well below a millisecond).
"""

from __future__ import annotations

import math
import struct
import tempfile
from pathlib import Path

from paperlib.emulation import experiments, fidelity, netns

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


def _captured_latencies(params: dict, seed: int) -> dict:
    """One run of ``params`` with the client's capture: its fidelity record, the application's and the capture's
    latency, and the packets captured."""
    with tempfile.TemporaryDirectory() as tmp:
        pcap = Path(tmp) / "client.pcap"
        result = experiments.run_point_captured(params, seed, pcap)
        packets = read_pcap(pcap)
    return {"fidelity": result["fidelity"], "app": result["t_done"][0] - result["t_start"][0],
            "cap": capture_latency_s(packets), "packets": len(packets)}


def crosscheck(params: dict, seed: int = 1) -> dict:
    """Return the application's and the capture's latency of one run of ``params`` (users = objects = 1) that kept
    its timing, run again until one does (:func:`paperlib.emulation.fidelity.run_kept`: at most three runs; the
    last one otherwise), with ``fidelity_kept``, ``fidelity_tries`` and ``fidelity_broken``: the application's clock
    lags the wire by the CPU it waited for, so only a kept run can show how well the two agree."""
    if params.get("users") != 1 or params.get("objects") != 1:
        raise ValueError("crosscheck needs users = 1 and objects = 1 (one transfer to time)")
    run = fidelity.run_kept(_captured_latencies, params, seed, rtt_s=float(params["rtt_s"]),
                            handshakes=experiments.handshakes_of(params))
    return {"protocol": params["protocol"], "rate_bps": params["rate_bps"], "app_latency_s": run["app"],
            "capture_latency_s": run["cap"], "difference_s": run["app"] - run["cap"], "packets": run["packets"],
            "fidelity_kept": run["fidelity_kept"], "fidelity_tries": run["fidelity_tries"],
            "fidelity_broken": run["fidelity_broken"]}


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


# --- handshakes and first bytes counted on the wire (paper 005) ------------------------------------
#
# Both TUN devices of a run are captured (:func:`paperlib.emulation.experiments.start_capture` with side
# "client" and "server"), on the one host clock: a packet's departure is its time on the sender's device,
# its arrival its time on the receiver's, so a one-way time across the link is the difference.

#: The handshakes :func:`wire_handshake` reads: TCP + TLS 1.3 (HTTP/2), QUIC (HTTP/3), SCTP (usrsctp).
WIRE_KINDS = ("tcp-tls", "quic", "sctp")
#: Snap length (bytes) a capture needs per kind: TCP: the IPv4 (20 B) and TCP (up to 60 B) headers and the
#: first TLS record headers of a segment (a ChangeCipherSpec record of 6 B and the 5-B header after it);
#: SCTP: the common header and the chunk headers of control packets (a DATA chunk may follow a SACK);
#: QUIC: the whole datagram, because a coalesced packet may start anywhere in it (RFC 9000 section 12.2:
#: a client pads a datagram with an Initial to 1200 bytes, and the 1-RTT packet comes last).
SNAP_BYTES = {"tcp-tls": 128, "sctp": 256, "quic": 1500}

_TLS_CONTENT_TYPES = (20, 21, 22, 23)  # change_cipher_spec, alert, handshake, application_data (RFC 8446 s. 5.1)
_TLS_APPLICATION_DATA = 23
_SCTP_INIT, _SCTP_SACK = 1, 3


def _check_kind(kind: str) -> str:
    if kind not in WIRE_KINDS:
        raise ValueError(f"kind must be one of {WIRE_KINDS}, got {kind!r}")
    return kind


def _addr(text: str) -> bytes:
    return bytes(int(x) for x in text.split("."))


def _ipv4(ip: bytes) -> tuple[int, int]:
    """Return (header length, total length) of an IPv4 packet; raise ValueError if it is not one."""
    if len(ip) < 20 or ip[0] >> 4 != 4:
        raise ValueError("the capture holds a packet that is not IPv4")
    return (ip[0] & 0x0F) * 4, struct.unpack("!H", ip[2:4])[0]


def _tcp(ip: bytes) -> tuple[int, int, int, bytes]:
    """Return (flags, sequence number, payload length, captured payload bytes) of an IPv4/TCP packet."""
    ihl, total = _ipv4(ip)
    if len(ip) < ihl + 14:
        raise ValueError("a TCP packet is captured shorter than its TCP header")
    off = (ip[ihl + 12] >> 4) * 4
    seq = struct.unpack("!I", ip[ihl + 4:ihl + 8])[0]
    return ip[ihl + 13], seq, total - ihl - off, ip[ihl + off:]


def quic_packet_types(ip: bytes) -> list[str]:
    """Return the QUIC packets of a UDP datagram in order: "initial", "0rtt", "handshake", "retry",
    "version_negotiation" (long headers) or "1rtt" (a short header).

    RFC 9000 section 17.2: a long header has the first byte's high bit set, then version (4 B), DCID length
    and DCID, SCID length and SCID; Initial (type 0) then a token length (variable-length integer, section
    16) and the token; Initial, 0-RTT (1) and Handshake (2) then a Length field (variable-length integer)
    that counts the rest of the packet, so a second packet may follow in the same datagram (section 12.2,
    coalescing); Retry (3) and Version Negotiation (version 0) fill the datagram. Section 17.3: a short
    header (high bit clear) is a 1-RTT packet and fills the rest of the datagram. Raises ValueError if the
    captured bytes end before a header that the datagram holds (the snap length is too short).
    """
    ihl, total = _ipv4(ip)
    if ip[9] != 17:
        raise ValueError("quic_packet_types needs a UDP packet")
    end, off, out = total, ihl + 8, []

    def need(n):
        if off + n > len(ip):
            raise ValueError(f"a QUIC datagram of {total} B is captured to {len(ip)} B, which ends inside a "
                             "packet header: capture with a larger snap length (SNAP_BYTES['quic'])")

    def varint(at):
        if at + 1 > len(ip):
            raise ValueError("a QUIC datagram is captured shorter than a variable-length integer of its header "
                             "(SNAP_BYTES['quic'])")
        n = 1 << (ip[at] >> 6)
        if at + n > len(ip):
            raise ValueError("a QUIC variable-length integer runs past the captured bytes (SNAP_BYTES['quic'])")
        value = ip[at] & 0x3F
        for b in ip[at + 1:at + n]:
            value = (value << 8) | b
        return value, at + n

    while off < end:
        need(1)
        first = ip[off]
        if not first & 0x40:
            break  # no fixed bit (RFC 9000 sections 17.2, 17.3.1): padding after the last packet, not a packet
        if not first & 0x80:
            out.append("1rtt")
            break
        need(6)
        version = struct.unpack("!I", ip[off + 1:off + 5])[0]
        if version == 0:
            out.append("version_negotiation")
            break
        at = off + 5
        need(at - off + 1)
        at += 1 + ip[at]  # DCID
        if at + 1 > len(ip):
            need(at - off + 1)
        at += 1 + ip[at]  # SCID
        kind = ("initial", "0rtt", "handshake", "retry")[(first >> 4) & 0x03]
        out.append(kind)
        if kind == "retry":
            break
        if kind == "initial":
            token, at = varint(at)
            at += token
        length, at = varint(at)
        off = at + length
    return out


def sctp_chunk_types(ip: bytes) -> list[int]:
    """Return the chunk types of an SCTP packet carried over UDP (usrsctp's encapsulation, RFC 6951) that the
    capture holds, in order (RFC 4960 section 3.2: type 1 B, flags 1 B, length 2 B; chunks padded to 4 B).
    Raises ValueError if the packet holds no SCTP common header (12 B) or the captured bytes end inside a
    chunk header while the packet goes on."""
    ihl, total = _ipv4(ip)
    if ip[9] != 17:
        raise ValueError("sctp_chunk_types needs a UDP packet")
    off = ihl + 8 + 12
    if total < off:
        raise ValueError("a UDP packet is shorter than the SCTP common header")
    out = []
    while off + 4 <= total:
        if off + 4 > len(ip):
            raise ValueError(f"an SCTP packet of {total} B is captured to {len(ip)} B, which ends inside a chunk "
                             "header: capture with a larger snap length (SNAP_BYTES['sctp'])")
        length = struct.unpack("!H", ip[off + 2:off + 4])[0]
        out.append(ip[off])
        if length < 4:
            break
        off += (length + 3) // 4 * 4
    return out


def tls_record_types(segments: list[tuple[float, bytes]]) -> list[tuple[float, int]]:
    """Return (time, content type) of each TLS record that starts in one direction's TCP segments.

    ``segments``: the direction's packets in capture order, from its SYN on. The byte stream starts at the
    SYN's sequence number + 1 with a record header; each record is a 5-byte header (content type, legacy
    version, length; RFC 8446 section 5.1) and ``length`` bytes, so the next header's stream offset is known
    from the last one. A record is timed by the first segment that carries its header (a retransmission
    comes later and adds nothing). Raises ValueError if there is no SYN, a header falls beyond a segment's
    captured bytes, or a header's content type is not a TLS one.
    """
    isn = next((_tcp(ip)[1] for _, ip in segments if _tcp(ip)[0] & 0x02), None)
    if isn is None:
        raise ValueError("the TCP segments hold no SYN: the stream's start is unknown")
    out, next_record = [], 0
    for t, ip in segments:
        _, seq, n, data = _tcp(ip)
        start = (seq - isn - 1) % 2**32
        if n <= 0 or start > next_record or start + n <= next_record:
            continue  # no payload, a gap (a later segment of a lost one: its headers are read on resending), old
        while next_record < start + n:
            k = next_record - start
            if k + 5 > len(data):
                raise ValueError(f"a TLS record header at stream offset {next_record} is past the captured bytes of "
                                 f"its segment (at {t:.6f} s): capture with a larger snap length "
                                 "(SNAP_BYTES['tcp-tls'])")
            if data[k] not in _TLS_CONTENT_TYPES:
                raise ValueError(f"the byte at stream offset {next_record} ({data[k]:#x}, at {t:.6f} s) is no TLS "
                                 "content type: the stream is not TLS or a segment is missing")
            out.append((t, data[k]))
            next_record += 5 + struct.unpack("!H", data[k + 3:k + 5])[0]
    return out


def _bearing(ip: bytes, kind: str) -> bool:
    """Return whether a packet carries something the peer waits for: TCP: SYN or payload (a pure ACK does not);
    QUIC: every datagram (encrypted: an ACK-only packet cannot be told apart); SCTP: a chunk other than SACK."""
    if kind == "tcp-tls":
        flags, _, n, _ = _tcp(ip)
        return bool(flags & 0x02) or n > 0
    if kind == "quic":
        return True
    return any(c != _SCTP_SACK for c in sctp_chunk_types(ip))


def _carries_data(ip: bytes, kind: str) -> bool:
    """Return whether a packet carries application data: TCP payload; QUIC a 1-RTT (short-header) packet;
    SCTP a DATA or I-DATA chunk."""
    if kind == "tcp-tls":
        return _tcp(ip)[2] > 0
    if kind == "quic":
        return "1rtt" in quic_packet_types(ip)
    return any(c in _SCTP_DATA_CHUNKS for c in sctp_chunk_types(ip))


class _Packet:
    """One packet of one direction: departure (sender's device), arrival (receiver's; None if the link lost
    it), IPv4 bytes, and the time its last bit left the emulated link's queue (:func:`_link_model`)."""

    __slots__ = ("dep", "arr", "ip", "link_done")

    def __init__(self, dep, arr, ip):
        self.dep, self.arr, self.ip, self.link_done = dep, arr, ip, None


def _alike(sent_ip: bytes, got_ip: bytes) -> bool:
    """Return whether a received packet's captured bytes are a sent packet's (as far as both captures hold)."""
    return sent_ip[:len(got_ip)] == got_ip[:len(sent_ip)]


def _latest_matches(sent: list[_Packet], got: list[tuple[float, bytes]]) -> list[int]:
    """Return, for each received packet, the index of the last sent packet it can be matched to while every later
    received packet still finds a later sent one alike (matched from the last received packet backwards, each to
    the last alike sent packet before the previous match). Raises ValueError naming a received packet that no sent
    packet can match in order (the captures are not of one run, or the sender's capture missed packets).
    """
    latest, j = [0] * len(got), len(sent) - 1
    for k in range(len(got) - 1, -1, -1):
        t, ip = got[k]
        while j >= 0 and not _alike(sent[j].ip, ip):
            j -= 1
        if j < 0:
            raise ValueError(f"a packet received at {t:.6f} s has no sent packet to match in the sender's capture "
                             "(the captures are not of one run, or the sender's capture missed packets)")
        latest[k], j = j, j - 1
    return latest


def _direction(sender: list[tuple[float, bytes]], receiver: list[tuple[float, bytes]], src: bytes,
               rate_bps: float, one_way_s: float) -> list[_Packet]:
    """Return one direction's packets with their arrivals matched and the link's serialisation modelled.

    The link is first-in first-out and does not reorder (``linkemu.c``), so the receiver's packets are the
    sender's in the same order less those lost: each received packet is matched to a later sent one than the
    previous match with the same captured bytes; where several are alike (a retransmission without TCP
    timestamps repeats its bytes), to the last one that left at least ``one_way_s`` (the link's delay, which no
    packet beats) before the arrival, else the first; but never one so late that a later received packet would be
    left without a match (:func:`_latest_matches`). Then, for the packets that arrived, the emulator's model (loss
    applied on entry, so a lost packet takes no link time; a drop-tail queue; serialisation of the IP packet at
    ``rate_bps``): ``link_done = max(dep, previous link_done) + 8 * IP length / rate_bps``; arrival - link_done is
    then the measured propagation (the link's delay and the emulator's lateness).
    """
    sent = [_Packet(t, None, ip) for t, ip in sender if ip[12:16] == src]
    got = [(t, ip) for t, ip in receiver if ip[12:16] == src]
    latest = _latest_matches(sent, got)
    i = 0
    for (t, ip), last in zip(got, latest, strict=True):
        alike, j = [], i
        while j <= last and (sent[j].dep <= t or not alike):  # sent before it arrived (else the first alike)
            if _alike(sent[j].ip, ip):
                alike.append(j)
            j += 1
        early = [j for j in alike if sent[j].dep <= t - one_way_s]
        j = early[-1] if early else alike[0]
        sent[j].arr = t
        i = j + 1
    busy = -math.inf
    for p in sent:
        if p.arr is not None:
            busy = max(p.dep, busy) + 8 * _ipv4(p.ip)[1] / rate_bps
            p.link_done = busy
    return sent


def _repeats(own: list[_Packet], pkt: _Packet, kind: str) -> bool:
    """Return whether ``pkt`` repeats what its sender had sent before it (a retransmission).

    TCP: a SYN after a SYN, or payload starting below the highest sequence number sent before. SCTP: a
    control chunk type (INIT, COOKIE-ECHO, ...) sent before, or a DATA chunk whose TSN (chunk bytes 4-7,
    RFC 4960 section 3.3.1) is not above every TSN sent before. QUIC (encrypted, packet numbers protected):
    a datagram with a long-header (Initial or Handshake) packet after one of the same type: a retransmission
    or the rest of a handshake flight, both the protocol's.
    """
    before = [p for p in own if p.dep < pkt.dep or (p.dep == pkt.dep and p is not pkt and own.index(p) <
                                                    own.index(pkt))]
    if kind == "tcp-tls":
        flags, seq, n, _ = _tcp(pkt.ip)
        if flags & 0x02:
            return any(_tcp(p.ip)[0] & 0x02 for p in before)
        isn = next((_tcp(p.ip)[1] for p in before if _tcp(p.ip)[0] & 0x02), None)
        if isn is None or n <= 0:
            return False
        top = max(((_tcp(p.ip)[1] - isn) % 2**32 + _tcp(p.ip)[2] for p in before if _tcp(p.ip)[2] > 0), default=1)
        return (seq - isn) % 2**32 < top
    if kind == "quic":
        mine = {t for t in quic_packet_types(pkt.ip) if t in ("initial", "handshake")}
        return any(mine & set(quic_packet_types(p.ip)) for p in before)
    chunks = set(sctp_chunk_types(pkt.ip))
    control = chunks - set(_SCTP_DATA_CHUNKS) - {_SCTP_SACK}
    if control & {c for p in before for c in sctp_chunk_types(p.ip)}:
        return True
    tsn = _sctp_first_tsn(pkt.ip)
    return tsn is not None and any((t := _sctp_first_tsn(p.ip)) is not None and t >= tsn for p in before)


def _sctp_first_tsn(ip: bytes) -> int | None:
    """Return the TSN of the first DATA or I-DATA chunk the capture holds of an SCTP packet, or None."""
    ihl, total = _ipv4(ip)
    off = ihl + 8 + 12
    while off + 8 <= min(total, len(ip)):
        length = struct.unpack("!H", ip[off + 2:off + 4])[0]
        if ip[off] in _SCTP_DATA_CHUNKS:
            return struct.unpack("!I", ip[off + 4:off + 8])[0]
        if length < 4:
            return None
        off += (length + 3) // 4 * 4
    return None


def _path(end: _Packet, end_side: str, up: list[_Packet], down: list[_Packet], t_first: float, kind: str) -> dict:
    """Return the causal path from the client's first packet to the departure of ``end`` (sent by ``end_side``).

    Walking back from ``end``: the packet its sender waited for is the last packet from the other side that
    carries something (:func:`_bearing`) and arrived before ``end`` left; that packet's sender waited likewise,
    and so on until the client's first packet. Each step adds

    * a crossing of the link (the awaited packet's departure -> arrival), split into the link's queueing and
      serialisation (:func:`_direction`'s model from the packet sizes and the rate) and the rest, propagation;
    * the receiver's hold: the awaited packet's arrival -> the first packet carrying something that the
      receiver sent after it (its processing: the stack and the application);
    * the receiver's wait: that first packet -> the departure of the packet the next step starts from (zero
      when the answer is one packet): a wait of the protocol (a retransmission timer, a sender's pacing) when
      that packet repeats or continues what the side had sent (:func:`_repeats`), else more of the side's
      processing, added to its hold (an application that writes its request after the stack's Finished).

    A client packet before which nothing arrived from the server (a retransmission after a timeout) ends the
    walk: the time from the client's first packet to it is a wait too. The parts add up to
    ``end.dep - t_first`` exactly.
    """
    sides = {"client": (up, down), "server": (down, up)}
    parts = {"crossings": 0, "transit_s": 0.0, "serialisation_s": 0.0, "server_hold_s": 0.0, "client_hold_s": 0.0,
             "wait_s": 0.0}
    side, pkt = end_side, end
    while not (side == "client" and pkt.dep == t_first):
        own, other = sides[side]
        cands = [q for q in other if q.arr is not None and q.arr <= pkt.dep and _bearing(q.ip, kind)]
        if not cands:
            if side == "server":
                raise ValueError(f"the server sent a packet at {pkt.dep:.6f} s before any client packet arrived")
            parts["wait_s"] += pkt.dep - t_first
            break
        q = max(cands, key=lambda x: x.arr)
        if q.dep >= pkt.dep:
            raise ValueError(f"a packet arriving at {q.arr:.6f} s left at {q.dep:.6f} s, not before the packet it "
                             "answers: the captures' clocks disagree")
        answer = min(p.dep for p in own if q.arr <= p.dep <= pkt.dep and _bearing(p.ip, kind))
        parts[f"{side}_hold_s"] += answer - q.arr
        spread = "wait_s" if _repeats(own, pkt, kind) else f"{side}_hold_s"
        parts[spread] += pkt.dep - answer
        parts["crossings"] += 1
        parts["transit_s"] += q.arr - q.dep
        parts["serialisation_s"] += q.link_done - q.dep
        side, pkt = ("server" if side == "client" else "client"), q
    return parts


def _directions(client_packets, server_packets, rate_bps: float, one_way_s: float
                ) -> tuple[list[_Packet], list[_Packet]]:
    if not (isinstance(rate_bps, (int, float)) and rate_bps > 0):
        raise ValueError(f"rate_bps must be a positive number, got {rate_bps!r}")
    client, server = _addr(netns.CLIENT_IP), _addr(netns.SERVER_IP)
    client_packets = [(t, ip) for t, ip in client_packets if len(ip) >= 20 and ip[0] >> 4 == 4]
    server_packets = [(t, ip) for t, ip in server_packets if len(ip) >= 20 and ip[0] >> 4 == 4]
    if not any(ip[12:16] == client for _, ip in client_packets):
        raise ValueError("the client's capture holds no packet from the client")
    up = _direction(client_packets, server_packets, client, rate_bps, one_way_s)
    down = _direction(server_packets, client_packets, server, rate_bps, one_way_s)
    return up, down


def _first_packet(up: list[_Packet], kind: str) -> _Packet:
    """Return the client's first packet, checked to open the handshake: a SYN (RFC 9293 section 3.5), a QUIC
    Initial (RFC 9000 section 17.2.2), an SCTP INIT (RFC 4960 section 3.3.2); else raise ValueError."""
    first = up[0]
    if kind == "tcp-tls":
        ok = first.ip[9] == 6 and bool(_tcp(first.ip)[0] & 0x02)
        what = "a TCP SYN"
    elif kind == "quic":
        ok = first.ip[9] == 17 and quic_packet_types(first.ip)[:1] == ["initial"]
        what = "a QUIC Initial"
    else:
        ok = first.ip[9] == 17 and sctp_chunk_types(first.ip)[:1] == [_SCTP_INIT]
        what = "an SCTP INIT"
    if not ok:
        raise ValueError(f"the client's first packet (at {first.dep:.6f} s) is not {what}")
    return first


def request_packet(up: list[_Packet], kind: str) -> _Packet:
    """Return the first client packet that carries (or can carry) its request, after its handshake.

    * ``tcp-tls``: the first client segment carrying the header of a TLS record of type application_data
      (23). RFC 8446 section 5.2: every record encrypted under TLS 1.3's handshake or application keys has the
      outer type application_data; the client's first such record is its Finished (section 4.4.4: its last
      handshake message), and application data may follow it at once (section 2). In middlebox compatibility
      mode (appendix D.4) a ChangeCipherSpec record (type 20) comes before it in the same flight. So this is
      the client's Finished, with or without its request in the same segment: the earliest packet the request
      can travel in.
    * ``quic``: the first client datagram holding a 1-RTT (short-header, RFC 9000 section 17.3) packet:
      1-RTT keys exist once the client has the server's Finished (RFC 9001 section 4.1.4).
    * ``sctp``: the first client packet with a DATA or I-DATA chunk (RFC 4960 section 3.3.1, RFC 8260): the
      request itself.

    Raises ValueError naming what is missing.
    """
    if kind == "tcp-tls":
        segs = [(i, (p.dep, p.ip)) for i, p in enumerate(up) if p.ip[9] == 6]
        times = {t: i for i, (t, _) in reversed(segs)}
        records = tls_record_types([s for _, s in segs])
        t = next((t for t, ct in records if ct == _TLS_APPLICATION_DATA), None)
        if t is None:
            raise ValueError("the client's capture holds no TLS application_data record from the client (no "
                             "Finished, no request)")
        return up[times[t]]
    found = next((p for p in up if p.ip[9] == 17 and _carries_data(p.ip, kind)), None)
    if found is None:
        what = "1-RTT (short-header) QUIC packet" if kind == "quic" else "SCTP DATA chunk"
        raise ValueError(f"the client's capture holds no client packet with a {what} (no request)")
    return found


def _summed(parts: dict, total_s: float, rtt_s: float, prefix: str = "") -> dict:
    holds = parts["server_hold_s"] + parts["client_hold_s"]
    protocol = total_s - holds - parts["serialisation_s"]
    return {f"{prefix}wire_s": total_s, f"{prefix}wire_rtts": total_s / rtt_s,
            f"{prefix}protocol_rtts": protocol / rtt_s, f"{prefix}crossings": parts["crossings"],
            f"{prefix}transit_s": parts["transit_s"], f"{prefix}serialisation_s": parts["serialisation_s"],
            f"{prefix}propagation_s": parts["transit_s"] - parts["serialisation_s"],
            f"{prefix}server_hold_s": parts["server_hold_s"], f"{prefix}client_hold_s": parts["client_hold_s"],
            f"{prefix}wait_s": parts["wait_s"], f"{prefix}processing_s": holds,
            f"{prefix}processing_rtts": holds / rtt_s}


def wire_handshake(client_packets: list[tuple[float, bytes]], server_packets: list[tuple[float, bytes]],
                   rtt_s: float, kind: str, rate_bps: float) -> dict:
    """Return the handshake of one run counted on the wire, from the captures of both devices.

    ``client_packets``, ``server_packets``: :func:`read_pcap` of the client's and the server's device (one
    host clock); ``rtt_s``: the link's round-trip propagation; ``kind``: one of :data:`WIRE_KINDS`;
    ``rate_bps``: the link's rate (both directions), for the serialisation.

    * ``t_first``: the client's first packet (SYN, QUIC Initial, SCTP INIT; :func:`_first_packet`);
    * ``t_request``: :func:`request_packet`'s departure;
    * ``wire_s`` = t_request - t_first and ``wire_rtts`` = wire_s / rtt_s: on the client's device, the
      applications' processing included;
    * the causal path (:func:`_path`): ``crossings`` of the link, ``transit_s`` (their one-way times),
      ``serialisation_s`` (of them, the link's queueing and serialisation of the packets waited for),
      ``propagation_s`` (the rest), ``server_hold_s`` and ``client_hold_s`` (arrival of what a side waited
      for -> its answer), ``wait_s`` (timers: a retransmission's wait, an answer spread over packets);
      wire_s = transit_s + server_hold_s + client_hold_s + wait_s;
    * ``protocol_rtts`` = (wire_s - server_hold_s - client_hold_s - serialisation_s) / rtt_s: the link's
      propagation and the protocol's own waits in round trips, i.e. the round trips the message flow needs
      (2 for TCP + TLS 1.3, 1 for QUIC without loss); a lost packet's retransmission wait counts in it, as
      would an extra exchange (two more crossings);
    * ``processing_s`` = the holds, ``processing_rtts`` = processing_s / rtt_s.

    Raises ValueError naming what is missing (no request, a first packet that opens no handshake, a capture
    cut too short to read a header, captures that do not match).
    """
    up, down, first, req = _opening(client_packets, server_packets, rtt_s, kind, rate_bps)
    parts = _path(req, "client", up, down, first.dep, kind)
    return {"kind": kind, "t_first": first.dep, "t_request": req.dep, **_summed(parts, req.dep - first.dep, rtt_s)}


def _opening(client_packets, server_packets, rtt_s: float, kind: str, rate_bps: float):
    """Return (the client's packets up, the server's down, the client's first packet, its request packet) of two
    captures, after checking ``kind`` and ``rtt_s`` (:func:`wire_handshake` and :func:`wire_ttfb` start here)."""
    _check_kind(kind)
    if not (isinstance(rtt_s, (int, float)) and rtt_s > 0):
        raise ValueError(f"rtt_s must be a positive number, got {rtt_s!r}")
    up, down = _directions(client_packets, server_packets, rate_bps, rtt_s / 2)
    return up, down, _first_packet(up, kind), request_packet(up, kind)


def wire_ttfb(client_packets: list[tuple[float, bytes]], server_packets: list[tuple[float, bytes]],
              rtt_s: float, kind: str, rate_bps: float) -> dict:
    """Return the time to the first response byte counted on the wire, with the decomposition of
    :func:`wire_handshake` (its keys prefixed ``ttfb_``), and ``t_response``.

    The response's first packet is the first server packet carrying data (TCP payload, a QUIC 1-RTT packet,
    an SCTP DATA chunk) that leaves the server after :func:`request_packet` arrived there; ``ttfb_wire_s``
    runs from the client's first packet to that packet's arrival on the client's device. QUIC encrypts its
    frames, so its first 1-RTT server datagram after the request may be the server's HANDSHAKE_DONE (RFC
    9001 section 4.1.2), sent in answer to the same client flight. The path is :func:`_path`'s from the
    response's departure, plus its own crossing.
    """
    up, down, first, req = _opening(client_packets, server_packets, rtt_s, kind, rate_bps)
    if req.arr is None:
        raise ValueError("the client's request packet never arrived at the server (lost)")
    resp = next((p for p in down if p.dep >= req.arr and p.arr is not None and _carries_data(p.ip, kind)), None)
    if resp is None:
        raise ValueError("the server's capture holds no server packet carrying data after the request arrived "
                         "(no response)")
    parts = _path(resp, "server", up, down, first.dep, kind)
    parts["crossings"] += 1
    parts["transit_s"] += resp.arr - resp.dep
    parts["serialisation_s"] += resp.link_done - resp.dep
    return {"t_response": resp.arr, **_summed(parts, resp.arr - first.dep, rtt_s, prefix="ttfb_")}


def wire_figures(client_pcap: Path, server_pcap: Path, rtt_s: float, kind: str, rate_bps: float) -> dict:
    """Return :func:`wire_handshake` and :func:`wire_ttfb` of a run's two capture files in one dict."""
    c, s = read_pcap(client_pcap), read_pcap(server_pcap)
    return {**wire_handshake(c, s, rtt_s, kind, rate_bps), **wire_ttfb(c, s, rtt_s, kind, rate_bps)}
