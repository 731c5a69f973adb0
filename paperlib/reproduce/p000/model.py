"""Paper 000's single-user model under one convention: the only calls of the model functions.

Every evaluation of paper 000's Eq. (2) in this package goes through :func:`response_time_s` or
:func:`response_time_trace`, and the packet and loss counts of Algorithm 1 lines 02-03 through
:func:`packets_and_losses`: a convention (:class:`paperlib.reproduce.p000.convention.Convention`)
sets the model's switches here, in :func:`model_switches`, and nowhere else.
"""

from __future__ import annotations

import numpy as np

from paperlib import validate
from paperlib.models import http_response_time, narrowband_response
from paperlib.models.reading import READING_000
from paperlib.reproduce.p000.convention import Convention

#: Timeout candidates: paper 002's TOdetect (1.5 rtt), one round trip, and the 1 s minimum RTO of
#: RFC 2988 (TCP) and RFC 4960 (SCTP RTO.Min).
TIMEOUTS = ("1.5 rtt", "1 rtt", "1 s")


def timeout_s(timeout: str, rtt_s):
    """Return the timeout of a convention (``"1.5 rtt"``, ``"1 rtt"``, ``"1 s"``) in seconds."""
    validate.choice("timeout", timeout, TIMEOUTS)
    number, unit = timeout.split()
    return float(number) * np.asarray(rtt_s, dtype=float) if unit == "rtt" else np.full(np.shape(rtt_s), float(number))


def model_switches(conv: Convention, **changes) -> dict:
    """Return the keywords of :func:`narrowband_response.response_time_s` a convention sets.

    ``setup_rtts`` and ``reading``: paper 000's :data:`~paperlib.models.reading.READING_000` with the
    convention's switches, then ``changes`` (e.g. ``a_mode="round"``).
    """
    reading = READING_000.with_conventions(conv.as_dict()).with_changes(**changes)
    return {"setup_rtts": conv.setup_rtts, "reading": reading}


def response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window, conv: Convention,
                    **overrides) -> np.ndarray:
    """Return E(T) by paper 000's Eq. (2) under convention ``conv`` (s), broadcast over the arrays.

    Paper: 000, Eq. (2) (:func:`paperlib.models.narrowband_response.response_time_s`); the
    timeout is the convention's (:func:`timeout_s`), ``overrides`` replace model switches
    (e.g. ``a_mode="round"``).
    """
    return narrowband_response.response_time_s(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window,
                                               timeout_s=timeout_s(conv.timeout, rtt_s),
                                               **model_switches(conv, **overrides))


def response_time_trace(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window,
                        conv: Convention) -> narrowband_response.ResponseTime:
    """Return the terms of Eq. (2) at one point under convention ``conv`` (phases, losses, E(T))."""
    return narrowband_response.response_time_trace(obj_bits, mtu_bits, rate_bps, rtt_s, p, initial_window,
                                                   timeout_s=float(timeout_s(conv.timeout, rtt_s)),
                                                   **model_switches(conv))


def packets_and_losses(obj_bits, mtu_bits, p, conv: Convention, **overrides) -> tuple[np.ndarray, np.ndarray]:
    """Return (n, alpha): packets of the object and expected losses (Algorithm 1 lines 02-03) under ``conv``.

    ``overrides`` as in :func:`response_time_s` (``n_mode``, ``a_mode``); alpha is made whole.
    """
    reading = model_switches(conv, **overrides)["reading"]
    packets = http_response_time.packets_in_object(obj_bits, mtu_bits, n_mode=reading.n_mode)
    return packets, http_response_time.expected_losses(packets, p, a_mode=reading.a_mode).astype(int)
