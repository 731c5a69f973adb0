"""Interactive explorers of the analytic models, with the published points beside the curves.

* ``"004"``: seed 004's transfer latency (Eq. 5 corrected, Eq. 6) against the link rate, the RTT,
  the object size or the initial window;
* ``"000"``: seed 000's mean waiting time (the law Tables 1-3 follow) or turnaround time (Eq. 6)
  of m users against the number of users, the loss ratio or the link rate;
* ``"002"``: seed 002's mean response time (Table I, M objects) against the loss probability,
  the RTT or the link rate.

Each explorer starts at the paper's operating point under the convention its notebook chose
(``p00x.chosen_convention``), evaluates its model once per redraw on a grid of
:data:`N_GRID` points along the chosen axis (vectorised, no per-point Python loop; the users and
initial-window axes are integer grids, at most :data:`N_GRID` points), and shows a printed point
wherever the other sliders sit at that point's operating conditions. :func:`widget` wraps an
explorer in ipywidgets (``notebooks/explorers.ipynb``); :meth:`Explorer.redraw` is the whole
redraw (model, figure, PNG) that ``bench/bench_explore.py`` times; :func:`static_figures`
draws every axis at the defaults for the report.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

from paperlib.figures import style

#: Points of the grid evaluated per redraw.
N_GRID = 10_000


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

    param: str
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
    """A model with sliders: ``curves(axis, **params)`` evaluates it; ``redraw`` draws it."""

    name: str
    title: str
    ylabel: str
    sliders: dict[str, Slider]
    axes: dict[str, Axis]
    evaluate: Callable[..., Curves]
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _fig: object = field(default=None, repr=False)
    _key: tuple | None = field(default=None, repr=False)

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
        return self.evaluate(axis, values)

    def figure(self, axis: str, **params):
        """Return a new matplotlib figure of :meth:`curves`."""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7.5, 4.6))
        self._draw(ax, axis, self.curves(axis, **params), {**self.defaults(), **params})
        return fig

    def redraw(self, axis: str, **params) -> bytes:
        """Evaluate the model on the grid, update the explorer's one figure and return it as PNG bytes.

        A new axis rebuilds the figure; a slider move only replaces the curves' data, the
        published points and the title (the figure's artists stay), then renders the PNG.
        """
        import matplotlib.pyplot as plt

        values = {**self.defaults(), **params}
        c = self.curves(axis, **params)
        key = (axis, tuple(kw["label"] for kw, _ in c.lines), tuple(kw["label"] for kw, _, _ in c.points))
        if self._fig is None:
            self._fig, _ = plt.subplots(figsize=(7.5, 4.6))
        ax = self._fig.axes[0]
        if getattr(self, "_key", None) != key:
            ax.clear()
            self._draw(ax, axis, c, values)
            self._key = key
        else:
            artists = ax.get_lines()
            data = [(c.x, y) for _, y in c.lines] + [(x, y) for _, x, y in c.points]
            for line, (x, y) in zip(artists, data):
                line.set_data(x, y)
            ax.set_title(self._title(axis, values), fontsize=9)
            ax.relim()
            ax.autoscale_view()
        buf = io.BytesIO()
        self._fig.savefig(buf, format="png", dpi=80, pil_kwargs={"compress_level": 1})
        return buf.getvalue()

    def _title(self, axis: str, values: dict) -> str:
        a = self.axes[axis]
        fixed = ", ".join(f"{s.label} = {values[k]:g}" for k, s in self.sliders.items() if k != a.param)
        choices = ", ".join(f"{values[k]}" for k in self.choices)
        return f"{self.title}\n{fixed}{'; ' + choices if choices else ''}"

    def _draw(self, ax, axis: str, c: Curves, values: dict) -> None:
        a = self.axes[axis]
        for kw, y in c.lines:
            ax.plot(c.x, y, **kw)
        for kw, x, y in c.points:
            ax.plot(x, y, **kw)
        ax.set(xlabel=a.label, ylabel=self.ylabel, xscale="log" if a.log else "linear")
        ax.set_title(self._title(axis, values), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)


def _log_grid(lo, hi):
    return lambda: np.geomspace(lo, hi, N_GRID)


def _lin_grid(lo, hi):
    return lambda: np.linspace(lo, hi, N_GRID)


def _int_grid(lo, hi):
    return lambda: np.arange(lo, min(hi, lo + N_GRID - 1) + 1, dtype=float)


def _near(a, b) -> bool:
    return bool(np.isclose(a, b, rtol=1e-6, atol=0))


# --- 004: transfer latency in initial slow start ------------------------------------------------


@lru_cache(maxsize=1)
def _context_004():
    from paperlib.data import load_paper
    from paperlib.reproduce.p004 import operating_point as op

    paper = load_paper("004")
    conv = op.chosen_convention(paper)
    point = op.operating_point(paper)
    obj, mtu, rtt = op.model_inputs(point, conv["rtt_meaning"], conv["kilo"])
    cells = paper.tables["table2"].cells
    return conv, point, obj, mtu, rtt, cells


def explorer_004() -> Explorer:
    """Return the explorer of seed 004's latency (Eqs. 5-6, corrected form, the chosen convention)."""
    from paperlib.models.slow_start_latency import sctp_latency_s, tcp_latency_s

    conv, point, obj0, mtu, rtt0, cells = _context_004()
    sliders = {
        "rate_bps": Slider("link rate (bit/s)", 10e3, 100e6, 1e6, log=True),
        "rtt_s": Slider("T_r (s)", 0.0, 2.0, rtt0),
        "obj_bytes": Slider("object (bytes)", 1e3, 10e6, obj0 / 8, log=True),
        "initial_window": Slider("initial window x", 1, 64, conv["initial_window"], integer=True),
    }
    axes = {
        "rate": Axis("rate_bps", "link rate (bit/s)", True, _log_grid(10e3, 100e6)),
        "rtt": Axis("rtt_s", "round-trip time T_r (s)", False, _lin_grid(0.0, 2.0)),
        "object size": Axis("obj_bytes", "object size (bytes)", True, _log_grid(1e3, 10e6)),
        "initial window": Axis("initial_window", "initial window x (segments)", False, _int_grid(1, 64)),
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
        at_paper = (_near(v["rtt_s"], rtt0) and _near(v["obj_bytes"], obj0 / 8)
                    and int(v["initial_window"]) == conv["initial_window"])
        if axis == "rate" and at_paper:  # Table II: the five printed bandwidths
            for proto in ("sctp", "tcp"):
                p = proto.upper()
                points.append((style(proto, "experiment"), point.rates_bps,
                               cells[f"Exp({p})"].astype(float).to_numpy()))
                points.append((style(proto, "published_model"), point.rates_bps,
                               cells[f"Model({p})"].astype(float).to_numpy()))
        return Curves(x, lines, points)

    return Explorer("004", "Seed 004: web object transfer latency in initial slow start (Eqs. 5-6)",
                    "latency (s)", sliders, axes, evaluate)


# --- 000: mean waiting and turnaround time of m users -------------------------------------------


@lru_cache(maxsize=1)
def _context_000():
    from paperlib.data import load_paper
    from paperlib.reproduce.p000 import operating_point as op

    paper = load_paper("000")
    conv = op.chosen_convention(paper)
    obj = op.web_object(paper)
    points = op.operating_points(paper)
    printed = []  # (rate, rtt, p, m, column, value)
    for pt in points:
        cells = paper.tables[pt.table].cells
        col = op.label_column(paper, pt.table)
        for _, row in cells[cells[col] == pt.label].iterrows():
            for column in ("W_{sctp}", "T_{sctp}", "W_{tcp}", "T_{tcp}"):
                printed.append((pt.rate_bps, pt.rtt_s, pt.p, int(row["m"]), column, float(row[column])))
    return conv, obj, points[1], printed


def explorer_000() -> Explorer:
    """Return the explorer of seed 000's waiting (tables' law) and turnaround (Eq. 6) times of m users."""
    from paperlib.models import multiuser_waiting as mw
    from paperlib.models import narrowband_response as nb
    from paperlib.reproduce.p000 import model, operating_point

    conv, obj, base, printed = _context_000()
    obj_bits, mtu_bits = obj.obj_bits(conv["kilo"]), obj.mtu_bits
    n = float(mw.packets_per_object(obj_bits, mtu_bits))
    sliders = {
        "m": Slider("users m", 1, 100, 10, integer=True),
        "p": Slider("loss ratio p", 0.0, 0.1, base.p),
        "rate_bps": Slider("link rate (bit/s)", 4e3, 10e6, base.rate_bps, log=True),
        "rtt_s": Slider("rtt (s)", 0.0, 1.0, base.rtt_s),
    }
    axes = {
        "users": Axis("m", "users m", True, _int_grid(1, N_GRID)),
        "loss": Axis("p", "packet loss ratio p", False, _lin_grid(0.0, 0.1)),
        "rate": Axis("rate_bps", "link rate (bit/s)", True, _log_grid(4e3, 10e6)),
    }
    quantities = ("waiting", "turnaround")

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {k: v[k] for k in sliders}
        args[axes[axis].param] = x
        lines = []
        for proto, window in (("sctp", nb.SCTP_INITIAL_WINDOW), ("tcp", nb.TCP_INITIAL_WINDOW)):
            e = model.response_time_s(obj_bits, mtu_bits, args["rate_bps"], args["rtt_s"], args["p"], window, conv)
            tau = e / n
            if v["quantity"] == "waiting":
                y = operating_point.waiting_time_s(args["m"], n, tau, conv["waiting"])
            else:
                y = mw.mean_turnaround_time_same(args["m"], n, tau)
            lines.append((style(proto, "model"), np.broadcast_to(y, x.shape)))
        points = []
        if v["quantity"] == "waiting":  # the tables print waiting times: W (model) and T (experiment)
            coords = {"m": None, "p": None, "rate_bps": None, "rtt_s": None}
            for rate, rtt, p, m, column, value in printed:
                coords.update(m=m, p=p, rate_bps=rate, rtt_s=rtt)
                if all(_near(coords[k], v[k]) for k in coords if k != axes[axis].param):
                    proto = "sctp" if "sctp" in column else "tcp"
                    source = "published_model" if column.startswith("W") else "experiment"
                    points.append((style(proto, source), np.array([coords[axes[axis].param]]), np.array([value])))
            points = _merge_points(points)
        return Curves(x, lines, points)

    return Explorer("000", "Seed 000: m users served packet by packet (Eq. 2 for E(T); tables' law, Eq. 6)",
                    "mean time per user (s)", sliders, axes, evaluate, choices={"quantity": quantities})


def _merge_points(points):
    """Join single points of the same style into one series (one legend entry each)."""
    merged: dict[str, tuple[dict, list, list]] = {}
    for kw, x, y in points:
        entry = merged.setdefault(kw["label"], (kw, [], []))
        entry[1].extend(x)
        entry[2].extend(y)
    return [(kw, np.array(x), np.array(y)) for kw, x, y in merged.values()]


# --- 002: mean response time of HTTP over SCTP and TCP ------------------------------------------


@lru_cache(maxsize=1)
def _context_002():
    from paperlib.data import load_paper
    from paperlib.reproduce.p002 import operating_point

    paper = load_paper("002")
    conv = operating_point.chosen_convention(paper)
    points = operating_point.operating_points(paper)
    printed = []  # (rate, rtt, p, row, value)
    for pt in points:
        cells = paper.tables[pt.table].cells
        for _, row in cells.iterrows():
            printed.append((pt.rate_bps, pt.rtt_s, pt.p, row["Protocol"], float(row[pt.column])))
    return conv, points, printed


def explorer_002() -> Explorer:
    """Return the explorer of seed 002's mean response time (Table I, the chosen convention)."""
    from paperlib import units
    from paperlib.reproduce.p002 import model_reading

    conv, points, printed = _context_002()
    base = points[1]  # Table II, p = 1 %
    obj_bits = float(units.kbytes_to_bits(base.obj_kb, kilo=conv["kilo"]))
    mss_bits = base.mss_bytes * 8
    sliders = {
        "p": Slider("loss probability p", 0.0, 0.1, base.p),
        "rtt_s": Slider("RTT (s)", 0.01, 1.5, base.rtt_s),
        "rate_bps": Slider("link rate (bit/s)", 10e3, 10e6, base.rate_bps, log=True),
    }
    axes = {
        "loss": Axis("p", "packet loss probability p", False, _lin_grid(0.0, 0.1)),
        "rtt": Axis("rtt_s", "round-trip time (s)", False, _lin_grid(0.01, 1.5)),
        "rate": Axis("rate_bps", "link rate (bit/s)", True, _log_grid(10e3, 10e6)),
    }

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {k: np.full(x.shape, float(v[k])) for k in sliders}
        args[axes[axis].param] = x
        grid = model_reading.response_times(
            {"obj_bits": obj_bits, "mss_bits": mss_bits, "rate_bps": args["rate_bps"], "rtt_s": args["rtt_s"],
             "p": args["p"], "it_s": conv["it_rtts"] * args["rtt_s"], "objects": base.objects}, conv)
        lines = [(style("sctp", "model"), grid["sctp_s"].to_numpy()), (style("tcp", "model"), grid["tcp_s"].to_numpy())]
        pts = []
        for rate, rtt, p, row, value in printed:
            coords = {"p": p, "rtt_s": rtt, "rate_bps": rate}
            if all(_near(coords[k], v[k]) for k in coords if k != axes[axis].param):
                proto = "sctp" if row.startswith("SCTP") else "tcp"
                source = "published_model" if "Model" in row else "experiment"
                pts.append((style(proto, source), np.array([coords[axes[axis].param]]), np.array([value])))
        return Curves(x, lines, _merge_points(pts))

    return Explorer("002", "Seed 002: mean response time of HTTP, M objects (Table I)",
                    "mean response time (s)", sliders, axes, evaluate)


EXPLORERS = {"004": explorer_004, "000": explorer_000, "002": explorer_002}


def explorer(name: str) -> Explorer:
    """Return the explorer of paper ``name`` (``"000"``, ``"002"`` or ``"004"``)."""
    if name not in EXPLORERS:
        raise ValueError(f"explorer must be one of {list(EXPLORERS)}, got {name!r}")
    return EXPLORERS[name]()


def widget(name: str, axis: str | None = None):
    """Return an ipywidgets box: an axis menu, one slider per other parameter, and the redrawn figure."""
    import ipywidgets as w

    ex = explorer(name)
    axis_menu = w.Dropdown(options=list(ex.axes), value=axis or next(iter(ex.axes)), description="x axis")
    controls = {}
    for key, s in ex.sliders.items():
        if s.log:
            controls[key] = w.FloatLogSlider(value=s.default, base=10, min=np.log10(s.lo), max=np.log10(s.hi),
                                             step=0.01, description=key, continuous_update=True)
        elif s.integer:
            controls[key] = w.IntSlider(value=int(s.default), min=int(s.lo), max=int(s.hi), description=key)
        else:
            controls[key] = w.FloatSlider(value=s.default, min=s.lo, max=s.hi, step=(s.hi - s.lo) / 1000,
                                          readout_format=".4g", description=key)
    for key, options in ex.choices.items():
        controls[key] = w.ToggleButtons(options=list(options), description=key)
    image = w.Image(format="png")

    def update(*_):
        for key, c in controls.items():
            c.disabled = key == ex.axes[axis_menu.value].param
        image.value = ex.redraw(axis_menu.value, **{k: c.value for k, c in controls.items()})

    for c in (axis_menu, *controls.values()):
        c.observe(update, names="value")
    update()
    return w.HBox([w.VBox([axis_menu, *controls.values()]), image])


def static_figures(folder: Path | str, stamp) -> list[dict]:
    """Write every explorer along every axis at its defaults as PNG; return ``[{"file", "title"}]``."""
    from paperlib.figures import save_figure

    folder = Path(folder)
    out = []
    for name in EXPLORERS:
        ex = explorer(name)
        for axis in ex.axes:
            file = f"{name}_{axis.replace(' ', '_')}.png"
            save_figure(ex.figure(axis), folder / file, stamp)
            out.append({"file": file, "title": f"{ex.title}: against {ex.axes[axis].label}"})
    return out
