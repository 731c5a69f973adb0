"""The link emulator measured: delivered rate, added one-way delay and loss rate against the configured values.

Probes are UDP sockets created inside the two namespaces by this process; arrival times are the
kernel's receive timestamps (``SO_TIMESTAMPNS``), send times the wall clock just before ``sendto``
(same host, same clock).

* rate: a back-to-back train of ``n`` packets of ``size`` bytes into a queue that holds it all;
  delivered rate = (n - 1) x IP length x 8 / (last arrival - first arrival) (packet-train dispersion);
* added delay: sparse small packets (one every 4 serialisation times, at most 10 ms apart);
  added delay = median(one-way delay) - IP length x 8 / rate, against the configured one-way delay;
* loss: packets paced below the link rate; lost share with its Wilson 95% interval.

A rate is *accurate* when the delivered rate is within :data:`RATE_TOL` of the configured one and
the added delay within :data:`DELAY_TOL_S` of the configured one.
"""

from __future__ import annotations

import math
import socket
import struct
import time

import numpy as np
import pandas as pd

from paperlib.emulation.netns import Link, Testbed, socket_in
from paperlib.validate import ParameterError

RATE_TOL = 0.02
DELAY_TOL_S = 1e-3
PORT = 5301
#: every link rate the three SCTP-vs-TCP papers use (bit/s): 000 Table 2, 000/002 (40 Kbps), 004 Table II
PAPER_RATES_BPS = (4e3, 28e3, 40e3, 56e3, 100e3, 400e3, 1e6, 3e6, 10e6)
#: rates above the papers' tried by the search for the highest accurate rate
HIGH_RATES_BPS = (20e6, 50e6, 100e6, 200e6, 500e6)
_SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
_HDR = struct.Struct("!IQ")  # sequence number, send time (ns)
IP_UDP = 28


def _sockets(tb: Testbed):
    rx = socket_in(tb.server_ns, socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    rx.bind((tb.server_ip, PORT))
    tx = socket_in(tb.client_ns, socket.AF_INET, socket.SOCK_DGRAM)
    tx.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
    tx.bind((tb.client_ip, 0))
    return tx, rx


def _receive(rx, expected: int, deadline: float, idle_s: float) -> list[tuple[int, int, int]]:
    """Return (seq, send_ns, arrival_ns) of the packets that arrive before ``deadline`` or an idle gap."""
    got = []
    last = time.monotonic()
    while len(got) < expected and time.monotonic() < deadline:
        rx.settimeout(max(0.01, min(deadline - time.monotonic(), idle_s - (time.monotonic() - last))))
        try:
            data, anc, _, _ = rx.recvmsg(65535, 256)
        except (TimeoutError, socket.timeout):
            if time.monotonic() - last >= idle_s:
                break
            continue
        last = time.monotonic()
        arrival = next((struct.unpack("qq", d[:16]) for lvl, typ, d in anc
                        if lvl == socket.SOL_SOCKET and typ == _SO_TIMESTAMPNS), None)
        if arrival is None:
            continue
        seq, sent = _HDR.unpack_from(data)
        got.append((seq, sent, arrival[0] * 1_000_000_000 + arrival[1]))
    return got


def _payload(seq: int, size: int) -> bytes:
    return _HDR.pack(seq, time.time_ns()) + bytes(size - IP_UDP - _HDR.size)


def train_rate_bps(tb: Testbed, n: int, size: int) -> tuple[float, int]:
    """Return the delivered rate of a back-to-back train of ``n`` packets of IP length ``size`` bytes, and how
    many arrived (fewer than ``n`` when the sender outruns the emulator: then the rate is not accurate)."""
    tx, rx = _sockets(tb)
    with tx, rx:
        for seq in range(n):
            tx.sendto(_payload(seq, size), (tb.server_ip, PORT))
        t_train = n * size * 8 / tb.link.rate_bps
        got = _receive(rx, n, time.monotonic() + t_train + 2 * tb.link.delay_s + 5, idle_s=1.0 + t_train / n * 4)
    if len(got) < 2:
        return float("nan")
    arrivals = sorted(a for _, _, a in got)
    return (len(arrivals) - 1) * size * 8 / ((arrivals[-1] - arrivals[0]) * 1e-9), len(got)


def added_delay_s(tb: Testbed, n: int, size: int = 40) -> float:
    """Return the median one-way delay of sparse packets minus their serialisation time.

    At most ``n`` probes, one every 4 serialisation times (at least 1 ms), at most 4 s of probing (at
    4 kbit/s a 40 B probe takes 80 ms, so 12 probes: the median then stands even when the measuring host
    delays a few sends under load, which a 2 s budget of 6 probes did not).
    """
    tx, rx = _sockets(tb)
    ser = size * 8 / tb.link.rate_bps
    gap = max(4 * ser, 1e-3)
    n = max(5, min(n, int(4.0 / gap)))
    with tx, rx:
        for seq in range(n):
            tx.sendto(_payload(seq, size), (tb.server_ip, PORT))
            time.sleep(gap)
        got = _receive(rx, n, time.monotonic() + 2 * tb.link.delay_s + 3, idle_s=1.0)
    if not got:
        raise RuntimeError("delay probe: no packet arrived")
    owd = np.array([(a - s) * 1e-9 for _, s, a in got])
    return float(np.median(owd) - ser)


def loss_share(tb: Testbed, n: int, size: int = 60) -> tuple[int, int]:
    """Return (lost, sent) for ``n`` packets paced at half the link rate (client -> server)."""
    tx, rx = _sockets(tb)
    gap = 2 * size * 8 / tb.link.rate_bps
    with tx, rx:
        start = time.monotonic()
        for seq in range(n):
            while time.monotonic() < start + seq * gap:
                time.sleep(min(gap, 1e-3))
            tx.sendto(_payload(seq, size), (tb.server_ip, PORT))
        got = _receive(rx, n, time.monotonic() + 2 * tb.link.delay_s + 3, idle_s=0.5 + 2 * tb.link.delay_s)
    return n - len({seq for seq, _, _ in got}), n


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score 95% interval of a proportion k/n."""
    if n <= 0:
        raise ParameterError(f"n must be positive, got {n!r}")
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure_point(rate_bps: float, delay_s: float = 0.05, seed: int = 1, train_s: float = 1.0,
                  delay_probes: int = 30) -> dict:
    """Return configured and measured rate and added delay at one rate (no loss)."""
    size = 1500 if rate_bps >= 1e6 else 200
    n = int(min(20000, max(5, round(rate_bps * train_s / (8 * size)))))
    # a queue that holds the train, so the train measures serialisation and not the drop-tail
    link = Link(rate_bps=rate_bps, delay_s=delay_s, queue_packets=min(60000, n + 10), rate_up_bps=rate_bps)
    with Testbed(link, seed=seed) as tb:
        # the link's up direction carries the probes (client -> server); its rate is rate_up_bps
        measured, arrived = train_rate_bps(tb, n, size)
        added = added_delay_s(tb, delay_probes)
    return {"rate_bps": rate_bps, "delay_s": delay_s, "train_packets": n, "packet_bytes": size,
            "arrived": arrived, "measured_rate_bps": measured, "rate_error": measured / rate_bps - 1,
            "added_delay_s": added, "delay_error_s": added - delay_s,
            "accurate": bool(arrived == n and abs(measured / rate_bps - 1) <= RATE_TOL
                             and abs(added - delay_s) <= DELAY_TOL_S)}


def measure_loss(loss: float, n: int = 2000, rate_bps: float = 10e6, seed: int = 1) -> dict:
    """Return configured and measured loss with its Wilson 95% interval (client -> server)."""
    link = Link(rate_bps=rate_bps, delay_s=0.005, loss_up=loss)
    with Testbed(link, seed=seed) as tb:
        lost, sent = loss_share(tb, n)
    lo, hi = wilson_interval(lost, sent)
    return {"loss": loss, "sent": sent, "lost": lost, "measured_loss": lost / sent, "ci_low": lo, "ci_high": hi,
            "within_ci": bool(lo <= loss <= hi)}


def accuracy_table(rates_bps=PAPER_RATES_BPS, delay_s: float = 0.05, seed: int = 1) -> pd.DataFrame:
    """Return one row per rate: configured vs measured rate and added delay, and whether both are within tolerance."""
    return pd.DataFrame([measure_point(float(r), delay_s, seed) for r in rates_bps])


def highest_accurate_rate_bps(candidates=PAPER_RATES_BPS + HIGH_RATES_BPS, delay_s: float = 0.01,
                              seed: int = 1) -> tuple[float | None, pd.DataFrame]:
    """Return the highest rate of ``candidates`` (ascending) up to which every rate is accurate, and the table."""
    rows = []
    best = None
    for r in sorted(candidates):
        row = measure_point(float(r), delay_s, seed)
        rows.append(row)
        if not row["accurate"]:
            break
        best = float(r)
    return best, pd.DataFrame(rows)
