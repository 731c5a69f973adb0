"""Two network namespaces joined by the user-space link emulator, built and torn down by one context manager.

``with Testbed(Link(rate_bps=40e3, delay_s=0.128, loss_down=0.01), seed=7) as tb:`` creates the
namespaces ``<name>c`` (client) and ``<name>s`` (server), starts ``linkemu`` (which creates one TUN
device in each and forwards packets between them), gives the devices the addresses
:data:`CLIENT_IP` / :data:`SERVER_IP`, pins TCP (:mod:`paperlib.emulation.tcp_settings`) and
yields. ``tb.popen("server", argv)`` starts a program inside a namespace; on leaving the block,
also by an exception, Ctrl-C or SIGTERM, every process the run started is killed, the emulator
stops (its TUN devices vanish with it) and both namespaces are deleted. Names are unique per run
(``wpe<pid>n<counter>``); namespaces left by a run whose process died by SIGKILL are removed by
:func:`remove_stale`, which touches only names of that form whose owner process is gone.
Nothing is created outside the two namespaces.

Several addresses per side: ``Testbed(link, seed, tcp, client_ips=(...), server_ips=(...))`` puts every
client address on the client's device and every server address on the server's (host addresses, one host
route per peer address, each with the TCP settings' route options); the defaults are one address each
(:data:`CLIENT_IP`, :data:`SERVER_IP`, joined as point-to-point peers). ``emulator_flags`` are passed to
``linkemu`` after its positional arguments (e.g. a RED queue or per-address-pair delays).

Every run measures its own timing (:mod:`paperlib.emulation.fidelity`): after the block ``tb.fidelity`` holds
its :class:`~paperlib.emulation.fidelity.FidelityRecord` (the emulator's lateness, the CPU time and run-queue
wait of the processes the testbed started and their descendants by role, the machine's CPU pressure and load),
beside ``tb.link_stats`` (the emulator's counters).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import asdict, dataclass

from paperlib.emulation import build, fidelity
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

CLIENT_IP = "10.77.0.1"
SERVER_IP = "10.77.0.2"
DEVICE = "wpe0"
PREFIX = "wpe"
_NAME = re.compile(rf"^{PREFIX}(\d+)n(\d+)[cs]$")
_counter = itertools.count()


class TestbedError(RuntimeError):
    """The testbed could not be built (missing root, TUN, namespaces) or a command inside it failed."""

    __test__ = False  # not a pytest class


class Interrupted(BaseException):
    """SIGTERM arrived while a testbed was up (raised so that the teardown runs)."""


@dataclass(frozen=True)
class Link:
    """One emulated link. Rates in bit/s, one-way delay in s (RTT = 2 delay_s plus serialisation),
    losses as probabilities per packet, the drop-tail queue in packets, MTU in bytes.

    ``down`` is server -> client (the data direction), ``up`` client -> server. ``rate_up_bps``
    defaults to ``rate_bps`` (a symmetric link).
    """

    rate_bps: float
    delay_s: float
    loss_down: float = 0.0
    loss_up: float = 0.0
    queue_packets: int = 100
    mtu_bytes: int = 1500
    rate_up_bps: float | None = None

    def __post_init__(self):
        def number(name, low, high, low_open=False, high_open=False):
            value = getattr(self, name)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            ok = ok and (value > low if low_open else value >= low) and (value < high if high_open else value <= high)
            if not ok:
                lo = "(" if low_open else "["
                hi = ")" if high_open else "]"
                raise ParameterError(f"{name} must be a number in {lo}{low}, {high}{hi}, got {value!r}")

        number("rate_bps", 0, 10e9, low_open=True)
        number("delay_s", 0, 10)
        number("loss_down", 0, 1, high_open=True)
        number("loss_up", 0, 1, high_open=True)
        if self.rate_up_bps is not None:
            number("rate_up_bps", 0, 10e9, low_open=True)
        for name, low, high in (("queue_packets", 1, 60000), ("mtu_bytes", 576, 9000)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ParameterError(f"{name} must be a whole number in [{low}, {high}], got {value!r}")

    def emulator_args(self, seed: int) -> list[str]:
        """Return linkemu's rate/delay/loss/queue/seed arguments; direction a is the client."""
        up = self.rate_bps if self.rate_up_bps is None else self.rate_up_bps
        return [repr(float(up)), repr(float(self.rate_bps)), repr(float(self.delay_s)), repr(float(self.delay_s)),
                repr(float(self.loss_up)), repr(float(self.loss_down)), str(self.queue_packets),
                str(self.queue_packets), str(int(seed))]


def _addresses(name: str, ips) -> tuple[str, ...]:
    """Return ``ips`` (IPv4 addresses, at least one, distinct) as a tuple; raise ParameterError naming ``name``."""
    import ipaddress

    if isinstance(ips, str) or not ips:
        raise ParameterError(f"{name} must be a non-empty sequence of IPv4 addresses, got {ips!r}")
    out = []
    for ip in ips:
        try:
            ipaddress.IPv4Address(ip)
        except (ipaddress.AddressValueError, ValueError, TypeError):
            raise ParameterError(f"{name} must hold IPv4 addresses, got {ip!r}") from None
        out.append(str(ip))
    if len(set(out)) != len(out):
        raise ParameterError(f"{name} must hold distinct addresses, got {ips!r}")
    return tuple(out)


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if check and proc.returncode != 0:
        raise TestbedError(f"'ip {' '.join(args)}' failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc


#: The TUN device the link emulator opens.
TUN_DEVICE = "/dev/net/tun"
#: The commands a testbed run calls, by the Debian package that provides each (tools/prereqs.sh installs them).
TESTBED_COMMANDS = {"ip": "iproute2", "gcc": "gcc", "tcpdump": "tcpdump"}
#: Where the C application's build looks for usrsctp.h (Debian package libusrsctp-dev).
USRSCTP_HEADER_DIRS = ("/usr/include", "/usr/local/include")


def usrsctp_header_present() -> bool:
    """Return whether ``usrsctp.h`` is in one of :data:`USRSCTP_HEADER_DIRS` (the SCTP application's build needs it)."""
    return any(os.path.isfile(os.path.join(folder, "usrsctp.h")) for folder in USRSCTP_HEADER_DIRS)


def missing_packages() -> list[str]:
    """Return the Debian packages a testbed run needs that this machine lacks, in a fixed order.

    A command of :data:`TESTBED_COMMANDS` that PATH does not reach names its package; no ``usrsctp.h``
    in :data:`USRSCTP_HEADER_DIRS` names ``libusrsctp-dev`` (the SCTP application cannot be compiled).
    """
    missing = [package for command, package in TESTBED_COMMANDS.items() if shutil.which(command) is None]
    if not usrsctp_header_present():
        missing.append("libusrsctp-dev")
    return missing


def unavailable_reason() -> str | None:
    """Return why this machine cannot run the testbed, or None.

    Checked up front, before any run starts: root (CAP_NET_ADMIN), the TUN device, the Debian packages of
    :func:`missing_packages` (named with the command that installs them), and a namespace that can be made.
    """
    if os.geteuid() != 0:
        return "the emulated testbed needs root (CAP_NET_ADMIN) for network namespaces and TUN devices"
    if not os.path.exists(TUN_DEVICE):
        return f"no {TUN_DEVICE} on this machine (the link emulator needs TUN devices)"
    missing = missing_packages()
    if missing:
        return (f"the Debian package{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                f"{'are' if len(missing) > 1 else 'is'} not installed "
                f"(apt-get install {' '.join(missing)}; make reproduce installs them as root)")
    probe = f"{PREFIX}{os.getpid()}n{next(_counter)}c"
    if _ip("netns", "add", probe, check=False).returncode != 0:
        return "network namespaces cannot be created here ('ip netns add' failed)"
    _ip("netns", "del", probe, check=False)
    return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def our_namespaces() -> list[str]:
    """Return the namespaces with this package's name pattern (any owner)."""
    out = _ip("netns", "list", check=False).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    return [n for n in names if _NAME.match(n)]


def _kill_namespace(ns: str) -> None:
    """Kill every process inside ``ns`` (one of ours) and delete it."""
    pids = _ip("netns", "pids", ns, check=False).stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)
    for _ in range(50):
        if _ip("netns", "del", ns, check=False).returncode == 0 or ns not in our_namespaces():
            return
        time.sleep(0.05)
    raise TestbedError(f"could not delete namespace {ns}")


#: The watchdog of one testbed (``sh -c`` with arguments: owner pid, then the namespaces): waits for the
#: owner to exit, then kills every process inside each namespace and deletes it.
_WATCHDOG = (
    'owner=$1; shift; while kill -0 "$owner" 2>/dev/null; do sleep 0.5; done; '
    'for ns in "$@"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null; '
    'ip netns del "$ns" 2>/dev/null; done; exit 0'
)


def remove_stale() -> list[str]:
    """Delete namespaces named ``wpe<pid>n<k>c|s`` whose owner process ``pid`` is gone; return their names."""
    stale = [n for n in our_namespaces() if not _pid_alive(int(_NAME.match(n).group(1)))]
    for ns in stale:
        _kill_namespace(ns)
    return stale


class Testbed:
    """Context manager: client and server namespaces joined by ``linkemu`` (see the module docstring)."""

    __test__ = False  # not a pytest class

    def __init__(self, link: Link, seed: int, tcp: TcpSettings | None = None, startup_timeout_s: float = 10.0, *,
                 client_ips: tuple[str, ...] = (CLIENT_IP,), server_ips: tuple[str, ...] = (SERVER_IP,),
                 emulator_flags: tuple[str, ...] = ()):
        if not isinstance(link, Link):
            raise ParameterError(f"link must be a paperlib.emulation.netns.Link, got {link!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ParameterError(f"seed must be a whole number >= 0, got {seed!r}")
        if tcp is not None and not isinstance(tcp, TcpSettings):
            raise ParameterError(f"tcp must be a TcpSettings or None, got {tcp!r}")
        if tcp is not None and tcp.mtu_bytes > link.mtu_bytes:
            raise ParameterError(f"tcp.mss_bytes {tcp.mss_bytes} needs an MTU of {tcp.mtu_bytes} B, "
                                 f"but link.mtu_bytes is {link.mtu_bytes}")
        self.client_ips, self.server_ips = _addresses("client_ips", client_ips), _addresses("server_ips", server_ips)
        if set(self.client_ips) & set(self.server_ips):
            raise ParameterError(f"client_ips and server_ips must not share an address, got {client_ips!r} and "
                                 f"{server_ips!r}")
        if isinstance(emulator_flags, str) or not all(isinstance(f, str) for f in emulator_flags):
            raise ParameterError(f"emulator_flags must be a sequence of strings, got {emulator_flags!r}")
        self.emulator_flags = tuple(emulator_flags)
        self.link, self.seed, self.tcp = link, seed, tcp
        self.startup_timeout_s = startup_timeout_s
        self.name = f"{PREFIX}{os.getpid()}n{next(_counter)}"
        self.client_ns, self.server_ns = f"{self.name}c", f"{self.name}s"
        self.client_ip, self.server_ip = self.client_ips[0], self.server_ips[0]
        self.link_stats: dict | None = None
        self.ready_at: float | None = None
        self.fidelity: fidelity.FidelityRecord | None = None
        self._watch: fidelity.CpuWatch | None = None
        self._started: tuple[float, float | None, float | None] | None = None  # monotonic, pressure, load
        self._emu: subprocess.Popen | None = None
        self._procs: list[subprocess.Popen] = []
        self._old_handler = None
        self._created: list[str] = []
        self._watchdog: subprocess.Popen | None = None

    # --- set-up -----------------------------------------------------------------------------------
    def __enter__(self) -> Testbed:
        reason = unavailable_reason()
        if reason:
            raise TestbedError(reason)
        if threading.current_thread() is threading.main_thread():
            self._old_handler = signal.signal(signal.SIGTERM, self._on_sigterm)
        try:
            remove_stale()
            self._started = (time.monotonic(), fidelity.read_cpu_pressure_some_s(), fidelity.read_loadavg())
            self._watch = fidelity.CpuWatch()
            self._build()
            self._watch.start()
        except BaseException:
            self._teardown()
            raise
        return self

    def _on_sigterm(self, signum, frame):
        raise Interrupted("SIGTERM: the testbed is torn down")

    def _build(self) -> None:
        # A watchdog outside the run's process group and session: when the owner dies without its
        # teardown (SIGKILL, or a SIGTERM/SIGINT that reaches a Dask worker thread), it kills what runs
        # in the two namespaces and deletes them within about a second. Started before they exist.
        self._watchdog = subprocess.Popen(
            ["sh", "-c", _WATCHDOG, "webperf-netns-watchdog", str(os.getpid()), self.client_ns, self.server_ns],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for ns in (self.client_ns, self.server_ns):
            _ip("netns", "add", ns)
            self._created.append(ns)
        binary = build.linkemu()
        self._emu = subprocess.Popen(
            [str(binary), self.client_ns, DEVICE, self.server_ns, DEVICE, *self.link.emulator_args(self.seed),
             *self.emulator_flags],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self._watch.add(self._emu.pid, "emulator")
        line = self._read_ready()
        self.ready_at = time.monotonic()  # about when linkemu printed "ready" (its queue log's time 0)
        if line != "ready":
            err = self._emu.stderr.read() if self._emu.poll() is not None else ""
            raise TestbedError(f"linkemu did not start: {line!r} {err}")
        mtu = str(self.link.mtu_bytes)
        sides = ((self.client_ns, self.client_ips, self.server_ips), (self.server_ns, self.server_ips, self.client_ips))
        for ns, ips, peers in sides:
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "link", "set", DEVICE, "mtu", mtu, "txqueuelen", "10000", "up")
            if len(ips) == 1 and len(peers) == 1:  # one address each side: a point-to-point peer address
                _ip("-n", ns, "addr", "add", ips[0], "peer", peers[0], "dev", DEVICE)
            else:  # several: host addresses on the device, one host route per peer address
                for ip in ips:
                    _ip("-n", ns, "addr", "add", f"{ip}/32", "dev", DEVICE)
            if self.tcp is not None:
                self._sysctl(ns, self.tcp.sysctls())
            for peer in peers:
                if self.tcp is not None or len(ips) > 1 or len(peers) > 1:
                    _ip("-n", ns, "route", "replace", peer, "dev", DEVICE, "src", ips[0],
                        *(self.tcp.route_options() if self.tcp is not None else ()))

    def _read_ready(self) -> str:
        done = threading.Event()
        box: list[str] = []

        def reader():
            box.append(self._emu.stdout.readline().strip())
            done.set()

        threading.Thread(target=reader, daemon=True).start()
        if not done.wait(self.startup_timeout_s):
            raise TestbedError(f"linkemu gave no 'ready' within {self.startup_timeout_s} s")
        return box[0]

    def _sysctl(self, ns: str, values: dict[str, str]) -> None:
        args = [f"{k}={v}" for k, v in values.items()]
        proc = subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", *args],
                              capture_output=True, text=True, timeout=20)
        if proc.returncode != 0:
            raise TestbedError(f"sysctl in {ns} failed: {proc.stderr.strip()}")

    # --- inside -----------------------------------------------------------------------------------
    def namespace(self, side: str) -> str:
        """Return the namespace of ``side`` ('client' or 'server')."""
        if side not in ("client", "server"):
            raise ParameterError(f"side must be 'client' or 'server', got {side!r}")
        return self.client_ns if side == "client" else self.server_ns

    def popen(self, side: str, argv: list[str], *, role: str | None = None, **kwargs) -> subprocess.Popen:
        """Start ``argv`` inside the namespace of ``side``; it is killed at teardown if still running.

        Its CPU time and run-queue wait, and its descendants', count under ``role`` in ``tb.fidelity``
        (one of :data:`paperlib.emulation.fidelity.ROLES`; default: ``capture`` for tcpdump, else ``side``).
        """
        if self._emu is None:
            raise TestbedError("the testbed is not up (use it inside its 'with' block)")
        namespace = self.namespace(side)
        if role is None:
            role = "capture" if argv and os.path.basename(str(argv[0])) == "tcpdump" else side
        if role not in fidelity.ROLES:
            raise ParameterError(f"role must be one of {fidelity.ROLES}, got {role!r}")
        proc = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], start_new_session=True, **kwargs)
        self._procs.append(proc)
        self._watch.add(proc.pid, role)
        return proc

    def mark_counters(self) -> None:
        """Mark the emulator's counters now (once per run; a later call changes nothing): ``tb.link_stats`` then
        also holds ``mark_ns`` and per direction ``since_mark``, the counts from this moment on (linkemu.c, SIGUSR1).
        """
        if self._emu is None:
            raise TestbedError("the testbed is not up (use it inside its 'with' block)")
        with contextlib.suppress(ProcessLookupError):
            self._emu.send_signal(signal.SIGUSR1)

    def sysctl_values(self, side: str, names: list[str]) -> dict[str, str]:
        """Return the current values of sysctls ``names`` inside the namespace of ``side``."""
        proc = subprocess.run(["ip", "netns", "exec", self.namespace(side), "sysctl", "-n", *names],
                              capture_output=True, text=True, timeout=20, check=True)
        return dict(zip(names, proc.stdout.splitlines(), strict=True))  # sysctl -n: one line per name

    def provenance(self) -> dict:
        """Return the link, seed and TCP settings of this testbed (stored with a run's result)."""
        out = {"link": asdict(self.link), "seed": self.seed,
               "tcp": None if self.tcp is None else self.tcp.provenance(), "emulator": "linkemu.c (TUN, user space)"}
        if (self.client_ips, self.server_ips) != ((CLIENT_IP,), (SERVER_IP,)) or self.emulator_flags:
            out |= {"client_ips": list(self.client_ips), "server_ips": list(self.server_ips),
                    "emulator_flags": list(self.emulator_flags)}
        return out

    # --- teardown ---------------------------------------------------------------------------------
    def __exit__(self, exc_type, exc, tb) -> bool:
        self._teardown()
        return False

    def _teardown(self) -> None:
        errors = []
        cpu, ended, series = None, None, ()
        if self._watch is not None:  # the last read of the run's processes, before any is killed
            with contextlib.suppress(Exception):
                cpu = self._watch.stop()
                series = self._watch.app_series()
                ended = (time.monotonic(), fidelity.read_cpu_pressure_some_s(), fidelity.read_loadavg())
            self._watch = None
        for proc in self._procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                proc.wait(timeout=5)
        if self._emu is not None:
            with contextlib.suppress(ProcessLookupError):
                self._emu.send_signal(signal.SIGTERM)
            try:
                out, _ = self._emu.communicate(timeout=5)
                last = [line for line in out.splitlines() if line.startswith("{")]
                self.link_stats = json.loads(last[-1]) if last else None
            except subprocess.TimeoutExpired:
                self._emu.kill()
                self._emu.communicate()
            self._emu = None
            if cpu is not None and self._started is not None:
                with contextlib.suppress(Exception):
                    self.fidelity = fidelity.make_record(
                        self.link_stats, cpu, wall_s=ended[0] - self._started[0], pressure_start_s=self._started[1],
                        pressure_end_s=ended[1], load_start=self._started[2], load_end=ended[2], app_series=series)
        for ns in self._created:
            try:
                _kill_namespace(ns)
            except TestbedError as err:
                errors.append(str(err))
        self._created = []
        if self._watchdog is not None:  # everything is gone: the watchdog has nothing left to do
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        if self._old_handler is not None:
            signal.signal(signal.SIGTERM, self._old_handler)
            self._old_handler = None
        if errors:
            raise TestbedError("; ".join(errors))


_CLONE_NEWNET = 0x40000000


def finish(proc: subprocess.Popen, bound_s: float, what: str) -> tuple[str, str]:
    """Return the (stdout, stderr) of ``proc`` (started with pipes) once it exits within ``bound_s`` s with status 0;
    raise RuntimeError naming ``what`` when it does not finish in time (it is killed) or fails."""
    try:
        out, err = proc.communicate(timeout=bound_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise RuntimeError(f"{what} did not finish within {bound_s:.0f} s") from None
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {err.strip()[-500:]}")
    return out, err


def socket_in(ns: str, family: int, kind: int):
    """Return a socket created inside namespace ``ns`` (a socket keeps its namespace for life).

    Switches only the calling thread (``setns``) and switches it back before returning.
    """
    import ctypes
    import socket

    libc = ctypes.CDLL(None, use_errno=True)
    own = os.open(f"/proc/{os.getpid()}/task/{threading.get_native_id()}/ns/net", os.O_RDONLY)
    target = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
    try:
        if libc.setns(target, _CLONE_NEWNET) != 0:
            raise TestbedError(f"setns into {ns} failed: {os.strerror(ctypes.get_errno())}")
        try:
            return socket.socket(family, kind)
        finally:
            if libc.setns(own, _CLONE_NEWNET) != 0:
                raise TestbedError(f"setns back from {ns} failed: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(own)
        os.close(target)
