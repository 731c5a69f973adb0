"""One registry of labels, colours and markers, and provenance-stamped figure output.

Every figure of every notebook takes its legend entries from :data:`STYLE`,
so SCTP, TCP, the published experiment and the regenerated model look the
same everywhere; :func:`save_figure` writes a PNG atomically with the run's
provenance in its text chunks (no timestamp, so reruns are byte-identical).
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from paperlib.atomic import atomic_write_bytes  # noqa: E402
from paperlib.provenance import Stamp  # noqa: E402

#: Protocols and queue disciplines: colour and label.
PROTOCOLS = {
    "sctp": {"color": "#1b9e77", "label": "SCTP"},
    "tcp": {"color": "#d95f02", "label": "TCP"},
    "fifo": {"color": "#7570b3", "label": "FIFO"},
    "red": {"color": "#e7298a", "label": "RED"},
    "abr": {"color": "#e6ab02", "label": "ATM ABR/ERICA"},
    "h2": {"color": "#a6761d", "label": "HTTP/2"},  # paper 005: HTTP/2 over TLS 1.3 over TCP
    "h3": {"color": "#386cb0", "label": "HTTP/3"},  # paper 005: HTTP/3 over QUIC
}

#: Other series kinds a paper's figures tell apart: colour and label (paper 003's two workloads and the
#: three within-class readings of its file sizes; ``reference`` for reference lines).
SERIES = {
    "specweb96": {"color": "#1b9e77", "label": "SPECweb96"},
    "specweb96_modified": {"color": "#d95f02", "label": "modified SPECweb96"},
    "within_class_uniform": {"color": "#1f77b4", "label": "uniform"},
    "within_class_binomial": {"color": "#ff7f0e", "label": "binomial"},
    "within_class_truncated_poisson": {"color": "#2ca02c", "label": "truncated_poisson"},
    "reference": {"color": "grey", "label": "reference"},
}

#: Where a number comes from: marker, line style and label.
SOURCES = {
    "experiment": {"marker": "o", "linestyle": "none", "label": "published experiment"},
    "published_model": {"marker": "s", "linestyle": "none", "label": "published model", "fillstyle": "none"},
    "model": {"marker": "", "linestyle": "-", "label": "model (regenerated)"},
    "model_printed": {"marker": "", "linestyle": ":", "label": "model, printed closed form"},
    "simulation": {"marker": "^", "linestyle": "--", "label": "ns-3 simulation"},
    "emulation": {"marker": "D", "linestyle": "none", "label": "emulated, real stacks (95% CI)"},
    "published_simulation": {"marker": "o", "linestyle": "-", "label": "published simulation"},
    "simulation_packet_link": {"marker": "v", "linestyle": ":", "label": "ns-3 simulation vs packet-link maximum"},
    "exact": {"marker": "", "linestyle": "-.", "label": "exact"},
    "samples": {"marker": "", "linestyle": "--", "label": "seeded samples"},
    "pmf": {"marker": ".", "linestyle": "-", "label": "probability mass"},
    # paper 000: the regenerated model as points on a line (Fig. 4), and its three laws against m
    "model_points": {"marker": ".", "linestyle": "--", "label": "model (regenerated)"},
    "waiting_eq4": {"marker": "o", "linestyle": "-.", "label": "W by Eq. (4)"},
    "waiting_tabulated": {"marker": "s", "linestyle": "--", "label": "W by the tables' law"},
    "turnaround_eq6": {"marker": "x", "linestyle": ":", "label": "turnaround Eq. (6)"},
}


#: Ledger statuses: one colour each (the report's rows and badges, the ledger overview figure).
STATUS_COLORS = {
    "reproduced": "#1a9850",
    "close": "#91cf60",
    "differs": "#fc8d59",
    "measured_close": "#01665e",
    "measured_inconclusive": "#c7eae5",
    "measured_differs": "#d8b365",
    "fidelity_lost": "#762a83",
    "not_regenerable": "#878787",
    "input": "#bababa",
    "supported": "#4575b4",
    "refuted": "#d73027",
    "inconclusive": "#fee090",
    "untestable": "#b2abd2",
}


def _kind(kind: str) -> dict:
    """Return the registry entry of a protocol (:data:`PROTOCOLS`) or another series kind (:data:`SERIES`)."""
    if kind in PROTOCOLS:
        return PROTOCOLS[kind]
    if kind in SERIES:
        return SERIES[kind]
    raise KeyError(f"{kind!r} is neither a protocol ({sorted(PROTOCOLS)}) nor a series kind ({sorted(SERIES)}) "
                   "of paperlib.figures")


#: Offered loads (fractions of the bottleneck) of load-swept figures (paper 001's 80, 90, 98 %): colour and label.
LOADS = {
    0.8: {"color": "#1b9e77", "label": "80% load"},
    0.9: {"color": "#d95f02", "label": "90% load"},
    0.98: {"color": "#7570b3", "label": "98% load"},
}

#: Quantities of diagnostic panels that are neither a protocol nor a source (paper 001's calibration, warm-up).
QUANTITIES = {
    "throughput": {"color": "#1b9e77"},  # regenerated throughput / offered load, its fit and band
    "queue": {"color": "#7570b3"},  # sampled queue, residuals
    "published": {"color": "#e7298a"},  # a published line, or a measured mark beside a chosen one
}


def load_style(load: float) -> dict:
    """Return matplotlib keyword arguments (colour) of a series at offered ``load``; black for a load not in LOADS."""
    return {"color": LOADS[load]["color"]} if load in LOADS else {"color": "k"}


def quantity_style(name: str) -> dict:
    """Return matplotlib keyword arguments (colour) of the diagnostic quantity ``name`` of :data:`QUANTITIES`."""
    return dict(QUANTITIES[name])


def style(protocol: str, source: str) -> dict:
    """Return matplotlib keyword arguments for ``protocol`` data (or a :data:`SERIES` kind's) from ``source``."""
    p, s = _kind(protocol), SOURCES[source]
    kw = {k: v for k, v in s.items() if k != "label"}
    return {"color": p["color"], "label": f"{p['label']}, {s['label']}", **kw}


def color(kind: str) -> str:
    """Return the colour of a protocol or series kind (bars and reference lines, which take no marker)."""
    return _kind(kind)["color"]


#: Curves along an ordered quantity (one per link rate, load, ...): colours from this sequential colour map.
SEQUENCE_COLORMAP = "viridis"


def sequence_style(i: int, n: int, label: str) -> dict:
    """Return matplotlib keyword arguments for curve ``i`` of ``n`` along an ordered quantity (first darkest)."""
    if not 0 <= i < n:
        raise ValueError(f"curve {i} of {n}: need 0 <= i < n")
    color = matplotlib.colormaps[SEQUENCE_COLORMAP](0.9 * i / max(n - 1, 1))
    return {"color": matplotlib.colors.to_hex(color), "marker": "o", "markersize": 3, "label": label}


def save_figure(fig, path: Path | str, stamp: Stamp, *, dpi: int = 120) -> Path:
    """Write ``fig`` as PNG to ``path`` atomically, with ``stamp`` in its metadata; close it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata=stamp.png_metadata())
    plt.close(fig)
    return atomic_write_bytes(path, buf.getvalue())
