"""The shared moment check (paperlib.moments): a seeded sample's mean against the model's exact mean."""

import numpy as np
import pytest
from hypothesis import given, strategies

from paperlib.moments import mean_check, mean_check_columns


def test_reference_points():
    # sample 0, 2, 4, 6: mean 3; sd (ddof 0) = sqrt((9 + 1 + 1 + 9) / 4) = sqrt(5); se = sqrt(5) / 2 = 1.118
    # z = (3 - 2) / 1.118 = 0.8944
    c = mean_check([0.0, 2.0, 4.0, 6.0], 2.0)
    assert (c.sample_mean, c.n) == (3.0, 4)
    assert c.standard_error == pytest.approx(np.sqrt(5) / 2)
    assert c.z == pytest.approx(2 / np.sqrt(5))
    # with the exact sd 2: se = 2 / sqrt(4) = 1, z = (3 - 2) / 1 = 1
    assert mean_check([0.0, 2.0, 4.0, 6.0], 2.0, exact_sd=2.0).z == pytest.approx(1.0)


def test_columns_name_the_unit():
    c = mean_check([1.0, 3.0], 2.0)
    # mean 2 = exact: z = 0
    assert mean_check_columns(c, "KiB") == {"exact mean (KiB)": 2.0, "sample mean (KiB)": 2.0, "z": 0.0}
    assert list(mean_check_columns(c)) == ["exact mean", "sample mean", "z"]


def test_a_correct_sampler_is_within_a_few_standard_errors_and_a_wrong_mean_is_not():
    x = np.random.default_rng(1).exponential(2.0, 100_000)
    assert mean_check(x, 2.0, exact_sd=2.0).within(4)
    # a 5% wrong mean: z = 0.1 / (2 / sqrt(1e5)) = 15.8
    assert not mean_check(x, 2.1, exact_sd=2.0).within(4)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="at least two values"):
        mean_check([1.0], 1.0)
    with pytest.raises(ValueError, match="exact_sd"):
        mean_check([1.0, 2.0], 1.0, exact_sd=0.0)


@given(strategies.lists(strategies.floats(-1e3, 1e3), min_size=2, max_size=50).filter(lambda v: np.std(v) > 1e-3),
       strategies.floats(-1e3, 1e3), strategies.floats(-1e3, 1e3))
def test_z_is_shift_invariant_and_signed(values, exact, shift):
    a = mean_check(values, exact)
    b = mean_check(np.asarray(values) + shift, exact + shift)
    assert b.z == pytest.approx(a.z, rel=1e-6, abs=1e-6)
    assert np.sign(a.z) == np.sign(a.sample_mean - exact) or a.z == pytest.approx(0, abs=1e-9)
