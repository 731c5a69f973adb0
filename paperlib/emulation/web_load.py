"""Paper 001's emulated browsers on real stacks: the workload file, the command lines and the results.

Paper 001 (Sec. 2.1, Fig. 1) drove its testbed with "thousands of emulated browsers" whose
requests, replies, pages and think times follow Mah's traces. The ns-3 testbed runs them as the
C++ browsers of :mod:`paperlib.sim.web_browsers_cpp`; on real Linux TCP stacks the same browsers
are one C program, ``c/webload.c``, in two modes:

* ``webload serve --listen IP:PORT[,IP:PORT...] [--chunk BYTES]``: the web responders, one epoll
  loop for every address. Per connection it reads the whole request, sends the reply and closes
  (``ServerRecv`` / ``ServerSend``). It prints ``ready`` once listening and, on SIGTERM or SIGINT, one
  JSON line of counters (``connections``, ``replies``, ``bytes_sent``, ``bytes_read``,
  ``short_requests``, ``errors``, ``open_at_end``, ``max_open``, ``cpu_s``, ``cpu_user_s``,
  ``cpu_sys_s``) and exits 0.
* ``webload browse --workload FILE --out FILE --duration S --parallel N --pairs C:S:PORT,...
  [--warmup S] [--rx-log FILE,INTERVAL]``: every browser of the workload (``StartPage`` /
  ``ObjectDone`` / ``OpenConn``), browser ``i`` on pair ``browser_group[i]`` (its sockets bound to
  that pair's client address). It writes one CSV row per request (:func:`read_requests`) and
  prints one JSON line (:func:`parse_summary`).

The responder learns a request's length and its reply's from the request itself: it starts with
the ASCII header :func:`request_header` and is padded to its length (ns-3's responder reads both
from a table the browser fills, since its packets carry no content). A request shorter than its
header is sent as the header alone; both ends count these (``short_requests``).

The workload comes from :func:`paperlib.sim.web_testbed.workload`, so the two testbeds differ
only in the network stack; :func:`results` returns the same keys with the same meaning as the
response part of :func:`paperlib.sim.web_testbed.simulate`, plus the generator's fidelity record.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib import atomic
from paperlib.emulation import build
from paperlib.validate import ParameterError

#: The program's source (its hash names the cached build).
SOURCE = Path(__file__).resolve().parent / "c" / "webload.c"
#: Libraries the program links.
LIBS = ("-lm",)

#: Workload file: magic, version, then counts and arrays (all little-endian).
MAGIC = b"WEBLOAD\0"
VERSION = 1
#: The arrays of a workload in file order, with their dtype and what their length counts.
ARRAYS = (
    ("browser_group", "<i4", "browsers"),
    ("browser_start_s", "<f8", "browsers"),
    ("browser_first_page", "<u4", "browsers"),
    ("browser_pages", "<u4", "browsers"),
    ("page_first", "<u4", "pages"),
    ("page_objects", "<u4", "pages"),
    ("page_think_s", "<f8", "pages"),
    ("req_bytes", "<u4", "objects"),
    ("reply_bytes", "<u4", "objects"),
)
_HEAD = struct.Struct("<8sII3Q")

#: Columns of :func:`read_requests`, in file order.
REQUEST_COLUMNS = ("browser", "page", "object", "primary", "t_sched_s", "t_start_s", "t_done_s", "reply_bytes",
                   "status")
#: Request states: completed, failed (refused, reset, closed early, no port), still open at the end,
#: and due before the end but never issued (the generator lagging).
STATUSES = ("done", "failed", "unfinished", "unissued")


class WebLoadOutputError(ValueError):
    """The program's output is malformed; the message names the file or line and the field."""


def binary() -> Path:
    """Return the compiled ``webload`` program (built once per source hash, like the package's other C apps)."""
    return build.compile_c(SOURCE, "webload", LIBS)


# --- the workload file ----------------------------------------------------------------------


def _checked_arrays(load: dict) -> dict[str, np.ndarray]:
    missing = [name for name, _, _ in ARRAYS if name not in load]
    if missing:
        raise ParameterError(f"workload lacks the array(s) {missing}")
    out, counts = {}, {}
    for name, dtype, counted in ARRAYS:
        arr = np.asarray(load[name])
        if arr.ndim != 1:
            raise ParameterError(f"workload array {name} must be one-dimensional, got shape {arr.shape}")
        n = counts.setdefault(counted, len(arr))
        if len(arr) != n:
            raise ParameterError(f"workload array {name} has {len(arr)} entries, but the other {counted} arrays {n}")
        kind = np.dtype(dtype).kind
        if kind == "f":
            if arr.dtype.kind not in "fiu" or not np.all(np.isfinite(arr)) or (arr < 0).any():
                raise ParameterError(f"workload array {name} must hold finite numbers >= 0")
        else:
            if arr.dtype.kind not in "iu":
                raise ParameterError(f"workload array {name} must hold integers, got {arr.dtype}")
            info = np.iinfo(np.dtype(dtype))
            if len(arr) and (arr.min() < max(info.min, 0) or arr.max() > info.max):
                raise ParameterError(f"workload array {name} must hold integers in [0, {info.max}]")
        out[name] = arr.astype(dtype)
    n_pages, n_objects = counts["pages"], counts["objects"]
    if (out["browser_first_page"].astype(np.int64) + out["browser_pages"] > n_pages).any():
        raise ParameterError(f"workload array browser_first_page + browser_pages points beyond the {n_pages} pages")
    if (out["page_objects"] == 0).any():
        raise ParameterError("workload array page_objects holds a page without objects")
    if (out["page_first"].astype(np.int64) + out["page_objects"] > n_objects).any():
        raise ParameterError(f"workload array page_first + page_objects points beyond the {n_objects} objects")
    for name in ("req_bytes", "reply_bytes"):
        if (out[name] == 0).any():
            raise ParameterError(f"workload array {name} holds 0 (sizes are whole bytes >= 1)")
    return out


def workload_bytes(load: dict) -> bytes:
    """Return the workload file's content: header, then :data:`ARRAYS` little-endian in that order."""
    arrays = _checked_arrays(load)
    head = _HEAD.pack(MAGIC, VERSION, 0, len(arrays["browser_group"]), len(arrays["page_first"]),
                      len(arrays["req_bytes"]))
    return head + b"".join(arrays[name].tobytes() for name, _, _ in ARRAYS)


def write_workload(load: dict, path: Path | str) -> Path:
    """Write the arrays of :func:`paperlib.sim.web_testbed.workload` as a ``webload`` workload file; return its path.

    Paper 001, Sec. 2.1 (Mah's traces, via :func:`paperlib.models.web_traffic.sample_browsers`); the
    same arrays that :func:`paperlib.sim.web_browsers_cpp` ``LoadObjects`` / ``LoadPages`` /
    ``LoadBrowsers`` take. Raises :class:`~paperlib.validate.ParameterError` naming the array for a
    wrong shape, type or range. Written atomically; the same arrays give byte-identical files.
    """
    return atomic.atomic_write_bytes(path, workload_bytes(load))


def read_workload(path: Path | str) -> dict[str, np.ndarray]:
    """Return the arrays of a workload file (the inverse of :func:`write_workload`)."""
    path = Path(path)
    data = path.read_bytes()
    if len(data) < _HEAD.size:
        raise WebLoadOutputError(f"{path}: too short for a workload header")
    magic, version, _, n_b, n_p, n_o = _HEAD.unpack_from(data)
    if magic != MAGIC:
        raise WebLoadOutputError(f"{path}: not a webload workload file (bad magic)")
    if version != VERSION:
        raise WebLoadOutputError(f"{path}: version {version}, this reader reads {VERSION}")
    counts = {"browsers": n_b, "pages": n_p, "objects": n_o}
    out, off = {}, _HEAD.size
    for name, dtype, counted in ARRAYS:
        n = counts[counted]
        size = n * np.dtype(dtype).itemsize
        if off + size > len(data):
            raise WebLoadOutputError(f"{path}: truncated in array {name}")
        out[name] = np.frombuffer(data, dtype=dtype, count=n, offset=off).astype(np.dtype(dtype).newbyteorder("="))
        off += size
    if off != len(data):
        raise WebLoadOutputError(f"{path}: {len(data) - off} bytes after the last array")
    return out


# --- the request header ---------------------------------------------------------------------


def request_header(reply_bytes: int, req_bytes: int) -> bytes:
    r"""Return the ASCII header a request starts with: ``GET /<reply_bytes> <req_bytes>\n``."""
    return f"GET /{int(reply_bytes)} {int(req_bytes)}\n".encode("ascii")


def parse_request_header(data: bytes) -> tuple[int, int, int]:
    """Return (reply bytes, request bytes, header length) from the start of a request; raise if malformed."""
    end = data.find(b"\n", 0, 32)
    if end < 0:
        raise WebLoadOutputError(f"request header without a newline in its first 32 bytes: {data[:32]!r}")
    parts = data[:end].split(b" ")
    if len(parts) != 3 or parts[0] != b"GET" or not parts[1].startswith(b"/") or not parts[1][1:].isdigit() \
            or not parts[2].isdigit():
        raise WebLoadOutputError(f"malformed request header {data[:end + 1]!r}")
    return int(parts[1][1:]), int(parts[2]), end + 1


def request_length(reply_bytes, req_bytes):
    """Return the bytes a request puts on the wire: its size, or its header's length if that is longer."""
    reply = np.asarray(reply_bytes, dtype=np.int64)
    req = np.asarray(req_bytes, dtype=np.int64)
    header_len = 7 + _digits(reply) + _digits(req)  # "GET /" 5 + reply + " " 1 + req + "\n" 1
    return np.maximum(req, header_len)


def _digits(x: np.ndarray) -> np.ndarray:
    return np.char.str_len(x.astype(str)).astype(np.int64)


def short_requests(load: dict) -> int:
    """Return how many of a workload's requests are shorter than their header (sent as the header alone)."""
    req = np.asarray(load["req_bytes"], dtype=np.int64)
    return int((request_length(load["reply_bytes"], req) > req).sum())


# --- command lines --------------------------------------------------------------------------


def _address(ip: str, port: int, what: str) -> str:
    if not isinstance(ip, str) or ip.count(".") != 3 or ":" in ip or "," in ip:
        raise ParameterError(f"{what}: {ip!r} is not an IPv4 address")
    if not isinstance(port, (int, np.integer)) or isinstance(port, bool) or not 0 < int(port) < 65536:
        raise ParameterError(f"{what}: port {port!r} must be an integer in 1..65535")
    return f"{ip}:{int(port)}"


def serve_argv(binary: Path | str, listen: list[tuple[str, int]], chunk_bytes: int | None = None) -> list[str]:
    """Return the command line of the responders listening on every (IP, port) of ``listen``."""
    if not listen:
        raise ParameterError("listen must name at least one (IP, port)")
    argv = [str(binary), "serve", "--listen", ",".join(_address(ip, port, "listen") for ip, port in listen)]
    if chunk_bytes is not None:
        if int(chunk_bytes) < 1:
            raise ParameterError(f"chunk_bytes must be >= 1, got {chunk_bytes!r}")
        argv += ["--chunk", str(int(chunk_bytes))]
    return argv


def browse_argv(binary: Path | str, workload_path: Path | str, out_path: Path | str, duration_s: float,
                parallel: int, pairs: list[tuple[str, str, int]], *, warmup_s: float | None = None,
                rx_log: tuple[Path | str, float] | None = None) -> list[str]:
    """Return the command line of the browsers: pair ``i`` of ``pairs`` = (client IP, server IP, port) serves
    the browsers whose ``browser_group`` is ``i``.

    ``warmup_s`` makes the summary count the reply bytes received after it (``rx_bytes_after_warmup``,
    for :func:`results`' throughput); ``rx_log`` = (file, interval in s) writes the cumulative reply bytes
    received at every multiple of the interval (calibration).
    """
    if not float(duration_s) > 0:
        raise ParameterError(f"duration_s must be > 0, got {duration_s!r}")
    if isinstance(parallel, bool) or int(parallel) != parallel or int(parallel) < 1:
        raise ParameterError(f"parallel must be an integer >= 1, got {parallel!r}")
    if not pairs:
        raise ParameterError("pairs must name at least one (client IP, server IP, port)")
    entries = []
    for client, server, port in pairs:
        _address(client, 1, "pairs (client)")
        entries.append(f"{client}:{_address(server, port, 'pairs (server)')}")
    argv = [str(binary), "browse", "--workload", str(workload_path), "--out", str(out_path),
            "--duration", repr(float(duration_s)), "--parallel", str(int(parallel)), "--pairs", ",".join(entries)]
    if warmup_s is not None:
        if not 0 <= float(warmup_s) < float(duration_s):
            raise ParameterError(f"warmup_s must be in [0, duration_s), got {warmup_s!r}")
        argv += ["--warmup", repr(float(warmup_s))]
    if rx_log is not None:
        path, interval = rx_log
        if not float(interval) > 0 or "," in str(path):
            raise ParameterError(f"rx_log must be (file without a comma, interval > 0), got {rx_log!r}")
        argv += ["--rx-log", f"{path},{float(interval)!r}"]
    return argv


# --- outputs --------------------------------------------------------------------------------


def read_requests(path: Path | str) -> pd.DataFrame:
    """Return the browse output, one row per request in connect() order (unissued ones last).

    Columns :data:`REQUEST_COLUMNS`: ``browser``, ``page`` and ``object`` (rows of the workload's
    browser, page and object arrays), ``primary`` (1 for a page's primary object), ``t_sched_s``
    (when the browser became ready to issue it), ``t_start_s`` (connect(); NaN if unissued),
    ``t_done_s`` (last reply byte, or the failure; NaN if unfinished or unissued), ``reply_bytes``,
    ``status`` (one of :data:`STATUSES`). Times in s from the program's time 0; ``attrs`` holds the
    first line's fields (``t0_monotonic_s``, ``duration_s``, ``parallel``).
    """
    path = Path(path)
    with path.open() as fh:
        first = fh.readline()
    if not first.startswith("# webload requests v1"):
        raise WebLoadOutputError(f"{path}: line 1 is not a webload requests header: {first.strip()!r}")
    attrs = {}
    for field in first.split()[4:]:
        key, _, value = field.partition("=")
        attrs[key] = int(value) if key == "parallel" else float(value)
    frame = pd.read_csv(path, skiprows=1, dtype={"browser": np.int64, "page": np.int64, "object": np.int64,
                                                 "primary": np.int64, "reply_bytes": np.int64, "status": str})
    if tuple(frame.columns) != REQUEST_COLUMNS:
        raise WebLoadOutputError(f"{path}: columns {list(frame.columns)}, expected {list(REQUEST_COLUMNS)}")
    bad = ~frame["status"].isin(STATUSES)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise WebLoadOutputError(f"{path}: row {row + 1}, column status: {frame['status'].iloc[row]!r}")
    frame.attrs.update(attrs)
    return frame


def read_rx_log(path: Path | str) -> pd.DataFrame:
    """Return the ``--rx-log`` file: ``t_s`` (multiples of the interval from 0) and ``rx_bytes``.

    ``rx_bytes`` counts every reply byte the browsers received up to ``t_s`` (as web_browsers_cpp's
    ``rx_samples``; :func:`paperlib.sim.web_testbed.throughput_series` turns it into bit/s per bin).
    """
    path = Path(path)
    frame = pd.read_csv(path, dtype={"t_s": float, "rx_bytes": np.int64})
    if tuple(frame.columns) != ("t_s", "rx_bytes"):
        raise WebLoadOutputError(f"{path}: columns {list(frame.columns)}, expected ['t_s', 'rx_bytes']")
    falls = np.flatnonzero(np.diff(frame["rx_bytes"].to_numpy()) < 0)
    if falls.size:
        raise WebLoadOutputError(f"{path}: row {int(falls[0]) + 2}, column rx_bytes: the count falls")
    return frame


def parse_summary(text: str) -> dict:
    """Return the JSON summary line of ``webload`` (browse or serve) from its standard output.

    browse: ``mode``, ``t0_monotonic_s`` (time 0: the start of its event loop), ``duration_s``, ``t_end_s``,
    ``stopped_by_signal``, ``warmup_s``, ``parallel``, ``pairs``, ``browsers``, ``active_browsers`` (with a
    page), ``scheduled`` (= issued + unissued), ``issued`` (connect() attempted), ``done``, ``failed``,
    ``unfinished``, ``unissued``, ``short_requests``, ``issue_lateness_p99_s`` / ``issue_lateness_max_s``
    (connect() - ready time over the issued requests; p99 interpolated as ``numpy.quantile``), ``cpu_s``,
    ``cpu_user_s``, ``cpu_sys_s``, ``max_open`` (requests open at once), ``max_fds`` (with the closing ones),
    ``rx_bytes``, ``rx_bytes_after_warmup``, ``stray_bytes`` (beyond a reply's length: 0), ``errors``
    (``eaddrnotavail``, ``econnrefused``, ``etimedout``, ``econnreset``, ``early_close``, ``no_fd``,
    ``other``). serve: the keys listed in the module docstring.
    """
    lines = [line for line in text.splitlines() if line.startswith("{")]
    if not lines:
        raise WebLoadOutputError(f"no JSON summary line in the output: {text[-200:]!r}")
    try:
        summary = json.loads(lines[-1])
    except json.JSONDecodeError as err:
        raise WebLoadOutputError(f"summary line is not JSON ({err}): {lines[-1][:200]!r}") from None
    if summary.get("mode") not in ("browse", "serve"):
        raise WebLoadOutputError(f"summary line has no mode browse/serve: {lines[-1][:200]!r}")
    return summary


def results(requests: pd.DataFrame, summary: dict, warmup_s: float, duration_s: float) -> dict:
    """Return the run's response results with the keys and meaning of :func:`paperlib.sim.web_testbed.simulate`.

    Paper 001's response time (Sec. 2.1, Figs. 3, 6, 7, 9) measured at the browser, from the
    connection attempt to the last byte of the reply (web_browsers_cpp ``OpenConn`` ... ``ClientRecv``):
    ``response_s`` / ``response_bytes`` / ``response_primary`` for every request that started at or after
    ``warmup_s`` and completed before the end, ordered by start then completion and rounded to 1 us as
    ``simulate`` does; ``requests`` (their number), ``unfinished`` (requests open at the end),
    ``failed`` (whole run), ``throughput_bps`` (reply bytes received after the warm-up per second of
    the measured window: the summary's ``rx_bytes_after_warmup`` when the run was given this
    ``warmup_s``, else the reply bytes of requests completed after it, which leaves out the bytes of
    requests still open at the end). ``generator`` is the fidelity record of the browsers:
    ``scheduled``, ``issued``, ``unissued``, ``issue_lateness_p99_s``, ``issue_lateness_max_s``,
    ``cpu_s``, ``cpu_per_s`` (CPU s per run s), ``max_open``, ``short_requests``, ``errors``.
    """
    warmup_s, duration_s = float(warmup_s), float(duration_s)
    if not 0 <= warmup_s < duration_s:
        raise ParameterError(f"warmup_s ({warmup_s}) must be in [0, duration_s = {duration_s})")
    missing = [c for c in REQUEST_COLUMNS if c not in requests.columns]
    if missing:
        raise ParameterError(f"requests lacks the column(s) {missing}")
    status = requests["status"].to_numpy()
    done = status == "done"
    t0 = requests["t_start_s"].to_numpy(dtype=float)[done]
    t1 = requests["t_done_s"].to_numpy(dtype=float)[done]
    nbytes = requests["reply_bytes"].to_numpy(dtype=np.int64)[done]
    primary = requests["primary"].to_numpy(dtype=np.int64)[done]
    order = np.lexsort((t1, t0))
    keep = order[(t0[order] >= warmup_s) & (t1[order] <= duration_s)]
    window = duration_s - warmup_s
    if float(summary.get("warmup_s", -1.0)) == warmup_s and "rx_bytes_after_warmup" in summary:
        rx = int(summary["rx_bytes_after_warmup"])
    else:
        rx = int(nbytes[t1 > warmup_s].sum())
    cpu = float(summary["cpu_s"])
    run_s = float(summary.get("t_end_s", duration_s))
    generator = {
        "scheduled": int(summary["scheduled"]),
        "issued": int(summary["issued"]),
        "unissued": int(summary["unissued"]),
        "issue_lateness_p99_s": float(summary["issue_lateness_p99_s"]),
        "issue_lateness_max_s": float(summary["issue_lateness_max_s"]),
        "cpu_s": cpu,
        "cpu_per_s": cpu / run_s if run_s > 0 else float("nan"),
        "max_open": int(summary["max_open"]),
        "short_requests": int(summary["short_requests"]),
        "errors": dict(summary["errors"]),
    }
    return {
        "requests": int(len(keep)),
        "unfinished": int((status == "unfinished").sum()),
        "failed": int((status == "failed").sum()),
        "throughput_bps": 8.0 * rx / window,
        "response_s": [round(float(x), 6) for x in (t1 - t0)[keep]],
        "response_bytes": nbytes[keep].tolist(),
        "response_primary": primary[keep].tolist(),
        "generator": generator,
    }
