"""Paper 001's testbed in ns-3: browsers and responders across a router pair and one bottleneck.

Fig. 1 of the paper: three web-requestor hosts and three web-responder hosts, an Ethernet
switch and a router between them. Table 2 gives one latency per (requestor, responder)
pair, not per host, and the six printed values cannot be split into per-host delays
(d1 + d5 = 48 and d1 + d6 = 109 make d6 - d5 = 61, while the other four pairs make it 50).
So each of the six pairs gets its own client node (behind the requestor-side router) and its
own server node (behind the responder-side router), and the pair's latency sits on the
client node's access link; the browsers of requestor i are split evenly over its two pairs.
The traffic through the bottleneck is the same as with three hosts; only the host names
differ.

Topology: 6 client nodes -- router R1 ==bottleneck== router R2 -- 6 server nodes. Access
links run at ``access_factor`` times the bottleneck rate, so the only queue that builds is
the bottleneck's. Replies flow R2 -> R1: the queue disc under study (FIFO or RED) sits on
R2's bottleneck device and is the one sampled; R1's device (requests, ACKs) gets the same
disc. Every other device keeps ns-3's default 100-packet drop-tail device queue and no queue
disc (the FqCoDel that address assignment installs is removed); the bottleneck devices
queue at most one packet so the backlog sits in the queue disc.

Latency convention (a parameter; paper 001's choice and its reason are in
its package's ``testbed`` part): ``latency_reading="rtt"`` makes Table 2's value the pair's
base round trip (half of it on each direction of the client's access link);
``"one_way"`` puts the value on the path in each direction (round trip = 2 x value).

The browsers, responders and probes are C++ (:mod:`paperlib.sim.web_browsers_cpp`), the
workload comes from :mod:`paperlib.models.web_traffic`. :func:`simulate` is the sweep
runner's unit of work: plain JSON parameters and seed in, plain JSON results out.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import web_traffic
from paperlib.sim import ns3_env, ns3_topology, web_browsers_cpp

#: Modules whose code the results depend on (the sweep runner's cache key hashes them too).
SWEEP_DEPENDS = (web_traffic, ns3_env, ns3_topology, web_browsers_cpp)

#: Table 2 as (requestor, responder, short latency in seconds): read from data/001 by callers;
#: this copy is only the default of :func:`simulate` and is checked against the data in tests.
PAIRS_SHORT_S = ((1, 5, 0.048), (1, 6, 0.109), (2, 4, 0.038), (2, 6, 0.007), (3, 4, 0.091), (3, 5, 0.010))

DEFAULTS = {
    "bottleneck_bps": 10e6,
    "access_factor": 10.0,
    "bottleneck_delay_s": 0.0001,
    "pairs": [list(p) for p in PAIRS_SHORT_S],
    "latency_scale": 1.0,  # 3 for the "long" set
    "latency_reading": "rtt",
    "queue": "fifo",  # or "red"
    "queue_packets": 120,
    "red_min_th": 5.0,
    "red_max_th": 90.0,
    "red_weight": 1 / 128,
    "red_max_p": 1 / 20,
    "red_gentle": False,
    "browsers": 100,
    "parallel": 4,
    "mss_bytes": 1460,
    "initial_cwnd": 2,
    "min_rto_s": 1.0,
    "delayed_ack": True,
    "sim_time_s": 60.0,
    "warmup_s": 20.0,
    "sample_interval_s": 0.1,
    "traffic": {},  # overrides of web_traffic.DEFAULT_MODEL
    "keep_responses": True,
    "workload_seed": None,  # None: the run's seed; else the workload's (common random numbers across queues)
}

PORT = 80

#: Keys a sweep point may carry to label itself (configuration, load, repetition...); they do not
#: change the run except through the seed the sweep runner derives from all of a point's keys.
LABELS = frozenset({"config", "load", "latency", "rep", "phase", "profile", "workload", "data_digest"})


def _check(p: dict) -> None:
    unknown = sorted(set(p) - set(DEFAULTS) - LABELS)
    if unknown:
        raise validate.ParameterError(f"unknown testbed parameter(s) {unknown}; known: {sorted(DEFAULTS)}")
    for name in ("bottleneck_bps", "access_factor", "sim_time_s", "sample_interval_s", "red_weight",
                 "min_rto_s", "latency_scale"):
        validate.positive(name, p[name])
    for name in ("browsers", "parallel", "mss_bytes", "initial_cwnd", "queue_packets"):
        validate.positive_integer(name, p[name])
    validate.non_negative("warmup_s", p["warmup_s"])
    validate.non_negative("bottleneck_delay_s", p["bottleneck_delay_s"])
    validate.choice("queue", p["queue"], ("fifo", "red"))
    validate.choice("latency_reading", p["latency_reading"], ("one_way", "rtt"))
    validate.flag("red_gentle", p["red_gentle"])
    validate.flag("delayed_ack", p["delayed_ack"])
    if p["warmup_s"] >= p["sim_time_s"]:
        raise validate.ParameterError(f"warmup_s ({p['warmup_s']}) must be below sim_time_s ({p['sim_time_s']})")
    if p["queue"] == "red":
        validate.probability("red_max_p", p["red_max_p"])
        validate.positive("red_max_p", p["red_max_p"])
        if not 0 < p["red_weight"] <= 1:
            raise validate.ParameterError(f"red_weight must be in (0, 1], got {p['red_weight']!r}")
        if not 0 <= p["red_min_th"] < p["red_max_th"] <= p["queue_packets"]:
            raise validate.ParameterError(
                f"RED thresholds must satisfy 0 <= red_min_th < red_max_th <= queue_packets, got "
                f"{p['red_min_th']}, {p['red_max_th']}, {p['queue_packets']}")
    pairs = p["pairs"]
    if not pairs or any(len(x) != 3 or x[2] < 0 for x in pairs):
        raise validate.ParameterError(f"pairs must be [requestor, responder, latency_s >= 0] triples, got {pairs!r}")


def one_way_delays(p: dict) -> list[float]:
    """Return the one-way delay (s) put on each pair's client access link."""
    scale = p["latency_scale"] / (2.0 if p["latency_reading"] == "rtt" else 1.0)
    return [float(x[2]) * scale for x in p["pairs"]]


def _queue_disc(ns, p: dict) -> tuple[str, dict]:
    """Return the bottleneck's queue disc: its ns-3 TypeId and attributes."""
    size = {"MaxSize": ns3_topology.packets(ns, p["queue_packets"])}
    if p["queue"] == "fifo":
        return "ns3::FifoQueueDisc", size
    # Floyd & Jacobson's RED as ns-3 implements it: thresholds and the average in packets,
    # QW = the EWMA weight w_q, LInterm = 1 / max_p, MaxSize = the physical queue ("qlen").
    return "ns3::RedQueueDisc", {
        **size,
        "MinTh": ns.DoubleValue(float(p["red_min_th"])),
        "MaxTh": ns.DoubleValue(float(p["red_max_th"])),
        "QW": ns.DoubleValue(float(p["red_weight"])),
        "LInterm": ns.DoubleValue(1.0 / float(p["red_max_p"])),
        "Gentle": ns.BooleanValue(bool(p["red_gentle"])),
        "MeanPktSize": ns.UintegerValue(int(p["mss_bytes"]) + 40),
        "LinkBandwidth": ns.DataRateValue(ns.DataRate(int(p["bottleneck_bps"]))),
        "LinkDelay": ns.TimeValue(ns.Seconds(max(p["bottleneck_delay_s"], 1e-6))),
    }


#: TIME_WAIT (2 x the maximum segment lifetime) only has to outlast a FIN the peer retransmits: its
#: RTO (at least ``min_rto_s``, 1 s) plus a path delay (at most about 0.9 s here: 0.33 s base round
#: trip of the long set plus 480 queued packets at 10 Mbit/s). 2 x 1 s covers that. ns-3's 120 s
#: would keep every closed connection's endpoint for 4 minutes: thousands of short connections per
#: node would exhaust its ephemeral ports, and every arriving packet is matched against the node's
#: list of endpoints one by one (a measurable share of a run). No measured quantity depends on it.
MAX_SEG_LIFETIME_S = 1.0


def tcp_settings(p: dict) -> dict:
    """Return the run's TCP settings for :func:`paperlib.sim.ns3_topology.tcp_defaults`.

    NewReno, MSS and initial window as given, delayed ACKs (every 2nd segment) or not, minimum
    RTO, no SACK, timestamps or window scaling (the 2000-era stacks of the paper), 64 KiB buffers.
    """
    return {"mss_bytes": int(p["mss_bytes"]), "initial_cwnd": int(p["initial_cwnd"]),
            "del_ack_count": 2 if p["delayed_ack"] else 1, "min_rto_s": float(p["min_rto_s"]),
            "sack": False, "timestamps": False, "window_scaling": False,
            "max_seg_lifetime_s": MAX_SEG_LIFETIME_S, "snd_buf_bytes": 65535, "rcv_buf_bytes": 65535}


def throughput_series(rx_cumulative: np.ndarray, interval_s: float, bin_s: float = 1.0) -> list[float]:
    """Return reply throughput (bit/s) in ``bin_s`` bins from cumulative bytes sampled every ``interval_s``."""
    step = max(int(round(bin_s / interval_s)), 1)
    marks = rx_cumulative[::step]
    return [round(float(x), 3) for x in 8.0 * np.diff(marks) / (step * interval_s)]


def workload(p: dict, seed: int) -> dict:
    """Return the sampled workload of a run: browsers' pages and objects as flat arrays (seeded)."""
    model = web_traffic.model({**p["traffic"]})
    rng = np.random.default_rng(seed if p.get("workload_seed") is None else int(p["workload_seed"]))
    n_pairs = len(p["pairs"])
    return web_traffic.sample_browsers(model, int(p["browsers"]), float(p["sim_time_s"]), rng, n_groups=n_pairs)


def sweep_cost(params: dict) -> float:
    """Return a run's relative cost for the sweep runner's longest-first order: simulated seconds x browsers.

    A run's time goes to the packets it simulates, which grow with both (up to the bottleneck's
    rate); only the order of the estimates matters (:func:`paperlib.sweep.longest_first`).
    """
    p = {**DEFAULTS, **params}
    return float(p["sim_time_s"]) * float(p["browsers"])


def simulate(params: dict, seed: int) -> dict:
    """Run one testbed configuration; return response times, queue samples and counters.

    Results (plain JSON): ``response_s`` (response time of every request that started after
    ``warmup_s`` and finished before the end, in start order), ``response_bytes``,
    ``response_primary`` (1 for a page's primary object), ``unfinished`` (requests still open
    at the end), ``failed`` (connections that failed), ``throughput_bps`` (reply payload
    delivered per second after warm-up), ``queue_sample_times_s`` / ``queue_samples`` (backlog of
    the bottleneck's reply-direction queue disc, sampled), ``queue_max_packets`` (whole run); after the warm-up:
    ``drops`` (all), ``arrivals`` (packets that reached the disc), ``early_drops`` (RED's
    probabilistic drops), ``forced_drops`` (RED's average above max_th, or the queue limit).
    """
    p = {**DEFAULTS, **params}
    _check(p)
    load = workload(p, seed)
    ns = ns3_env.load()
    cpp = web_browsers_cpp.load(ns)
    cpp.Reset()
    # Common random numbers: with a workload seed, the simulator's own streams (RED's drop draws) follow it too.
    ns3_topology.start_run(ns, seed if p["workload_seed"] is None else p["workload_seed"])
    ns3_topology.tcp_defaults(ns, **tcp_settings(p))

    n_pairs = len(p["pairs"])
    access = float(p["bottleneck_bps"]) * p["access_factor"]
    net = ns3_topology.dumbbell(ns, bottleneck_bps=p["bottleneck_bps"], bottleneck_delay_s=p["bottleneck_delay_s"],
                                left=[(access, d) for d in one_way_delays(p)], right=[(access, 0.0)] * n_pairs,
                                interleave=True, strip_access_discs=True)
    clients, servers = net.left, net.right
    discs = ns3_topology.replace_queue_disc(ns, net.core, *_queue_disc(ns, p))
    reply_disc = discs.Get(1)  # on router 1's device: replies R2 -> R1
    for i in range(discs.GetN()):
        cpp.FixStream(discs.Get(i), i)

    for i in range(n_pairs):
        cpp.Listen(servers.Get(i), PORT)
        remote = ns.InetSocketAddress(net.right_ip[i], PORT).ConvertTo()
        cpp.AddClientNode(clients.Get(i), net.left_ip[i].Get(), remote)
    cpp.parallel = int(p["parallel"])
    cpp.chunk = int(p["mss_bytes"])
    cpp.LoadObjects(load["req_bytes"], load["reply_bytes"], len(load["req_bytes"]))
    cpp.LoadPages(load["page_first"], load["page_objects"], load["page_think_s"], len(load["page_first"]))
    cpp.LoadBrowsers(load["browser_group"], load["browser_first_page"], load["browser_pages"],
                     load["browser_start_s"], len(load["browser_group"]))
    cpp.Probe(reply_disc, float(p["sample_interval_s"]), float(p["warmup_s"]))
    ns.Simulator.Stop(ns.Seconds(p["sim_time_s"]))
    ns.Simulator.Run()

    t0 = np.array(cpp.r_t0, dtype=float)
    t1 = np.array(cpp.r_t1, dtype=float)
    nbytes = np.array(cpp.r_bytes, dtype=np.int64)
    primary = np.array(cpp.r_primary, dtype=np.int64)
    order = np.lexsort((t1, t0))
    keep_rows = order[t0[order] >= p["warmup_s"]]
    samples = np.array(cpp.q_samples, dtype=np.int64)
    window = p["sim_time_s"] - p["warmup_s"]
    result = {
        "requests": int(len(keep_rows)),
        "unfinished": int(cpp.Unfinished()),
        "failed": int(cpp.failed),
        "throughput_bps": 8.0 * (int(cpp.rx_bytes) - int(cpp.rx_at_warmup)) / window,
        "queue_max_packets": int(cpp.q_max),
        "drops": int(cpp.SinceWarmup(3)),
        "arrivals": int(cpp.SinceWarmup(4)),
        "early_drops": int(cpp.SinceWarmup(0)),
        "forced_drops": int(cpp.SinceWarmup(1) + cpp.SinceWarmup(2)),
        "queue_sample_times_s": [round(float(i * p["sample_interval_s"]), 6) for i in range(len(samples))],
        "queue_samples": samples.tolist(),
        "throughput_series_bps": throughput_series(np.array(cpp.rx_samples, dtype=np.int64), p["sample_interval_s"]),
    }
    if p["keep_responses"]:
        result["response_s"] = [round(float(x), 6) for x in (t1 - t0)[keep_rows]]
        result["response_bytes"] = nbytes[keep_rows].tolist()
        result["response_primary"] = primary[keep_rows].tolist()
    cpp.Reset()
    ns.Simulator.Destroy()
    del net
    return result
