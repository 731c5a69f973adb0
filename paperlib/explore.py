"""The machinery of the interactive explorers: sliders, axes, curves, an in-place redraw, the widget.

Each paper's explorer lives in its own package, ``paperlib/reproduce/p<id>/explore.py``, as a
function ``explorer() -> Explorer``; this module finds them by file (:func:`explorer_ids`) and
imports one only when asked for it (:func:`explorer`), so it imports no paper's code itself.

An :class:`Explorer` evaluates its model once per redraw on a grid of :data:`N_GRID` points along
the chosen axis (vectorised, no per-point Python loop; integer axes have at most :data:`N_GRID`
points) and shows published points wherever the other sliders sit at a printed operating point.
:meth:`Explorer.redraw` is the whole redraw that ``bench/bench_explore.py`` times against
:data:`BUDGET_S`: the model, then the figure updated in place (the curves' and points' data set on
the existing artists, drawn over a cached background by blitting, the axes, title and legend redrawn
only when the axis, the set of curves or the view change), then the frame as an uncompressed image
(no PNG encoding). :func:`widget` shows it in ipywidgets (``notebooks/explorers.ipynb``); :func:`static_figures`
draws every axis of every explorer that has data at its defaults, for the report.
"""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

#: Points of the grid evaluated per redraw.
N_GRID = 10_000
#: Time budget of one redraw (s): what ``make bench`` compares each explorer's median redraw with.
BUDGET_S = 0.100
#: The packages that hold one explorer each, as ``<PACKAGES>/p<id>/explore.py``.
PACKAGES = Path(__file__).resolve().parent / "reproduce"
#: Size (inches) and resolution of an explorer's figure.
FIGSIZE = (7.5, 4.6)
DPI = 80


class NoData(LookupError):
    """An explorer whose data is not there yet (e.g. 001's, before any sweep result is cached)."""


@dataclass(frozen=True)
class Slider:
    """One control: its range, default, and whether it moves on a log scale or by whole numbers."""

    label: str
    lo: float
    hi: float
    default: float
    log: bool = False
    integer: bool = False


@dataclass(frozen=True)
class Axis:
    """A horizontal axis: which slider it replaces, its label, scale and the grid it evaluates."""

    param: str | None
    label: str
    log: bool
    grid: Callable[[], np.ndarray]


@dataclass
class Curves:
    """What one redraw shows: curves on the grid and the published points that apply."""

    x: np.ndarray
    lines: list[tuple[dict, np.ndarray]]
    points: list[tuple[dict, np.ndarray, np.ndarray]] = field(default_factory=list)


@dataclass
class Explorer:
    """A model with sliders: ``curves(axis, **params)`` evaluates it; ``redraw`` draws it in place."""

    name: str
    title: str
    ylabel: str
    sliders: dict[str, Slider]
    axes: dict[str, Axis]
    evaluate: Callable[..., Curves]
    choices: dict[str, tuple] = field(default_factory=dict)
    yscale: str = "linear"
    ylim: tuple[float, float] | None = None  # a fixed vertical view (e.g. a CDF's 0..1); None: follows the data
    _fig: object = field(default=None, repr=False)
    _key: tuple | None = field(default=None, repr=False)
    _background: object = field(default=None, repr=False)

    def defaults(self) -> dict:
        """Return every parameter at its default (slider defaults, first of each choice)."""
        out = {k: s.default for k, s in self.sliders.items()}
        out.update({k: v[0] for k, v in self.choices.items()})
        return out

    def curves(self, axis: str, **params) -> Curves:
        """Return the curves along ``axis`` (a key of :attr:`axes`) with the other parameters at ``params``."""
        if axis not in self.axes:
            raise ValueError(f"axis must be one of {list(self.axes)}, got {axis!r}")
        values = {**self.defaults(), **params}
        unknown = set(values) - set(self.sliders) - set(self.choices)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}; this explorer has {list(self.defaults())}")
        for key, options in self.choices.items():
            if values[key] not in options:
                raise ValueError(f"{key} must be one of {list(options)}, got {values[key]!r}")
        return self.evaluate(axis, values)

    def figure(self, axis: str, **params):
        """Return a new matplotlib figure of :meth:`curves` (for saving; :meth:`redraw` keeps its own)."""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=FIGSIZE)
        self._draw(ax, axis, self.curves(axis, **params), title=self._title(axis, {**self.defaults(), **params}))
        return fig

    def redraw(self, axis: str, **params) -> np.ndarray:
        """Evaluate the model on the grid, update the explorer's one figure in place; return the frame (RGBA).

        A new axis or a new set of curves or points rebuilds the axes, and data leaving the view (or
        filling less than a fifth of it) rescales them, each with a full draw after which the
        background without the curves is cached, the view padded so that nearby moves fit.
        Otherwise only the curves' and points' data change and just they are drawn over the cached
        background (blitting). The title names the explorer; the parameters' values are on the
        controls. The frame is the figure's pixels, shape (height, width, 4), uint8;
        :func:`frame_bytes` encodes it for display.
        """
        c = self.curves(axis, **params)
        key = (axis, tuple(kw["label"] for kw, _ in c.lines), tuple(kw["label"] for kw, _, _ in c.points))
        if self._fig is None:
            self._fig = _agg_figure()
            self._fig.add_subplot(1, 1, 1)
        ax = self._fig.axes[0]
        data = [(c.x, y) for _, y in c.lines] + [(x, y) for _, x, y in c.points]
        if self._key != key:
            ax.clear()
            self._draw(ax, axis, c, title=self.title)
            self._key = key
            self._set_view(ax, data)
            self._full_draw(ax)
        else:
            for line, (x, y) in zip(ax.get_lines(), data, strict=True):
                line.set_data(x, y)
            if self.ylim is None and not _fits(ax, data):
                self._set_view(ax, data)
                self._full_draw(ax)
        canvas = self._fig.canvas
        canvas.restore_region(self._background)
        for line in ax.get_lines():
            ax.draw_artist(line)
        return np.asarray(canvas.buffer_rgba())

    def _set_view(self, ax, data) -> None:
        _pad_view(ax, data)
        if self.ylim is not None:
            ax.set_ylim(*self.ylim)

    def _full_draw(self, ax) -> None:
        for line in ax.get_lines():
            line.set_animated(True)  # left out of the background, drawn per frame
        self._fig.canvas.draw()
        self._background = self._fig.canvas.copy_from_bbox(self._fig.bbox)

    def _title(self, axis: str, values: dict) -> str:
        a = self.axes[axis]
        fixed = ", ".join(f"{s.label} = {values[k]:g}" for k, s in self.sliders.items() if k != a.param)
        choices = ", ".join(f"{values[k]}" for k in self.choices if k != a.param)
        return f"{self.title}\n{fixed}{'; ' if fixed and choices else ''}{choices}"

    def _draw(self, ax, axis: str, c: Curves, title: str) -> None:
        a = self.axes[axis]
        for kw, y in c.lines:
            ax.plot(c.x, y, **kw)
        for kw, x, y in c.points:
            ax.plot(x, y, **kw)
        ax.set(xlabel=a.label, ylabel=self.ylabel, xscale="log" if a.log else "linear", yscale=self.yscale)
        if self.ylim is not None:
            ax.set_ylim(*self.ylim)
        ax.set_title(title, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        if c.lines or c.points:
            ax.legend(fontsize=7)


def _agg_figure():
    """Return a figure on its own Agg canvas (not registered with pyplot: no GUI, no inline display)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _finite_y(data) -> np.ndarray:
    ys = [np.asarray(y, dtype=float).ravel() for _, y in data]
    ys = np.concatenate(ys) if ys else np.array([])
    return ys[np.isfinite(ys)]


def _fits(ax, data) -> bool:
    """Return whether every finite y of ``data`` lies in the view and, on a linear scale, fills a fifth of it."""
    ys = _finite_y(data)
    if ys.size == 0:
        return True
    lo, hi = ax.get_ylim()
    if ys.min() < lo or ys.max() > hi:
        return False
    if ax.get_yscale() == "log":
        return True
    span = ys.max() - ys.min()
    return span == 0 or span >= 0.2 * (hi - lo)


def _pad_view(ax, data) -> None:
    """Set the view around ``data``: x to the data, y to its range widened by half of it on each side (linear, never
    below 0 for data that is not) or by a factor of 3 (log), so that the next slider moves stay in view."""
    ax.relim()
    ax.autoscale_view(scaley=False)
    ys = _finite_y(data)
    if ax.get_yscale() == "log":
        ys = ys[ys > 0]
    if ys.size == 0:
        return
    lo, hi = float(ys.min()), float(ys.max())
    if ax.get_yscale() == "log":
        ax.set_ylim(lo / 3, hi * 3)
        return
    span = hi - lo or abs(hi) or 1.0
    ax.set_ylim(max(lo - span / 2, 0.0) if lo >= 0 else lo - span / 2, hi + span / 2)


def frame_bytes(frame: np.ndarray) -> bytes:
    """Return an RGBA frame as a BMP image (24-bit, uncompressed: no encoding work; browsers show it)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(frame[..., :3]), "RGB").save(buf, format="bmp")
    return buf.getvalue()


def log_grid(lo: float, hi: float) -> Callable[[], np.ndarray]:
    """Return a grid maker: :data:`N_GRID` points from ``lo`` to ``hi``, evenly spaced on a log scale."""
    return lambda: np.geomspace(lo, hi, N_GRID)


def lin_grid(lo: float, hi: float) -> Callable[[], np.ndarray]:
    """Return a grid maker: :data:`N_GRID` evenly spaced points from ``lo`` to ``hi``."""
    return lambda: np.linspace(lo, hi, N_GRID)


def int_grid(lo: int, hi: int) -> Callable[[], np.ndarray]:
    """Return a grid maker: the whole numbers ``lo``..``hi`` (at most :data:`N_GRID` of them), as floats."""
    return lambda: np.arange(lo, min(hi, lo + N_GRID - 1) + 1, dtype=float)


def near(a: float, b: float) -> bool:
    """Return whether slider value ``a`` sits at printed value ``b`` (relative tolerance 1e-6)."""
    return bool(np.isclose(a, b, rtol=1e-6, atol=0))


def merge_points(points):
    """Return single points of the same style joined into one series each (one legend entry per style)."""
    merged: dict[str, tuple[dict, list, list]] = {}
    for kw, x, y in points:
        entry = merged.setdefault(kw["label"], (kw, [], []))
        entry[1].extend(x)
        entry[2].extend(y)
    return [(kw, np.array(x), np.array(y)) for kw, x, y in merged.values()]


def explorer_ids() -> tuple[str, ...]:
    """Return the ids of the papers that have an explorer (``paperlib/reproduce/p<id>/explore.py``), sorted."""
    from paperlib.data import PAPERS

    return tuple(p for p in PAPERS if (PACKAGES / f"p{p}" / "explore.py").exists())


#: The papers with an explorer, in paper order.
EXPLORERS = explorer_ids()


def explorer(name: str) -> Explorer:
    """Return the explorer of paper ``name`` (one of :data:`EXPLORERS`); raise :class:`NoData` if it has no data."""
    if name not in EXPLORERS:
        raise ValueError(f"explorer must be one of {list(EXPLORERS)}, got {name!r}")
    return importlib.import_module(f"paperlib.reproduce.p{name}.explore").explorer()


def _control(key: str, s: Slider):
    import ipywidgets

    if s.log:
        return ipywidgets.FloatLogSlider(value=s.default, base=10, min=np.log10(s.lo), max=np.log10(s.hi), step=0.01,
                                         description=key, continuous_update=True)
    if s.integer:
        return ipywidgets.IntSlider(value=int(s.default), min=int(s.lo), max=int(s.hi), description=key)
    return ipywidgets.FloatSlider(value=s.default, min=s.lo, max=s.hi, step=(s.hi - s.lo) / 1000, readout_format=".4g",
                                  description=key)


def widget(name: str, axis: str | None = None):
    """Return an ipywidgets box: an axis menu, one control per other parameter, and the figure, redrawn in place.

    An explorer without data (:class:`NoData`) gives a box with the reason instead.
    """
    import ipywidgets

    try:
        ex = explorer(name)
    except NoData as err:
        return ipywidgets.HBox([ipywidgets.HTML(f"<b>Explorer {name}:</b> {err}")])
    axis_menu = ipywidgets.Dropdown(options=list(ex.axes), value=axis or next(iter(ex.axes)), description="x axis")
    controls = {key: _control(key, s) for key, s in ex.sliders.items()}
    for key, options in ex.choices.items():
        controls[key] = ipywidgets.Dropdown(options=list(options), description=key) if len(options) > 4 else \
            ipywidgets.ToggleButtons(options=list(options), description=key)
    image = ipywidgets.Image(format="bmp")

    def update(*_):
        for key, c in controls.items():
            c.disabled = key == ex.axes[axis_menu.value].param
        image.value = frame_bytes(ex.redraw(axis_menu.value, **{k: c.value for k, c in controls.items()}))

    for c in (axis_menu, *controls.values()):
        c.observe(update, names="value")
    update()
    return ipywidgets.HBox([ipywidgets.VBox([axis_menu, *controls.values()]), image])


def static_figures(folder: Path | str, stamp) -> list[dict]:
    """Write every explorer with data along every axis at its defaults as PNG; return ``[{"file", "title"}]``."""
    import matplotlib.pyplot as plt

    from paperlib.figures import save_figure

    folder = Path(folder)
    out = []
    for name in EXPLORERS:
        try:
            ex = explorer(name)
        except NoData:
            continue  # e.g. 001 before its sweeps are cached: the report shows the others
        for axis in ex.axes:
            file = f"{name}_{axis.replace(' ', '_')}.png"
            fig = ex.figure(axis)
            save_figure(fig, folder / file, stamp)
            plt.close(fig)
            out.append({"file": file, "title": f"{ex.title}: against {ex.axes[axis].label}"})
    return out
