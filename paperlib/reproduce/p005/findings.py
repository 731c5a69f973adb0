"""Paper 005's questions asked of the page model: page load time per transport, the IW10 gain, the crossover, 40 kbit/s.

Every function evaluates :mod:`paperlib.models.page_transfer` (``docs/reconstruction-005.md`` Sec. 4 and 6)
on a grid, vectorised (numpy broadcasting over rate x RTT x loss x initial window, no Python loop over grid
points), for the transport families of :mod:`paperlib.reproduce.p005.transports`, and returns a tidy frame
(one row per protocol and grid point, SI units, the unit in the column name).

* :func:`transport_times`: page load time, mean object time, time to first byte, handshake round trips;
* :func:`iw_gain`: what an initial window of 10 segments saves against 2, 3 or 4 (paper 004's question);
* :func:`crossover_loss`: the loss from which one family's page loads faster than another's (papers 000
  and 002's question: head-of-line blocking);
* :func:`narrowband_what_if`: papers 000 and 002's 40 kbit/s, 256 ms setting with today's page;
* :func:`heatmap_grid`: the rate x RTT grid of the IW10 heat map.

The model's readings (``mss_bits``, ``loss_cost``, ``order``, ``a_mode``) are keywords of every function:
the package's convention passes them. ``loss_cost``, ``order`` and ``a_mode`` default to those of
:func:`paperlib.models.page_transfer.object_completion_s`; ``mss_bits`` has no default.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from paperlib import data, units, validate
from paperlib.models import handshake, page_transfer, web_page
from paperlib.reproduce.p005 import transports

#: Initial windows (segments) an IW10 sender is compared with: 2, paper 000's initial window (``data/000``
#: ``cwnd_init``: "its initial value is 2 x mtu") and RFC 2581's 2 segments; 4, the "at most four segments"
#: TCP started with before Dukkipati et al.'s proposal (``data/005`` ``dukkipati_iw_old_segments``); 3, the
#: window between them (RFC 3390's min(4 MSS, max(2 MSS, 4380 B)) at MSS = 1460 B, not an anchor of data/005).
IW_OLD = (2, 3, 4)
#: The proposed initial window (segments): RFC 6928's 10 (``data/005/initial_windows.csv``, row TCP;
#: ``dukkipati_iw_proposed_segments``).
IW_NEW = 10

#: The IW10 heat map's grid: link rates from 0.5 to 100 Mbit/s and round trips from 10 to 400 ms, log spaced.
HEATMAP_RATES_BPS = (0.5e6, 100e6)
HEATMAP_RTTS_S = (0.010, 0.400)
HEATMAP_POINTS = (25, 21)

_COLUMNS = ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments", "handshake_rtts",
            "plt_s", "mean_object_s", "ttfb_s"]


def _axis(name: str, values, check) -> np.ndarray:
    """Return ``values`` as a checked 1-D float array (a scalar is one point)."""
    arr = np.atleast_1d(check(name, values)).astype(float)
    if arr.ndim != 1 or arr.size == 0:
        raise validate.ParameterError(f"{name} must be a number or a non-empty 1-D sequence, got shape {arr.shape}")
    return arr


def _handshake_rtts(protocol: str, handshake_stacks: dict | None) -> float:
    """Return h of ``protocol``: its stack of :data:`transports.HANDSHAKE_STACK`, or of ``handshake_stacks``."""
    stacks = {**transports.HANDSHAKE_STACK, **(handshake_stacks or {})}
    return handshake.handshake_rtts(stacks[transports.check_protocol(protocol)])


def _page_bits(page: web_page.WebPage) -> np.ndarray:
    if not isinstance(page, web_page.WebPage):
        raise validate.ParameterError(f"page must be a paperlib.models.web_page.WebPage, got {type(page).__name__}")
    return page.object_bits


def _losses_per_packet(page_bits: np.ndarray, mss_bits: float, loss: np.ndarray, a_mode: str) -> np.ndarray:
    """Return a / N, the page's expected losses per packet: p (``"mean"``) or ceil(N p)/N (``"ceil"``).

    ``docs/reconstruction-005.md`` Sec. 4, "losses of the page" (a = N p, paper 002; a = ceil(N p), paper 000).
    """
    validate.choice("a_mode", a_mode, page_transfer.A_MODES)
    n_total = float(page_transfer.packets_per_object(page_bits, mss_bits).sum())
    if a_mode == "mean":
        return loss
    return np.ceil(n_total * loss * (1 - 1e-12)) / n_total


def _times(page_bits, protocol, rate, rtt, loss, iw, *, mss_bits, loss_cost, order, a_mode, handshake_stacks):
    """Return (h, PLT, mean object time, TTFB) of ``protocol`` on flat grid arrays (one value per point)."""
    h = _handshake_rtts(protocol, handshake_stacks)
    reading = {"blocking": transports.BLOCKING[protocol], "loss_cost": loss_cost, "order": order, "a_mode": a_mode}
    times = page_transfer.object_completion_s(page_bits, mss_bits, rate, rtt, loss, iw, h, **reading)
    last = int(np.argmax(page_transfer.last_packet_positions(page_transfer.packets_per_object(page_bits, mss_bits),
                                                             order)))
    # TTFB: the first packet of the response, position 1 of the sending order, read from the same model. A
    # one-packet page (c = n = 1) at the page's losses per packet a/N ("mean": a/N is the loss itself) is
    # T = L(1) + (a/N)(D + H): (h + 1) T_r + MSS/R (paper 004's Eq. (5) for one segment: alpha = 1, gamma = 0)
    # plus the expected delay of the first packet's own losses, in both blocking readings.
    per_packet = _losses_per_packet(page_bits, mss_bits, loss, a_mode)
    first = page_transfer.object_completion_s([mss_bits], mss_bits, rate, rtt, per_packet, iw, h,
                                              **{**reading, "a_mode": "mean"})[..., 0]
    return h, times[..., last], times.mean(axis=-1), first


def transport_times(page: web_page.WebPage, protocols, rate_bps, rtt_s, loss, iw_segments, *, mss_bits,
                    loss_cost: str = "printed", order: str = "round_robin", a_mode: str = "mean",
                    handshake_stacks: dict | None = None) -> pd.DataFrame:
    """Return page load time, mean object time and time to first byte per protocol over rate x RTT x loss x IW.

    Paper: 005's page model (``docs/reconstruction-005.md`` Sec. 4 and 6.1), one row per protocol and point
    of the full grid (every combination of the four axes), columns ``protocol``, ``rate_bps``, ``rtt_s``,
    ``loss``, ``iw_segments``, ``handshake_rtts``, ``plt_s``, ``mean_object_s``, ``ttfb_s``:

    * ``plt_s``: :func:`page_transfer.last_object_time_s`, the expected completion time of the object whose
      last packet leaves last. For ``h2`` (``"shared"`` blocking) it is the expected page load time; for
      ``h3`` and ``sctp`` (``"independent"``) it is a **lower bound** of the expected page load time (another
      object may draw more losses and finish later), exact at ``loss = 0``.
    * ``mean_object_s``: :func:`page_transfer.mean_object_time_s`, the papers' mean response time.
    * ``ttfb_s``: the expected time the first response packet is delivered, the model's T at sending position
      1: (h + 1) T_r + MSS/R (handshake, request round trip, the first packet: paper 004's Eq. (5) for one
      segment) plus (a/N)(D + H), the expected delay of that packet's own losses (D, H of the loss cost).
    * ``handshake_rtts``: h of the protocol's stack (``data/005/handshake_rtts.csv``).

    Parameters
    ----------
    page : the page (:class:`paperlib.models.web_page.WebPage`)
    protocols : names of :data:`transports.PROTOCOLS`, in the order of the rows
    rate_bps, rtt_s, loss, iw_segments : the grid's axes (numbers or 1-D sequences): link rate (bit/s), round
        trip T_r (s), packet loss probability in [0, 1), initial window (whole segments)
    mss_bits : segment size (bits), the convention's reading
    loss_cost, order, a_mode : the model's readings (:func:`page_transfer.object_completion_s`)
    handshake_stacks : optional ``{protocol: stack}`` replacing :data:`transports.HANDSHAKE_STACK` (e.g. the
        same handshake for two families, to see the blocking alone)
    """
    bits = _page_bits(page)
    names = [transports.check_protocol(p) for p in ([protocols] if isinstance(protocols, str) else protocols)]
    if not names:
        raise validate.ParameterError("protocols must name at least one of " + ", ".join(transports.PROTOCOLS))
    mss = validate.scalar("mss_bits", mss_bits, validate.positive)
    axes = (_axis("rate_bps", rate_bps, validate.positive), _axis("rtt_s", rtt_s, validate.non_negative),
            _axis("loss", loss, validate.probability), _axis("iw_segments", iw_segments, validate.positive_integer))
    rate, rtt, p, iw = (a.ravel() for a in np.meshgrid(*axes, indexing="ij"))
    frames = []
    for protocol in names:
        h, plt_s, mean_s, ttfb_s = _times(bits, protocol, rate, rtt, p, iw, mss_bits=mss, loss_cost=loss_cost,
                                          order=order, a_mode=a_mode, handshake_stacks=handshake_stacks)
        frames.append(pd.DataFrame({"protocol": protocol, "rate_bps": rate, "rtt_s": rtt, "loss": p,
                                    "iw_segments": iw.astype(int), "handshake_rtts": h, "plt_s": plt_s,
                                    "mean_object_s": mean_s, "ttfb_s": ttfb_s}))
    return pd.concat(frames, ignore_index=True)[_COLUMNS]


def iw_gain(page: web_page.WebPage, rate_bps, rtt_s, *, iw_old=IW_OLD, iw_new: int = IW_NEW,
            protocol: str = "h2", loss: float = 0.0, mss_bits, loss_cost: str = "printed",
            order: str = "round_robin", a_mode: str = "mean") -> pd.DataFrame:
    """Return the page load time with ``iw_new`` against each of ``iw_old``, over rate x RTT.

    Paper: 004's question (a larger initial window shortens a transfer) on today's page
    (``docs/reconstruction-005.md`` Sec. 6.2). One row per rate x RTT x old window; columns ``rate_bps``,
    ``rtt_s``, ``bdp_bits`` (rate x T_r), ``iw_old``, ``plt_old_s``, ``plt_new_s`` (``plt_s`` of
    :func:`transport_times`), ``gain`` = 1 - plt_new/plt_old and ``saved_s`` = plt_old - plt_new. The gain is
    0 where the old window already fills the path (1 + R T_r/MSS <= x_old: no slow-start stall with either
    window) or the whole page fits the old window, and below 1 (the handshake and the request take (h + 1) T_r
    with any window).

    Parameters
    ----------
    page : the page
    rate_bps, rtt_s : the grid's axes (bit/s, s)
    iw_old : old initial windows (segments); default :data:`IW_OLD`
    iw_new : the new initial window (segments); default :data:`IW_NEW`
    protocol : one of :data:`transports.PROTOCOLS` (default ``"h2"``)
    loss : packet loss probability (default 0)
    mss_bits, loss_cost, order, a_mode : the model's readings (:func:`transport_times`)
    """
    old = _axis("iw_old", iw_old, validate.positive_integer)
    new = validate.scalar("iw_new", iw_new, validate.positive_integer)
    p = validate.scalar("loss", loss, validate.probability)
    windows = np.unique(np.concatenate([old, [new]]))
    t = transport_times(page, [protocol], rate_bps, rtt_s, p, windows, mss_bits=mss_bits, loss_cost=loss_cost,
                        order=order, a_mode=a_mode)
    keys = ["rate_bps", "rtt_s"]
    by_new = t[t.iw_segments == int(new)].set_index(keys)["plt_s"].rename("plt_new_s")
    rows = t[t.iw_segments.isin(old.astype(int))].rename(columns={"iw_segments": "iw_old", "plt_s": "plt_old_s"})
    out = rows[keys + ["iw_old", "plt_old_s"]].join(by_new, on=keys)
    out = out.set_index(["iw_old", *keys]).loc[old.astype(int)].reset_index()  # iw_old in the caller's order
    out.insert(2, "bdp_bits", out.rate_bps * out.rtt_s)
    out["gain"] = 1 - out.plt_new_s / out.plt_old_s
    out["saved_s"] = out.plt_old_s - out.plt_new_s
    return out[["rate_bps", "rtt_s", "bdp_bits", "iw_old", "plt_old_s", "plt_new_s", "gain", "saved_s"]]


def crossover_loss(page: web_page.WebPage, rate_bps: float, rtt_s: float, losses, *, a: str = "h2", b: str = "h3",
                   iw_segments: int = IW_NEW, method: str = "grid", mss_bits, loss_cost: str = "printed",
                   order: str = "round_robin", a_mode: str = "mean", handshake_stacks: dict | None = None) -> float:
    """Return the smallest loss at which protocol ``b``'s page load time is below ``a``'s, NaN if none.

    Paper: 000 and 002's question (does a family without head-of-line blocking load faster, and from which
    loss on) in the page model (``docs/reconstruction-005.md`` Sec. 6.3), with ``plt_s`` of
    :func:`transport_times` (a lower bound for an ``"independent"`` family). ``method`` says which number:

    * ``"grid"`` (default): the smallest value of ``losses`` (sorted) with PLT_b < PLT_a;
    * ``"root"``: the loss where PLT_a - PLT_b changes sign, by Brent's method on the model itself between
      the last grid loss with PLT_b >= PLT_a and the first with PLT_b < PLT_a. NaN if the difference does not
      change sign on the grid (b is faster at the first grid loss already, or never).

    With the default families ``b`` = ``h3`` has one handshake round trip fewer than ``a`` = ``h2``, so b is
    faster at every loss and the grid answer is the smallest loss of the grid; ``handshake_stacks`` gives both
    the same handshake to see the blocking alone.

    Parameters
    ----------
    page : the page
    rate_bps, rtt_s : one link rate (bit/s) and one round trip (s)
    losses : the loss grid (1-D, in [0, 1))
    a, b : protocols of :data:`transports.PROTOCOLS`
    iw_segments : initial window (segments)
    method : ``"grid"`` or ``"root"``
    mss_bits, loss_cost, order, a_mode, handshake_stacks : as :func:`transport_times`
    """
    validate.choice("method", method, ("grid", "root"))
    rate = validate.scalar("rate_bps", rate_bps, validate.positive)
    rtt = validate.scalar("rtt_s", rtt_s, validate.non_negative)
    grid = np.sort(_axis("losses", losses, validate.probability))
    reading = {"mss_bits": mss_bits, "loss_cost": loss_cost, "order": order, "a_mode": a_mode,
               "handshake_stacks": handshake_stacks}

    def difference(p):  # PLT_a - PLT_b at the loss p (vectorised over p)
        t = transport_times(page, [a, b], rate, rtt, p, iw_segments, **reading)
        return (t.plt_s[t.protocol == a].to_numpy() - t.plt_s[t.protocol == b].to_numpy())

    faster = difference(grid) > 0
    if not faster.any():
        return float("nan")
    first = int(np.argmax(faster))
    if method == "grid":
        return float(grid[first])
    if first == 0:
        return float("nan")
    lo, hi = float(grid[first - 1]), float(grid[first])
    # the difference is <= 0 at lo and > 0 at hi; with a = ceil(N p) it jumps, and brentq returns the jump
    return float(brentq(lambda p: float(difference(p)[0]), lo, hi, xtol=1e-12, rtol=1e-10))


@functools.lru_cache(maxsize=1)
def narrowband_setting() -> dict:
    """Return papers 000 and 002's narrowband experiment: rate, RTT, loss, initial window, objects, object size.

    Both papers run it with the same numbers (``data/000/text_values.csv`` ``t1_mu``, ``t1_rtt``, ``t2_p``,
    ``objects_per_html``, ``obj_size``, ``mtu``, ``cwnd_init``, Sec. 4 of paper 000; ``data/002/text_values.csv``
    ``t2_rate``, ``t2_rtt``, ``t3_p``, ``t2_m``, ``t2_obj_size``, ``t2_mss``, Sec. III.B of paper 002): 40 kbit/s,
    256 ms, p = 1 % (Tables 2 and 3 of 000, Tables III and IV of 002), 5 objects of 13.5 KB, MSS 536 B,
    initial window 2 segments (paper 000; 002 states none). Values in SI (bit/s, s, bits), the KB as printed.
    """
    p000 = data.load_paper("000")
    return {
        "rate_bps": units.to_si(p000.text_value("t1_mu").value, "Kbps", kilo=units.DECIMAL),
        "rtt_s": units.to_si(p000.text_value("t1_rtt").value, "ms"),
        "loss": p000.text_value("t2_p").value / 100,
        "iw_segments": int(p000.text_value("cwnd_init").value),
        "objects": int(p000.text_value("objects_per_html").value),
        "object_kb": p000.text_value("obj_size").value,
        "mss_bits": units.bytes_to_bits(p000.text_value("mtu").value),
    }


def paper_page(*, kilo: int = units.DECIMAL) -> web_page.WebPage:
    """Return the page of papers 000 and 002's experiment: 5 objects of 13.5 KB (:func:`narrowband_setting`).

    Parameters
    ----------
    kilo : bytes per KB, 1000 (default) or 1024
    """
    validate.choice("kilo", kilo, (units.DECIMAL, units.BINARY))
    s = narrowband_setting()
    bits = float(units.kbytes_to_bits(s["object_kb"], kilo=kilo))
    return web_page.WebPage(np.full(s["objects"], bits), ("object",) * s["objects"])


def narrowband_what_if(page_today: web_page.WebPage, *, rate_bps: float = 40e3, rtt_s: float = 0.256,
                       loss: float = 0.01, iw_paper: int = 2, iw_new: int = IW_NEW, protocols=transports.PROTOCOLS,
                       kilo: int = units.DECIMAL, mss_bits, loss_cost: str = "printed", order: str = "round_robin",
                       a_mode: str = "mean") -> pd.DataFrame:
    """Return how long papers 000 and 002's narrowband experiment takes with its own page and with today's.

    Paper: 000, Sec. 4 and 002, Sec. III.B (both: 40 kbit/s, 256 ms, p = 1 % in their Tables 2-3 and III-IV,
    5 objects of 13.5 KB; :func:`narrowband_setting` reads them from ``data/000`` and ``data/002``), with
    today's transports and the initial windows ``iw_paper`` (2, paper 000's cwnd_init) and ``iw_new`` (10).
    One row per page x protocol x window: ``page`` (``"paper"``: :func:`paper_page`; ``"today"``:
    ``page_today``), ``objects``, ``page_bits``, then the columns of :func:`transport_times`. Both pages use
    the same ``mss_bits`` (the papers sent 536 B segments: pass ``mss_bits=536 * 8`` for theirs).

    Parameters
    ----------
    page_today : today's page (e.g. :func:`transports.real_stack_page`)
    rate_bps, rtt_s, loss : the setting (defaults: the papers')
    iw_paper, iw_new : the two initial windows (segments)
    protocols : the transport families (default all of :data:`transports.PROTOCOLS`)
    kilo : bytes per KB of the papers' 13.5 KB
    mss_bits, loss_cost, order, a_mode : the model's readings
    """
    windows = [validate.scalar("iw_paper", iw_paper, validate.positive_integer),
               validate.scalar("iw_new", iw_new, validate.positive_integer)]
    reading = {"mss_bits": mss_bits, "loss_cost": loss_cost, "order": order, "a_mode": a_mode}
    frames = []
    for name, page in (("paper", paper_page(kilo=kilo)), ("today", page_today)):
        t = transport_times(page, protocols, rate_bps, rtt_s, loss, windows, **reading)
        t.insert(0, "page_bits", _page_bits(page).sum())
        t.insert(0, "objects", page.objects)
        t.insert(0, "page", name)
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


def heatmap_grid() -> tuple[np.ndarray, np.ndarray]:
    """Return (rates in bit/s, round trips in s): the default grid of the IW10 heat map (:func:`iw_gain`).

    :data:`HEATMAP_POINTS` values each, log spaced over :data:`HEATMAP_RATES_BPS` (0.5 to 100 Mbit/s: a slow
    mobile link to a fast fixed one) and :data:`HEATMAP_RTTS_S` (10 to 400 ms: a nearby server to a
    satellite or intercontinental path). A choice of range, not a number of the data.
    """
    return np.geomspace(*HEATMAP_RATES_BPS, HEATMAP_POINTS[0]), np.geomspace(*HEATMAP_RTTS_S, HEATMAP_POINTS[1])
