"""Linux TCP pinned per namespace and per route to what the papers' models assume.

Modern Linux differs from the 2.6-era stacks of the papers (BBR/CUBIC, initial window 10, RACK and
tail-loss probes, SACK, timestamps, slow start after idle, delayed ACKs). :class:`TcpSettings`
holds every knob the runs set; :meth:`TcpSettings.sysctls` are written in each namespace of a run,
:meth:`TcpSettings.route_options` go on the route to the peer, and :meth:`TcpSettings.provenance`
is stored with every run's result. Each paper's own values (segment size, initial window) are its package's,
``stack.tcp_settings()`` (:func:`for_paper` finds it).

What each model assumes (and so what is pinned):

* congestion control Reno (slow start doubling per round trip, halving on loss), as every model assumes;
* initial window as each paper states it, the same as usrsctp's; set with ``ip route ... initcwnd``;
* segment size as each paper states it; set with the device MTU and ``advmss`` on the route;
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

from collections.abc import Iterator, Mapping
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


def for_paper(paper: str) -> TcpSettings:
    """Return the settings pinned for paper ``paper``: its package's ``stack.tcp_settings()``.

    Found by :func:`paperlib.registry.part`; raises :class:`~paperlib.validate.ParameterError` for a paper without
    a ``stack`` part, naming the papers that have one.
    """
    from paperlib import registry

    stack = registry.part(str(paper), "stack")
    if stack is None:
        raise ParameterError(f"paper {paper!r} declares no stack settings (no {registry.package_name(str(paper))}"
                             f".stack); the papers that declare them are {list(registry.papers_with('stack'))}")
    return stack.tcp_settings()


class _InitialWindows(Mapping):
    """Paper id -> initial window (segments) of every paper with a ``stack`` part, read from its package."""

    def __getitem__(self, paper: str) -> int:
        from paperlib import registry

        if not isinstance(paper, str) or registry.part(paper, "stack") is None:
            raise KeyError(paper)
        return for_paper(paper).initcwnd

    def __iter__(self) -> Iterator[str]:
        from paperlib import registry

        return iter(registry.papers_with("stack"))

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: Deprecated (kept for one release): each paper's initial window, ``for_paper(paper).initcwnd``.
INITIAL_WINDOW: Mapping[str, int] = _InitialWindows()
