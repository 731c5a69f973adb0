"""Floors for `make bench`: each vectorised model's formula compiled into one pass over the arrays.

A floor is what the machine can do for a formula: the same arithmetic in C, one loop, no
temporaries, compiled here with the gcc the package already needs. The flags are those a performance
engineer would use for a kernel (``-O3 -march=native -ffast-math``: glibc's vector maths
library then evaluates log2/exp2 on SIMD lanes); fast-math reorders arithmetic, so the bench
compares floor and model within a relative 1e-12, not bit for bit. The sources sit
next to this file in ``floors/``; the shared objects go to ``.cache/bench/`` keyed by the
source's hash, so a changed source is recompiled.
"""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path

import numpy as np

from paperlib.emulation import build

HERE = Path(__file__).resolve().parent
CACHE = HERE.parent / ".cache" / "bench"


def compile_floor(name: str) -> ctypes.CDLL:
    """Compile ``floors/<name>.c`` into a shared object (once per source version) and load it."""
    source = HERE / "floors" / f"{name}.c"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = CACHE / f"{name}-{digest}.so"
    if not target.exists():
        build.compile_into(source, target, ("-O3", "-march=native", "-ffast-math", "-fPIC", "-shared"), ("-lm",))
    return ctypes.CDLL(str(target))


def _pointer(array: np.ndarray):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def slow_start_latency_floor(obj, mtu, rate, rtt, x, setup_rtts: float = 2.0) -> np.ndarray:
    """Paper 004 Eq. (5) (corrected form), compiled; arguments broadcast to one shape first."""
    library = compile_floor("slow_start_latency")
    arrays = [np.ascontiguousarray(a, dtype=float) for a in np.broadcast_arrays(obj, mtu, rate, rtt, x)]
    out = np.empty(arrays[0].shape)
    library.slow_start_latency(
        ctypes.c_size_t(out.size), *(_pointer(a) for a in arrays), ctypes.c_double(setup_rtts), _pointer(out)
    )
    return out


def _arrays(*args) -> list[np.ndarray]:
    return [np.ascontiguousarray(a, dtype=float) for a in np.broadcast_arrays(*args)]


def http_response_time_floor(obj, mss, rate, rtt, p, *, threshold=np.inf, it=None, objects=5, pipeline_depth=1,
                             reading=None):
    """Paper 002's algorithm and Table I, compiled: (OT, tot_hob, TCP, SCTP) per point; IT = 2 RTT if None."""
    from paperlib.models.reading import READING_002

    r = reading or READING_002
    library = compile_floor("http_response_time")
    rtt_b = np.broadcast_to(rtt, np.broadcast_shapes(*(np.shape(a) for a in (obj, mss, rate, rtt, p))))
    arrays = _arrays(obj, mss, rate, rtt, p, threshold, 2.0 * rtt_b if it is None else it, objects, pipeline_depth)
    outs = [np.empty(arrays[0].shape) for _ in range(4)]
    switches = (r.log_mode == "ceil", r.a_mode == "round", r.n_mode == "ceil", r.final_chunk == "N",
                r.hob_in_ca == "zero", r.post_loss_slow_start, r.sctp_total == "printed")
    library.http_response_time(ctypes.c_size_t(outs[0].size), *(_pointer(a) for a in arrays),
                               *(ctypes.c_int(int(s)) for s in switches), *(_pointer(o) for o in outs))
    return tuple(outs)


def narrowband_response_floor(obj, mtu, rate, rtt, p, initial_window, *, timeout_s=None, setup_rtts=0.0,
                              reading=None) -> np.ndarray:
    """Paper 000's Eq. (2), compiled; timeout 1.5 RTT if None (the model's default)."""
    from paperlib.models.reading import READING_000

    r = reading or READING_000
    library = compile_floor("narrowband_response")
    to = 1.5 * np.asarray(rtt, dtype=float) if timeout_s is None else timeout_s
    arrays = _arrays(obj, mtu, rate, rtt, p, initial_window, to, setup_rtts)
    out = np.empty(arrays[0].shape)
    switches = (r.n_mode == "ceil", r.a_mode == "round", r.log_mode == "ceil", r.final_chunk == "N+1",
                r.post_loss_slow_start)
    library.narrowband_response(ctypes.c_size_t(out.size), *(_pointer(a) for a in arrays),
                                *(ctypes.c_int(int(s)) for s in switches), _pointer(out))
    return out


def multiuser_waiting_floor(m, n, tau) -> np.ndarray:
    """Paper 000's Eq. (4) (Eq. (3) / m), compiled."""
    library = compile_floor("multiuser_waiting")
    arrays = _arrays(m, n, tau)
    out = np.empty(arrays[0].shape)
    library.multiuser_waiting(ctypes.c_size_t(out.size), *(_pointer(a) for a in arrays), _pointer(out))
    return out
