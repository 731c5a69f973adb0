"""Paper 000's notebook parameters: checked by name, and W against m at the what-if point."""

import pytest

from paperlib.parameters import Parameters
from paperlib.reproduce.p000 import operating_point, what_if
from paperlib.validate import ParameterError


def test_what_if_parameters_are_named(paper):
    conv = operating_point.chosen_convention(paper)
    w = what_if.what_if(paper, conv)
    assert (w.rate_bps, w.rtt_s, w.p, w.obj_bits) == (40e3, 0.256, 0.01, 108_000)
    users = what_if.waiting_vs_users(what_if.what_if(paper, conv, m_values=[1, 2, 4]), conv)
    # one user waits for nobody: W = 0 by both laws
    assert (users[users.m == 1][["W Eq. (4) (s)", "W tabulated law (s)"]] == 0).all().all()
    for kwargs, name in (({"m_values": [0, 5]}, "m_values"), ({"p": 1.5}, "p"), ({"rtt_s": -1}, "rtt_s"),
                         ({"mtu_bytes": [1, 2]}, "mtu_bytes"), ({"ns3_replications": -1}, "ns3_replications"),
                         ({"ns3_replications": 1.5}, "ns3_replications")):
        with pytest.raises(ParameterError, match=name):
            what_if.check(**kwargs)
    # ns3_replications is checked, not returned; 0 (no ns-3) is allowed
    assert "ns3_replications" not in what_if.check(ns3_replications=0)


def test_check_returns_the_values_as_parameters():
    checked = what_if.check(m_values=[2, 4], p=0.05)
    assert isinstance(checked, Parameters)
    # every what-if value, None where not given (the paper's value); m_values as an array of whole numbers
    assert list(checked) == ["m_values", "p", "rtt_s", "rate_bps", "obj_size_bytes", "mtu_bytes"]
    assert checked["m_values"].tolist() == [2, 4] and checked["p"] == 0.05 and checked["rtt_s"] is None


def test_waiting_vs_users_by_hand(paper):
    conv = operating_point.chosen_convention(paper)
    users = what_if.waiting_vs_users(what_if.what_if(paper, conv, m_values=[5]), conv).set_index("protocol")
    # SCTP at Table 1's p = 1 %: E = 3.57877 s, n = ceil(13 500/536) = 26, tau = E/26 = 0.137645 s; Eq. (4) at
    # m = 5: (5-1)(2 x 26 - 1) tau / 2 = 102 tau = 14.0398 s; Eq. (6): (2 x 5 x 26 - 5 + 1) tau / 2 = 128 tau
    e, n = 3.57877, 26
    tau = e / n
    assert users.loc["sctp", "W Eq. (4) (s)"] == pytest.approx(4 * (2 * n - 1) / 2 * tau, rel=1e-4)
    assert users.loc["sctp", "T Eq. (6) (s)"] == pytest.approx((2 * 5 * n - 5 + 1) / 2 * tau, rel=1e-4)
