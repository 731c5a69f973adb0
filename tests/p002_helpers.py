"""Paper 002's chosen convention, written out so that tests need not rerun the convention search.

tests/test_reproduce_p002_operating_point.py checks that the search chooses exactly this convention.
"""

from paperlib.reproduce.p002.operating_point import Convention

CHOSEN = Convention(kilo=1024, log_mode="continuous", sctp_total="times_M", pipeline_depth=1, it_rtts=2,
                    final_chunk="N", a_mode="ceil", n_mode="exact", post_loss_slow_start=False, rounding="half_up")
