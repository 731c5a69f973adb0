"""Seed 000's operating points, printed cells and conventions: the one reading applied to every row.

* :func:`operating_points`: the nine printed blocks of Tables 1-3 (p, mu, rtt) as model inputs,
  from the text and the tables' first column (Table 2's "4 Kbps" read as 40 Kbps, corrections.py);
  :func:`web_object`: theta and mtu of section 4; :func:`printed_cells`: the 144 printed cells;
* :func:`response_times`: E(T_sctp), E(T_tcp) per block by seed 000's Eq. (2)
  (through :mod:`paperlib.reproduce.p000.model`), n, alpha and tau = E/n; :func:`regenerate_cells`:
  the waiting time W of each model cell by Eq. (4) or by the law the tables follow;
* :data:`CONVENTION_AXES` / :func:`convention_search`: the conventions the paper leaves open
  (waiting formula, KB base, the per-object model's open switches, print rounding) scored on the
  72 printed model cells (W_sctp, W_tcp); :func:`chosen_convention` picks one,
  :func:`ledger_convention` is the ledger's (the same with Eq. (4)).

What the search shows (see the notebook): no reading reproduces more than 5 of the 72 printed
model cells, by chance, so conventions are ranked by cells within 5% (:data:`RANK_BY`). The tables
follow W = c (m-1)/m (Eq. (4) divided by m once more, multiuser_waiting.mean_waiting_time_tabulated),
never Eq. (4) itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import conventions, units, validate
from paperlib.corrections import correction
from paperlib.data import Paper
from paperlib.models import multiuser_waiting as mw
from paperlib.models import narrowband_response as nb
from paperlib.reproduce.p000 import model
from paperlib.reproduce.p000.model import TIMEOUTS

PAPER = "000"
TABLES = ("table1", "table2", "table3")
SOURCES = {"table1": "Table 1", "table2": "Table 2", "table3": "Table 3"}
SWEEPS = {"table1": "p", "table2": "mu", "table3": "rtt"}
MODEL_COLUMNS = {"W_{sctp}": "sctp", "W_{tcp}": "tcp"}
EXP_COLUMNS = {"T_{sctp}": "sctp", "T_{tcp}": "tcp"}
PROTOCOL_OF = {**MODEL_COLUMNS, **EXP_COLUMNS}
EXPERIMENT_OF = {"W_{sctp}": "T_{sctp}", "W_{tcp}": "T_{tcp}"}

#: Waiting-time formulas: Eq. (4) as printed, and the law the printed tables follow.
WAITING_LAWS = ("eq4", "tabulated")

#: The open conventions, candidates in order of a-priori plausibility (the first is what the text
#: favours). What the paper states is not searched: alpha = ceil(np) (Algorithm 1 line 03), slow
#: start after every timeout (section 2), th(1) = inf (line 04), the SCTP initial window 2 mtu
#: (Fig. 1) and TCP's different one ("except the number of initial windows, HTTP over TCP model is
#: basically same": 1, RFC 2581 and Fig. 1's window after a timeout);
#: :func:`paperlib.reproduce.p000.findings.printed_departures` shows what departing from them would
#: change (including TCP windows 2 and 4).
CONVENTION_AXES: dict[str, list] = {
    "waiting": list(WAITING_LAWS),  # W by the printed Eq. (4), or by the law the tables follow
    "kilo": [units.DECIMAL, units.BINARY],  # KB of theta = 13.5 KB
    "n_mode": ["ceil", "exact"],  # transmission of n = ceil(theta/mtu) whole packets, or of theta
    "log_mode": ["continuous", "ceil"],  # slow-start windows as 002's "~" (Cardwell) or whole windows
    "timeout": list(TIMEOUTS),  # time to detect a loss by timeout (not given)
    "setup_rtts": [0, 1, 2],  # Eq. (2) has no set-up; "connect ... and download" suggests 1-2 round trips
    "final_chunk": ["N", "N+1"],  # R sends N(alpha+1) packets (000), or one more (002's last step)
    "rounding": ["half_up", "truncate"],
}

#: No reading reproduces more than a handful of the 72 printed model cells, and those by chance
#: (a column of four cells follows c (m-1)/m, so a convention whose c is off by a few per cent can
#: still hit one cell at two decimals): exact matches carry no information, and conventions are
#: ranked by how many printed cells they bring within 5% (paperlib.conventions, primary="close").
RANK_BY = "close"

#: The waiting law of the ledger's regenerated W: the paper's Eq. (4). The law the printed tables
#: follow (c (m-1)/m, ``"tabulated"``) reproduces many printed numbers but is physically
#: impossible: it puts W below the loss-free waiting time of the paper's own packet round-robin
#: (:func:`paperlib.reproduce.p000.findings.waiting_bounds`) in 134 of the 144 printed cells. The
#: per-object model's conventions stay those the search finds (:func:`chosen_convention`); only the
#: law is the paper's.
LEDGER_WAITING = "eq4"


# --- operating points ---------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """One printed block of four rows (m = 5, 10, 20, 30): its table, label and model inputs (SI)."""

    table: str
    label: str  # as printed
    value: str  # as read (after a correction)
    rate_bps: float
    rtt_s: float
    p: float
    note: str = ""  # the correction's sentence, if the label was read differently


def label_column(paper: Paper, table: str) -> str:
    """Return the name of ``table``'s first column (the swept quantity's labels)."""
    return paper.tables[table].columns("label")[0]


def operating_points(paper: Paper) -> list[Point]:
    """Return the nine printed blocks of Tables 1-3 with their stated inputs (text) and swept value (label)."""
    tv = paper.text_value
    t1_rate, t1_rtt = tv("t1_mu").to_si(), tv("t1_rtt").to_si()
    t2_p, t2_rtt = tv("t2_p").to_si(), tv("t2_rtt").to_si()
    t3_p, t3_rate = tv("t3_p").to_si(), tv("t3_mu").to_si()
    out = []
    for table in TABLES:
        col = label_column(paper, table)
        for label in dict.fromkeys(paper.tables[table].cells[col]):
            fix = correction(PAPER, f"{table}.csv {col} {label}")
            value = fix.read_as if fix is not None and fix.printed == label else label
            q = units.parse_quantity(value).to_si()
            note = fix.note() if fix is not None and fix.printed == label else ""
            if table == "table1":
                out.append(Point(table, label, value, t1_rate, t1_rtt, q, note))
            elif table == "table2":
                out.append(Point(table, label, value, q, t2_rtt, t2_p, note))
            else:
                out.append(Point(table, label, value, t3_rate, q, t3_p, note))
    return out


def sweep_value(pt: Point) -> float:
    """Return the value of the quantity ``pt``'s table sweeps (p, mu or rtt), SI."""
    return {"table1": pt.p, "table2": pt.rate_bps, "table3": pt.rtt_s}[pt.table]


@dataclass(frozen=True)
class Object:
    """The web object and packet size of section 4, in printed units."""

    obj_kb: float
    mtu_bytes: float

    def obj_bits(self, kilo: int) -> float:
        """Return theta in bits with ``kilo`` bytes per KB."""
        return float(units.kbytes_to_bits(self.obj_kb, kilo=kilo))

    @property
    def mtu_bits(self) -> float:
        """Return mtu in bits."""
        return float(units.bytes_to_bits(self.mtu_bytes))


def web_object(paper: Paper) -> Object:
    """Return theta = 13.5 KB and mtu = 536 B as stated in section 4."""
    obj, mtu = paper.text_value("obj_size"), paper.text_value("mtu")
    return Object(obj.value, float(units.to_si(mtu.value, mtu.unit)) / units.BITS_PER_BYTE)


# --- printed cells ------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One printed cell of Tables 1-3."""

    table: str
    point: int  # index into operating_points()
    label: str
    m: int
    column: str
    published: str
    compare_as: str  # the printed number, or a correction's
    note: str = ""

    @property
    def row(self) -> str:
        """Return the ledger's row label, e.g. ``"1 %, m=5"``."""
        return f"{self.label}, m={self.m}"


def printed_cells(paper: Paper, columns=None) -> list[Cell]:
    """Return the printed cells of Tables 1-3 (``columns``: default all four), table by table, row by row."""
    columns = list(PROTOCOL_OF) if columns is None else list(columns)
    points = operating_points(paper)
    index = {(pt.table, pt.label): i for i, pt in enumerate(points)}
    out = []
    for table in TABLES:
        cells = paper.tables[table].cells
        col = label_column(paper, table)
        for _, r in cells.iterrows():
            for c in columns:
                printed = r[c]
                fix = correction(PAPER, f"{table}.csv {r[col]}, m={r['m']}, {c}")
                applies = fix is not None and fix.printed == printed
                out.append(Cell(table, index[(table, r[col])], r[col], int(r["m"]), c, printed,
                                fix.read_as if applies else printed, fix.note() if applies else ""))
    return out


def model_cells(paper: Paper) -> list[Cell]:
    """Return the 72 printed model cells (W_sctp, W_tcp), in table order."""
    return printed_cells(paper, MODEL_COLUMNS)


# --- the model at the printed points --------------------------------------------------------


def response_times(points: list[Point], obj: Object, conv: dict, **overrides) -> pd.DataFrame:
    """Return, per printed block, n, alpha, E(T_sctp), E(T_tcp) and tau = E/n under ``conv``.

    ``overrides`` replace model switches (e.g. ``a_mode="round"`` for
    :func:`paperlib.reproduce.p000.findings.printed_departures`); ``tcp_initial_window`` replaces
    TCP's initial window.
    """
    rate = np.array([pt.rate_bps for pt in points])
    rtt = np.array([pt.rtt_s for pt in points])
    p = np.array([pt.p for pt in points])
    obj_bits = obj.obj_bits(conv["kilo"])
    overrides = dict(overrides)
    tcp_window = overrides.pop("tcp_initial_window", nb.TCP_INITIAL_WINDOW)
    windows = np.array([[nb.SCTP_INITIAL_WINDOW], [tcp_window]])
    e = model.response_time_s(obj_bits, obj.mtu_bits, rate, rtt, p, windows, conv, **overrides)
    n = float(mw.packets_per_object(obj_bits, obj.mtu_bits))
    _, alpha = model.packets_and_losses(obj_bits, obj.mtu_bits, p, conv, **overrides)
    return pd.DataFrame({
        "table": [pt.table for pt in points], "block": [pt.label for pt in points],
        "rate_bps": rate, "rtt_s": rtt, "p": p, "n": n, "alpha": alpha,
        "E_sctp_s": e[0], "E_tcp_s": e[1], "tau_sctp_s": e[0] / n, "tau_tcp_s": e[1] / n,
    })


def waiting_time_s(m, n, tau, law: str) -> np.ndarray:
    """Return the mean waiting time of m users by Eq. (4) (``"eq4"``) or by the tables' law (``"tabulated"``)."""
    validate.choice("waiting", law, WAITING_LAWS)
    if law == "eq4":
        return mw.mean_waiting_time_same(m, n, tau)
    return mw.mean_waiting_time_tabulated(m, n, tau)


def regenerate_cells(cells: list[Cell], rt: pd.DataFrame, law: str) -> np.ndarray:
    """Return the regenerated W of each model cell from the block response times ``rt``."""
    idx = np.array([c.point for c in cells])
    proto = np.array([PROTOCOL_OF[c.column] for c in cells])
    tau = np.where(proto == "sctp", rt["tau_sctp_s"].to_numpy()[idx], rt["tau_tcp_s"].to_numpy()[idx])
    m = np.array([c.m for c in cells], dtype=float)
    return waiting_time_s(m, rt["n"].to_numpy()[idx], tau, law)


# --- the convention search ----------------------------------------------------------------

_MODEL_KEYS = ("kilo", "n_mode", "log_mode", "timeout", "setup_rtts", "final_chunk")


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return every combination of conventions scored on the 72 printed model cells, best first."""
    points = operating_points(paper)
    obj = web_object(paper)
    cells = model_cells(paper)
    memo: dict[tuple, pd.DataFrame] = {}

    def regen(**conv):
        key = tuple(conv[k] for k in _MODEL_KEYS)
        if key not in memo:
            memo[key] = response_times(points, obj, conv)
        return regenerate_cells(cells, memo[key], conv["waiting"])

    results = conventions.search(CONVENTION_AXES, regen, [c.compare_as for c in cells])
    return conventions.rank(results, CONVENTION_AXES, primary=RANK_BY)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> dict:
    """Return the one convention used for all three tables."""
    search = convention_search(paper) if search is None else search
    return conventions.choose(search, CONVENTION_AXES, primary=RANK_BY)


def ledger_convention(paper: Paper, search: pd.DataFrame | None = None) -> dict:
    """Return the ledger's convention: the search's per-object model choices with :data:`LEDGER_WAITING`."""
    return {**chosen_convention(paper, search), "waiting": LEDGER_WAITING}


def convention_summary(search: pd.DataFrame, conv: dict) -> str:
    """Return the notebook's Markdown paragraph on the chosen convention and how well it does."""
    best = search.iloc[0]
    return (
        f"**Chosen convention** (one for all three tables): {', '.join(f'`{k}={v}`' for k, v in conv.items())}. "
        f"It brings **{best.within_5pct} of {best.cells}** printed model cells within 5% and reproduces "
        f"{best.reproduced}; mean |relative error| {best.mean_abs_rel_error:.1%}. The most cells any convention "
        f"reproduces is {search.reproduced.max()} of {best.cells}. Eq. (4) as printed is off by a factor of about $m$ "
        f"under every convention (best mean |relative error| "
        f"{search[search.waiting == 'eq4'].mean_abs_rel_error.min():.0%})."
    )
