"""Corrections of printed numbers: typos fixed in code, each with its reason.

Published data stays as printed in ``data/``. A correction names the printed
text, what it is read as, and why; the ledger row of every affected number
carries the reason, so a reader sees both the print and the correction.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Correction:
    """One printed cell or text value read differently from its print."""

    paper: str
    where: str  # e.g. "results.csv row 10, Efficiency" or "text_values avg_file_size"
    printed: str
    read_as: str
    reason: str

    def note(self) -> str:
        """Return the sentence the ledger's reason column carries."""
        return f"corrected: printed {self.printed!r} read as {self.read_as!r} ({self.reason})"


CORRECTIONS: tuple[Correction, ...] = (
    Correction(
        "003",
        "modified_specweb96.csv row 1, Class 3",
        "100 kb",
        "100 kB",
        "every other size of the table is in kB and class 3 runs 100 kB ... 900 kB in steps of 100 kB",
    ),
    Correction(
        "003",
        "results.csv row 10, Efficiency",
        "93/2%",
        "93.2%",
        "'/' for '.' is a keying slip: 32.7 Mbps / 35.1 Mbps = 93.2%",
    ),
    Correction(
        "003",
        "text_values avg_file_size",
        "120.2 kB",
        "120.2 kb",
        "no reading of the class table can give a mean file above 26.4 kB (every file at the top of its "
        "class); in kilobits the SPECweb96 mean is 120.2 kb, and the slide's 60 kbps per user follows only "
        "from that value",
    ),
    Correction(
        "000",
        "table2.csv link rate (μ) 4 Kbps",
        "4 Kbps",
        "40 Kbps",
        "the text fixes p = 1 % and rtt = 0.256 s for Table 2 and mu = 40 Kbps for Tables 1 and 3; the block's "
        "W_sctp and T_sctp cells equal Table 3's 256 ms block (p = 1 %, 40 Kbps) cell for cell and its W_tcp and "
        "T_tcp cells are within 0.02 s of it; at 4 Kbps one 13.5 KB object alone would need 27 s of transmission, "
        "ten times the printed waiting times",
    ),
    Correction(
        "000",
        "table1.csv 0.4 %, m=10, W_{tcp}",
        "3.27",
        "3.67",
        "every other column of Tables 1-3 follows W = c (m-1)/m within print rounding; the block's other three "
        "W_tcp cells (3.26, 3.88, 3.94 at m = 5, 20, 30) give c = 4.079 and c x 9/10 = 3.671, while 3.27 would "
        "leave W_tcp flat from m = 5 to 10 and below W_sctp (3.58); a 6 keyed as a 2",
    ),
)


def correction(paper: str, where: str) -> Correction | None:
    """Return the correction of ``where`` in ``paper``, if there is one."""
    for c in CORRECTIONS:
        if c.paper == paper and c.where == where:
            return c
    return None


def for_paper(paper: str) -> list[Correction]:
    """Return every correction of ``paper``."""
    return [c for c in CORRECTIONS if c.paper == paper]
