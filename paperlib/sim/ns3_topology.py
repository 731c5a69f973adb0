"""The ns-3 set-up every packet-level simulation of the package shares: TCP defaults, links, queue discs.

One place for what papers 000, 001, 002 and 003 build the same way
(:mod:`~paperlib.sim.multiuser_narrowband`, :mod:`~paperlib.sim.web_testbed`,
:mod:`~paperlib.sim.tcp_loss_transfer`, :mod:`~paperlib.sim.web_bottleneck`):

* :func:`start_run` -- the simulator's seed, run number and event scheduler for one run;
* :func:`tcp_defaults` -- every TCP default a simulation relies on, set explicitly on every call
  (ns-3's ``Config::SetDefault`` is process-wide: a default one simulation changed would otherwise
  leak into the next one a worker process runs);
* :func:`two_node_link` -- node 0 -- node 1 over one point-to-point link (000, 002);
* :func:`dumbbell` -- edge nodes -- router 0 ==bottleneck== router 1 -- edge nodes (001, 003);
* :func:`replace_queue_disc` / :func:`root_queue_disc` -- ns-3's address assignment installs
  FqCoDel on every device (PLATFORM-NOTES); a simulation that studies a queue replaces it.

The helpers create nodes, links and addresses in a fixed order (nodes, stacks, links, addresses,
routes), so a simulation built here runs exactly as it did when it built the same topology itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: ns-3 3.44's own TCP defaults except the congestion control (ns-3: Cubic; every simulation here:
#: NewReno, the algorithm of the papers' era). Units: bytes, segments, seconds.
NS3_TCP_DEFAULTS = {
    "socket_type": "ns3::TcpNewReno",
    "mss_bytes": 536,
    "initial_cwnd": 10,
    "del_ack_count": 2,
    "min_rto_s": 1.0,
    "sack": True,
    "timestamps": True,
    "window_scaling": True,
    "max_seg_lifetime_s": 120.0,
    "snd_buf_bytes": 131072,
    "rcv_buf_bytes": 131072,
}

#: The event scheduler of every run. Events at equal times run in insertion order whatever the
#: scheduler (ns-3 orders by time, then event id), so the choice changes speed, never results.
SCHEDULER = "ns3::CalendarScheduler"


def start_run(ns, run: int) -> None:
    """Seed ns-3's random streams for one run (seed 1, run number ``run``) and choose its event scheduler."""
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(int(run))
    factory = ns.ObjectFactory()
    factory.SetTypeId(SCHEDULER)
    ns.Simulator.SetScheduler(factory)


def tcp_defaults(ns, **settings) -> dict:
    """Set ns-3's TCP defaults for the sockets made after this call; return the settings applied.

    Every key of :data:`NS3_TCP_DEFAULTS` is set on every call: those not given get ns-3's own
    value, so nothing an earlier simulation in the same process set survives. Keys:
    ``socket_type`` (TypeId of the congestion control), ``mss_bytes``, ``initial_cwnd``
    (segments), ``del_ack_count`` (segments per ACK), ``min_rto_s``, ``sack``, ``timestamps``,
    ``window_scaling``, ``max_seg_lifetime_s`` (TIME_WAIT lasts twice this), ``snd_buf_bytes``,
    ``rcv_buf_bytes``. An unknown key raises ValueError naming it.
    """
    unknown = sorted(set(settings) - set(NS3_TCP_DEFAULTS))
    if unknown:
        raise ValueError(f"unknown TCP setting(s) {unknown}; known: {sorted(NS3_TCP_DEFAULTS)}")
    s = {**NS3_TCP_DEFAULTS, **settings}
    u = ns.UintegerValue
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", ns.StringValue(str(s["socket_type"])))
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", u(int(s["mss_bytes"])))
    ns.Config.SetDefault("ns3::TcpSocket::InitialCwnd", u(int(s["initial_cwnd"])))
    ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", u(int(s["del_ack_count"])))
    ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", u(int(s["snd_buf_bytes"])))
    ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", u(int(s["rcv_buf_bytes"])))
    ns.Config.SetDefault("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(float(s["min_rto_s"]))))
    ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(bool(s["sack"])))
    ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(bool(s["timestamps"])))
    ns.Config.SetDefault("ns3::TcpSocketBase::WindowScaling", ns.BooleanValue(bool(s["window_scaling"])))
    ns.Config.SetDefault("ns3::TcpSocketBase::MaxSegLifetime", ns.DoubleValue(float(s["max_seg_lifetime_s"])))
    return s


def point_to_point(ns, rate_bps: float, delay_s: float, device_queue_packets: int | None = None):
    """Return a PointToPointHelper for links of ``rate_bps`` and one-way ``delay_s``.

    Device queue: ns-3's 100 packets, or ``device_queue_packets``.
    """
    helper = ns.PointToPointHelper()
    helper.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_bps))))
    helper.SetChannelAttribute("Delay", ns.TimeValue(ns.Seconds(float(delay_s))))
    if device_queue_packets is not None:
        helper.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(f"{int(device_queue_packets)}p"))
    return helper


def packets(ns, n: int):
    """Return a queue size of ``n`` packets as an attribute value."""
    return ns.QueueSizeValue(ns.QueueSize(f"{int(n)}p"))


def two_node_link(ns, rate_bps: float, delay_s: float, base: str = "10.2.0.0"):
    """Return ``(nodes, devices, interfaces)``: node 0 -- node 1 over one point-to-point link of
    ``rate_bps`` and one-way ``delay_s``, Internet stacks installed, addresses from ``base``/30."""
    nodes = ns.NodeContainer()
    nodes.Create(2)
    devices = point_to_point(ns, rate_bps, delay_s).Install(nodes.Get(0), nodes.Get(1))
    ns.InternetStackHelper().Install(nodes)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address(base), ns.Ipv4Mask("255.255.255.252"))
    return nodes, devices, addr.Assign(devices)


@dataclass
class Dumbbell:
    """A built dumbbell: ``core`` holds the bottleneck's devices (0 on router 0, 1 on router 1)."""

    routers: object
    left: object
    right: object
    core: object
    left_ip: list = field(default_factory=list)
    right_ip: list = field(default_factory=list)
    keep: list = field(default_factory=list)  # helpers that must outlive Simulator::Run


def dumbbell(ns, *, bottleneck_bps: float, bottleneck_delay_s: float, left: list, right: list,
             interleave: bool = False, strip_access_discs: bool = False, base: str = "10.0.0.0") -> Dumbbell:
    """Return edge nodes -- router 0 ==bottleneck== router 1 -- edge nodes, stacks, addresses and routes.

    ``left`` / ``right``: one ``(rate_bps, one_way_delay_s)`` per edge node behind router 0 / 1.
    The bottleneck's devices queue one packet, so a backlog sits in its queue disc (the FqCoDel
    that address assignment installs there, until :func:`replace_queue_disc`). Access devices keep
    ns-3's 100-packet device queue; with ``strip_access_discs`` their FqCoDel is removed too.
    Links are addressed (/30 networks from ``base``) bottleneck first, then all left links and all
    right links, or with ``interleave`` (equal sides) left 0, right 0, left 1, ...
    """
    if interleave and len(left) != len(right):
        raise ValueError(f"interleave needs as many left as right nodes, got {len(left)} and {len(right)}")
    routers, lnodes, rnodes = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    routers.Create(2)
    lnodes.Create(len(left))
    rnodes.Create(len(right))
    stack = ns.InternetStackHelper()
    for group in (routers, lnodes, rnodes):
        stack.Install(group)
    bottleneck = point_to_point(ns, bottleneck_bps, bottleneck_delay_s, device_queue_packets=1)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address(base), ns.Ipv4Mask("255.255.255.252"))
    core = bottleneck.Install(routers.Get(0), routers.Get(1))
    addr.Assign(core)
    addr.NewNetwork()
    net = Dumbbell(routers, lnodes, rnodes, core, keep=[bottleneck, addr])
    edges = [(lnodes.Get(i), 0, rate, delay, net.left_ip) for i, (rate, delay) in enumerate(left)]
    edges_r = [(rnodes.Get(i), 1, rate, delay, net.right_ip) for i, (rate, delay) in enumerate(right)]
    order = [e for pair in zip(edges, edges_r, strict=True) for e in pair] if interleave else edges + edges_r
    strip = ns.TrafficControlHelper()
    for node, router, rate, delay, out in order:
        link = point_to_point(ns, rate, delay)
        devices = link.Install(node, routers.Get(router))
        ifc = addr.Assign(devices)
        addr.NewNetwork()
        if strip_access_discs:
            strip.Uninstall(devices)
        out.append(ifc.GetAddress(0))
        net.keep.append(link)
    net.keep.append(strip)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return net


def replace_queue_disc(ns, devices, type_id: str, attributes: dict | None = None,
                       device_queue_packets: int | None = None):
    """Remove the queue disc on ``devices`` (a device or a container) and install ``type_id``; return the discs.

    ``attributes``: attribute name -> ns-3 attribute value, in the order given. With
    ``device_queue_packets`` the devices' own queue is shrunk first, so the backlog sits in the disc.
    """
    if device_queue_packets is not None:
        many = hasattr(devices, "GetN")
        for device in ([devices.Get(i) for i in range(devices.GetN())] if many else [devices]):
            device.GetObject[ns.PointToPointNetDevice]().GetQueue().SetMaxSize(
                ns.QueueSize(f"{int(device_queue_packets)}p"))
    tch = ns.TrafficControlHelper()
    tch.Uninstall(devices)
    args = [x for name, value in (attributes or {}).items() for x in (name, value)]
    tch.SetRootQueueDisc(type_id, *args)
    return tch.Install(devices)


def root_queue_disc(ns, device):
    """Return the queue disc installed on ``device`` (e.g. the FqCoDel address assignment put there)."""
    return device.GetNode().GetObject[ns.TrafficControlLayer]().GetRootQueueDiscOnDevice(device)
