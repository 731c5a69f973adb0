"""Paper 003's derived numbers: every number the slides derive from their stated inputs, under one convention.

Paper: 003 (Vandalore et al., ATM Forum 97-0425, slides "SPECWeb96", "Problem with SPECWeb96",
"Modified SPECWeb96", "Simulation Results"). :func:`inputs` reads the stated parameters (inter-batch
time, the T3 rate, clients, MSS, the class probabilities the modified table follows from, the results
table's measured columns); :func:`derived_values` regenerates the average file sizes, loads, cells per
segment, the "78%" TCP payload, the feedback delay in cells, the efficiency and queue/F columns under a
:class:`~paperlib.reproduce.p003.convention.Convention`; :func:`printed_cells` lists what the
slides print for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperlib import units
from paperlib.corrections import correction
from paperlib.data import Paper
from paperlib.models import atm_overhead
from paperlib.reproduce.p003.convention import Convention
from paperlib.reproduce.p003.workload import P_CELL, PAPER, Workloads, class_probability, conv_workloads
from paperlib.rounding import round_to

#: Rates at which the feedback delay F may have been counted in cells (bit/s).
F_LINE_RATES = {"oc3_line": 155.52e6, "oc3_payload": 149.76e6, "t3_line": 44.736e6, "t3_nominal": 45e6}


@dataclass(frozen=True)
class Inputs:
    """The stated parameters of the slides that the derived numbers use, in SI."""

    inter_batch_s: float
    t3_bps: float
    clients: float
    k_clients: float
    mss_bytes: float
    servers: tuple[str, ...]
    throughput_bps: np.ndarray
    queue_cells: np.ndarray
    #: the original table's class probabilities, in its column order ("p = 0.35", ...)
    original_class_probs: tuple[float, ...]
    #: the modified workload's index-page probability (1/5) and the factor of its other classes (0.8)
    p_index: float
    p_other: float


def inputs(paper: Paper) -> Inputs:
    """Return the stated parameters of paper 003 (text values and the results table's measured columns)."""
    text_value = paper.text_value
    results = paper.tables["results"].cells
    original = paper.tables["specweb96"]
    original_p = original.cells.set_index("row").loc["p"]
    return Inputs(
        inter_batch_s=float(units.to_si(text_value("inter_batch").value, text_value("inter_batch").unit)),
        t3_bps=float(units.to_si(text_value("link_45").value, text_value("link_45").unit)),
        clients=text_value("clients_150").value,
        k_clients=text_value("k_clients").value,
        mss_bytes=float(units.to_si(text_value("mss").value, text_value("mss").unit)) / units.BITS_PER_BYTE,
        servers=tuple(results["# of Servers"]),
        throughput_bps=np.array([units.parse_quantity(c).to_si() for c in results["TCP Throughput"]]),
        queue_cells=np.array([float(c.split("=")[0]) for c in results["Max Switch Q (Cells)"]]),
        original_class_probs=tuple(class_probability(original_p[col]) for col in original.columns("input")),
        p_index=text_value("p_index").value,
        p_other=text_value("p_other").value,
    )


def derived_values(paper: Paper, conv: Convention, *, given: Inputs | None = None,
                   workload_pair: Workloads | None = None) -> dict[str, float]:
    """Return every derived number of the slides, regenerated under ``conv`` (in the printed units).

    ``given`` and ``workload_pair`` (the stated inputs and the workloads under ``conv``)
    may be passed in to save recomputing them across a search.
    """
    x = inputs(paper) if given is None else given
    w = conv_workloads(paper, conv) if workload_pair is None else workload_pair
    share = float(atm_overhead.tcp_payload_share(x.mss_bytes, conv.header_stack, conv.framing))
    share_used = round_to(100 * share, 0, "half_up") / 100 if conv.round_intermediate else share
    max_payload = share_used * x.t3_bps
    f_cells = float(atm_overhead.cells_in(0.010, F_LINE_RATES[conv.f_line_rate]))
    load_mod = w.modified.load_per_user_bps(x.inter_batch_s)
    out = {
        "avg_file_size": w.original.mean_file_size_bits() / conv.report_kilo,  # kb (corrected unit)
        "avg_load_per_user": w.original.load_per_user_bps(x.inter_batch_s) / 1e3,  # kbps
        "avg_file_size_mod": w.modified.mean_file_size_bits() / units.BITS_PER_BYTE / conv.report_kilo,  # kB
        "bw_per_user_mod": load_mod / 1e6,  # Mbps
        "load_t3": x.clients * load_mod / 1e6,  # Mbps
        "cells_per_segment": float(atm_overhead.cells_per_segment(x.mss_bytes, conv.header_stack)),
        "max_payload_pct": 100 * share,
        "max_payload_t3": max_payload / 1e6,  # Mbps
        "typo_cells_correct": f_cells,
        "typo_cells_wrong": f_cells,
    }
    for n, t, q in zip(x.servers, x.throughput_bps, x.queue_cells, strict=True):
        out[f"efficiency_{n}"] = 100 * t / max_payload
        out[f"queue_f_{n}"] = q / f_cells
    # The modified table's class probabilities follow from the stated rule:
    # index pages p = 1/5, other classes 0.8 x the original class n-1.
    out.update(modified_class_probs(x))
    return out


def modified_class_probs(given: Inputs) -> dict[str, float]:
    """Return the modified workload's class probabilities by the stated rule (1/5; 0.8 x original n-1).

    ``given`` is :func:`inputs`; keys ``mod_p_Class <k>``, class 0 the index pages.
    """
    probs = {"mod_p_Class 0": given.p_index}
    for k, p in enumerate(given.original_class_probs, start=1):
        probs[f"mod_p_Class {k}"] = given.p_other * p
    return probs


@dataclass(frozen=True)
class Cell:
    """A printed derived number: where it is, its print, and the plain number it is compared as."""

    key: str
    source: str
    row: str
    column: str
    published: str
    compare_as: str
    note: str = ""


def printed_cells(paper: Paper) -> list[Cell]:
    """Return every printed number of the slides that follows from the stated assumptions."""
    out = []
    text_values = paper.text_values.cells.set_index("id")
    for key in ("avg_file_size", "avg_load_per_user", "avg_file_size_mod", "bw_per_user_mod", "load_t3",
                "cells_per_segment", "max_payload_pct", "max_payload_t3", "typo_cells_correct",
                "typo_cells_wrong"):
        row = text_values.loc[key]
        fix = correction(PAPER, f"text_values {key}")
        out.append(Cell(key, f"text: {row['location']}", key, row["quantity"], f"{row['printed']} {row['unit']}",
                        row["printed"], fix.note() if fix else ""))
    mod = paper.tables["modified_specweb96"].cells.set_index("row")
    for col in paper.tables["modified_specweb96"].columns("input"):
        printed = mod.loc["p", col]
        out.append(Cell(f"mod_p_{col}", "Modified SPECWeb96 table", "p", col, printed,
                        P_CELL.fullmatch(printed)["p"]))
    results = paper.tables["results"].cells
    for _, r in results.iterrows():
        n = r["# of Servers"]
        q_cells, q_f = (s.strip() for s in r["Max Switch Q (Cells)"].split("="))
        out.append(Cell(f"queue_f_{n}", "Simulation Results table", n, "Max Switch Q (Cells): multiple of F",
                        r["Max Switch Q (Cells)"], q_f.removesuffix(" F").strip()))
        eff = r["Efficiency"]
        fix = correction(PAPER, f"results.csv row {n}, Efficiency")
        number = (fix.read_as if fix and fix.printed == eff else eff).removesuffix("%")
        out.append(Cell(f"efficiency_{n}", "Simulation Results table", n, "Efficiency", eff, number,
                        fix.note() if fix and fix.printed == eff else ""))
    return out
