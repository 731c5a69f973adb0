"""Evaluate an elementwise formula block by block, so that its intermediate buffers stay in cache.

A vectorised closed form (seed 004's Eq. (5), seed 000's Eq. (4)) is a chain of elementwise NumPy
operations. On 10^6 points every operation is a pass over 8 MB, which the core streams from
memory: the formula costs its number of passes, not its arithmetic. Run on blocks of
:data:`BLOCK` elements (256 KiB per buffer, in a core's L2 or the shared L3 cache), the same operations in
the same order give the same bits while reading their operands from cache; ``make bench``
measures the result against a compiled floor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

#: Elements per block: 2^15 doubles = 256 KiB per buffer (the fastest of 2^12..2^16 measured for Eq. (5) and Eq. (4)).
BLOCK = 1 << 15
#: Elements per super-block: the operands of one super-block are range-checked first (which pulls them into
#: cache), then computed block by block, so each operand is read from memory once.
SUPER_BLOCK = 1 << 17


def flat_operands(*arrays: np.ndarray) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """Return the broadcast shape and each array as a 1-D view of that many elements, or a 0-d scalar.

    An array of one element becomes a 0-d array (it broadcasts against every block); an array of
    the full shape becomes a flat view (a copy only if it is not contiguous); any other shape is
    broadcast and copied.
    """
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    flat = []
    for a in arrays:
        if a.size == 1:
            flat.append(a.reshape(()))
        elif a.shape == shape:
            flat.append(a.reshape(-1))
        else:
            flat.append(np.broadcast_to(a, shape).reshape(-1))
    return shape, flat


def slices(size: int, block: int | None = None) -> Iterator[slice]:
    """Yield the slices of consecutive blocks of at most ``block`` (default :data:`BLOCK`) elements covering
    ``range(size)``."""
    block = block or BLOCK
    for start in range(0, size, block):
        yield slice(start, min(start + block, size))


def part(a: np.ndarray, where: slice) -> np.ndarray:
    """Return the block ``where`` of a flat operand (a 0-d operand is returned as it is)."""
    return a if a.ndim == 0 else a[where]


def evaluate(kernel: Callable, operands, scratch: int, admissible: Callable | None = None) -> np.ndarray | None:
    """Return ``kernel`` evaluated block by block over the broadcast ``operands``, or None if a block is inadmissible.

    ``kernel(*operand_blocks, out, *scratch_buffers)`` writes one block of the result into ``out``;
    ``scratch`` buffers of the block's length are reused from block to block. ``admissible(*operand_blocks)``
    (for a super-block of :data:`SUPER_BLOCK` elements, before any of its blocks is computed) returns False to
    stop: the caller then runs its full argument checks, which raise naming the parameter.
    """
    shape, flat = flat_operands(*operands)
    size = int(np.prod(shape))
    out = np.empty(size)
    buffers = [np.empty(min(size, BLOCK)) for _ in range(scratch)]
    for outer in slices(size, SUPER_BLOCK):
        if admissible is not None and not admissible(*(part(a, outer) for a in flat)):
            return None
        for inner in slices(outer.stop - outer.start):
            where = slice(outer.start + inner.start, outer.start + inner.stop)
            k = inner.stop - inner.start
            kernel(*(part(a, where) for a in flat), out[where], *(b[:k] for b in buffers))
    return out.reshape(shape)


_ZEROS = np.zeros(BLOCK)
_ZEROS.flags.writeable = False
_ONES = np.ones(BLOCK)
_ONES.flags.writeable = False


def zeros_like_block(block: np.ndarray) -> np.ndarray:
    """Return read-only zeros of ``block``'s length: ``np.maximum(a, zeros)`` is SIMD, ``np.maximum(a, 0.0)`` is not."""
    return _ZEROS[: block.shape[0]] if block.ndim and block.shape[0] <= _ZEROS.shape[0] else np.zeros(block.shape)


def ones_like_block(block: np.ndarray) -> np.ndarray:
    """Return read-only ones of ``block``'s length (``np.ldexp(ones, k)`` is SIMD, ``np.ldexp(1.0, k)`` is not)."""
    return _ONES[: block.shape[0]] if block.ndim and block.shape[0] <= _ONES.shape[0] else np.ones(block.shape)


def concatenated(fn: Callable, arrays, block: int | None = None) -> tuple[np.ndarray, ...]:
    """Return ``fn(*blocks_of_arrays)`` over consecutive blocks of the equal-length 1-D ``arrays``, each output joined.

    For a per-point algorithm whose vectorised steps allocate temporaries of the arrays' length (seed 002's
    loop over losses): on blocks they stay in cache, and a block stops after its own points' last step.
    ``fn`` returns a tuple of 1-D arrays of its blocks' length.
    """
    size = len(arrays[0])
    parts = [fn(*(a[where] for a in arrays)) for where in slices(size, block)]
    return tuple(np.concatenate(column) for column in zip(*parts))
