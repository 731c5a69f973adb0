"""Paper 003's workloads from the printed class tables, and their exact moments against seeded samples."""

import pytest
from p003_helpers import CHOSEN

from paperlib.reproduce.p003 import workload


def test_workloads_follow_the_printed_tables(paper):
    w = workload.workloads(paper, size_kilo=1024, mega="1000 kB", within_class="uniform")
    assert w.original.class_probs == (0.35, 0.5, 0.14, 0.01)
    assert w.modified.class_probs == (0.2, 0.28, 0.40, 0.112, 0.008)
    # "100 kb" of the printed modified table is read as 100 kB (corrections.py)
    assert w.modified.base_bits[3] == pytest.approx(100 * 1024 * 8)
    # "1 MB" is 1000 kB of 1024 B under mega = "1000 kB"
    assert w.modified.base_bits[4] == pytest.approx(1000 * 1024 * 8)


def test_class_probability_reads_the_p_cell_and_names_a_bad_one():
    assert workload.class_probability("p = 0.35") == 0.35
    with pytest.raises(ValueError, match="'q = 1'"):
        workload.class_probability("q = 1")


def test_conv_workloads_takes_the_convention_or_another_reading(paper):
    assert workload.workload_keys(CHOSEN) == {"size_kilo": 1024, "mega": "1000 kB", "within_class": "uniform",
                                              "files_per_batch": 5}
    assert workload.conv_workloads(paper, CHOSEN).original.within_class == "uniform"
    assert workload.conv_workloads(paper, CHOSEN, "binomial").modified.within_class == "binomial"


def test_moment_table_is_seeded_and_the_samples_agree_with_the_exact_means(paper):
    a = workload.moment_table(paper, CHOSEN, 20_000, 7)
    assert a.equals(workload.moment_table(paper, CHOSEN, 20_000, 7))
    # 3 within-class readings x 2 workloads
    assert len(a) == 6 and list(a.columns) == ["workload", "within class", "exact mean (KiB)", "sample mean (KiB)",
                                               "z", "mean page (KiB)"]
    uniform = a[a["within class"] == "uniform"].set_index("workload")
    # uniform: the class midpoints; original 0.35 x 0.5 + 0.5 x 5 + 0.14 x 50 + 0.01 x 500 = 14.675 KiB,
    # modified page 5 x 117.5 = 587.5 KiB
    assert uniform.loc["SPECweb96", "exact mean (KiB)"] == pytest.approx(14.675)
    assert uniform.loc["modified SPECweb96", "mean page (KiB)"] == pytest.approx(587.5)
    assert (a["z"].abs() < 5).all()  # a correct sampler: |z| above 5 has probability below 1e-6
