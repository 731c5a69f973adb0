"""Kernel TCP settings pinned per paper (paperlib.emulation.tcp_settings)."""

import pytest

from paperlib.emulation import tcp_settings


def test_kernel_and_sctp_initial_windows_agree():
    apps = pytest.importorskip("paperlib.emulation.apps")
    for paper, x in tcp_settings.INITIAL_WINDOW.items():
        assert apps.paper_settings(paper, "sctp").init_cwnd_mtus == x
