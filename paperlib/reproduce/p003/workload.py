"""Paper 003's two SPECweb96 workloads, built from the printed class tables under one set of unit conventions.

Paper: 003, slides "SPECWeb96" and "Modified SPECWeb96" (``data/003/specweb96.csv``,
``data/003/modified_specweb96.csv``). The workload model itself is
:mod:`paperlib.models.specweb96`; this module reads the printed tables into it and checks its
exact moments against seeded samples (:func:`moment_table`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import units
from paperlib.corrections import correction
from paperlib.data import Paper
from paperlib.models.specweb96 import WITHIN_CLASS, Workload, modified_page_classes
from paperlib.moments import mean_check, mean_check_columns
from paperlib.reproduce.p003.convention import Convention

PAPER = "003"

#: The ``p`` cell of a printed class table ("p = 0.35").
P_CELL = re.compile(r"p\s*=\s*(?P<p>\d+(?:\.\d+)?)")

#: The conventions that change the workloads (the others only change the derived numbers).
WORKLOAD_CONVENTIONS = ("size_kilo", "mega", "within_class", "files_per_batch")


def class_probability(printed: str) -> float:
    """Return the probability of a printed ``p = 0.35`` cell."""
    found = P_CELL.fullmatch(printed)
    if found is None:
        raise ValueError(f"paper 003: a class probability cell must read 'p = <number>', got {printed!r}")
    return float(found["p"])


def _size_bits(printed: str, size_kilo: int, mega: str) -> float:
    """Return a printed class-table size in bits: a kB of ``size_kilo`` bytes, a MB per ``mega``."""
    q = units.parse_quantity(printed)
    if q.unit == "MB" and mega == "1000 kB":
        return q.value * 1000 * size_kilo * units.BITS_PER_BYTE
    return q.to_si(kilo=size_kilo)


def _class_table(paper: Paper, name: str, size_kilo: int, mega: str) -> tuple[np.ndarray, np.ndarray]:
    """Return (class probabilities, base size in bits) of a printed class table."""
    table = paper.tables[name]
    cells = table.cells.set_index("row")
    probs, bases = [], []
    for col in table.columns("input"):
        probs.append(class_probability(cells.loc["p", col]))
        first = cells.loc["1", col]
        fix = correction(PAPER, f"{table.path.name} row 1, {col}")
        if fix is not None and fix.printed == first:
            first = fix.read_as
        bases.append(_size_bits(first, size_kilo, mega))
        last = _size_bits(cells.loc["9", col], size_kilo, mega)
        if not np.isclose(last, 9 * bases[-1]):
            raise ValueError(f"{table.path}: {col}: file 9 is not 9 x file 1 ({cells.loc['9', col]!r})")
    return np.array(probs), np.array(bases)


@dataclass(frozen=True)
class Workloads:
    """The original and the modified SPECweb96 workload of the slides."""

    original: Workload
    modified: Workload


def workloads(paper: Paper, *, size_kilo: int, mega: str, within_class: str, files_per_batch: int = 5) -> Workloads:
    """Return the original and modified SPECweb96 workloads of the slides under the given conventions."""
    p0, b0 = _class_table(paper, "specweb96", size_kilo, mega)
    p1, b1 = _class_table(paper, "modified_specweb96", size_kilo, mega)
    images = int(paper.text_value("images_per_page").value)
    original = Workload("SPECweb96", tuple(p0), tuple(b0), within_class, files_per_page=files_per_batch)
    modified = Workload(
        "modified SPECweb96",
        tuple(p1),
        tuple(b1),
        within_class,
        files_per_page=1 + images,
        page_classes=modified_page_classes(p0, 1 + images),
    )
    return Workloads(original, modified)


def workload_keys(conv: Convention) -> dict[str, object]:
    """Return the switches of ``conv`` that change the workloads (:data:`WORKLOAD_CONVENTIONS`), by name."""
    return {k: getattr(conv, k) for k in WORKLOAD_CONVENTIONS}


def conv_workloads(paper: Paper, conv: Convention, within_class: str | None = None) -> Workloads:
    """Return the workloads under convention ``conv``, with its within-class reading or ``within_class``."""
    return workloads(paper, size_kilo=conv.size_kilo, mega=conv.mega, files_per_batch=conv.files_per_batch,
                     within_class=conv.within_class if within_class is None else within_class)


def moment_table(paper: Paper, conv: Convention, n_samples: int, seed: int) -> pd.DataFrame:
    """Return, per within-class reading and workload, the exact mean file size against a seeded sample's (KiB).

    The samples of ``n_samples`` files are drawn from one stream ``numpy.random.default_rng(seed)`` (readings
    in :data:`WITHIN_CLASS` order, original workload first); ``z`` uses the exact standard deviation
    (:func:`paperlib.moments.mean_check`). The mean page size is the exact one.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for kind in WITHIN_CLASS:
        w = conv_workloads(paper, conv, kind)
        for wl in (w.original, w.modified):
            s = wl.sample_files_bits(n_samples, rng) / 8 / 1024
            exact = wl.mean_file_size_bits() / 8 / 1024
            sd = np.sqrt(wl.file_size_second_moment_bits2() - wl.mean_file_size_bits() ** 2) / 8 / 1024
            check = mean_check(s, exact, exact_sd=sd)
            rows.append({"workload": wl.name, "within class": kind, **mean_check_columns(check, "KiB"),
                         "mean page (KiB)": wl.mean_page_size_bits() / 8 / 1024})
    return pd.DataFrame(rows)
