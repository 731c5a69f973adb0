"""One TCP NewReno connection carrying M pipelined web objects over a lossy narrow link, in ns-3.

The packet-level check of papers 002/000's TCP model: the same scenario the
model describes (object size, MSS, link rate, RTT, random packet loss p, M
objects sent back to back on one connection), with the initial window and the
ACK policy the model assumes (one segment, one ACK per segment) and a minimum
retransmission timeout equal to the model's loss-detection time (1.5 RTT).
ns-3 has no SCTP, so only TCP can be simulated.

Topology: server -- client over one point-to-point link of ``rate_bps`` with
one-way delay RTT/2. Loss: a RateErrorModel drops each packet the client
receives with probability ``p``; it is switched on once the connection is
established (the model does not count handshake losses). The server opens the
connection and sends M x O bytes; the result is the time until the client holds
the last byte, plus half a round trip so that the clock starts, as for an HTTP
client, when the client sends its SYN rather than when the server does.

:func:`simulate` is the sweep runner's unit of work.
"""

from __future__ import annotations

from paperlib import validate
from paperlib.sim import ns3_env, ns3_topology

#: Modules whose code the results depend on (hashed into the sweep cache key).
SWEEP_DEPENDS = (ns3_env, ns3_topology)

DEFAULTS = {
    "mss_bytes": 536,
    "objects": 5,
    "initial_cwnd": 1,
    "del_ack_count": 1,
    "min_rto_rtts": 1.5,
    "max_sim_time_s": 600.0,
}

_CPP = """
#include <cstdint>
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/address.h"
#include "ns3/packet-sink.h"
#include "ns3/net-device.h"
#include "ns3/error-model.h"
#include "ns3/pointer.h"
#include "ns3/callback.h"
namespace webperf_tcp {
  uint64_t target = 0, received = 0;
  double done_at = -1;
  void OnRx(ns3::Ptr<const ns3::Packet> p, const ns3::Address& from) {
    received += p->GetSize();
    if (done_at < 0 && received >= target) { done_at = ns3::Simulator::Now().GetSeconds(); ns3::Simulator::Stop(); }
  }
  void Watch(ns3::Ptr<ns3::PacketSink> sink, uint64_t bytes) {
    target = bytes; received = 0; done_at = -1;
    sink->TraceConnectWithoutContext("Rx", ns3::MakeCallback(&OnRx));
  }
  void EnableLoss(ns3::Ptr<ns3::NetDevice> dev, ns3::Ptr<ns3::ErrorModel> em) {
    dev->SetAttribute("ReceiveErrorModel", ns3::PointerValue(em));
  }
  void EnableLossAt(ns3::Ptr<ns3::NetDevice> dev, ns3::Ptr<ns3::ErrorModel> em, double t) {
    ns3::Simulator::Schedule(ns3::Seconds(t), &EnableLoss, dev, em);
  }
}
"""


def _check(p: dict) -> None:
    validate.positive("obj_bytes", p["obj_bytes"])
    validate.positive("rate_bps", p["rate_bps"])
    validate.positive("rtt_s", p["rtt_s"])
    validate.probability("p", p["p"])
    for name in ("mss_bytes", "objects", "initial_cwnd", "del_ack_count"):
        validate.positive_integer(name, p[name])
    validate.positive("min_rto_rtts", p["min_rto_rtts"])
    validate.positive("max_sim_time_s", p["max_sim_time_s"])


def tcp_settings(p: dict, min_rto_s: float) -> dict:
    """Return the TCP settings for :func:`paperlib.sim.ns3_topology.tcp_defaults`: NewReno, the model's
    MSS, initial window (segments) and ACK policy, minimum RTO ``min_rto_s``, 1 MiB socket buffers
    (never the limit); ns-3's defaults otherwise. Shared with :mod:`paperlib.sim.multiuser_narrowband`.
    """
    return {"mss_bytes": int(p["mss_bytes"]), "initial_cwnd": int(p["initial_cwnd"]),
            "del_ack_count": int(p["del_ack_count"]), "min_rto_s": float(min_rto_s),
            "snd_buf_bytes": 1 << 20, "rcv_buf_bytes": 1 << 20}


def simulate(params: dict, seed: int) -> dict:
    """Run one transfer; return ``response_time_s`` (or None if it did not finish), retransmissions and drops.

    Parameters (``params``): ``obj_bytes`` object size (bytes), ``rate_bps``,
    ``rtt_s`` (propagation round trip), ``p`` (packet loss probability), and
    optionally ``mss_bytes`` (536), ``objects`` (M = 5), ``initial_cwnd`` (1),
    ``del_ack_count`` (1: an ACK per segment), ``min_rto_rtts`` (1.5),
    ``max_sim_time_s`` (600).
    """
    p = {**DEFAULTS, **params}
    _check(p)
    ns = ns3_env.load()
    watch = ns3_env.cpp(ns, "webperf_tcp", _CPP)

    rtt = float(p["rtt_s"])
    ns3_topology.start_run(ns, seed)
    ns3_topology.tcp_defaults(ns, **tcp_settings(p, p["min_rto_rtts"] * rtt))
    nodes, devices, ifaces = ns3_topology.two_node_link(ns, p["rate_bps"], rtt / 2)  # 0: server, 1: client

    total = int(round(p["objects"] * p["obj_bytes"]))
    port = 80
    sink_apps = ns.PacketSinkHelper(
        "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
    ).Install(nodes.Get(1))
    sink_apps.Start(ns.Seconds(0.0))
    sink = sink_apps.Get(0).GetObject[ns.PacketSink]()
    sender = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(ifaces.GetAddress(1), port).ConvertTo())
    sender.SetAttribute("MaxBytes", ns.UintegerValue(total))
    sender.SetAttribute("SendSize", ns.UintegerValue(int(p["mss_bytes"])))
    send_apps = sender.Install(nodes.Get(0))
    send_apps.Start(ns.Seconds(0.0))

    error = ns.CreateObject[ns.RateErrorModel]()
    error.SetAttribute("ErrorRate", ns.DoubleValue(float(p["p"])))
    error.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    # A fixed stream: ns-3 numbers automatically assigned streams process-wide, so without
    # this a second run in the same process (a Dask worker's next task) would draw other losses.
    error.AssignStreams(0)
    # Losses start once the handshake is over (SYN at 0, SYN-ACK back at 1 RTT; a little margin).
    watch.EnableLossAt(devices.Get(1), error, 1.01 * rtt)
    watch.Watch(sink, total)

    ns.Simulator.Stop(ns.Seconds(p["max_sim_time_s"]))
    ns.Simulator.Run()
    done = float(watch.done_at)
    result = {
        "response_time_s": None if done < 0 else done + rtt / 2,
        "bytes": int(watch.received),
    }
    ns.Simulator.Destroy()
    return result
