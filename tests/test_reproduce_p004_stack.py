"""Paper 004's stack settings (paperlib/reproduce/p004/stack.py): read from data/004/, found by paperlib.emulation."""

import pytest

from paperlib.emulation import apps, tcp_settings
from paperlib.reproduce.p004 import stack
from paperlib.validate import ParameterError


def test_the_settings_are_the_papers_stated_values():
    # section 3: L_mtu = 1500 B -> kernel MSS 1500 - 20 (IP) - 20 (TCP) = 1460 B; Fig. 1: x = 2 MTUs
    assert stack.stated() == (1500, 2)
    kernel = stack.tcp_settings()
    assert (kernel.mss_bytes, kernel.mtu_bytes, kernel.initcwnd) == (1460, 1500, 2)
    # usrsctp's segment is left to the link MTU: no --mss option
    assert stack.app_settings("sctp").argv() == ["--init-cwnd", "2"] and stack.app_settings("tcp").argv() == []


def test_the_shared_modules_find_them_by_the_registry():
    assert apps.paper_settings("004", "sctp") == stack.app_settings("sctp")
    assert tcp_settings.for_paper("004") == stack.tcp_settings()
    with pytest.raises(ParameterError, match="transport must be one of"):
        stack.app_settings("udp")
