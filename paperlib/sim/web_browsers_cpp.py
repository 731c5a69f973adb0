"""The C++ side of paper 001's testbed: browsers, web responders and the bottleneck probes.

Everything that happens per packet or per connection runs in C++ (defined once per process
with ``cppyy.cppdef``): a Python callback on the simulator costs about 50 times a C++ one, and
callbacks created from Python were seen to misfire on a second run in one process (see
``web_bottleneck``). Python builds the topology, hands the sampled workload over as flat
arrays (:func:`load`), runs the simulator and reads the results back.

The application is HTTP/1.0 as Christiansen et al.'s browser program spoke it: one TCP
connection per request. A browser asks for a page's primary object, then for its embedded
objects over up to ``parallel`` concurrent connections, waits its think time after the last
object arrives, and asks for its next page. The responder reads the whole request, sends the
reply and closes. The response time of a request is measured at the browser, from the
connection attempt (SYN) to the last byte of the reply. The responder learns the sizes of a
request and its reply from a table the browser fills before it connects, keyed by its
address and port (the packets themselves carry no content).
"""

from __future__ import annotations

from paperlib.sim import ns3_env

CPP = r"""
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>
#include "ns3/simulator.h"
#include "ns3/nstime.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/inet-socket-address.h"
#include "ns3/queue-disc.h"
#include "ns3/red-queue-disc.h"
#include "ns3/callback.h"
namespace webperf_web {
using namespace ns3;
struct Obj { uint32_t req; uint32_t reply; };
struct Page { uint32_t first; uint32_t n; double think; };
struct Browser {
  int node; uint32_t first_page; uint32_t n_pages; uint32_t page; uint32_t next_obj; uint32_t done_obj;
};
struct CConn { int browser; uint32_t req; uint32_t reply; uint32_t got; double t0; bool primary; };
struct SConn { uint32_t need; uint32_t got; uint32_t left; bool sending; };

std::vector<Obj> objs; std::vector<Page> pages; std::vector<Browser> browsers;
std::vector<Ptr<Node>> cnodes; std::vector<uint32_t> cip; std::vector<Address> servers;
std::map<uint64_t, std::pair<uint32_t, uint32_t>> pending;
std::map<Socket*, CConn> cconns; std::map<Socket*, SConn> sconns;
std::vector<Ptr<Socket>> listeners;
uint32_t parallel = 4; uint32_t chunk = 1460;
std::vector<double> r_t0, r_t1; std::vector<uint32_t> r_bytes; std::vector<int32_t> r_browser;
std::vector<uint8_t> r_primary;
uint64_t failed = 0; uint64_t rx_bytes = 0; uint64_t rx_at_warmup = 0;
Ptr<QueueDisc> queue; double interval = 0.1; std::vector<uint32_t> q_samples; uint32_t q_max = 0;
std::vector<uint64_t> rx_samples;  // reply bytes received so far, at every queue sample

inline uint64_t Key(uint32_t ip, uint16_t port) { return (uint64_t(ip) << 16) | port; }
void ObjectDone(int b);
void StartPage(int b);

void ClientRecv(Ptr<Socket> s) {
  uint32_t n = 0; Ptr<Packet> p;
  while ((p = s->Recv())) { n += p->GetSize(); }
  rx_bytes += n;
  auto it = cconns.find(PeekPointer(s));
  if (it == cconns.end()) return;
  it->second.got += n;
  if (it->second.got < it->second.reply) return;
  CConn c = it->second; cconns.erase(it);
  r_t0.push_back(c.t0); r_t1.push_back(Simulator::Now().GetSeconds()); r_bytes.push_back(c.reply);
  r_browser.push_back(c.browser); r_primary.push_back(c.primary ? 1 : 0);
  s->Close();
  ObjectDone(c.browser);
}
void ClientFailed(Ptr<Socket> s) {
  auto it = cconns.find(PeekPointer(s));
  if (it == cconns.end()) return;
  int b = it->second.browser; cconns.erase(it); failed++;
  ObjectDone(b);
}
void ClientConnected(Ptr<Socket> s) {
  auto it = cconns.find(PeekPointer(s));
  if (it == cconns.end()) return;
  s->Send(Create<Packet>(it->second.req));
}
void OpenConn(int b, uint32_t obj, bool primary) {
  Browser& br = browsers[b];
  Ptr<Socket> s = Socket::CreateSocket(cnodes[br.node], TcpSocketFactory::GetTypeId());
  s->Bind();
  Address a; s->GetSockName(a);
  uint16_t port = InetSocketAddress::ConvertFrom(a).GetPort();
  pending[Key(cip[br.node], port)] = std::make_pair(objs[obj].req, objs[obj].reply);
  cconns[PeekPointer(s)] = CConn{b, objs[obj].req, objs[obj].reply, 0, Simulator::Now().GetSeconds(), primary};
  s->SetConnectCallback(MakeCallback(&ClientConnected), MakeCallback(&ClientFailed));
  s->SetRecvCallback(MakeCallback(&ClientRecv));
  s->SetCloseCallbacks(MakeCallback(&ClientFailed), MakeCallback(&ClientFailed));
  s->Connect(servers[br.node]);
}
void StartPage(int b) {
  Browser& br = browsers[b];
  if (br.page >= br.n_pages) return;
  const Page& pg = pages[br.first_page + br.page];
  br.next_obj = 1; br.done_obj = 0;
  OpenConn(b, pg.first, true);
}
void ObjectDone(int b) {
  Browser& br = browsers[b];
  const Page& pg = pages[br.first_page + br.page];
  br.done_obj++;
  if (br.done_obj == pg.n) {
    br.page++;
    Simulator::Schedule(Seconds(pg.think), &StartPage, b);
    return;
  }
  uint32_t open = br.next_obj - br.done_obj;  // connections of this page still open
  while (br.next_obj < pg.n && open < parallel) { OpenConn(b, pg.first + br.next_obj, false); br.next_obj++; open++; }
}

void ServerSend(Ptr<Socket> s, uint32_t) {
  auto it = sconns.find(PeekPointer(s));
  if (it == sconns.end() || !it->second.sending) return;
  SConn& c = it->second;
  while (c.left > 0) {
    uint32_t avail = s->GetTxAvailable();
    if (avail == 0) break;
    int sent = s->Send(Create<Packet>(std::min(std::min(c.left, avail), chunk)));
    if (sent <= 0) break;
    c.left -= uint32_t(sent);
  }
  if (c.left == 0) { sconns.erase(it); s->Close(); }
}
void ServerRecv(Ptr<Socket> s) {
  uint32_t n = 0; Ptr<Packet> p;
  while ((p = s->Recv())) { n += p->GetSize(); }
  auto it = sconns.find(PeekPointer(s));
  if (it == sconns.end()) return;
  it->second.got += n;
  if (!it->second.sending && it->second.got >= it->second.need) { it->second.sending = true; ServerSend(s, 0); }
}
bool ServerAcceptRequest(Ptr<Socket>, const Address&) { return true; }
void ServerAccepted(Ptr<Socket> s, const Address& from) {
  InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
  auto it = pending.find(Key(a.GetIpv4().Get(), a.GetPort()));
  if (it == pending.end()) { s->Close(); return; }
  sconns[PeekPointer(s)] = SConn{it->second.first, 0, it->second.second, false};
  pending.erase(it);
  s->SetRecvCallback(MakeCallback(&ServerRecv));
  s->SetSendCallback(MakeCallback(&ServerSend));
  ServerRecv(s);  // a request that arrived with the handshake's last ACK is already buffered
}
void Listen(Ptr<Node> node, uint16_t port) {
  Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
  s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
  s->Listen();
  s->SetAcceptCallback(MakeCallback(&ServerAcceptRequest), MakeCallback(&ServerAccepted));
  listeners.push_back(s);
}
void AddClientNode(Ptr<Node> node, uint32_t ip, Address server) {
  cnodes.push_back(node); cip.push_back(ip); servers.push_back(server);
}
void LoadObjects(const uint32_t* req, const uint32_t* reply, uint64_t n) {
  objs.resize(n); for (uint64_t i = 0; i < n; ++i) objs[i] = Obj{req[i], reply[i]};
}
void LoadPages(const uint32_t* first, const uint32_t* nobj, const double* think, uint64_t n) {
  pages.resize(n); for (uint64_t i = 0; i < n; ++i) pages[i] = Page{first[i], nobj[i], think[i]};
}
void LoadBrowsers(const int32_t* node, const uint32_t* first_page, const uint32_t* n_pages, const double* start,
                  uint64_t n) {
  browsers.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    browsers[i] = Browser{node[i], first_page[i], n_pages[i], 0, 0, 0};
    if (n_pages[i] > 0) Simulator::Schedule(Seconds(start[i]), &StartPage, int(i));  // an idle browser costs nothing
  }
}

void QueueTrace(uint32_t, uint32_t v) { if (v > q_max) q_max = v; }
void Sample() {
  q_samples.push_back(queue->GetNPackets()); rx_samples.push_back(rx_bytes);
  Simulator::Schedule(Seconds(interval), &Sample);
}
const char* kReasons[4] = {"Unforced drop", "Forced drop", "Queue disc limit exceeded", ""};
uint64_t at_warmup[5] = {0, 0, 0, 0, 0};  // the counters of Counter(i) when the warm-up ends
uint64_t Counter(int i) {  // 0-2: drops by reason, 3: all drops, 4: packets that arrived
  const QueueDisc::Stats& st = queue->GetStats();
  // RED's drops at its physical limit are its internal queue's ("Dropped by internal queue"), FIFO's the disc's
  if (i == 2) return st.GetNDroppedPackets(kReasons[2]) + st.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP);
  if (i < 2) return st.GetNDroppedPackets(kReasons[i]);
  return i == 3 ? st.nTotalDroppedPackets : st.nTotalReceivedPackets;
}
void MarkWarmup() { rx_at_warmup = rx_bytes; for (int i = 0; i < 5; ++i) at_warmup[i] = Counter(i); }
uint64_t SinceWarmup(int i) { return Counter(i) - at_warmup[i]; }
void Probe(Ptr<QueueDisc> q, double sample_interval, double warmup) {
  queue = q; interval = sample_interval;
  q->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QueueTrace));
  Simulator::ScheduleNow(&Sample);
  Simulator::Schedule(Seconds(warmup), &MarkWarmup);
}
// RED draws its drop decisions from a random stream; ns-3 numbers streams per process, so a
// second run in the same process would get another stream unless it is fixed.
void FixStream(Ptr<QueueDisc> q, int64_t stream) {
  Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(q);
  if (red) red->AssignStreams(stream);
}
uint64_t Unfinished() { return cconns.size(); }
void Reset() {
  objs.clear(); pages.clear(); browsers.clear(); cnodes.clear(); cip.clear(); servers.clear();
  pending.clear(); cconns.clear(); sconns.clear(); listeners.clear();
  r_t0.clear(); r_t1.clear(); r_bytes.clear(); r_browser.clear(); r_primary.clear();
  failed = 0; rx_bytes = 0; rx_at_warmup = 0; for (int i = 0; i < 5; ++i) at_warmup[i] = 0;
  queue = nullptr; q_samples.clear(); rx_samples.clear(); q_max = 0;
}
}
"""


def load(ns):
    """Return the ``webperf_web`` C++ namespace, defining it on first use in this process."""
    return ns3_env.cpp(ns, "webperf_web", CPP)
