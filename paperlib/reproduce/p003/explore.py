"""Paper 003's explorer: the mean load one user offers, against the think time and the class mix.

Paper: 003, slides "Problem with SPECWeb96" (60 kbps per user) and "Modified SPECWeb96 (Cont)"
(0.48 Mbps per user), at the stated inter-batch (think) time of 10 s. A user fetches a page every
think time; the load is the mean page size over it (:meth:`paperlib.models.specweb96.Workload.load_per_user_bps`).

The *class mix* is the share of the largest class of SPECweb96's file mix (100-900 kB, printed
p = 0.01): moving it rescales the other classes in proportion, and the modified workload follows the
slides' rule (index file, then images drawn from the original classes one class up:
:func:`paperlib.models.specweb96.modified_page_classes`). The horizontal axis is the think time or
that share; the within-class reading is a choice (the chosen convention's first). The printed
loads show at the printed think time and mix.

Fast path and source of truth: the mean page size is linear in the class probabilities, and the
mix is linear in the share ``w`` (``(1 - w)`` times the other classes renormalised, plus ``w`` on
the largest), so ``page(w) = (1 - w) page(0) + w page(1)``; the explorer evaluates the model
(:class:`~paperlib.models.specweb96.Workload`) at the two ends once and the grid with that line.
:func:`load_per_user_bps` is the readable path (the model at one mix) that the tests hold it to.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paperlib import units
from paperlib.data import load_paper
from paperlib.explore import Axis, Curves, Explorer, Slider, lin_grid, log_grid, near
from paperlib.figures import style
from paperlib.models.specweb96 import WITHIN_CLASS, Workload, modified_page_classes
from paperlib.reproduce.p003.derived import inputs
from paperlib.reproduce.p003.operating_point import chosen_convention
from paperlib.reproduce.p003.workload import Workloads, conv_workloads

#: Think-time axis (s) and the range of the largest class's share.
THINK_S = (0.5, 120.0)
SHARE = (0.0, 1.0)


def mixed(w: Workloads, share: float) -> Workloads:
    """Return the two workloads with the largest original class at probability ``share``, the others rescaled.

    The modified workload's images follow the original mix one class up; its index file stays
    class 0 (:func:`~paperlib.models.specweb96.modified_page_classes`).
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be between 0 and 1, got {share!r}")
    p = np.asarray(w.original.class_probs, dtype=float)
    rest = p[:-1] / p[:-1].sum()
    probs = tuple(np.append((1.0 - share) * rest, share))
    rows = modified_page_classes(probs, w.modified.files_per_page)
    original = Workload(w.original.name, probs, w.original.base_bits, w.original.within_class,
                        files_per_page=w.original.files_per_page)
    modified = Workload(w.modified.name, tuple(np.mean(rows, axis=0)), w.modified.base_bits,
                        w.modified.within_class, files_per_page=w.modified.files_per_page, page_classes=rows)
    return Workloads(original, modified)


def load_per_user_bps(w: Workloads, think_s: float, share: float) -> tuple[float, float]:
    """Return the (original, modified) load of one user (bit/s) at think time ``think_s``, largest-class ``share``."""
    m = mixed(w, share)
    return m.original.load_per_user_bps(think_s), m.modified.load_per_user_bps(think_s)


@lru_cache(maxsize=1)
def context():
    """Return what the explorer reads once: the paper, its convention, readings, page sizes and printed loads.

    That is the paper, its chosen convention, the within-class readings (chosen first), the page sizes at the
    mix's two ends per reading, and the printed loads and their operating point.
    """
    paper = load_paper("003")
    conv = chosen_convention(paper)
    readings = (conv.within_class, *(r for r in WITHIN_CLASS if r != conv.within_class))
    ends = {}  # reading -> array [[original page(0), page(1)], [modified page(0), page(1)]] (bits)
    for r in readings:
        w = conv_workloads(paper, conv, within_class=r)
        ends[r] = np.array([[mixed(w, s).original.mean_page_size_bits() for s in SHARE],
                            [mixed(w, s).modified.mean_page_size_bits() for s in SHARE]])
    w = conv_workloads(paper, conv)
    printed = {
        "share": float(w.original.class_probs[-1]),
        "think_s": inputs(paper).inter_batch_s,
        "original_bps": float(units.to_si(paper.text_value("avg_load_per_user").value,
                                          paper.text_value("avg_load_per_user").unit)),
        "modified_bps": float(units.to_si(paper.text_value("bw_per_user_mod").value,
                                          paper.text_value("bw_per_user_mod").unit)),
    }
    return paper, conv, readings, ends, printed


def explorer() -> Explorer:
    """Return the explorer of paper 003's load per user against the think time and the largest class's share."""
    _, _, readings, ends, printed = context()
    sliders = {
        "think_s": Slider("think time (s)", *THINK_S, printed["think_s"], log=True),
        "share": Slider("largest-class share", *SHARE, printed["share"]),
    }
    axes = {
        "think time": Axis("think_s", "think (inter-batch) time (s)", True, log_grid(*THINK_S)),
        "class mix": Axis("share", "share of the largest class (100-900 kB) in the file mix", False, lin_grid(*SHARE)),
    }
    kinds = (("specweb96", "original_bps"), ("specweb96_modified", "modified_bps"))

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {"think_s": v["think_s"], "share": v["share"]}
        args[axes[axis].param] = x
        page = ends[v["within_class"]]  # the mix's two ends; page(w) is linear in w (module docstring)
        lines = []
        for (kind, _), (at0, at1) in zip(kinds, page, strict=True):
            y = ((1.0 - args["share"]) * at0 + args["share"] * at1) / args["think_s"] / 1e3
            lines.append((style(kind, "model"), np.broadcast_to(y, x.shape)))
        points = []
        other = "share" if axes[axis].param == "think_s" else "think_s"
        if near(v[other], printed[other]):
            for kind, key in kinds:
                points.append((style(kind, "published_model"), np.array([printed[axes[axis].param]]),
                               np.array([printed[key] / 1e3])))
        return Curves(x, lines, points)

    return Explorer("003", "Paper 003: mean load of one user (SPECweb96 and modified), one page per think time",
                    "load per user (kbit/s)", sliders, axes, evaluate, choices={"within_class": readings},
                    yscale="log")
