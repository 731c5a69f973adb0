"""Linux TCP pinned per namespace and per route to what the papers' models assume.

Modern Linux differs from the 2.6-era stacks of the papers (BBR/CUBIC, initial window 10, RACK and
tail-loss probes, SACK, timestamps, slow start after idle, delayed ACKs). :class:`TcpSettings`
holds every knob the runs set; :meth:`TcpSettings.sysctls` are written in each namespace of a run,
:meth:`TcpSettings.route_options` go on the route to the peer, and :meth:`TcpSettings.provenance`
is stored with every run's result.

What each model assumes (and so what is pinned):

* congestion control Reno (slow start doubling per round trip, halving on loss): papers 000, 002, 004;
* initial window as each paper states it (:data:`INITIAL_WINDOW`), the same as usrsctp's: 2 segments
  for papers 004 (Fig. 1, x = 2) and 000 (Sec. 2, cwnd starts at 2 x mtu), 1 for paper 002 (none stated;
  its slow-start term starts from one segment); set with ``ip route ... initcwnd``;
* segment size: 536 B for papers 000/002 (their mtu/MSS), 1460 B for paper 004 (L_mtu = 1500 B);
  set with the device MTU and ``advmss`` on the route;
* no SACK, no timestamps (the models count bare segments; timestamps would take 12 B of each);
* minimum RTO ``rto_min`` per route (Linux's 200 ms by default; the models' timeouts are stated per
  paper), initial RTO is Linux's 1 s (not settable per route);
* no slow start after idle (``tcp_slow_start_after_idle = 0``), no cached metrics between runs
  (``tcp_no_metrics_save = 1``), RACK and early retransmit/TLP off (``tcp_recovery = 0``,
  ``tcp_early_retrans = 0``), F-RTO off, no ECN;
* delayed ACKs off (``quickack 1`` on the route), so the window grows per segment as the models'
  x, 2x, 4x, ... schedule assumes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from paperlib.validate import ParameterError

CONGESTION_CONTROLS = ("reno", "cubic", "bbr")


@dataclass(frozen=True)
class TcpSettings:
    """The TCP knobs one run pins (defaults: Reno, 2 segments, 1460 B, no SACK or timestamps)."""

    congestion_control: str = "reno"
    initcwnd: int = 2
    mss_bytes: int = 1460
    sack: bool = False
    timestamps: bool = False
    rto_min_ms: int = 200
    slow_start_after_idle: bool = False
    quickack: bool = True

    def __post_init__(self):
        if self.congestion_control not in CONGESTION_CONTROLS:
            raise ParameterError(f"congestion_control must be one of {CONGESTION_CONTROLS}, "
                                 f"got {self.congestion_control!r}")
        for name, low, high in (("initcwnd", 1, 100), ("mss_bytes", 88, 8960), ("rto_min_ms", 1, 60000)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ParameterError(f"{name} must be a whole number in [{low}, {high}], got {value!r}")

    @property
    def mtu_bytes(self) -> int:
        """Return the device MTU that gives segments of ``mss_bytes`` (20 B IP + 20 B TCP headers)."""
        return self.mss_bytes + 40

    def sysctls(self) -> dict[str, str]:
        """Return the per-namespace sysctls (``net.ipv4.*``) of these settings."""
        return {
            "net.ipv4.tcp_congestion_control": self.congestion_control,
            "net.ipv4.tcp_sack": str(int(self.sack)),
            "net.ipv4.tcp_dsack": str(int(self.sack)),
            "net.ipv4.tcp_timestamps": str(int(self.timestamps)),
            "net.ipv4.tcp_slow_start_after_idle": str(int(self.slow_start_after_idle)),
            "net.ipv4.tcp_no_metrics_save": "1",
            "net.ipv4.tcp_recovery": "0",
            "net.ipv4.tcp_early_retrans": "0",
            "net.ipv4.tcp_frto": "0",
            "net.ipv4.tcp_ecn": "0",
            "net.ipv4.tcp_mtu_probing": "0",
        }

    def route_options(self) -> list[str]:
        """Return the ``ip route`` options of these settings (initial window, MSS, min RTO, quick ACKs)."""
        return ["initcwnd", str(self.initcwnd), "initrwnd", "64", "advmss", str(self.mss_bytes),
                "rto_min", f"{self.rto_min_ms}ms", "quickack", str(int(self.quickack))]

    def provenance(self) -> dict:
        """Return the settings as a flat dict (stored with every run)."""
        return {**asdict(self), "mtu_bytes": self.mtu_bytes, "initial_rto_s": 1.0,
                "sysctls": self.sysctls(), "route": " ".join(self.route_options())}


#: Initial window (segments) each paper states, the same for kernel TCP and usrsctp so that the two stacks
#: differ only in what the papers compare: paper 004 Sec. 2, Fig. 1 (x = 2 MTUs); paper 000 Sec. 2 (cwnd starts
#: at 2 x mtu); paper 002 states none, its slow-start time is Kurose-Ross's, from one segment (also
#: :func:`paperlib.emulation.apps.paper_settings`).
INITIAL_WINDOW = {"004": 2, "000": 2, "002": 1}


def for_paper(paper: str) -> TcpSettings:
    """Return the settings pinned for seed ``paper`` (segment size from its text; see the module docstring)."""
    if paper == "004":
        return TcpSettings(mss_bytes=1460, initcwnd=INITIAL_WINDOW[paper])
    if paper in ("000", "002"):
        return TcpSettings(mss_bytes=536, initcwnd=INITIAL_WINDOW[paper])
    raise ParameterError(f"paper must be '000', '002' or '004' (the SCTP vs TCP papers), got {paper!r}")
