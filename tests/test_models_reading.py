"""The one switches object of papers 002 and 000 (paperlib.models.reading)."""

import math

import pytest

from paperlib.models import http_response_time, narrowband_response
from paperlib.models.reading import READING_000, READING_002, SWITCHES, ModelReading
from paperlib.validate import ParameterError

O, MSS, R, RTT = 13_500 * 8, 536 * 8, 40e3, 0.256


def test_each_paper_keeps_its_documented_defaults():
    # paper 002 as printed: N = O/MSS unrounded, last chunk x + 1, fast retransmit (no new slow start)
    assert (READING_002.n_mode, READING_002.final_chunk, READING_002.post_loss_slow_start) == ("exact", "x+1", False)
    # paper 000: n = ceil(theta/mtu) (Algorithm 1 line 02), R sends N packets, slow start after every timeout
    assert (READING_000.n_mode, READING_000.final_chunk, READING_000.post_loss_slow_start) == ("ceil", "N", True)
    for r in (READING_000, READING_002):
        assert (r.log_mode, r.a_mode, r.initial_threshold, r.sctp_total) == ("continuous", "ceil", math.inf, "times_M")


@pytest.mark.parametrize(
    "name, bad",
    [
        ("log_mode", "floor"),
        ("a_mode", "floor"),
        ("n_mode", "round"),
        ("final_chunk", "x"),
        ("hob_in_ca", "half"),
        ("post_loss_slow_start", "yes"),
        ("initial_threshold", 0.0),
        ("initial_threshold", [4.0, 8.0]),
        ("sctp_total", "per_object"),
    ],
)
def test_a_bad_switch_is_named(name, bad):
    with pytest.raises(ParameterError, match=name):
        ModelReading(**{name: bad})
    with pytest.raises(ParameterError, match=name):
        READING_002.with_changes(**{name: bad})


def test_unknown_switch_and_wrong_type_are_named():
    with pytest.raises(ParameterError, match="unknown model switch.*'lg_mode'"):
        READING_002.with_changes(lg_mode="ceil")
    with pytest.raises(ParameterError, match="reading"):
        http_response_time.response_time_tcp_s(O, MSS, R, RTT, 0.01, reading={"log_mode": "ceil"})


def test_conventions_set_only_the_switches_they_name():
    conv = {"kilo": 1000, "it_rtts": 2, "log_mode": "ceil", "post_loss_slow_start": True}
    r = READING_002.with_conventions(conv)
    assert (r.log_mode, r.post_loss_slow_start, r.n_mode) == ("ceil", True, "exact")
    assert set(SWITCHES) >= {"log_mode", "a_mode", "n_mode", "final_chunk", "hob_in_ca", "post_loss_slow_start"}


def test_each_model_accepts_only_its_papers_names():
    # 002 calls the last step "x+1" / "N", 000 calls R "N" / "N+1"; a threshold is 002's only (000: th(1) = inf)
    with pytest.raises(ParameterError, match="final_chunk.*paper 002"):
        http_response_time.object_transfer_time(
            O, MSS, R, RTT, 0.01, reading=READING_002.with_changes(final_chunk="N+1")
        )
    with pytest.raises(ParameterError, match=r"final_chunk.*\b000\b"):
        narrowband_response.response_time_s(
            O, MSS, R, RTT, 0.01, 2, reading=READING_000.with_changes(final_chunk="x+1")
        )
    with pytest.raises(ParameterError, match="initial_threshold"):
        narrowband_response.response_time_s(
            O, MSS, R, RTT, 0.01, 2, reading=READING_000.with_changes(initial_threshold=8)
        )


def test_002s_x_plus_1_is_000s_n_plus_1_at_p_0():
    # With p = 0 both papers send all N packets in one slow start from one packet: 002's OT with its last chunk
    # "x+1" (x = N) is 000's E(T) from window 1 with R = N + 1 packets, when both read N and the log the same way.
    same = dict(n_mode="ceil", log_mode="ceil")
    ot = http_response_time.object_transfer_time(O, MSS, R, RTT, 0.0, reading=READING_002.with_changes(**same)).ot_s
    e = float(
        narrowband_response.response_time_s(
            O, MSS, R, RTT, 0.0, 1, reading=READING_000.with_changes(final_chunk="N+1", **same)
        )
    )
    assert e == pytest.approx(ot, rel=1e-12)
