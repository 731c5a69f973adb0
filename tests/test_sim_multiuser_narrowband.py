"""Paper 000's m users in ns-3 (paperlib/sim/multiuser_narrowband.py): bounds derived by hand, spurious timeouts.

About 25 s (most of it the ns-3 import). The summary, tables and ledger rows of these runs are tested
in tests/test_reproduce_p000_ns3.py.
"""

import pytest

from paperlib.reproduce.p000 import ns3 as p000_ns3
from paperlib.validate import ParameterError

POINT = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256, "p": 0.0}
# One pure ACK or SYN on the wire: PPP 2 + IPv4 20 + TCP 20 + options <= 22 bytes, so at most 64 bytes.
CONTROL_BITS = 64 * 8


@pytest.mark.ns3
def test_one_user_loss_free_matches_paper_004_slow_start_and_the_bound():
    from paperlib.models import slow_start_latency
    from paperlib.sim import multiuser_narrowband

    # An object of exactly 26 segments of 536 B; on the wire a segment is 536 + 20 (IP) + 32 (TCP with
    # timestamps) + 2 (PPP) = 590 B. Paper 004's Eq. (5) with x = 1 (TCP's initial window here), L_mtu = 590 B,
    # 40 kbit/s, rtt 0.256 s: 2 rtt + 26 x 0.118 s + gamma = 2 stalls = 3.974 s. Eq. (5) neglects the
    # control packets' transmission times: two SYNs, the handshake's ACK and one ACK per stall (at most
    # 5 x 64 B, 64 ms at 40 kbit/s); a spurious timeout is ruled out with a 60 s minimum RTO.
    r = multiuser_narrowband.simulate({**POINT, "obj_bytes": 26 * 536, "users": 1, "min_rto_s": 60.0}, 1)
    model = float(slow_start_latency.transfer_latency_s(26 * 590 * 8, 590 * 8, 40_000, 0.256, 1, setup_rtts=2))
    assert model == pytest.approx(3.974)
    t = r["mean_turnaround_s"]
    assert model <= t <= model + 5 * CONTROL_BITS / 40_000
    # and above the hand-derived bound for one user: 2 rtt + theta / mu = 0.512 + 2.7872 s
    assert t >= float(p000_ns3.mean_turnaround_lower_bound_s(1, 26 * 536, 40_000, 0.256))
    assert r["wire_packets"] == 26 + 2  # 26 data segments, the SYN and the handshake's ACK: no retransmission


@pytest.mark.ns3
def test_users_share_the_link_and_spurious_timeouts_waste_it():
    from paperlib.sim import multiuser_narrowband

    clean = multiuser_narrowband.simulate({**POINT, "users": 3, "min_rto_s": 60.0}, 1)
    # Three 13.5 KB objects through 40 kbit/s: the k-th finisher needs k x 2.7 s of payload after 1.5 rtt,
    # plus rtt/2: mean >= 2 x 0.256 + 2 x 2.7 = 5.912 s; the last >= 0.512 + 3 x 2.7 = 8.612 s.
    assert clean["mean_turnaround_s"] >= 5.912
    assert clean["max_turnaround_s"] >= 8.612
    assert clean["queue_drops"] == 0 and clean["data_drops"] == 0
    # Each user's ceil(13500/536) = 26 segments, plus a SYN, the handshake's ACK and a FIN (those who finish
    # before the last): at most 3 x 29 = 87 packets when nothing is resent.
    assert clean["wire_packets"] <= 3 * (26 + 3)
    # With the model's minimum RTO (1 rtt) ten users' queueing delay (10 x 0.118 s per round) exceeds
    # the RTO learnt from the handshake: the server resends segments that were only queued.
    spurious = multiuser_narrowband.simulate({**POINT, "users": 10, "min_rto_s": 0.256}, 1)
    assert spurious["data_drops"] == 0 and spurious["queue_drops"] == 0
    assert spurious["wire_packets"] > 1.5 * 10 * 26
    lossy = {**POINT, "users": 2, "p": 0.05}
    assert multiuser_narrowband.simulate(lossy, 4) == multiuser_narrowband.simulate(lossy, 4)


@pytest.mark.ns3
@pytest.mark.parametrize("name, value", [("users", 0), ("p", 1.0), ("queue", "red"), ("min_loss_bytes", 600)])
def test_bad_parameters_are_named(name, value):
    from paperlib.sim import multiuser_narrowband

    with pytest.raises(ParameterError, match=name):
        multiuser_narrowband.simulate({**POINT, "users": 2, name: value}, 1)
