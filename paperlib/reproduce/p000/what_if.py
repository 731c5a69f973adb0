"""The 000 notebook's parameters checked, and the what-if grid they span (W against the number of users m).

:func:`check` validates the notebook's parameters (before anything is read or written) and returns them
as :class:`paperlib.parameters.Parameters`;
:func:`what_if` turns them into a point in SI (a parameter left ``None`` takes Table 1's p = 1 % point);
:func:`waiting_vs_users` evaluates W (Eq. (4) and the tables' law) and T (Eq. (6)) against m there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import units, validate
from paperlib.data import Paper
from paperlib.models import multiuser_waiting, narrowband_response
from paperlib.models.http_response_time import MAX_LOSSES
from paperlib.parameters import Parameters
from paperlib.reproduce.p000 import model
from paperlib.reproduce.p000.operating_point import Convention, operating_points, web_object


@dataclass(frozen=True)
class WhatIf:
    """Validated what-if parameters of the 000 notebook, in SI."""

    m_values: np.ndarray
    obj_bits: float
    mtu_bits: float
    rate_bps: float
    rtt_s: float
    p: float


#: Most user counts m of the what-if figure.
MAX_M_VALUES = 10_000


def check(*, m_values=None, p=None, rtt_s=None, rate_bps=None, obj_size_bytes=None, mtu_bytes=None,
          ns3_replications=0, ns3_users=None) -> Parameters:
    """Return the notebook's what-if parameters validated (``None`` kept: the paper's value).

    The values are ``m_values`` (an array, or None), ``p``, ``rtt_s``, ``rate_bps``, ``obj_size_bytes``
    and ``mtu_bytes``; ``ns3_replications`` (0: no ns-3 check) must be a whole number >= 0 and ``ns3_users`` None or
    distinct whole numbers >= 2 (:func:`paperlib.reproduce.p000.ns3.users_of`); they are checked, not returned.
    Raises :class:`paperlib.validate.ParameterError` naming the bad parameter.
    """
    def one(name, value, check):
        return None if value is None else validate.scalar(name, value, check)

    if ns3_replications != 0:
        validate.positive_integer("ns3_replications", ns3_replications)
    from paperlib.reproduce.p000.ns3 import users_of

    users_of(ns3_users)
    ms = None
    if m_values is not None:
        ms = np.atleast_1d(validate.positive_integer("m_values", m_values))
        if ms.ndim != 1:
            raise validate.ParameterError(f"m_values must be a list of whole numbers >= 1, got {m_values!r}")
        validate.at_most("m_values", "the number of values", ms.size, MAX_M_VALUES)
    q = {"m_values": ms, "p": one("p", p, validate.probability), "rtt_s": one("rtt_s", rtt_s, validate.non_negative),
         "rate_bps": one("rate_bps", rate_bps, validate.positive),
         "obj_size_bytes": one("obj_size_bytes", obj_size_bytes, validate.positive),
         "mtu_bytes": one("mtu_bytes", mtu_bytes, validate.positive)}
    if q["mtu_bytes"] is not None and q["mtu_bytes"] < 1:
        raise validate.ParameterError(f"mtu_bytes must be at least 1 byte, got {mtu_bytes!r}")
    # Cost: Eq. (2) loops once per expected loss alpha = ceil(n p), n = theta/mtu packets; the paper's
    # values where not given (13.5 KB with KB = 1024 at most, 536 B packets, p = 1 %).
    n = (q["obj_size_bytes"] or 13.5 * 1024) / (q["mtu_bytes"] or 536)
    name = "obj_size_bytes" if q["obj_size_bytes"] is not None or q["mtu_bytes"] is None else "mtu_bytes"
    validate.at_most(name, "the expected losses ceil(n p) of Eq. (2), n = obj_size_bytes/mtu_bytes",
                     math.ceil(n * (0.01 if q["p"] is None else q["p"])), MAX_LOSSES,
                     "Eq. (2) loops once per loss")
    return Parameters(q)


def what_if(paper: Paper, conv: Convention, **params) -> WhatIf:
    """Return the what-if point in SI; a parameter left ``None`` takes Table 1's p = 1 % point (and m = 5..30).

    Parameters as :func:`check` (``m_values``, ``p``, ``rtt_s``, ``rate_bps``, ``obj_size_bytes``,
    ``mtu_bytes``); the object size follows the convention's KB when not given.
    """
    q = check(**params)
    obj = web_object(paper)
    base = operating_points(paper)[1]  # Table 1, p = 1 %
    return WhatIf(
        m_values=np.array([5.0, 10.0, 20.0, 30.0]) if q["m_values"] is None else q["m_values"],
        obj_bits=(obj.obj_bits(conv.kilo) if q["obj_size_bytes"] is None
                  else q["obj_size_bytes"] * units.BITS_PER_BYTE),
        mtu_bits=obj.mtu_bits if q["mtu_bytes"] is None else q["mtu_bytes"] * units.BITS_PER_BYTE,
        rate_bps=base.rate_bps if q["rate_bps"] is None else q["rate_bps"],
        rtt_s=base.rtt_s if q["rtt_s"] is None else q["rtt_s"],
        p=base.p if q["p"] is None else q["p"],
    )


def waiting_vs_users(w: WhatIf, conv: Convention) -> pd.DataFrame:
    """Return W (Eq. (4) and the tabulated law) and T (Eq. (6)) against m for SCTP and TCP at the what-if point."""
    windows = {"sctp": narrowband_response.SCTP_INITIAL_WINDOW, "tcp": narrowband_response.TCP_INITIAL_WINDOW}
    n = float(multiuser_waiting.packets_per_object(w.obj_bits, w.mtu_bits))
    rows = []
    for proto, window in windows.items():
        e = float(model.response_time_s(w.obj_bits, w.mtu_bits, w.rate_bps, w.rtt_s, w.p, window, conv))
        tau = e / n
        for m in w.m_values:
            rows.append({"protocol": proto, "m": int(m), "E_s": e, "n": n, "tau_s": tau,
                         "W Eq. (4) (s)": float(multiuser_waiting.mean_waiting_time_same(m, n, tau)),
                         "W tabulated law (s)": float(multiuser_waiting.mean_waiting_time_tabulated(m, n, tau)),
                         "T Eq. (6) (s)": float(multiuser_waiting.mean_turnaround_time_same(m, n, tau))})
    return pd.DataFrame(rows)


def run_seed(seed, ns3_replications: int) -> int | None:
    """Return the run's base seed as stamped on its outputs: ``seed`` when the ns-3 check samples
    (``ns3_replications`` > 0), else None (the model is deterministic)."""
    return int(seed) if ns3_replications else None
