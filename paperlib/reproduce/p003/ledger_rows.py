"""Seed 003's ledger rows: every printed derived number, the results table's measured columns, every claim."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.ledger import Row, result_row
from paperlib.reproduce.p003.claims import CLAIMS, evidence
from paperlib.reproduce.p003.derived import derived_values, printed_cells
from paperlib.reproduce.p003.findings import efficiency_rounding_note
from paperlib.reproduce.p003.operating_point import chosen_convention, convention_search
from paperlib.reproduce.p003.workload import PAPER

QUEUE_MAX_REASON = (
    "maximum ABR switch queue of an ATM ABR/ERICA simulation (the OSU ATM simulator); no maintained "
    "simulator offers ABR/ERICA, so it cannot be regenerated; the notebook shows a TCP-over-packet-link "
    "analogue beside it"
)
THROUGHPUT_REASON = (
    "TCP throughput of the ATM ABR/ERICA simulation; no maintained simulator offers ABR/ERICA, so it "
    "cannot be regenerated (it is an input of the Efficiency column, which is regenerated from it)"
)


def ledger_rows(paper: Paper, search: pd.DataFrame | None = None) -> tuple[list[Row], dict]:
    """Return the ledger rows of seed 003 and the convention they were made with."""
    search = convention_search(paper) if search is None else search
    conv = chosen_convention(paper, search)
    values = derived_values(paper, conv)
    best = search.iloc[0]
    conv_text = ", ".join(f"{k}={v}" for k, v in conv.items())
    rows: list[Row] = []
    for c in printed_cells(paper):
        why = (f"regenerated under the one convention chosen by systematic search ({conv_text}; "
               f"{int(best['reproduced'])} of {int(best['cells'])} derived numbers reproduced)")
        compare_as, typo = c.compare_as, bool(c.note)  # a correction of corrections.py is a typo of the print
        if c.note:
            why = f"{c.note}; {why}"
        if c.key == "typo_cells_wrong":
            corrected = paper.text_values.cells.set_index("id").loc["typo_cells_correct", "printed"]
            why = f"the slide itself calls {c.compare_as} a typo for {corrected} (its typo note); " + why
            compare_as, typo = corrected, True
        if c.key.startswith("efficiency_"):
            why += "; " + efficiency_rounding_note(paper, c, values, conv)
        rows.append(result_row(PAPER, c.source, c.row, c.column, c.published, values[c.key], rule=conv["rounding"],
                               reason=why, compare_as=compare_as, typo=typo,
                               typo_scored_in="typo_cells_correct" if c.key == "typo_cells_wrong" else ""))
    rows.extend(measured_rows(paper, conv))
    rows.extend(claim_rows(paper, conv))
    return rows, conv


def measured_rows(paper: Paper, conv: dict) -> list[Row]:
    """Return the not-regenerable rows of the results table: maximum switch queue and TCP throughput, per N."""
    rows = []
    for _, r in paper.tables["results"].cells.iterrows():
        n = r["# of Servers"]
        q_cells = r["Max Switch Q (Cells)"].split("=")[0].strip()
        rows.append(result_row(PAPER, "Simulation Results table", n, "Max Switch Q (Cells)", q_cells, None,
                               rule=conv["rounding"], reason=QUEUE_MAX_REASON, not_regenerable=True))
        thr = units.parse_quantity(r["TCP Throughput"])
        rows.append(result_row(PAPER, "Simulation Results table", n, "TCP Throughput", r["TCP Throughput"], None,
                               rule=conv["rounding"], reason=THROUGHPUT_REASON, not_regenerable=True,
                               compare_as=f"{thr.value:g}"))
    return rows


def claim_rows(paper: Paper, conv: dict) -> list[Row]:
    """Return the ledger rows of the claims (:data:`paperlib.reproduce.p003.claims.CLAIMS`).

    Each row's source is ``slides: <location>``, the claim's location in ``claims.csv`` prefixed as before.
    """
    return [replace(r, source=f"slides: {r.source}") for r in CLAIMS.rows(paper, evidence(paper, conv))]
