"""Evaluate an elementwise formula block by block, so that its intermediate buffers stay in cache.

A vectorised closed form (seed 004's Eq. (5), seed 000's Eq. (4)) is a chain of elementwise NumPy
operations. On 10^6 points every operation is a pass over 8 MB, which the core streams from
memory: the formula costs its number of passes, not its arithmetic. Run on blocks of
:data:`BLOCK` elements (128 KiB per buffer, inside a core's L2 cache), the same operations in
the same order give the same bits while reading their operands from cache; ``make bench``
measures the result against a compiled floor.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

#: Elements per block: 2^14 doubles = 128 KiB per buffer, so six or so buffers fit in a core's L2 (1 MiB here).
BLOCK = 1 << 14


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
