"""Paper 002's model read under one convention: the only calls of :mod:`paperlib.models.http_response_time`.

A convention (:class:`paperlib.reproduce.p002.convention.Convention`) sets, besides ``kilo``, ``it_rtts``
and ``rounding`` (which the caller applies), the model's switches: Table I's ``pipeline_depth`` and
``sctp_total`` and the algorithm's ``log_mode``, ``a_mode``, ``n_mode``, ``post_loss_slow_start`` and
``final_chunk``. Every part of the paper package evaluates the model through the two functions here, so the
switches are handed to the model in one place, as one :class:`paperlib.models.reading.ModelReading`
(:data:`~paperlib.models.reading.READING_002` with the convention's switches).
"""

from __future__ import annotations

import pandas as pd

from paperlib.models import http_response_time
from paperlib.models.reading import READING_002
from paperlib.reproduce.p002.convention import Convention


def response_times(points, conv: Convention) -> pd.DataFrame:
    """Return the model's TCP and SCTP response times at ``points`` under the convention ``conv``.

    Paper: 002, algorithm and Table I (:func:`paperlib.models.http_response_time.response_times_grid`;
    ``points`` as it takes them, SI units, with ``it_s`` set by the caller).
    """
    return http_response_time.response_times_grid(
        points,
        pipeline_depth=conv.pipeline_depth,
        reading=READING_002.with_conventions(conv),
    )


def object_transfer_time(obj_bits: float, mss_bits: float, rate_bps: float, rtt_s: float, p: float,
                         conv: Convention | None = None) -> http_response_time.ObjectTransferTime:
    """Return the algorithm's object transfer time (OT, tot_hob, a, trace) for one object.

    Paper: 002, "ALGORITHM FOR OBJECT TRANSFER TIME". Under the convention ``conv``'s switches,
    or the model's documented defaults when ``conv`` is ``None``. SI units (bits, bit/s, s).
    """
    if conv is None:
        return http_response_time.object_transfer_time(obj_bits, mss_bits, rate_bps, rtt_s, p)
    return http_response_time.object_transfer_time(obj_bits, mss_bits, rate_bps, rtt_s, p,
                                                   reading=READING_002.with_conventions(conv))
