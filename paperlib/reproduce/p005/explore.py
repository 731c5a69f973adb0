"""Paper 005's explorer: page load time of today's page per transport, against rate, RTT, loss or initial window.

The page is the one the real stacks carry (:func:`paperlib.reproduce.p005.transports.real_stack_page`, the Web
Almanac 2024's median desktop homepage, 71 objects); one curve per transport family (HTTP/2 over TLS 1.3 over
TCP, HTTP/3 over QUIC, SCTP streams), from :func:`paperlib.reproduce.p005.findings.protocol_times`. The link
rate, the round trip T_r, the loss probability or the initial window is on the horizontal axis, the others on
sliders; two choices pick the quantity (page load time, mean object time, time to first byte) and the
model's reading of a loss's cost (``docs/reconstruction-005.md`` Sec. 4). The machinery (sliders, in-place
redraw, widget) is :mod:`paperlib.explore`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paperlib.explore import Axis, Curves, Explorer, Slider, int_grid, lin_grid, log_grid
from paperlib.figures import style
from paperlib.models import page_transfer
from paperlib.reproduce.p005 import findings, transports

#: Segment size of the curves (bits): 1460 B, Ethernet's 1500-byte MTU less 20 B of IPv4 and 20 B of TCP
#: header, the MSS the real stacks of paper 004 use (``paperlib.emulation.tcp_settings``).
MSS_BITS = 1460 * 8
#: The quantities the explorer shows: choice label -> column of :func:`findings.protocol_times`.
QUANTITIES = {"page load time": "plt_s", "mean object time": "mean_object_s", "time to first byte": "ttfb_s"}
#: Slider defaults: 10 Mbit/s, 50 ms, no loss, RFC 6928's 10 segments. A starting point, not a printed one.
DEFAULTS = {"rate_bps": 10e6, "rtt_s": 0.05, "loss": 0.0, "iw_segments": findings.IW_NEW}


@lru_cache(maxsize=1)
def page():
    """Return the page of the explorer (the real stacks' page, read once)."""
    return transports.real_stack_page()


def explorer() -> Explorer:
    """Return the explorer of paper 005's page load time per transport family (the page model)."""
    sliders = {
        "rate_bps": Slider("link rate (bit/s)", 10e3, 1e9, DEFAULTS["rate_bps"], log=True),
        "rtt_s": Slider("T_r (s)", 0.0, 0.5, DEFAULTS["rtt_s"]),
        "loss": Slider("loss probability p", 0.0, 0.1, DEFAULTS["loss"]),
        "iw_segments": Slider("initial window (segments)", 1, 64, DEFAULTS["iw_segments"], integer=True),
    }
    axes = {
        "rate": Axis("rate_bps", "link rate (bit/s)", True, log_grid(10e3, 1e9)),
        "rtt": Axis("rtt_s", "round-trip time T_r (s)", False, lin_grid(0.0, 0.5)),
        "loss": Axis("loss", "packet loss probability p", False, lin_grid(0.0, 0.1)),
        "initial window": Axis("iw_segments", "initial window (segments)", False, int_grid(1, 64)),
    }
    choices = {"quantity": tuple(QUANTITIES), "loss_cost": page_transfer.LOSS_COSTS}

    def evaluate(axis, v):
        x = axes[axis].grid()
        args = {k: v[k] for k in sliders}
        args["iw_segments"] = int(args["iw_segments"])
        args[axes[axis].param] = x.astype(int) if axes[axis].param == "iw_segments" else x
        column = QUANTITIES[v["quantity"]]
        lines, done = [], {}
        for proto in transports.PROTOCOLS:
            # families with the same handshake and blocking have the same curve: evaluate it once
            key = (transports.HANDSHAKE_STACK[proto], transports.BLOCKING[proto])
            if key not in done:
                done[key] = findings.protocol_times(page(), proto, args["rate_bps"], args["rtt_s"], args["loss"],
                                                    args["iw_segments"], mss_bits=MSS_BITS,
                                                    loss_cost=v["loss_cost"])[column]
            kw = style(proto, "model")
            kw["label"] = f"{transports.LABEL[proto]}, model"
            lines.append((kw, np.broadcast_to(done[key], x.shape)))
        return Curves(x, lines)

    return Explorer("005", "Paper 005: today's median page (71 objects) over HTTP/2, HTTP/3 and SCTP",
                    "time (s)", sliders, axes, evaluate, choices=choices, yscale="log")
