"""Paper 000's model under one convention: the switches a convention sets, and the timeout."""

import numpy as np
import pytest

from paperlib.models import narrowband_response
from paperlib.models.reading import READING_000
from paperlib.reproduce.p000 import model
from paperlib.reproduce.p000.operating_point import Convention
from paperlib.validate import ParameterError

CONV = Convention(waiting="eq4", kilo=1000, n_mode="exact", log_mode="continuous", timeout="1 rtt", setup_rtts=0,
                  final_chunk="N", rounding="half_up")


def test_timeout_of_each_convention():
    # 1.5 rtt and 1 rtt scale with rtt; 1 s does not
    assert model.timeout_s("1.5 rtt", [0.1, 0.2]) == pytest.approx([0.15, 0.3])
    assert model.timeout_s("1 rtt", 0.256) == pytest.approx(0.256)
    assert model.timeout_s("1 s", [0.1, 0.2]) == pytest.approx([1.0, 1.0])
    with pytest.raises(ParameterError, match="timeout"):
        model.timeout_s("2 rtt", 0.1)


def test_switches_are_the_conventions_model_keys_only():
    switches = model.model_switches(CONV)
    assert set(switches) == {"setup_rtts", "reading"} and switches["setup_rtts"] == 0
    # the convention's three model switches replace paper 000's defaults; everything else stays READING_000's
    assert switches["reading"] == READING_000.with_changes(n_mode="exact", log_mode="continuous", final_chunk="N")
    assert model.model_switches(CONV, a_mode="round")["reading"].a_mode == "round"


def test_response_time_is_eq2_with_the_conventions_switches_and_timeout():
    # Table 1, p = 1 %: 13 500 B, 536 B, 40 kbit/s, 0.256 s; E(T_sctp) = 3.57877 s (test_models_narrowband_response)
    e = float(model.response_time_s(108_000, 4288, 40e3, 0.256, 0.01, narrowband_response.SCTP_INITIAL_WINDOW, CONV))
    assert e == pytest.approx(3.57877, abs=1e-4)
    reading = READING_000.with_changes(n_mode="exact", log_mode="continuous", final_chunk="N")
    direct = float(narrowband_response.response_time_s(108_000, 4288, 40e3, 0.256, 0.01,
                                                       narrowband_response.SCTP_INITIAL_WINDOW, timeout_s=0.256,
                                                       setup_rtts=0, reading=reading))
    assert e == direct
    trace = model.response_time_trace(108_000, 4288, 40e3, 0.256, 0.01, narrowband_response.SCTP_INITIAL_WINDOW, CONV)
    assert trace.response_s == pytest.approx(e) and trace.losses == 1
    # an override replaces a switch: a 1 s timeout instead of 1 rtt lengthens the one timeout by 0.744 s
    longer = float(model.response_time_s(108_000, 4288, 40e3, 0.256, 0.01, narrowband_response.SCTP_INITIAL_WINDOW,
                                         CONV.replace(timeout="1 s")))
    assert longer == pytest.approx(e + 0.744, abs=1e-9)


def test_packets_and_losses():
    # n = 108 000 / 4288 = 25.1866 (exact) or 26 (ceil); alpha = ceil(25.19 x 0.01) = 1, round(0.2519) = 0
    n, alpha = model.packets_and_losses(108_000, 4288, np.array([0.01, 0.05]), CONV)
    assert float(n) == pytest.approx(25.1866, abs=1e-4) and alpha.tolist() == [1, 2]
    n, alpha = model.packets_and_losses(108_000, 4288, np.array([0.01]), CONV, n_mode="ceil", a_mode="round")
    assert float(n) == 26 and alpha.tolist() == [0]
