"""Paper 004's Table II regenerated: the model columns under one convention, beside the printed table."""

from __future__ import annotations

import pandas as pd

from paperlib.data import Paper
from paperlib.reproduce.p004 import operating_point
from paperlib.reproduce.p004.operating_point import Convention, OperatingPoint

#: Table II's model columns and the protocol of each.
MODEL_COLUMNS = {"Model(SCTP)": "sctp", "Model(TCP)": "tcp"}
#: Table II's experimental columns and the protocol of each.
EXP_COLUMNS = {"Exp(SCTP)": "sctp", "Exp(TCP)": "tcp"}


def regenerate_table2(point: OperatingPoint, conv: Convention) -> pd.DataFrame:
    """Return Table II's model columns (exact, unrounded seconds) under the convention ``conv``: Eqs. (5) and (6)."""
    sctp, tcp = operating_point.model_latencies_s(point, conv)
    return pd.DataFrame({"BANDWIDTH": point.rate_labels, "rate_bps": point.rates_bps,
                         "Model(SCTP)": sctp, "Model(TCP)": tcp})


def side_by_side(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return Table II as printed beside the regenerated model columns (rounded to 4 decimals).

    When the chosen initial window is a power of 2 the printed closed form can be evaluated too, and
    its SCTP column is added (``Model(SCTP) by printed Eq. 5``).
    """
    point = operating_point.operating_point(paper)
    regen = regenerate_table2(point, conv)
    published = paper.tables["table2"].cells
    side = pd.DataFrame({
        "BANDWIDTH": published["BANDWIDTH"],
        "Exp(SCTP)": published["Exp(SCTP)"], "Model(SCTP) printed": published["Model(SCTP)"],
        "Model(SCTP) regenerated": regen["Model(SCTP)"].round(4),
        "Exp(TCP)": published["Exp(TCP)"], "Model(TCP) printed": published["Model(TCP)"],
        "Model(TCP) regenerated": regen["Model(TCP)"].round(4),
    })
    if operating_point.printed_form_applies(conv.initial_window):
        printed_form = regenerate_table2(point, conv.replace(form="printed"))
        side["Model(SCTP) by printed Eq. 5"] = printed_form["Model(SCTP)"].round(4)
    return side
