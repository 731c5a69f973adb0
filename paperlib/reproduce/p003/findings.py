"""Paper 003's results that are not a printed derived number.

Users to fill a link, the offered load per N, the slopes behind "linear first, then stable", and whether a
printed efficiency agrees with its throughput.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.reproduce.p003.derived import Cell, inputs
from paperlib.reproduce.p003.operating_point import Convention
from paperlib.reproduce.p003.workload import conv_workloads
from paperlib.rounding import printed_interval


def users_to_fill(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return how many users of each workload fill 45 and 155 Mbps (not printed; the slides' argument)."""
    w = conv_workloads(paper, conv)
    inter = inputs(paper).inter_batch_s
    rows = []
    for wl in (w.original, w.modified):
        load = wl.load_per_user_bps(inter)
        for link in (45e6, 155e6):
            rows.append({"workload": wl.name, "load per user (kbit/s)": load / 1e3, "link (Mbit/s)": link / 1e6,
                         "users to fill": link / load})
    return pd.DataFrame(rows)


def offered_load_mbps(paper: Paper, conv: Convention, n_servers: np.ndarray) -> np.ndarray:
    """Return the modified workload's mean offered load (Mbit/s) of K clients per server, for each N.

    K x N users, each offering one mean page per inter-batch time
    (:meth:`paperlib.models.specweb96.Workload.load_per_user_bps`).
    """
    w = conv_workloads(paper, conv)
    x = inputs(paper)
    return x.k_clients * np.asarray(n_servers, dtype=float) * w.modified.load_per_user_bps(x.inter_batch_s) / 1e6


def slopes(n: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Return the growth of ``y`` per unit of ``n`` between consecutive points: diff(y) / diff(n)."""
    return np.diff(y) / np.diff(n)


def efficiency_rounding_note(paper: Paper, c: Cell, values: dict, conv: Convention) -> str:
    """Say whether a printed efficiency is consistent with the printed throughput, given both roundings."""
    res = paper.tables["results"].cells.set_index("# of Servers")
    thr = units.parse_quantity(res.loc[c.row, "TCP Throughput"])
    lo, hi = printed_interval(f"{thr.value:g}", conv.rounding)
    max_payload = values["max_payload_t3"]
    e_lo, e_hi = 100 * lo / max_payload, 100 * hi / max_payload
    p_lo, p_hi = printed_interval(c.compare_as, conv.rounding)
    consistent = max(e_lo, p_lo) < min(e_hi, p_hi)
    return (
        f"Efficiency = TCP throughput / {max_payload:.1f} Mbit/s; the printed {thr.printed} stands for "
        f"[{lo:g}, {hi:g}) Mbit/s, i.e. [{e_lo:.2f}, {e_hi:.2f})%, and the printed {c.compare_as}% for "
        f"[{p_lo:g}, {p_hi:g})%: "
        + ("consistent within the rounding of the printed throughput" if consistent
           else "inconsistent even allowing for rounding")
    )
