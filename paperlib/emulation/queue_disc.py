"""The link emulator's queue options: RED as ns-3 configures it, per-pair delays and the queue log.

:class:`Red` holds Floyd & Jacobson's RED parameters (thresholds and average in packets, the EWMA weight,
max_p, gentle, the mean packet size of ns-3's idle-time correction). :func:`red_from_testbed_params` reads
them from :mod:`paperlib.sim.web_testbed`'s parameter names, so the ns-3 testbed (its ``_queue_disc``) and the
real-stack testbed take RED from one source; :meth:`Red.linkemu_flag` turns them into ``linkemu``'s
``--red-ab``/``--red-ba`` flag (numbers as ``repr`` of the float, so linkemu computes with the same doubles
as ns-3). :func:`pair_flags`, :func:`queue_log_flag` and :func:`frame_overhead_flag` build the ``--pair``,
``--queue-log`` and ``--frame-overhead`` flags;
:func:`read_queue_log` reads the log back. What each flag does is in ``linkemu.c``'s header comment.
SI units: delays and intervals in seconds, sizes in bytes, queue lengths in packets.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from paperlib.validate import ParameterError

#: linkemu's limit on ``--pair`` flags.
MAX_PAIRS = 64

#: The queue log's columns, in order.
QUEUE_LOG_COLUMNS = ("t_s", "direction", "backlog_packets", "red_avg_packets")

DIRECTIONS = ("ab", "ba")


def _number(name: str, value, low: float, high: float, *, low_open: bool = False) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    ok = ok and (value > low if low_open else value >= low) and value <= high
    if not ok:
        raise ParameterError(f"{name} must be a number in {'(' if low_open else '['}{low}, {high}], got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Red:
    """RED's parameters in packet mode: ``min_th`` < ``max_th`` (packets of average queue), EWMA ``weight``
    in (0, 1], ``max_p`` in (0, 1], ``gentle`` (bool), ``mean_pkt_bytes`` (ns-3's MeanPktSize: the packet
    size of the idle-time correction, a whole number in [1, 65535])."""

    min_th: float
    max_th: float
    weight: float
    max_p: float
    gentle: bool
    mean_pkt_bytes: int

    def __post_init__(self):
        _number("min_th", self.min_th, 0, 1e6)
        _number("max_th", self.max_th, 0, 1e6)
        if not self.max_th > self.min_th:
            raise ParameterError(f"max_th must be above min_th, got min_th {self.min_th!r}, max_th {self.max_th!r}")
        _number("weight", self.weight, 0, 1, low_open=True)
        _number("max_p", self.max_p, 0, 1, low_open=True)
        if not isinstance(self.gentle, bool):
            raise ParameterError(f"gentle must be True or False, got {self.gentle!r}")
        value = self.mean_pkt_bytes
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
            raise ParameterError(f"mean_pkt_bytes must be a whole number in [1, 65535], got {value!r}")

    def linkemu_flag(self, direction: str) -> list[str]:
        """Return linkemu's flag for RED on ``direction`` ("ab"/"ba"): ``["--red-ab", "MIN,MAX,QW,MAX_P,G,MEAN"]``."""
        if direction not in DIRECTIONS:
            raise ParameterError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
        fields = [repr(float(self.min_th)), repr(float(self.max_th)), repr(float(self.weight)),
                  repr(float(self.max_p)), "1" if self.gentle else "0", str(self.mean_pkt_bytes)]
        return [f"--red-{direction}", ",".join(fields)]


#: Header bytes added to the MSS for ns-3's MeanPktSize (IPv4 and TCP headers without options), as web_testbed does.
HEADER_BYTES = 40


def red_from_testbed_params(p: dict) -> Red:
    """Return the RED of a :mod:`paperlib.sim.web_testbed` parameter set (its defaults fill what ``p`` lacks).

    ``red_min_th``, ``red_max_th``, ``red_weight``, ``red_max_p``, ``red_gentle``; mean packet size
    ``mss_bytes`` + 40, as ``web_testbed._queue_disc`` gives ns-3.
    """
    from paperlib.sim import web_testbed  # noqa: PLC0415 (the ns-3 testbed's defaults, without importing ns-3)

    q = {**web_testbed.DEFAULTS, **p}
    mss = q["mss_bytes"]
    if isinstance(mss, bool) or not isinstance(mss, int) or mss < 1:
        raise ParameterError(f"mss_bytes must be a whole number >= 1, got {mss!r}")
    return Red(min_th=q["red_min_th"], max_th=q["red_max_th"], weight=q["red_weight"], max_p=q["red_max_p"],
               gentle=q["red_gentle"], mean_pkt_bytes=mss + HEADER_BYTES)


def _ipv4(name: str, value) -> str:
    try:
        return str(ipaddress.IPv4Address(value))
    except (ipaddress.AddressValueError, ValueError, TypeError):
        raise ParameterError(f"{name} must be an IPv4 address, got {value!r}") from None


def pair_flags(pairs: list[tuple[str, str, float, float]]) -> list[str]:
    """Return linkemu's ``--pair`` flags: per ``(a_ip, b_ip, delay_ab_s, delay_ba_s)`` an extra one-way delay
    (s) for packets from a_ip to b_ip (direction ab, a in namespace NS_A) and from b_ip to a_ip (ba)."""
    if len(pairs) > MAX_PAIRS:
        raise ParameterError(f"pairs: at most {MAX_PAIRS}, got {len(pairs)}")
    out, seen = [], set()
    for i, pair in enumerate(pairs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 4:
            raise ParameterError(f"pairs[{i}] must be (a_ip, b_ip, delay_ab_s, delay_ba_s), got {pair!r}")
        a, b = _ipv4(f"pairs[{i}] a_ip", pair[0]), _ipv4(f"pairs[{i}] b_ip", pair[1])
        if (a, b) in seen:
            raise ParameterError(f"pairs[{i}]: the pair {a} -> {b} is given twice")
        seen.add((a, b))
        dab = _number(f"pairs[{i}] delay_ab_s", pair[2], 0, 3600)
        dba = _number(f"pairs[{i}] delay_ba_s", pair[3], 0, 3600)
        out += ["--pair", f"{a},{b},{dab!r},{dba!r}"]
    return out


def queue_log_flag(path, interval_s: float) -> list[str]:
    """Return linkemu's ``--queue-log`` flag: both directions' backlog every ``interval_s`` (s) into ``path``."""
    text = str(path)
    if not text or text.endswith("/"):
        raise ParameterError(f"path must name a file, got {path!r}")
    interval = _number("interval_s", interval_s, 1e-6, 3600)
    return ["--queue-log", f"{text},{interval!r}"]


#: Link-layer bytes ns-3's point-to-point device serialises with every IP packet (its PPP header).
NS3_POINT_TO_POINT_HEADER_BYTES = 2


def frame_overhead_flag(n_bytes: int) -> list[str]:
    """Return linkemu's ``--frame-overhead`` flag: ``n_bytes`` serialised with every packet, both directions
    (:data:`NS3_POINT_TO_POINT_HEADER_BYTES` serialises what ns-3's point-to-point bottleneck does)."""
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, int) or not 0 <= n_bytes <= 1000:
        raise ParameterError(f"n_bytes must be a whole number in [0, 1000], got {n_bytes!r}")
    return ["--frame-overhead", str(n_bytes)]


def read_queue_log(path) -> pd.DataFrame:
    """Return linkemu's queue log: columns t_s (s since 'ready'), direction ("ab"/"ba"), backlog_packets
    (int), red_avg_packets (float, NaN for drop-tail). Raises ParameterError naming file, row and column."""
    path = Path(path)
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise ParameterError(f"{path}: no such queue log") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        raise ParameterError(f"{path}: not a queue log CSV ({err})") from None
    if tuple(frame.columns) != QUEUE_LOG_COLUMNS:
        raise ParameterError(f"{path}: columns must be {list(QUEUE_LOG_COLUMNS)}, got {list(frame.columns)}")
    t = _column(path, frame, "t_s", float)
    q = _column(path, frame, "backlog_packets", int)
    avg = _column(path, frame, "red_avg_packets", float, empty_ok=True)
    for row, value in enumerate(frame["direction"], start=2):
        if value not in DIRECTIONS:
            raise ParameterError(f"{path}: row {row}, column direction: must be one of {DIRECTIONS}, got {value!r}")
    for row, (tv, qv) in enumerate(zip(t, q, strict=True), start=2):
        if not (math.isfinite(tv) and tv >= 0):
            raise ParameterError(f"{path}: row {row}, column t_s: must be a time >= 0, got {tv!r}")
        if qv < 0:
            raise ParameterError(f"{path}: row {row}, column backlog_packets: must be >= 0, got {qv!r}")
    return pd.DataFrame({"t_s": t, "direction": frame["direction"].astype(str), "backlog_packets": q,
                         "red_avg_packets": avg})


def _column(path: Path, frame: pd.DataFrame, name: str, kind, empty_ok: bool = False) -> list:
    out = []
    for row, text in enumerate(frame[name], start=2):  # row 1 is the header
        if empty_ok and text == "":
            out.append(math.nan)
            continue
        try:
            out.append(kind(text))
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise ParameterError(f"{path}: row {row}, column {name}: must be {what}, got {text!r}") from None
    return out
