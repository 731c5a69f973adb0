"""A few seconds of ns-3: the lossy-link TCP transfer of papers 002/000 behaves as a transfer must."""

import pytest

from paperlib.sim import tcp_loss_transfer
from paperlib.validate import ParameterError

pytestmark = pytest.mark.ns3

POINT = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256}


def test_loss_free_transfer_is_deterministic_and_bounded_below():
    runs = [tcp_loss_transfer.simulate({**POINT, "p": 0.0}, seed) for seed in (1, 2, 3)]
    times = {r["response_time_s"] for r in runs}
    assert len(times) == 1  # no randomness without loss
    (lt,) = times
    # 5 x 13 500 B of payload cannot arrive faster than 540 000 bit / 40 kbit/s = 13.5 s,
    # plus the handshake and the last byte's flight (at least 1.5 RTT in all)
    assert lt > 13.5 + 1.5 * 0.256
    assert runs[0]["bytes"] == 5 * 13_500


def test_losses_only_delay_the_transfer():
    clean = tcp_loss_transfer.simulate({**POINT, "p": 0.0}, 1)["response_time_s"]
    lossy = [tcp_loss_transfer.simulate({**POINT, "p": 0.05}, seed)["response_time_s"] for seed in range(1, 9)]
    assert all(x is not None and x >= clean - 1e-9 for x in lossy)
    assert sum(lossy) / len(lossy) > clean  # at 5% loss, 8 runs of ~126 packets all but surely lose some
    lossy = {**POINT, "p": 0.05}
    assert tcp_loss_transfer.simulate(lossy, 4) == tcp_loss_transfer.simulate(lossy, 4)  # seeded


@pytest.mark.parametrize("name, value", [("p", 1.0), ("p", -0.1), ("rate_bps", 0.0), ("objects", 0)])
def test_bad_parameters_are_named(name, value):
    with pytest.raises(ParameterError, match=name):
        tcp_loss_transfer.simulate({**POINT, "p": 0.01, name: value}, 1)
