"""Paper 000's stack settings (paperlib/reproduce/p000/stack.py): read from data/000/, found by paperlib.emulation."""

import pytest

from paperlib.emulation import apps, tcp_settings
from paperlib.reproduce.p000 import stack
from paperlib.validate import ParameterError


def test_the_settings_are_the_papers_stated_values():
    # section 4: mtu = 536 B; section 2, Fig. 1: cwnd starts at 2 x mtu -> MSS 536 B (device MTU 576 B), 2 segments
    assert stack.stated() == (536, 2)
    kernel = stack.tcp_settings()
    assert (kernel.mss_bytes, kernel.mtu_bytes, kernel.initcwnd, kernel.congestion_control) == (536, 576, 2, "reno")
    sctp = stack.app_settings("sctp")
    assert sctp.argv() == ["--mss", "536", "--init-cwnd", "2"] and {"rto", "sack"} <= set(sctp.basis)
    assert stack.app_settings("tcp").argv() == ["--mss", "536"]


def test_the_shared_modules_find_them_by_the_registry():
    assert apps.paper_settings("000", "sctp") == stack.app_settings("sctp")
    assert tcp_settings.for_paper("000") == stack.tcp_settings()
    assert tcp_settings.INITIAL_WINDOW["000"] == 2  # the deprecated mapping reads the same package
    with pytest.raises(ParameterError, match="transport must be one of"):
        stack.app_settings("udp")
