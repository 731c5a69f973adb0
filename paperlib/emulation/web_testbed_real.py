"""Paper 001's testbed on real Linux TCP stacks: :mod:`paperlib.sim.web_testbed`'s experiment, run in real time.

:func:`simulate` takes exactly the parameters of :func:`paperlib.sim.web_testbed.simulate`
(``web_testbed.DEFAULTS`` and ``LABELS``, checked by the same function) and returns its result keys with the
same meaning, measured on kernel TCP in two network namespaces joined by the user-space link emulator
(:class:`paperlib.emulation.netns.Testbed`), plus ``fidelity`` (the run's fidelity record, see
:data:`RULE`) and ``generator`` (what the browsers' program scheduled, issued and spent).

Topology. One client namespace holds the six pairs' client addresses (:func:`client_ips`), one server
namespace the six server addresses (:func:`server_ips`); ``linkemu`` between them is the router pair and the
bottleneck: both directions serialise at ``bottleneck_bps`` behind a queue disc of ``queue_packets`` (ns-3's
``FifoQueueDisc``, or RED as ns-3's ``RedQueueDisc``: :func:`paperlib.emulation.queue_disc.red_from_testbed_params`),
with the backlog counted as ns-3 counts it: in the disc, behind a device that holds one more packet (linkemu's
``--ns3-backlog``), each packet serialised with ns-3's 2-byte point-to-point header. The reply direction
(server -> client) is the one sampled, as in ns-3, where the request direction gets the same disc.
Then ``bottleneck_delay_s`` on both directions and, per address pair, the pair's one-way delay
(:func:`paperlib.sim.web_testbed.one_way_delays`) after serialisation, in each direction. The browsers and
responders are one C program (:mod:`paperlib.emulation.web_load`): the responder listens on every server address,
browser ``i`` talks only to its pair ``browser_group[i]``, and the workload is :func:`web_testbed.workload` of the
same parameters and seed, so ns-3's and this testbed's browsers request the same objects at the same times.

The access links (``access_factor`` times the bottleneck's rate in ns-3) are not emulated. They never queue:
each carries one pair's share of the traffic, which the bottleneck (ten times slower) has already paced, or
will pace, to at most its own rate. What they add is their serialisation, a tenth of the bottleneck's per packet
(0.12 ms for 1500 B at 100 Mbit/s), on two hops per direction: at most 0.5 ms per round trip for full-size
packets, against base round trips of 7 to 327 ms and queueing delays of up to 580 ms. The pairs' delays carry
the whole propagation.

TCP, pinned like ns-3's :func:`paperlib.sim.web_testbed.tcp_settings` (read from it, nothing restated here):

=============================  ================================  =============================================
ns-3 (web_testbed)             Linux here                        difference that remains
=============================  ================================  =============================================
TcpNewReno                     ``tcp_congestion_control=reno``   Linux's Reno is NewReno (RFC 6582 recovery)
SegmentSize ``mss_bytes``      device MTU mss + 40, ``advmss``   none
InitialCwnd ``initial_cwnd``   route ``initcwnd``                none
MinRto ``min_rto_s``           route ``rto_min``                 Linux's RTO estimator (RFC 6298 with its own
                                                                 rttvar floor) and 1 s initial RTO; ns-3's too
                                                                 is 1 s
DelAckCount 2, timeout 0.2 s   route ``quickack 0``: Linux's     Linux ACKs every 2nd full segment too, but its
(``delayed_ack``)              delayed ACKs                      timer is adaptive (40-200 ms) and it ACKs
                                                                 every segment at a connection's start
                                                                 (quickack mode); ``delayed_ack`` False:
                                                                 ``quickack 1``
Sack, Timestamps, WindowScal-  ``tcp_sack=0``, ``tcp_dsack=0``,  none
ing off                        ``tcp_timestamps=0``,
                               ``tcp_window_scaling=0``
Snd/RcvBufSize 65535 B         ``tcp_wmem``/``tcp_rmem`` max     Linux advertises a share of its receive buffer
                               65535 B (send), 2 x 65535 B       (its overhead estimate): the receive buffer is
                               (receive)                         doubled so the window reaches the 64 KiB cap
                                                                 that window scaling off sets anyway
MaxSegLifetime 1 s             Linux's TIME_WAIT 60 s            ports: about 20 connections per second per
                                                                 pair x 60 s stay far below the 28 000
                                                                 ephemeral ports of each client address
(no RACK, TLP, F-RTO, ECN)     ``tcp_recovery=0``,               none
                               ``tcp_early_retrans=0``,
                               ``tcp_frto=0``, ``tcp_ecn=0``
(fixed buffers)                ``tcp_moderate_rcvbuf=0``         none
(listen queues unbounded)      ``somaxconn``,                    none: 4096 pending connections per listener
                               ``tcp_max_syn_backlog`` 4096      are far more than a run opens at once
=============================  ================================  =============================================

Counters. ``queue_sample_times_s``/``queue_samples`` come from linkemu's queue log of the reply direction every
``sample_interval_s``, with the time axis of the browsers' program (0 when its browsers start);
``queue_max_packets`` is the largest sample. ``drops``, ``arrivals``, ``early_drops`` and ``forced_drops`` are the
reply direction's counts from the end of the warm-up on, as ns-3's testbed counts them: the run marks linkemu's
counters ``warmup_s`` after the browsers' program starts (:meth:`paperlib.emulation.netns.Testbed.mark_counters`)
and reads their growth since (``counters_span`` "after warm-up", ``counters_from_s`` the mark's time on the
browsers' axis; "whole run" and None if no mark was taken).
``throughput_bps`` is the reply payload the browsers received after the warm-up per second (the browsers' own
count, :func:`paperlib.emulation.web_load.results`).

Fidelity. Every run carries its :class:`paperlib.emulation.fidelity.FidelityRecord` (the emulator's lateness, the
CPU time and run-queue wait of the browsers' program (role ``client``), the responders (``server``) and the
emulator, the machine's CPU pressure) with the generator's own figures beside it (``fidelity["generator"]``:
requests scheduled and issued, issue lateness, CPU). :data:`RULE` (fixed before any run, docs/fidelity.md) judges
it (:func:`judge`); :func:`run_point` re-runs a point that breaks it, up to :data:`FIDELITY_TRIES` times, like
:func:`paperlib.emulation.fidelity.run_kept`.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paperlib.emulation import build, fidelity, netns
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.sim import web_testbed
from paperlib.validate import ParameterError

try:  # the RED queue and the browsers' program (their modules may be absent from a partial checkout)
    from paperlib.emulation import queue_disc
except ImportError:  # pragma: no cover - then unavailable_reason() says so
    queue_disc = None
try:
    from paperlib.emulation import web_load
except ImportError:  # pragma: no cover
    web_load = None

#: Modules whose code the results depend on (the sweep runner's cache key hashes them too).
SWEEP_DEPENDS = tuple(m for m in (netns, fidelity, queue_disc, web_load, build, web_testbed) if m is not None)
#: The responders' TCP port (ns-3's web_testbed.PORT).
PORT = web_testbed.PORT
#: Wall-time bound of a run beyond its ``sim_time_s``: the browsers' program's start and exit, the responders'
#: counters (s). A run that overruns it is stopped and raises.
GRACE_S = 30.0
#: How many times a run that breaks :data:`RULE` is made again (the same parameters and seed) before its result
#: is kept as it is, marked ``fidelity_kept`` False.
FIDELITY_TRIES = 3
#: linkemu's directions: a is the client side, so b->a (server -> client) is the reply direction.
REPLY, REQUEST = "ba", "ab"


def unavailable_reason() -> str | None:
    """Return why this machine cannot run the testbed (:func:`paperlib.emulation.netns.unavailable_reason`, or a
    missing part of the package), or None."""
    if queue_disc is None or web_load is None:
        return "the RED queue (paperlib.emulation.queue_disc) or the browsers (paperlib.emulation.web_load) is missing"
    return netns.unavailable_reason()


def client_ips(n_pairs: int) -> tuple[str, ...]:
    """Return the client address of each of ``n_pairs`` pairs (10.77.1.1, 10.77.1.2, ...)."""
    return tuple(f"10.77.1.{i + 1}" for i in range(int(n_pairs)))


def server_ips(n_pairs: int) -> tuple[str, ...]:
    """Return the server address of each of ``n_pairs`` pairs (10.77.2.1, 10.77.2.2, ...)."""
    return tuple(f"10.77.2.{i + 1}" for i in range(int(n_pairs)))


# --- TCP --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinuxTcp(TcpSettings):
    """:class:`TcpSettings` with window scaling and the socket buffers' limits pinned too (ns-3's web testbed)."""

    window_scaling: bool = False
    snd_buf_bytes: int = 65535
    rcv_buf_bytes: int = 65535

    def sysctls(self) -> dict[str, str]:
        """Return the per-namespace sysctls: :meth:`TcpSettings.sysctls`, window scaling and the buffers' limits.

        The receive buffer's maximum is twice ``rcv_buf_bytes``: Linux advertises only part of its buffer
        (the rest covers its bookkeeping), so the window reaches the ``rcv_buf_bytes`` ns-3 advertises.
        """
        rcv = 2 * self.rcv_buf_bytes
        return {**super().sysctls(), "net.ipv4.tcp_window_scaling": str(int(self.window_scaling)),
                "net.ipv4.tcp_wmem": f"4096 {self.snd_buf_bytes} {self.snd_buf_bytes}",
                "net.ipv4.tcp_rmem": f"4096 {rcv} {rcv}", "net.ipv4.tcp_moderate_rcvbuf": "0",
                "net.core.somaxconn": "4096", "net.ipv4.tcp_max_syn_backlog": "4096"}


def linux_tcp(p: dict) -> LinuxTcp:
    """Return the Linux settings of testbed parameters ``p`` (complete, checked), read from ns-3's
    :func:`paperlib.sim.web_testbed.tcp_settings` (the module docstring's table)."""
    ns3 = web_testbed.tcp_settings(p)
    rto_ms = int(round(ns3["min_rto_s"] * 1e3))
    return LinuxTcp(congestion_control="reno", initcwnd=ns3["initial_cwnd"], mss_bytes=ns3["mss_bytes"],
                    sack=ns3["sack"], timestamps=ns3["timestamps"], rto_min_ms=rto_ms,
                    quickack=ns3["del_ack_count"] == 1, window_scaling=ns3["window_scaling"],
                    snd_buf_bytes=ns3["snd_buf_bytes"], rcv_buf_bytes=ns3["rcv_buf_bytes"])


# --- the fidelity rule -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WebRule:
    """This testbed's fidelity rule: :data:`paperlib.emulation.fidelity.RULE` on the emulator and the applications,
    plus limits on the generator.

    ``base``: the emulator's lateness p99 (worse direction) below a share of the round trip, and the applications'
    (browsers' and responders') run-queue wait during the transfer below a share of its duration, with the
    round trip taken as the mean of the pairs' base round trips (each pair carries the same share of browsers,
    so a lateness of that share of the mean round trip lengthens the mean round trip by that share).
    ``issue_lateness_p99_rtt_fraction``: the generator's 99th percentile of issue lateness (a request sent after
    its scheduled time) below that share of the mean base round trip: the offered load then keeps its timing on
    the scale the response times are measured in. ``issued_fraction``: at least that share of the requests
    scheduled in the run was issued (a generator that falls behind offers less load than ns-3's browsers).
    """

    base: fidelity.FidelityRule = fidelity.RULE
    issue_lateness_p99_rtt_fraction: float = 0.05
    issued_fraction: float = 0.99


#: The rule, fixed before any run (docs/fidelity.md, "Paper 001's web testbed").
RULE = WebRule()


def mean_base_rtt_s(p: dict) -> float:
    """Return the mean over the pairs of their base round trip (s): 2 x (pair delay + bottleneck delay)."""
    return float(np.mean([2 * (d + p["bottleneck_delay_s"]) for d in web_testbed.one_way_delays(p)]))


def judge(result: dict, params: dict, rule: WebRule = RULE) -> fidelity.Judgement:
    """Return whether a :func:`simulate` result keeps its timing under ``rule`` (every limit strictly met)."""
    p = {**web_testbed.DEFAULTS, **params}
    rtt = mean_base_rtt_s(p)
    base = fidelity.judge(result["fidelity"], rtt, max(int(result.get("requests", 1)), 1), rule.base)
    broken = list(base.broken)
    gen = result.get("generator") or {}
    late = gen.get("issue_lateness_p99_s")
    limit = rule.issue_lateness_p99_rtt_fraction * rtt
    if late is None or not math.isfinite(float(late)):
        broken.append("the generator recorded no issue lateness")
    elif not float(late) < limit:
        broken.append(f"generator issue lateness p99 {float(late) * 1e3:.3f} ms is not below {limit * 1e3:.3f} ms "
                      f"({rule.issue_lateness_p99_rtt_fraction:g} of the mean base RTT {rtt * 1e3:.1f} ms)")
    scheduled, issued = gen.get("scheduled"), gen.get("issued")
    if scheduled and issued is not None and not issued >= rule.issued_fraction * scheduled:
        broken.append(f"the generator issued {issued} of {scheduled} scheduled requests "
                      f"(below {rule.issued_fraction:.0%})")
    return fidelity.Judgement(kept=not broken, broken=tuple(broken))


def run_point(params: dict, seed: int) -> dict:
    """Return :func:`simulate`'s result of the first run that :func:`judge` keeps, running it at most
    :data:`FIDELITY_TRIES` times, else the last run's; with ``fidelity_kept``, ``fidelity_tries`` and
    ``fidelity_broken`` added (as :func:`paperlib.emulation.fidelity.run_kept` adds them)."""
    attempt = 0
    while True:
        attempt += 1
        result = simulate(params, seed)
        verdict = judge(result, params)
        if verdict.kept or attempt >= FIDELITY_TRIES:
            return {**result, "fidelity_kept": verdict.kept, "fidelity_tries": attempt,
                    "fidelity_broken": list(verdict.broken)}


# --- one run ----------------------------------------------------------------------------------------


def emulator_flags(p: dict, queue_log: Path | None) -> list[str]:
    """Return linkemu's flags after its positional arguments: RED on both directions (when ``queue`` is "red";
    else ns-3's FIFO disc backlog), ns-3's point-to-point header serialised with every packet, each pair's one-way
    delay in both directions, and the queue log."""
    flags: list[str] = []
    if p["queue"] == "red":
        red = queue_disc.red_from_testbed_params(p)
        flags += red.linkemu_flag(REQUEST) + red.linkemu_flag(REPLY)
    else:  # ns-3's FifoQueueDisc: queue_packets in the disc, behind a device that holds one more
        flags += ["--ns3-backlog"]
    # ns-3's point-to-point bottleneck serialises its 2-byte header with every packet
    flags += queue_disc.frame_overhead_flag(queue_disc.NS3_POINT_TO_POINT_HEADER_BYTES)
    n = len(p["pairs"])
    flags += queue_disc.pair_flags([(c, s, d, d) for c, s, d in
                                    zip(client_ips(n), server_ips(n), web_testbed.one_way_delays(p), strict=True)])
    if queue_log is not None:
        flags += queue_disc.queue_log_flag(str(queue_log), float(p["sample_interval_s"]))
    return flags


def link_of(p: dict) -> Link:
    """Return the bottleneck link of testbed parameters ``p``: its rate both ways, the bottleneck's own delay, the
    queue limit both ways (the RED flags add RED on top), an MTU for ``mss_bytes`` segments."""
    return Link(rate_bps=float(p["bottleneck_bps"]), delay_s=float(p["bottleneck_delay_s"]),
                queue_packets=int(p["queue_packets"]), mtu_bytes=int(p["mss_bytes"]) + 40)


def time_bound_s(params: dict) -> float:
    """Return a run's wall-time bound (s): ``sim_time_s`` + :data:`GRACE_S`."""
    return float({**web_testbed.DEFAULTS, **params}["sim_time_s"]) + GRACE_S


def sweep_cost(params: dict) -> float:
    """Return a run's relative cost for the sweep runner's order: its wall time bound (a run takes real time)."""
    return time_bound_s(params)


def _start_time(line: str) -> float | None:
    """Return the browsers' time 0 of webload's ``start T0`` line (None for another line: it ended early)."""
    words = line.split()
    try:
        return float(words[1]) if len(words) == 2 and words[0] == "start" else None
    except ValueError:
        return None


def _read_line(stream, timeout_s: float) -> str:
    box: list[str] = []
    t = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    t.start()
    t.join(timeout_s)
    return box[0].strip() if box else ""


def queue_series(log, origin_s: float, sim_time_s: float) -> tuple[list[float], list[int], dict]:
    """Return (sample times s, backlog in packets, RED averages) of the reply direction from linkemu's queue log.

    ``log``: :func:`paperlib.emulation.queue_disc.read_queue_log`'s frame; ``origin_s``: the log's time of the
    browsers' start, which becomes 0; samples outside [0, ``sim_time_s``] are left out.
    """
    rows = log[log["direction"].astype(str).isin([REPLY, "down"])]
    t = rows["t_s"].to_numpy(dtype=float) - origin_s
    keep = (t >= -1e-9) & (t <= sim_time_s + 1e-9)
    times = [round(float(x), 6) for x in np.clip(t[keep], 0.0, None)]
    backlog = [int(x) for x in rows["backlog_packets"].to_numpy()[keep]]
    avg = rows["red_avg_packets"].to_numpy(dtype=float)[keep] if "red_avg_packets" in rows else np.array([])
    red = [round(float(x), 4) for x in avg] if avg.size and np.isfinite(avg).all() else []  # drop-tail: none
    return times, backlog, {"red_avg_packets": red}


def _stop(proc: subprocess.Popen, timeout_s: float = 10.0) -> str:
    """SIGTERM ``proc`` (its process group), return its stdout (the JSON counters it prints on SIGTERM)."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def simulate(params: dict, seed: int) -> dict:
    """Run one testbed configuration on real stacks; return :func:`paperlib.sim.web_testbed.simulate`'s keys.

    Same parameters and checks as ns-3's (``web_testbed.DEFAULTS`` + ``LABELS``), same result keys with the same
    meaning (the module docstring says what the counters span: ``counters_span``), plus
    ``fidelity`` (the run's record as a dict, with the generator's figures under ``"generator"``), ``generator``
    (:func:`paperlib.emulation.web_load.results`' generator figures), ``link_stats`` (linkemu's final counters)
    and ``provenance`` (the testbed's link, seed, TCP and emulator flags). Bounded by :func:`time_bound_s`; the
    namespaces and processes are removed also on error.
    """
    p = {**web_testbed.DEFAULTS, **params}
    web_testbed._check(p)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ParameterError(f"seed must be a whole number >= 0, got {seed!r}")
    missing = unavailable_reason()
    if missing:
        raise netns.TestbedError(missing)
    load = web_testbed.workload(p, int(seed))
    n = len(p["pairs"])
    clients, servers = client_ips(n), server_ips(n)
    binary = web_load.binary()
    bound = time_bound_s(p)
    with tempfile.TemporaryDirectory(prefix="webperf-testbed-") as tmp:
        tmp = Path(tmp)
        workload_path, requests_path, log_path = tmp / "workload.bin", tmp / "requests.csv", tmp / "queue.csv"
        web_load.write_workload(load, workload_path)
        flags = emulator_flags(p, log_path)
        # linkemu's seed drives RED's drop draws: with a workload seed, they follow it (common random numbers)
        emu_seed = int(seed if p["workload_seed"] is None else p["workload_seed"]) % (2**63)
        with Testbed(link_of(p), seed=emu_seed, tcp=linux_tcp(p), client_ips=clients, server_ips=servers,
                     emulator_flags=tuple(flags)) as tb:
            t_emu = tb.ready_at
            srv = tb.popen("server", web_load.serve_argv(binary, listen=[(ip, PORT) for ip in servers]),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if _read_line(srv.stdout, 10.0) != "ready":
                raise RuntimeError("the responders did not start (no 'ready' within 10 s)")
            argv = web_load.browse_argv(binary, str(workload_path), str(requests_path), float(p["sim_time_s"]),
                                        int(p["parallel"]), pairs=[(c, s, PORT) for c, s in
                                                                   zip(clients, servers, strict=True)],
                                        warmup_s=float(p["warmup_s"]))
            t_browse = time.monotonic()
            browse = tb.popen("client", argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # the link's counters from the end of the warm-up on, as ns-3's testbed counts them: marked at the
            # browsers' time 0 (their "start" line, CLOCK_MONOTONIC as time.monotonic) plus the warm-up
            t0 = _start_time(_read_line(browse.stdout, bound))
            delay = float(p["warmup_s"]) - (time.monotonic() - t0) if t0 is not None else float(p["warmup_s"])
            mark = threading.Timer(max(0.0, delay), tb.mark_counters)
            mark.start()
            try:
                out, err = netns.finish(browse, bound, "the browsers' program")
            finally:
                mark.cancel()
            served = _stop(srv)
            provenance = tb.provenance()
        link_stats = tb.link_stats or {}
        record = tb.fidelity
        summary = web_load.parse_summary(out)
        requests = web_load.read_requests(requests_path)
        found = web_load.results(requests, summary, float(p["warmup_s"]), float(p["sim_time_s"]))
        log = queue_disc.read_queue_log(log_path)
    origin = _log_origin(log, requests.attrs.get("t0_monotonic_s", t_browse), t_emu)
    times, samples, red_avg = queue_series(log, origin, float(p["sim_time_s"]))
    whole = link_stats.get(REPLY, {})
    # the counts after the warm-up when the emulator marked them (a run shorter than its warm-up: the whole run)
    reply = whole.get("since_mark", whole)
    red = reply.get("red") or {}
    qdrop = int(reply.get("queue_drops", 0))  # drop-tail: arrivals to a full queue; with RED, its forced drops
    arrivals = int(red.get("arrivals", int(reply.get("in", 0)) - int(reply.get("lost", 0))))
    early = int(red.get("early_drops", 0))
    forced = int(red.get("forced_drops", 0)) if red else qdrop
    generator = found.get("generator", {})
    record_dict = record.to_dict() if record is not None else None
    if record_dict is not None:
        record_dict["generator"] = generator
    result = {
        "requests": found["requests"], "unfinished": found["unfinished"], "failed": found["failed"],
        "throughput_bps": found["throughput_bps"],
        "queue_max_packets": int(max(samples)) if samples else 0,
        "drops": early + forced, "arrivals": arrivals,
        "early_drops": early, "forced_drops": forced,
        "counters_span": "after warm-up" if "since_mark" in whole else "whole run",
        "counters_from_s": (round(link_stats["mark_ns"] / 1e9 - float(requests.attrs["t0_monotonic_s"]), 6)
                            if "since_mark" in whole and "t0_monotonic_s" in requests.attrs else None),
        "queue_sample_times_s": times, "queue_samples": samples, **red_avg,
        "fidelity": record_dict, "generator": generator, "link_stats": link_stats,
        "responders": _json_tail(served),
        "provenance": {**provenance, "application": "paperlib/emulation/c/webload.c"},
    }
    if p["keep_responses"]:
        for key in ("response_s", "response_bytes", "response_primary"):
            result[key] = found[key]
    if "throughput_series_bps" in found:
        result["throughput_series_bps"] = found["throughput_series_bps"]
    return result


def _json_tail(text: str) -> dict:
    """Return the last JSON object line of ``text``, or {}."""
    for line in reversed((text or "").splitlines()):
        if line.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):
                return json.loads(line)
    return {}


def _log_origin(log, start_s: float, t_emu: float) -> float:
    """Return the queue log's time at which the browsers started (the ns-3 run's time 0).

    ``start_s``: the browsers' time 0 on CLOCK_MONOTONIC (the program's own, ``t0_monotonic_s``). The log's clock
    is linkemu's: seconds since its "ready" line (``t_emu``, when the testbed read that line: the samples' times
    are early by the pipe's delay, well under a sample interval), or CLOCK_MONOTONIC seconds.
    """
    if len(log) and float(log["t_s"].min()) > 1e4:  # absolute CLOCK_MONOTONIC times
        return float(start_s)
    return float(start_s) - t_emu
