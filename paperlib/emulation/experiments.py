"""The SCTP-vs-TCP experiments of papers 004, 002 and 000 on real stacks through the emulated link.

One sweep point is one run on a fresh testbed (:class:`paperlib.emulation.netns.Testbed`): the server
starts in the server namespace, the client(s) in the client namespace, and the result is the
applications' own timestamps per object, the emulator's counters and the stack settings. Runs go
through :func:`paperlib.sweep.run_sweep` (cached by parameters and code version, seeded per point)
with several emulated links in parallel (real-time runs mostly wait).

Applications: the C program of :mod:`paperlib.emulation.apps` (TCP and usrsctp) when it exists,
otherwise the Python stand-in :mod:`paperlib.emulation.standin_app` (TCP only).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from paperlib import sweep
from paperlib.emulation import build, fidelity, later_tries, netns, standin_app, tcp_settings
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

try:  # the C application (TCP and SCTP), built by the package
    from paperlib.emulation import apps as _c_apps
except ImportError:  # not merged yet: the Python stand-in (TCP only)
    _c_apps = None

SWEEP_DEPENDS = (netns, fidelity, tcp_settings, standin_app, build) + ((_c_apps,) if _c_apps is not None else ())
CACHE_DIR = Path(__file__).resolve().parent.parent.parent / ".cache" / "sweeps"
PORT = 8080
PROFILES = ("reduced", "full", "off")
#: emulated links run at once (each mostly waits on real time); override with WEBPERF_EMU_LINKS
PARALLEL_LINKS = int(os.environ.get("WEBPERF_EMU_LINKS", "4"))


def protocols() -> tuple[str, ...]:
    """Return the protocols the available application speaks."""
    return ("tcp", "sctp") if _c_apps is not None else standin_app.PROTOCOLS


def application() -> str:
    """Return which application runs the experiments (for the provenance)."""
    return "paperlib/emulation/c/webperf_app.c" if _c_apps is not None else "paperlib/emulation/standin_app.py (TCP)"


def _wait_line(stream, timeout_s: float) -> str:
    box: list[str] = []
    t = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    t.start()
    t.join(timeout_s)
    return box[0] if box else ""


def time_bound_s(params: dict) -> float:
    """Return the wall-time bound of one run: 6 x the loss-free transfer time plus 40 round trips plus 60 s."""
    ideal = params["object_bytes"] * params["objects"] * params["users"] * 8 / params["rate_bps"]
    return 6 * ideal + 40 * params["rtt_s"] + 60


def settings_of(params: dict) -> TcpSettings:
    """Return the TCP settings of a run's parameters (its MSS and initial window)."""
    return TcpSettings(mss_bytes=params["mss_bytes"], initcwnd=params["initcwnd"])


def _c_app_runs(tb: Testbed, params: dict, seed: int, bound_s: float) -> list[dict]:
    """Run the C application: one client invocation (or one per object for 'per_object'); return object records."""
    proto = params["protocol"]
    app = _c_apps.build_app()
    settings = _c_apps.paper_settings(params["paper"], proto)
    srv = tb.popen("server", _c_apps.server_argv(proto, PORT, app=app, bind=netns.SERVER_IP, timeout=bound_s,
                                                 settings=settings),
                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if not _wait_line(srv.stdout, 10).strip():
        raise RuntimeError(f"the {proto} server did not start")
    per_object = params["mode"] == "per_object"
    calls = params["objects"] if per_object else 1
    sizes = [params["object_bytes"]] * (1 if per_object else params["objects"])
    records = []
    for call in range(calls):
        argv = _c_apps.client_argv(proto, netns.SERVER_IP, PORT, sizes, users=params["users"],
                                   streams=proto == "sctp" and params["mode"] == "pipelined",
                                   seed=(seed + call) % (2**31 - 1), timeout=bound_s, app=app,
                                   pipeline=params["mode"] == "pipelined", settings=settings)
        client = tb.popen("client", argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, _ = netns.finish(client, bound_s + 10, f"the {proto} client")
        objects = _c_apps.parse_client_output(out)
        users = objects.attrs["users"].set_index("user")
        t0 = float(users["t_start"].min())
        for r in objects.itertuples():
            records.append({"user": int(r.user), "object": int(r.object) + call, "t0": t0,
                            "t_start": float(users.loc[r.user, "t_start"]), "t_done": float(r.t_done)})
    records.append({"settings": settings.provenance()})
    return records


def start_capture(tb: Testbed, pcap: Path, side: str = "client", snap_bytes: int = 128) -> subprocess.Popen:
    """Start tcpdump on ``side``'s TUN device ("client" or "server"); return once it listens.

    It keeps the first ``snap_bytes`` of each packet (128: the IPv4 and TCP or UDP headers and the first
    bytes of payload; :data:`paperlib.emulation.capture.SNAP_BYTES` names what each reading needs). Both devices
    are in one host's namespaces, so the two captures of a run share one clock: each packet carries the kernel's
    time of its passage, whenever tcpdump writes it.

    tcpdump runs without ``--immediate-mode``: the kernel hands it the packets in blocks (at the latest one second
    after they passed), not one wake-up per packet. Per packet, the two captures took a CPU from the run's
    applications often enough to break the fidelity rule (``docs/fidelity.md``, "The capture's own CPU"); in blocks
    they cost about a quarter of the CPU. :func:`stop_captures` waits until each has written what the kernel handed
    it, so no packet is lost to the batching.
    """
    import select

    if side not in ("client", "server"):
        raise ParameterError(f"side must be 'client' or 'server', got {side!r}")
    if isinstance(snap_bytes, bool) or not isinstance(snap_bytes, int) or not 64 <= snap_bytes <= 65535:
        raise ParameterError(f"snap_bytes must be a whole number in [64, 65535], got {snap_bytes!r}")
    dump = tb.popen(side, ["tcpdump", "-i", netns.DEVICE, "-n", "-s", str(snap_bytes), "-U", "-w", str(pcap)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([dump.stderr], [], [], 10)
    if not ready or "listening" not in dump.stderr.readline():
        raise RuntimeError(f"tcpdump did not start on the {side}'s device")
    return dump


def stop_capture(dump: subprocess.Popen) -> CaptureCounts | None:
    """Stop a capture of :func:`start_capture` as :func:`stop_captures` does; return its counts."""
    return stop_captures([dump])[0]


@dataclass(frozen=True)
class CaptureCounts:
    """What tcpdump counted of one capture when the run's packets were in (its "info" line, SIGUSR1).

    ``received``: packets the kernel handed to the capture (``packets received by filter``); ``captured``: those
    tcpdump had written; ``dropped``: those the kernel dropped because the capture's buffer was full.
    ``complete``: every packet handed to it before the first count had been written, and none dropped.
    """

    captured: int
    received: int
    dropped: int
    complete: bool

    def describe(self) -> str:
        """Return the counts as a clause: "wrote 40 of the 42 packets it was handed, 0 dropped by the kernel"."""
        return (f"wrote {self.captured} of the {self.received} packets it was handed, {self.dropped} dropped by "
                "the kernel")


_COUNTS = re.compile(r"(\d+) packets? captured\W+(\d+) packets? received by filter\W+(\d+) packets? dropped by kernel")
#: how long :func:`stop_captures` waits for a capture to write what the kernel handed it (tcpdump gets the packets in
#: blocks, a block at the latest one second after its first packet: :func:`start_capture`)
DRAIN_S = 3.0


def _read_available(stream, timeout_s: float) -> str:
    """Return what ``stream`` (a pipe) holds now or within ``timeout_s`` ("" at end of file or time-out)."""
    import select

    ready, _, _ = select.select([stream], [], [], timeout_s)
    return os.read(stream.fileno(), 65536).decode(errors="replace") if ready else ""


def _counts(dump: subprocess.Popen, deadline: float) -> tuple[int, int, int] | None:
    """Ask a running tcpdump for its counts (SIGUSR1: it prints them and goes on); return (captured, received,
    dropped), or None if it gave none before ``deadline`` (time.monotonic())."""
    with contextlib.suppress(ProcessLookupError):
        dump.send_signal(signal.SIGUSR1)
    text = ""
    while time.monotonic() < deadline:
        chunk = _read_available(dump.stderr, max(0.0, min(0.2, deadline - time.monotonic())))
        text += chunk
        found = _COUNTS.findall(text)
        if found:
            return tuple(int(x) for x in found[-1])
        if chunk == "" and dump.poll() is not None:
            return None
    return None


def stop_captures(dumps) -> list[CaptureCounts | None]:
    """Stop captures of :func:`start_capture` together, once each has written what it was handed; return each
    one's :class:`CaptureCounts` (None for a process that gives none, such as a stand-in without a stderr pipe).

    0.2 s for the last packets to reach the devices; then each tcpdump is asked for its counts until it has written
    every packet the kernel had handed it at the first ask (at most :data:`DRAIN_S`): a capture that lags behind the
    run (a busy machine) is not cut short by the stop, and one that cannot catch up says so (``complete`` False)
    instead of leaving a packet in one device's capture alone. Then each is terminated and waited for, so the
    captures of a run's two sides end within moments of each other.
    """
    dumps = list(dumps)
    time.sleep(0.2)
    counts = []
    for dump in dumps:
        if dump.stderr is None:
            counts.append(None)
            continue
        deadline = time.monotonic() + DRAIN_S
        first = _counts(dump, deadline)
        now = first
        while now is not None and now[0] < first[1] and now[2] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            now = _counts(dump, deadline) or now
        counts.append(None if now is None else
                      CaptureCounts(captured=now[0], received=now[1], dropped=now[2],
                                    complete=now[0] >= first[1] and now[2] == 0))
    for dump in dumps:
        dump.terminate()
    for dump in dumps:
        dump.wait(timeout=10)
    return counts


def incomplete_captures(counts: dict[str, CaptureCounts | None]) -> str | None:
    """Return why the wire cannot be read from a run's captures (``counts`` by side, from :func:`stop_captures`), or
    None if every capture wrote what it was handed."""
    missed = [f"the {side}'s capture {c.describe()}" for side, c in counts.items() if c is not None and not c.complete]
    return ("; ".join(missed) + " (a capture that cannot keep up with the run: its packets cannot be matched)"
            if missed else None)


def _standin_runs(tb: Testbed, params: dict, bound_s: float) -> list[dict]:
    proto = params["protocol"]
    srv = tb.popen("server", standin_app.server_argv(proto, netns.SERVER_IP, PORT), stdout=subprocess.PIPE,
                   stderr=subprocess.DEVNULL, text=True)
    if not _wait_line(srv.stdout, 10).strip():
        raise RuntimeError("the stand-in server did not start")
    argv = standin_app.client_argv(proto, netns.SERVER_IP, PORT, params["object_bytes"], params["objects"],
                                   params["users"], params["mode"])
    client = tb.popen("client", argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, _ = netns.finish(client, bound_s, "the client")
    return standin_app.parse_client_output(out) + [{"settings": {"application": "stand-in"}}]


#: How many times a run that breaks the fidelity rule is made again before its cell takes what it has.
FIDELITY_TRIES = 3


def handshakes_of(params: dict) -> int:
    """Return the connection handshakes one run of ``params`` makes: a connection (association) per user, and per
    object too in 'per_object' mode (the fidelity rule's applications' wait is judged per handshake)."""
    per_user = int(params["objects"]) if params["mode"] == "per_object" else 1
    return int(params["users"]) * per_user


def run_point(params: dict, seed: int) -> dict:
    """Run one experiment on a fresh testbed (:func:`run_point_captured`, without the capture), again up to
    :data:`FIDELITY_TRIES` times while its fidelity record breaks the rule
    (:func:`paperlib.emulation.fidelity.run_kept`: the result carries ``fidelity``, ``fidelity_kept``,
    ``fidelity_tries`` and ``fidelity_broken``)."""
    return fidelity.run_kept(lambda p, s: run_point_captured(p, s, None), params, seed, rtt_s=float(params["rtt_s"]),
                             handshakes=handshakes_of(params), tries=FIDELITY_TRIES)


def run_point_captured(params: dict, seed: int, pcap: Path | None) -> dict:
    """Run one experiment on a fresh testbed; return per-object times and the run's provenance.

    ``params``: paper, protocol, rate_bps, rtt_s (the link's round-trip propagation: delay rtt_s/2 each
    way), loss (per packet, server -> client), queue_packets, mss_bytes, initcwnd (kernel TCP),
    object_bytes, objects, users, mode ('pipelined': one connection/association per user, requests
    pipelined, SCTP one object per stream; 'per_object': a new connection per object), rep.
    Times: the application's CLOCK_MONOTONIC; ``t_start`` before its user's connect, ``t_done`` at the
    object's last byte, ``t0`` the common start of the users.
    """
    tcp = settings_of(params)
    # MTU 1500: kernel TCP's segments are pinned by advmss and TCP_MAXSEG; usrsctp's packets (data + 56 B of
    # SCTP/UDP/IP headers) must pass unfragmented
    link = Link(rate_bps=float(params["rate_bps"]), delay_s=float(params["rtt_s"]) / 2, loss_down=float(params["loss"]),
                queue_packets=int(params["queue_packets"]), mtu_bytes=1500)
    bound = time_bound_s(params)
    started = time.monotonic()
    with Testbed(link, seed=seed, tcp=tcp) as tb:
        dump = start_capture(tb, pcap) if pcap is not None else None
        if _c_apps is not None:
            records = _c_app_runs(tb, params, seed, bound)
        else:
            records = _standin_runs(tb, params, bound)
        if dump is not None:
            stop_capture(dump)
        provenance = tb.provenance()
    app_settings = records.pop()["settings"]
    expected = params["objects"] * params["users"]
    if len(records) != expected:
        raise RuntimeError(f"the client reported {len(records)} objects, expected {expected}")
    records.sort(key=lambda r: (r["user"], r["object"]))
    return {
        "user": [int(r["user"]) for r in records],
        "object": [int(r["object"]) for r in records],
        "t_start": [float(r["t_start"]) for r in records],
        "t_done": [float(r["t_done"]) for r in records],
        "t0": float(min(r["t0"] for r in records)),
        "link_stats": tb.link_stats,
        "fidelity": tb.fidelity.to_dict(),
        "provenance": {**provenance, "application_settings": app_settings},
        "application": application(),
        "wall_s": time.monotonic() - started,
    }


def operating_point_key(pt) -> tuple:
    """Return an operating point's (rate, RTT, loss) rounded so that points printed in two tables are one run."""
    return (round(pt.rate_bps), round(pt.rtt_s, 6), round(pt.p, 6))


def code_version(depends: tuple = (), sources: tuple = ()) -> str:
    """Return the version the cache is keyed by: paperlib's, and a hash of this module, the modules it depends
    on, the papers' ``stack`` parts and the C sources it compiles (the link emulator and the application), and of
    ``depends`` (more modules) and ``sources`` (more files) when a sweep runs another point function (:func:`run`'s
    ``point_fn``)."""
    import hashlib
    import inspect

    import paperlib
    from paperlib import registry

    files = [Path(__file__)] + [Path(inspect.getsourcefile(m)) for m in SWEEP_DEPENDS]
    # the papers' own stack settings (paper_settings, tcp_settings.for_paper read them there)
    files += [Path(inspect.getsourcefile(registry.part(p, "stack"))) for p in registry.papers_with("stack")]
    files += [Path(build.HERE) / "linkemu.c"]
    if _c_apps is not None:
        files.append(Path(_c_apps.APP_SOURCE))
    files += [Path(inspect.getsourcefile(m)) for m in depends if Path(inspect.getsourcefile(m)) not in files]
    files += [Path(f) for f in sources]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return f"{paperlib.__version__}+{digest.hexdigest()[:16]}"


def run(points: list[dict], cache_dir: Path = CACHE_DIR, n_links: int | None = None, progress: bool = True,
        desc: str | None = None, point_fn=None, depends: tuple = (), sources: tuple = ()) -> pd.DataFrame:
    """Return one row per point (parameters, seed, results) by the sweep runner, ``n_links`` testbeds at a time; a
    point that lost its timing in all its tries runs again after the others
    (:func:`paperlib.emulation.later_tries.run_sweep_kept`).

    ``point_fn`` (default :func:`run_point`) runs one point; another testbed's (e.g.
    :func:`paperlib.emulation.web_testbed_real.run_point`) names its modules and C sources in ``depends`` and
    ``sources``, which the cache's code version hashes too.
    """
    n = n_links or PARALLEL_LINKS
    scheduler = sweep.SYNCHRONOUS if n == 1 else None
    return later_tries.run_sweep_kept(point_fn or run_point, points, cache_dir=cache_dir,
                                      code_version=code_version(depends, sources), scheduler=scheduler,
                                      n_workers=None if n == 1 else n, progress=progress, desc=desc)


# --- statistics -----------------------------------------------------------------------------------

def mean_ci(values) -> tuple[float, float, int]:
    """Return the mean, the half-width of its Student-t 95% interval and the number of values."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return float("nan"), float("nan"), 0
    if x.size == 1:
        return float(x[0]), float("inf"), 1
    half = float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return float(x.mean()), half, int(x.size)


def diff_ci(a, b) -> tuple[float, float, int]:
    """Return mean(a) - mean(b) and the half-width of its Welch 95% interval."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.size < 2 or b.size < 2:
        return float(a.mean() - b.mean()), float("inf"), int(min(a.size, b.size))
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = np.sqrt(va + vb)
    if se == 0:
        return float(a.mean() - b.mean()), 0.0, int(min(a.size, b.size))
    dof = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    return float(a.mean() - b.mean()), float(stats.t.ppf(0.975, dof) * se), int(min(a.size, b.size))


def check_profile(profile: str) -> str:
    """Return ``profile`` if it is one of :data:`PROFILES`, else raise ParameterError."""
    if profile not in PROFILES:
        raise ParameterError(f"emulation must be one of {PROFILES}, got {profile!r}")
    return profile


def stack_text(params: dict) -> str:
    """Return the stack settings of a run in a few words (for ledger reasons)."""
    link = (f"link {params['rate_bps']:g} bit/s, RTT {params['rtt_s']:g} s, loss {params['loss']:g} (data direction), "
            f"drop-tail {params['queue_packets']} packets; application {application()}")
    if params["protocol"] == "sctp" and _c_apps is not None:
        a = _c_apps.paper_settings(params["paper"], "sctp")
        return (f"usrsctp over UDP, one association per user, initial cwnd {a.init_cwnd_mtus} MTUs, data per packet "
                f"{a.mss_bytes or 'from MTU 1500'} B, RTO and SACK at usrsctp's RFC 4960 defaults "
                f"(initial 3 s, min 1 s; SACK every 2nd packet or 200 ms)"
                f"{', one object per stream' if params['mode'] == 'pipelined' else ''}; "
                + link)
    s = settings_of(params)
    return (f"Linux TCP {s.congestion_control}, initcwnd {s.initcwnd}, MSS {s.mss_bytes} B, SACK off, timestamps off, "
            f"rto_min {s.rto_min_ms} ms, quickack, no slow start after idle; " + link)
