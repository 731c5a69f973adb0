"""Paper 005's notebook parameters: :func:`check` (before anything is written) and the what-if grid they span.

The what-if parameters change the model grids of the figures: ``rates_bps`` x ``rtts_s`` is the grid of the IW10
gain's heat map (``iw_gain.csv``, by default the heat map's grid of :func:`findings.heatmap_grid`), ``losses`` x
``iw_segments`` that of the page load time against loss at the real stacks' link (``plt_vs_loss_model.csv``), and
``device`` the page of both. The ledger always uses the operating point
(:mod:`~paperlib.reproduce.p005.operating_point`), the heat map's own grid and the real stacks' grid.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from paperlib import validate
from paperlib.emulation import experiments
from paperlib.models import web_page
from paperlib.parameters import Parameters
from paperlib.reproduce.p005 import findings

#: Longest what-if list (rates, RTTs, losses, windows): the figures' curves, not a bulk computation.
MAX_GRID = 1_000
#: Most cells of each grid, rate x RTT and loss x window (each cell costs one page of a few thousand packets).
MAX_CELLS = 200_000
#: Largest initial window (segments) a what-if accepts: a page of the model has fewer packets.
MAX_WINDOW = 100_000
#: Longest round trip a what-if accepts (s): a day; longer ones are no network.
MAX_RTT_S = 86_400.0
#: The grid where a parameter is ``None``: the heat map's rates (0.5 to 100 Mbit/s) and RTTs (10 to 400 ms) of
#: :func:`findings.heatmap_grid`, losses 0 to 5%, the papers' windows and today's (:class:`WhatIf`).
DEFAULTS = {"rates_bps": findings.heatmap_grid()[0], "rtts_s": findings.heatmap_grid()[1],
            "losses": np.array([0.0, 0.005, 0.01, 0.02, 0.03, 0.05]), "iw_segments": np.array([2, 3, 4, 10])}


@dataclass(frozen=True)
class WhatIf:
    """The notebook's what-if grid, validated, in SI."""

    device: str
    rates_bps: np.ndarray
    rtts_s: np.ndarray
    losses: np.ndarray
    iw_segments: np.ndarray


def _grid(name, value, check):
    return validate.grid(name, value, check, MAX_GRID)


def check(*, output_dir=None, emulation="off", device="desktop", rates_bps=None, rtts_s=None, losses=None,
          iw_segments=None) -> Parameters:
    """Return the notebook's parameters checked, as :class:`paperlib.parameters.Parameters` (``None`` kept: the
    default grid of :data:`DEFAULTS`); nothing computed.

    Parameters
    ----------
    output_dir : the folder the notebook writes (a string or a path), or ``None`` (checked by
        :func:`paperlib.notebook.open_paper` too)
    emulation : the real stacks' profile (:data:`paperlib.emulation.experiments.PROFILES`)
    device : ``"desktop"`` or ``"mobile"``: the Almanac's page of the what-if grid
    rates_bps : link rates (bit/s, at least 1), a list
    rtts_s : round trips (s, at most a day), a list
    losses : packet loss probabilities in [0, 1), a list
    iw_segments : initial windows (whole segments), a list

    Raises :class:`paperlib.validate.ParameterError` naming the bad parameter (strict types: a boolean or a
    string is not a number; lists at most :data:`MAX_GRID` long, each grid, rates_bps x rtts_s and losses x
    iw_segments, at most :data:`MAX_CELLS` cells).
    """
    if output_dir is not None and not isinstance(output_dir, (str, os.PathLike)):
        raise validate.ParameterError(f"output_dir must be a folder name (a string), got {output_dir!r:.200}")
    q = {"output_dir": output_dir, "emulation": experiments.check_profile(emulation),
         "device": validate.choice("device", device, web_page.DEVICES),
         "rates_bps": _grid("rates_bps", rates_bps, validate.positive),
         "rtts_s": _grid("rtts_s", rtts_s, validate.non_negative),
         "losses": _grid("losses", losses, validate.probability),
         "iw_segments": _grid("iw_segments", iw_segments, validate.positive_integer)}
    if q["rates_bps"] is not None and q["rates_bps"].min() < 1:  # below 1 bit/s a latency overflows to inf
        raise validate.ParameterError(f"rates_bps must be at least 1 bit/s, got {q['rates_bps'].min()!r}")
    if q["rtts_s"] is not None:
        validate.at_most("rtts_s", "the round-trip time (s)", float(q["rtts_s"].max()), MAX_RTT_S)
    if q["iw_segments"] is not None:
        validate.at_most("iw_segments", "the initial window (segments)", float(q["iw_segments"].max()), MAX_WINDOW)
    for grid in (("rates_bps", "rtts_s"), ("losses", "iw_segments")):
        sizes = {k: DEFAULTS[k].size if q[k] is None else q[k].size for k in grid}
        largest = max(grid, key=sizes.get)
        validate.at_most(largest, f"the cells of {' x '.join(grid)}", float(np.prod(list(sizes.values()))), MAX_CELLS)
    return Parameters(q)


def what_if(**parameters) -> WhatIf:
    """Return the what-if grid of the notebook's parameters (``None``: :data:`DEFAULTS`), sorted, validated.

    Keywords as :func:`check` (``output_dir`` and ``emulation`` are accepted and play no part here).
    """
    q = check(**parameters)

    def pick(name):
        return np.sort(np.atleast_1d(DEFAULTS[name] if q[name] is None else q[name]))

    return WhatIf(device=q["device"], rates_bps=pick("rates_bps").astype(float), rtts_s=pick("rtts_s").astype(float),
                  losses=pick("losses").astype(float), iw_segments=pick("iw_segments").astype(int))
