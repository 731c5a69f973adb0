"""Paper 005's claims: the four of ``data/005/claims.csv`` and the package's own questions, one function each.

The questions (issue 25) are the package's, not published data: their text is in their registration here
(:meth:`TransportClaims.question`), never in ``data/005``. Two of them re-ask papers 000's and 002's
SCTP-over-TCP claims as HTTP/3-over-HTTP/2 on today's page; their text quotes ``data/000/claims.csv`` and
``data/002/claims.csv`` by id.

Every claim function takes an :class:`Evidence` and returns one verdict on the page model; when the evidence
carries the real stacks' summary (:func:`paperlib.reproduce.p005.emulated.summary`), the same function returns
its judgement on them instead (column :data:`REAL_STACKS`), decided only where the 95% interval
(:func:`paperlib.emulation.ledger_rows.mean_difference`) decides it; where model and real stacks disagree,
the reason says by how much.

The model side is judged at the real stacks' link (:data:`LINK`, :data:`LOSSES`, the reduced grid of
``emulated``) and on the IW10 heat map's grid (:func:`~paperlib.reproduce.p005.findings.heatmap_grid`),
both fixed before any verdict was computed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import ledger
from paperlib.claims import ClaimError, ClaimRegistry, Verdict
from paperlib.data import Paper, load_paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.reproduce.p005 import emulated, findings, operating_point, transports
from paperlib.reproduce.p005.operating_point import Convention, OperatingPoint

#: The ledger's ``column`` of a claim judged on the real stacks.
REAL_STACKS = emulated_rows.REAL_STACKS
#: The ledger's ``source`` of the package's own questions.
QUESTION_SOURCE = "paper 005 question (issue 25)"
#: The sources of the two questions that re-ask other papers' claims: those claims' rows in their claims.csv (the
#: same whether the real stacks judged the question or could not).
SOURCE_000_SCTP_LESS = "data/000/claims.csv sctp_less_than_tcp"
SOURCE_002_SCTP_20PCT = "data/002/claims.csv sctp_less_20pct"
_RATES, _RTTS, _LOSSES, _WINDOWS, _REPS = emulated.GRIDS["reduced"]
#: The real stacks' link: the reduced grid of ``emulated.points`` (one rate, one round trip), also in the full grid.
LINK = {"rate_bps": _RATES[0], "rtt_s": _RTTS[0]}
#: The real stacks' losses and windows (the same grid).
LOSSES = tuple(_LOSSES)
IW_REAL = tuple(_WINDOWS)
#: The loss at which windows and handshakes are compared: none. Paper 004's slow start is loss-free (with
#: losses, Reno's recovery rather than the initial window sets the page's time), and the handshake anchors
#: count round trips without loss (data/005/README.md): a lost handshake packet costs a retransmission
#: timeout (TCP 1 s, SCTP 3 s), not a round trip.
LOSS_FREE = 0.0
#: The link in words, for the questions' texts.
LINK_TEXT = f"{LINK['rate_bps'] / 1e6:g} Mbit/s and {LINK['rtt_s'] * 1e3:g} ms"
#: Band of a saving of one round trip: a measured saving that rounds to 1 round trip.
ONE_RTT_BAND = (0.5, 1.5)
#: Band of paper 002's "20% on average": the values that print as 20 at one significant figure.
TWENTY_PERCENT_BAND = (15.0, 25.0)


class TransportClaims(ClaimRegistry):
    """A :class:`~paperlib.claims.ClaimRegistry` of ``claims.csv``'s claims plus questions registered with their text.

    :meth:`check_against` matches the functions with ``claims.csv`` leaving the questions out;
    :meth:`rows` judges ``claims.csv``'s claims in its order, then the questions in registration order
    (``row`` = the question's text, ``source`` = :data:`QUESTION_SOURCE` unless the verdict names one).
    """

    def __init__(self, paper_id: str, evidence: str = "printed"):
        super().__init__(paper_id, evidence)
        self.questions: dict[str, str] = {}

    def question(self, claim_id: str, text: str) -> Callable[[Callable[..., Verdict]], Callable[..., Verdict]]:
        """Register the decorated function as the judge of the package's question ``claim_id`` worded ``text``."""
        if not text.strip():
            raise ClaimError(f"paper {self.paper_id}: question {claim_id!r} needs its text")

        def register(fn: Callable[..., Verdict]) -> Callable[..., Verdict]:
            self.claim(claim_id)(fn)
            self.questions[claim_id] = text
            return fn

        return register

    def check_against(self, paper: Paper) -> None:
        """Raise :class:`ClaimError` unless ``claims.csv``'s ids and the non-question functions match one to one."""
        ids = list(paper.claims.cells["id"])
        clash = [i for i in self.questions if i in ids]
        if clash:
            raise ClaimError(f"paper {self.paper_id}: questions {clash} are also claims of data/{self.paper_id}"
                             f"/claims.csv; a question's text lives in its registration only")
        missing = [i for i in ids if i not in self.functions]
        extra = [i for i in self.functions if i not in ids and i not in self.questions]
        if missing or extra:
            raise ClaimError(f"paper {self.paper_id}: data/{self.paper_id}/claims.csv ids without a function: "
                             f"{missing}; functions without a claim in the data or a question: {extra}")

    def rows(self, paper: Paper, *args, source: str | None = None, **kwargs) -> list[ledger.Row]:
        """Return the rows of ``claims.csv``'s claims (:meth:`ClaimRegistry.rows`), then of every question."""
        out = super().rows(paper, *args, source=source, **kwargs)
        for claim_id, text in self.questions.items():
            for v in self.judge(claim_id, *args, **kwargs):
                out.append(v.row(paper.paper, v.source or QUESTION_SOURCE, claim_id, text, "", self.evidence))
        return out


CLAIMS = TransportClaims("005", evidence="model")


@dataclass(frozen=True)
class Evidence:
    """What paper 005's claims are judged on: the paper, its convention and operating point.

    ``real_stacks`` (:func:`paperlib.reproduce.p005.emulated.summary`'s table: one row per protocol, rate_bps,
    rtt_s, loss, iw_segments with ``n``, ``plt_mean_s``, ``plt_half_s``, ``handshake_rtts_mean``,
    ``handshake_rtts_half``, ``protocol_rtts_mean``, ``protocol_rtts_half``, ``wire_n``, ...) switches every
    claim to its judgement on the real stacks. ``handshakes``
    (:func:`paperlib.reproduce.p005.emulated.handshake_cells`: the loss-free cells of the Python stacks, or of
    the C implementation where the Python stack's cell lost its timing, with ``implementation``) is what the
    handshake question counts on; without it, ``real_stacks``.
    """

    paper: Paper
    conv: Convention
    point: OperatingPoint
    real_stacks: pd.DataFrame | None = None
    handshakes: pd.DataFrame | None = None

    @property
    def keywords(self) -> dict[str, object]:
        """Return the model's keywords (:func:`operating_point.model_keywords`)."""
        return operating_point.model_keywords(self.conv, self.point)

    @property
    def page(self):
        """Return the page of the model and of the real stacks (:func:`transports.real_stack_page`, KB of ``conv``)."""
        return operating_point.model_page(self.conv, self.point.device, self.point.page_type)


@functools.lru_cache(maxsize=8)
def _heatmap_gain(conv: Convention, point: OperatingPoint) -> pd.DataFrame:
    rates, rtts = findings.heatmap_grid()
    page = operating_point.model_page(conv, point.device, point.page_type)
    return findings.iw_gain(page, rates, rtts, iw_old=findings.IW_OLD, iw_new=point.iw_new, protocol="h2",
                            **operating_point.model_keywords(conv, point))


def heatmap_gain(ev: Evidence) -> pd.DataFrame:
    """Return :func:`findings.iw_gain` of ``h2`` at loss 0 over the heat map's grid, every old window (cached)."""
    return _heatmap_gain(ev.conv, ev.point)


def link_times(ev: Evidence, *, same_handshake: bool = False) -> pd.DataFrame:
    """Return :func:`findings.transport_times` of every family at :data:`LINK` over :data:`LOSSES` x :data:`IW_REAL`.

    ``same_handshake``: every family gets ``h3``'s handshake, so that only the blocking reading differs.
    """
    stacks = {p: transports.HANDSHAKE_STACK["h3"] for p in transports.PROTOCOLS} if same_handshake else None
    return findings.transport_times(ev.page, transports.PROTOCOLS, LINK["rate_bps"], LINK["rtt_s"], list(LOSSES),
                                    list(IW_REAL), handshake_stacks=stacks, **ev.keywords)


def _model(t: pd.DataFrame, protocol: str, iw: int, column: str = "plt_s") -> pd.Series:
    sel = t[(t.protocol == protocol) & (t.iw_segments == iw)]
    return sel.set_index("loss")[column]


def _stacks(table: pd.DataFrame, protocol: str, iw: int) -> pd.DataFrame:
    """Return the real stacks' rows of ``protocol`` at window ``iw`` on :data:`LINK`, run at least twice, by loss."""
    sel = table[(table.protocol == protocol) & (table.iw_segments == iw) & (table.n >= 2)
                & np.isclose(table.rate_bps, LINK["rate_bps"]) & np.isclose(table.rtt_s, LINK["rtt_s"])]
    return sel.set_index("loss").sort_index()


def _not_run(what: str, table: pd.DataFrame, source: str | None = None) -> Verdict:
    """Return the verdict of a real-stack question with no cell run at least twice: ``fidelity_lost`` when runs
    behind ``table`` lost their timing, else ``untestable`` (:func:`emulated_rows.no_cells`); ``source`` the one
    its judged verdict names, so the row keeps its key whether or not the runs could judge it."""
    return emulated_rows.no_cells(f"{what} has no cell run at least twice, so no interval", table, source=source)


def iw_gain_on_real_stacks(table: pd.DataFrame, protocol: str = "h2") -> tuple[float, float, int] | None:
    """Return the real stacks' relative gain of IW10 over IW3 (1 - PLT10/PLT3) without loss (:data:`LOSS_FREE`),
    its 95% half-width (:func:`emulated_rows.mean_difference` scaled by PLT3) and the repetitions, or None."""
    old, new = _stacks(table, protocol, IW_REAL[0]), _stacks(table, protocol, IW_REAL[1])
    both = old.index.intersection(new.index).intersection([LOSS_FREE])
    if not len(both):
        return None
    o, n = old.loc[both], new.loc[both]
    mean, half = emulated_rows.mean_difference(o.plt_mean_s, o.plt_half_s, n.plt_mean_s, n.plt_half_s,
                                               scale=o.plt_mean_s)
    return mean, half, int(min(o.n.sum(), n.n.sum()))


def iw_gain_verdict(table: pd.DataFrame, model: float | None = None) -> Verdict:
    """Return the real stacks' verdict on "IW10 is faster than IW3" (:func:`iw_gain_on_real_stacks`): supported
    if the gain's 95% interval is above 0, refuted if at most 0, inconclusive if it straddles (with the repetitions
    that would decide it, :func:`emulated_rows.to_decide`); ``model``: the model's gain, quoted beside it."""
    got = iw_gain_on_real_stacks(table)
    if got is None:
        return _not_run("IW3 or IW10 over h2 without loss", table)
    mean, half, n = got
    status = emulated_rows.verdict(mean - half, mean + half, lambda v: v > 0, lambda v: v <= 0)
    beside = "" if model is None else f"; the model gives {model:.1%} ({100 * (mean - model):+.1f} points)"
    needed, note = emulated_rows.to_decide(status, mean, half, n)
    return Verdict(status, f"{emulated_rows.MARK} h2 without loss, 1 - PLT(IW10)/PLT(IW3), {n} repetitions each: "
                   f"{mean:.1%} +/- {half:.1%} (95% CI){beside}{note}", regenerated=100 * mean, column=REAL_STACKS,
                   replications_to_decide=needed, interval95=(100 * (mean - half), 100 * (mean + half)), n=n)


def _paired_cells(table: pd.DataFrame, b: str, iw: int) -> pd.DataFrame:
    """Return ``b``'s rows of :func:`_stacks` (window ``iw``) with at least two runs paired with h2's on the same
    link seeds (``h2_pairs`` of :func:`paperlib.reproduce.p005.emulated.summary`), by loss."""
    rows = _stacks(table, b, iw)
    return rows[rows.h2_pairs >= 2] if "h2_pairs" in rows.columns else rows.iloc[0:0]


def blocking_excess_on_real_stacks(table: pd.DataFrame, b: str, iw: int = IW_REAL[1]) -> pd.DataFrame | None:
    """Return, per loss > 0 both ran, the excess of h2's PLT over ``b``'s beyond their gap at loss 0, or None.

    The gap at loss 0 holds the handshake and everything else the two stacks do not share; what a loss adds
    to it is the head-of-line blocking: (PLT_h2 - PLT_b)(p) - (PLT_h2 - PLT_b)(0). Each gap is the mean of the
    paired differences of runs on the same link seed (``h2_gap_plt_*`` of the summary), so the link's loss
    pattern, which both protocols saw, cancels; the two gaps come from different seeds, so their half-widths add
    in quadrature (:func:`emulated_rows.mean_difference`). Columns ``loss``, ``excess_s``, ``half_s``, ``pairs``
    (the fewer of the two gaps' pairs), sorted by loss; None if loss 0 and a higher loss did not both run.
    """
    rows = _paired_cells(table, b, iw)
    if 0.0 not in rows.index or len(rows) < 2:
        return None
    zero = rows.loc[0.0]
    out = []
    for loss in sorted(float(x) for x in rows.index if x > 0):
        at = rows.loc[loss]
        excess, half = emulated_rows.mean_difference([at.h2_gap_plt_mean_s], [at.h2_gap_plt_half_s],
                                                     [zero.h2_gap_plt_mean_s], [zero.h2_gap_plt_half_s])
        out.append({"loss": loss, "excess_s": excess, "half_s": half,
                    "pairs": int(min(at.h2_pairs, zero.h2_pairs))})
    return pd.DataFrame(out, columns=["loss", "excess_s", "half_s", "pairs"])


# --- data/005/claims.csv -------------------------------------------------------------------------------------

@CLAIMS.claim("dukkipati_largest_high_rtt_bdp")
def dukkipati_largest_high_rtt_bdp(ev: Evidence) -> Verdict:
    """Judge "the benefit is largest in high-RTT and high-BDP networks" on the heat map's grid (IW10 over IW4).

    Model: supported if the mean gain over the cells above the grid's median RTT exceeds that below it, and
    likewise for the bandwidth-delay product; refuted if both are at most; inconclusive if they split.
    Real stacks: untestable (one rate and one RTT).
    """
    if ev.real_stacks is not None:
        return Verdict("untestable", f"{emulated_rows.MARK} the claims judge the real stacks on one link "
                       f"({LINK_TEXT}, the reduced grid's): no RTT or BDP to compare", column=REAL_STACKS)
    g = heatmap_gain(ev)
    g = g[g.iw_old == ev.point.dukkipati_iw_old]
    by_rtt = (g[g.rtt_s > g.rtt_s.median()].gain.mean(), g[g.rtt_s < g.rtt_s.median()].gain.mean())
    by_bdp = (g[g.bdp_bits > g.bdp_bits.median()].gain.mean(), g[g.bdp_bits < g.bdp_bits.median()].gain.mean())
    up = [hi > lo for hi, lo in (by_rtt, by_bdp)]
    status = "supported" if all(up) else "refuted" if not any(up) else "inconclusive"
    return Verdict(status, f"model (h2, loss 0, the median desktop homepage), IW10 over IW{ev.point.dukkipati_iw_old} "
                   f"on the heat map's {g.rate_bps.nunique()} x {g.rtt_s.nunique()} grid: mean gain {by_rtt[0]:.1%} "
                   f"above the median RTT against {by_rtt[1]:.1%} below; {by_bdp[0]:.1%} above the median BDP "
                   f"against {by_bdp[1]:.1%} below", regenerated=100 * by_bdp[0])


@CLAIMS.claim("dukkipati_low_bandwidth_improves")
def dukkipati_low_bandwidth_improves(ev: Evidence) -> Verdict:
    """Judge "low-bandwidth networks also improve" at the heat map's lowest rate (IW10 over IW4).

    Model: supported if the mean gain over the RTTs at the grid's lowest rate is above 0, refuted if it is 0
    (a larger window is never slower in the model, so it cannot be negative). Real stacks: untestable.
    """
    if ev.real_stacks is not None:
        return Verdict("untestable", f"{emulated_rows.MARK} the claims judge the real stacks on one link "
                       f"({LINK_TEXT}, the reduced grid's): no low bandwidth", column=REAL_STACKS)
    g = heatmap_gain(ev)
    low = g[(g.iw_old == ev.point.dukkipati_iw_old) & (g.rate_bps == g.rate_bps.min())]
    mean = float(low.gain.mean())
    return Verdict("supported" if mean > 0 else "refuted",
                   f"model (h2, loss 0) at {low.rate_bps.iloc[0] / 1e6:g} Mbit/s, the heat map's lowest rate: IW10 "
                   f"over IW{ev.point.dukkipati_iw_old} gains {mean:.1%} on average over RTTs "
                   f"{low.rtt_s.min() * 1e3:g}-{low.rtt_s.max() * 1e3:g} ms (from {low.gain.min():.1%} to "
                   f"{low.gain.max():.1%})", regenerated=100 * mean)


@CLAIMS.claim("dukkipati_iw_at_least_ten")
def dukkipati_iw_at_least_ten(ev: Evidence) -> Verdict:
    """Judge "the initial window should be at least ten segments": IW10 against the papers' windows.

    Model: supported if IW10 is never slower than 2, 3 or 4 segments on the heat map's grid and faster on
    part of it (the model's losses do not depend on the window, so it cannot show a cost of a larger one:
    Dukkipati's +0.5% retransmissions are outside it). Real stacks: the relative gain of IW10 over IW3
    (:func:`iw_gain_on_real_stacks`): supported if its 95% interval is above 0, refuted if at most 0.
    """
    if ev.real_stacks is not None:
        return iw_gain_verdict(ev.real_stacks)
    g = heatmap_gain(ev)
    worst, faster = float(g.gain.min()), float((g.gain > 0).mean())
    status = "supported" if worst >= 0 and faster > 0 else "refuted"
    return Verdict(status, f"model (h2, loss 0): IW10 against IW {', '.join(map(str, findings.IW_OLD))} on the heat "
                   f"map's grid: never slower (least gain {worst:.1%}), faster in {faster:.0%} of the cells; the "
                   "model's losses do not depend on the window, so a cost of a larger window cannot show",
                   regenerated=100 * float(g.gain.mean()))


@CLAIMS.claim("langley_deployed_at_scale")
def langley_deployed_at_scale(ev: Evidence) -> Verdict:
    """Judge Langley et al.'s deployment claim: untestable here (a fact of Google's traffic, not of a model)."""
    return Verdict("untestable", "a statement about Google's deployment and traffic: no model or emulated link "
                   "measures it; the Almanac's protocol shares (input rows) are today's context",
                   column=REAL_STACKS if ev.real_stacks is not None else "claim")


# --- the package's own questions ------------------------------------------------------------------------------

@CLAIMS.question("iw10_gain", "An initial window of 10 segments shortens today's median page over HTTP/2 "
                 f"against the papers' window of 3 segments at {LINK_TEXT}, without loss")
def iw10_gain(ev: Evidence) -> Verdict:
    """Judge IW10 against IW3 at :data:`LINK` without loss: the model's relative gain, or the real stacks' with
    its interval (supported above 0, refuted at most 0, inconclusive if the interval straddles)."""
    t = link_times(ev)
    old, new = _model(t, "h2", IW_REAL[0]), _model(t, "h2", IW_REAL[1])
    model = float(1 - new[LOSS_FREE] / old[LOSS_FREE])
    if ev.real_stacks is None:
        return Verdict("supported" if model > 0 else "refuted",
                       f"model (h2, loss 0): 1 - PLT(IW10)/PLT(IW3) = {model:.1%}", regenerated=100 * model)
    return iw_gain_verdict(ev.real_stacks, model)


@CLAIMS.question("quic_handshake_saving", "HTTP/3 over QUIC sends its request one round trip before HTTP/2 over "
                 "TCP + TLS 1.3 (RFC 9000 against RFCs 9293 and 8446)")
def quic_handshake_saving(ev: Evidence) -> Verdict:
    """Judge the saving in round trips: the RFC count (``handshake_rtts.csv``) on the model side; on the real
    stacks the handshake counted on the wire (``protocol_rtts``, :func:`paperlib.emulation.capture.wire_handshake`:
    the round trips of the message flow without the applications' processing and the link's serialisation) of
    h2 minus h3 over the loss-free cells both ran (the count assumes no loss: :data:`LOSS_FREE`), with its
    interval: supported inside :data:`ONE_RTT_BAND`, refuted wholly outside. The reason gives beside it the
    client's own clock (``handshake_rtts``: connect to the request leaving the application) and the
    applications' processing on the handshake's path (``processing_rtts``), as what they are. The cells are
    ``ev.handshakes`` where given (a cell the Python stack could not keep is the C implementation's, named in the
    reason), else ``ev.real_stacks``."""
    t = link_times(ev)
    h = t.groupby("protocol").handshake_rtts.first()
    model = float(h["h2"] - h["h3"])
    if ev.real_stacks is None:
        return Verdict("supported" if ONE_RTT_BAND[0] <= model < ONE_RTT_BAND[1] else "refuted",
                       f"RFC message flows (data/005/handshake_rtts.csv): TCP + TLS 1.3 {h['h2']:g} round trips, "
                       f"QUIC {h['h3']:g}: saving {model:g}", regenerated=model)
    cells = ev.real_stacks if ev.handshakes is None else ev.handshakes
    table = cells[(cells.n >= 2) & (cells.loss == LOSS_FREE)]
    if "wire_n" in table.columns:
        table = table[table.wire_n >= 2]
    else:
        table = table.iloc[0:0]
    keys = ["rate_bps", "rtt_s", "loss", "iw_segments"]
    a = table[table.protocol == "h2"].set_index(keys)
    b = table[table.protocol == "h3"].set_index(keys)
    both = a.index.intersection(b.index)
    if not len(both):
        return _not_run("h2 or h3 (with both devices' captures read)", ev.real_stacks)
    a, b = a.loc[both], b.loc[both]

    def diff(name):
        return emulated_rows.mean_difference(a[f"{name}_mean"], a[f"{name}_half"], b[f"{name}_mean"],
                                             b[f"{name}_half"])

    mean, half = diff("protocol_rtts")
    clock, clock_half = diff("handshake_rtts")
    status = emulated_rows.band_verdict(mean - half, mean + half, *ONE_RTT_BAND)
    reps = int(min(a.n.min(), b.n.min()))
    needed, note = emulated_rows.to_decide(status, mean, half, reps, emulated_rows.nearest(mean, ONE_RTT_BAND))
    return Verdict(status, f"{emulated_rows.MARK} handshake round trips counted on the wire (both devices' "
                   f"captures, the applications' processing and the link's serialisation taken out), without loss, "
                   f"h2 - h3 over {len(both)} cells{_implementations_note(a, b)}: {mean:.2f} +/- {half:.2f} (95% CI); "
                   f"the RFC count {model:g} "
                   f"({mean - model:+.2f}){note}. Beside it, not judged: the wire from first packet to request packet "
                   f"h2 {a.wire_rtts_mean.mean():.2f}, h3 {b.wire_rtts_mean.mean():.2f} round trips, of which the "
                   f"applications' processing h2 {a.processing_rtts_mean.mean():.2f}, h3 "
                   f"{b.processing_rtts_mean.mean():.2f}; the clients' own clocks (connect to request) give "
                   f"h2 - h3 = {clock:.2f} +/- {clock_half:.2f}", regenerated=mean, column=REAL_STACKS,
                   replications_to_decide=needed)


def _implementations_note(*tables: pd.DataFrame) -> str:
    """Return " (h3 at IW10: the C implementation's runs, ...)" for the cells of ``tables`` that a C implementation
    answers (column ``implementation`` of :func:`paperlib.reproduce.p005.emulated.handshake_cells`), else ""."""
    parts = []
    for t in tables:
        if "implementation" not in t.columns:
            continue
        c = t[t.implementation == "c"].reset_index()
        parts += [f"{r.protocol} at IW{int(r.iw_segments)}" for r in c.itertuples()]
    return (f" ({', '.join(parts)}: the C implementation's runs, the Python stack's cell having fewer than two runs "
            "that kept their timing)") if parts else ""


def _blocking(ev: Evidence, b: str) -> Verdict:
    """Judge "``b`` loads the page faster than h2 once packets are lost, beyond the handshake" (see the questions)."""
    t = link_times(ev, same_handshake=True)
    a_m, b_m = _model(t, "h2", IW_REAL[1]), _model(t, b, IW_REAL[1])
    top = max(LOSSES)
    model = float(a_m[top] - b_m[top])
    cross = findings.crossover_loss(ev.page, LINK["rate_bps"], LINK["rtt_s"], list(LOSSES), a="h2", b=b,
                                    iw_segments=IW_REAL[1],
                                    handshake_stacks={p: transports.HANDSHAKE_STACK["h3"] for p in ("h2", b)},
                                    **ev.keywords)
    if ev.real_stacks is None:
        return Verdict("supported" if model > 0 else "refuted",
                       f"model, same handshake for both, IW10: at loss {top:.0%} h2's PLT exceeds {b}'s by "
                       f"{model:.3f} s; the smallest loss of {list(LOSSES)} where {b} is faster: {cross:g}",
                       regenerated=model)
    got = blocking_excess_on_real_stacks(ev.real_stacks, b)
    if got is None:
        return _not_run(f"h2 or {b} at loss 0 and a higher loss", ev.real_stacks)
    top = got.iloc[-1]
    loss, excess, half, pairs = float(top.loss), float(top.excess_s), float(top.half_s), int(top.pairs)
    status = emulated_rows.verdict(excess - half, excess + half, lambda v: v > 0, lambda v: v <= 0)
    needed, note = emulated_rows.to_decide(status, excess, half, pairs)
    decided = got[got.excess_s - got.half_s > 0]
    first = (f"the smallest loss where it is above 0 beyond the interval: {decided.loss.iloc[0]:.0%}" if len(decided)
             else "at no loss run is it above 0 beyond the interval")
    each = ", ".join(f"{r.loss:.0%}: {r.excess_s:.3f} +/- {r.half_s:.3f} s" for r in got.itertuples())
    return Verdict(status, f"{emulated_rows.MARK} IW10, (PLT_h2 - PLT_{b}) paired on the link seed at each loss "
                   f"minus the same at loss 0 (the handshake and the stacks' other differences), {pairs} pairs at "
                   f"{loss:.0%}, 95% CI: {each}; {first}; the model gives "
                   f"{model:.3f} s at {loss:.0%} ({excess - model:+.3f} s; the model's smallest loss of the grid "
                   f"where {b} is faster: {cross:g}){note}", regenerated=excess, column=REAL_STACKS,
                   replications_to_decide=needed, interval95=(excess - half, excess + half), n=pairs)


def loss_limited_time_s(page_bits: float, mss_bits: float, rtt_s: float, p: float, handshake_rtts: float) -> float:
    """Return the time of a page sent at a loss-limited Reno rate: (h + 1) T_r + bits / (MSS / T_r x sqrt(3 / (2p))).

    Mathis, Semke, Mahdavi and Ott, "The macroscopic behavior of the TCP congestion avoidance algorithm"
    (CCR 27(3), 1997), Eq. (3): a Reno flow with periodic losses at rate p sends MSS / RTT x C / sqrt(p), C =
    sqrt(3/2). Used only to explain the gap between the papers' loss model and the real stacks (question
    ``loss_model_holds``): it is not fitted, it has no parameter of its own, and no verdict rests on it.
    """
    rate = mss_bits / rtt_s * np.sqrt(3.0 / (2.0 * p))
    return float((handshake_rtts + 1) * rtt_s + page_bits / rate)


@CLAIMS.question("loss_model_holds", "The papers' loss model (paper 002's cost of each loss on paper 004's "
                 "loss-free windows) predicts the page load time that today's HTTP/2 over TCP measures under loss")
def loss_model_holds(ev: Evidence) -> Verdict:
    """Judge the model's h2 page load time at IW10 against the real stacks' at every loss > 0 of the grid.

    A question of the model against measurement, so it is judged on the real stacks only: supported if the
    model lies inside the 95% interval of the measured mean at every lossy cell, refuted if outside it at
    every one, inconclusive otherwise (the cells split; no number of repetitions is given for a split). The
    reason gives the loss-limited Reno time
    (:func:`loss_limited_time_s`) beside both: the papers' model keeps the loss-free window after a loss
    (``docs/reconstruction-005.md``), a Reno sender halves it.
    """
    if ev.real_stacks is None:
        return Verdict("untestable", "a question of the model against measurement: judged on the real stacks only "
                       "(column 'emulated (real stacks)')")
    measured = _stacks(ev.real_stacks, "h2", IW_REAL[1])
    measured = measured[measured.index > 0]
    if not len(measured):
        return _not_run("h2 at IW10 with loss", ev.real_stacks)
    times = link_times(ev)
    model = _model(times, "h2", IW_REAL[1])
    h = float(times.groupby("protocol").handshake_rtts.first()["h2"])
    inside, parts = [], []
    for loss, row in measured.iterrows():
        m = float(model[loss])
        inside.append(abs(m - row.plt_mean_s) <= row.plt_half_s)
        reno = loss_limited_time_s(ev.page.total_bits, ev.keywords["mss_bits"], LINK["rtt_s"], loss, h)
        parts.append(f"loss {loss:.0%}: measured {row.plt_mean_s:.2f} +/- {row.plt_half_s:.2f} s, model "
                     f"{m:.2f} s ({m / row.plt_mean_s - 1:+.0%}), loss-limited Reno {reno:.2f} s")
    status = "supported" if all(inside) else "refuted" if not any(inside) else "inconclusive"
    ratio = float((model[measured.index] / measured.plt_mean_s).mean())
    return Verdict(status, f"{emulated_rows.MARK} h2, IW10, {LINK_TEXT}: " + "; ".join(parts) + ". The papers' "
                   "model keeps the loss-free window after a loss; a Reno sender halves it and runs at the "
                   "loss-limited rate (Mathis et al. 1997), which is what the real stacks measure",
                   regenerated=ratio, column=REAL_STACKS)


@CLAIMS.question("h3_beats_h2_loss", "Once packets are lost, HTTP/3's independent streams load today's median page "
                 "faster than HTTP/2's one TCP byte stream, beyond the handshake and beyond the interval")
def h3_beats_h2_loss(ev: Evidence) -> Verdict:
    """Judge the head-of-line blocking of h2 against h3 at the highest loss (:func:`blocking_excess_on_real_stacks`)."""
    return _blocking(ev, "h3")


@CLAIMS.question("sctp_streams_same", "SCTP's streams show the same effect as HTTP/3's: once packets are lost they "
                 "load today's median page faster than HTTP/2 (papers 000 and 002's claim, re-asked)")
def sctp_streams_same(ev: Evidence) -> Verdict:
    """Judge the head-of-line blocking of h2 against SCTP streams, as :func:`h3_beats_h2_loss`."""
    return _blocking(ev, "sctp")


def _quoted(paper_id: str, claim_id: str) -> str:
    return str(load_paper(paper_id).claim(claim_id)["claim"])


def _mean_response(ev: Evidence) -> tuple[float, str]:
    """Return the model's mean over :data:`LOSSES` of (h2 - h3)/h2 of the mean object time at IW10, and its text."""
    t = link_times(ev)
    a, b = _model(t, "h2", IW_REAL[1], "mean_object_s"), _model(t, "h3", IW_REAL[1], "mean_object_s")
    rel = float(((a - b) / a).mean())
    return rel, f"model mean object time (the papers' mean response time), IW10, losses {list(LOSSES)}"


def _real_relative(ev: Evidence) -> tuple[float, float, int, int] | None:
    """Return the real stacks' mean over :data:`LOSSES` of (h2 - h3)/h2 of the mean object time at IW10 (the
    papers' mean response time, the model's figure in :func:`_mean_response`), its 95% half-width, the losses and
    the fewest pairs of a loss; None unless every loss of :data:`LOSSES` has at least two runs of each paired on
    the link seed (a cell whose runs lost their timing leaves the question unjudged, rather than judged on fewer
    losses than the model's average: another question).

    Each loss's difference is the mean of the paired differences h2 - h3 (``h2_gap_object_*`` of the summary)
    over h2's mean object time on those pairs; the losses' seeds differ, so their half-widths add in quadrature
    (:func:`emulated_rows.mean_difference`, which also takes the scale as exact)."""
    rows = _paired_cells(ev.real_stacks, "h3", IW_REAL[1])
    if not all(loss in rows.index for loss in LOSSES):
        return None
    at = rows.loc[list(LOSSES)]
    zeros = np.zeros(len(at))
    mean, half = emulated_rows.mean_difference(at.h2_gap_object_mean_s, at.h2_gap_object_half_s, zeros, zeros,
                                               scale=at.h2_paired_object_mean_s)
    return mean, half, len(at), int(at.h2_pairs.min())


@CLAIMS.question("h3_less_than_h2_000", "Paper 000's sctp_less_than_tcp re-asked as HTTP/3 against HTTP/2 on "
                 f"today's median page: \"{_quoted('000', 'sctp_less_than_tcp')}\"")
def h3_less_than_h2_000(ev: Evidence) -> Verdict:
    """Judge 000's "SCTP waits less than TCP" as h3 against h2: supported if h3 is faster (the real stacks:
    the interval of (PLT_h2 - PLT_h3)/PLT_h2 above 0), refuted if not."""
    rel, what = _mean_response(ev)
    if ev.real_stacks is None:
        return Verdict("supported" if rel > 0 else "refuted", f"{what}: h3 shorter by {rel:.1%} on average",
                       regenerated=100 * rel, source=SOURCE_000_SCTP_LESS)
    got = _real_relative(ev)
    if got is None:
        return _not_run(f"h2 or h3 at IW10 at a loss of {list(LOSSES)}", ev.real_stacks, source=SOURCE_000_SCTP_LESS)
    mean, half, losses, pairs = got
    status = emulated_rows.verdict(mean - half, mean + half, lambda v: v > 0, lambda v: v <= 0)
    needed, note = emulated_rows.to_decide(status, mean, half, pairs)
    return Verdict(status, f"{emulated_rows.MARK} mean object time, (h2 - h3)/h2 at IW10 paired on the link seed "
                   f"({pairs} pairs or more a loss), averaged over {losses} losses: {mean:.1%} +/- {half:.1%} "
                   f"(95% CI); the model gives {rel:.1%}{note}", regenerated=100 * mean, column=REAL_STACKS,
                   source=SOURCE_000_SCTP_LESS, replications_to_decide=needed,
                   interval95=(100 * (mean - half), 100 * (mean + half)), n=pairs)


@CLAIMS.question("h3_less_20pct_002", "Paper 002's sctp_less_20pct re-asked as HTTP/3 against HTTP/2 on today's "
                 f"median page: \"{_quoted('002', 'sctp_less_20pct')}\"")
def h3_less_20pct_002(ev: Evidence) -> Verdict:
    """Judge 002's "SCTP is faster by 20% on average" as h3 against h2: supported inside
    :data:`TWENTY_PERCENT_BAND`, refuted outside (the real stacks: by the interval, :func:`band_verdict`)."""
    rel, what = _mean_response(ev)
    band = TWENTY_PERCENT_BAND
    if ev.real_stacks is None:
        status = "supported" if band[0] <= 100 * rel < band[1] else "refuted"
        return Verdict(status, f"{what}: h3 shorter by {rel:.1%} on average; 20% printed to one significant "
                       f"figure is [{band[0]:g}%, {band[1]:g}%)", regenerated=100 * rel,
                       source=SOURCE_002_SCTP_20PCT)
    got = _real_relative(ev)
    if got is None:
        return _not_run(f"h2 or h3 at IW10 at a loss of {list(LOSSES)}", ev.real_stacks, source=SOURCE_002_SCTP_20PCT)
    mean, half, losses, pairs = got
    status = emulated_rows.band_verdict(100 * (mean - half), 100 * (mean + half), *band)
    edge = emulated_rows.nearest(100 * mean, band)
    needed, note = emulated_rows.to_decide(status, 100 * mean, 100 * half, pairs, threshold=edge)
    return Verdict(status, f"{emulated_rows.MARK} mean object time, (h2 - h3)/h2 at IW10 paired on the link seed "
                   f"({pairs} pairs or more a loss), averaged over {losses} losses: {mean:.1%} +/- {half:.1%} "
                   f"(95% CI) against [{band[0]:g}%, {band[1]:g}%); the model gives {rel:.1%}{note}",
                   regenerated=100 * mean, column=REAL_STACKS, source=SOURCE_002_SCTP_20PCT,
                   replications_to_decide=needed, interval95=(100 * (mean - half), 100 * (mean + half)), n=pairs)


def dukkipati_gain(ev: Evidence) -> pd.DataFrame:
    """Return the model's mean IW10 gain (%) over each of the papers' windows on the heat map's grid (h2, loss 0).

    Columns ``iw_old``, ``mean gain (%)``, ``least (%)``, ``most (%)``: the ledger's comparison with Dukkipati's
    ~10% (text value ``dukkipati_latency_gain``), on a grid fixed before the comparison (findings.heatmap_grid).
    """
    g = heatmap_gain(ev)
    out = g.groupby("iw_old").gain.agg(["mean", "min", "max"]) * 100
    return out.rename(columns={"mean": "mean gain (%)", "min": "least (%)", "max": "most (%)"}).reset_index()

