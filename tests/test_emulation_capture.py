"""The packet capture of an emulated run and its cross-check against the application and the link
(paperlib.emulation.capture). The testbed run (about 15 s on 2 cores) skips with the reason where the
machine has no root, TUN or namespaces."""

import pytest

from paperlib.emulation import capture, netns
from paperlib.emulation import experiments as ex

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def test_pcap_reader_rejects_other_files(tmp_path):
    bad = tmp_path / "x.pcap"
    bad.write_bytes(b"\0" * 40)
    with pytest.raises(ValueError, match="not a pcap"):
        capture.read_pcap(bad)


@needs_testbed
@pytest.mark.parametrize("protocol", ex.protocols())
def test_one_run_agrees_with_its_capture_and_the_link(protocol):
    # 20 000 B at 1 Mbit/s, RTT 0.1 s, no loss: at least the serialisation of 20 000 B (0.16 s) plus the
    # handshake and request round trips (0.2 s); the capture and the application agree within 5 ms
    params = dict(paper="004", protocol=protocol, rate_bps=1e6, rtt_s=0.1, loss=0.0, queue_packets=100,
                  mss_bytes=1460, initcwnd=2, object_bytes=20000, objects=1, users=1, mode="per_object", rep=0)
    row = capture.crosscheck(params, seed=2)
    assert row["app_latency_s"] >= 0.16 + 0.2
    assert abs(row["difference_s"]) < 5e-3
