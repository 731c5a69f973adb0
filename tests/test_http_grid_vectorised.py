"""Seed 002's grid evaluator (one vectorised loop over all points) equals the scalar algorithm point by point."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from paperlib.models import http_response_time as m
from paperlib.models.reading import ModelReading

switches = st.fixed_dictionaries({
    "log_mode": st.sampled_from(m.LOG_MODES), "a_mode": st.sampled_from(m.A_MODES),
    "n_mode": st.sampled_from(m.N_MODES), "final_chunk": st.sampled_from(m.FINAL_CHUNKS),
    "hob_in_ca": st.sampled_from(m.HOB_IN_CA), "post_loss_slow_start": st.booleans(),
    "initial_threshold": st.sampled_from([np.inf, 4.0, 8.0, 64.0]),
})
points = st.lists(st.tuples(st.floats(1e3, 1e6), st.floats(1e2, 1.2e4), st.floats(1e4, 1e8), st.floats(0.0, 1.0),
                            st.floats(0.0, 0.3)), min_size=1, max_size=8)


@given(points, switches)
def test_grid_equals_the_scalar_loop(pts, sw):
    obj, mss, rate, rtt, p = (np.array(c) for c in zip(*pts))
    reading = ModelReading(**sw)
    grid = m.response_times_grid({"obj_bits": obj, "mss_bits": mss, "rate_bps": rate, "rtt_s": rtt, "p": p},
                                 reading=reading)
    for k in range(len(pts)):
        one = m.object_transfer_time(obj[k], mss[k], rate[k], rtt[k], p[k], reading=reading)
        assert grid["losses"].iloc[k] == one.losses
        # same operations in the same order; numpy's and math's log2/expm1 may differ in the last bits
        assert np.isclose(grid["ot_s"].iloc[k], one.ot_s, rtol=1e-12, atol=0)
        assert np.isclose(grid["tot_hob_s"].iloc[k], one.tot_hob_s, rtol=1e-12, atol=1e-15)
