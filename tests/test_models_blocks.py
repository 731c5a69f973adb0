"""Block-by-block evaluation of elementwise formulas (paperlib.models.blocks): same bits as one pass."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib.models import blocks


def _kernel(a, b, out, tmp):
    # out = a * b + a, through one scratch buffer, in place (as the models' kernels work)
    np.multiply(a, b, out=tmp)
    np.add(tmp, a, out=out)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3 * blocks.SUPER_BLOCK // 2), st.booleans())
def test_blocks_give_the_bits_of_one_pass(size, scalar_b):
    rng = np.random.default_rng(size)
    a = rng.random(size)
    b = np.array(2.5) if scalar_b else rng.random(size)
    got = blocks.evaluate(_kernel, (a, b), scratch=1)
    assert got.shape == (size,) and np.array_equal(got, a * b + a)


def test_broadcasting_and_shape():
    a = np.arange(6.0).reshape(2, 3)
    b = np.array([10.0, 20.0, 30.0])  # broadcast along the rows (copied once)
    got = blocks.evaluate(_kernel, (a, b), scratch=1)
    assert got.shape == (2, 3) and np.array_equal(got, a * b + a)
    shape, flat = blocks.flat_operands(a, b, np.array([7.0]))
    assert shape == (2, 3) and [f.shape for f in flat] == [(6,), (6,), ()]


def test_an_inadmissible_super_block_stops_the_evaluation():
    a = np.ones(blocks.SUPER_BLOCK + 5)
    a[-1] = -1.0  # only the second super-block is inadmissible
    seen = []

    def admissible(x, y):
        seen.append(len(x))
        return bool((x >= 0).all())

    assert blocks.evaluate(_kernel, (a, np.array(1.0)), scratch=1, admissible=admissible) is None
    assert seen == [blocks.SUPER_BLOCK, 5]


@given(st.integers(0, 10_000), st.integers(1, 4096))
def test_slices_cover_the_range_once_in_order(size, block):
    covered = [i for s in blocks.slices(size, block) for i in range(s.start, s.stop)]
    assert covered == list(range(size))
    assert all(s.stop - s.start <= block for s in blocks.slices(size, block))


def test_zeros_and_ones_are_read_only_and_sized():
    z = blocks.zeros_like_block(np.empty(10))
    o = blocks.ones_like_block(np.empty(blocks.BLOCK + 1))  # longer than the shared block: a fresh array
    assert z.shape == (10,) and not z.any() and not z.flags.writeable
    assert o.shape == (blocks.BLOCK + 1,) and (o == 1).all()
    with pytest.raises(ValueError):
        z[0] = 1.0


def test_concatenated_joins_the_blocks_outputs():
    x = np.arange(10.0)
    got = blocks.concatenated(lambda v: (v * 2, v + 1), [x], block=3)
    assert np.array_equal(got[0], x * 2) and np.array_equal(got[1], x + 1)
