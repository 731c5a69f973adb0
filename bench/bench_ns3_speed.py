"""ns-3 at its own speed: the 001 testbed's events per wall second beside a bare ns-3 run of the same packets.

Run with `make bench`. The floor is what this machine's ns-3 does with no Python and no
application logic in the loop: a dumbbell of 20 BulkSend TCP flows through a 10 Mbit/s FIFO
bottleneck (ns-3's own applications, all in C++), run for as many simulated seconds as it takes
to push the same number of packets through the bottleneck (both directions, data and ACKs) as
the 001 testbed's run. The testbed's browsers and probes are C++ too
(:mod:`paperlib.sim.web_browsers_cpp`), so its events per wall second should be near the floor;
the ratio (testbed / floor) shows the overhead that is left. Both runs are warm (ns-3 imported,
C++ compiled, one run before the timed one) and count events with ``Simulator::GetEventCount``.
Timings are machine-dependent; the ratio is the point.

Before both, the import itself: CPU seconds of a fresh process that loads ns-3 through the package's loader
(:data:`paperlib.sim.ns3_env.MODULES`) and through the wheel's loader of every module, and their ratio
(``--skip-wheel-import`` leaves the wheel's loader out: about 20 CPU s of a fresh process; the tests' tiny run uses
it, and ``tests/test_sim_ns3_env.py`` loads every module already).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from paperlib.sim import ns3_env, ns3_topology, web_testbed

#: C++ run at Simulator::Destroy (scheduled before a run): the event count and the packets that entered the
#: bottleneck's two queue discs (node 0 and node 1 are the dumbbell's routers; device 1 is the bottleneck).
#: Arm it before the first node exists: destroy events run in the order scheduled, and the node list's own
#: (scheduled when the first node is made) empties the list.
COUNTER = """
namespace bench_count {
using namespace ns3;
uint64_t events = 0;
uint64_t packets = 0;
void Record() {
  events = Simulator::GetEventCount();
  packets = 0;
  for (uint32_t n = 0; n < 2 && n < NodeList::GetNNodes(); ++n) {
    Ptr<Node> node = NodeList::GetNode(n);
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> disc = tc->GetRootQueueDiscOnDevice(node->GetDevice(1));
    if (disc) packets += disc->GetStats().nTotalReceivedPackets;
  }
}
void Arm() { Simulator::ScheduleDestroy(&Record); }
}
"""


@dataclass
class Run:
    """One timed simulation: events executed, packets through the bottleneck, wall seconds, simulated seconds."""

    events: int
    packets: int
    wall_s: float
    sim_s: float

    @property
    def events_per_s(self) -> float:
        """Return events executed per wall second."""
        return self.events / self.wall_s


def _counter():
    ns = ns3_env.load()
    return ns, ns3_env.cpp(ns, "bench_count", COUNTER)


def testbed_run(point: dict, seed: int = 1) -> Run:
    """Return the counts and wall time of one 001 testbed run (``web_testbed.simulate``), timed warm."""
    ns, count = _counter()
    # compile and JIT once (at most 6 simulated seconds)
    web_testbed.simulate({**point, "sim_time_s": min(6.0, point["sim_time_s"]),
                          "warmup_s": min(2.0, point["warmup_s"])}, seed + 1)
    count.Arm()
    t0 = time.perf_counter()
    web_testbed.simulate(point, seed)
    wall = time.perf_counter() - t0
    return Run(int(count.events), int(count.packets), wall, float(point["sim_time_s"]))


def bare_run(sim_s: float, flows: int = 20, rate_bps: float = 10e6) -> Run:
    """Return the counts and wall time of ``flows`` BulkSend flows through a ``rate_bps`` FIFO dumbbell."""
    ns, count = _counter()
    count.Arm()
    ns3_topology.start_run(ns, 1)
    ns3_topology.tcp_defaults(ns, mss_bytes=1460)
    access = [(10 * rate_bps, 0.01)] * flows
    net = ns3_topology.dumbbell(ns, bottleneck_bps=rate_bps, bottleneck_delay_s=0.0001, left=access, right=access,
                                strip_access_discs=True)
    ns3_topology.replace_queue_disc(ns, net.core, "ns3::FifoQueueDisc",
                                    {"MaxSize": ns.QueueSizeValue(ns.QueueSize("120p"))})
    apps = []
    for i in range(flows):
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9000 + i)
                                   .ConvertTo())
        apps.append(sink.Install(net.right.Get(i)))
        src = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(net.right_ip[i], 9000 + i).ConvertTo())
        apps.append(src.Install(net.left.Get(i)))
        net.keep += [sink, src]
    ns.Simulator.Stop(ns.Seconds(sim_s))
    t0 = time.perf_counter()
    ns.Simulator.Run()
    ns.Simulator.Destroy()
    wall = time.perf_counter() - t0
    del apps, net
    return Run(int(count.events), int(count.packets), wall, sim_s)


def floor_for(packets: int) -> Run:
    """Return a bare run that pushes about ``packets`` packets through the bottleneck (its rate measured first)."""
    bare_run(2.0)  # warm: first run of this topology
    probe = bare_run(5.0)
    return bare_run(max(1.0, probe.sim_s * packets / max(probe.packets, 1)))


def import_cpu_s(all_modules: bool) -> float:
    """Return the CPU seconds (user + system) a fresh interpreter spends loading ns-3 (and nothing else)."""
    code = ("import resource; from paperlib.sim import ns3_env; ns3_env.load(); "
            "u = resource.getrusage(resource.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)")
    env = {k: v for k, v in os.environ.items() if k != ns3_env.ALL_MODULES_VARIABLE}
    if all_modules:
        env[ns3_env.ALL_MODULES_VARIABLE] = "1"
    with tempfile.TemporaryDirectory() as empty:  # ns-3's own loader scans its working directory
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=empty)
    if out.returncode != 0:
        raise RuntimeError(f"loading ns-3 failed (exit status {out.returncode}):\n{out.stderr[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim-time", type=float, default=40.0, help="simulated seconds of the 001 testbed run")
    parser.add_argument("--warmup", type=float, help="its unmeasured simulated seconds at the start (default the "
                        "profile's; a short --sim-time needs a shorter one)")
    parser.add_argument("--skip-wheel-import", action="store_true",
                        help="do not time the wheel's loader of every module (about 20 CPU s)")
    args = parser.parse_args()
    from bench_testbed import _point  # the default profile's FIFO-120 point at 90 % load

    package = import_cpu_s(all_modules=False)
    if args.skip_wheel_import:
        wheel_text = "not timed (--skip-wheel-import)"
    else:
        wheel = import_cpu_s(all_modules=True)
        wheel_text = f"{wheel:.1f}: ratio {wheel / package:.1f}x"
    print(f"ns-3 import, CPU s of a fresh process: the package's {len(ns3_env.MODULES)} modules {package:.1f}, "
          f"every module (the wheel's loader) {wheel_text}")
    point = _point(args.sim_time, warmup_s=args.warmup)
    tb = testbed_run(point)
    floor = floor_for(tb.packets)
    print(f"ns-3 speed, 001 testbed (FIFO-120, 90% of 10 Mbit/s, {point['browsers']} browsers, "
          f"{tb.sim_s:g} s simulated): {tb.packets:,} packets through the bottleneck, {tb.events:,} events "
          f"in {tb.wall_s:.1f} s = {tb.events_per_s / 1e6:.3f} M events per wall s")
    print(f"  floor (bare ns-3: 20 BulkSend flows, 10 Mbit/s FIFO, {floor.sim_s:.1f} s simulated): "
          f"{floor.packets:,} packets, {floor.events:,} events in {floor.wall_s:.1f} s = "
          f"{floor.events_per_s / 1e6:.3f} M events per wall s")
    print(f"  testbed / floor: {tb.events_per_s / floor.events_per_s:.2f} (events per wall s); "
          f"events per packet {tb.events / max(tb.packets, 1):.1f} (testbed) and "
          f"{floor.events / max(floor.packets, 1):.1f} (floor)")


if __name__ == "__main__":
    main()
