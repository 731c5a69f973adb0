"""TCP over ATM: cells per segment, cell-level efficiency, and time in cells.

Paper: 003 (slides), "Parameters": "MSS = 512 Bytes => 12 cells per
segment => Maximum TCP payload = 78% of link rate = 35.1 Mbps on T3", and the
feedback delay F of the results table, expressed in cells.

A TCP segment of ``mss`` payload bytes travels with its TCP and IP headers,
an LLC/SNAP header (RFC 1483 encapsulation) and the AAL5 trailer, padded to a
whole number of 48-byte cell payloads; each cell is 53 bytes on the wire.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate

CELL_BYTES = 53
CELL_PAYLOAD_BYTES = 48
CELL_BITS = CELL_BYTES * 8

#: Per-segment overhead bytes of the candidate header stacks.
HEADER_STACKS = {
    "tcp+ip+llc/snap+aal5": 20 + 20 + 8 + 8,  # RFC 1483 LLC encapsulation (the default for IP over ATM)
    "tcp+ip+aal5": 20 + 20 + 8,  # VC-multiplexed, no LLC/SNAP
    "tcp(timestamps)+ip+llc/snap+aal5": 32 + 20 + 8 + 8,  # with the RFC 1323 timestamp option
}

#: Physical-layer framing: the share of the line rate left for cells.
FRAMINGS = {
    "none": 1.0,
    "sonet_oc3": 149.76 / 155.52,  # SONET STS-3c: 26/27 of the line rate carries cells
    "t3_plcp": 96_000 * CELL_BITS / 44.736e6,  # DS3 PLCP: 12 cells every 125 us
}


def cells_per_segment(mss_bytes, header_stack: str = "tcp+ip+llc/snap+aal5") -> np.ndarray:
    """Return the ATM cells one TCP segment of ``mss_bytes`` payload needs."""
    validate.choice("header_stack", header_stack, HEADER_STACKS)
    mss = validate.positive("mss_bytes", mss_bytes)
    return np.ceil((mss + HEADER_STACKS[header_stack]) / CELL_PAYLOAD_BYTES)


def tcp_payload_share(mss_bytes, header_stack: str = "tcp+ip+llc/snap+aal5", framing: str = "none") -> np.ndarray:
    """Return the largest share of the line rate that can carry TCP payload: mss / (cells x 53) x framing."""
    validate.choice("framing", framing, FRAMINGS)
    mss = validate.positive("mss_bytes", mss_bytes)
    return mss / (cells_per_segment(mss, header_stack) * CELL_BYTES) * FRAMINGS[framing]


def cells_in(duration_s, line_rate_bps) -> np.ndarray:
    """Return how many cells a link of ``line_rate_bps`` sends in ``duration_s`` (not rounded)."""
    duration = validate.non_negative("duration_s", duration_s)
    return duration * validate.positive("line_rate_bps", line_rate_bps) / CELL_BITS
