"""Paper 002's printed numbers checked and its algorithm shown: where the tables meet, loss-free bounds, one trace.

* :func:`consistency_findings`: the cells Tables II and III print for their one shared operating point;
* :func:`response_bounds`: the loss-free lower bound of every printed column's response time;
* :func:`algorithm_steps`: the algorithm's object transfer time, step by step, at Table II's p = 1 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.models import lower_bounds
from paperlib.models.http_response_time import ObjectTransferTime
from paperlib.reproduce.p002 import model_reading
from paperlib.reproduce.p002.operating_point import Convention, model_points, operating_points

#: Initial window (segments) of the loss-free lower bound: the largest any reading allows for 536-byte
#: segments (RFC 3390: min(4 MSS, max(2 MSS, 4380 B)) = 4), so the bound holds under every reading.
BOUND_INITIAL_WINDOW = 4

#: What the bound of :func:`response_bounds` counts, as the ledger's reasons say it.
BOUND_WHAT = (f"3 round trips (set-up, an empty HTML page, the request) and the 5 objects back to back in one "
              f"loss-free slow start from {BOUND_INITIAL_WINDOW} segments, KB = 1000")


def consistency_findings(paper: Paper) -> pd.DataFrame:
    """Return the cells the two tables print for their one shared operating point (p = 1 %, RTT = 0.256 s)."""
    t2 = paper.tables["table2"].cells.set_index("Protocol")
    t3 = paper.tables["table3"].cells.set_index("Protocol")
    col2 = next(c for c in t2.columns if np.isclose(units.parse_quantity(c).to_si(), paper.text_value("t3_p").to_si()))
    col3 = next(c for c in t3.columns if np.isclose(float(c), paper.text_value("t2_rtt").to_si()))
    return pd.DataFrame(
        {"Table II (p = 1 %)": t2[col2], "Table III (RTT = 0.256 s)": t3[col3]},
    ).assign(agree=lambda d: d.iloc[:, 0] == d.iloc[:, 1])


def response_bounds(paper: Paper) -> pd.DataFrame:
    """Return, per printed column of Tables II-III, the loss-free lower bound of the response time (s).

    From the brute-force slow-start schedule (:func:`paperlib.models.lower_bounds.page_response_lower_bound_s`):
    3 round trips (set-up, an empty HTML page, the objects' request), then the M objects back to
    back with no loss from an initial window of :data:`BOUND_INITIAL_WINDOW` segments; KB = 1000
    (the smaller object). The same bound holds for TCP and SCTP and for model and experiment.
    """
    frame = model_points(operating_points(paper), units.DECIMAL)
    frame["bound_s"] = [lower_bounds.page_response_lower_bound_s(int(r.objects), r.obj_bits, r.mss_bits, r.rate_bps,
                                                                 r.rtt_s, BOUND_INITIAL_WINDOW)
                        for r in frame.itertuples()]
    return frame


def algorithm_steps(paper: Paper, conv: Convention) -> ObjectTransferTime:
    """Return the algorithm's result for one object at Table II's p = 1 % under ``conv``, with its step trace.

    Paper: 002, "ALGORITHM FOR OBJECT TRANSFER TIME" (``trace``: one row per step i).
    """
    pt = model_points(operating_points(paper), conv.kilo).iloc[1]
    return model_reading.object_transfer_time(pt.obj_bits, pt.mss_bits, pt.rate_bps, pt.rtt_s, pt.p, conv)
