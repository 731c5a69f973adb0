"""Every script `make bench` runs, run at a tiny size: it exits 0 and prints its result lines (so none can rot).

The scripts are those the Makefile's bench recipe lists (``make -n bench``); each has its tiny arguments in
tests/bench_tiny.py, and a script added to the recipe without them fails the first test. The model and explorer
scripts take a few seconds each; the ns-3 ones import ns-3 and compile its C++ in every process they start
(bench_testbed starts five: itself, a fresh process and the workers of a 1- and a 2-worker cluster), so they are
marked slow. The scripts that time real stacks on the wall clock (bench_emulation, bench_fidelity) run in
tests/test_bench_emulated.py, alone under pytest -n.
"""
import shutil

import pytest
from bench_tiny import EMULATED, TINY, bench_scripts, run_tiny


@pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")
def test_every_script_make_bench_runs_has_a_tiny_run_here():
    scripts = bench_scripts()
    assert scripts  # the recipe lists them
    assert sorted(scripts) == sorted(TINY)


@pytest.mark.parametrize("script", [pytest.param(name, marks=marks) for name, (_, _, marks) in TINY.items()
                                    if marks is not EMULATED])
def test_a_bench_script_runs_at_a_tiny_size_and_prints_its_results(script, tmp_path):
    run_tiny(script, tmp_path)
