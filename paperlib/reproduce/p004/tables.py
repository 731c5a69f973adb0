"""Seed 004's Table II regenerated: the model columns under one convention, beside the printed table."""

from __future__ import annotations

import pandas as pd

from paperlib.data import Paper
from paperlib.reproduce.p004 import operating_point as op

#: Table II's model columns and the protocol of each.
MODEL_COLUMNS = {"Model(SCTP)": "sctp", "Model(TCP)": "tcp"}
#: Table II's experimental columns and the protocol of each.
EXP_COLUMNS = {"Exp(SCTP)": "sctp", "Exp(TCP)": "tcp"}


def regenerate_table2(point: op.OperatingPoint, **conv) -> pd.DataFrame:
    """Return Table II's model columns (exact, unrounded seconds) under one convention ``conv``.

    ``conv`` holds the axes of :data:`~paperlib.reproduce.p004.operating_point.CONVENTION_AXES`
    (``rounding`` and ``objects_per_transfer`` optional); Eqs. (5) and (6).
    """
    sctp, tcp = op.model_latencies_s(point, **conv)
    return pd.DataFrame({"BANDWIDTH": point.rate_labels, "rate_bps": point.rates_bps,
                         "Model(SCTP)": sctp, "Model(TCP)": tcp})


def side_by_side(paper: Paper, conv: dict) -> pd.DataFrame:
    """Return Table II as printed beside the regenerated model columns (rounded to 4 decimals).

    When the chosen initial window is a power of 2 the printed closed form can be evaluated too, and
    its SCTP column is added (``Model(SCTP) by printed Eq. 5``).
    """
    point = op.operating_point(paper)
    regen = regenerate_table2(point, **conv)
    published = paper.tables["table2"].cells
    side = pd.DataFrame({
        "BANDWIDTH": published["BANDWIDTH"],
        "Exp(SCTP)": published["Exp(SCTP)"], "Model(SCTP) printed": published["Model(SCTP)"],
        "Model(SCTP) regenerated": regen["Model(SCTP)"].round(4),
        "Exp(TCP)": published["Exp(TCP)"], "Model(TCP) printed": published["Model(TCP)"],
        "Model(TCP) regenerated": regen["Model(TCP)"].round(4),
    })
    if conv["initial_window"] & (conv["initial_window"] - 1) == 0:
        printed_form = regenerate_table2(point, **{**conv, "form": "printed"})
        side["Model(SCTP) by printed Eq. 5"] = printed_form["Model(SCTP)"].round(4)
    return side
