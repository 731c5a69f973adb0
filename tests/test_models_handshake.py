"""Paper 005's handshakes and initial windows (paperlib.models.handshake), read from data/005/."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib import data
from paperlib.models import handshake
from paperlib.validate import ParameterError

BYTE = 8


def test_round_trips_before_the_request_follow_the_table():
    # data/005/README.md: TLS 1.2 3 RTT, TLS 1.3 2 RTT, QUIC new 1, QUIC resumed 0, SCTP on COOKIE ECHO 1
    assert handshake.handshake_table().to_dict() == {
        "tcp_tls12": 3, "tcp_tls13": 2, "quic": 1, "quic_0rtt": 0, "sctp": 1}


def test_counts_are_read_from_the_csv_not_written_in_the_module():
    # every count equals the CSV row of its label, through load_paper
    table = data.load_paper("005").tables["handshake_rtts"]
    by_label = dict(zip(table.cells["stack"], table.values("rtts"), strict=True))
    for name, label in handshake.STACKS.items():
        assert handshake.handshake_rtts(name) == by_label[label]


def test_setup_rtts_is_paper_004s_for_sctp():
    # paper 004's Eq. (5) counts setup_rtts = 2 for SCTP (set-up with the request on COOKIE ECHO, then the
    # request/response): SCTP's handshake of 1 RTT plus the request's 1
    assert handshake.setup_rtts("sctp") == 2
    # TCP + TLS 1.3: 2 + 1 = 3; QUIC 0-RTT: 0 + 1 = 1 (only the request/response round trip)
    assert handshake.setup_rtts("tcp_tls13") == 3 and handshake.setup_rtts("quic_0rtt") == 1


def test_unknown_stack_names_the_parameter():
    with pytest.raises(ParameterError, match="stack"):
        handshake.handshake_rtts("http2")


def test_rfc_6928_window_by_hand():
    # min(10 MSS, max(2 MSS, 14600 B)):
    # MSS 1460 B: min(14600, max(2920, 14600)) = 14600 B = 10 segments
    assert handshake.tcp_initial_window_bits(1460 * BYTE) == 14600 * BYTE
    # MSS 536 B: min(5360, max(1072, 14600)) = 5360 B = 10 segments
    assert handshake.tcp_initial_window_bits(536 * BYTE) == 5360 * BYTE
    # MSS 4000 B: min(40000, max(8000, 14600)) = 14600 B = 3.65 segments -> 3 whole segments
    assert handshake.tcp_initial_window_bits(4000 * BYTE) == 14600 * BYTE
    assert handshake.initial_window_segments(14600 * BYTE, 4000 * BYTE) == 3
    # MSS 9000 B (jumbo): min(90000, max(18000, 14600)) = 18000 B = 2 segments (the floor of 2 MSS)
    assert handshake.tcp_initial_window_bits(9000 * BYTE) == 18000 * BYTE


def test_rfc_9002_window_by_hand():
    # min(10 D, max(14720 B, 2 D)):
    # D = 1200 B (QUIC's smallest datagram): min(12000, max(14720, 2400)) = 12000 B = 10 datagrams
    assert handshake.quic_initial_window_bits(1200 * BYTE) == 12000 * BYTE
    # D = 1472 B: min(14720, 14720) = 14720 B = 10 datagrams
    assert handshake.quic_initial_window_bits(1472 * BYTE) == 14720 * BYTE
    # D = 1500 B: min(15000, 14720) = 14720 B = 9.81 datagrams -> 9 whole ones
    assert handshake.quic_initial_window_bits(1500 * BYTE) == 14720 * BYTE
    assert handshake.initial_window_segments(14720 * BYTE, 1500 * BYTE) == 9
    # D = 9000 B: min(90000, max(14720, 18000)) = 18000 B = 2 datagrams
    assert handshake.quic_initial_window_bits(9000 * BYTE) == 18000 * BYTE


def test_windows_are_vectorised():
    sizes = np.array([536, 1460, 9000]) * BYTE
    assert handshake.tcp_initial_window_bits(sizes).tolist() == [5360 * BYTE, 14600 * BYTE, 18000 * BYTE]
    assert handshake.initial_window_segments(handshake.tcp_initial_window_bits(sizes), sizes).tolist() == [10, 10, 2]


@given(st.floats(100 * BYTE, 65_000 * BYTE))
def test_windows_between_two_and_ten_segments(size):
    # both rules: the window is at least 2 segments (the floor) and at most 10 (the first argument of min)
    for window in (handshake.tcp_initial_window_bits(size), handshake.quic_initial_window_bits(size)):
        assert 2 * size * (1 - 1e-12) <= window <= 10 * size * (1 + 1e-12)
        assert 2 <= handshake.initial_window_segments(window, size) <= 10


@given(st.floats(100 * BYTE, 65_000 * BYTE), st.floats(100 * BYTE, 65_000 * BYTE))
def test_windows_never_shrink_with_the_segment(a, b):
    small, large = sorted((a, b))
    assert handshake.tcp_initial_window_bits(small) <= handshake.tcp_initial_window_bits(large)
    assert handshake.quic_initial_window_bits(small) <= handshake.quic_initial_window_bits(large)


def test_bad_segment_names_the_parameter():
    with pytest.raises(ParameterError, match="mss_bits"):
        handshake.tcp_initial_window_bits(0)
    with pytest.raises(ParameterError, match="max_datagram_bits"):
        handshake.quic_initial_window_bits(-1)
