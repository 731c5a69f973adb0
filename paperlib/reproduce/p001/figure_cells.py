"""Which cells of paper 001's testbed each of its Figs. 3-9 draws, in which style and under which title.

One source for the figures drawn on ns-3 (:func:`paperlib.reproduce.p001.figures.paper_figure`) and on the real
stacks beside ns-3 (:func:`paperlib.reproduce.p001.emulated.figures_beside_ns3`): a figure is named by the file name
the notebook saves it under (:data:`PAPER_FIGURES`); a cell is (configuration, load, latency set).
"""

from __future__ import annotations

from paperlib.figures import load_style
from paperlib.reproduce.p001.testbed import LATENCY_SETS

#: Line styles of up to three configurations in one figure.
LINE_STYLES = ("-", "--", ":")


def response_cdf_selections(groups: dict[str, list[str]], loads) -> dict[str, tuple[dict, str]]:
    """Return file name -> (selection {(config, load): line style}, title) of Figs. 3, 6, 7 and 9, as the paper draws.

    Fig. 3: FIFO by load (colour) and queue size (line style); Fig. 6: RED-A/B/C at queue 480;
    Fig. 7: RED-A/B/C at 98 %, queue 480 (solid) and 240 (dashed); Fig. 9: FIFO-180 (solid) and
    RED-A-180 (dashed) at 80 and 98 %.
    """
    fifo, red480, red240 = groups["fifo"], groups["red480"], groups["red240"]
    colours = [load_style(x)["color"] for x in loads]
    return {
        "fig3_fifo_response_cdf.png":
            ({(c, x): {**load_style(x), "ls": LINE_STYLES[i]} for x in loads for i, c in enumerate(fifo)},
             "Fig. 3 regenerated: FIFO response time, 80/90/98% load"),
        "fig6_red_response_cdf.png":
            ({(c, x): {**load_style(x), "ls": LINE_STYLES[i]} for x in loads for i, c in enumerate(red480)},
             "Fig. 6 regenerated: RED-A/B/C (queue 480), 80/90/98% load"),
        "fig7_red_480_240_cdf.png":
            ({(c, 0.98): {"color": colours[i % 3], "ls": "-" if c.endswith("480") else "--"}
              for i, c in enumerate(red480 + red240)},
             "Fig. 7 regenerated: RED-A/B/C, queue 480 (solid) and 240 (dashed), 98% load"),
        "fig9_fifo_vs_red_a_cdf.png":
            ({(c, x): {**load_style(x), "ls": "-" if c.startswith("FIFO") else "--"}
              for x in (0.8, 0.98) for c in ("FIFO-180", "RED-A-180")},
             "Fig. 9 regenerated: FIFO vs RED-A, queue 180"),
    }


#: Fig. 8's panels, clockwise from the top left as the paper draws them: A, B short (RED-A, RED-C), then D, C long.
FIG8_PANELS = ([("RED-A-240", 0.98, "short"), ("RED-C-240", 0.98, "short"), ("RED-C-240", 0.98, "long"),
                ("RED-A-240", 0.98, "long")], ["8-A: ", "8-B: ", "8-D: ", "8-C: "])

#: Figs. 3-9 by the file name the notebook saves them under, in the order it shows them: the response-time
#: CDFs (3, 6, 7, 9), FIFO's queue (4 short, 5 long latency), RED's queue (8).
PAPER_FIGURES = ("fig3_fifo_response_cdf.png", "fig6_red_response_cdf.png", "fig7_red_480_240_cdf.png",
                 "fig9_fifo_vs_red_a_cdf.png", "fig4_fifo_queue_short.png", "fig5_fifo_queue_long.png",
                 "fig8_red_queue_240.png")
#: The response-time CDF figures among :data:`PAPER_FIGURES` (the others draw queues).
CDF_FIGURES = PAPER_FIGURES[:4]


def queue_selections(groups: dict[str, list[str]], loads) -> dict[str, tuple[list, list[str], str, int]]:
    """Return file name -> (cells (config, load, latency), panel-title prefixes, title, columns) of Figs. 4, 5 and 8,
    as the paper draws them: FIFO's queue by load and size at short (4) and long (5) latency, RED-A and RED-C with
    the 240-packet queue at 98 % (8, :data:`FIG8_PANELS`)."""
    out = {}
    for name, latency, number in (("fig4_fifo_queue_short.png", "short", 4), ("fig5_fifo_queue_long.png", "long", 5)):
        cells = [(c, x, latency) for x in loads for c in groups["fifo"]]
        out[name] = (cells, [""] * len(cells),
                     f"Fig. {number} regenerated: FIFO queue occupancy, {latency} latency (first replication)", 3)
    panels, labels = FIG8_PANELS
    out["fig8_red_queue_240.png"] = (
        list(panels), list(labels),
        "Fig. 8 regenerated: RED-A / RED-C, queue 240, 98% load (panels clockwise from top left)", 2)
    return out


def cells(name: str, groups: dict[str, list[str]], loads) -> list[tuple[str, float, str]]:
    """Return the cells (configuration, load, latency set) that the paper figure ``name`` (:data:`PAPER_FIGURES`)
    draws: a CDF figure's selection at both latency sets, a queue figure's panels."""
    cdfs = response_cdf_selections(groups, loads)
    if name in cdfs:
        return [(c, x, latency) for latency in LATENCY_SETS for (c, x) in cdfs[name][0]]
    queues = queue_selections(groups, loads)
    if name in queues:
        return list(queues[name][0])
    raise ValueError(f"name: {name!r} is not one of paper 001's figures {PAPER_FIGURES}")


def style(name: str, groups: dict[str, list[str]], loads) -> tuple[dict, str]:
    """Return the paper figure ``name``'s (styles, title): for a CDF figure {(config, load): line style}, for a
    queue figure {(config, load, latency): panel-title prefix}."""
    cdfs = response_cdf_selections(groups, loads)
    if name in cdfs:
        return cdfs[name]
    queues = queue_selections(groups, loads)
    if name in queues:
        cells, labels, title, _ = queues[name]
        return dict(zip(cells, labels, strict=True)), title
    raise ValueError(f"name: {name!r} is not one of paper 001's figures {PAPER_FIGURES}")
