"""Bursty web clients over TCP through one bottleneck, in ns-3: paper 003's experiment re-posed.

Paper 003 ran K x N web clients (K = 15 per server, N = 1, 2, 5, 10 servers)
fetching the modified SPECweb96 workload over TCP over ATM ABR (ERICA) through
a 45 Mbit/s T3 bottleneck. No maintained simulator has ABR/ERICA; this is the
closest honest analogue: the same clients, workload, MSS, window and RTT, over
TCP NewReno through a 45 Mbit/s point-to-point bottleneck with a FIFO queue.
What differs: no ABR rate control at the switch (TCP's own window and loss
are the only brakes), packets instead of 53-byte cells.

Topology: N servers -- router A ==bottleneck== router B -- K N clients.
Access links 1 Gbit/s, 0.5 ms; the bottleneck delay makes the base RTT
``rtt_s``. Each client asks for a page every ``inter_batch_s`` (open loop, a
random phase per client, as the slides' "inter-batch time"); a page is one TCP
connection (HTTP/1.1: all components of a page in one connection) from the
client's server carrying the page's bytes (ns-3 BulkSend with MaxBytes).

:func:`simulate` is the sweep runner's unit of work (``params``, ``seed``) ->
results; its parameters are plain JSON values, its results too.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import specweb96
from paperlib.models.specweb96 import Workload
from paperlib.sim import ns3_env, ns3_topology

#: Modules whose code the results depend on (the sweep runner's cache key hashes them too).
SWEEP_DEPENDS = (specweb96, ns3_env, ns3_topology)

DEFAULTS = {
    "bottleneck_bps": 45e6,
    "rtt_s": 0.030,
    "mss_bytes": 512,
    "window_bytes": 16 * 64 * 1024,
    "inter_batch_s": 10.0,
    "sim_time_s": 40.0,
    "warmup_s": 10.0,
    "queue_limit_packets": 20_000,
    "initial_cwnd": 1,
    "access_bps": 1e9,
    "access_delay_s": 0.0005,
    "sample_interval_s": 0.1,
}

# Measurement in C++: Python callbacks scheduled on the simulator cost ~2.4 us each, and
# callbacks made from Python (ns.MakeCallback of a cppyy function) go through cppyy
# trampolines that were seen calling the wrong function on a second run in the same
# process. So the queue trace, the sampler and the warm-up mark are connected here.
_CPP = """
#include <cstdint>
#include <vector>
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/packet-sink.h"
#include "ns3/callback.h"
namespace webperf_q {
  uint32_t maxq = 0;
  std::vector<uint32_t> samples;
  std::vector<ns3::Ptr<ns3::PacketSink>> sinks;
  ns3::Ptr<ns3::QueueDisc> queue;
  double interval = 0.1;
  uint64_t rx_at_warmup = 0;
  void Trace(uint32_t oldv, uint32_t newv) { if (newv > maxq) maxq = newv; }
  void Sample() {
    samples.push_back(queue->GetNPackets());
    ns3::Simulator::Schedule(ns3::Seconds(interval), &Sample);
  }
  uint64_t TotalRx() { uint64_t t = 0; for (auto& s : sinks) t += s->GetTotalRx(); return t; }
  void MarkWarmup() { rx_at_warmup = TotalRx(); }
  void Reset() { maxq = 0; samples.clear(); sinks.clear(); queue = nullptr; rx_at_warmup = 0; }
  void AddSink(ns3::Ptr<ns3::PacketSink> s) { sinks.push_back(s); }
  void Start(ns3::Ptr<ns3::QueueDisc> q, double sample_interval, double warmup) {
    queue = q; interval = sample_interval;
    q->TraceConnectWithoutContext("PacketsInQueue", ns3::MakeCallback(&Trace));
    ns3::Simulator::ScheduleNow(&Sample);
    ns3::Simulator::Schedule(ns3::Seconds(warmup), &MarkWarmup);
  }
}
"""


def workload_params(w: Workload) -> dict:
    """Return a workload as the plain JSON values :func:`simulate` takes."""
    return {
        "class_probs": [float(p) for p in w.class_probs],
        "base_bits": [float(b) for b in w.base_bits],
        "within_class": w.within_class,
        "files_per_page": int(w.files_per_page),
        "page_classes": None if w.page_classes is None else [list(map(float, r)) for r in w.page_classes],
    }


def _workload(params: dict) -> Workload:
    spec = params["workload"]
    pages = spec.get("page_classes")
    return Workload(
        "sim",
        tuple(spec["class_probs"]),
        tuple(spec["base_bits"]),
        spec["within_class"],
        files_per_page=spec["files_per_page"],
        page_classes=None if pages is None else tuple(tuple(r) for r in pages),
    )


def _check(p: dict) -> None:
    for name in ("n_servers", "k_clients", "mss_bytes", "queue_limit_packets", "initial_cwnd"):
        validate.positive_integer(name, p[name])
    for name in ("bottleneck_bps", "window_bytes", "inter_batch_s", "sim_time_s", "access_bps", "sample_interval_s"):
        validate.positive(name, p[name])
    validate.non_negative("warmup_s", p["warmup_s"])
    validate.positive("rtt_s", p["rtt_s"])
    if p["warmup_s"] >= p["sim_time_s"]:
        raise validate.ParameterError(f"warmup_s ({p['warmup_s']}) must be below sim_time_s ({p['sim_time_s']})")
    if 4 * p["access_delay_s"] >= p["rtt_s"]:
        raise validate.ParameterError(f"rtt_s ({p['rtt_s']}) must exceed the access links' round trip")


def tcp_settings(p: dict) -> dict:
    """Return the run's TCP settings for :func:`paperlib.sim.ns3_topology.tcp_defaults`: NewReno, the
    MSS, initial window and window (socket buffers) of paper 003; ns-3's defaults otherwise."""
    return {"mss_bytes": int(p["mss_bytes"]), "initial_cwnd": int(p["initial_cwnd"]),
            "snd_buf_bytes": int(p["window_bytes"]), "rcv_buf_bytes": int(p["window_bytes"])}


def page_schedule(params: dict, seed: int) -> list[tuple[int, float, int]]:
    """Return the pages every client asks for: ``(client, start time s, bytes)``, in start order."""
    p = {**DEFAULTS, **params}
    _check(p)
    w = _workload(p)
    rng = np.random.default_rng(seed)
    n_clients = int(p["n_servers"] * p["k_clients"])
    phases = rng.uniform(0.0, p["inter_batch_s"], size=n_clients)
    out = []
    for c, phase in enumerate(phases):
        starts = np.arange(phase, p["sim_time_s"], p["inter_batch_s"])
        if len(starts) == 0:
            continue
        pages = w.sample_pages_bits(len(starts), rng).sum(axis=1) / 8
        out.extend((c, float(t), int(round(b))) for t, b in zip(starts, pages, strict=True))
    return sorted(out, key=lambda x: (x[1], x[0]))


def simulate(params: dict, seed: int) -> dict:
    """Run one configuration; return bottleneck queue and throughput measures.

    Results: ``max_queue_packets`` (largest FIFO backlog at the bottleneck),
    ``throughput_bps`` (TCP payload delivered to the clients per second after
    ``warmup_s``), ``offered_bps`` (page bytes asked for per second, same
    window), ``drops`` (packets the FIFO dropped), ``queue_times_s`` /
    ``queue_packets`` (the backlog sampled every ``sample_interval_s``),
    ``pages`` (pages asked for in all).
    """
    p = {**DEFAULTS, **params}
    _check(p)
    schedule = page_schedule(p, seed)
    ns = ns3_env.load()
    qtrace = ns3_env.cpp(ns, "webperf_q", _CPP)
    qtrace.Reset()

    ns3_topology.start_run(ns, seed)
    ns3_topology.tcp_defaults(ns, **tcp_settings(p))

    n_servers, n_clients = int(p["n_servers"]), int(p["n_servers"] * p["k_clients"])
    access = (p["access_bps"], p["access_delay_s"])
    net = ns3_topology.dumbbell(ns, bottleneck_bps=p["bottleneck_bps"],
                                bottleneck_delay_s=p["rtt_s"] / 2 - 2 * p["access_delay_s"],
                                left=[access] * n_servers, right=[access] * n_clients)
    servers, clients, client_addr = net.left, net.right, net.right_ip
    # The FIFO under study on router A's device (pages flow A -> B); the rest keep ns-3's FqCoDel.
    limit = ns3_topology.packets(ns, p["queue_limit_packets"])
    qdisc = ns3_topology.replace_queue_disc(ns, net.core.Get(0), "ns3::FifoQueueDisc", {"MaxSize": limit}).Get(0)

    port = 9
    sink_helper = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                      ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
    sink_apps = sink_helper.Install(clients)
    sink_apps.Start(ns.Seconds(0.0))
    sinks = [sink_apps.Get(i).GetObject[ns.PacketSink]() for i in range(n_clients)]

    keep = []  # helpers and apps must outlive Simulator::Run
    for client, start, nbytes in schedule:
        helper = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(client_addr[client], port).ConvertTo())
        helper.SetAttribute("MaxBytes", ns.UintegerValue(max(nbytes, 1)))
        helper.SetAttribute("SendSize", ns.UintegerValue(int(p["mss_bytes"])))
        apps = helper.Install(servers.Get(client % n_servers))
        apps.Start(ns.Seconds(start))
        keep.append((helper, apps))

    for sink in sinks:
        qtrace.AddSink(sink)
    qtrace.Start(qdisc, float(p["sample_interval_s"]), float(p["warmup_s"]))
    ns.Simulator.Stop(ns.Seconds(p["sim_time_s"]))
    ns.Simulator.Run()

    rx_total = int(qtrace.TotalRx())
    backlog = [int(v) for v in qtrace.samples]
    times = np.arange(len(backlog)) * p["sample_interval_s"]
    window = p["sim_time_s"] - p["warmup_s"]
    offered = sum(b for _, t, b in schedule if t >= p["warmup_s"])
    stats = qdisc.GetStats()
    result = {
        "max_queue_packets": int(qtrace.maxq),
        "throughput_bps": 8 * (rx_total - int(qtrace.rx_at_warmup)) / window,
        "offered_bps": 8 * offered / window,
        "drops": int(stats.nTotalDroppedPackets),
        "pages": len(schedule),
        "queue_times_s": [round(float(t), 6) for t in times],
        "queue_packets": backlog,
    }
    qtrace.Reset()
    ns.Simulator.Destroy()
    del net
    return result
