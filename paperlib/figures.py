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
}

#: Where a number comes from: marker, line style and label.
SOURCES = {
    "experiment": {"marker": "o", "linestyle": "none", "label": "published experiment"},
    "published_model": {"marker": "s", "linestyle": "none", "label": "published model", "fillstyle": "none"},
    "model": {"marker": "", "linestyle": "-", "label": "model (regenerated)"},
    "model_printed": {"marker": "", "linestyle": ":", "label": "model, printed closed form"},
    "simulation": {"marker": "^", "linestyle": "--", "label": "ns-3 simulation"},
    "emulation": {"marker": "D", "linestyle": "none", "label": "emulated, real stacks (95% CI)"},
    # seed 000: the regenerated model as points on a line (Fig. 4), and its three laws against m
    "model_points": {"marker": ".", "linestyle": "-", "label": "model (regenerated)"},
    "waiting_eq4": {"marker": "o", "linestyle": "-", "label": "W by Eq. (4)"},
    "waiting_tabulated": {"marker": "s", "linestyle": "--", "label": "W by the tables' law"},
    "turnaround_eq6": {"marker": "", "linestyle": ":", "label": "turnaround Eq. (6)"},
}


#: Ledger statuses: one colour each (the report's rows and badges, the ledger overview figure).
STATUS_COLORS = {
    "reproduced": "#1a9850",
    "close": "#91cf60",
    "differs": "#fc8d59",
    "not_regenerable": "#878787",
    "supported": "#4575b4",
    "refuted": "#d73027",
    "untestable": "#b2abd2",
}


def style(protocol: str, source: str) -> dict:
    """Return matplotlib keyword arguments for ``protocol`` data from ``source``."""
    p, s = PROTOCOLS[protocol], SOURCES[source]
    kw = {k: v for k, v in s.items() if k != "label"}
    return {"color": p["color"], "label": f"{p['label']}, {s['label']}", **kw}


def save_figure(fig, path: Path | str, stamp: Stamp, *, dpi: int = 120) -> Path:
    """Write ``fig`` as PNG to ``path`` atomically, with ``stamp`` in its metadata; close it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata=stamp.png_metadata())
    plt.close(fig)
    return atomic_write_bytes(path, buf.getvalue())
