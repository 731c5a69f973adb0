"""Paper 000's stacks on the emulated link: the segment size and initial window its model assumes, its testbed.

Read from ``data/000/text_values.csv``: mtu = 536 B (``mtu``, section 4) and the initial congestion window of
2 x mtu (``cwnd_init``, section 2, Fig. 1), the same for kernel TCP and usrsctp so that the two stacks differ only
in what the paper compares. :mod:`paperlib.emulation.apps` and :mod:`paperlib.emulation.tcp_settings` find this
module by the registry (:func:`paperlib.registry.part`).
"""

from __future__ import annotations

from functools import lru_cache

from paperlib import units
from paperlib.data import load_paper
from paperlib.emulation.apps import SCTP_UNPINNED, TRANSPORTS, AppSettings
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

PAPER = "000"
#: The testbed of the paper's own experiments (section 4), which the real stacks replace.
TESTBED = "Linux 2.6, lksctp, NIST Net"


@lru_cache(maxsize=1)
def stated() -> tuple[int, int]:
    """Return (segment size in bytes, initial window in segments) as the paper states them (``data/000/``)."""
    paper = load_paper(PAPER)
    mtu, cwnd = paper.text_value("mtu"), paper.text_value("cwnd_init")
    return int(units.to_si(mtu.value, mtu.unit) / units.BITS_PER_BYTE), int(cwnd.value)


def tcp_settings() -> TcpSettings:
    """Return the kernel TCP settings the model assumes: MSS = mtu = 536 B, initial window 2 segments."""
    mss, iw = stated()
    return TcpSettings(mss_bytes=mss, initcwnd=iw)


def app_settings(transport: str) -> AppSettings:
    """Return the application's settings on ``transport`` ("tcp" or "sctp"), pinned where the paper fixes them.

    Paper: 000 section 2 (Fig. 1: SCTP cwnd starts at 2 x mtu), section 4 (mtu = 536 B).
    """
    if transport not in TRANSPORTS:
        raise ParameterError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    mss, iw = stated()
    basis = {"mss_bytes": "paper 000 section 4: mtu = 536 B, n = ceil(theta/mtu) data packets"}
    if transport == "tcp":
        return AppSettings("tcp", mss_bytes=mss, basis=basis)
    return AppSettings("sctp", mss_bytes=mss, init_cwnd_mtus=iw,
                       basis={**basis, "init_cwnd_mtus": "paper 000 section 2, Fig. 1: SCTP cwnd initially 2 x mtu",
                              **SCTP_UNPINNED})
