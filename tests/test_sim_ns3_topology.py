"""The shared ns-3 set-up: TCP defaults set in full, a tiny dumbbell's rates, delays, queues and addresses."""

import sys

import pytest

from paperlib.sim import multiuser_narrowband, ns3_env, ns3_topology, tcp_loss_transfer, web_bottleneck, web_testbed

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import test_sim_multiuser_narrowband  # noqa: E402  (tiny parameters of each simulation's own tests)
import test_sim_tcp_loss_transfer  # noqa: E402
import test_sim_web_bottleneck  # noqa: E402
import test_sim_web_testbed  # noqa: E402

pytestmark = pytest.mark.ns3


@pytest.fixture(scope="module")
def ns():
    return ns3_env.load()


def _initial(ns, type_name: str, attribute: str) -> str:
    """Return the default (initial value) of ``type_name``'s ``attribute`` as ns-3 prints it."""
    tid = ns.TypeId.LookupByName(type_name)
    for i in range(tid.GetAttributeN()):
        info = tid.GetAttribute(i)
        if info.name == attribute:
            return info.initialValue.SerializeToString(info.checker)
    raise KeyError(attribute)


def test_every_default_is_set_on_every_call(ns):
    ns3_topology.tcp_defaults(ns, sack=False, max_seg_lifetime_s=2.0, mss_bytes=1460, initial_cwnd=2)
    assert _initial(ns, "ns3::TcpSocketBase", "Sack") == "false"
    assert _initial(ns, "ns3::TcpSocket", "SegmentSize") == "1460"
    applied = ns3_topology.tcp_defaults(ns)  # a second simulation in the same process that sets nothing itself
    # ns-3 3.44's own values (its TypeIds: TcpSocketBase Sack true, MaxSegLifetime 120 s; TcpSocket 536 B, 10 segments)
    assert _initial(ns, "ns3::TcpSocketBase", "Sack") == "true"
    assert _initial(ns, "ns3::TcpSocketBase", "MaxSegLifetime") == "120"
    assert _initial(ns, "ns3::TcpSocket", "SegmentSize") == "536"
    assert _initial(ns, "ns3::TcpSocket", "InitialCwnd") == "10"
    assert _initial(ns, "ns3::TcpL4Protocol", "SocketType") == "ns3::TcpNewReno"  # ns-3's own is Cubic
    assert applied == ns3_topology.NS3_TCP_DEFAULTS
    with pytest.raises(ValueError, match="sacks"):
        ns3_topology.tcp_defaults(ns, sacks=False)


@pytest.mark.parametrize("module, params", [
    (web_testbed, {**test_sim_web_testbed.TINY, "sim_time_s": 6.0, "warmup_s": 1.0}),
    (web_bottleneck, {**test_sim_web_bottleneck.PARAMS, "sim_time_s": 2.0, "warmup_s": 0.5}),
    (tcp_loss_transfer, {**test_sim_tcp_loss_transfer.POINT, "p": 0.0}),
    (multiuser_narrowband, {**test_sim_multiuser_narrowband.POINT, "users": 2}),
])
def test_each_simulation_takes_its_tcp_defaults_from_the_one_function(module, params, monkeypatch):
    calls, real = [], ns3_topology.tcp_defaults

    def spy(ns, **settings):
        calls.append(settings)
        return real(ns, **settings)

    monkeypatch.setattr(ns3_topology, "tcp_defaults", spy)
    module.simulate(params, 1)
    assert len(calls) == 1
    assert calls[0]["mss_bytes"] == {**module.DEFAULTS, **params}["mss_bytes"]
    assert ns3_topology in module.SWEEP_DEPENDS  # editing the building block re-keys the simulation's cache


def test_tiny_dumbbell_has_the_rates_delays_queues_and_addresses_asked_for(ns):
    ns3_topology.start_run(ns, 1)
    net = ns3_topology.dumbbell(ns, bottleneck_bps=1e6, bottleneck_delay_s=0.010,
                                left=[(10e6, 0.005), (20e6, 0.020)], right=[(10e6, 0.0), (10e6, 0.0)],
                                interleave=True, strip_access_discs=True)

    def rate_and_delay(device):
        rate, delay = ns.DataRateValue(), ns.TimeValue()
        device.GetAttribute("DataRate", rate)
        device.GetChannel().GetAttribute("Delay", delay)
        return rate.Get().GetBitRate(), delay.Get().GetSeconds()

    def device_queue(device):
        return device.GetObject[ns.PointToPointNetDevice]().GetQueue().GetMaxSize().GetValue()

    assert rate_and_delay(net.core.Get(0)) == (1_000_000, 0.010)
    assert device_queue(net.core.Get(0)) == device_queue(net.core.Get(1)) == 1  # backlog in the queue disc
    left1 = net.left.Get(1).GetDevice(1)  # device 0 of a node is its loopback
    assert rate_and_delay(left1) == (20_000_000, 0.020)
    assert device_queue(left1) == 100  # ns-3's default device queue on access links
    assert not ns3_topology.root_queue_disc(ns, left1)  # a null Ptr: address assignment's FqCoDel stripped
    # /30 networks from 10.0.0.0: bottleneck .0, then interleaved left 0 (.4), right 0 (.8), left 1 (.12),
    # right 1 (.16);
    # the edge node's device is installed first, so it gets the network's first host address (.5, .9, .13, .17)
    assert [str(a) for a in net.left_ip] == ["10.0.0.5", "10.0.0.13"]
    assert [str(a) for a in net.right_ip] == ["10.0.0.9", "10.0.0.17"]
    fifo = ns3_topology.replace_queue_disc(ns, net.core.Get(0), "ns3::FifoQueueDisc",
                                           {"MaxSize": ns3_topology.packets(ns, 7)})
    assert fifo.Get(0).GetMaxSize().GetValue() == 7
    assert ns3_topology.root_queue_disc(ns, net.core.Get(0)).GetInstanceTypeId().GetName() == "ns3::FifoQueueDisc"
    # the other bottleneck device keeps the FqCoDel that address assignment installed
    assert ns3_topology.root_queue_disc(ns, net.core.Get(1)).GetInstanceTypeId().GetName() == "ns3::FqCoDelQueueDisc"
    ns.Simulator.Destroy()


def test_sides_order_and_interleave_needs_equal_sides(ns):
    ns3_topology.start_run(ns, 1)
    net = ns3_topology.dumbbell(ns, bottleneck_bps=1e6, bottleneck_delay_s=0.0, left=[(1e7, 0.0)] * 2,
                                right=[(1e7, 0.0)])
    # all left links (.4, .8), then the right one (.12)
    assert [str(a) for a in net.left_ip] == ["10.0.0.5", "10.0.0.9"] and [str(a) for a in net.right_ip] == ["10.0.0.13"]
    ns.Simulator.Destroy()
    with pytest.raises(ValueError, match="interleave"):
        ns3_topology.dumbbell(ns, bottleneck_bps=1e6, bottleneck_delay_s=0.0, left=[(1e7, 0.0)] * 2,
                              right=[(1e7, 0.0)], interleave=True)


def test_two_node_link_and_device_queue_shrink(ns):
    ns3_topology.start_run(ns, 1)
    nodes, devices, ifaces = ns3_topology.two_node_link(ns, 40_000, 0.128)
    rate, delay = ns.DataRateValue(), ns.TimeValue()
    devices.Get(0).GetAttribute("DataRate", rate)
    devices.Get(0).GetChannel().GetAttribute("Delay", delay)
    assert (rate.Get().GetBitRate(), delay.Get().GetSeconds()) == (40_000, 0.128)
    assert str(ifaces.GetAddress(0)) == "10.2.0.1" and str(ifaces.GetAddress(1)) == "10.2.0.2"
    ns3_topology.replace_queue_disc(ns, devices.Get(0), "ns3::FifoQueueDisc", {"MaxSize": ns3_topology.packets(ns, 50)},
                                    device_queue_packets=1)
    assert devices.Get(0).GetObject[ns.PointToPointNetDevice]().GetQueue().GetMaxSize().GetValue() == 1
    ns.Simulator.Destroy()
