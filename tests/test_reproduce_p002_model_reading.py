"""Paper 002's model calls: the convention's switches reach the model, and only through this module."""

import pytest
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.reproduce.p002 import model_reading

# 13.5 KB of 1024 B = 110 592 bit, MSS 536 B = 4288 bit, 40 kbit/s, RTT 0.256 s
POINT = dict(obj_bits=110_592.0, mss_bits=4288.0, rate_bps=40e3, rtt_s=0.256)


def test_loss_free_response_time_by_hand():
    # p = 0: OT = SC + O/R. O/R = 110 592 / 40 000 = 2.7648 s; MSS/R = 0.1072 s; stalls Q = floor(log2(1 +
    # RTT R/MSS)) + 1 = floor(log2(3.388)) + 1 = 2, K = log2(N + 1) = log2(26.79) = 4.74, P = min(Q, K - 1) = 2;
    # SC = P (MSS/R + RTT) - (2^P - 1) MSS/R = 2 x 0.3632 - 3 x 0.1072 = 0.4048 s, so OT = 3.1696 s and
    # TCP = SCTP = IT + M (RTT + OT) = 0.512 + 5 x 3.4256 = 17.640 s
    frame = model_reading.response_times({**POINT, "p": 0.0, "it_s": 0.512, "objects": 5}, CONV)
    assert frame["ot_s"].iloc[0] == pytest.approx(3.1696)
    assert frame["tcp_s"].iloc[0] == pytest.approx(17.640) and frame["sctp_s"].iloc[0] == pytest.approx(17.640)


def test_the_conventions_switches_reach_the_grid():
    pt = {**POINT, "p": 0.01, "it_s": 0.512, "objects": 5}
    got = model_reading.response_times(pt, CONV)
    # one loss per object (a = ceil(25.8 x 0.01) = 1), HOB = MSS/R = 0.1072 s: TCP - SCTP = M x HOB = 0.536 s
    assert got["tcp_s"].iloc[0] - got["sctp_s"].iloc[0] == pytest.approx(0.536)
    ot = got["ot_s"].iloc[0]
    # PI = 5 = M: TCP = IT + RTT + OT instead of IT + M (RTT + OT)
    piped = model_reading.response_times(pt, CONV.replace(pipeline_depth=5))
    assert piped["tcp_s"].iloc[0] == pytest.approx(0.512 + 0.256 + ot)
    # Table I's SCTP row as printed: IT + RTT + OT - tot_hob (one object)
    printed = model_reading.response_times(pt, CONV.replace(sctp_total="printed"))
    assert printed["sctp_s"].iloc[0] == pytest.approx(0.512 + 0.256 + ot - 0.1072)
    # the last chunk counted as x + 1 packets (x = N there) costs one packet more than N: MSS/R = 0.1072 s
    plus_one = model_reading.response_times(pt, CONV.replace(final_chunk="x+1"))
    assert plus_one["ot_s"].iloc[0] - ot == pytest.approx(0.1072)


def test_object_transfer_time_uses_the_convention_or_the_models_defaults():
    args = (POINT["obj_bits"], POINT["mss_bits"], POINT["rate_bps"], POINT["rtt_s"], 0.01)
    with_conv = model_reading.object_transfer_time(*args, CONV)
    # one loss (a = ceil(25.8 x 0.01) = 1) whose HOB is one packet: MSS/R = 0.1072 s; the same OT as the grid
    assert (with_conv.losses, with_conv.tot_hob_s) == (1, pytest.approx(0.1072))
    grid = model_reading.response_times({**POINT, "p": 0.01, "it_s": 0.512, "objects": 5}, CONV)
    assert with_conv.ot_s == pytest.approx(grid["ot_s"].iloc[0])
    # the model's default last chunk is "x+1" (CONV reads "N"): one packet, 0.1072 s, more
    assert model_reading.object_transfer_time(*args).ot_s - with_conv.ot_s == pytest.approx(0.1072)


def test_a_bad_switch_is_named():
    from paperlib.validate import ParameterError

    with pytest.raises(ParameterError, match="log_mode"):
        model_reading.response_times({**POINT, "p": 0.01}, CONV.replace(log_mode="floor"))
