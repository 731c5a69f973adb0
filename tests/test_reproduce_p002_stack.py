"""Paper 002's stack settings (paperlib/reproduce/p002/stack.py): read from data/002/, found by paperlib.emulation."""

import pytest

from paperlib.emulation import apps, tcp_settings
from paperlib.reproduce.p002 import stack
from paperlib.validate import ParameterError


def test_the_settings_are_the_papers_stated_values():
    # section III.B: MSS = 536 B for Tables II and III; no initial window stated: SC starts from one segment
    assert stack.mss_bytes() == 536 and stack.INITIAL_WINDOW == 1
    kernel = stack.tcp_settings()
    assert (kernel.mss_bytes, kernel.mtu_bytes, kernel.initcwnd) == (536, 576, 1)
    assert stack.app_settings("sctp").argv() == ["--mss", "536", "--init-cwnd", "1"]
    assert stack.app_settings("tcp").argv() == ["--mss", "536"]


def test_the_shared_modules_find_them_by_the_registry():
    assert apps.paper_settings("002", "tcp") == stack.app_settings("tcp")
    assert tcp_settings.for_paper("002") == stack.tcp_settings()
    with pytest.raises(ParameterError, match="transport must be one of"):
        stack.app_settings("quic")
