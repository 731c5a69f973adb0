"""Paper 004's notebook parameters: :func:`check` (before anything is written) and the what-if curves they span.

The what-if parameters change the figures only (latency against the link rate and the initial window,
the closed form against the schedule); Table II and the ledger always use the paper's operating point.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import validate
from paperlib.data import Paper
from paperlib.emulation import experiments
from paperlib.models import slow_start_latency, slow_start_schedule
from paperlib.models.slow_start_latency import sctp_latency_s, tcp_latency_s
from paperlib.parameters import Parameters
from paperlib.reproduce.p004 import operating_point
from paperlib.reproduce.p004.operating_point import Convention


@dataclass(frozen=True)
class WhatIf:
    """Validated what-if parameters of the 004 notebook, in SI."""

    obj_bits: float
    mtu_bits: float
    rtt_s: float
    initial_window: int
    initial_windows: np.ndarray
    rates_bps: np.ndarray


#: Longest what-if grid (rates or initial windows): the figures' curves, not a bulk computation.
MAX_GRID = 10_000
#: Largest initial window (segments) a what-if accepts.
MAX_WINDOW = 2**31
#: Longest round trip a what-if accepts (s): a day; longer ones are no network.
MAX_RTT_S = 86_400.0


def check(*, obj_size_bytes=None, mtu_bytes=None, rtt_s=None, initial_window=None, initial_windows=None,
          rates_bps=None, emulation="off") -> Parameters:
    """Return the notebook's parameters checked, as :class:`paperlib.parameters.Parameters` (``None`` kept: the
    paper's value); nothing computed.

    Strict types (a boolean, a string or a list is not a single number), values (sizes and
    rates positive, a segment at least one byte, windows whole), the cost of the
    segment-by-segment schedule (:data:`paperlib.models.slow_start_schedule.MAX_SEGMENTS`) and the
    emulation profile are checked here, before the notebook writes anything. Raises
    :class:`paperlib.validate.ParameterError` naming the bad parameter.
    """

    def one(name, value, check):
        return None if value is None else validate.scalar(name, value, check)

    def grid(name, value, check):
        return validate.grid(name, value, check, MAX_GRID)

    q = {"obj_size_bytes": one("obj_size_bytes", obj_size_bytes, validate.positive),
         "mtu_bytes": one("mtu_bytes", mtu_bytes, validate.positive),
         "rtt_s": one("rtt_s", rtt_s, validate.non_negative),
         "initial_window": one("initial_window", initial_window, validate.positive_integer),
         "initial_windows": grid("initial_windows", initial_windows, validate.positive_integer),
         "rates_bps": grid("rates_bps", rates_bps, validate.positive)}
    for name in ("initial_window", "initial_windows"):  # beyond int64 a window cannot even be counted
        if q[name] is not None:
            validate.at_most(name, "the initial window (segments)", float(np.max(q[name])), MAX_WINDOW)
    if q["rates_bps"] is not None and q["rates_bps"].min() < 1:  # below 1 bit/s a latency overflows to inf
        raise validate.ParameterError(f"rates_bps must be at least 1 bit/s, got {q['rates_bps'].min()!r}")
    if q["rtt_s"] is not None:
        validate.at_most("rtt_s", "the round-trip time (s)", q["rtt_s"], MAX_RTT_S)
    if q["mtu_bytes"] is not None and q["mtu_bytes"] < 1:
        raise validate.ParameterError(f"mtu_bytes must be at least 1 byte, got {mtu_bytes!r}")
    # The schedule's size: the paper's values where not given (50 KB with KB = 1024 and 5 objects per
    # transfer is the largest object any convention makes; 1500 B segments).
    obj = q["obj_size_bytes"] if q["obj_size_bytes"] is not None else 5 * 50 * 1024
    mtu = q["mtu_bytes"] if q["mtu_bytes"] is not None else 1500
    name = "obj_size_bytes" if q["obj_size_bytes"] is not None or q["mtu_bytes"] is None else "mtu_bytes"
    validate.at_most(name, "the schedule's segment count obj_size_bytes/mtu_bytes", obj / mtu,
                     slow_start_schedule.MAX_SEGMENTS, "the brute-force schedule holds every segment")
    q["emulation"] = experiments.check_profile(emulation)
    return Parameters(q)


def what_if(
    paper: Paper,
    conv: Convention,
    *,
    obj_size_bytes=None,
    mtu_bytes=None,
    rtt_s=None,
    initial_window=None,
    initial_windows=None,
    rates_bps=None,
) -> WhatIf:
    """Return the notebook's what-if parameters validated; ``None`` means Table II's value.

    Raises :class:`paperlib.validate.ParameterError` naming the bad parameter (see :func:`check`).
    """
    q = check(obj_size_bytes=obj_size_bytes, mtu_bytes=mtu_bytes, rtt_s=rtt_s, initial_window=initial_window,
              initial_windows=initial_windows, rates_bps=rates_bps)
    point = operating_point.operating_point(paper)
    obj0, mtu0, rtt0 = operating_point.model_inputs(point, conv.rtt_meaning, conv.kilo)
    obj = obj0 if q["obj_size_bytes"] is None else q["obj_size_bytes"] * 8
    mtu = mtu0 if q["mtu_bytes"] is None else q["mtu_bytes"] * 8
    rtt = rtt0 if q["rtt_s"] is None else q["rtt_s"]
    x = conv.initial_window if q["initial_window"] is None else int(q["initial_window"])
    windows = np.arange(1, 17) if q["initial_windows"] is None else q["initial_windows"].astype(int)
    rates = np.geomspace(10e3, 100e6, 121) if q["rates_bps"] is None else q["rates_bps"]
    validate.at_most("obj_size_bytes" if q["obj_size_bytes"] is not None else "mtu_bytes",
                     "the schedule's segment count", obj / mtu, slow_start_schedule.MAX_SEGMENTS)
    return WhatIf(obj, mtu, rtt, x, np.atleast_1d(windows), np.sort(np.atleast_1d(rates)))


def latency_vs_rate(w: WhatIf) -> pd.DataFrame:
    """Return SCTP/TCP latency (corrected and printed forms) over ``w.rates_bps``: Eqs. (5) and (6)."""
    out = {"rate_bps": w.rates_bps}
    for proto, fn in (("sctp", sctp_latency_s), ("tcp", tcp_latency_s)):
        out[f"{proto}_corrected_s"] = fn(w.obj_bits, w.mtu_bits, w.rates_bps, w.rtt_s, w.initial_window)
        printable = operating_point.printed_form_applies(w.initial_window)
        out[f"{proto}_printed_s"] = (
            fn(w.obj_bits, w.mtu_bits, w.rates_bps, w.rtt_s, w.initial_window, form="printed")
            if printable
            else np.full(len(w.rates_bps), np.nan)
        )
    return pd.DataFrame(out)


def latency_vs_window(w: WhatIf, rates_bps) -> pd.DataFrame:
    """Return SCTP latency (Eq. (5), corrected form) for every initial window and each rate in ``rates_bps``."""
    x, rate = np.meshgrid(w.initial_windows, np.asarray(rates_bps, dtype=float))
    lat = sctp_latency_s(w.obj_bits, w.mtu_bits, rate, w.rtt_s, x)
    return pd.DataFrame({"initial_window": x.ravel(), "rate_bps": rate.ravel(), "sctp_latency_s": lat.ravel()})


def form_comparison(w: WhatIf, rates_bps) -> pd.DataFrame:
    """Return, per rate, alpha, beta, gamma and LT_sctp by the printed form, corrected form and schedule."""
    rates = np.asarray(rates_bps, dtype=float)
    x = w.initial_window
    rows = {
        "rate_bps": rates,
        "segments L_obj/L_mtu": np.full(len(rates), w.obj_bits / w.mtu_bits),
        "alpha (Eq. 1)": np.broadcast_to(slow_start_latency.windows_needed(w.obj_bits, w.mtu_bits, x), rates.shape),
        "beta (Eq. 4)": slow_start_latency.stall_bound(w.mtu_bits, rates, w.rtt_s, x),
        "gamma corrected": slow_start_latency.stall_count(w.obj_bits, w.mtu_bits, rates, w.rtt_s, x),
        "LT corrected (s)": sctp_latency_s(w.obj_bits, w.mtu_bits, rates, w.rtt_s, x),
        "LT schedule (s)": [slow_start_schedule.schedule_latency_s(w.obj_bits, w.mtu_bits, r, w.rtt_s, x)
                            for r in rates],
    }
    if operating_point.printed_form_applies(x):
        rows["gamma printed"] = slow_start_latency.stall_count(w.obj_bits, w.mtu_bits, rates, w.rtt_s, x,
                                                               form="printed")
        rows["LT printed (s)"] = sctp_latency_s(w.obj_bits, w.mtu_bits, rates, w.rtt_s, x, form="printed")
    return pd.DataFrame(rows)
