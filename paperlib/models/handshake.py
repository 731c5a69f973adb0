"""Round trips before the first request byte, and the first congestion window, of today's transports.

Paper: 005 (today's anchors, ``data/005/``; ``docs/reconstruction-005.md`` Sec. 1). Nothing here is a
number of its own: the round-trip counts come from ``data/005/handshake_rtts.csv`` (derived there from
RFCs 9293, 5246, 8446, 9000, 9001 and 4960) and the initial-window rules from
``data/005/initial_windows.csv`` (RFC 6928 Section 2, RFC 9002 Section 7.2), read through
:func:`paperlib.data.load_paper`.

* :func:`handshake_rtts`: round trips the client waits before it may send the first byte of its
  request (TCP + TLS 1.2: 3, TCP + TLS 1.3: 2, QUIC new: 1, QUIC resumed (0-RTT): 0, SCTP with the
  request on COOKIE ECHO: 1, as the table says).
* :func:`setup_rtts`: the same plus the request/response round trip, the ``setup_rtts`` of paper
  004's Eq. (5) (:func:`paperlib.models.slow_start_latency.transfer_latency_s`): 004 counts 2 for
  SCTP, one for the association set-up with the request on COOKIE ECHO and one for the
  request/response, which is SCTP's 1 here plus 1.
* :func:`tcp_initial_window_bits`: RFC 6928, min(10 MSS, max(2 MSS, 14600 B)).
* :func:`quic_initial_window_bits`: RFC 9002, min(10 max_datagram_size, max(14720 B,
  2 max_datagram_size)) ("ten times the maximum datagram size ..., while limiting the window to the
  larger of 14,720 bytes or twice the maximum datagram size").
* :func:`initial_window_segments`: the window in whole segments (the ``initial_window`` x of paper
  004's model), floor(window / segment): a sender puts only full-sized segments in flight at the start.

Assumes: what ``data/005/README.md`` states for the counts (no loss, no HelloRetryRequest, no QUIC
Retry or version negotiation, no TCP Fast Open or TLS False Start, DNS not counted, servers answer at
once). SI inside: windows and segments in bits.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from paperlib import data, units, validate

PAPER = "005"

#: Short names of the stacks, in the order of ``handshake_rtts.csv``, each mapped to the label of its row
#: there. The labels are keys to look the counts up, not counts: :func:`handshake_table` checks that the
#: table has exactly these rows.
STACKS = {
    "tcp_tls12": "TCP + TLS 1.2 (full handshake)",
    "tcp_tls13": "TCP + TLS 1.3 (full handshake)",
    "quic": "QUIC (new connection, 1-RTT handshake)",
    "quic_0rtt": "QUIC (resumed connection, 0-RTT)",
    "sctp": "SCTP (request bundled with COOKIE ECHO)",
}

#: Round trips of the request and its response, counted by paper 004's ``setup_rtts`` after the handshake.
REQUEST_RTTS = 1


@functools.lru_cache(maxsize=1)
def _paper():
    return data.load_paper(PAPER)


def handshake_table() -> pd.Series:
    """Return the round trips before the first request byte, by short stack name (``handshake_rtts.csv``).

    Paper: 005, ``data/005/handshake_rtts.csv`` column ``rtts`` (README "Round trips before the first
    request byte"). Raises :class:`ValueError` naming the file if a row of :data:`STACKS` is missing or
    the table has a row this module does not know.
    """
    table = _paper().tables["handshake_rtts"]
    counts = dict(zip(table.cells["stack"], table.values("rtts"), strict=True))
    missing = [label for label in STACKS.values() if label not in counts]
    unknown = [label for label in counts if label not in STACKS.values()]
    if missing or unknown:
        raise ValueError(f"{table.path}: column 'stack' does not match paperlib.models.handshake.STACKS: "
                         f"missing rows {missing}, unknown rows {unknown}")
    return pd.Series({name: counts[label] for name, label in STACKS.items()}, name="handshake_rtts")


def handshake_rtts(stack: str) -> float:
    """Return the round trips the client waits before it may send the first request byte.

    Paper: 005, ``data/005/handshake_rtts.csv`` (derived there from the RFCs' message flows).

    Parameters
    ----------
    stack : one of :data:`STACKS` (``"tcp_tls12"``, ``"tcp_tls13"``, ``"quic"``, ``"quic_0rtt"``,
        ``"sctp"``)
    """
    validate.choice("stack", stack, tuple(STACKS))
    return float(handshake_table()[stack])


def setup_rtts(stack: str) -> float:
    """Return the round trips before the first response byte leaves the server: handshake plus request.

    Paper: 004, Eq. (5)'s ``setup_rtts`` (2 for SCTP: set-up with the request on COOKIE ECHO, then the
    request/response), with the handshake of ``stack`` from :func:`handshake_rtts`:
    :func:`handshake_rtts` + :data:`REQUEST_RTTS`.
    """
    return handshake_rtts(stack) + REQUEST_RTTS


def _window_rule(protocol: str) -> tuple[float, float, float]:
    """Return (segments, byte limit in bits, floor segments) of ``protocol``'s row of ``initial_windows.csv``."""
    table = _paper().tables["initial_windows"]
    rows = table.cells["protocol"] == protocol
    if rows.sum() != 1:
        raise ValueError(f"{table.path}: column 'protocol' has {int(rows.sum())} rows {protocol!r}, expected 1")
    pick = rows.to_numpy()
    return (float(table.values("segments")[pick][0]),
            float(units.bytes_to_bits(table.values("byte_limit")[pick][0])),
            float(table.values("floor_segments")[pick][0]))


def tcp_initial_window_bits(mss_bits) -> np.ndarray:
    """Return TCP's initial window (bits): min(10 MSS, max(2 MSS, 14600 B)), vectorised over ``mss_bits``.

    Paper: 005, RFC 6928 Section 2, equation (1): "min (10*MSS, max (2*MSS, 14600))"; the three numbers
    come from ``data/005/initial_windows.csv`` (row TCP).

    Parameters
    ----------
    mss_bits : maximum segment size MSS (bits)
    """
    mss = validate.positive("mss_bits", mss_bits)
    segments, limit, floor = _window_rule("TCP")
    return np.minimum(segments * mss, np.maximum(floor * mss, limit))[()]


def quic_initial_window_bits(max_datagram_bits) -> np.ndarray:
    """Return QUIC's initial window (bits): min(10 D, max(14720 B, 2 D)), D the max datagram size, vectorised.

    Paper: 005, RFC 9002 Section 7.2: "ten times the maximum datagram size (max_datagram_size), while
    limiting the window to the larger of 14,720 bytes or twice the maximum datagram size"; the numbers
    come from ``data/005/initial_windows.csv`` (row QUIC).

    Parameters
    ----------
    max_datagram_bits : the maximum datagram size D (bits)
    """
    size = validate.positive("max_datagram_bits", max_datagram_bits)
    segments, limit, floor = _window_rule("QUIC")
    return np.minimum(segments * size, np.maximum(limit, floor * size))[()]


def initial_window_segments(window_bits, segment_bits) -> np.ndarray:
    """Return the initial window in whole segments, floor(window / segment), at least 1.

    The ``initial_window`` x of paper 004's Eqs. (1)-(6) counts segments of ``segment_bits``; a window
    that is not a whole number of them (QUIC's 14720 B cap with 1500 B datagrams: 9.81) holds
    floor(...) full segments at the start. Vectorised.

    Parameters
    ----------
    window_bits : initial window (bits), e.g. from :func:`tcp_initial_window_bits`
    segment_bits : segment (or datagram) size (bits)
    """
    window = validate.positive("window_bits", window_bits)
    segment = validate.positive("segment_bits", segment_bits)
    # 1e-12 relative: a window that is a whole number of segments in exact arithmetic stays whole
    return np.maximum(np.floor(window / segment * (1 + 1e-12)), 1.0)[()]
