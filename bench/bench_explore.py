"""Time the explorers' redraw against the 100 ms budget (``make bench``): model, in-place figure update, frame.

Each explorer, along each axis, redraws for 20 positions (``--moves``) of one other control, exactly as the widget
does on a move (:meth:`paperlib.explore.Explorer.redraw`, then :func:`paperlib.explore.frame_bytes`,
the image the widget shows). Printed per explorer and axis: the model's share (``curves``), the median
and the largest redraw (a move that rescales the view needs a full draw of the figure: how many did),
and the median against :data:`paperlib.explore.BUDGET_S`. An explorer without
data (001 before its sweeps are cached) is named and skipped. Timings depend on the machine and on
whatever else it runs; the medians against the budget are the point.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from paperlib import explore

MOVES = 20


def positions(ex: explore.Explorer, key: str, moves: int = MOVES) -> list:
    """Return ``moves`` values of control ``key`` across its range (a choice's options, cycled)."""
    if key in ex.choices:
        options = list(ex.choices[key])
        return [options[i % len(options)] for i in range(moves)]
    s = ex.sliders[key]
    values = np.geomspace(s.lo, s.hi, moves) if s.log and s.lo > 0 else np.linspace(s.lo, s.hi, moves)
    return [int(round(v)) for v in values] if s.integer else [float(v) for v in values]


def moved_control(ex: explore.Explorer, axis: str) -> str:
    """Return the control a user moves along ``axis``: the first slider that is not the axis, else the last choice
    with more than one option (001's latency set: the same curves, other data)."""
    param = ex.axes[axis].param
    return (next((k for k in ex.sliders if k != param), None)
            or next((k for k in reversed(ex.choices) if len(ex.choices[k]) > 1), next(iter(ex.choices))))


def main() -> None:
    """Print the redraw times of every explorer along every axis against the budget."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=MOVES, help=f"positions per explorer and axis (default {MOVES})")
    parser.add_argument("--explorers", nargs="+", choices=list(explore.EXPLORERS), default=list(explore.EXPLORERS),
                        help="the explorers to time (default all)")
    args = parser.parse_args()
    moves = args.moves
    budget = explore.BUDGET_S
    print(f"explorers: one redraw = model on a {explore.N_GRID:,}-point grid + in-place figure update + frame; "
          f"budget {budget * 1e3:.0f} ms")
    worst, over, total = 0.0, 0, 0
    for name in args.explorers:
        try:
            ex = explore.explorer(name)
        except explore.NoData as err:
            print(f"  {name}: skipped ({err})")
            continue
        for axis in ex.axes:
            moved = moved_control(ex, axis)
            explore.frame_bytes(ex.redraw(axis))  # the first draw builds the figure
            model, full, rebuilt = [], [], 0
            for value in positions(ex, moved, moves):
                background = ex._background
                t0 = time.perf_counter()
                ex.curves(axis, **{moved: value})
                t1 = time.perf_counter()
                explore.frame_bytes(ex.redraw(axis, **{moved: value}))
                full.append(time.perf_counter() - t1)
                model.append(t1 - t0)
                rebuilt += ex._background is not background
            med = statistics.median(full)
            worst, total, over = max(worst, med), total + 1, over + (med > budget)
            print(f"  {name} against {axis:<15} moving {moved:<15} model {statistics.median(model) * 1e3:6.1f} ms"
                  f"   redraw median {med * 1e3:6.1f} ms, max {max(full) * 1e3:6.1f} ms"
                  f" ({rebuilt:2d} of {moves} with a full draw)"
                  f"   {'within' if med <= budget else 'OVER'} budget")
    print(f"  slowest median redraw: {worst * 1e3:.1f} ms ({worst / budget:.2f} of the budget); "
          f"{over} of {total} explorer axes over budget")


if __name__ == "__main__":
    main()
