"""Split elementwise work over large arrays into blocks, and flatten broadcast operands.

Paper 002's algorithm and paper 000's Eq. (2) run per-point loops whose vectorised steps allocate temporaries
of the arrays' length: on blocks of :data:`BLOCK` elements (256 KiB per buffer) they stay in cache
(:func:`concatenated`). :func:`flat_operands` gives each broadcast operand as a flat array or a single
value, as the compiled closed forms take them (:mod:`paperlib.models.compiled`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

#: Elements per block: 2^15 doubles = 256 KiB per buffer.
BLOCK = 1 << 15


def flat_operands(*arrays: np.ndarray) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """Return the broadcast shape and each array as a 1-D view of that many elements, or a 0-d scalar.

    An array of one element becomes a 0-d array (one value for every point); an array of the full
    shape becomes a flat view (a copy only if it is not contiguous); any other shape is broadcast and
    copied.
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


def concatenated(fn: Callable, arrays, block: int | None = None) -> tuple[np.ndarray, ...]:
    """Return ``fn(*blocks_of_arrays)`` over consecutive blocks of the equal-length 1-D ``arrays``, each output joined.

    For a per-point algorithm whose vectorised steps allocate temporaries of the arrays' length (paper 002's
    loop over losses): on blocks they stay in cache, and a block stops after its own points' last step.
    ``fn`` returns a tuple of 1-D arrays of its blocks' length.
    """
    size = len(arrays[0])
    parts = [fn(*(a[where] for a in arrays)) for where in slices(size, block)]
    return tuple(np.concatenate(column) for column in zip(*parts, strict=True))
