"""Every ledger row of paper 005: each anchor of ``data/005`` and each claim (the four of claims.csv, the questions).

:func:`ledger_rows` is the one entry point (the protocol's, :mod:`paperlib.reproduce.protocol`). Anchors the
package only uses are ``input`` rows (:func:`paperlib.ledger.input_row`: the value as used, and where); the
anchors it can check are scored:

* the printed median page weight against the model's median page (``close``/``differs`` with its reason: the
  sum of per-type medians is not the median page);
* Dukkipati's ~10% against the model's mean IW10 gain over IW4 on the heat map's grid (fixed beforehand,
  :func:`paperlib.reproduce.p005.findings.heatmap_grid`), and against the real stacks' IW10-vs-IW3 gain;
* the handshake round trips of the three families and the initial windows of TCP and QUIC against the real
  stacks' measurements (``protocol_rtts``, the handshake counted on the wire; ``first_flight_packets``);
  without a run, ``not_regenerable`` naming the run that would produce them;
* per HTTP version, whether its two implementations (the Python stack and the C programs Debian ships) agree on
  the handshake counted on the wire and on the loss-free page load time (:func:`implementation_rows`).

Every row but the implementations' is drawn from the Python stacks' runs alone
(:func:`paperlib.reproduce.p005.emulated.python_only`).
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from paperlib import ledger
from paperlib.claims import Verdict
from paperlib.data import Paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, input_row, result_row
from paperlib.models import handshake
from paperlib.reproduce.p005 import claims, operating_point, tables, transports
from paperlib.reproduce.p005.claims import CLAIMS, Evidence
from paperlib.reproduce.p005.operating_point import Convention, OperatingPoint

PAPER = operating_point.PAPER
#: What would produce a real-stack cell that did not run.
RUN_THAT_WOULD = ("the real stacks' run of this notebook (emulation 'reduced' or 'full', make reproduce) on a "
                  "machine that can run them")
#: Where each input anchor is used (the reason of its ``input`` row), by table.
USED = {
    "requests_per_page": "a knot of the request-count quantile function (paperlib.models.web_page."
                         "requests_quantile); p50 is the number of objects of the model's median page",
    "requests_by_type": "the content types' shares of the model's page (paperlib.models.web_page.content_mix)",
    "bytes_by_type": "with requests_by_type, the mean object size of its type in the model's page "
                     "(paperlib.models.web_page.content_mix; homepage rows build the page, inner-page rows "
                     "the what-if page_type)",
    "page_weight_lighthouse": "context beside the median page weight (the notebook's page table); the model does "
                              "not use it",
    "protocol_share": "context: why HTTP/2 and HTTP/3 are the families compared; the model does not use it",
}
#: The handshake rows each family measures (the others the real stacks do not run: TLS 1.2, 0-RTT).
MEASURED_HANDSHAKES = {stack: family for family, stack in transports.HANDSHAKE_STACK.items()}
#: The initial-window rows (initial_windows.csv's ``protocol``) and the family whose first flight checks them.
MEASURED_WINDOWS = {"TCP": "h2", "QUIC": "h3"}
#: The window whose first flight checks the rules' ten segments (RFC 6928, RFC 9002): the larger one run.
IW_NEW = claims.IW_REAL[-1]
#: The source of the rows comparing the two implementations of each HTTP version.
IMPLEMENTATIONS_SOURCE = "paper 005 implementations"
#: The bands, fixed before any run, inside which the 95% interval of C - Python says the implementations agree:
#: the handshake counted on the wire in round trips, the loss-free page load time as a fraction of Python's.
AGREE_BANDS = {"handshake": (-0.1, 0.1), "plt": (-0.05, 0.05)}
#: The implementations of each HTTP version, in words.
IMPLEMENTATION_NAMES = {"h2": ("h2 with Python's ssl", "nghttp2"), "h3": ("aioquic", "ngtcp2")}
#: The row (the claim's text) of each (protocol, measure).
AGREEMENT_TEXT = {
    (proto, measure): f"{version}'s two implementations ({IMPLEMENTATION_NAMES[proto][0]}, "
                      f"{IMPLEMENTATION_NAMES[proto][1]}) agree on {what}"
    for proto, version in (("h2", "HTTP/2"), ("h3", "HTTP/3"))
    for measure, what in (("handshake", "the handshake counted on the wire, within 0.1 round trip"),
                          ("plt", "the loss-free page load time, within 5%"))}
#: The claim id of each (protocol, measure)'s agreement row (the ledger's ``claim_id``).
AGREEMENT_ID = {key: f"implementations_agree_{key[0]}_{key[1]}" for key in AGREEMENT_TEXT}


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: object | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 005: the anchors, Dukkipati's results, the claims and questions.

    Parameters
    ----------
    paper : paper 005's data (:func:`paperlib.data.load_paper`)
    search : :func:`~paperlib.reproduce.p005.operating_point.convention_search`'s frame for ``paper``, if the
        caller has it; ``None`` runs it
    simulations : must be ``None``: paper 005 has no ns-3 run (the parameter is the protocol's)
    real_stacks : the real stacks' runs (:func:`paperlib.emulation.notebook.run` of
        :mod:`paperlib.reproduce.p005.emulated`), or ``None``

    Without ``real_stacks`` the measured anchors are ``not_regenerable`` (the RFC's count or constant as the
    model uses it, and the run that would measure it) and every claim is judged on the model. With them the
    same rows, the measured anchors scored against the real stacks (or saying why they did not run), and each
    claim judged again on them (column ``emulated (real stacks)``).

    Raises :class:`paperlib.validate.ParameterError` naming ``simulations`` if it is given.
    """
    if simulations is not None:
        from paperlib.validate import ParameterError

        raise ParameterError(f"simulations: paper 005 has no ns-3 run, so there is nothing to pass; got "
                             f"{type(simulations).__name__}")
    search = operating_point.convention_search(paper) if search is None else search
    conv = operating_point.chosen_convention(paper, search)
    point = operating_point.operating_point(paper)
    ev = Evidence(paper, conv, point)
    rows = (input_rows(paper) + page_weight_rows(paper, conv) + handshake_rows(paper) + window_rows(paper, point)
            + text_value_rows(paper, ev) + CLAIMS.rows(paper, ev))
    if real_stacks is None:
        return rows
    from paperlib.reproduce.p005 import emulated

    both = real_stacks
    real_stacks = emulated.python_only(both)
    summary = (emulated.summary(paper, real_stacks) if real_stacks.runs is not None
               else pd.DataFrame(columns=emulated.SUMMARY_COLUMNS))
    summary.attrs["lost_runs"] = 0 if real_stacks.lost is None else len(real_stacks.lost)
    handshakes = emulated.handshake_cells(summary, emulated.c_summary(both) if both.runs is not None
                                          else pd.DataFrame(columns=emulated.SUMMARY_COLUMNS))
    measured = measured_rows(rows, conv, summary, real_stacks, handshakes=handshakes, both=both)
    judged = CLAIMS.rows(paper, Evidence(paper, conv, point, real_stacks=summary, handshakes=handshakes))
    return (emulated_rows.replace(rows, measured) + dukkipati_on_real_stacks(rows, summary, real_stacks)
            + emulated_rows.with_run_fidelity(emulated_rows.claims_not_run(
                [r for r in judged if r.column == emulated_rows.REAL_STACKS], real_stacks.not_run), real_stacks)
            + implementation_rows(both))


def _source(table: str) -> str:
    return f"data/005/{table}.csv"


def input_rows(paper: Paper) -> list[Row]:
    """Return one ``input`` row per number of the tables the package only uses (:data:`USED`)."""
    rows: list[Row] = []
    for table, used in USED.items():
        cells = paper.tables[table].cells
        label_columns = [c for c in cells.columns if c not in ("printed", "value", "source", "location", "quote")]
        for _, cell in cells.iterrows():
            rows.append(input_row(PAPER, _source(table), " ".join(str(cell[c]) for c in label_columns), "value",
                                  str(cell["value"]), float(cell["value"]), reason=f"{cell['source']}: {used}"))
    return rows


def page_weight_rows(paper: Paper, conv: Convention) -> list[Row]:
    """Return the printed median page weights scored against the model's median homepage (KB of ``conv``)."""
    table = tables.page_table(paper, conv)
    rows = []
    for _, t in table.iterrows():
        rows.append(result_row(
            PAPER, _source("page_weight"), f"{t['device']} median", "page weight (KB)",
            f"{t['printed median page (KB)']:g}", t["model page (KB)"], rule=conv.rounding, evidence="model",
            convention=conv.describe(),
            reason=(f"the model's median {t['device']} homepage ({t['model objects']} objects, the per-type mean "
                    "object sizes of bytes_by_type / requests_by_type; paperlib.models.web_page.median_page): the "
                    "sum of per-type medians is not the median of page weights, so a gap is a finding of the page "
                    f"model, not an error ({conv.describe()})")))
    return rows


def handshake_rows(paper: Paper) -> list[Row]:
    """Return the handshake round trips: the RFC count as the model uses it; the three families' to be measured."""
    rows = []
    for stack, label in handshake.STACKS.items():
        h = handshake.handshake_rtts(stack)
        family = MEASURED_HANDSHAKES.get(stack)
        if family is None:
            rows.append(input_row(PAPER, _source("handshake_rtts"), label, "rtts", f"{h:g}", h,
                                  reason="the RFC message-flow count (data/005/README.md); the real stacks do not "
                                         "run this handshake; shown in the notebook's handshake table"))
            continue
        rows.append(result_row(PAPER, _source("handshake_rtts"), label, "rtts", f"{h:g}", h, rule="half_up",
                               not_regenerable=True, evidence="model",
                               reason=(f"regenerated is the RFC message-flow count the model uses for {family} "
                                       f"({transports.LABEL[family]}); the measured round trips come from "
                                       f"{RUN_THAT_WOULD}")))
    return rows


def window_rows(paper: Paper, point: OperatingPoint) -> list[Row]:
    """Return the initial-window constants (input) and the windows at the model's segment (to be measured)."""
    cells = paper.tables["initial_windows"].cells
    rows = []
    mss_bytes = point.mss_bits / 8
    for _, w in cells.iterrows():
        for column in ("segments", "byte_limit", "floor_segments"):
            rows.append(input_row(PAPER, _source("initial_windows"), w["protocol"], column, str(w[column]),
                                  float(w[column]), reason=f"{w['source']}: a constant of the initial-window rule "
                                  "(paperlib.models.handshake.tcp_initial_window_bits / quic_initial_window_bits)"))
        family = MEASURED_WINDOWS[w["protocol"]]
        segments = float(tables.initial_window_table((mss_bytes,)).iloc[0][
            "TCP IW (segments)" if w["protocol"] == "TCP" else "QUIC IW (datagrams)"])
        rows.append(result_row(PAPER, _source("initial_windows"), w["protocol"], "first flight (packets)",
                               str(w["segments"]), segments, rule="half_up", not_regenerable=True, evidence="model",
                               reason=(f"regenerated is the rule's window at {mss_bytes:g} B segments, in whole "
                                       f"segments; the packets of {family}'s first flight at IW10 come from "
                                       f"{RUN_THAT_WOULD}")))
    return rows


def text_value_rows(paper: Paper, ev: Evidence) -> list[Row]:
    """Return Dukkipati's and Langley's numbers: the latency gain scored on the model, the rest inputs or not run."""
    rows = []
    tv = paper.text_values.cells.set_index("id")
    gain = claims.dukkipati_gain(ev).set_index("iw_old")
    old = ev.point.dukkipati_iw_old
    for ident, row in tv.iterrows():
        source, label = f"text: {row['location']}", row["quantity"]
        number = row["number"] if str(row["number"]).strip() else row["printed"]
        if ident == "dukkipati_latency_gain":
            others = "; ".join(f"over IW{k}: {v:.2f}%" for k, v in gain["mean gain (%)"].items() if k != old)
            rows.append(result_row(
                PAPER, source, ident, row["quantity"], row["printed"], float(gain.loc[old, "mean gain (%)"]),
                rule="half_up", evidence="model", convention=ev.conv.describe(),
                reason=(f"the model's mean IW10 gain over IW{old} (Dukkipati's old window), 1 - PLT10/PLT{old}, "
                        f"HTTP/2, loss 0, the median desktop homepage, over the heat map's grid fixed beforehand "
                        f"(findings.heatmap_grid: 0.5-100 Mbit/s x 10-400 ms, log spaced); {others}; Dukkipati "
                        "measured the latency of single HTTP responses on Google's traffic, not a page")))
        elif ident == "dukkipati_retx_increase":
            rows.append(result_row(PAPER, source, ident, label, row["printed"], None, rule="half_up",
                                   not_regenerable=True,
                                   reason=("the model's losses do not depend on the window, so it has no "
                                           "retransmission increase to give; the real stacks' retransmissions are "
                                           "not counted")))
        else:
            rows.append(input_row(PAPER, source, ident, label, row["printed"], float(number),
                                  reason=_text_use(ident)))
    return rows


def _text_use(ident: str) -> str:
    return {
        "dukkipati_iw_old_segments": "the old window the IW10 gain is measured against (operating_point."
                                     "dukkipati_iw_old; the claims on Dukkipati's results)",
        "dukkipati_iw_old_kb": "context: the same window in bytes; the model counts it in segments",
        "dukkipati_iw_proposed_segments": "the new window (operating_point.iw_new), checked equal to RFC 6928's 10",
        "dukkipati_iw_proposed_kb": "context: the same window in bytes; the model counts it in segments",
        "langley_internet_share": "context: a measurement of Google's traffic share; the model does not use it",
    }.get(ident, "an anchor of data/005 the package takes as given")


def measured_rows(rows: list[Row], conv: Convention, summary: pd.DataFrame, real_stacks: Emulated, *,
                  handshakes: pd.DataFrame | None = None,
                  both: Emulated | None = None) -> dict[tuple[str, str, str], Row]:
    """Return the measured anchors of ``rows`` scored against the real stacks, by (source, row, column).

    Handshakes: the family's ``protocol_rtts_mean`` (counted on the wire,
    :func:`paperlib.emulation.capture.wire_handshake`) over its loss-free cells with at least two runs that kept
    their timing and whose captures were read (their mean and the mean of their half-widths in quadrature,
    :func:`emulated_rows.mean_difference` against 0), the client-clock figure and the processing beside it in
    the reason. The cells are ``handshakes`` (:func:`paperlib.reproduce.p005.emulated.handshake_cells`: a cell
    the Python stack could not keep is the C implementation's of ``both``, the runs of both, and the row says so);
    without them, the Python stacks' ``summary``. First flights: the
    family's ``first_flight_packets`` at IW10 (every repetition's count, its half-width 0 when they agree).
    A cell not run says why.
    """
    out: dict[tuple[str, str, str], Row] = {}
    ran = summary[summary.n >= 2]

    def put(old: Row, mean, half, n, stack, unit, fid):
        out[(old.source, old.row, old.column)] = emulated_rows.emulated_row(old, mean, half, n, "half_up", stack,
                                                                            unit=unit, testbed=None, fidelity=fid)

    missing = getattr(real_stacks, "missing", {}) or {}

    def skip(old: Row, protocol: str, fid: dict | None):
        why = (real_stacks.not_run or missing.get(protocol)
               or f"{protocol} has no cell run at least twice (with both devices' captures read)")
        out[(old.source, old.row, old.column)] = emulated_rows.real_stack_cell(old, 0, fid, why, None)

    hs_cells = ran if handshakes is None else handshakes
    for old in rows:
        if old.source == _source("handshake_rtts") and old.status == "not_regenerable":
            family = MEASURED_HANDSHAKES[next(s for s, label in handshake.STACKS.items() if label == old.row)]
            cells = hs_cells[(hs_cells.protocol == family) & (hs_cells.loss == claims.LOSS_FREE)]
            cells = cells[cells.wire_n >= 2] if "wire_n" in cells.columns else cells.iloc[0:0]
            fid = real_stacks.cell_fidelity(protocol=family, loss=claims.LOSS_FREE) if real_stacks.not_run is None \
                else None
            if not len(cells):
                skip(old, family, fid)
                continue
            instead = ""
            if both is not None and "implementation" in cells.columns and (cells.implementation == "c").any():
                fid, instead = _c_stands_in(family, cells, real_stacks, both)
            zeros = [0.0] * len(cells)
            mean, half = emulated_rows.mean_difference(cells.protocol_rtts_mean, cells.protocol_rtts_half, zeros,
                                                       zeros)
            put(old, mean, half, int(cells.wire_n.sum()),
                f"{_stack(cells)}{instead}; the loss-free cells only (the count assumes no loss); counted on the wire "
                "(both devices' captures): the client's first packet to its first packet that can carry the "
                "request, less the applications' processing and the link's serialisation "
                f"(paperlib.emulation.capture.wire_handshake; docs/real-stacks-005.md); beside it, the wire "
                f"itself {cells.wire_rtts_mean.mean():.2f} round trips with the applications' processing "
                f"{cells.processing_rtts_mean.mean():.2f}, and the client's own clock (connect to request) "
                f"{cells.handshake_rtts_mean.mean():.2f}", "round trips", fid)
        elif old.source == _source("initial_windows") and old.column == "first flight (packets)":
            family = MEASURED_WINDOWS[old.row]
            cells = ran[(ran.protocol == family) & (ran.iw_segments == IW_NEW) & (ran.loss == claims.LOSS_FREE)
                        & ran.first_flight_packets.notna()]
            if not len(cells):
                # the first flight is read on the capture run (points' ``capture``): if it lost its timing, say so
                checked = real_stacks.runs is not None and "capture" in real_stacks.runs.columns
                fid = (real_stacks.cell_fidelity(protocol=family, loss=claims.LOSS_FREE, iw_segments=IW_NEW,
                                                 capture=True) if real_stacks.not_run is None and checked else None)
                skip(old, family, fid)
                continue
            out[(old.source, old.row, old.column)] = window_checked_row(old, cells)
    return out


def _c_stands_in(family: str, cells: pd.DataFrame, real_stacks: Emulated, both: Emulated) -> tuple[dict | None, str]:
    """Return the fidelity of the C implementation's loss-free runs of ``family`` and the clause saying why its
    cells (the rows of ``cells`` with implementation "c") stand in for the Python stack's
    (:data:`paperlib.reproduce.p005.emulated.HANDSHAKE_RULE`)."""
    from paperlib.reproduce.p005 import emulated

    program = emulated.C_IMPLEMENTATION[family]
    python = real_stacks.cell_fidelity(protocol=family, loss=claims.LOSS_FREE) or {"runs": 0, "runs_kept": 0}
    windows = ", ".join(f"IW{int(iw)}" for iw in cells.iw_segments[cells.implementation == "c"])
    return (both.cell_fidelity(protocol=family, loss=claims.LOSS_FREE, implementation="c"),
            f"; at {windows} counted on {program}'s runs ({emulated.HANDSHAKE_RULE}): {python['runs_kept']} of the "
            f"Python stack's {python['runs']} loss-free runs kept their timing, so the fidelity below is {program}'s")


def window_checked_row(old: Row, cells: pd.DataFrame) -> Row:
    """Return the initial-window row of ``old`` with the capture's check of the real stacks' first flight.

    The window is set on the real stacks (Linux per route, aioquic's constant), so it stays an ``input``: the
    capture shows whether the setting was in force (:func:`paperlib.emulation.capture.iw_checked`: the
    server's first flight of response data, in full-sized packets, between the window and the window plus
    the packets the handshake's acknowledgements may add). A failed check is said first in the reason.
    """
    flights = ", ".join(f"{int(f)}" for f in cells.first_flight_packets)
    ok = bool(cells.iw_checked.all())
    check = ("capture check passed" if ok else "CAPTURE CHECK FAILED (the first flight is outside the window's "
             "bounds: the setting may not have been in force)")
    return dataclasses.replace(input_row(
        PAPER, old.source, old.row, old.column, old.published, float(old.published),
                     reason=(f"{emulated_rows.MARK} {check}: set to {old.published} packets on the real stacks; the "
                             f"server's first flight at IW{IW_NEW}, loss 0: {flights} full-sized packets "
                             f"(paperlib.emulation.capture.first_flight); {_stack(cells)}")), emulation="ran")


def dukkipati_on_real_stacks(rows: list[Row], summary: pd.DataFrame, real_stacks: Emulated) -> list[Row]:
    """Return Dukkipati's ~10% scored against the real stacks' IW10-vs-IW3 gain (column ``emulated (real stacks)``).

    The gain is :func:`claims.iw_gain_on_real_stacks` (its 95% interval); IW3, not Dukkipati's IW4, because the
    real stacks' grid runs 3 and 10. Not run: the row says why.
    """
    old = next(r for r in rows if r.row == "dukkipati_latency_gain")
    base = Row(old.paper, old.source, old.row, emulated_rows.REAL_STACKS, old.published, "", "", "not_regenerable",
               f"the real stacks' IW10-vs-IW3 gain comes from {RUN_THAT_WOULD}", evidence="none")
    got = claims.iw_gain_on_real_stacks(summary)
    if got is None:
        missing = getattr(real_stacks, "missing", {}) or {}
        why = real_stacks.not_run or missing.get("h2") or "h2 has no IW3 and IW10 cells run at least twice"
        return [emulated_rows.not_run_row(base, why)]
    mean, half, n = got
    fid = real_stacks.cell_fidelity(protocol="h2", loss=claims.LOSS_FREE)
    return [emulated_rows.emulated_row(base, 100 * mean, 100 * half, n, "half_up", fidelity=fid, stack=
                                       f"h2 at {claims.LINK_TEXT} without loss, 1 - PLT(IW10)/PLT(IW3) on the median "
                                       "desktop homepage (Dukkipati measured single responses on Google's traffic)",
                                       unit="%", testbed="Google's front ends and their users' paths")]


def _stack(cells: pd.DataFrame) -> str:
    """Return the stack sentence of ``cells``: the one of their largest window (the cells differ only in the
    window and the loss), with the windows they span."""
    top = cells.sort_values(["iw_segments", "loss"]).iloc[-1]
    windows = ", ".join(str(int(w)) for w in sorted(cells.iw_segments.unique()))
    return f"{top['stack']} (cells at IW {windows})"


def claim_rows(rows: list[Row]) -> list[Row]:
    """Return the claim rows of ``rows`` (:func:`paperlib.ledger.is_claim`)."""
    return [r for r in rows if ledger.is_claim(r.status, r.column)]


def implementation_rows(real_stacks: Emulated) -> list[Row]:
    """Return, per HTTP version and measure, whether its two implementations agree (column ``emulated (real
    stacks)``, source :data:`IMPLEMENTATIONS_SOURCE`, row :data:`AGREEMENT_TEXT`).

    Judged on :func:`paperlib.reproduce.p005.emulated.implementation_summary` by :func:`agreement_verdict`; the
    fidelity of the runs behind them is added (:func:`emulated_rows.with_run_fidelity`). Nothing run, or the
    protocol or its C programs missing: the rows say why (:func:`emulated_rows.not_run_row`).
    """
    from paperlib.reproduce.p005 import emulated

    missing = {**(getattr(real_stacks, "missing", {}) or {})}
    c_missing = getattr(real_stacks, "c_missing", {}) or {}
    table = (emulated.implementation_summary(real_stacks) if real_stacks.runs is not None
             else pd.DataFrame(columns=emulated.IMPLEMENTATION_COLUMNS))
    lost = real_stacks.lost
    # the runs that lost their timing in the cells compared: loss 0, HTTP/2 and HTTP/3
    table.attrs["lost_runs"] = 0 if lost is None or not len(lost) else int(
        ((lost.loss == 0) & lost.protocol.isin(list(emulated.C_IMPLEMENTATION))).sum())
    rows = []
    for (proto, measure), text in AGREEMENT_TEXT.items():
        why = real_stacks.not_run or missing.get(proto) or c_missing.get(proto)
        if why:
            base = emulated_rows.judged_claim(PAPER, IMPLEMENTATIONS_SOURCE, text, "", None, "untestable",
                                              "the two implementations' runs did not both run",
                                              claim_id=AGREEMENT_ID[(proto, measure)])
            rows.append(emulated_rows.not_run_row(base, why))
            continue
        v = agreement_verdict(table, proto, measure)
        rows.append(v.row(PAPER, IMPLEMENTATIONS_SOURCE, AGREEMENT_ID[(proto, measure)], text, "", "real stacks"))
    return emulated_rows.with_run_fidelity(rows, real_stacks)


def agreement_verdict(table: pd.DataFrame, protocol: str, measure: str) -> Verdict:
    """Return whether ``protocol``'s two implementations agree on ``measure`` ("handshake" or "plt") in ``table``
    (:func:`paperlib.reproduce.p005.emulated.implementation_summary`'s).

    The difference C - Python over the windows both ran at least twice (for the handshake, with at least two
    runs' captures read each): the handshake counted on the wire in round trips, the page load time as a fraction
    of Python's; its mean over the windows and 95% half-width are :func:`emulated_rows.mean_difference`'s.
    Supported when that interval lies inside :data:`AGREE_BANDS` (fixed before any run), refuted when wholly
    outside (:func:`emulated_rows.band_verdict`), inconclusive otherwise with the replications that would decide
    (:func:`emulated_rows.to_decide`). The reason gives both implementations' processing on the handshake's
    path beside it. No window both ran: :func:`emulated_rows.no_cells`.
    """
    if measure not in AGREE_BANDS:
        raise ValueError(f"measure must be one of {sorted(AGREE_BANDS)}, got {measure!r}")
    count = "wire_n" if measure == "handshake" else "n"
    cells = table[(table.protocol == protocol) & (table[count] >= 2)]
    py = cells[cells.implementation == "python"].set_index("iw_segments")
    c = cells[cells.implementation == "c"].set_index("iw_segments")
    windows = sorted(py.index.intersection(c.index))
    python_name, c_name = IMPLEMENTATION_NAMES[protocol]
    if not windows:
        return emulated_rows.no_cells(f"{protocol} has no initial window that both implementations ({python_name}, "
                                      f"{c_name}) ran at least twice without loss", table,
                                      source=IMPLEMENTATIONS_SOURCE)
    py, c = py.loc[windows], c.loc[windows]
    band = AGREE_BANDS[measure]
    if measure == "handshake":
        mean, half = emulated_rows.mean_difference(c.protocol_rtts_mean, c.protocol_rtts_half, py.protocol_rtts_mean,
                                                   py.protocol_rtts_half)
        what, scale, unit = "the handshake counted on the wire", 1.0, " round trips"
    else:
        mean, half = emulated_rows.mean_difference(c.plt_mean_s, c.plt_half_s, py.plt_mean_s, py.plt_half_s,
                                                   scale=py.plt_mean_s)
        what, scale, unit = "the page load time relative to Python's", 100.0, "%"
    status = emulated_rows.band_verdict(mean - half, mean + half, *band)
    reps = int(min(py[count].min(), c[count].min()))
    needed, note = emulated_rows.to_decide(status, mean, half, reps, emulated_rows.nearest(mean, band))
    top = c.index.max()
    reason = (f"{emulated_rows.MARK} {what}, {c_name} - {python_name}, without loss at {claims.LINK_TEXT}, over IW "
              f"{', '.join(str(int(w)) for w in windows)}: {scale * mean:+.2f} +/- {scale * half:.2f}{unit} (95% CI); "
              f"the implementations agree inside {scale * band[0]:+g} to {scale * band[1]:+g}{unit}, fixed before "
              f"any run{note}. Beside it, not judged: the applications' processing on the handshake's path "
              f"{python_name} {py.processing_rtts_mean.mean():.2f}, {c_name} {c.processing_rtts_mean.mean():.2f} round "
              f"trips; the page load time {python_name} {py.plt_mean_s.mean():.3f} s, {c_name} "
              f"{c.plt_mean_s.mean():.3f} s; {c_name}: {c.loc[top, 'stack']}")
    return Verdict(status, reason, regenerated=scale * mean, column=emulated_rows.REAL_STACKS,
                          source=IMPLEMENTATIONS_SOURCE, replications_to_decide=needed)
