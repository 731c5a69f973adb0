"""Paper 000's corrections of its print: Table 2's first block label and Table 1's W_tcp at 0.4 %, m = 10.

Each is a :class:`paperlib.corrections.Correction` with its reason; the ledger row of every affected number
carries the reason (:func:`paperlib.corrections.correction`, read by :mod:`paperlib.reproduce.p000.operating_point`).
"""

from __future__ import annotations

from paperlib.corrections import Correction

PAPER = "000"

#: Every printed cell or text value of the paper read differently from its print, each with its reason.
CORRECTIONS: tuple[Correction, ...] = (
    Correction(
        PAPER,
        "table2.csv link rate (μ) 4 Kbps",
        "4 Kbps",
        "40 Kbps",
        "the text fixes p = 1 % and rtt = 0.256 s for Table 2 and mu = 40 Kbps for Tables 1 and 3; the block's "
        "W_sctp and T_sctp cells equal Table 3's 256 ms block (p = 1 %, 40 Kbps) cell for cell and its W_tcp and "
        "T_tcp cells are within 0.02 s of it; at 4 Kbps one 13.5 KB object alone would need 27 s of transmission, "
        "ten times the printed waiting times",
    ),
    Correction(
        PAPER,
        "table1.csv 0.4 %, m=10, W_{tcp}",
        "3.27",
        "3.67",
        "every other column of Tables 1-3 follows W = c (m-1)/m within print rounding; the block's other three "
        "W_tcp cells (3.26, 3.88, 3.94 at m = 5, 20, 30) give c = 4.079 and c x 9/10 = 3.671, while 3.27 would "
        "leave W_tcp flat from m = 5 to 10 and below W_sctp (3.58); a 6 keyed as a 2",
    ),
)
