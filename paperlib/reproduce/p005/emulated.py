"""Paper 005 on real stacks: today's page over HTTP/2, HTTP/3 and SCTP through the emulated link.

What runs (``docs/real-stacks-005.md``). One sweep point is one page load on a fresh
:class:`paperlib.emulation.netns.Testbed`: the client opens one connection, sends every request of the page
(:func:`paperlib.reproduce.p005.transports.real_stack_page`, 71 objects, object sizes in bytes =
round(bits / 8)) at once and waits for every response; the server answers every object.

* ``h2``: HTTP/2 over TLS 1.3 over Linux TCP (:mod:`paperlib.emulation.page_app`: ``h2`` and Python's
  ``ssl``);
* ``h3``: HTTP/3 over QUIC (:mod:`paperlib.emulation.page_app`: ``aioquic``);
* ``sctp``: the C program ``paperlib/emulation/c/webperf_app.c`` over usrsctp, one object per stream,
  every request at once (no TLS: the request/response imitation of papers 000 and 004);
* beside the Python stacks, points of ``implementation`` "c" (:func:`c_points`): the C programs Debian ships,
  nghttp2 for ``h2`` and ngtcp2 for ``h3`` (:mod:`paperlib.emulation.c_stacks`), on the loss-free cells of the
  questions' link with the same seeds; :func:`implementation_summary` sets the two side by side, and every other
  table and verdict is the Python stacks' (:func:`python_only`).

Settings (the same for every family where the stacks allow it):

* congestion control Reno-family everywhere, because the papers' models are Reno slow start: Linux
  ``reno`` per namespace, aioquic's ``reno`` (NewReno, RFC 9002 section 7), usrsctp's default module
  (RFC 4960 section 7.2; its number is printed in the settings line as ``cc_module``);
* the initial window ``iw_segments`` set on each: Linux ``initcwnd`` per route, aioquic's
  ``K_INITIAL_WINDOW`` in the server process (:mod:`paperlib.emulation.page_app`), usrsctp's
  ``sctp_initial_cwnd`` with its burst limit raised to ``max(iw, 4)`` (RFC 4960 section 6.1 (D): Max.Burst
  4 would otherwise cut an initial window above 4 packets); checked on a packet capture of one run per
  (protocol, iw) (:func:`paperlib.emulation.capture.first_flight`);
* today's TCP (:class:`TodayTcp`): Linux's defaults but for congestion control and the initial window --
  SACK and timestamps on, RACK and tail-loss probes on (``tcp_recovery = 1``, ``tcp_early_retrans = 3``),
  F-RTO on, delayed ACKs (no ``quickack``), minimum RTO 200 ms -- because paper 005 asks what today's
  transports do; the papers' own runs (000, 002, 004) turn SACK, timestamps and RACK off to match their
  models;
* packets of 1500 bytes on the wire for all three (TCP MSS 1460 B, QUIC datagrams of 1472 B, SCTP data of
  1444 B per packet: 1500 less 56 B of IPv4, UDP, SCTP common and DATA chunk headers);
* flow control never binds: HTTP/2's and QUIC's windows are ``page_app.FLOW_WINDOW`` (1 GiB), the TCP
  client's initial receive window 64 segments with Linux's autotuning above (up to ``tcp_rmem``'s maximum,
  recorded with each run), usrsctp's receive buffer 4 MB; the largest page is 2.4 MB.

The link (:func:`points`): rate, round-trip propagation ``rtt_s`` (one-way delay rtt_s / 2), random loss
``loss`` on the data direction only (server -> client), a drop-tail queue of about one bandwidth-delay
product (:func:`queue_packets`), MTU 1500 B. The link's loss seed is :func:`link_seed` of (rate, rtt, loss,
rep), the same for every protocol and initial window at that point, so the transports meet the same
pseudo-random loss process (not the same lost packets: their packets differ); the sweep's per-point seed
is not used.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import inspect
import json
import math
import os
import select
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import sweep, validate
from paperlib.atomic import atomic_write_csv
from paperlib.emulation import apps, c_stacks, capture, experiments, fidelity, later_tries, netns, page_app
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation import notebook as emulation_notebook
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.notebook import Emulated
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.reproduce.p005 import transports
from paperlib.reproduce.p005.transports import HANDSHAKE_STACK, PROTOCOLS  # noqa: F401 - re-exported

PAPER = "005"
#: The link's MTU (bytes); every family's packets fill it.
MTU_BYTES = 1500
#: TCP's segment (MSS, bytes): the MTU less 20 B IPv4 and 20 B TCP headers.
TCP_MSS_BYTES = MTU_BYTES - 40
#: SCTP's data per packet (bytes): the MTU less 56 B (IPv4 20, UDP 8, SCTP common 12, DATA chunk 16).
SCTP_DATA_BYTES = MTU_BYTES - 56
#: RFC 4960 section 15's Max.Burst (packets); usrsctp's is raised to the initial window when that is larger.
SCTP_MAX_BURST = 4
#: The largest initial window of the grids (packets, RFC 6928's IW10): the queue holds at least one.
MIN_QUEUE_PACKETS = 10
#: Server port of the HTTP families (TCP or UDP) and of SCTP.
PORT = 8443
#: Testbeds at once: one. A page load's Python client and server each keep a core about half busy at 10 Mbit/s
#: (aioquic more), beside two packet captures and the emulator: two page loads at once on a 2-core machine make
#: them wait for a CPU for more of the transfer than the fidelity rule allows (docs/fidelity.md). The
#: environment's WEBPERF_EMU_LINKS, when set, overrides it (as it does for papers 000, 002 and 004).
LINKS_AT_ONCE = 1
#: The grids: (rates bit/s, round trips s, losses, initial windows in packets, repetitions). The reduced one
#: runs inside ``make reproduce`` within about 3 minutes on 2 cores: its round trip is 50 ms, because a
#: loss-limited Reno transfer takes a time proportional to the round trip (rate ~ MSS / RTT x 1.22 / sqrt(p),
#: Mathis et al. 1997) and at 100 ms its 3%-loss loads (about 25 s each) alone took that long.
GRIDS = {
    "reduced": ((10e6,), (0.05,), (0.0, 0.01, 0.03), (3, 10), 5),
    "full": ((2e6, 10e6, 50e6), (0.02, 0.05, 0.1, 0.2), (0.0, 0.005, 0.01, 0.03, 0.05), (2, 3, 4, 10), 10),
}
#: The handshake each family's capture is read as (:data:`paperlib.emulation.capture.WIRE_KINDS`).
WIRE_KIND = {"h2": "tcp-tls", "h3": "quic", "sctp": "sctp"}
#: Columns of :func:`summary`, in order.
SUMMARY_COLUMNS = ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments", "n", "plt_mean_s", "plt_half_s",
                   "ttfb_mean_s", "ttfb_half_s", "handshake_rtts_mean", "handshake_rtts_half",
                   "first_flight_packets", "iw_checked", "stack", "object_mean_s", "object_half_s",
                   "wire_rtts_mean", "wire_rtts_half", "protocol_rtts_mean", "protocol_rtts_half",
                   "processing_rtts_mean", "processing_rtts_half", "ttfb_wire_s_mean", "ttfb_wire_s_half",
                   "ttfb_protocol_rtts_mean", "ttfb_protocol_rtts_half", "wire_n", "h2_pairs",
                   "h2_gap_plt_mean_s", "h2_gap_plt_half_s", "h2_gap_object_mean_s", "h2_gap_object_half_s",
                   "h2_paired_object_mean_s"]
#: The protocol every other one is paired with in :func:`summary` (the ``h2_*`` columns): the questions ask how
#: today's alternatives compare with HTTP/2.
PAIRED_WITH = "h2"
#: What pairs two protocols' runs (:func:`_paired_runs`): the cell's link and window and the run's link seed, which
#: :func:`link_seed` makes the same for every protocol at one repetition, so the two runs saw the same losses.
_LINK_RUN = ["rate_bps", "rtt_s", "loss", "iw_segments", "link_seed"]
#: The implementations of a point: the Python stacks (the default: a point without ``implementation`` is one) and
#: the C programs Debian ships (:mod:`paperlib.emulation.c_stacks`) beside them for HTTP/2 and HTTP/3.
IMPLEMENTATIONS = ("python", "c")
#: The C implementation of each protocol that has one (:data:`paperlib.emulation.c_stacks.PROGRAMS`).
C_IMPLEMENTATION = {"h2": "nghttp2", "h3": "ngtcp2"}
#: Which runs the handshake measurements read (:func:`handshake_cells`), in words for the ledger and the docs.
HANDSHAKE_RULE = ("per loss-free cell, the Python stack's runs that kept their timing and whose captures were read "
                  "when there are at least two, else the C implementation's of the same cell")
#: The link of the C points: the questions' link (the reduced grid's one rate and round trip, also in the full grid).
C_LINK = {"rate_bps": GRIDS["reduced"][0][0], "rtt_s": GRIDS["reduced"][1][0]}
#: The measures :func:`implementation_summary` compares (the wire's two over the runs whose captures were read) ->
#: their mean and half-width columns (named as :func:`summary`'s).
IMPLEMENTATION_MEASURES = {"protocol_rtts": ("protocol_rtts_mean", "protocol_rtts_half"),
                           "processing_rtts": ("processing_rtts_mean", "processing_rtts_half"),
                           "ttfb_s": ("ttfb_mean_s", "ttfb_half_s"), "plt_s": ("plt_mean_s", "plt_half_s")}
#: Columns of :func:`implementation_summary`, in order.
IMPLEMENTATION_COLUMNS = (["protocol", "iw_segments", "implementation", "n", "wire_n"]
                          + [c for pair in IMPLEMENTATION_MEASURES.values() for c in pair] + ["stack"])
#: Columns of :func:`paired`, in order.
PAIRED_COLUMNS = ["rate_bps", "rtt_s", "loss", "iw_segments", "rep", "plt_a_s", "plt_b_s"]
#: What each family needs beyond the testbed: the Python packages it imports (none: the C application);
#: ``cryptography`` makes the certificate (a dependency of aioquic, named for HTTP/2 alone).
PACKAGES = {"h2": ("h2", "cryptography"), "h3": ("aioquic", "cryptography"), "sctp": ()}
#: Columns of ``emulation_runs.csv``.
RUN_COLUMNS = ["protocol", "implementation", "rate_bps", "rtt_s", "loss", "queue_packets", "iw_segments", "rep",
               "link_seed",
               "objects", "page_bytes", "plt_s", "ttfb_s", "handshake_rtts", "first_flight_packets",
               "first_flight_full_packets", "handshake_packets", "iw_checked", "wall_s"] + [
                   "wire_rtts", "protocol_rtts", "server_hold_s", "client_hold_s", "processing_s", "processing_rtts",
                   "wire_wait_s", "ttfb_wire_s", "ttfb_wire_rtts", "ttfb_protocol_rtts", "ttfb_processing_s",
                   "wire_error"] + emulation_notebook.FIDELITY_COLUMNS
#: The wire figures of a run (:func:`wire_figures`) in ``emulation_runs.csv``: column -> key of the figures.
WIRE_COLUMNS = {"wire_rtts": "wire_rtts", "protocol_rtts": "protocol_rtts", "server_hold_s": "server_hold_s",
                "client_hold_s": "client_hold_s", "processing_s": "processing_s",
                "processing_rtts": "processing_rtts", "wire_wait_s": "wait_s", "ttfb_wire_s": "ttfb_wire_s",
                "ttfb_wire_rtts": "ttfb_wire_rtts", "ttfb_protocol_rtts": "ttfb_protocol_rtts",
                "ttfb_processing_s": "ttfb_processing_s"}


@dataclass(frozen=True)
class TodayTcp(TcpSettings):
    """Linux TCP as a server today runs it, with Reno and a set initial window (see the module docstring).

    Differs from :class:`TcpSettings` (the papers' pins) in SACK, timestamps and delayed ACKs (fields)
    and in loss recovery (:meth:`sysctls`: RACK with tail-loss probes and F-RTO at Linux's defaults).
    """

    sack: bool = True
    timestamps: bool = True
    quickack: bool = False

    def sysctls(self) -> dict[str, str]:
        """Return :meth:`TcpSettings.sysctls` with Linux's default loss recovery (RACK, TLP, F-RTO)."""
        return {**super().sysctls(), "net.ipv4.tcp_recovery": "1", "net.ipv4.tcp_early_retrans": "3",
                "net.ipv4.tcp_frto": "2"}


@dataclass
class RealStacks(Emulated):
    """The runs of :func:`run` (an :class:`~paperlib.emulation.notebook.Emulated`: ``runs`` those that kept their
    timing, ``lost`` those that did not), per protocol left out while the others ran, why (``missing``), and the
    replication plan of the questions (:mod:`paperlib.reproduce.p005.replication_plan`; empty when none ran); per
    protocol whose C implementation was left out while the rest ran, why (``c_missing``)."""

    missing: dict = field(default_factory=dict)
    plans: list = field(default_factory=list)
    c_missing: dict = field(default_factory=dict)


# --- the grid -----------------------------------------------------------------------------------


def page_bytes() -> list[int]:
    """Return the object sizes (bytes) of the page the real stacks carry: round(bits / 8) of
    :func:`transports.real_stack_page`."""
    return [int(round(b / 8)) for b in transports.real_stack_page().object_bits]


def queue_packets(rate_bps: float, rtt_s: float) -> int:
    """Return the drop-tail queue (packets): one bandwidth-delay product in MTU-sized packets, rounded up,
    and at least :data:`MIN_QUEUE_PACKETS` (so a queue alone never drops part of a first flight)."""
    bdp = validate.positive("rate_bps", rate_bps) * validate.positive("rtt_s", rtt_s) / 8 / MTU_BYTES
    return max(math.ceil(bdp - 1e-9), MIN_QUEUE_PACKETS)


def link_seed(rate_bps: float, rtt_s: float, loss: float, rep: int) -> int:
    """Return the emulated link's loss seed at (rate, rtt, loss, rep): the same for every protocol and initial
    window there (:func:`paperlib.sweep.point_seed` of those four values and the paper)."""
    return sweep.point_seed({"paper": PAPER, "link": [float(rate_bps), float(rtt_s), float(loss), int(rep)]})


def points(paper, profile: str) -> list[dict]:
    """Return the sweep points of ``profile`` ("reduced", "full"; "off": none).

    One point per (protocol, rate, rtt, loss, iw, rep), in that order, of the Python stacks (no ``implementation``
    field, so their sweep keys are those of points without it). ``capture`` is True on the first
    repetition at the grid's lowest loss, one per (protocol, rate, rtt, iw): the run whose packet capture
    checks the initial window. Then the C implementations' points (:func:`c_points`). ``paper`` is accepted for
    the common signature and not read (the page is :func:`page_bytes`).
    """
    experiments.check_profile(profile)
    if profile == "off":
        return []
    rates, rtts, losses, iws, reps = GRIDS[profile]
    sizes = page_bytes()
    return [dict(paper=PAPER, protocol=proto, rate_bps=float(rate), rtt_s=float(rtt), loss=float(loss),
                 queue_packets=queue_packets(rate, rtt), iw_segments=int(iw), rep=k,
                 link_seed=link_seed(rate, rtt, loss, k), objects_bytes=sizes,
                 capture=bool(k == 0 and loss == min(losses)))
            for proto in PROTOCOLS for rate in rates for rtt in rtts for loss in losses for iw in iws
            for k in range(reps)] + c_points(profile)


def c_points(profile: str) -> list[dict]:
    """Return the C implementations' points of ``profile``: ``implementation`` "c", the loss-free cells of the
    questions' link (:data:`C_LINK`), nghttp2 (h2) at every initial window of the grid and ngtcp2 (h3) at
    :data:`paperlib.emulation.c_stacks.NGTCP2_INITIAL_WINDOW` only (its programs cannot set another), the grid's
    repetitions, each with the Python points' link seed there (:func:`link_seed`) and no capture check (the
    ngtcp2 client gives no wall-clock time of its first request to anchor the first flight on)."""
    experiments.check_profile(profile)
    if profile == "off":
        return []
    _, _, _, iws, reps = GRIDS[profile]
    rate, rtt, sizes = C_LINK["rate_bps"], C_LINK["rtt_s"], page_bytes()
    windows = {"h2": iws, "h3": [iw for iw in iws if iw == c_stacks.NGTCP2_INITIAL_WINDOW]}
    return [dict(paper=PAPER, protocol=proto, implementation="c", rate_bps=float(rate), rtt_s=float(rtt), loss=0.0,
                 queue_packets=queue_packets(rate, rtt), iw_segments=int(iw), rep=k,
                 link_seed=link_seed(rate, rtt, 0.0, k), objects_bytes=sizes, capture=False)
            for proto in C_IMPLEMENTATION for iw in windows[proto] for k in range(reps)]


def implementation_of(params: dict) -> str:
    """Return a point's implementation: its ``implementation`` field, "python" when it has none (or a NaN, as a
    table of runs holds for the Python points)."""
    value = params.get("implementation")
    return "python" if value is None or (isinstance(value, float) and math.isnan(value)) else value


def check_point(params: dict) -> dict:
    """Return ``params`` if it is a point of this module, else raise a ParameterError naming the field."""
    if not isinstance(params, dict):
        raise validate.ParameterError(f"params must be a dict, got {type(params).__name__}")
    for name in ("protocol", "rate_bps", "rtt_s", "loss", "queue_packets", "iw_segments", "rep", "link_seed",
                 "objects_bytes"):
        if name not in params:
            raise validate.ParameterError(f"params lacks {name!r}")
    transports.check_protocol(params["protocol"])
    impl = params.get("implementation", "python")
    if impl not in IMPLEMENTATIONS:
        raise validate.ParameterError(f"implementation must be one of {IMPLEMENTATIONS}, got {impl!r}")
    if impl == "c" and params["protocol"] not in C_IMPLEMENTATION:
        raise validate.ParameterError(f"implementation 'c' exists for {sorted(C_IMPLEMENTATION)} only, got protocol "
                                      f"{params['protocol']!r}")
    if impl == "c" and params["protocol"] == "h3" and params["iw_segments"] != c_stacks.NGTCP2_INITIAL_WINDOW:
        raise validate.ParameterError(f"iw_segments must be {c_stacks.NGTCP2_INITIAL_WINDOW} for ngtcp2 (h3, "
                                      f"implementation 'c'), got {params['iw_segments']!r}")
    validate.positive("rate_bps", params["rate_bps"])
    validate.positive("rtt_s", params["rtt_s"])
    for name, lo, hi in (("iw_segments", 1, 100), ("rep", 0, 10**6), ("queue_packets", 1, 60000)):
        v = params[name]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
            raise validate.ParameterError(f"{name} must be a whole number in [{lo}, {hi}], got {v!r}")
    loss = params["loss"]
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not 0 <= loss < 1:
        raise validate.ParameterError(f"loss must be a probability in [0, 1), got {loss!r}")
    sizes = params["objects_bytes"]
    if (not isinstance(sizes, (list, tuple)) or not 1 <= len(sizes) <= page_app.MAX_OBJECTS
            or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 1 for s in sizes)
            or sum(sizes) > page_app.MAX_PAGE_BYTES):
        raise validate.ParameterError(f"objects_bytes must list 1 to {page_app.MAX_OBJECTS} sizes of at least "
                                      f"1 byte summing to at most {page_app.MAX_PAGE_BYTES}")
    return params


# --- one run ------------------------------------------------------------------------------------


def time_bound_s(params: dict) -> float:
    """Return one run's wall-time bound: 6 x the loss-free transfer time, 40 round trips and 60 s
    (:func:`paperlib.emulation.experiments.time_bound_s`'s rule)."""
    ideal = sum(params["objects_bytes"]) * 8 / params["rate_bps"]
    return 6 * ideal + 40 * params["rtt_s"] + 60


def sctp_settings(iw: int) -> apps.AppSettings:
    """Return usrsctp's settings for initial window ``iw`` (packets): data per packet, the window and a burst
    limit of at least the window; RTO and SACK at usrsctp's RFC 4960 defaults."""
    return apps.AppSettings("sctp", mss_bytes=SCTP_DATA_BYTES, init_cwnd_mtus=int(iw),
                            max_burst=max(int(iw), SCTP_MAX_BURST),
                            basis={"init_cwnd_mtus": "paper 005's initial window (RFC 6928 IW10 and the papers' "
                                                     "old windows)",
                                   "max_burst": "RFC 4960 section 6.1 (D) Max.Burst 4, raised to the initial window",
                                   "mss_bytes": "1500-byte packets like TCP's and QUIC's"})


def _read_line(stream, timeout_s: float) -> str:
    ready, _, _ = select.select([stream], [], [], timeout_s)
    return stream.readline() if ready else ""


def _page_app(*args: str) -> list[str]:
    return [sys.executable, "-m", "paperlib.emulation.page_app", *args]


def _run_http(tb: Testbed, params: dict, bound: float, tmp: Path) -> tuple[dict, list[dict], dict]:
    """Run page_app's server and client; return (connection times, objects, settings)."""
    proto = params["protocol"]
    cert, key = page_app.make_certificate(tmp, netns.SERVER_IP)
    common = ["--protocol", proto, "--port", str(PORT), "--address", netns.SERVER_IP, "--cert", str(cert)]
    srv_args = ["server", *common, "--key", str(key), "--timeout", repr(bound + 30)]
    if proto == "h3":
        srv_args += ["--iw", str(params["iw_segments"])]
    srv = tb.popen("server", _page_app(*srv_args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = _read_line(srv.stdout, 20)
    if not line.strip():
        srv.kill()
        raise RuntimeError(f"the {proto} server did not start: {srv.stderr.read()[-500:].strip()}")
    server_settings = json.loads(line)
    sizes = ",".join(str(s) for s in params["objects_bytes"])
    client = tb.popen("client", _page_app("client", *common, "--objects", sizes, "--timeout", repr(bound)),
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = _client_output(client, proto, bound)
    recs = [json.loads(x) for x in out.splitlines() if x.strip()]
    conn = next(r for r in recs if r["type"] == "conn")
    objects = [r for r in recs if r["type"] == "object"]
    settings = {"server": server_settings, "client": next(r for r in recs if r["type"] == "settings")}
    return conn, objects, settings


def _run_c(tb: Testbed, params: dict, bound: float, tmp: Path) -> tuple[dict, list[dict], dict]:
    """Run the protocol's C implementation (:func:`paperlib.emulation.c_stacks.run_nghttp2` or ``run_ngtcp2``);
    return (connection times, objects, settings) as :func:`_run_http` does."""
    folder = tmp / "c"
    folder.mkdir()
    runner = c_stacks.run_nghttp2 if params["protocol"] == "h2" else c_stacks.run_ngtcp2
    conn, objects, settings = runner(tb, [int(s) for s in params["objects_bytes"]],
                                     iw_segments=int(params["iw_segments"]), bound_s=bound, tmp=folder)
    return conn, objects, {"client": settings}


def _client_output(client: subprocess.Popen, proto: str, bound: float) -> str:
    """Return the standard output of a finished client; raise naming ``proto`` if it failed or ran past ``bound``."""
    return netns.finish(client, bound + 15, f"the {proto} client")[0]


def _run_sctp(tb: Testbed, params: dict, bound: float) -> tuple[dict, list[dict], dict]:
    """Run the C application over usrsctp; return (connection times, objects, settings)."""
    app = apps.build_app()
    settings = sctp_settings(params["iw_segments"])
    srv = tb.popen("server", apps.server_argv("sctp", PORT, app=app, bind=netns.SERVER_IP, timeout=bound + 30,
                                              settings=settings),
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = _read_line(srv.stdout, 20)
    if not line.strip():
        srv.kill()
        raise RuntimeError(f"the sctp server did not start: {srv.stderr.read()[-500:].strip()}")
    argv = apps.client_argv("sctp", netns.SERVER_IP, PORT, list(params["objects_bytes"]), streams=True,
                            pipeline=True, seed=int(params["link_seed"]) % (2**31 - 1), timeout=bound, app=app,
                            settings=settings)
    client = tb.popen("client", argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = _client_output(client, "sctp", bound)
    frame = apps.parse_client_output(out)
    user = frame.attrs["users"].iloc[0]
    conn = {"t_connect_start": float(user["t_start"]), "t_handshake_done": float(user["t_connected"]),
            "t_first_request": float(frame["t_request"].min()), "realtime_first_request": None}
    objects = frame[["object", "stream", "bytes", "t_request", "t_first_byte", "t_done"]].to_dict("records")
    return conn, objects, {"server": json.loads(line), "client": frame.attrs["settings"],
                           "pinned": settings.provenance()}


def until(packets: list[tuple[float, bytes]], t: float) -> list[tuple[float, bytes]]:
    """Return the captured ``packets`` (timestamp s on the wall clock, bytes) up to time ``t`` (the page loaded).

    The two captures stop together (:func:`paperlib.emulation.experiments.stop_captures`), but not at one instant:
    a packet of the teardown sent as the first stopped can be in the other capture alone, with nothing to match it
    to; no wire figure reads a packet after the page."""
    return [p for p in packets if p[0] <= t]


def wire_figures(client_packets: list, server_packets: list, params: dict) -> dict | str:
    """Return the run's handshake and first byte counted on the wire (:func:`capture.wire_handshake` and
    :func:`capture.wire_ttfb` of both devices' captures), or why they cannot be read (the ValueError's text:
    the run keeps its other measures, and the table shows the reason in ``wire_error``)."""
    kind = WIRE_KIND[params["protocol"]]
    try:
        return {**capture.wire_handshake(client_packets, server_packets, float(params["rtt_s"]), kind,
                                         float(params["rate_bps"])),
                **capture.wire_ttfb(client_packets, server_packets, float(params["rtt_s"]), kind,
                                    float(params["rate_bps"]))}
    except ValueError as err:
        return str(err)


def without_teardown(packets: list[tuple[float, bytes]], protocol: str) -> list[tuple[float, bytes]]:
    """Return the captured (time, IPv4 packet) ``packets`` of a C run less the kernel's answers to a closed
    endpoint: for h2 the TCP segments with RST set, for h3 every packet that is not UDP (ICMP port unreachable).

    Why: a C client exits as soon as its page is in and the run then stops the server, so the kernel of the end
    that has closed answers the other end's last packets: with resets of the same bytes microseconds apart after
    nghttpd stops, which the captures' matching of identical packets
    (:func:`paperlib.emulation.capture.wire_handshake`) cannot pair, and with ICMP for ngtcp2, which is no QUIC
    packet. The handshake and the first response byte, all the wire figures read, come
    before them.
    """
    out = []
    for t, ip in packets:
        ihl = (ip[0] & 0x0F) * 4 if ip else 0
        if protocol == "h2" and len(ip) > ihl + 13 and ip[9] == 6 and ip[ihl + 13] & 0x04:
            continue
        if protocol == "h3" and (len(ip) < 10 or ip[9] != 17):
            continue
        out.append((t, ip))
    return out


def _varint(b: bytes, at: int) -> tuple[int, int]:
    """Return (value, next offset) of the QUIC variable-length integer at ``at`` (RFC 9000 section 16)."""
    n = 1 << (b[at] >> 6)
    value = b[at] & 0x3F
    for x in b[at + 1:at + n]:
        value = (value << 8) | x
    return value, at + n


def with_quic_bit(packets: list[tuple[float, bytes]]) -> list[tuple[float, bytes]]:
    """Return the captured (time, IPv4 packet) ``packets`` with the QUIC bit (0x40 of each QUIC packet's first
    byte) set in every UDP datagram, as :func:`paperlib.emulation.capture.quic_packet_types` reads packets.

    Why, for the ngtcp2 runs: ngtcp2 greases the QUIC bit (RFC 9287) once its peer allows it, as its client does,
    so some of its packets carry the bit clear, which the reading takes for padding after the last packet. Only
    that bit changes (in both devices' captures alike, so their matching holds); long headers are walked by their
    Length fields (RFC 9000 section 17.2) to reach coalesced packets; a short header fills the datagram.
    """
    out = []
    for t, ip in packets:
        if len(ip) < 29 or ip[9] != 17:
            out.append((t, ip))
            continue
        b = bytearray(ip)
        off, end = (b[0] & 0x0F) * 4 + 8, min(len(b), int.from_bytes(b[2:4], "big"))
        try:
            while off < end:
                b[off] |= 0x40
                if not b[off] & 0x80 or b[off + 1:off + 5] == b"\0\0\0\0":
                    break  # a short header, or Version Negotiation: the rest of the datagram
                at = off + 5
                at += 1 + b[at]  # DCID
                at += 1 + b[at]  # SCID
                kind = (b[off] >> 4) & 0x03
                if kind == 3:
                    break  # Retry fills the datagram
                if kind == 0:
                    token, at = _varint(b, at)
                    at += token
                length, at = _varint(b, at)
                off = at + length
        except IndexError:
            pass  # the capture ends inside a header: the reading says so
        out.append((t, bytes(b)))
    return out


def run_point(params: dict, seed: int) -> dict:
    """Load the page once on a fresh testbed (:func:`load_page`), again up to
    :data:`paperlib.emulation.experiments.FIDELITY_TRIES` times while the run breaks the fidelity rule (one
    connection handshake per run; :func:`paperlib.emulation.fidelity.run_kept`): the sweep's function."""
    return fidelity.run_kept(load_page, params, seed, rtt_s=float(params["rtt_s"]), handshakes=1,
                             tries=experiments.FIDELITY_TRIES)


def load_page(params: dict, seed: int) -> dict:
    """Load the page once on a fresh testbed; return the run's measures and its fidelity record.

    ``params``: a point of :func:`points`. ``seed`` (the sweep's per-point seed) is not used: the link's
    loss seed is ``params["link_seed"]`` (:func:`link_seed`), shared by the protocols. Returns per-object
    times (seconds from the connection's start), ``plt_s`` (connection start -> last byte of the last
    object), ``ttfb_s`` (-> first response byte), ``handshake_rtts`` ((first request sent - connection
    start) / ``rtt_s``, on the client's clock), the first flight of the capture run (else None), ``wire``: the
    handshake and first byte counted on both devices' captures (:func:`wire_figures`; every run captures
    both devices) or None with ``wire_error`` saying why, and the run's provenance. A point of implementation "c"
    runs the C programs (:func:`_run_c`) on the same testbed, TCP settings and captures, without the first
    flight's check (ngtcp2's client gives no wall-clock time of its first request to anchor it on).
    """
    check_point(params)
    proto, iw, rtt = params["protocol"], int(params["iw_segments"]), float(params["rtt_s"])
    link = Link(rate_bps=float(params["rate_bps"]), delay_s=rtt / 2, loss_down=float(params["loss"]),
                queue_packets=int(params["queue_packets"]), mtu_bytes=MTU_BYTES)
    tcp = TodayTcp(congestion_control="reno", initcwnd=iw, mss_bytes=TCP_MSS_BYTES)
    bound = time_bound_s(params)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="p005-") as tmp, Testbed(link, seed=int(params["link_seed"]),
                                                                      tcp=tcp) as tb:
        kind = WIRE_KIND[proto]
        pcaps = {side: Path(tmp) / f"{side}.pcap" for side in ("client", "server")}
        dumps = {side: experiments.start_capture(tb, pcap, side, capture.SNAP_BYTES[kind])
                 for side, pcap in pcaps.items()}
        try:
            if implementation_of(params) == "c":
                conn, objects, settings = _run_c(tb, params, bound, Path(tmp))
            elif proto == "sctp":
                conn, objects, settings = _run_sctp(tb, params, bound)
            else:
                conn, objects, settings = _run_http(tb, params, bound, Path(tmp))
            loaded = time.time()  # the client has its page and has exited: what follows is the connection's teardown
        finally:
            counts = dict(zip(dumps, experiments.stop_captures(dumps.values()), strict=True))
        packets, server_packets = (until(capture.read_pcap(pcaps[side]), loaded) for side in ("client", "server"))
        if implementation_of(params) == "c":
            packets, server_packets = (with_quic_bit(without_teardown(x, proto)) if proto == "h3"
                                       else without_teardown(x, proto) for x in (packets, server_packets))
        flight = None
        if params.get("capture") and implementation_of(params) == "python":
            ff = capture.first_flight(packets, rtt, "quic" if proto == "h3" else "sctp",
                                      conn["realtime_first_request"])
            flight = {**ff, "iw_checked": capture.iw_checked(ff, iw, 1 if proto == "sctp" else 0),
                      "captured_packets": len(packets)}
        wire, wire_error = None, experiments.incomplete_captures(counts)
        if wire_error is None:
            wire = wire_figures(packets, server_packets, params)
            if isinstance(wire, str):
                wire, wire_error = None, wire
        # the TCP client's receive buffer limit (flow control must not bind): recorded, not set
        provenance = {**tb.provenance(), "client_tcp_rmem": tb.sysctl_values("client", ["net.ipv4.tcp_rmem"])}
    link_stats = tb.link_stats  # the emulator's counters, read at teardown
    if sorted(o["object"] for o in objects) != list(range(len(params["objects_bytes"]))):
        raise RuntimeError(f"the {proto} client reported objects {sorted(o['object'] for o in objects)[:5]}..., "
                           f"expected {len(params['objects_bytes'])}")
    objects.sort(key=lambda o: o["object"])
    t0 = conn["t_connect_start"]
    return {
        "plt_s": max(o["t_done"] for o in objects) - t0,
        "ttfb_s": min(o["t_first_byte"] for o in objects) - t0,
        "handshake_rtts": (conn["t_first_request"] - t0) / rtt,
        "handshake_done_s": conn["t_handshake_done"] - t0,
        "t_first_byte": [o["t_first_byte"] - t0 for o in objects],
        "t_done": [o["t_done"] - t0 for o in objects],
        "first_flight": flight,
        "wire": wire,
        "wire_error": wire_error,
        "link_stats": link_stats,
        "fidelity": tb.fidelity.to_dict(),
        "provenance": {**provenance, "application_settings": settings,
                       "captures": {side: None if c is None else dataclasses.asdict(c) for side, c in counts.items()}},
        "wall_s": time.monotonic() - started,
    }


# --- the sweep ----------------------------------------------------------------------------------


def code_version() -> str:
    """Return the cache's code version: the experiments' (emulator, namespaces, applications) and a hash of
    this module, :mod:`page_app`, :mod:`capture`, :mod:`transports`, :mod:`c_stacks` and the C application."""
    files = [Path(inspect.getsourcefile(m)) for m in (sys.modules[__name__], page_app, capture, transports, c_stacks)]
    files.append(Path(apps.APP_SOURCE))
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return f"{experiments.code_version()}+p005-{digest.hexdigest()[:12]}"


def missing_reason(protocol: str, implementation: str = "python") -> str | None:
    """Return why ``protocol`` cannot run on this machine beyond the testbed (a package not installed, the C
    application not buildable; for ``implementation`` "c", the C programs' Debian packages,
    :func:`paperlib.emulation.c_stacks.missing_reason`), or None."""
    transports.check_protocol(protocol)
    if implementation == "c":
        if protocol not in C_IMPLEMENTATION:
            raise validate.ParameterError(f"implementation 'c' exists for {sorted(C_IMPLEMENTATION)} only, got "
                                          f"protocol {protocol!r}")
        return c_stacks.missing_reason(C_IMPLEMENTATION[protocol])
    if implementation != "python":
        raise validate.ParameterError(f"implementation must be one of {IMPLEMENTATIONS}, got {implementation!r}")
    for package in PACKAGES[protocol]:
        if importlib.util.find_spec(package) is None:
            return f"{package} is not installed"
    if PACKAGES[protocol]:
        return None
    try:
        apps.build_app()
    except apps.AppBuildError as err:
        return str(err)
    return None


def run(paper, profile: str, out: Path, *, scheduler_links: int | None = None) -> RealStacks:
    """Run :func:`points` through the sweep runner (or say why not) and write ``out/emulation_runs.csv``.

    Nothing runs with ``profile`` "off" (by choice) or when :func:`netns.unavailable_reason` names what the
    machine lacks; a protocol whose package is missing (:func:`missing_reason`) is left out with its reason
    (:func:`not_run_reasons`) and the others run; so is a protocol's C implementation whose programs are missing
    (``c_missing``), its Python points running. ``scheduler_links`` testbeds run at once (default
    :data:`LINKS_AT_ONCE`, or ``WEBPERF_EMU_LINKS`` when the environment sets it).
    """
    profile = experiments.check_profile(profile)
    reason = emulation_notebook.not_run_reason(profile)
    if reason:
        return RealStacks(profile, not_run=reason)
    missing = {p: f"{emulated_rows.NOT_RUN_CANNOT}: {why}" for p in PROTOCOLS
               if (why := missing_reason(p)) is not None}
    c_missing = {p: f"{emulated_rows.NOT_RUN_CANNOT}: {why}" for p in C_IMPLEMENTATION
                 if (why := missing_reason(p, "c")) is not None}
    pts = [p for p in points(paper, profile) if p["protocol"] not in missing
           and not (implementation_of(p) == "c" and p["protocol"] in c_missing)]
    if not pts:
        return RealStacks(profile, not_run="; ".join(f"{p}: {w}" for p, w in missing.items()), missing=missing,
                          c_missing=c_missing)
    n = scheduler_links or (experiments.PARALLEL_LINKS if "WEBPERF_EMU_LINKS" in os.environ else LINKS_AT_ONCE)

    def swept(points_: list[dict], stage: str) -> pd.DataFrame:
        runs_ = later_tries.run_sweep_kept(run_point, points_, cache_dir=experiments.CACHE_DIR,
                                           code_version=code_version(),
                                           scheduler=sweep.SYNCHRONOUS if n == 1 else None,
                                           n_workers=None if n == 1 else n, progress=True,
                                           desc=f"{PAPER} real stacks ({profile}, {stage})")
        return runs_.assign(implementation=[implementation_of(r) for r in runs_.to_dict("records")])

    runs = swept(pts, "pilot")
    kept, lost = emulation_notebook.split_kept(runs)
    from paperlib.data import Paper, load_paper
    from paperlib.reproduce.p005 import claims, operating_point, replication_plan

    paper = paper if isinstance(paper, Paper) else load_paper(PAPER)  # the model of the plan needs the data
    ev = claims.Evidence(paper, operating_point.chosen_convention(paper), operating_point.operating_point(paper))
    plans = replication_plan.plans(ev, summary(paper, RealStacks(profile, pts, kept, lost=lost)))
    wanted = replication_plan.cell_replications(plans)
    # the plan counts replications that kept their timing: the first stage brings each planned cell to it (the
    # pilot's lost runs included), the second replaces once the runs the first lost; no third
    for stage in ("replications of the plan", "replacing replications that lost their timing"):
        extra = more_points(pts, wanted, kept_replications(kept, **claims.LINK), **claims.LINK)
        if not extra:
            break
        pts = pts + extra
        runs = swept(pts, stage)
        kept, lost = emulation_notebook.split_kept(runs)
    atomic_write_csv(Path(out) / "emulation_runs.csv", runs_table(runs))
    return RealStacks(profile, pts, kept, lost=lost, missing=missing, plans=plans, c_missing=c_missing)


def kept_replications(kept: pd.DataFrame | None, rate_bps: float, rtt_s: float) -> dict[tuple[str, float, int], int]:
    """Return (protocol, loss, iw_segments) -> the Python stacks' runs that kept their timing there, at the link
    (``rate_bps``, ``rtt_s``): what a plan's replications count (``kept``: the kept runs of a sweep)."""
    runs = python_runs(kept)
    if runs is None or not len(runs):
        return {}
    at = runs[np.isclose(runs.rate_bps.astype(float), rate_bps) & np.isclose(runs.rtt_s.astype(float), rtt_s)]
    counts = at.groupby(["protocol", "loss", "iw_segments"]).size()
    return {(str(p), float(loss), int(iw)): int(n) for (p, loss, iw), n in counts.items()}


def more_points(pilot: list[dict], replications: dict[tuple[str, float, int], int],
                kept: dict[tuple[str, float, int], int], rate_bps: float, rtt_s: float) -> list[dict]:
    """Return the points that bring each planned cell to its planned replications that kept their timing.

    ``replications``: (protocol, loss, iw_segments) at the questions' link (``rate_bps``, ``rtt_s``) -> replications
    (:func:`paperlib.reproduce.p005.replication_plan.cell_replications`); ``kept``: the same key -> the runs that kept
    their timing so far (:func:`kept_replications`). A cell short of its plan gets as many new repetitions as it
    lacks, after its last one (``pilot``: every point run so far): repetition ``k`` is its first point with ``rep``
    k (the Python stacks' only), its own link seed (:func:`link_seed` of the cell's rate, RTT, loss and k: the same
    for every protocol, so cells stay paired) and no capture check.
    """
    out = []
    for (proto, loss, iw), want in sorted(replications.items()):
        cell = [p for p in pilot if (p["protocol"], p["loss"], p["iw_segments"]) == (proto, loss, iw)
                and implementation_of(p) == "python"
                and np.isclose(p["rate_bps"], rate_bps) and np.isclose(p["rtt_s"], rtt_s)]
        lacking = want - kept.get((proto, float(loss), int(iw)), 0)
        if not cell or lacking <= 0:
            continue
        base, first = cell[0], max(p["rep"] for p in cell) + 1
        for k in range(first, first + lacking):
            out.append({**base, "rep": k, "link_seed": link_seed(base["rate_bps"], base["rtt_s"], loss, k),
                        "capture": False})
    return out


def runs_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Return the runs as the flat table ``emulation_runs.csv`` holds (:data:`RUN_COLUMNS`: the measures, the
    wire figures and the fidelity figures of :func:`paperlib.emulation.notebook.fidelity_columns`)."""
    rows = []
    for r in runs.to_dict("records"):
        ff = r.get("first_flight") or {}
        rows.append({"implementation": implementation_of(r),
                     **{k: r[k] for k in ("protocol", "rate_bps", "rtt_s", "loss", "queue_packets", "iw_segments",
                                          "rep", "link_seed", "plt_s", "ttfb_s", "handshake_rtts", "wall_s")},
                     "objects": len(r["objects_bytes"]), "page_bytes": int(sum(r["objects_bytes"])),
                     "first_flight_packets": ff.get("packets"), "first_flight_full_packets": ff.get("full_packets"),
                     "handshake_packets": ff.get("handshake_packets"), "iw_checked": ff.get("iw_checked"),
                     **wire_row(r)})
    fid = emulation_notebook.fidelity_columns(runs).to_dict("records") if len(runs) else []
    return pd.DataFrame([{**row, **f} for row, f in zip(rows, fid, strict=True)], columns=RUN_COLUMNS)


def wire_row(run: dict) -> dict:
    """Return a run's wire figures as :data:`WIRE_COLUMNS` (NaN where the run has none) and ``wire_error`` (why
    the captures could not be read, else None)."""
    wire = run.get("wire") or {}
    out = {col: float(wire[key]) if key in wire else float("nan") for col, key in WIRE_COLUMNS.items()}
    error = run.get("wire_error")
    out["wire_error"] = error if isinstance(error, str) and error else None
    return out


# --- results ------------------------------------------------------------------------------------

_KEY = ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments"]


def _runs(real_stacks) -> pd.DataFrame:
    runs = getattr(real_stacks, "runs", None)
    if runs is None:
        raise validate.ParameterError(f"real_stacks must be the result of run(), got {type(real_stacks).__name__}")
    return runs


def _implementations(runs: pd.DataFrame | None) -> pd.Series:
    """Return each run's implementation (:func:`implementation_of`: "python" where the column is absent or NaN)."""
    if runs is None or "implementation" not in runs.columns:
        return pd.Series("python", index=None if runs is None else runs.index, dtype=object)
    return runs["implementation"].map(lambda v: implementation_of({"implementation": v}))


def python_runs(runs: pd.DataFrame | None) -> pd.DataFrame | None:
    """Return the runs of the Python stacks among ``runs`` (None stays None)."""
    return runs if runs is None or not len(runs) else runs[_implementations(runs) == "python"]


def python_only(real_stacks):
    """Return ``real_stacks`` (a dataclass such as :class:`RealStacks`) with only the Python stacks' runs in
    ``runs`` and ``lost``: what the claims, anchors and their fidelity are drawn from."""
    return replace(real_stacks, runs=python_runs(real_stacks.runs), lost=python_runs(real_stacks.lost))


def stack_text(params: dict, provenance: dict | None = None) -> str:
    """Return one sentence on the stack of a run (ledger reasons): implementation and version, TLS, congestion
    control, initial window, flow control, link."""
    proto, iw = params["protocol"], params["iw_segments"]
    versions, cc_module = {}, "?"
    if provenance:
        app = provenance.get("application_settings", {}) or {}
        versions = (app.get("client", {}) or {}).get("versions", {}) or {}
        cc_module = ((app.get("server", {}) or {}).get("sctp", {}) or {}).get("cc_module", "?")
    link = (f"link {params['rate_bps'] / 1e6:g} Mbit/s, RTT {params['rtt_s'] * 1e3:g} ms, loss {params['loss']:g} "
            f"(data direction), drop-tail {params['queue_packets']} packets, MTU {MTU_BYTES} B")
    if implementation_of(params) == "c":
        impl = _c_stack_text(proto, iw, versions)
    elif proto == "h2":
        impl = (f"HTTP/2 (h2 {versions.get('h2', '?')}) over TLS 1.3 ({versions.get('openssl', 'OpenSSL')}) over "
                f"Linux TCP reno, initcwnd {iw}, MSS {TCP_MSS_BYTES} B, SACK, timestamps and RACK on, delayed ACKs, "
                f"TLS records up to 16 KB, windows {page_app.FLOW_WINDOW} B")
    elif proto == "h3":
        impl = (f"HTTP/3 over QUIC (aioquic {versions.get('aioquic', '?')}, TLS 1.3), NewReno, initial window {iw} "
                f"datagrams of {page_app.QUIC_DATAGRAM_BYTES} B, paced, max_data and max_stream_data "
                f"{page_app.FLOW_WINDOW} B")
    else:
        impl = (f"SCTP (usrsctp over UDP, webperf_app.c, no TLS), one object per stream, RFC 4960 congestion "
                f"control (usrsctp module {cc_module}), initial cwnd {iw} MTUs, max burst "
                f"{max(iw, SCTP_MAX_BURST)}, {SCTP_DATA_BYTES} B of data per packet, RTO and SACK at RFC 4960 "
                f"defaults, receive buffer 4 MB")
    return f"{impl}; {link}."


def _c_stack_text(proto: str, iw: int, versions: dict) -> str:
    """Return the C implementation's part of :func:`stack_text` (``versions``: Debian package -> version)."""
    if proto == "h2":
        return (f"HTTP/2 (nghttp2: nghttpd {versions.get('nghttp2-server', '?')}, nghttp "
                f"{versions.get('nghttp2-client', '?')}) over TLS 1.3 (OpenSSL, group P-256) over Linux TCP reno, "
                f"initcwnd {iw}, MSS {TCP_MSS_BYTES} B, SACK, timestamps and RACK on, delayed ACKs, TLS records up "
                f"to 16 KB, windows {2**c_stacks.NGHTTP_WINDOW_BITS - 1} B, RFC 9218 priorities")
    return (f"HTTP/3 over QUIC (ngtcp2 + nghttp3: gtlsserver {versions.get('ngtcp2-server', '?')}, gtlsclient "
            f"{versions.get('ngtcp2-client', '?')}, GnuTLS TLS 1.3), NewReno, initial window "
            f"{c_stacks.NGTCP2_INITIAL_WINDOW} datagrams of {c_stacks.QUIC_DATAGRAM_BYTES} B (fixed), paced, "
            f"max_data and max_stream_data {c_stacks.NGTCP2_WINDOW_BYTES} B, RFC 9218 priorities")


def summary(paper, real_stacks) -> pd.DataFrame:
    """Return, for ``real_stacks`` (a :class:`RealStacks`) of ``paper`` (accepted for the call every paper answers;
    the runs carry their cells), one row per (protocol, rate_bps, rtt_s, loss, iw_segments), sorted, columns
    :data:`SUMMARY_COLUMNS`: the mean and Student-t 95% half-width
    (:func:`paperlib.emulation.experiments.mean_ci`) over repetitions of the page load time, the time to the
    first response byte, the handshake in round trips and the mean object time (each run's mean over its
    objects of connection start -> the object's last byte: the papers' mean response time); the first flight
    of the (protocol, rate, rtt, iw)'s capture run in full-sized packets (``full_packets`` of
    :func:`paperlib.emulation.capture.first_flight`: its bytes over its largest packet's, rounded up;
    ``emulation_runs.csv`` also holds the raw packet count) and whether it shows the set window; the stack in
    a sentence; the handshake counted on the wire (:func:`paperlib.emulation.capture.wire_handshake`: client's
    first packet -> first packet that can carry the request, on the client's device, in round trips; the
    protocol's round trips without the applications' processing and the link's serialisation; the processing
    on that path in round trips), the time to the first response byte on the wire (s) and its protocol round
    trips (:func:`paperlib.emulation.capture.wire_ttfb`), each a mean and 95% half-width over the ``wire_n``
    repetitions whose captures were read; for every protocol but :data:`PAIRED_WITH`, the paired differences of
    h2's runs and the cell's on the same link seeds (:func:`_paired_columns`: ``h2_pairs``, ``h2_gap_*``), which
    the questions comparing a protocol with HTTP/2 read. Empty when nothing ran. The Python stacks' runs only
    (those without an ``implementation`` or with "python"); :func:`implementation_summary` sets the C programs
    beside them."""
    return _cells_summary(python_runs(_runs(real_stacks)))


def _cells_summary(runs: pd.DataFrame | None) -> pd.DataFrame:
    """Return :func:`summary`'s table of ``runs`` (whichever implementation ran them)."""
    if runs is None or not len(runs):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    flights = {}
    for r in runs.to_dict("records"):
        if r.get("first_flight"):
            flights[(r["protocol"], r["rate_bps"], r["rtt_s"], r["iw_segments"])] = r["first_flight"]
    # each protocol's runs paired with h2's once, for all its cells
    paired_with_h2 = {p: _paired_runs(runs, PAIRED_WITH, p) for p in set(runs.protocol) - {PAIRED_WITH}}
    rows = []
    for key, grp in runs.groupby(_KEY, sort=True):
        ff = flights.get((key[0], key[1], key[2], key[4]))
        row = dict(zip(_KEY, key, strict=True))
        plt_m, plt_h, n = experiments.mean_ci(grp["plt_s"])
        tt_m, tt_h, _ = experiments.mean_ci(grp["ttfb_s"])
        hs_m, hs_h, _ = experiments.mean_ci(grp["handshake_rtts"])
        ob_m, ob_h, _ = experiments.mean_ci([_object_mean_s(done) for done in grp["t_done"]])
        wire = pd.DataFrame([wire_row(r) for r in grp.to_dict("records")])
        wired = wire[wire.wire_error.isna() & wire.protocol_rtts.notna()]
        wire_ci = {name: experiments.mean_ci(wired[name]) for name in ("wire_rtts", "protocol_rtts", "processing_rtts",
                                                                          "ttfb_wire_s", "ttfb_protocol_rtts")}
        first = grp.iloc[0].to_dict()
        rows.append({**row, **_paired_columns(paired_with_h2.get(key[0]), key), "n": n, "plt_mean_s": plt_m,
                     "plt_half_s": plt_h, "ttfb_mean_s": tt_m, "ttfb_half_s": tt_h, "handshake_rtts_mean": hs_m,
                     "handshake_rtts_half": hs_h,
                     "first_flight_packets": None if ff is None else ff["full_packets"],
                     "iw_checked": None if ff is None else bool(ff["iw_checked"]),
                     "stack": stack_text(first, first.get("provenance")), "object_mean_s": ob_m,
                     "object_half_s": ob_h,
                     **{f"{name}_{part}": wire_ci[name][k] for name in wire_ci
                        for k, part in ((0, "mean"), (1, "half"))},
                     "wire_n": len(wired)})
    out = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    out["protocol"] = pd.Categorical(out["protocol"], categories=list(PROTOCOLS), ordered=True)
    out = out.sort_values(_KEY, kind="stable").reset_index(drop=True)
    out["protocol"] = out["protocol"].astype(str)
    return out


def _object_mean_s(t_done) -> float:
    """Return one run's mean object time: the mean over its objects of connection start -> the object's last byte
    (``t_done``), the papers' mean response time."""
    return float(np.mean(t_done))


def _paired_runs(runs: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Return the runs of protocols ``a`` and ``b`` among ``runs`` paired on :data:`_LINK_RUN`: one row per link
    seed of a cell both ran, columns :data:`PAIRED_COLUMNS`, ``object_a_s``, ``object_b_s`` (:func:`_object_mean_s`;
    ``rep`` is ``a``'s), sorted by cell and rep.

    Two runs of one link seed share the link's loss pattern, so their difference holds the protocols' difference
    without the between-seed spread both carry (h2's and h3's page load times under loss correlate closely)."""
    columns = [*PAIRED_COLUMNS, "object_a_s", "object_b_s"]
    if runs is None or not len(runs) or "link_seed" not in runs.columns:
        return pd.DataFrame(columns=columns)
    types = {"rate_bps": float, "rtt_s": float, "loss": float, "iw_segments": int, "link_seed": int}
    sides = [runs.loc[runs.protocol == proto, [*_LINK_RUN, "rep"]].astype(types).assign(
        **{f"plt_{tag}_s": runs.loc[runs.protocol == proto, "plt_s"].astype(float),
           f"object_{tag}_s": [_object_mean_s(d) for d in runs.loc[runs.protocol == proto, "t_done"]]})
        for proto, tag in ((a, "a"), (b, "b"))]
    both = sides[0].merge(sides[1].drop(columns="rep"), on=_LINK_RUN, how="inner")
    return both.sort_values(["rate_bps", "rtt_s", "loss", "iw_segments", "rep"]).reset_index(drop=True)[columns]


def _paired_columns(pairs: pd.DataFrame, cell: tuple) -> dict:
    """Return :func:`summary`'s ``h2_*`` columns of ``cell`` (its :data:`_KEY` values) from ``pairs``, the runs of
    :data:`PAIRED_WITH` and the cell's protocol that share a link seed (:func:`_paired_runs`; None for h2's own
    cells): the number of pairs, the mean and Student-t 95% half-width of the paired differences h2 - protocol of
    the page load time and of the mean object time, and h2's mean object time over the pairs (the scale of a
    relative difference). NaN (0 pairs) for h2's own cells and where no pair ran."""
    _, rate, rtt, loss, iw = cell
    out = {"h2_pairs": 0, **{c: float("nan") for c in ("h2_gap_plt_mean_s", "h2_gap_plt_half_s",
                                                      "h2_gap_object_mean_s", "h2_gap_object_half_s",
                                                      "h2_paired_object_mean_s")}}
    if pairs is None:
        return out
    pairs = pairs[np.isclose(pairs.rate_bps, rate) & np.isclose(pairs.rtt_s, rtt) & np.isclose(pairs.loss, loss)
                  & (pairs.iw_segments == iw)]
    if not len(pairs):
        return out
    plt_m, plt_h, n = experiments.mean_ci(pairs.plt_a_s - pairs.plt_b_s)
    ob_m, ob_h, _ = experiments.mean_ci(pairs.object_a_s - pairs.object_b_s)
    return {"h2_pairs": n, "h2_gap_plt_mean_s": plt_m, "h2_gap_plt_half_s": plt_h, "h2_gap_object_mean_s": ob_m,
            "h2_gap_object_half_s": ob_h, "h2_paired_object_mean_s": float(pairs.object_a_s.mean())}


def c_summary(real_stacks) -> pd.DataFrame:
    """Return :func:`summary`'s table of the C implementations' runs (:data:`C_IMPLEMENTATION`; empty without)."""
    runs = _runs(real_stacks)
    if runs is None or not len(runs):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    return _cells_summary(runs[_implementations(runs) == "c"])


def handshake_cells(python: pd.DataFrame, c: pd.DataFrame) -> pd.DataFrame:
    """Return the loss-free cells the handshake measurements read (the handshake rows and the question
    ``quic_handshake_saving``) by :data:`HANDSHAKE_RULE`, fixed before any run: :func:`summary`'s columns and
    ``implementation``, one row per (protocol, rate_bps, rtt_s, iw_segments) with at least two runs that kept their
    timing and whose captures were read (``wire_n``) -- the Python stack's (``python``, :func:`summary`) where it
    has them, else the C implementation's of the same cell (``c``, :func:`c_summary`) where that has them.

    The handshake is a fact of the protocol's message flow, counted on the wire without the applications'
    processing. A CPU-bound Python stack (aioquic needs over a CPU-second per side for the page without loss) can
    lose its timing on a whole cell on two cores where the C program, with a tenth of its CPU, keeps it; the rows
    comparing the two implementations (:func:`implementation_summary`) say whether they agree where both kept it.
    """
    def usable(t: pd.DataFrame, name: str) -> pd.DataFrame:
        t = t if len(t) else pd.DataFrame(columns=SUMMARY_COLUMNS)
        t = t[(t.loss == 0) & (t.n >= 2) & (t.wire_n >= 2)] if "wire_n" in t.columns else t.iloc[0:0]
        return t.assign(implementation=name)

    py, cc = usable(python, "python"), usable(c, "c")
    key = ["protocol", "rate_bps", "rtt_s", "iw_segments"]
    have = {tuple(k) for k in py[key].itertuples(index=False)}
    fallback = cc[[tuple(k) not in have for k in cc[key].itertuples(index=False)]]
    table = pd.concat([py, fallback], ignore_index=True) if len(fallback) else py
    return table.sort_values(_KEY, kind="stable").reset_index(drop=True)


def implementation_summary(real_stacks) -> pd.DataFrame:
    """Return the two implementations of each HTTP version side by side: one row per (protocol, iw_segments,
    implementation) at the questions' link (:data:`C_LINK`) without loss, for every (protocol, iw_segments) a C
    implementation ran, columns :data:`IMPLEMENTATION_COLUMNS`.

    Per measure of :data:`IMPLEMENTATION_MEASURES` the mean and Student-t 95% half-width
    (:func:`paperlib.emulation.experiments.mean_ci`) over repetitions: the handshake counted on the wire in round
    trips (``protocol_rtts``) and the applications' processing on its path (``processing_rtts``) over the
    ``wire_n`` runs whose captures were read, the time to the first response byte and the page load time (s) over
    all ``n``; ``stack`` says which programs ran. Empty when no C run is among the runs."""
    runs = _runs(real_stacks)
    if runs is None or not len(runs):
        return pd.DataFrame(columns=IMPLEMENTATION_COLUMNS)
    runs = runs.assign(implementation=_implementations(runs))
    at = (runs.loss == 0) & np.isclose(runs.rate_bps.astype(float), C_LINK["rate_bps"]) & np.isclose(
        runs.rtt_s.astype(float), C_LINK["rtt_s"])
    runs = runs[at & runs.protocol.isin(list(C_IMPLEMENTATION))]
    cells = set(zip(runs.protocol[runs.implementation == "c"], runs.iw_segments[runs.implementation == "c"],
                    strict=True))
    rows = []
    for (proto, iw, impl), grp in runs.groupby(["protocol", "iw_segments", "implementation"], sort=True):
        if (proto, iw) not in cells:
            continue
        wire = pd.DataFrame([wire_row(r) for r in grp.to_dict("records")])
        wired = wire[wire.wire_error.isna() & wire.protocol_rtts.notna()]
        row = {"protocol": proto, "iw_segments": int(iw), "implementation": impl, "n": len(grp),
               "wire_n": len(wired)}
        for m, (mean_col, half_col) in IMPLEMENTATION_MEASURES.items():
            row[mean_col], row[half_col], _ = experiments.mean_ci(wired[m] if m in wired.columns else grp[m])
        first = grp.iloc[0].to_dict()
        rows.append({**row, "stack": stack_text(first, first.get("provenance"))})
    out = pd.DataFrame(rows, columns=IMPLEMENTATION_COLUMNS)
    order = {name: i for i, name in enumerate(IMPLEMENTATIONS)}
    return out.sort_values(["protocol", "iw_segments", "implementation"], key=lambda c: c.map(order)
                           if c.name == "implementation" else c, kind="stable").reset_index(drop=True)


def paired(real_stacks, a: str, b: str) -> pd.DataFrame:
    """Return the page load times of protocols ``a`` and ``b`` on the same link seed, one row per (rate_bps,
    rtt_s, loss, iw_segments, link seed) both ran, columns :data:`PAIRED_COLUMNS` (the Python stacks' runs;
    :func:`_paired_runs`)."""
    transports.check_protocol(a)
    transports.check_protocol(b)
    if a == b:
        raise validate.ParameterError(f"a and b must be two protocols, got {a!r} twice")
    return _paired_runs(python_runs(_runs(real_stacks)), a, b)[PAIRED_COLUMNS]


def not_run_reasons(real_stacks) -> dict[str, str]:
    """Return protocol -> why it did not run ({} when all ran)."""
    if getattr(real_stacks, "not_run", None):
        missing = getattr(real_stacks, "missing", {}) or {}
        return {p: missing.get(p, real_stacks.not_run) for p in PROTOCOLS}
    return dict(getattr(real_stacks, "missing", {}) or {})
