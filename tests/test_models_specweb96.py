"""SPECweb96 workload: exact moments against large seeded samples, determinism, bad parameters."""

import math

import numpy as np
import pytest

from paperlib.models.specweb96 import WITHIN_CLASS, Workload, modified_page_classes, within_class_pmf
from paperlib.validate import ParameterError

KIB = 1024 * 8  # bits in a KiB
ORIG = dict(class_probs=(0.35, 0.5, 0.14, 0.01), base_bits=(0.1 * KIB, KIB, 10 * KIB, 100 * KIB))


def modified(within="uniform"):
    orig = ORIG["class_probs"]
    return Workload("mod", (0.2,) + tuple(0.8 * p for p in orig), (0.1 * KIB, KIB, 10 * KIB, 100 * KIB, 1000 * KIB),
                    within, files_per_page=5, page_classes=modified_page_classes(orig))


def test_reference_means():
    # Uniform within a class: class means 0.5, 5, 50, 500 KiB;
    # 0.35*0.5 + 0.5*5 + 0.14*50 + 0.01*500 = 0.175 + 2.5 + 7 + 5 = 14.675 KiB.
    w = Workload("orig", **ORIG)
    assert w.mean_file_size_bits() == pytest.approx(14.675 * KIB)
    # Modified page: index 0.5 KiB + 4 images of mean 0.35*5 + 0.5*50 + 0.14*500 + 0.01*5000 = 146.75 KiB
    # = 587.5 KiB a page, 117.5 KiB a file; 587.5 KiB * 8192 / 10 s = 481 280 bit/s.
    m = modified()
    assert m.mean_page_size_bits() == pytest.approx(587.5 * KIB)
    assert m.mean_file_size_bits() == pytest.approx(117.5 * KIB)
    assert m.load_per_user_bps(10.0) == pytest.approx(481_280.0)


def test_within_class_readings():
    assert np.allclose(within_class_pmf("uniform"), 1 / 9)
    j = np.arange(1, 10)
    assert within_class_pmf("binomial") @ j == pytest.approx(5.0)  # symmetric about file 5
    # Poisson(5) truncated to 1..9: the truncation pulls the mean below the midpoint
    assert within_class_pmf("truncated_poisson") @ j == pytest.approx(4.846, abs=1e-3)
    for kind in WITHIN_CLASS:
        assert within_class_pmf(kind).sum() == pytest.approx(1.0)


@pytest.mark.parametrize("within", WITHIN_CLASS)
def test_sample_moments_match_exact_moments(within):
    w = modified(within)
    rng = np.random.default_rng(20261122)
    files = w.sample_files_bits(400_000, rng)
    mean, second = w.mean_file_size_bits(), w.file_size_second_moment_bits2()
    sd = math.sqrt(second - mean**2)
    # the sample mean is within 5 standard errors of the exact mean
    assert abs(files.mean() - mean) < 5 * sd / math.sqrt(files.size)
    pages = w.sample_pages_bits(100_000, np.random.default_rng(7))
    assert pages.shape == (100_000, 5)
    page_sd = pages.sum(axis=1).std()
    assert abs(pages.sum(axis=1).mean() - w.mean_page_size_bits()) < 5 * page_sd / math.sqrt(100_000)
    # the first file of a modified page is always an index file (class 0: at most 0.9 KiB)
    assert pages[:, 0].max() <= 0.9 * KIB + 1e-9


def test_sampling_is_deterministic_per_seed():
    w = modified()
    a = w.sample_pages_bits(1000, np.random.default_rng(3))
    b = w.sample_pages_bits(1000, np.random.default_rng(3))
    c = w.sample_pages_bits(1000, np.random.default_rng(4))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(class_probs=(0.5, 0.6, 0.0, 0.0)), "class_probs must sum to 1"),
        (dict(class_probs=(-0.1, 0.6, 0.4, 0.1)), "class_probs"),
        (dict(base_bits=(100.0, -1.0, 10.0, 100.0)), "base_bits"),
        (dict(base_bits=(1.0, 2.0)), "base_bits has 2 classes"),
        (dict(within_class="gaussian"), "within_class"),
        (dict(files_per_page=0), "files_per_page"),
    ],
)
def test_bad_workload_parameters_are_named(kwargs, name):
    with pytest.raises(ParameterError, match=name):
        Workload("bad", **{**ORIG, **kwargs})


def test_page_classes_must_average_to_the_mix():
    with pytest.raises(ParameterError, match="page_classes must average"):
        Workload("bad", **ORIG, files_per_page=2, page_classes=((1, 0, 0, 0), (1, 0, 0, 0)))
