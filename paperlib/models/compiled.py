"""The compiled path of two closed forms (``closed_forms.c``): built with gcc once per machine, loaded with ctypes.

Paper 004's Eq. (5) (:func:`paperlib.models.slow_start_latency.transfer_latency_s`) and paper 000's Eq. (4)
(:func:`paperlib.models.multiuser_waiting.mean_waiting_time_same`) are a few operations per point. In NumPy
every operation, and every range check, is a pass over the arrays, so on large grids they cost several times
what the machine needs (``make bench`` prints the ratios). ``closed_forms.c`` evaluates each formula and its
checks in one pass. It is compiled with the gcc the package already needs (for the emulator), into
``.cache/kernels/`` (``WEBPERF_KERNEL_CACHE`` overrides), keyed by the source, the flags and the CPU
(``-march=native``: a cache copied to another CPU is rebuilt, never run).

The compiled path and the NumPy path of each model are the same sequence of IEEE-754 operations (no
``-ffast-math``, no fused multiply-add) and give the same bits; the tests check this on random and edge inputs.
Where gcc is missing or the build fails, :func:`library` returns None and the models take their NumPy path:
the same results, slower. :func:`status` says which path is in use and why.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import platform
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from paperlib.emulation import build  # the package's one gcc wrapper (atomic, cached builds)
from paperlib.models import blocks

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "closed_forms.c"
CACHE = Path(os.environ.get("WEBPERF_KERNEL_CACHE", HERE.parent.parent / ".cache" / "kernels"))
#: No -ffast-math and no contraction into fused multiply-adds: the NumPy path's bits. -fno-trapping-math lets
#: gcc vectorise the comparisons of the range checks; -march=native lets it use the CPU's widest vectors.
FLAGS = ("-O3", "-march=native", "-ffp-contract=off", "-fno-trapping-math", "-fPIC", "-shared", "-Wall")

_disabled = False
_failure: str | None = None


def _cpu() -> str:
    """Return what identifies this CPU's instruction set: the flags line of /proc/cpuinfo, or the machine name."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return line
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}"


def target() -> Path:
    """Return the path of the shared object for this source, these flags and this CPU."""
    key = hashlib.sha256(SOURCE.read_bytes() + "\0".join(FLAGS).encode() + _cpu().encode()).hexdigest()[:16]
    return CACHE / f"closed_forms-{key}.so"


@functools.cache
def _load() -> ctypes.CDLL | None:
    global _failure
    path = target()
    try:
        if not path.exists():
            build.compile_into(SOURCE, path, FLAGS, ("-lm",))
        library = ctypes.CDLL(str(path))
    except (build.BuildError, OSError) as err:
        _failure = str(err).splitlines()[0]
        return None
    library.slow_start_latency.restype = ctypes.c_int
    library.mean_waiting_same.restype = ctypes.c_int
    return library


def library() -> ctypes.CDLL | None:
    """Return the compiled closed forms (built on first use), or None: then the models take their NumPy path."""
    return None if _disabled else _load()


def status() -> str:
    """Return which path the models take, and why: for ``make bench`` and for a user who wonders."""
    if _disabled:
        return "NumPy path (compiled path switched off by numpy_only())"
    if library() is None:
        return f"NumPy path (the compiled path could not be built: {_failure})"
    return f"compiled path ({target()})"


@contextlib.contextmanager
def numpy_only() -> Iterator[None]:
    """Within this block the models take their NumPy path (tests compare the two; ``make bench`` times both)."""
    global _disabled
    before, _disabled = _disabled, True
    try:
        yield
    finally:
        _disabled = before


def evaluate(kernel: str, operands: Sequence[np.ndarray], constants: Sequence[float] = ()) -> np.ndarray | None:
    """Return the compiled ``kernel`` over the broadcast float ``operands``, or None if a point fails its checks.

    The caller has a library (:func:`library` is not None) and converts its arguments with
    :func:`paperlib.validate.numbers`; on None it runs its full checks, which raise naming the parameter.
    ``constants`` are the kernel's double arguments after the operands (e.g. the tolerance of a log).
    """
    shape, flat = blocks.flat_operands(*operands)
    flat = [a if a.ndim == 0 else np.ascontiguousarray(a) for a in flat]  # (ascontiguousarray makes 0-d 1-d)
    out = np.empty(int(np.prod(shape)))
    pointers = (ctypes.c_void_p * len(flat))(*(a.ctypes.data for a in flat))
    is_scalar = (ctypes.c_int * len(flat))(*(a.ndim == 0 for a in flat))
    bad = getattr(library(), kernel)(
        ctypes.c_size_t(out.size), pointers, is_scalar, *(ctypes.c_double(c) for c in constants),
        ctypes.c_void_p(out.ctypes.data),
    )
    return None if bad else out.reshape(shape)
