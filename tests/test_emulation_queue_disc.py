"""linkemu's queue options (paperlib/emulation/linkemu.c, paperlib/emulation/queue_disc.py): RED as ns-3's
RedQueueDisc computes it, ns-3's queue-disc backlog, per-pair delays, the queue log, bad flags.

The RED check against ns-3 (issue 33): ns-3's RedQueueDisc, installed as paperlib.sim.web_testbed installs it
(its ``_queue_disc`` attributes, on a point-to-point device of the bottleneck's rate whose own queue holds one
packet), and linkemu's RED trace build (``-DLINKEMU_RED_TEST``: the live emulator's own arrive()/red_enqueue()
code, fed arrivals on stdin instead of TUN reads) get the same seeded, bursty packet arrivals: bursts at 1.5 x
the 10 Mbit/s service rate, pauses between them, 80 % 1500-byte and 20 % 52-byte packets. ns-3 serialises
each packet with its 2-byte PPP header, so linkemu runs with ``--frame-overhead 2`` to serialise the same bits.
Departures are not in the trace: each side derives them from its own link (ns-3's device, linkemu's
serialiser model), so the check covers the backlog definition, the idle-time correction and the limit too.
Per arrival both give the disc backlog before it, RED's average after it and the decision (kept, early drop,
forced by the average, the limit). The uniforms: ns-3's RED draws from a UniformRandomVariable whose stream
is fixed (AssignStreams(s)); a second UniformRandomVariable with SetStream(s) in the same process (same seed
and run) yields the same sequence, and its first values are handed to linkemu, which consumes one per draw.
Were linkemu to draw at another arrival than ns-3 (or compute another probability), the decisions would part.
RED's average is private in ns-3; the C++ helper reads it through a pointer to member (the explicit template
instantiation rule lets a template argument name a private member).

Runtime: about 10 s of ns-3 import and 5 s of runs on an idle 2-core machine; the real-stack run (per-pair
delays, queue log, RED counters) about 3 s, alone under pytest -n (``exclusive``).
"""

import json
import math
import os
import socket
import subprocess
import threading
import time
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from paperlib.emulation import build, netns, queue_disc
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.queue_disc import Red
from paperlib.validate import ParameterError

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")

KEEP, EARLY, FORCED, LIMIT = 0, 1, 2, 3
RATE_BPS = 10e6


@pytest.fixture(scope="module")
def red_trace(tmp_path_factory):
    """Return linkemu compiled as the RED trace program."""
    target = tmp_path_factory.mktemp("linkemu") / "red"
    return build.compile_into(build.HERE / "linkemu.c", target,
                              ("-std=gnu99", "-O2", "-Wall", "-Wno-unused-function", "-DLINKEMU_RED_TEST"), ("-lm",))


def run_trace(exe, queue: int, flags: list[str], arrivals, uniforms=(), rate_bps: float = RATE_BPS):
    """Return (backlog before, decision, average) per arrival and the uniforms used, from the trace program."""
    lines = [f"u {float(u)!r}" for u in uniforms] + [f"a {int(t)} {int(n)}" for t, n in arrivals]
    out = subprocess.run([str(exe), repr(float(rate_bps)), str(queue), *flags], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    rows = [line.split() for line in out[:-1]]
    assert [int(r[0]) for r in rows] == [int(t) for t, _ in arrivals]
    backlog = np.array([int(r[1]) for r in rows])
    decision = np.array([int(r[2]) for r in rows])
    avg = np.array([float(r[3]) for r in rows])
    used = int(out[-1].split()[1])
    return backlog, decision, avg, used


# --- hand-derived traces (no ns-3) -------------------------------------------------------------------------------

W = 1 / 128
RED_A = Red(min_th=5.0, max_th=90.0, weight=W, max_p=1 / 20, gentle=False, mean_pkt_bytes=1500)


def test_backlog_is_the_disc_behind_a_two_packet_device(red_trace):
    # 1500 B at 10 Mbit/s: 1.2 ms each. Arrivals at 1, 2, 3, 4 us: packet 1 is serialised at once (1 us to
    # 1.201 ms), packet 2 waits in the device's 1-packet queue (it enters it at 2 us, after packet 1 started),
    # packet 3 waits in the disc until packet 2 starts at 1.201 ms. So the disc holds 0, 0, 0, 1 packets when
    # packets 1-4 arrive. RED's average: 0 until packet 4, then (1 - w) x 0 + w x 1 = 1/128 (the idle
    # correction of packets 1 and 2 multiplies 0). Packet 5 arrives at 1 s: packet 4 started at 3.601 ms with no
    # packet waiting, so the disc was idle since then: m = floor(ptc x 0.996399 s), ptc = 10^7 / (8 x 1500) =
    # 833.33 packets/s, m = floor(830.33) = 830, and the average decays to w (1 - w)^(830 + 1) + w x 0.
    arrivals = [(1000, 1500), (2000, 1500), (3000, 1500), (4000, 1500), (1_000_000_000, 1500)]
    backlog, decision, avg, used = run_trace(red_trace, 480, RED_A.linkemu_flag("ab"), arrivals)
    assert backlog.tolist() == [0, 0, 0, 1, 0]
    assert decision.tolist() == [KEEP] * 5 and used == 0
    assert avg[:3].tolist() == [0.0, 0.0, 0.0]
    assert avg[3] == W
    assert avg[4] == pytest.approx(W * (1 - W) ** 831, rel=1e-12)


def test_drop_tail_limits_without_and_with_the_ns3_backlog(red_trace):
    burst = [(1000 + i, 1500) for i in range(6)]  # six packets within 6 ns: all arrive before the first leaves
    # default drop-tail, QUEUE 2: at most 2 packets not yet serialised, the one on the wire included:
    # packets 1 and 2 kept (0 and 1 before them), 3-6 dropped (2 before each)
    backlog, decision, _, _ = run_trace(red_trace, 2, [], burst)
    assert decision.tolist() == [KEEP, KEEP, LIMIT, LIMIT, LIMIT, LIMIT]
    assert backlog.tolist() == [0, 1, 2, 2, 2, 2]
    # ns-3's FifoQueueDisc of 2 packets: packet 1 on the wire, packet 2 in the device queue, 3 and 4 in the
    # disc (0, 0, 0, 1 before them), 5 and 6 dropped (2 in the disc): QUEUE + 2 = 4 packets kept
    backlog, decision, _, _ = run_trace(red_trace, 2, ["--ns3-backlog"], burst)
    assert decision.tolist() == [KEEP, KEEP, KEEP, KEEP, LIMIT, LIMIT]
    assert backlog.tolist() == [0, 0, 0, 1, 2, 2]


def test_red_draws_one_uniform_per_early_test_and_drops_on_u_at_most_p(red_trace):
    # RED with w = 1 (the average is the backlog itself), min_th 1, max_th 11, max_p 1: p_b = (avg - 1) / 10.
    # A burst of 1500 B packets 1 ns apart: packets 1-2 go to the wire and the device queue, then the disc
    # holds 0, 1, 2, ... before packets 3, 4, 5, ... Packet 5 (backlog 2, avg 2 >= min_th and n > 1) is the
    # first above min_th: it only resets count to 1 (no draw). Packet 6: backlog 3, p_b = 0.2, count 2,
    # count p_b = 0.4 < 1: p_a = 0 and a draw (u = 0.0): u <= 0 drops (early) and count = 0. Packet 7: backlog 3
    # (packet 6 was dropped), p_b = 0.2, count 1: p_a = 0, draw u = 0.5: kept. Packet 8: backlog 4, p_b = 0.3,
    # count 2, 0.6 < 1: p_a = 0, draw 0.0: dropped.
    red = Red(min_th=1.0, max_th=11.0, weight=1.0, max_p=1.0, gentle=False, mean_pkt_bytes=1500)
    burst = [(1000 + i, 1500) for i in range(8)]
    backlog, decision, avg, used = run_trace(red_trace, 100, red.linkemu_flag("ab"), burst, uniforms=[0.0, 0.5, 0.0])
    assert backlog.tolist() == [0, 0, 0, 1, 2, 3, 3, 4]
    assert avg.tolist() == backlog.tolist()
    assert decision.tolist() == [KEEP] * 5 + [EARLY, KEEP, EARLY]
    assert used == 3


# --- against ns-3's RedQueueDisc ----------------------------------------------------------------------------------

CPP = r"""
namespace webperf_redcheck {
using namespace ns3;
template <typename Tag, typename Tag::type M> struct Rob { friend typename Tag::type get(Tag) { return M; } };
struct QAvg { typedef double RedQueueDisc::*type; friend type get(QAvg); };
template struct Rob<QAvg, &RedQueueDisc::m_qAvg>;  // RED's average (private): read through a pointer to member

Ptr<QueueDisc> disc; Ptr<NetDevice> dev; Ptr<TrafficControlLayer> tc;
std::vector<double> avg; std::vector<int> decision; std::vector<uint32_t> before;
const char* kReasons[2] = {"Unforced drop", "Forced drop"};
uint64_t Dropped(int i) { return disc->GetStats().GetNDroppedPackets(kReasons[i]); }
void Arrive(uint32_t size) {  // an IPv4 packet of `size` bytes handed to the device's queue disc
  uint64_t early = Dropped(0), forced = Dropped(1), all = disc->GetStats().nTotalDroppedPackets;
  before.push_back(disc->GetNPackets());
  Ipv4Header h;
  h.SetPayloadSize(size - 20); h.SetProtocol(17); h.SetTtl(64);
  h.SetSource(Ipv4Address("10.2.0.1")); h.SetDestination(Ipv4Address("10.2.0.2"));
  tc->Send(dev, Create<Ipv4QueueDiscItem>(Create<Packet>(size - 20), dev->GetBroadcast(), 0x0800, h));
  Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(disc);
  avg.push_back(red ? PeekPointer(red)->*get(QAvg()) : std::nan(""));
  // anything else dropped is the limit (RED's internal queue, FifoQueueDisc's own check)
  uint64_t dropped = disc->GetStats().nTotalDroppedPackets;
  decision.push_back(Dropped(0) > early ? 1 : Dropped(1) > forced ? 2 : dropped > all ? 3 : 0);
}
void Setup(Ptr<QueueDisc> q, Ptr<NetDevice> d, int64_t stream) {
  disc = q; dev = d; tc = d->GetNode()->GetObject<TrafficControlLayer>();
  avg.clear(); decision.clear(); before.clear();
  Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(q);
  if (red) red->AssignStreams(stream);
}
void Schedule(const int64_t* t_ns, const uint32_t* size, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) Simulator::Schedule(NanoSeconds(t_ns[i]), &Arrive, size[i]);
}
std::vector<double> Uniforms(int64_t stream, uint64_t n) {  // the sequence RED's stream gives
  Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
  u->SetStream(stream);
  std::vector<double> out;
  for (uint64_t i = 0; i < n; ++i) out.push_back(u->GetValue());
  return out;
}
}
"""

N_PACKETS = 4000
STREAM = 5


def bursty_trace(seed: int, n: int, rate_bps: float = RATE_BPS) -> tuple[np.ndarray, np.ndarray]:
    """Return arrival times (ns, increasing) and IP lengths (bytes): bursts at 1.5 x the rate, pauses between."""
    rng = np.random.default_rng(seed)
    t, times, sizes = 1_000_000, [], []
    while len(times) < n:
        for _ in range(int(rng.geometric(1 / 300))):
            size = 1500 if rng.random() < 0.8 else 52
            times.append(t)
            sizes.append(size)
            t += int(rng.exponential(size * 8 / rate_bps / 1.5 * 1e9)) + 1
        t += int(rng.exponential(0.15e9)) + 1
    return np.array(times[:n], dtype=np.int64), np.array(sizes[:n], dtype=np.uint32)


def ns3_queue(ns, cpp, params: dict, times, sizes):
    """Return ns-3's (backlog before, decision, average) per arrival and RED's uniforms."""
    from paperlib.sim import ns3_topology, web_testbed

    ns3_topology.start_run(ns, 1)
    _, devices, _ = ns3_topology.two_node_link(ns, params["bottleneck_bps"], params["bottleneck_delay_s"])
    discs = ns3_topology.replace_queue_disc(ns, devices.Get(0), *web_testbed._queue_disc(ns, params),
                                            device_queue_packets=1)
    cpp.Setup(discs.Get(0), devices.Get(0), STREAM)
    cpp.Schedule(times, sizes, len(times))
    ns.Simulator.Run()
    out = (np.array(cpp.before, dtype=np.int64), np.array(cpp.decision, dtype=np.int64), np.array(cpp.avg))
    uniforms = np.array(cpp.Uniforms(STREAM, len(times)))
    ns.Simulator.Destroy()
    return (*out, uniforms)


def _configs() -> dict[str, dict]:
    from paperlib.data import load_paper
    from paperlib.reproduce.p001 import testbed

    red = {k: v for k, v in testbed.queue_configs(load_paper("001")).items() if k[:5] in ("RED-A", "RED-B", "RED-C")
           and v["queue_packets"] in (480, 240)}
    assert len(red) == 6  # Table 1's RED-A/B/C at qlen 480 and 240
    return {**red, "RED-A-240-gentle": {**red["RED-A-240"], "red_gentle": True},
            "FIFO-60": {"queue": "fifo", "queue_packets": 60}}


@pytest.mark.ns3
def test_red_matches_ns3_red_queue_disc_on_the_same_arrivals(red_trace):
    from paperlib.sim import ns3_env, web_testbed

    ns = ns3_env.load()
    cpp = ns3_env.cpp(ns, "webperf_redcheck", CPP)
    times, sizes = bursty_trace(7, N_PACKETS)
    seen = np.zeros(4, dtype=np.int64)
    for name, cfg in _configs().items():
        params = {**web_testbed.DEFAULTS, "bottleneck_bps": RATE_BPS, **cfg}
        backlog3, decision3, avg3, uniforms = ns3_queue(ns, cpp, params, times, sizes)
        if params["queue"] == "red":
            flags = queue_disc.red_from_testbed_params(params).linkemu_flag("ab")
        else:
            flags = ["--ns3-backlog"]
        flags += queue_disc.frame_overhead_flag(queue_disc.NS3_POINT_TO_POINT_HEADER_BYTES)
        backlog, decision, avg, used = run_trace(red_trace, params["queue_packets"], flags,
                                                 list(zip(times, sizes, strict=True)), uniforms)
        assert len(decision3) == N_PACKETS, name
        assert np.array_equal(backlog, backlog3), name
        assert np.array_equal(decision, decision3), name
        if params["queue"] == "red":
            # the same double operations in the same order: equal to the last bit (a tolerance of 1e-9 packets
            # would also do; the decisions above are the stronger check)
            assert np.max(np.abs(avg - avg3)) <= 1e-9, name
        seen += np.bincount(decision3, minlength=4)
    # the trace reaches every decision somewhere: kept, early, forced by the average, the limit
    assert (seen > 0).all(), seen


# --- flags -------------------------------------------------------------------------------------------------------

POSITIONAL = ["nsA", "devA", "nsB", "devB", "1e6", "1e6", "0.01", "0.01", "0", "0", "10", "10", "1"]


@pytest.mark.parametrize("flags, named", [
    (["--red-ab", "5,90,0.01,0.1,0"], "--red-ab '5,90,0.01,0.1,0'"),
    (["--red-ba", "5,90,0.01,0.1,2,1500"], "GENTLE must be 0 or 1"),
    (["--red-ab", "5,90,0,0.1,0,1500"], "QW must be in"),
    (["--red-ab", "90,5,0.01,0.1,0,1500"], "MAX_TH must be above MIN_TH"),
    (["--red-ab", "5,90,0.01,1.5,0,1500"], "MAX_P must be in"),
    (["--red-ab", "5,90,0.01,0.1,0,15.5"], "MEAN_PKT_BYTES"),
    (["--red-ab", "5,ninety,0.01,0.1,0,1500"], "MAX_TH must be a number, got 'ninety'"),
    (["--red-ab", "5,90,0.01,0.1,0,1500", "--red-ab", "5,90,0.01,0.1,0,1500"], "given twice"),
    (["--pair", "10.0.0.1,10.0.0.300,0.01,0.01"], "B_IP must be an IPv4 address"),
    (["--pair", "10.0.0.1,10.0.0.2,-0.01,0.01"], "DELAY_AB_S must be in"),
    (["--pair", "10.0.0.1,10.0.0.2,0.01"], "need A_IP,B_IP,DELAY_AB_S,DELAY_BA_S"),
    (["--queue-log", "/tmp/x.csv"], "need PATH,INTERVAL_S"),
    (["--queue-log", "/tmp/x.csv,0"], "INTERVAL_S must be in"),
    (["--queue"], "bad flag '--queue': unknown"),
    (["--frame-overhead", "-2"], "BYTES must be a whole number"),
    (["--pair"], "bad --pair '': needs a value"),
])
def test_bad_flags_exit_2_naming_flag_and_value(flags, named):
    proc = subprocess.run([str(build.linkemu()), *POSITIONAL, *flags], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert named in proc.stderr
    assert flags[0] in proc.stderr and flags[-1] in proc.stderr  # the flag and its value


def test_more_than_64_pairs_is_refused():
    pairs = [x for i in range(65) for x in ("--pair", f"10.0.{i}.1,10.0.{i}.2,0.001,0.001")]
    proc = subprocess.run([str(build.linkemu()), *POSITIONAL, *pairs], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "at most 64 pairs" in proc.stderr and "10.0.64.1" in proc.stderr


# --- queue_disc.py ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [("min_th", -1.0), ("max_th", 5.0), ("weight", 0.0), ("weight", 1.5),
                                          ("max_p", 0.0), ("gentle", 1), ("mean_pkt_bytes", 0),
                                          ("mean_pkt_bytes", 1500.0), ("min_th", float("nan"))])
def test_red_validation_names_the_field(field, value):
    args = {"min_th": 5.0, "max_th": 90.0, "weight": W, "max_p": 0.05, "gentle": False, "mean_pkt_bytes": 1500}
    with pytest.raises(ParameterError, match=field if field != "max_th" else "max_th must be above"):
        Red(**{**args, field: value})


def test_red_from_table1_reads_web_testbed_names():
    # Table 1's RED-B: min_th 30, max_th 180, weight 1/512, max 1/10; MSS 1460 + 40 header bytes = 1500
    table = pd.read_csv(os.path.join(os.path.dirname(__file__), "..", "data", "001", "table1.csv"))
    row = table[table["label"].str.startswith("RED-B")].iloc[0]
    red = queue_disc.red_from_testbed_params({"red_min_th": float(row["min_th"]), "red_max_th": float(row["max_th"]),
                                              "red_weight": float(Fraction(row["weight"])),
                                              "red_max_p": float(Fraction(row["max"])), "mss_bytes": 1460})
    assert red == Red(30.0, 180.0, 1 / 512, 0.1, False, 1500)
    # 1/512 = 0.001953125 exactly; repr round-trips every double, so linkemu parses ns-3's very numbers
    assert red.linkemu_flag("ba") == ["--red-ba", "30.0,180.0,0.001953125,0.1,0,1500"]
    with pytest.raises(ParameterError, match="direction"):
        red.linkemu_flag("up")
    with pytest.raises(ParameterError, match="mss_bytes"):
        queue_disc.red_from_testbed_params({"mss_bytes": 0})


def test_pair_and_log_flags():
    assert queue_disc.pair_flags([("10.0.0.1", "10.0.0.2", 0.024, 0.0)]) == ["--pair", "10.0.0.1,10.0.0.2,0.024,0.0"]
    assert queue_disc.queue_log_flag("/tmp/q.csv", 0.1) == ["--queue-log", "/tmp/q.csv,0.1"]
    assert queue_disc.frame_overhead_flag(2) == ["--frame-overhead", "2"]
    with pytest.raises(ParameterError, match="n_bytes"):
        queue_disc.frame_overhead_flag(2.0)
    with pytest.raises(ParameterError, match=r"pairs\[0\] b_ip"):
        queue_disc.pair_flags([("10.0.0.1", "nowhere", 0.0, 0.0)])
    with pytest.raises(ParameterError, match=r"pairs\[1\] delay_ba_s"):
        queue_disc.pair_flags([("10.0.0.1", "10.0.0.2", 0.0, 0.0), ("10.0.0.3", "10.0.0.4", 0.0, -1.0)])
    with pytest.raises(ParameterError, match="given twice"):
        queue_disc.pair_flags([("10.0.0.1", "10.0.0.2", 0.0, 0.0)] * 2)
    with pytest.raises(ParameterError, match="at most 64"):
        queue_disc.pair_flags([(f"10.0.{i}.1", f"10.0.{i}.2", 0.0, 0.0) for i in range(65)])
    with pytest.raises(ParameterError, match="interval_s"):
        queue_disc.queue_log_flag("/tmp/q.csv", 0)


def test_read_queue_log_names_file_row_and_column(tmp_path):
    good = tmp_path / "q.csv"
    good.write_text("t_s,direction,backlog_packets,red_avg_packets\n0.000000,ab,0,\n0.000000,ba,3,2.5\n")
    frame = queue_disc.read_queue_log(good)
    assert frame["backlog_packets"].tolist() == [0, 3]
    assert math.isnan(frame["red_avg_packets"][0]) and frame["red_avg_packets"][1] == 2.5
    head = "t_s,direction,backlog_packets,red_avg_packets\n"
    for text, where in [(head + "0.1,ab,x,\n", "row 2, column backlog_packets"),
                        (head + "0.1,ab,1,\n0.2,up,1,\n", "row 3, column direction"),
                        (head + "-1,ab,1,\n", "row 2, column t_s"),
                        ("t_s,dir,backlog_packets,red_avg_packets\n", "columns must be")]:
        bad = tmp_path / "bad.csv"
        bad.write_text(text)
        with pytest.raises(ParameterError, match=f"bad.csv.*{where}"):
            queue_disc.read_queue_log(bad)
    with pytest.raises(ParameterError, match="no such queue log"):
        queue_disc.read_queue_log(tmp_path / "missing.csv")


# --- a real run: two address pairs on different delays, the queue log, RED's counters ------------------------------

BASE_S = 0.005
SLOW_AB_S, SLOW_BA_S = 0.030, 0.020  # the slow pair's extra one-way delays
CLIENT2, SERVER2 = "10.77.0.11", "10.77.0.12"  # the fast pair: second addresses in the run's own namespaces
PORT = 47000
QUEUE = 20


def _echo(sock, stop):
    sock.settimeout(0.1)
    while not stop.is_set():
        try:
            data, peer = sock.recvfrom(2048)
        except TimeoutError:
            continue
        sock.sendto(data, peer)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_pairs_get_their_delays_in_order_with_a_queue_log(tmp_path, monkeypatch):
    log = tmp_path / "queue.csv"
    extra = [*queue_disc.pair_flags([(netns.CLIENT_IP, netns.SERVER_IP, SLOW_AB_S, SLOW_BA_S),
                                     (CLIENT2, SERVER2, 0.0, 0.0)]),
             *queue_disc.queue_log_flag(log, 0.05), *RED_A.linkemu_flag("ba")]
    args = Link.emulator_args
    monkeypatch.setattr(Link, "emulator_args", lambda self, seed: [*args(self, seed), *extra])
    stop = threading.Event()
    with Testbed(Link(rate_bps=10e6, delay_s=BASE_S, queue_packets=QUEUE), seed=3) as tb:
        for ns, ip, peer in ((tb.client_ns, CLIENT2, SERVER2), (tb.server_ns, SERVER2, CLIENT2)):
            subprocess.run(["ip", "-n", ns, "addr", "add", ip, "peer", peer, "dev", netns.DEVICE], check=True)
        server = netns.socket_in(tb.server_ns, socket.AF_INET, socket.SOCK_DGRAM)
        server.bind(("0.0.0.0", PORT))
        echo = threading.Thread(target=_echo, args=(server, stop), daemon=True)
        echo.start()
        clients = {}
        for name, src in (("slow", netns.CLIENT_IP), ("fast", CLIENT2)):
            s = netns.socket_in(tb.client_ns, socket.AF_INET, socket.SOCK_DGRAM)
            s.bind((src, 0))
            s.settimeout(2.0)
            clients[name] = s
        rtts = {"slow": [], "fast": []}
        try:
            for i in range(5):
                t0 = {}
                for name, dst in (("slow", netns.SERVER_IP), ("fast", SERVER2)):  # slow first, back to back
                    t0[name] = time.monotonic()
                    clients[name].sendto(f"{name}{i}".encode(), (dst, PORT))
                for name in ("fast", "slow"):  # the fast reply first: it is due first
                    clients[name].recvfrom(2048)
                    rtts[name].append(time.monotonic() - t0[name])
                time.sleep(0.02)
            # a burst into the RED queue (ba): one 60000-byte datagram leaves the server as 41 IP fragments
            # (60008 bytes of UDP in 1480-byte pieces) within one system call, far faster than 10 Mbit/s drains them
            server.sendto(bytes(60000), (netns.CLIENT_IP, clients["slow"].getsockname()[1]))
            time.sleep(0.3)  # 41 x 1.2 ms drain
        finally:
            stop.set()
            echo.join(2)
            server.close()
            for s in clients.values():
                s.close()
    # round trips: the fast pair 2 x 5 ms = 10 ms; the slow pair 10 ms + 30 ms + 20 ms = 60 ms (serialisation of
    # a 5-byte datagram, 33 bytes of IP, at 10 Mbit/s: 26 us each way). A packet is never written early, so each
    # minimum is at least its sum. The fast probe leaves right after the slow one on the same link: in one FIFO
    # it would wait for the slow one's 5 + 30 ms before its own 5 ms back, a round trip of at least 40 ms; with a
    # FIFO per delay it overtakes (10 ms; the bound 35 ms leaves 25 ms for a loaded machine).
    assert min(rtts["fast"]) >= 2 * BASE_S
    assert min(rtts["slow"]) >= 2 * BASE_S + SLOW_AB_S + SLOW_BA_S
    assert min(rtts["fast"]) < 2 * BASE_S + SLOW_AB_S
    stats = tb.link_stats
    assert stats["ab"]["out"] == stats["ab"]["lateness"]["n"] and stats["ab"]["out"] >= 10
    # RED runs on ba only: its counters saw every packet that reached the queue (no loss configured), and every
    # queue drop is RED's early or forced one. The burst's 41 fragments meet a disc of 20 behind the device's 2:
    # at least 41 - 22 - 5 = 14 are dropped even if 5 drain while they arrive; RED's average stays below
    # min_th 5 (w = 1/128 x at most 20 packets per arrival), so the drops are the limit's: forced.
    assert "red" not in stats["ab"] and "max_disc_backlog" not in stats["ab"]
    red = stats["ba"]["red"]
    assert red["arrivals"] == stats["ba"]["in"]
    assert red["early_drops"] + red["forced_drops"] == stats["ba"]["queue_drops"]
    assert red["forced_drops"] >= 14 and red["early_drops"] == 0
    assert stats["ba"]["max_disc_backlog"] == QUEUE
    frame = queue_disc.read_queue_log(log)
    n = len(frame) // 2
    assert n >= 5 and frame["direction"].tolist() == ["ab", "ba"] * n
    assert np.allclose(frame["t_s"][::2].to_numpy(), 0.05 * np.arange(n), atol=1e-6)
    assert frame["red_avg_packets"][::2].isna().all() and frame["red_avg_packets"][1::2].notna().all()
    assert frame["backlog_packets"].max() <= QUEUE
    assert (frame["red_avg_packets"][1::2] < RED_A.min_th).all()
    assert json.dumps(stats)  # the final line stays plain JSON for fidelity.make_record
