"""m users fetching the same object at once over one narrowband link, TCP in ns-3: paper 000's scenario.

Paper: 000 section 3 (m users ask the server at the same time and share its one link,
Fig. 2) and section 4 (Tables 1-3: theta = 13.5 KB, mtu = 536 B, mu = 40 Kbps, rtt = 256 ms,
p = 0.4-2 %; mu up to 3000 Kbps; rtt 55-256 ms; m = 5, 10, 20, 30). ns-3 has no SCTP, so this
is the TCP half of the experiment.

Topology and set-up: the server -- client link of :mod:`paperlib.sim.tcp_loss_transfer`
(:func:`~paperlib.sim.ns3_topology.two_node_link`: one point-to-point link of ``rate_bps``,
one-way delay rtt/2; the client node hosts the m users) with the same TCP defaults
(:func:`~paperlib.sim.tcp_loss_transfer.tcp_settings`: NewReno, MSS 536 B, initial window 1 as
paper 000's TCP model, an ACK per segment, minimum RTO). Each user has its own connection; the
server starts all m transfers at t = 0 (each ``objects_per_user`` x ``obj_bytes``); the server's
link is the shared bottleneck.

Two choices made here that the single-connection module does not need, and why:

* **Queue.** ns-3's address assignment installs FqCoDel on every device (PLATFORM-NOTES). At
  40 Kbps one 578-byte packet takes 116 ms to send, 23 times CoDel's 5 ms target, so CoDel drops
  whenever two packets queue: losses the paper's model (random loss p only) does not have. The
  server's device gets a drop-tail FIFO instead (``queue="fifo"``, ``queue_limit_packets``, large
  by default so that p is the only loss) and a one-packet device queue, so the backlog sits in the
  FIFO; ``queue="fq_codel"`` keeps ns-3's default for comparison.
* **Loss.** Paper 000's model counts losses of data packets only (alpha = ceil(np) of the n
  packets). With m handshakes overlapping other users' data a time switch cannot separate them,
  so the loss model here drops each packet the client receives with probability p only if it
  carries data (size >= ``min_loss_bytes``, above any pure ACK, SYN or FIN).

Measured per user: the turnaround time, i.e. the time until the user holds the last byte, plus
half a round trip so that the clock starts, as for an HTTP client, when the user sends its SYN
(as in :mod:`~paperlib.sim.tcp_loss_transfer`). Paper 000 section 3 defines the turnaround time
as the finish time and the waiting time as turnaround minus the user's own service
n tau = E(T); the waiting time needs the single-user response time and is formed from an m = 1
run by the caller (paper 000's package, its ``ns3`` part).

:func:`simulate` is the sweep runner's unit of work.
"""

from __future__ import annotations

from paperlib import validate
from paperlib.sim import ns3_env, ns3_topology, tcp_loss_transfer

#: Modules whose code the results depend on (hashed into the sweep cache key).
SWEEP_DEPENDS = (ns3_env, ns3_topology, tcp_loss_transfer)

QUEUES = ("fifo", "fq_codel")

DEFAULTS = {
    "mss_bytes": 536,
    "objects_per_user": 1,
    "initial_cwnd": 1,
    "del_ack_count": 1,
    "min_rto_s": 1.0,
    "queue": "fifo",
    "queue_limit_packets": 100_000,
    "min_loss_bytes": 100,
    "max_sim_time_s": 3600.0,
}

_CPP = """
#include <cstdint>
#include <vector>
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/address.h"
#include "ns3/packet-sink.h"
#include "ns3/net-device.h"
#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/pointer.h"
#include "ns3/callback.h"
namespace webperf_mu {
  std::vector<uint64_t> received;
  std::vector<double> done;
  uint64_t target = 0;
  uint32_t remaining = 0;
  uint64_t data_drops = 0;
  uint64_t wire_packets = 0;
  void OnTx(ns3::Ptr<const ns3::Packet> p) { ++wire_packets; }
  void CountTx(ns3::Ptr<ns3::NetDevice> dev) {
    dev->TraceConnectWithoutContext("PhyTxBegin", ns3::MakeCallback(&OnTx));
  }
  void OnRx(uint32_t user, ns3::Ptr<const ns3::Packet> p, const ns3::Address& from) {
    received[user] += p->GetSize();
    if (done[user] < 0 && received[user] >= target) {
      done[user] = ns3::Simulator::Now().GetSeconds();
      if (--remaining == 0) ns3::Simulator::Stop();
    }
  }
  void Reset(uint32_t users, uint64_t bytes) {
    received.assign(users, 0); done.assign(users, -1.0); target = bytes; remaining = users;
    data_drops = 0; wire_packets = 0;
  }
  void Watch(ns3::Ptr<ns3::PacketSink> sink, uint32_t user) {
    sink->TraceConnectWithoutContext("Rx", ns3::MakeBoundCallback(&OnRx, user));
  }
  // Drops each received packet of at least min_size bytes (data, not pure ACK/SYN/FIN) with probability rate.
  class DataErrorModel : public ns3::ErrorModel {
   public:
    static ns3::TypeId GetTypeId() {
      static ns3::TypeId tid = ns3::TypeId("webperf_mu::DataErrorModel")
                                   .SetParent<ns3::ErrorModel>()
                                   .AddConstructor<DataErrorModel>();
      return tid;
    }
    DataErrorModel() { rv = ns3::CreateObject<ns3::UniformRandomVariable>(); }
    double rate = 0;
    uint32_t min_size = 100;
    ns3::Ptr<ns3::UniformRandomVariable> rv;
   private:
    bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override {
      if (p->GetSize() < min_size) return false;
      bool drop = rv->GetValue() < rate;
      if (drop) ++data_drops;
      return drop;
    }
    void DoReset() override {}
  };
  void AttachLoss(ns3::Ptr<ns3::NetDevice> dev, double rate, uint32_t min_size, int64_t stream) {
    ns3::Ptr<DataErrorModel> em = ns3::CreateObject<DataErrorModel>();
    em->rate = rate; em->min_size = min_size; em->rv->SetStream(stream);
    dev->SetAttribute("ReceiveErrorModel", ns3::PointerValue(em));
  }
  double Done(uint32_t user) { return done[user]; }
}
"""


def _check(p: dict) -> None:
    validate.positive("obj_bytes", p["obj_bytes"])
    validate.positive("rate_bps", p["rate_bps"])
    validate.positive("rtt_s", p["rtt_s"])
    validate.probability("p", p["p"])
    for name in ("users", "mss_bytes", "objects_per_user", "initial_cwnd", "del_ack_count", "queue_limit_packets",
                 "min_loss_bytes"):
        validate.positive_integer(name, p[name])
    validate.positive("min_rto_s", p["min_rto_s"])
    validate.positive("max_sim_time_s", p["max_sim_time_s"])
    validate.choice("queue", p["queue"], QUEUES)
    if p["users"] > 1000:
        raise validate.ParameterError(f"users must be at most 1000, got {p['users']}")
    if p["min_loss_bytes"] > p["mss_bytes"]:
        raise validate.ParameterError(
            f"min_loss_bytes ({p['min_loss_bytes']}) must not exceed mss_bytes ({p['mss_bytes']}): "
            "full data segments must be subject to loss")


def simulate(params: dict, seed: int) -> dict:
    """Run m users once; return their turnaround times (s) and the drop counts.

    Parameters (``params``): ``users`` (m), ``obj_bytes`` (theta, bytes), ``rate_bps`` (mu),
    ``rtt_s`` (propagation round trip), ``p`` (loss probability of a data packet), and optionally
    ``mss_bytes`` (536), ``objects_per_user`` (1), ``initial_cwnd`` (1 segment), ``del_ack_count``
    (1), ``min_rto_s`` (1 s), ``queue`` ("fifo" or "fq_codel"), ``queue_limit_packets``
    (100 000), ``min_loss_bytes`` (100), ``max_sim_time_s`` (3600).

    Results: ``turnaround_s`` (one per user, None if unfinished at ``max_sim_time_s``),
    ``mean_turnaround_s`` (None unless all finished), ``max_turnaround_s``, ``data_drops``
    (data packets the loss model dropped), ``queue_drops`` (packets the server's queue dropped),
    ``wire_packets`` (packets the server sent on the link, retransmissions included).
    """
    p = {**DEFAULTS, **params}
    _check(p)
    ns = ns3_env.load()
    mu = ns3_env.cpp(ns, "webperf_mu", _CPP)
    users = int(p["users"])
    per_user = int(round(p["objects_per_user"] * p["obj_bytes"]))
    rtt = float(p["rtt_s"])

    ns3_topology.start_run(ns, seed)
    ns3_topology.tcp_defaults(ns, **tcp_loss_transfer.tcp_settings(p, p["min_rto_s"]))
    nodes, devices, ifaces = ns3_topology.two_node_link(ns, p["rate_bps"], rtt / 2)  # 0: server, 1: client
    server_dev = devices.Get(0)
    if p["queue"] == "fifo":
        # The backlog must sit in the FIFO: one packet in the device, the rest in the queue disc.
        limit = ns3_topology.packets(ns, p["queue_limit_packets"])
        qdisc = ns3_topology.replace_queue_disc(ns, server_dev, "ns3::FifoQueueDisc", {"MaxSize": limit},
                                                device_queue_packets=1).Get(0)
    else:
        qdisc = ns3_topology.root_queue_disc(ns, server_dev)

    mu.Reset(users, per_user)
    keep = []  # helpers and applications must outlive Simulator::Run
    for u in range(users):
        port = 1000 + u
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        sink_apps = sink_helper.Install(nodes.Get(1))
        sink_apps.Start(ns.Seconds(0.0))
        mu.Watch(sink_apps.Get(0).GetObject[ns.PacketSink](), u)
        server = ns.InetSocketAddress(ifaces.GetAddress(1), port).ConvertTo()
        sender = ns.BulkSendHelper("ns3::TcpSocketFactory", server)
        sender.SetAttribute("MaxBytes", ns.UintegerValue(per_user))
        sender.SetAttribute("SendSize", ns.UintegerValue(int(p["mss_bytes"])))
        send_apps = sender.Install(nodes.Get(0))
        send_apps.Start(ns.Seconds(0.0))
        keep.append((sink_helper, sink_apps, sender, send_apps))
    # A fixed stream number: ns-3 numbers automatically assigned streams process-wide, so a second
    # run in the same process (a Dask worker's next task) would otherwise draw other losses.
    mu.AttachLoss(devices.Get(1), float(p["p"]), int(p["min_loss_bytes"]), 0)
    mu.CountTx(server_dev)

    ns.Simulator.Stop(ns.Seconds(p["max_sim_time_s"]))
    ns.Simulator.Run()
    done = [float(mu.Done(u)) for u in range(users)]
    turnaround = [None if d < 0 else d + rtt / 2 for d in done]
    finished = [t for t in turnaround if t is not None]
    result = {
        "turnaround_s": turnaround,
        "mean_turnaround_s": sum(finished) / users if len(finished) == users else None,
        "max_turnaround_s": max(finished) if len(finished) == users else None,
        "data_drops": int(mu.data_drops),
        "queue_drops": int(qdisc.GetStats().nTotalDroppedPackets) if qdisc is not None else 0,
        # Packets the server put on the link (data, retransmissions, SYN/FIN, ACKs of requests): against
        # users x ceil(object / MSS) data packets it shows how much of the link went to duplicates.
        "wire_packets": int(mu.wire_packets),
    }
    ns.Simulator.Destroy()
    return result
