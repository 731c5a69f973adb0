"""Paper 005's anchors as the package reads them, beside the model's values: the page, the handshakes, the windows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import units
from paperlib.data import Paper
from paperlib.models import handshake, web_page
from paperlib.reproduce.p005 import operating_point, transports
from paperlib.reproduce.p005.operating_point import Convention


def page_table(paper: Paper, conv: Convention) -> pd.DataFrame:
    """Return, per device, the printed median page weight and requests beside the model's median homepage.

    Columns: ``device``, ``printed median page (KB)`` (``page_weight.csv``), ``model page (KB)`` (the sum of
    the per-type mean object sizes of :func:`paperlib.models.web_page.median_page`, in KB of ``conv.kilo``),
    ``model / printed``, ``printed median requests`` (p50 of ``requests_per_page.csv``), ``model objects``.
    The model's page is not the median page: the sum of per-type medians is not the median of the sums.
    """
    printed = operating_point.printed_page_weights(paper)
    rows = []
    for device, value in zip(printed["device"], printed["value"], strict=True):
        page = operating_point.model_page(conv, device, "homepage")
        kb = operating_point.page_weight_kb(page, conv.kilo)
        rows.append({"device": device, "printed median page (KB)": float(value), "model page (KB)": kb,
                     "model / printed": kb / float(value),
                     "printed median requests": float(web_page.requests_percentiles(device)[0.5]),
                     "model objects": page.objects})
    return pd.DataFrame(rows)


def handshake_table() -> pd.DataFrame:
    """Return the handshake round trips (``handshake_rtts.csv``) with each stack's set-up and the family using it.

    Columns: ``stack`` (short name of :data:`paperlib.models.handshake.STACKS`), ``as printed`` (the table's
    row), ``handshake round trips`` h, ``set-up round trips`` h + 1 (paper 004's Eq. (5)), ``family`` (the
    transport family of :mod:`~paperlib.reproduce.p005.transports` that uses it, or empty).
    """
    h = handshake.handshake_table()
    family = {stack: name for name, stack in transports.HANDSHAKE_STACK.items()}
    return pd.DataFrame({"stack": list(h.index), "as printed": [handshake.STACKS[s] for s in h.index],
                         "handshake round trips": h.to_numpy(),
                         "set-up round trips": h.to_numpy() + handshake.REQUEST_RTTS,
                         "family": [family.get(s, "") for s in h.index]})


def initial_window_table(segment_bytes=(536, 1200, 1460, 1472, 1500, 9000)) -> pd.DataFrame:
    """Return RFC 6928's and RFC 9002's initial windows at each segment (or datagram) size, in bytes and segments.

    ``segment_bytes``: the sizes shown (the reconstruction note's worked values, docs/reconstruction-005.md
    Sec. 1). Columns: ``segment (B)``, ``TCP IW (B)``, ``TCP IW (segments)``, ``QUIC IW (B)``,
    ``QUIC IW (datagrams)`` (whole segments, :func:`paperlib.models.handshake.initial_window_segments`).
    """
    seg = units.bytes_to_bits(np.asarray(segment_bytes, dtype=float))
    tcp = handshake.tcp_initial_window_bits(seg)
    quic = handshake.quic_initial_window_bits(seg)
    return pd.DataFrame({"segment (B)": np.asarray(segment_bytes, dtype=float),
                         "TCP IW (B)": tcp / units.BITS_PER_BYTE,
                         "TCP IW (segments)": handshake.initial_window_segments(tcp, seg),
                         "QUIC IW (B)": quic / units.BITS_PER_BYTE,
                         "QUIC IW (datagrams)": handshake.initial_window_segments(quic, seg)})
