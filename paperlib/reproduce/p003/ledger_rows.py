"""Paper 003's ledger rows: every printed derived number, the results table's measured columns, every claim.

Nothing of this paper is re-run on ns-3 or real stacks: the ABR experiment exists in no maintained
simulator, so its measured columns are ``not_regenerable`` and its claims are judged on the slides' own
numbers. The notebook's ns-3 analogue (:mod:`paperlib.reproduce.p003.ns3`) is shown beside the published
table, not scored, and no real-stack emulation exists for paper 003: :func:`ledger_rows` takes
``simulations`` and ``real_stacks`` for the one signature of :mod:`paperlib.reproduce.protocol`, and refuses
a value for either rather than ignore it.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, result_row
from paperlib.reproduce.p003.claims import CLAIMS, evidence
from paperlib.reproduce.p003.derived import derived_values, printed_cells
from paperlib.reproduce.p003.findings import efficiency_rounding_note
from paperlib.reproduce.p003.operating_point import Convention, chosen_convention, convention_search
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


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: object | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 003: the printed derived numbers, the results table, the claims.

    Parameters
    ----------
    paper : Paper
        Paper 003's published data (:func:`paperlib.data.load_paper`).
    search : pandas.DataFrame, optional
        :func:`~paperlib.reproduce.p003.operating_point.convention_search`'s frame, so the notebook searches
        once; ``None``: searched here.
    simulations, real_stacks : None
        Unused by paper 003 (module docstring): no row or claim is judged on the ns-3 analogue, and paper 003
        has no real-stack runs. A value other than ``None`` raises :class:`ValueError` naming the parameter.
    """
    for name, given in (("simulations", simulations), ("real_stacks", real_stacks)):
        if given is not None:
            raise ValueError(f"paper 003: ledger_rows takes no {name} (got a {type(given).__name__}): no row or "
                             "claim of paper 003 is judged on ns-3 or real-stack runs; pass None")
    search = convention_search(paper) if search is None else search
    conv = chosen_convention(paper, search)
    values = derived_values(paper, conv)
    best = search.iloc[0]
    rows: list[Row] = []
    for c in printed_cells(paper):
        why = (f"regenerated under the one convention chosen by systematic search ({conv.describe()}; "
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
        rows.append(result_row(PAPER, c.source, c.row, c.column, c.published, values[c.key], rule=conv.rounding,
                               reason=why, compare_as=compare_as, typo=typo, evidence="model",
                               convention=conv.describe(),
                               typo_scored_in="typo_cells_correct" if c.key == "typo_cells_wrong" else ""))
    rows.extend(measured_rows(paper, conv))
    rows.extend(claim_rows(paper, conv))
    return rows


def measured_rows(paper: Paper, conv: Convention) -> list[Row]:
    """Return the not-regenerable rows of the results table: maximum switch queue and TCP throughput, per N."""
    rows = []
    for _, r in paper.tables["results"].cells.iterrows():
        n = r["# of Servers"]
        q_cells = r["Max Switch Q (Cells)"].split("=")[0].strip()
        rows.append(result_row(PAPER, "Simulation Results table", n, "Max Switch Q (Cells)", q_cells, None,
                               rule=conv.rounding, reason=QUEUE_MAX_REASON, not_regenerable=True))
        thr = units.parse_quantity(r["TCP Throughput"])
        rows.append(result_row(PAPER, "Simulation Results table", n, "TCP Throughput", r["TCP Throughput"], None,
                               rule=conv.rounding, reason=THROUGHPUT_REASON, not_regenerable=True,
                               compare_as=f"{thr.value:g}"))
    return rows


def claim_rows(paper: Paper, conv: Convention) -> list[Row]:
    """Return the ledger rows of the claims (:data:`paperlib.reproduce.p003.claims.CLAIMS`).

    Each row's source is ``slides: <location>``, with the claim's location in ``claims.csv``.
    """
    return [replace(r, source=f"slides: {r.source}") for r in CLAIMS.rows(paper, evidence(paper, conv))]
