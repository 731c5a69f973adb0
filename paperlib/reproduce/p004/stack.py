"""Paper 004's stacks on the emulated link: the segment size and initial window its model assumes, its testbed.

Read from ``data/004/text_values.csv``: L_mtu = 1500 B (``mtu``, section 3), so kernel TCP's MSS is 1460 B (20 B
IP and 20 B TCP headers) and usrsctp's data per packet is what its headers leave of the link MTU; the initial
window x = 2 MTUs (``fig1_initial_window``, section 2, Fig. 1), the same for kernel TCP and usrsctp so that the two
stacks differ only in what the paper compares. :mod:`paperlib.emulation.apps` and
:mod:`paperlib.emulation.tcp_settings` find this module by the registry (:func:`paperlib.registry.part`).
"""

from __future__ import annotations

from functools import lru_cache

from paperlib import units
from paperlib.data import load_paper
from paperlib.emulation.apps import SCTP_UNPINNED, TRANSPORTS, AppSettings
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

PAPER = "004"
#: The testbed of the paper's own experiments (section 3), which the real stacks replace.
TESTBED = "Linux 2.6, lksctp, NIST Net"
#: IPv4 and TCP headers without options (bytes): kernel TCP's MSS is the link MTU less these.
TCP_IP_HEADERS_BYTES = 40


@lru_cache(maxsize=1)
def stated() -> tuple[int, int]:
    """Return (link MTU L_mtu in bytes, initial window x in MTUs) as the paper states them (``data/004/``)."""
    paper = load_paper(PAPER)
    mtu, x = paper.text_value("mtu"), paper.text_value("fig1_initial_window")
    return int(units.to_si(mtu.value, mtu.unit) / units.BITS_PER_BYTE), int(x.value)


def tcp_settings() -> TcpSettings:
    """Return the kernel TCP settings the model assumes: MSS = 1500 - 40 = 1460 B, initial window 2 segments."""
    mtu, x = stated()
    return TcpSettings(mss_bytes=mtu - TCP_IP_HEADERS_BYTES, initcwnd=x)


def app_settings(transport: str) -> AppSettings:
    """Return the application's settings on ``transport`` ("tcp" or "sctp"), pinned where the paper fixes them.

    Paper: 004 section 2 (Fig. 1: initial window x = 2 MTUs), section 3 (L_mtu = 1500 B). Assumes: the segment
    size is left to the link MTU of 1500 B (the model's L_mtu counts whole packets), so data per packet is 1500 B
    less the headers.
    """
    if transport not in TRANSPORTS:
        raise ParameterError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    _, x = stated()
    basis = {"mss_bytes": "paper 004 section 3: L_mtu = 1500 B is the link MTU; data per packet is what the headers "
             "leave"}
    if transport == "tcp":
        return AppSettings("tcp", mss_bytes=None, basis=basis)
    return AppSettings("sctp", mss_bytes=None, init_cwnd_mtus=x,
                       basis={**basis, "init_cwnd_mtus": "paper 004 section 2, Fig. 1: initial window x = 2 MTUs",
                              **SCTP_UNPINNED})
