"""Paper 004's explorer: transfer latency in initial slow start (Eqs. 5-6, corrected form) against four axes.

The link rate, the RTT T_r, the object size or the initial window x on the horizontal axis, the
others on sliders, starting at Table II's operating point under the chosen convention
(:func:`paperlib.reproduce.p004.operating_point.chosen_convention`). Table II's printed experiment and
model points show on the rate axis when T_r, the object size and x sit at the paper's values.
The machinery (sliders, in-place redraw, widget) is :mod:`paperlib.explore`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paperlib.data import load_paper
from paperlib.explore import Axis, Curves, Explorer, Slider, int_grid, lin_grid, log_grid, near
from paperlib.figures import style
from paperlib.models.slow_start_latency import sctp_latency_s, tcp_latency_s
from paperlib.reproduce.p004 import operating_point


@lru_cache(maxsize=1)
def context():
    """Return what the explorer reads once from paper 004's data: the convention, operating points, printed cells."""
    paper = load_paper("004")
    conv = operating_point.chosen_convention(paper)
    point = operating_point.operating_point(paper)
    obj, mtu, rtt = operating_point.model_inputs(point, conv.rtt_meaning, conv.kilo)
    cells = paper.tables["table2"].cells
    return conv, point, obj, mtu, rtt, cells


def explorer() -> Explorer:
    """Return the explorer of paper 004's latency (Eqs. 5-6, corrected form, the chosen convention)."""
    conv, point, obj0, mtu, rtt0, cells = context()
    sliders = {
        "rate_bps": Slider("link rate (bit/s)", 10e3, 100e6, 1e6, log=True),
        "rtt_s": Slider("T_r (s)", 0.0, 2.0, rtt0),
        "obj_bytes": Slider("object (bytes)", 1e3, 10e6, obj0 / 8, log=True),
        "initial_window": Slider("initial window x", 1, 64, conv.initial_window, integer=True),
    }
    axes = {
        "rate": Axis("rate_bps", "link rate (bit/s)", True, log_grid(10e3, 100e6)),
        "rtt": Axis("rtt_s", "round-trip time T_r (s)", False, lin_grid(0.0, 2.0)),
        "object size": Axis("obj_bytes", "object size (bytes)", True, log_grid(1e3, 10e6)),
        "initial window": Axis("initial_window", "initial window x (segments)", False, int_grid(1, 64)),
    }

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {"rate_bps": v["rate_bps"], "rtt_s": v["rtt_s"], "obj_bytes": v["obj_bytes"],
                "initial_window": int(v["initial_window"])}
        args[axes[axis].param] = x if axes[axis].param != "initial_window" else x.astype(int)
        common = (args["obj_bytes"] * 8.0, mtu, args["rate_bps"], args["rtt_s"], args["initial_window"])
        lines = [(style("sctp", "model"), np.broadcast_to(sctp_latency_s(*common), x.shape)),
                 (style("tcp", "model"), np.broadcast_to(tcp_latency_s(*common), x.shape))]
        points = []
        at_paper = (near(v["rtt_s"], rtt0) and near(v["obj_bytes"], obj0 / 8)
                    and int(v["initial_window"]) == conv.initial_window)
        if axis == "rate" and at_paper:  # Table II: the five printed bandwidths
            for proto in ("sctp", "tcp"):
                p = proto.upper()
                points.append((style(proto, "experiment"), point.rates_bps,
                               cells[f"Exp({p})"].astype(float).to_numpy()))
                points.append((style(proto, "published_model"), point.rates_bps,
                               cells[f"Model({p})"].astype(float).to_numpy()))
        return Curves(x, lines, points)

    return Explorer("004", "Paper 004: web object transfer latency in initial slow start (Eqs. 5-6)",
                    "latency (s)", sliders, axes, evaluate, yscale="log")
