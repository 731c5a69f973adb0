"""Seed 000's single-user model under one convention: the only calls of the model functions.

Every evaluation of seed 000's Eq. (2) in this package goes through :func:`response_time_s` or
:func:`response_time_trace`, and the packet and loss counts of Algorithm 1 lines 02-03 through
:func:`packets_and_losses`: a convention (a row of the search, :mod:`.operating_point`) sets the
model's switches here, in :func:`model_switches`, and nowhere else.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import http_response_time as http
from paperlib.models import narrowband_response as nb
from paperlib.models.reading import READING_000

#: Timeout candidates: seed 002's TOdetect (1.5 rtt), one round trip, and the 1 s minimum RTO of
#: RFC 2988 (TCP) and RFC 4960 (SCTP RTO.Min).
TIMEOUTS = ("1.5 rtt", "1 rtt", "1 s")


def timeout_s(timeout: str, rtt_s):
    """Return the timeout of a convention (``"1.5 rtt"``, ``"1 rtt"``, ``"1 s"``) in seconds."""
    validate.choice("timeout", timeout, TIMEOUTS)
    number, unit = timeout.split()
    return float(number) * np.asarray(rtt_s, dtype=float) if unit == "rtt" else np.full(np.shape(rtt_s), float(number))


def model_switches(conv: dict, **changes) -> dict:
    """Return the keywords of :func:`narrowband_response.response_time_s` a convention sets.

    ``setup_rtts`` and ``reading``: seed 000's :data:`~paperlib.models.reading.READING_000` with the
    convention's switches, then ``changes`` (e.g. ``a_mode="round"``).
    """
    return {"setup_rtts": conv["setup_rtts"], "reading": READING_000.with_conventions(conv).with_changes(**changes)}


def response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window, conv: dict, **overrides) -> np.ndarray:
    """Return E(T) by seed 000's Eq. (2) under convention ``conv`` (s), broadcast over the arrays.

    Paper: seed 000, Eq. (2) (:func:`paperlib.models.narrowband_response.response_time_s`); the
    timeout is the convention's (:func:`timeout_s`), ``overrides`` replace model switches
    (e.g. ``a_mode="round"``).
    """
    return nb.response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window,
                              timeout_s=timeout_s(conv["timeout"], rtt_s), **model_switches(conv, **overrides))


def response_time_trace(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window, conv: dict) -> nb.ResponseTime:
    """Return the terms of Eq. (2) at one point under convention ``conv`` (phases, losses, E(T))."""
    return nb.response_time_trace(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window,
                                  timeout_s=float(timeout_s(conv["timeout"], rtt_s)), **model_switches(conv))


def packets_and_losses(obj_bits, mtu_bits, p, conv: dict, **overrides) -> tuple[np.ndarray, np.ndarray]:
    """Return (n, alpha): packets of the object and expected losses (Algorithm 1 lines 02-03) under ``conv``.

    ``overrides`` as in :func:`response_time_s` (``n_mode``, ``a_mode``); alpha is made whole.
    """
    reading = model_switches(conv, **overrides)["reading"]
    packets = http.packets_in_object(obj_bits, mtu_bits, n_mode=reading.n_mode)
    return packets, http.expected_losses(packets, p, a_mode=reading.a_mode).astype(int)
