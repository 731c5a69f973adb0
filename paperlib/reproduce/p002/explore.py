"""Paper 002's explorer: mean response time of HTTP over SCTP and TCP, M objects (Table I, chosen convention).

Against the loss probability, the RTT or the link rate, starting at Table II's p = 1 % point.
Table II's points show on the loss axis, Table III's on the RTT axis, where the other sliders sit
at their printed values. The machinery is :mod:`paperlib.explore`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paperlib import units
from paperlib.data import load_paper
from paperlib.explore import Axis, Curves, Explorer, Slider, lin_grid, log_grid, merge_points, near
from paperlib.figures import style
from paperlib.reproduce.p002 import model_reading, operating_point


@lru_cache(maxsize=1)
def context():
    """Return what the explorer reads once from paper 002's data: the convention, operating points, printed cells."""
    paper = load_paper("002")
    conv = operating_point.chosen_convention(paper)
    points = operating_point.operating_points(paper)
    printed = []  # (rate, rtt, p, row, value)
    for pt in points:
        cells = paper.tables[pt.table].cells
        for _, row in cells.iterrows():
            printed.append((pt.rate_bps, pt.rtt_s, pt.p, row["Protocol"], float(row[pt.column])))
    return conv, points, printed


def explorer() -> Explorer:
    """Return the explorer of paper 002's mean response time (Table I, the chosen convention)."""
    conv, points, printed = context()
    base = points[1]  # Table II, p = 1 %
    obj_bits = float(units.kbytes_to_bits(base.obj_kb, kilo=conv.kilo))
    mss_bits = base.mss_bytes * 8
    sliders = {
        "p": Slider("loss probability p", 0.0, 0.1, base.p),
        "rtt_s": Slider("RTT (s)", 0.01, 1.5, base.rtt_s),
        "rate_bps": Slider("link rate (bit/s)", 10e3, 10e6, base.rate_bps, log=True),
    }
    axes = {
        "loss": Axis("p", "packet loss probability p", False, lin_grid(0.0, 0.1)),
        "rtt": Axis("rtt_s", "round-trip time (s)", False, lin_grid(0.01, 1.5)),
        "rate": Axis("rate_bps", "link rate (bit/s)", True, log_grid(10e3, 10e6)),
    }

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {k: np.full(x.shape, float(v[k])) for k in sliders}
        args[axes[axis].param] = x
        grid = model_reading.response_times(
            {"obj_bits": obj_bits, "mss_bits": mss_bits, "rate_bps": args["rate_bps"], "rtt_s": args["rtt_s"],
             "p": args["p"], "it_s": conv.it_rtts * args["rtt_s"], "objects": base.objects}, conv)
        lines = [(style("sctp", "model"), grid["sctp_s"].to_numpy()), (style("tcp", "model"), grid["tcp_s"].to_numpy())]
        pts = []
        for rate, rtt, p, row, value in printed:
            coords = {"p": p, "rtt_s": rtt, "rate_bps": rate}
            if all(near(coords[k], v[k]) for k in coords if k != axes[axis].param):
                proto = "sctp" if row.startswith("SCTP") else "tcp"
                source = "published_model" if "Model" in row else "experiment"
                pts.append((style(proto, source), np.array([coords[axes[axis].param]]), np.array([value])))
        return Curves(x, lines, merge_points(pts))

    return Explorer("002", "Paper 002: mean response time of HTTP, M objects (Table I)",
                    "mean response time (s)", sliders, axes, evaluate)
