"""Time the explorers' redraw: model on a 10^4-point grid, figure update, PNG (``make bench``).

Each explorer, along each axis, redraws for 20 positions of one other slider, exactly as the
widget does on a slider move (``Explorer.redraw``); the budget is 100 ms per redraw. Timings are
machine-dependent (and include whatever else the machine runs): the medians against the budget
are the point.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from paperlib import explore

BUDGET_S = 0.100
MOVES = 20


def positions(slider: explore.Slider) -> list:
    values = (np.geomspace(slider.lo, slider.hi, MOVES) if slider.log and slider.lo > 0
              else np.linspace(slider.lo, slider.hi, MOVES))
    return [int(round(v)) for v in values] if slider.integer else [float(v) for v in values]


def main() -> None:
    print(f"explorers: one redraw = model on a {explore.N_GRID:,}-point grid + figure update + PNG; "
          f"budget {BUDGET_S * 1e3:.0f} ms")
    worst = 0.0
    for name in explore.EXPLORERS:
        ex = explore.explorer(name)
        for axis, a in ex.axes.items():
            moved = next(k for k in ex.sliders if k != a.param)
            ex.redraw(axis)  # first draw builds the figure
            model, full = [], []
            for value in positions(ex.sliders[moved]):
                t0 = time.perf_counter()
                ex.curves(axis, **{moved: value})
                t1 = time.perf_counter()
                ex.redraw(axis, **{moved: value})
                full.append(time.perf_counter() - t1)
                model.append(t1 - t0)
            med = statistics.median(full)
            worst = max(worst, med)
            print(f"  {name} against {axis:<15} moving {moved:<15} model {statistics.median(model) * 1e3:6.1f} ms"
                  f"   redraw median {med * 1e3:6.1f} ms, max {max(full) * 1e3:6.1f} ms"
                  f"   {'within' if med <= BUDGET_S else 'OVER'} budget")
    print(f"  slowest median redraw: {worst * 1e3:.1f} ms ({worst / BUDGET_S:.2f} of the budget)")


if __name__ == "__main__":
    main()
