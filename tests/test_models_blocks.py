"""Blocks and flat operands (paperlib.models.blocks)."""

import numpy as np
from hypothesis import given, strategies

from paperlib.models import blocks


def test_flat_operands_broadcast_and_keep_single_values():
    a = np.arange(6.0).reshape(2, 3)
    b = np.array([10.0, 20.0, 30.0])  # broadcast along the rows: copied once, flat
    shape, flat = blocks.flat_operands(a, b, np.array([7.0]))
    assert shape == (2, 3)
    assert np.array_equal(flat[0], np.arange(6.0)) and np.shares_memory(flat[0], a)  # a view, not a copy
    assert np.array_equal(flat[1], np.tile(b, 2))
    assert flat[2].ndim == 0 and flat[2] == 7.0  # one element: a single value for every point


@given(strategies.integers(1, 200), strategies.integers(1, 50))
def test_slices_cover_the_range_once_in_order(size, block):
    covered = [i for s in blocks.slices(size, block) for i in range(s.start, s.stop)]
    assert covered == list(range(size))
    assert all(s.stop - s.start <= block for s in blocks.slices(size, block))


def test_concatenated_joins_the_blocks_outputs():
    x = np.arange(10.0)
    got = blocks.concatenated(lambda v: (v * 2, v + 1), [x], block=3)
    assert np.array_equal(got[0], x * 2) and np.array_equal(got[1], x + 1)
