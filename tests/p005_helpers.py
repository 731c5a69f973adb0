"""Hand-made real-stack summaries of paper 005 for the tests of what reads them (the questions, the plan)."""

import math

import numpy as np
import pandas as pd


def with_pairs(table: pd.DataFrame, gap_half: float | None = None) -> pd.DataFrame:
    """Return ``table`` (rows of :func:`paperlib.reproduce.p005.emulated.summary`) with its ``h2_*`` paired columns
    filled as if every run of a cell had its h2 run on the same link seed: ``h2_pairs`` the fewer of the two cells'
    ``n``, the gaps h2 - protocol of the cells' means, their half-widths ``gap_half`` (None: the two cells'
    half-widths in quadrature, what unpaired runs would give), h2's mean object time the scale. h2's own rows get
    0 pairs and NaN."""
    out = table.copy()
    key = ["rate_bps", "rtt_s", "loss", "iw_segments"]
    h2 = out[out.protocol == "h2"].set_index(key)
    cols = {c: [] for c in ("h2_pairs", "h2_gap_plt_mean_s", "h2_gap_plt_half_s", "h2_gap_object_mean_s",
                            "h2_gap_object_half_s", "h2_paired_object_mean_s")}
    for r in out.to_dict("records"):
        at = tuple(r[k] for k in key)
        if r["protocol"] == "h2" or at not in h2.index:
            for c, v in zip(cols, (0, *[np.nan] * 5), strict=True):
                cols[c].append(v)
            continue
        a = h2.loc[at]
        cols["h2_pairs"].append(int(min(a.n, r["n"])))
        cols["h2_gap_plt_mean_s"].append(a.plt_mean_s - r["plt_mean_s"])
        cols["h2_gap_plt_half_s"].append(math.hypot(a.plt_half_s, r["plt_half_s"]) if gap_half is None else gap_half)
        cols["h2_gap_object_mean_s"].append(a.object_mean_s - r["object_mean_s"])
        cols["h2_gap_object_half_s"].append(math.hypot(a.object_half_s, r["object_half_s"]) if gap_half is None
                                             else gap_half)
        cols["h2_paired_object_mean_s"].append(a.object_mean_s)
    return out.assign(**cols)
