"""Paper 004's operating point (Table II's stated parameters) and the one convention applied to every row.

* :data:`CONVENTION_AXES`: the conventions the paper leaves open, each with its candidates in order
  of a-priori plausibility (see :mod:`paperlib.conventions`);
* :class:`Convention`: one reading of the paper, a value of every axis;
* :func:`operating_point` and :func:`model_inputs`: Table II's parameters, in SI under a convention;
* :func:`model_latencies_s`: Eqs. (5) and (6) at Table II's five rates under one convention;
* :func:`convention_search`: every combination scored against the printed model cells, best first;
  :func:`chosen_convention`: the one the fixed rule picks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import conventions, units
from paperlib.data import Paper
from paperlib.models.slow_start_latency import sctp_latency_s, tcp_latency_s
from paperlib.reproduce.p004.convention import Convention

PAPER = "004"

#: The open conventions of Table II, candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    # "T_r = 0.1 second" is the round trip as printed, or the one-way delay set
    # on the NIST Net emulator (so the round trip is 0.2 s).
    "rtt_meaning": ["printed_rtt", "one_way_delay"],
    # KB of the 50 KB object: 1000 or 1024 bytes.
    "kilo": [units.DECIMAL, units.BINARY],
    # Initial window x (segments): 2 as in Figure 1, 1 (TCP's old value),
    # 3 (RFC 2960's min(4 MTU, max(2 MTU, 4380 B)) for a 1500 B MTU), 4.
    "initial_window": [2, 1, 3, 4],
    # The closed form as printed (floor in gamma) or corrected (agrees with the schedule).
    "form": ["printed", "corrected"],
    # How the authors went from their value to two printed decimals.
    "rounding": ["half_up", "truncate"],
    # Table II's "number of objects = 5": latency of one 50 KB object, or of
    # all five objects sent as one 250 KB transfer.
    "objects_per_transfer": [1, 5],
}


@dataclass(frozen=True)
class OperatingPoint:
    """Table II's stated parameters, in printed units (converted under a convention)."""

    obj_size_kb: float
    mtu_bytes: float
    rtt_printed_s: float
    n_objects: int
    rates_bps: np.ndarray
    rate_labels: list[str]


def operating_point(paper: Paper) -> OperatingPoint:
    """Return Table II's operating point as stated in the text of paper 004."""
    obj = paper.text_value("obj_size")
    mtu = paper.text_value("mtu")
    rtt = paper.text_value("rtt")
    n = paper.text_value("n_objects")
    table = paper.tables["table2"]
    labels = list(table.cells["BANDWIDTH"])
    rates = np.array([units.parse_quantity(label).to_si() for label in labels])
    return OperatingPoint(
        obj_size_kb=obj.value,
        mtu_bytes=units.to_si(mtu.value, mtu.unit) / units.BITS_PER_BYTE,
        rtt_printed_s=units.to_si(rtt.value, rtt.unit),
        n_objects=int(n.value),
        rates_bps=rates,
        rate_labels=labels,
    )


def model_inputs(point: OperatingPoint, rtt_meaning: str, kilo: int, objects_per_transfer: int = 1):
    """Return ``(obj_bits, mtu_bits, rtt_s)`` of Table II under the given conventions."""
    rtt = point.rtt_printed_s * (2.0 if rtt_meaning == "one_way_delay" else 1.0)
    obj_bits = units.kbytes_to_bits(point.obj_size_kb, kilo=kilo) * objects_per_transfer
    mtu_bits = units.bytes_to_bits(point.mtu_bytes)
    return float(obj_bits), float(mtu_bits), rtt


def model_latencies_s(point: OperatingPoint, conv: Convention) -> tuple[np.ndarray, np.ndarray]:
    """Return (SCTP, TCP) latency (s, exact) at Table II's rates under the convention ``conv``: Eqs. (5) and (6).

    ``conv.rounding`` plays no part: it says how a value was printed, not what it is.
    """
    obj, mtu, rtt = model_inputs(point, conv.rtt_meaning, conv.kilo, conv.objects_per_transfer)
    rates = point.rates_bps
    return (sctp_latency_s(obj, mtu, rates, rtt, conv.initial_window, form=conv.form),
            tcp_latency_s(obj, mtu, rates, rtt, conv.initial_window, form=conv.form))


def printed_model_cells(paper: Paper) -> list[str]:
    """Return the printed Model(SCTP) then Model(TCP) cells of Table II, top to bottom."""
    cells = paper.tables["table2"].cells
    return list(cells["Model(SCTP)"]) + list(cells["Model(TCP)"])


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return every convention combination scored on Table II's 10 model cells, best first.

    A combination the model cannot evaluate (the printed closed form with a
    non-power-of-2 window) scores NaN cells, i.e. zero reproduced.
    """
    point = operating_point(paper)
    printed = printed_model_cells(paper)

    def regenerate(**choice):
        conv = Convention.from_choice(choice)
        if conv.form == "printed" and not printed_form_applies(conv.initial_window):
            return np.full(len(printed), np.nan)
        return np.concatenate(model_latencies_s(point, conv))

    results = conventions.search(CONVENTION_AXES, regenerate, printed)
    # A printed row is reproduced when both of its model cells are (SCTP hits first, then TCP).
    n = len(printed) // 2
    results.insert(
        results.columns.get_loc("reproduced") + 1,
        "rows_reproduced",
        [sum(a == b == "1" for a, b in zip(h[:n], h[n:], strict=True)) for h in results["hits"]],
    )
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> Convention:
    """Return the one convention used for every row of Table II (see :mod:`paperlib.conventions`).

    ``search`` is :func:`convention_search`'s frame for ``paper`` if the caller has it (so the search runs
    once); ``None`` runs it.
    """
    search = convention_search(paper) if search is None else search
    return Convention.from_choice(conventions.choose(search, CONVENTION_AXES))


def printed_form_applies(initial_window: int) -> bool:
    """Return whether the printed closed form can be evaluated: its log2 x is a whole number (x a power of 2)."""
    return initial_window & (initial_window - 1) == 0


def best_by_axis(search: pd.DataFrame) -> pd.DataFrame:
    """Return, for each candidate of each convention, the most model cells any combination with it reproduces."""
    return conventions.best_by_axis(search, CONVENTION_AXES).set_index(["convention", "candidate"])


def chosen_text(search: pd.DataFrame, conv: Convention) -> str:
    """Return the notebook's paragraph (Markdown) on the chosen convention and the runner-up of ``search``."""
    best, runner_up = search.iloc[0], search.iloc[1]
    switches = conv.as_dict()
    return (
        f"**Chosen convention** (one for all rows): {', '.join(f'`{k}={v}`' for k, v in switches.items())}. "
        f"It reproduces **{best.reproduced} of {best.cells}** printed model cells (hit pattern `{best.hits}`, "
        f"SCTP column then TCP column, top to bottom); no combination reproduces more. "
        f"The runner-up (`{', '.join(f'{k}={runner_up[k]}' for k in switches)}`) reproduces {runner_up.reproduced}, "
        f"with mean |relative error| {runner_up.mean_abs_rel_error:.2%} against the chosen one's "
        f"{best.mean_abs_rel_error:.2%}."
    )
