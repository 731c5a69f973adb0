"""Paper 002's notebook parameters checked, and the what-if curve they span (response time against p).

:func:`check` is the notebook's ``check`` (:func:`paperlib.notebook.open_paper`) and the what-if check that
:mod:`paperlib.run_notebook` runs before a kernel starts; :func:`response_vs_p` is the what-if figure's data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.data import Paper
from paperlib.models.http_response_time import MAX_LOSSES
from paperlib.parameters import Parameters
from paperlib.reproduce.p002 import model_reading
from paperlib.reproduce.p002.operating_point import Convention, model_points, operating_points

#: The what-if curve's loss ratios: 0 to 5 % in steps of 0.1 %.
P_GRID = np.linspace(0, 0.05, 51)
#: The paper's MSS (bytes), the cost bound's packet size.
MSS_BYTES = 536


def check(*, repetitions=30, run_simulation=True, scheduler=None, n_workers=None, seed=0, obj_size_bytes=None,
          rate_bps=None, rtt_s=None) -> Parameters:
    """Return the notebook's parameters checked, as :class:`~paperlib.parameters.Parameters`; raise naming the bad one.

    ``repetitions`` (ns-3 runs per point) and ``n_workers`` (if given) are whole numbers >= 1, ``seed`` is
    non-negative, ``run_simulation`` a flag; ``scheduler`` is checked by the sweep runner. The what-if
    values are single positive numbers. Cost: the what-if curve runs the algorithm's loss loop once per
    expected loss a = N p at p up to 5 % with the paper's MSS of 536 B, so the object may not exceed
    ``MAX_LOSSES * 536 / 0.05`` bytes (about 1.07 GB).
    """
    validate.positive_integer("repetitions", repetitions)
    validate.flag("run_simulation", run_simulation)
    if n_workers is not None:
        validate.positive_integer("n_workers", n_workers)
    validate.non_negative("seed", seed)
    q = {name: None if value is None else validate.scalar(name, value, validate.positive)
         for name, value in (("obj_size_bytes", obj_size_bytes), ("rate_bps", rate_bps), ("rtt_s", rtt_s))}
    if q["obj_size_bytes"] is not None:
        validate.at_most("obj_size_bytes", "the expected losses N p of the what-if curve (p up to 5 %, MSS 536 B)",
                         q["obj_size_bytes"] / MSS_BYTES * P_GRID[-1], MAX_LOSSES, "the loss loop runs once per loss")
    return Parameters({"repetitions": repetitions, "run_simulation": run_simulation, "scheduler": scheduler,
                       "n_workers": n_workers, "seed": seed, **q})


def response_vs_p(paper: Paper, conv: Convention, obj_size_bytes=None, rate_bps=None, rtt_s=None) -> pd.DataFrame:
    """Return the model's TCP and SCTP response times against p (:data:`P_GRID`) at one what-if point.

    ``None`` takes the paper's value: 13.5 KB under ``conv``'s KB, 40 kbit/s, RTT 0.256 s (Table II's
    p = 1 % column); MSS 536 B, M = 5 objects, IT = ``conv.it_rtts`` round trips.
    """
    pts = model_points(operating_points(paper), conv.kilo)
    obj_bits = (float(pts.iloc[0].obj_bits) / 8 if obj_size_bytes is None else obj_size_bytes) * 8
    rate = float(pts.iloc[0].rate_bps) if rate_bps is None else rate_bps
    rtt = float(pts.iloc[1].rtt_s) if rtt_s is None else rtt_s
    grid = pd.DataFrame({"p": P_GRID}).assign(obj_bits=obj_bits, mss_bits=float(pts.iloc[0].mss_bits),
                                               rate_bps=rate, rtt_s=rtt, it_s=conv.it_rtts * rtt)
    return model_reading.response_times(grid, conv)
