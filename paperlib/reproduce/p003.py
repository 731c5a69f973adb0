"""Seed 003 (Vandalore et al., bursty WWW sources over ABR): the derived numbers of the slides.

Everything the 003 notebook shows is computed here:

* :func:`workloads`: the original and modified SPECweb96 workloads built from the
  published class tables under one set of unit conventions;
* :data:`CONVENTION_AXES` and :func:`convention_search`: the open conventions
  (base of kB in the tables and in the printed averages, within-class
  distribution, files per batch, ATM header stack, line framing, the rate F is
  counted at, intermediate rounding, print rounding), every combination scored
  on every derived number the slides print; :func:`chosen_convention` picks one;
* :func:`derived_numbers`: every printed derived number regenerated;
* :func:`ledger_rows`: a row for every printed result and claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import conventions, units
from paperlib.corrections import correction
from paperlib.data import Paper
from paperlib.ledger import Row, claim_row, result_row
from paperlib.models import atm_overhead as atm
from paperlib.models.specweb96 import WITHIN_CLASS, Workload, modified_page_classes
from paperlib.rounding import printed_interval, round_to

PAPER = "003"

#: Rates at which the feedback delay F may have been counted in cells (bit/s).
F_LINE_RATES = {"oc3_line": 155.52e6, "oc3_payload": 149.76e6, "t3_line": 44.736e6, "t3_nominal": 45e6}

#: The open conventions, candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    "size_kilo": [units.DECIMAL, units.BINARY],  # bytes in a kB of the class tables
    "mega": ["kilo*kilo", "1000 kB"],  # a MB of the class tables: kilo^2 bytes, or 1000 of its kB
    "report_kilo": [units.DECIMAL, units.BINARY],  # kB / kb of the printed averages
    "within_class": list(WITHIN_CLASS),
    "files_per_batch": [5, 1],  # files per user per inter-batch time, original workload
    "header_stack": list(atm.HEADER_STACKS),
    "framing": list(atm.FRAMINGS),  # physical framing behind "78% of link rate"
    "f_line_rate": list(F_LINE_RATES),  # the rate the feedback delay F is counted in cells at
    "round_intermediate": [False, True],  # 78% rounded before "x 45 Mbps" and before the efficiency column
    "rounding": ["half_up", "truncate"],
}

_P_CELL = re.compile(r"p\s*=\s*(?P<p>\d+(?:\.\d+)?)")


def _size_bits(printed: str, size_kilo: int, mega: str) -> float:
    q = units.parse_quantity(printed)
    if q.unit == "MB" and mega == "1000 kB":
        return q.value * 1000 * size_kilo * units.BITS_PER_BYTE
    return q.to_si(kilo=size_kilo)


def _class_table(paper: Paper, name: str, size_kilo: int, mega: str) -> tuple[np.ndarray, np.ndarray]:
    """Return (class probabilities, base size in bits) of a printed class table."""
    table = paper.tables[name]
    cells = table.cells.set_index("row")
    probs, bases = [], []
    for col in table.columns("input"):
        probs.append(float(_P_CELL.fullmatch(cells.loc["p", col])["p"]))
        first = cells.loc["1", col]
        fix = correction(PAPER, f"{table.path.name} row 1, {col}")
        if fix is not None and fix.printed == first:
            first = fix.read_as
        bases.append(_size_bits(first, size_kilo, mega))
        last = _size_bits(cells.loc["9", col], size_kilo, mega)
        if not np.isclose(last, 9 * bases[-1]):
            raise ValueError(f"{table.path}: {col}: file 9 is not 9 x file 1 ({cells.loc['9', col]!r})")
    return np.array(probs), np.array(bases)


@dataclass(frozen=True)
class Workloads:
    original: Workload
    modified: Workload


def workloads(paper: Paper, *, size_kilo: int, mega: str, within_class: str, files_per_batch: int = 5) -> Workloads:
    """Return the original and modified SPECweb96 workloads of the slides under the given conventions."""
    p0, b0 = _class_table(paper, "specweb96", size_kilo, mega)
    p1, b1 = _class_table(paper, "modified_specweb96", size_kilo, mega)
    images = int(paper.text_value("images_per_page").value)
    original = Workload("SPECweb96", tuple(p0), tuple(b0), within_class, files_per_page=files_per_batch)
    modified = Workload(
        "modified SPECweb96",
        tuple(p1),
        tuple(b1),
        within_class,
        files_per_page=1 + images,
        page_classes=modified_page_classes(p0, 1 + images),
    )
    return Workloads(original, modified)


# --- the derived numbers --------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    """The stated parameters of the slides that the derived numbers use, in SI."""

    inter_batch_s: float
    t3_bps: float
    clients: float
    k_clients: float
    mss_bytes: float
    servers: tuple[str, ...]
    throughput_bps: np.ndarray
    queue_cells: np.ndarray


def inputs(paper: Paper) -> Inputs:
    """Return the stated parameters of seed 003 (text values and the results table's measured columns)."""
    tv = paper.text_value
    res = paper.tables["results"].cells
    return Inputs(
        inter_batch_s=float(units.to_si(tv("inter_batch").value, tv("inter_batch").unit)),
        t3_bps=float(units.to_si(tv("link_45").value, tv("link_45").unit)),
        clients=tv("clients_150").value,
        k_clients=tv("k_clients").value,
        mss_bytes=float(units.to_si(tv("mss").value, tv("mss").unit)) / units.BITS_PER_BYTE,
        servers=tuple(res["# of Servers"]),
        throughput_bps=np.array([units.parse_quantity(c).to_si() for c in res["TCP Throughput"]]),
        queue_cells=np.array([float(c.split("=")[0]) for c in res["Max Switch Q (Cells)"]]),
    )


def _workload_keys(conv: dict) -> dict:
    return {k: conv[k] for k in ("size_kilo", "mega", "within_class", "files_per_batch")}


def derived_values(paper: Paper, conv: dict, *, given: Inputs | None = None,
                   wl: Workloads | None = None) -> dict[str, float]:
    """Return every derived number of the slides, regenerated under ``conv`` (in the printed units).

    ``given`` and ``wl`` (the stated inputs and the workloads under ``conv``)
    may be passed in to save recomputing them across a search.
    """
    x = inputs(paper) if given is None else given
    w = workloads(paper, **_workload_keys(conv)) if wl is None else wl
    share = float(atm.tcp_payload_share(x.mss_bytes, conv["header_stack"], conv["framing"]))
    share_used = round_to(100 * share, 0, "half_up") / 100 if conv["round_intermediate"] else share
    max_payload = share_used * x.t3_bps
    f_cells = float(atm.cells_in(0.010, F_LINE_RATES[conv["f_line_rate"]]))
    load_mod = w.modified.load_per_user_bps(x.inter_batch_s)
    out = {
        "avg_file_size": w.original.mean_file_size_bits() / conv["report_kilo"],  # kb (corrected unit)
        "avg_load_per_user": w.original.load_per_user_bps(x.inter_batch_s) / 1e3,  # kbps
        "avg_file_size_mod": w.modified.mean_file_size_bits() / units.BITS_PER_BYTE / conv["report_kilo"],  # kB
        "bw_per_user_mod": load_mod / 1e6,  # Mbps
        "load_t3": x.clients * load_mod / 1e6,  # Mbps
        "cells_per_segment": float(atm.cells_per_segment(x.mss_bytes, conv["header_stack"])),
        "max_payload_pct": 100 * share,
        "max_payload_t3": max_payload / 1e6,  # Mbps
        "typo_cells_correct": f_cells,
        "typo_cells_wrong": f_cells,
    }
    for n, t, q in zip(x.servers, x.throughput_bps, x.queue_cells):
        out[f"efficiency_{n}"] = 100 * t / max_payload
        out[f"queue_f_{n}"] = q / f_cells
    # The modified table's class probabilities follow from the stated rule:
    # index pages p = 1/5, other classes 0.8 x the original class n-1.
    out.update(modified_class_probs(paper))
    return out


def modified_class_probs(paper: Paper) -> dict[str, float]:
    """Return the modified workload's class probabilities by the stated rule (1/5; 0.8 x original n-1)."""
    orig = paper.tables["specweb96"].cells.set_index("row")
    probs = {"mod_p_Class 0": paper.text_value("p_index").value}
    factor = paper.text_value("p_other").value
    for k, col in enumerate(paper.tables["specweb96"].columns("input"), start=1):
        probs[f"mod_p_Class {k}"] = factor * float(_P_CELL.fullmatch(orig.loc["p", col])["p"])
    return probs


@dataclass(frozen=True)
class Cell:
    """A printed derived number: where it is, its print, and the plain number it is compared as."""

    key: str
    source: str
    row: str
    column: str
    published: str
    compare_as: str
    note: str = ""


def printed_cells(paper: Paper) -> list[Cell]:
    """Return every printed number of the slides that follows from the stated assumptions."""
    out = []
    tv = paper.text_values.cells.set_index("id")
    for key in ("avg_file_size", "avg_load_per_user", "avg_file_size_mod", "bw_per_user_mod", "load_t3",
                "cells_per_segment", "max_payload_pct", "max_payload_t3", "typo_cells_correct",
                "typo_cells_wrong"):
        row = tv.loc[key]
        fix = correction(PAPER, f"text_values {key}")
        out.append(Cell(key, f"text: {row['location']}", key, row["quantity"], f"{row['printed']} {row['unit']}",
                        row["printed"], fix.note() if fix else ""))
    mod = paper.tables["modified_specweb96"].cells.set_index("row")
    for col in paper.tables["modified_specweb96"].columns("input"):
        printed = mod.loc["p", col]
        out.append(Cell(f"mod_p_{col}", "Modified SPECWeb96 table", "p", col, printed,
                        _P_CELL.fullmatch(printed)["p"]))
    results = paper.tables["results"].cells
    for _, r in results.iterrows():
        n = r["# of Servers"]
        q_cells, q_f = (s.strip() for s in r["Max Switch Q (Cells)"].split("="))
        out.append(Cell(f"queue_f_{n}", "Simulation Results table", n, "Max Switch Q (Cells): multiple of F",
                        r["Max Switch Q (Cells)"], q_f.removesuffix(" F").strip()))
        eff = r["Efficiency"]
        fix = correction(PAPER, f"results.csv row {n}, Efficiency")
        number = (fix.read_as if fix and fix.printed == eff else eff).removesuffix("%")
        out.append(Cell(f"efficiency_{n}", "Simulation Results table", n, "Efficiency", eff, number,
                        fix.note() if fix and fix.printed == eff else ""))
    return out


def convention_search(paper: Paper) -> pd.DataFrame:
    """Return every combination of conventions scored on every printed derived number, best first."""
    cells = printed_cells(paper)
    given = inputs(paper)
    memo: dict[tuple, Workloads] = {}

    def regenerate(**conv):
        key = tuple(_workload_keys(conv).values())
        if key not in memo:
            memo[key] = workloads(paper, **_workload_keys(conv))
        values = derived_values(paper, conv, given=given, wl=memo[key])
        return np.array([values[c.key] for c in cells])

    results = conventions.search(CONVENTION_AXES, regenerate, [c.compare_as for c in cells])
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> dict:
    """Return the one convention used for every derived number of seed 003."""
    return conventions.choose(convention_search(paper) if search is None else search, CONVENTION_AXES)


def derived_table(paper: Paper, conv: dict) -> pd.DataFrame:
    """Return each printed derived number beside its regenerated value."""
    values = derived_values(paper, conv)
    return pd.DataFrame(
        [{"number": c.column, "row": c.row, "printed": c.published, "regenerated": values[c.key]}
         for c in printed_cells(paper)]
    )


def users_to_fill(paper: Paper, conv: dict) -> pd.DataFrame:
    """Return how many users of each workload fill 45 and 155 Mbps (not printed; the slides' argument)."""
    w = workloads(paper, **_workload_keys(conv))
    inter = inputs(paper).inter_batch_s
    rows = []
    for wl in (w.original, w.modified):
        load = wl.load_per_user_bps(inter)
        for link in (45e6, 155e6):
            rows.append({"workload": wl.name, "load per user (kbit/s)": load / 1e3, "link (Mbit/s)": link / 1e6,
                         "users to fill": link / load})
    return pd.DataFrame(rows)


# --- ledger -----------------------------------------------------------------------

QUEUE_MAX_REASON = (
    "maximum ABR switch queue of an ATM ABR/ERICA simulation (the OSU ATM simulator); no maintained "
    "simulator offers ABR/ERICA, so it cannot be regenerated; the notebook shows a TCP-over-packet-link "
    "analogue beside it"
)
THROUGHPUT_REASON = (
    "TCP throughput of the ATM ABR/ERICA simulation; no maintained simulator offers ABR/ERICA, so it "
    "cannot be regenerated (it is an input of the Efficiency column, which is regenerated from it)"
)


def ledger_rows(paper: Paper, search: pd.DataFrame | None = None) -> tuple[list[Row], dict]:
    """Return the ledger rows of seed 003 and the convention they were made with."""
    search = convention_search(paper) if search is None else search
    conv = chosen_convention(paper, search)
    values = derived_values(paper, conv)
    best = search.iloc[0]
    conv_text = ", ".join(f"{k}={v}" for k, v in conv.items())
    rows: list[Row] = []
    for c in printed_cells(paper):
        why = (f"regenerated under the one convention chosen by systematic search ({conv_text}; "
               f"{int(best['reproduced'])} of {int(best['cells'])} derived numbers reproduced)")
        compare_as, typo = c.compare_as, bool(c.note)  # a correction of corrections.py is a typo of the print
        if c.note:
            why = f"{c.note}; {why}"
        if c.key == "typo_cells_wrong":
            corrected = paper.text_values.cells.set_index("id").loc["typo_cells_correct", "printed"]
            why = f"the slide itself calls {c.compare_as} a typo for {corrected} (its typo note); " + why
            compare_as, typo = corrected, True
        if c.key.startswith("efficiency_"):
            why += "; " + _efficiency_rounding_note(paper, c, values, conv)
        rows.append(result_row(PAPER, c.source, c.row, c.column, c.published, values[c.key], rule=conv["rounding"],
                               reason=why, compare_as=compare_as, typo=typo,
                               typo_scored_in="typo_cells_correct" if c.key == "typo_cells_wrong" else ""))
    results = paper.tables["results"].cells
    for _, r in results.iterrows():
        n = r["# of Servers"]
        q_cells = r["Max Switch Q (Cells)"].split("=")[0].strip()
        rows.append(result_row(PAPER, "Simulation Results table", n, "Max Switch Q (Cells)", q_cells, None,
                               rule=conv["rounding"], reason=QUEUE_MAX_REASON, not_regenerable=True))
        thr = units.parse_quantity(r["TCP Throughput"])
        rows.append(result_row(PAPER, "Simulation Results table", n, "TCP Throughput", r["TCP Throughput"], None,
                               rule=conv["rounding"], reason=THROUGHPUT_REASON, not_regenerable=True,
                               compare_as=f"{thr.value:g}"))
    rows.extend(claim_rows(paper, conv))
    return rows, conv


def _efficiency_rounding_note(paper: Paper, c: Cell, values: dict, conv: dict) -> str:
    """Say whether a printed efficiency is consistent with the printed throughput, given both roundings."""
    res = paper.tables["results"].cells.set_index("# of Servers")
    thr = units.parse_quantity(res.loc[c.row, "TCP Throughput"])
    lo, hi = printed_interval(f"{thr.value:g}", conv["rounding"])
    max_payload = values["max_payload_t3"]
    e_lo, e_hi = 100 * lo / max_payload, 100 * hi / max_payload
    p_lo, p_hi = printed_interval(c.compare_as, conv["rounding"])
    consistent = max(e_lo, p_lo) < min(e_hi, p_hi)
    return (
        f"Efficiency = TCP throughput / {max_payload:.1f} Mbit/s; the printed {thr.printed} stands for "
        f"[{lo:g}, {hi:g}) Mbit/s, i.e. [{e_lo:.2f}, {e_hi:.2f})%, and the printed {c.compare_as}% for "
        f"[{p_lo:g}, {p_hi:g})%: "
        + ("consistent within the rounding of the printed throughput" if consistent
           else "inconsistent even allowing for rounding")
    )


def _slopes(n: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.diff(y) / np.diff(n)


def claim_rows(paper: Paper, conv: dict) -> list[Row]:
    """Return the ledger rows of the claims of seed 003, each with the measure behind its verdict."""
    claims = paper.claims.cells.set_index("id")
    values = derived_values(paper, conv)
    users = users_to_fill(paper, conv)
    res = paper.tables["results"].cells
    n = res["# of Servers"].astype(float).to_numpy()
    q_f = np.array([values[f"queue_f_{k}"] for k in res["# of Servers"]])
    eff = np.array([values[f"efficiency_{k}"] for k in res["# of Servers"]])
    w = workloads(paper, **_workload_keys(conv))
    x = inputs(paper)
    offered = x.k_clients * n * w.modified.load_per_user_bps(x.inter_batch_s) / 1e6
    rows = []

    def add(ident, status, regenerated, reason):
        c = claims.loc[ident]
        rows.append(claim_row(PAPER, f"slides: {c['location']}", c["claim"], c["printed"], regenerated, status,
                              reason))

    fill = users[(users["workload"] == "SPECweb96") & (users["link (Mbit/s)"] == 155)]["users to fill"].iloc[0]
    add("need_many_users", "supported" if fill >= 10 * paper.text_value("users_150").value else "refuted", fill,
        f"{fill:,.0f} users of the original workload fill 155 Mbps, more than 10x the 150 users simulated "
        "(criterion: at least 10x)")
    ratio = values["bw_per_user_mod"] * 1e3 / values["avg_load_per_user"]
    add("ten_times_demand", "supported" if abs(ratio - 10) <= 1 else "refuted", ratio,
        f"modified / original load per user = {values['bw_per_user_mod'] * 1e3:.1f} / "
        f"{values['avg_load_per_user']:.1f} kbit/s = {ratio:.2f}x, not 10x (criterion: within 10% of 10x); "
        "the mean file grows 8x (117.5 / 14.675 KiB) and the page stays five files")
    qs = _slopes(n, q_f)
    add("queues_linear_then_stable", "supported" if qs[-1] < 0.5 * qs[0] else "refuted", None,
        f"on the published table: queue growth {np.round(qs, 3).tolist()} F per added server between "
        "N = 1, 2, 5, 10 (criterion: the last slope below half the first); an ABR property the analogue "
        "cannot test")
    add("queues_small_multiple_f", "supported" if q_f.max() <= 5 else "refuted", float(q_f.max()),
        f"on the published table: {np.round(q_f, 2).tolist()} F with F = 10 ms at the chosen cell rate "
        "(criterion: at most 5 F)")
    es = _slopes(n, eff)
    add("efficiency_linear_then_stable", "supported" if es[-1] < 0.5 * es[0] else "refuted", None,
        f"on the published table: efficiency growth {np.round(es, 2).tolist()} points per added server "
        "(criterion: the last slope below half the first)")
    overloaded = offered >= values["max_payload_t3"]
    high = bool((eff[overloaded] >= 90).all()) if overloaded.any() else False
    add("efficiency_high", "supported" if high else "refuted", float(eff[overloaded].min()) if overloaded.any() else None,
        f"on the published table: efficiency {np.round(eff, 1).tolist()}% for N = {n.astype(int).tolist()}; "
        f"offered load {np.round(offered, 1).tolist()} Mbit/s of the modified workload, so only N >= 5 can fill the "
        f"{values['max_payload_t3']:.1f} Mbit/s; there efficiency >= 90% (criterion), below that it is bounded "
        "by the offered load")
    add("abr_stable", "untestable", None,
        "stability of ABR/ERICA control loops needs an ABR simulation (queue and rate time series), which no "
        "maintained simulator offers; the published table shows bounded maximum queues only")
    return rows


# --- the ns-3 analogue of the ABR experiment ---------------------------------------


def analogue_points(paper: Paper, conv: dict, *, n_servers, k_clients: int, repetitions: int,
                    sim_time_s: float, warmup_s: float, queue_limit_packets: int) -> list[dict]:
    """Return the sweep points of the ns-3 analogue: one per (N, repetition), stated inputs from the slides."""
    from paperlib import validate
    from paperlib.sim.web_bottleneck import workload_params

    x = inputs(paper)
    w = workloads(paper, **_workload_keys(conv)).modified
    window = paper.text_value("tcp_window_factor").value * units.to_si(
        paper.text_value("tcp_window_unit").value, paper.text_value("tcp_window_unit").unit, kilo=conv["size_kilo"]
    ) / units.BITS_PER_BYTE
    rtt = units.to_si(paper.text_value("wan_rtt").value, paper.text_value("wan_rtt").unit)
    servers = validate.positive_integer("n_servers", n_servers).astype(int).tolist()
    reps = int(validate.positive_integer("repetitions", repetitions))
    common = {
        "k_clients": int(validate.positive_integer("k_clients", k_clients)),
        "bottleneck_bps": x.t3_bps,
        "rtt_s": float(rtt),
        "mss_bytes": int(x.mss_bytes),
        "window_bytes": int(window),
        "inter_batch_s": x.inter_batch_s,
        "sim_time_s": float(validate.positive("sim_time_s", sim_time_s)),
        "warmup_s": float(validate.non_negative("warmup_s", warmup_s)),
        "queue_limit_packets": int(validate.positive_integer("queue_limit_packets", queue_limit_packets)),
        "workload": workload_params(w),
    }
    if common["warmup_s"] >= common["sim_time_s"]:
        raise validate.ParameterError(f"warmup_s ({warmup_s}) must be below sim_time_s ({sim_time_s})")
    return [{**common, "n_servers": n, "rep": r} for n in servers for r in range(reps)]


def analogue_summary(sims: pd.DataFrame, paper: Paper, conv: dict) -> pd.DataFrame:
    """Return, per N, the analogue's mean and 95% t-interval half-width beside the published ABR numbers."""
    from scipy import stats

    values = derived_values(paper, conv)
    max_payload = values["max_payload_t3"] * 1e6
    f_cells = values["typo_cells_correct"]
    x = inputs(paper)
    cells = float(atm.cells_per_segment(x.mss_bytes, conv["header_stack"]))
    packet_max = x.t3_bps * x.mss_bytes / (x.mss_bytes + 40 + 2)  # TCP/IP headers + PPP on the packet link
    d = sims.assign(
        queue_cells=sims["max_queue_packets"] * cells,
        throughput_mbps=sims["throughput_bps"] / 1e6,
        offered_mbps=sims["offered_bps"] / 1e6,
        efficiency_pct=100 * sims["throughput_bps"] / max_payload,
        efficiency_packet_pct=100 * sims["throughput_bps"] / packet_max,
    )
    d["queue_f"] = d["queue_cells"] / f_cells
    out = []
    res = paper.tables["results"].cells.set_index("# of Servers")
    for n, g in d.groupby("n_servers", sort=True):
        row = {"N": int(n), "clients": int(n * g["k_clients"].iloc[0]), "runs": len(g)}
        for col in ("offered_mbps", "throughput_mbps", "efficiency_pct", "efficiency_packet_pct", "queue_cells",
                    "queue_f", "drops"):
            mean = float(g[col].mean())
            half = float(stats.t.ppf(0.975, len(g) - 1) * g[col].std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else np.nan
            row[col] = mean
            row[f"{col}_ci95"] = half
        if str(n) in res.index:
            pub = res.loc[str(n)]
            row["published_queue_cells"] = float(pub["Max Switch Q (Cells)"].split("=")[0])
            row["published_throughput_mbps"] = units.parse_quantity(pub["TCP Throughput"]).value
            row["published_efficiency_pct"] = values[f"efficiency_{n}"]
        out.append(row)
    return pd.DataFrame(out)
