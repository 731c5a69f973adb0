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
    """Seed 004 Eq. (5) (corrected form), compiled; arguments broadcast to one shape first."""
    library = compile_floor("slow_start_latency")
    arrays = [np.ascontiguousarray(a, dtype=float) for a in np.broadcast_arrays(obj, mtu, rate, rtt, x)]
    out = np.empty(arrays[0].shape)
    library.slow_start_latency(
        ctypes.c_size_t(out.size), *(_pointer(a) for a in arrays), ctypes.c_double(setup_rtts), _pointer(out)
    )
    return out
