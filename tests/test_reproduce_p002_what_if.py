"""Paper 002's notebook parameters checked and the what-if curve of response time against p."""

import pytest
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.parameters import Parameters
from paperlib.reproduce.p002 import what_if
from paperlib.validate import ParameterError


def test_the_defaults_pass_and_none_is_kept():
    checked = what_if.check()
    assert isinstance(checked, Parameters)
    # every parameter check takes, at its default; the what-if values None (the paper's point)
    assert dict(checked) == {"repetitions": 30, "run_simulation": True, "scheduler": None, "n_workers": None,
                             "seed": 0, "obj_size_bytes": None, "rate_bps": None, "rtt_s": None}
    assert what_if.check(rtt_s=0.1, rate_bps=1e5)["rtt_s"] == 0.1


@pytest.mark.parametrize("name, value", [("repetitions", 0), ("repetitions", 2.5), ("seed", -1), ("n_workers", 0),
                                         ("run_simulation", "yes"), ("rtt_s", 0), ("rate_bps", -1.0),
                                         ("rtt_s", [0.1, 0.2]), ("obj_size_bytes", float("nan"))])
def test_a_bad_parameter_is_named(name, value):
    with pytest.raises(ParameterError, match=name):
        what_if.check(**{name: value})


def test_the_cost_bound_on_the_object_size():
    # the loss loop runs a = N p times, p up to 5 %, N = O / 536 B: at most MAX_LOSSES = 100 000 losses, so
    # O <= 100 000 x 536 / 0.05 = 1.072e9 B
    assert what_if.check(obj_size_bytes=1.072e9)["obj_size_bytes"] == 1.072e9
    with pytest.raises(ParameterError, match="obj_size_bytes: .* above the limit"):
        what_if.check(obj_size_bytes=1.073e9)


def test_response_vs_p_at_the_papers_point(paper):
    curve = what_if.response_vs_p(paper, CONV)
    assert len(curve) == 51 and curve["p"].iloc[-1] == 0.05
    # 13.5 KB x 1024 x 8 = 110 592 bit, 40 kbit/s, RTT 0.256 s, IT = 2 RTT
    first = curve.iloc[0]
    assert (first["obj_bits"], first["rate_bps"], first["rtt_s"], first["it_s"]) == (110_592.0, 40e3, 0.256, 0.512)
    # p = 0: TCP = SCTP = IT + M (RTT + SC + O/R) = 0.512 + 5 x (0.256 + 0.4048 + 2.7648) = 17.640 s
    assert first["tcp_s"] == pytest.approx(17.640) and first["sctp_s"] == pytest.approx(17.640)
    # a = ceil(25.8 p): 1 up to p = 1/25.8 = 3.9 %, then 2; TCP - SCTP = M a MSS/R = 0.536 s, then 1.072 s
    gap = (curve["tcp_s"] - curve["sctp_s"]).to_numpy()
    assert gap[1:39] == pytest.approx([0.536] * 38) and gap[39:] == pytest.approx([1.072] * 12)


def test_response_vs_p_follows_the_parameters(paper):
    curve = what_if.response_vs_p(paper, CONV, obj_size_bytes=20_000, rate_bps=1e5, rtt_s=0.1)
    first = curve.iloc[0]
    assert (first["obj_bits"], first["rate_bps"], first["rtt_s"], first["it_s"]) == (160_000, 1e5, 0.1, 0.2)
    assert first["mss_bits"] == 4288.0  # the paper's MSS whatever the parameters
