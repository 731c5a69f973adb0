"""Paper 003's corrections of its print: the modified class table's "100 kb", the results' "93/2%", the mean file.

Each is a :class:`paperlib.corrections.Correction` with its reason; the ledger row of every affected number
carries the reason (:func:`paperlib.corrections.correction`, read by :mod:`paperlib.reproduce.p003.workload` and
:mod:`paperlib.reproduce.p003.derived`).
"""

from __future__ import annotations

from paperlib.corrections import Correction

PAPER = "003"

#: Every printed cell or text value of the paper read differently from its print, each with its reason.
CORRECTIONS: tuple[Correction, ...] = (
    Correction(
        PAPER,
        "modified_specweb96.csv row 1, Class 3",
        "100 kb",
        "100 kB",
        "every other size of the table is in kB and class 3 runs 100 kB ... 900 kB in steps of 100 kB",
    ),
    Correction(
        PAPER,
        "results.csv row 10, Efficiency",
        "93/2%",
        "93.2%",
        "'/' for '.' is a keying slip: 32.7 Mbps / 35.1 Mbps = 93.2%",
    ),
    Correction(
        PAPER,
        "text_values avg_file_size",
        "120.2 kB",
        "120.2 kb",
        "no reading of the class table can give a mean file above 26.4 kB (every file at the top of its "
        "class); in kilobits the SPECweb96 mean is 120.2 kb, and the slide's 60 kbps per user follows only "
        "from that value",
    ),
)
