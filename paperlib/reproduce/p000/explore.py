"""Paper 000's explorer: mean waiting time (the law Tables 1-3 follow) or turnaround time (Eq. 6) of m users.

Against the number of users, the loss ratio or the link rate, with E(T) from Eq. (2), starting at
Table 1's operating point (p = 1 %) under the chosen convention. Printed W (model) and T
(experiment) show wherever the sliders sit at a printed block. The machinery is :mod:`paperlib.explore`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paperlib.data import load_paper
from paperlib.explore import N_GRID, Axis, Curves, Explorer, Slider, int_grid, lin_grid, log_grid, merge_points, near
from paperlib.figures import style
from paperlib.models import multiuser_waiting, narrowband_response
from paperlib.reproduce.p000 import model, operating_point


@lru_cache(maxsize=1)
def context():
    """Return what the explorer reads once from paper 000's data: the convention, operating points, printed cells."""
    paper = load_paper("000")
    conv = operating_point.chosen_convention(paper)
    obj = operating_point.web_object(paper)
    points = operating_point.operating_points(paper)
    printed = []  # (rate, rtt, p, m, column, value)
    for pt in points:
        cells = paper.tables[pt.table].cells
        col = operating_point.label_column(paper, pt.table)
        for _, row in cells[cells[col] == pt.label].iterrows():
            for column in ("W_{sctp}", "T_{sctp}", "W_{tcp}", "T_{tcp}"):
                printed.append((pt.rate_bps, pt.rtt_s, pt.p, int(row["m"]), column, float(row[column])))
    return conv, obj, points[1], printed


def explorer() -> Explorer:
    """Return the explorer of paper 000's waiting (tables' law) and turnaround (Eq. 6) times of m users."""
    conv, obj, base, printed = context()
    obj_bits, mtu_bits = obj.obj_bits(conv.kilo), obj.mtu_bits
    n = float(multiuser_waiting.packets_per_object(obj_bits, mtu_bits))
    sliders = {
        "m": Slider("users m", 1, 100, 10, integer=True),
        "p": Slider("loss ratio p", 0.0, 0.1, base.p),
        "rate_bps": Slider("link rate (bit/s)", 4e3, 10e6, base.rate_bps, log=True),
        "rtt_s": Slider("rtt (s)", 0.0, 1.0, base.rtt_s),
    }
    axes = {
        "users": Axis("m", "users m", True, int_grid(1, N_GRID)),
        "loss": Axis("p", "packet loss ratio p", False, lin_grid(0.0, 0.1)),
        "rate": Axis("rate_bps", "link rate (bit/s)", True, log_grid(4e3, 10e6)),
    }
    quantities = ("waiting", "turnaround")

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {k: v[k] for k in sliders}
        args[axes[axis].param] = x
        lines = []
        for proto, window in (("sctp", narrowband_response.SCTP_INITIAL_WINDOW),
                              ("tcp", narrowband_response.TCP_INITIAL_WINDOW)):
            e = model.response_time_s(obj_bits, mtu_bits, args["rate_bps"], args["rtt_s"], args["p"], window, conv)
            tau = e / n
            if v["quantity"] == "waiting":
                y = operating_point.waiting_time_s(args["m"], n, tau, conv.waiting)
            else:
                y = multiuser_waiting.mean_turnaround_time_same(args["m"], n, tau)
            lines.append((style(proto, "model"), np.broadcast_to(y, x.shape)))
        points = []
        if v["quantity"] == "waiting":  # the tables print waiting times: W (model) and T (experiment)
            coords = {"m": None, "p": None, "rate_bps": None, "rtt_s": None}
            for rate, rtt, p, m, column, value in printed:
                coords.update(m=m, p=p, rate_bps=rate, rtt_s=rtt)
                if all(near(coords[k], v[k]) for k in coords if k != axes[axis].param):
                    proto = "sctp" if "sctp" in column else "tcp"
                    source = "published_model" if column.startswith("W") else "experiment"
                    points.append((style(proto, source), np.array([coords[axes[axis].param]]), np.array([value])))
            points = merge_points(points)
        return Curves(x, lines, points)

    return Explorer("000", "Paper 000: m users served packet by packet (Eq. 2 for E(T); tables' law, Eq. 6)",
                    "mean time per user (s)", sliders, axes, evaluate, choices={"quantity": quantities})
