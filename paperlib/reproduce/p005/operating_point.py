"""Paper 005's operating point (the page, the segment, the papers' windows and grid) and its one convention.

* :data:`CONVENTION_AXES`: the one reading a printed anchor could decide, the KB of the Almanac (1000 or
  1024 bytes), with the rounding of its print; :func:`convention_search` scores both against the printed
  median page weights (``data/005/page_weight.csv``);
* :data:`FIXED`: the readings of the page model no printed anchor decides, each fixed by a stated reason
  (:data:`FIXED_REASONS`), never by agreement with the real stacks;
* :class:`Convention`: one reading (the searched axes and the fixed ones); :func:`chosen_convention`;
* :func:`operating_point`: the page, the segment size and the windows, read from the data;
  :func:`model_keywords`: the keywords every model call of :mod:`~paperlib.reproduce.p005.findings` takes.

The search ties: the model's median page, counted in KB with the same ``kilo`` that turned the Almanac's KB
into bits, weighs the same under both readings, so no printed number depends on ``kilo`` and the a-priori
order picks 1000 (the SI prefix, the reading of :data:`~paperlib.reproduce.p005.transports.REAL_STACK_PAGE`).
The tie is itself shown in the notebook: the page weight row scores the same under either reading.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import conventions, units
from paperlib.data import Paper
from paperlib.models import web_page
from paperlib.reproduce.p005 import transports
from paperlib.reproduce.p005.convention import Convention

PAPER = "005"

#: The conventions a printed anchor could decide, candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    # Bytes in the Almanac's KB: 1000 (the SI prefix) or 1024.
    "kilo": [units.DECIMAL, units.BINARY],
    # How the Almanac went from its value to a whole KB.
    "rounding": ["half_up", "truncate"],
}
#: The readings of the page model (paperlib.models.page_transfer) that no printed anchor decides.
FIXED: dict[str, str] = {"loss_cost": "recovery", "order": "round_robin", "a_mode": "mean"}
#: Why each fixed reading is the one (docs/reconstruction-005.md Sec. 4).
FIXED_REASONS: dict[str, str] = {
    "loss_cost": "today's stacks recover a loss without stalling the sender (SACK and fast retransmit in "
                 "TCP, ACK ranges in QUIC and SCTP's SACK): only the retransmitted packet takes the link and "
                 "the objects the loss blocks wait for its detection, 1.5 T_r",
    "order": "HTTP/2 and HTTP/3 with equal priorities, and SCTP with one object per stream, send the "
             "objects' packets in turn (paper 000's round robin)",
    "a_mode": "a = N p is the exact expectation over independent losses (the completion time is linear in "
              "the number of losses)",
}


@dataclass(frozen=True)
class OperatingPoint:
    """Paper 005's fixed inputs, in SI, each read from the data (see :func:`operating_point`)."""

    #: The device and page type of the model's page (the real stacks' page, transports.REAL_STACK_PAGE).
    device: str
    page_type: str
    #: Segment size (bits): the MSS at which RFC 6928's two limits meet, 14600 B / 10 = 1460 B.
    mss_bits: float
    #: Dukkipati's old window, "at most four segments" (text_values dukkipati_iw_old_segments): the window the
    #: ~10% gain is measured against.
    dukkipati_iw_old: int
    #: Today's window (segments): RFC 6928's 10 (initial_windows.csv), Dukkipati's proposal.
    iw_new: int


def operating_point(paper: Paper) -> OperatingPoint:
    """Return paper 005's operating point, read from ``data/005``."""
    windows = paper.tables["initial_windows"].cells.set_index("protocol")
    tcp = windows.loc["TCP"]
    mss_bytes = float(tcp["byte_limit"]) / float(tcp["segments"])
    new = int(paper.text_value("dukkipati_iw_proposed_segments").value)
    if new != int(tcp["segments"]):
        raise ValueError(f"paper 005: Dukkipati's proposed window {new} is not RFC 6928's {tcp['segments']}")
    device, page_type, _ = transports.REAL_STACK_PAGE
    return OperatingPoint(device=device, page_type=page_type, mss_bits=float(units.bytes_to_bits(mss_bytes)),
                          dukkipati_iw_old=int(paper.text_value("dukkipati_iw_old_segments").value), iw_new=new)


def model_keywords(conv: Convention, point: OperatingPoint) -> dict[str, object]:
    """Return the model's keywords under ``conv`` at ``point`` (``mss_bits``, ``loss_cost``, ``order``, ``a_mode``):
    what every call of :mod:`~paperlib.reproduce.p005.findings` takes."""
    return {"mss_bits": point.mss_bits, **conv.reading()}


def model_page(conv: Convention, device: str = "desktop", page_type: str = "homepage") -> web_page.WebPage:
    """Return the median page of ``device`` and ``page_type`` under ``conv``'s KB (:func:`web_page.median_page`)."""
    return web_page.median_page(device, page_type, kilo=conv.kilo)


def page_weight_kb(page: web_page.WebPage, kilo: int) -> float:
    """Return a page's weight in the Almanac's KB of ``kilo`` bytes."""
    return float(units.from_si(page.total_bits, "KB", kilo=kilo))


def printed_page_weights(paper: Paper) -> pd.DataFrame:
    """Return the printed median page weights (``page_weight.csv``): device, printed KB as text."""
    cells = paper.tables["page_weight"].cells
    return cells[cells["statistic"] == "median"][["device", "value"]].reset_index(drop=True)


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return both readings of the Almanac's KB scored on the printed median page weights, best first.

    The regenerated value of a device is the weight of the model's median homepage of that device
    (:func:`model_page`) in KB of the same ``kilo``; it does not depend on ``kilo`` (the module docstring),
    so every combination scores the same and the order of :data:`CONVENTION_AXES` decides.
    """
    printed = printed_page_weights(paper)

    def regenerate(kilo, rounding):
        # rounded to a millionth of a KB: the bits -> KB round trip leaves float noise that would break the tie
        return np.round([page_weight_kb(web_page.median_page(d, "homepage", kilo=kilo), kilo)
                         for d in printed["device"]], 6)

    results = conventions.search(CONVENTION_AXES, regenerate, list(printed["value"]))
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> Convention:
    """Return paper 005's one convention: the search's choice of :data:`CONVENTION_AXES` and :data:`FIXED`.

    ``search`` is :func:`convention_search`'s frame for ``paper`` if the caller has it; ``None`` runs it.
    """
    search = convention_search(paper) if search is None else search
    return Convention.from_choice({**conventions.choose(search, CONVENTION_AXES), **FIXED})


def chosen_text(search: pd.DataFrame, conv: Convention) -> str:
    """Return the notebook's paragraph (Markdown) on the chosen convention and why the search ties."""
    best = search.iloc[0]
    tied = int(((search["reproduced"] == best.reproduced)
                & np.isclose(search["mean_abs_rel_error"], best.mean_abs_rel_error)).sum())
    fixed = "; ".join(f"`{k}={getattr(conv, k)}`: {FIXED_REASONS[k]}" for k in FIXED)
    return (f"**Chosen convention**: {', '.join(f'`{k}={v}`' for k, v in conv.as_dict().items())}. "
            f"The median page weights: {best.reproduced} of {best.cells} printed cells reproduced, mean "
            f"|relative error| {best.mean_abs_rel_error:.2%}; {tied} of {len(search)} combinations score the "
            f"same (the page weight does not depend on the KB), so the a-priori order decides. Fixed readings: "
            f"{fixed}.")
