"""Paper 002's stacks on the emulated link: the segment size and initial window its model assumes, its testbed.

The segment size is read from ``data/002/text_values.csv``: MSS = 536 B for Tables II and III (``t2_mss``,
``t3_mss``, section III.B). The initial window is not stated: its slow-start time SC is Kurose-Ross's, which
starts from one segment (:data:`INITIAL_WINDOW`), the same for kernel TCP and usrsctp so that the two stacks differ
only in what the paper compares. :mod:`paperlib.emulation.apps` and :mod:`paperlib.emulation.tcp_settings` find
this module by the registry (:func:`paperlib.registry.part`).
"""

from __future__ import annotations

from functools import lru_cache

from paperlib import units
from paperlib.data import DataError, load_paper
from paperlib.emulation.apps import SCTP_UNPINNED, TRANSPORTS, AppSettings
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

PAPER = "002"
#: The testbed of the paper's own experiments (section III), which the real stacks replace.
TESTBED = "Linux 2.6, lksctp, NIST Net"
#: Initial window (segments): not stated; the slow-start term SC of Eq. (12) is Kurose-Ross's, from one segment.
INITIAL_WINDOW = 1


@lru_cache(maxsize=1)
def mss_bytes() -> int:
    """Return the MSS of Tables II and III (bytes), as stated (``data/002/``); raise if the two tables differ."""
    paper = load_paper(PAPER)
    sizes = {int(units.to_si(q.value, q.unit) / units.BITS_PER_BYTE)
             for q in (paper.text_value("t2_mss"), paper.text_value("t3_mss"))}
    if len(sizes) != 1:
        raise DataError(f"{paper.text_values.path}: t2_mss and t3_mss differ ({sorted(sizes)}); one stack setting "
                        f"cannot serve both tables")
    return sizes.pop()


def tcp_settings() -> TcpSettings:
    """Return the kernel TCP settings the model assumes: MSS = 536 B, initial window 1 segment."""
    return TcpSettings(mss_bytes=mss_bytes(), initcwnd=INITIAL_WINDOW)


def app_settings(transport: str) -> AppSettings:
    """Return the application's settings on ``transport`` ("tcp" or "sctp"), pinned where the paper fixes them.

    Paper: 002 section III (MSS = 536 B); the initial window is :data:`INITIAL_WINDOW`'s reading.
    """
    if transport not in TRANSPORTS:
        raise ParameterError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
    basis = {"mss_bytes": "paper 002 section III: MSS = 536 B"}
    if transport == "tcp":
        return AppSettings("tcp", mss_bytes=mss_bytes(), basis=basis)
    return AppSettings("sctp", mss_bytes=mss_bytes(), init_cwnd_mtus=INITIAL_WINDOW,
                       basis={**basis, "init_cwnd_mtus": "paper 002 does not state it; its slow-start time SC is "
                              "Kurose-Ross's, which starts from one segment", **SCTP_UNPINNED})
