"""The `make bench` scripts that time real stacks on the wall clock, at a tiny size (tests/bench_tiny.py): marked
``exclusive`` (alone under pytest -n) and skipped without root, TUN and network namespaces, as the emulation tests
are. Kept apart from tests/test_bench.py so that its long ns-3 benches run beside other tests, not while an
exclusive test waits for them.
"""

import pytest
from bench_tiny import EMULATED, TINY, run_tiny


@pytest.mark.parametrize("script", [pytest.param(name, marks=marks) for name, (_, _, marks) in TINY.items()
                                    if marks is EMULATED])
def test_a_bench_script_that_times_real_stacks_runs_at_a_tiny_size(script, tmp_path):
    run_tiny(script, tmp_path)
