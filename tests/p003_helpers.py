"""Paper 003's chosen convention, written out so that tests need not rerun the 6 912-combination search.

tests/test_reproduce_p003_operating_point.py checks that the search chooses exactly this convention.
"""

import functools

from paperlib.reproduce.p003.operating_point import Convention

CHOSEN = Convention(size_kilo=1024, mega="1000 kB", report_kilo=1000, within_class="uniform", files_per_batch=5,
                    header_stack="tcp+ip+llc/snap+aal5", framing="sonet_oc3", f_line_rate="oc3_line",
                    round_intermediate=True, rounding="half_up")


@functools.cache
def convention_search():
    """Return paper 003's convention search, computed once per test session for every 003 test module."""
    from paperlib.data import load_paper
    from paperlib.reproduce.p003 import operating_point

    return operating_point.convention_search(load_paper("003"))
