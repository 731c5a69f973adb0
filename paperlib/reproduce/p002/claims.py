"""Paper 002's claims: one function per claim id of ``data/002/claims.csv`` (:data:`CLAIMS`).

Each function takes the :class:`Evidence` (the published tables, the convention and the model regenerated
under it) and returns a :class:`~paperlib.claims.Verdict`; its docstring says how the claim is judged.
Three claims can also be judged on the real stacks' measurements: when the evidence carries them
(``Evidence.real_stacks``), their function returns two verdicts, the published one and the one on the real
stacks (``*_on_real_stacks``, ledger column :data:`paperlib.emulation.ledger_rows.REAL_STACKS`, decided by
95% intervals of :func:`paperlib.emulation.ledger_rows.mean_difference`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib.claims import ClaimRegistry, Verdict
from paperlib.data import Paper
from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation.ledger_rows import (
    MARK,
    REAL_STACKS,
    band_verdict,
    mean_difference,
    nearest,
    rise_verdict,
    split_note,
    to_decide,
    verdict,
)
from paperlib.reproduce.p002 import model_reading
from paperlib.reproduce.p002.operating_point import Convention, model_points, operating_points
from paperlib.reproduce.p002.tables import ROWS

CLAIMS = ClaimRegistry("002")

#: The link rates (bit/s) at which the Table IV claims' reasons show the model's HOB per object.
TABLE_IV_RATES_BPS = (40e3, 400e3, 4e6)


@dataclass(frozen=True)
class Evidence:
    """What paper 002's claims are judged on: the paper, the chosen convention and the regenerated model rows.

    ``real_stacks`` (the table of :func:`paperlib.reproduce.p002.emulated.summary`, one row per printed column
    with the emulated means, their 95% half-widths and repetitions per stack) adds, to each claim that the
    measurements can judge, its judgement on them; ``None``: the real stacks were not run.
    """

    paper: Paper
    conv: Convention
    #: :func:`paperlib.reproduce.p002.operating_point.regenerate` under ``conv`` (8 printed columns)
    regen: pd.DataFrame
    real_stacks: pd.DataFrame | None = None


def printed_pairs(paper: Paper, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the printed (TCP, SCTP) times of Tables II then III, model rows (``kind="model"``) or experiment."""
    tcp, sctp = [], []
    for table in ("table2", "table3"):
        cells = paper.tables[table].cells.set_index("Protocol")
        label = "Model" if kind == "model" else "Experimental"
        tcp += list(cells.loc[f"TCP ({label}) (Sec)"].astype(float))
        sctp += list(cells.loc[f"SCTP ({label}) (Sec)"].astype(float))
    return np.array(tcp), np.array(sctp)


def printed_gains(paper: Paper) -> dict[str, np.ndarray]:
    """Return (TCP - SCTP)/TCP of every printed pair, for the model rows and the experiment rows."""
    return {k: (t - s) / t for k, (t, s) in (("model", printed_pairs(paper, "model")),
                                            ("experiment", printed_pairs(paper, "exp")))}


def with_real_stacks(published: Verdict, ev: Evidence, on_real_stacks) -> Verdict | tuple[Verdict, Verdict]:
    """Return ``published``, and ``on_real_stacks(ev.real_stacks)`` after it when the evidence carries real stacks."""
    return published if ev.real_stacks is None else (published, on_real_stacks(ev.real_stacks))


@CLAIMS.claim("sctp_less_20pct")
def sctp_less_20pct(ev: Evidence) -> Verdict | tuple[Verdict, Verdict]:
    """SCTP 20% faster on average: the mean (TCP - SCTP)/TCP over the 16 printed pairs (8 model, 8 experiment).

    Supported if within 2 percentage points of 20%, refuted otherwise; the regenerated number is that mean (%).
    On real stacks: :func:`sctp_less_20pct_on_real_stacks`.
    """
    return with_real_stacks(_sctp_less_20pct_printed(ev), ev, sctp_less_20pct_on_real_stacks)


def _sctp_less_20pct_printed(ev: Evidence) -> Verdict:
    """:func:`sctp_less_20pct` on the printed pairs."""
    gains = printed_gains(ev.paper)
    reg_gain = ((ev.regen["tcp_s"] - ev.regen["sctp_s"]) / ev.regen["tcp_s"]).to_numpy()
    mean_gain = 100 * float(np.mean(np.concatenate([gains["model"], gains["experiment"]])))
    return Verdict(
        "supported" if abs(mean_gain - 20) <= 2 else "refuted",
        f"mean (TCP - SCTP)/TCP over the 16 printed model and experiment pairs of Tables II-III = {mean_gain:.1f}% "
        f"(model {100 * gains['model'].mean():.1f}%, experiment {100 * gains['experiment'].mean():.1f}%, "
        f"regenerated model {100 * reg_gain.mean():.1f}%); criterion: within 2 points of 20%", mean_gain)


@CLAIMS.claim("sctp_better_than_tcp")
def sctp_better_than_tcp(ev: Evidence) -> Verdict | tuple[Verdict, Verdict]:
    """SCTP better than TCP: supported if SCTP is below TCP in at least 90% of the 16 printed pairs.

    On real stacks: :func:`sctp_better_than_tcp_on_real_stacks`.
    """
    return with_real_stacks(_sctp_better_than_tcp_printed(ev), ev, sctp_better_than_tcp_on_real_stacks)


def _sctp_better_than_tcp_printed(ev: Evidence) -> Verdict:
    """:func:`sctp_better_than_tcp` on the printed pairs."""
    gains = printed_gains(ev.paper)
    below = int((gains["experiment"] > 0).sum()) + int((gains["model"] > 0).sum())
    reason = ("SCTP below TCP in all 16 printed pairs" if below == 16 else
              f"SCTP below TCP in {below} of 16 printed pairs (criterion: at least 90%); the exception is Table "
              "III's experiment at RTT 0.08 s (14.71 vs 14.63 s)")
    return Verdict("supported" if below >= 0.9 * 16 else "refuted", reason)


@CLAIMS.claim("hob_zero_p_decreases")
def hob_zero_p_decreases(ev: Evidence) -> Verdict:
    """HOB close to zero as p decreases: refuted by the model's structure.

    TCP - SCTP is M x total HOB = M a MSS/R, and a = ceil(Np) stays 1 for every p > 0 down to 1/N, so the gap
    does not shrink with p (the reason shows the regenerated and the printed gaps of Table II).
    """
    t2 = ev.regen[ev.regen["table"] == "table2"]
    gaps = (t2["tcp_s"] - t2["sctp_s"]).round(3).tolist()
    pub_t2 = ev.paper.tables["table2"].cells.set_index("Protocol")
    pub_gaps = (pub_t2.loc["TCP (Model) (Sec)"].astype(float)
                - pub_t2.loc["SCTP (Model) (Sec)"].astype(float)).round(2)
    return Verdict(
        "refuted",
        f"model TCP - SCTP (= M x total HOB) at p = 0.4, 1, 2, 5 %: regenerated {gaps} s, "
        f"printed {pub_gaps.tolist()} s: it does not shrink as p decreases, because a = ceil(Np) stays 1 for "
        "every p > 0 down to 1/N; HOB vanishes only at p = 0", evidence="model")


def _first_point(ev: Evidence) -> pd.Series:
    """Table II's first printed column (p = 0.4 %) as the model's SI inputs under the convention."""
    return model_points(operating_points(ev.paper), ev.conv.kilo).iloc[0]


@CLAIMS.claim("hob_small_objects")
def hob_small_objects(ev: Evidence) -> Verdict:
    """HOB very small for small objects: supported if one object's total HOB is below 5% of its response.

    At Table II's p = 0.4 % under the convention; response = RTT + OT (one object); regenerated = the share (%).
    """
    obj = _first_point(ev)
    per_obj = model_reading.object_transfer_time(obj.obj_bits, obj.mss_bits, obj.rate_bps, obj.rtt_s, obj.p, ev.conv)
    share = per_obj.tot_hob_s / (obj.rtt_s + per_obj.ot_s)
    return Verdict(
        "supported" if share < 0.05 else "refuted",
        f"per object at Table II's p = 0.4 %: HOB {per_obj.tot_hob_s:.3f} s of a {obj.rtt_s + per_obj.ot_s:.2f} s "
        f"response ({100 * share:.1f}%; criterion: below 5%)", 100 * share, evidence="model")


def table_iv_untestable(ev: Evidence) -> Verdict:
    """A claim about Table IV (varying R), whose numbers the paper's text lacks: untestable.

    The reason shows the model's own HOB per object (default switches, p = 1 %, RTT 0.256 s) at
    :data:`TABLE_IV_RATES_BPS`, which is the model's property, not the paper's result.
    """
    obj = _first_point(ev)
    hobs = [model_reading.object_transfer_time(obj.obj_bits, obj.mss_bits, r, obj.rtt_s, 0.01).tot_hob_s
            for r in np.array(TABLE_IV_RATES_BPS)]
    falling = bool(np.all(np.diff(hobs) < 0))
    return Verdict(
        "untestable",
        "the claim is about Table IV (varying R), whose numbers are absent from the paper's text, so the printed "
        f"evidence cannot be checked; the regenerated model alone (p = 1 %, RTT 0.256 s) gives HOB per object "
        f"{np.round(hobs, 4).tolist()} s at R = 40, 400, 4000 kbit/s (= a MSS/R, "
        f"{'falling' if falling else 'not falling'} with R), which is the model's property, not the paper's result")


@CLAIMS.claim("hob_small_r_increases")
def hob_small_r_increases(ev: Evidence) -> Verdict:
    """HOB very small as R increases: untestable, Table IV's numbers are absent (:func:`table_iv_untestable`)."""
    return table_iv_untestable(ev)


@CLAIMS.claim("tcp_sctp_same_r_increases")
def tcp_sctp_same_r_increases(ev: Evidence) -> Verdict:
    """TCP and SCTP almost the same as R increases: untestable, Table IV is absent (:func:`table_iv_untestable`)."""
    return table_iv_untestable(ev)


@CLAIMS.claim("hob_close_zero_r")
def hob_close_zero_r(ev: Evidence) -> Verdict:
    """HOB close to zero because MSS/R falls with R: untestable, Table IV is absent (:func:`table_iv_untestable`)."""
    return table_iv_untestable(ev)


@CLAIMS.claim("sctp_less_resources")
def sctp_less_resources(ev: Evidence) -> Verdict:
    """SCTP needs fewer resources (one association): untestable, resource use is neither modelled nor measured."""
    return Verdict("untestable", "resource use of an association vs connections is not modelled or measured")


@CLAIMS.claim("response_increases_rtt")
def response_increases_rtt(ev: Evidence) -> Verdict | tuple[Verdict, Verdict]:
    """Response time increases sharply with RTT: supported if every printed row of Table III increases with RTT.

    "Sharply" is not quantified by the paper, so only the direction is judged.
    On real stacks: :func:`response_increases_rtt_on_real_stacks`.
    """
    t3 = ev.paper.tables["table3"].cells.set_index("Protocol")
    inc = all(np.all(np.diff(t3.loc[r].astype(float).to_numpy()) > 0) for r in ROWS)
    published = Verdict("supported" if inc else "refuted", "every row of Table III increases with RTT" if inc
                        else "not every row of Table III increases with RTT")
    return with_real_stacks(published, ev, response_increases_rtt_on_real_stacks)


@CLAIMS.claim("diff_nist")
def diff_nist(ev: Evidence) -> Verdict:
    """The model-experiment differences are the NIST Net emulator's inaccuracy: untestable (no NIST Net here)."""
    return Verdict("untestable", "the NIST Net emulator's inaccuracy cannot be measured here")


@CLAIMS.claim("complexity_on")
def complexity_on(ev: Evidence) -> Verdict:
    """The algorithm is O(N): supported by its structure (a + 1 <= N + 1 iterations of constant work)."""
    return Verdict("supported", "the algorithm runs a + 1 <= N + 1 iterations of constant work "
                                "(paperlib/models/http_response_time.py)")


# --- the claims on real stacks: judged on Evidence.real_stacks (paperlib.reproduce.p002.emulated.summary) -------


def both_stacks(table: pd.DataFrame) -> pd.DataFrame:
    """Return the points of the real-stack table where both stacks ran at least twice, the shared point once.

    The point printed in both tables (p = 1 %, RTT 0.256 s) is one measurement.
    """
    both = table[(table["n TCP"] > 1) & (table["n SCTP"] > 1)]
    return both.drop_duplicates(subset=["emulated TCP (s)", "emulated SCTP (s)"])


def _measured(status: str, reason: str, regenerated: float | None = None, source: str | None = None,
              needed: float | None = None, interval95: tuple[float, float] | None = None,
              n: int | None = None) -> Verdict:
    """Return a verdict on the real stacks: its reason marked :data:`~paperlib.emulation.ledger_rows.MARK`.

    ``needed``: the repetitions that would decide an inconclusive one
    (:func:`~paperlib.emulation.ledger_rows.to_decide`); ``interval95`` and ``n``: the 95% interval of the
    criterion (in the units of ``regenerated``) and the repetitions behind it.
    """
    return Verdict(status, f"{MARK} {reason}", regenerated, column=REAL_STACKS, source=source,
                   replications_to_decide=needed, interval95=interval95, n=n)


def _reps(both: pd.DataFrame) -> int:
    """Return the fewest repetitions of a cell of either stack among ``both``'s points."""
    return int(min(both["n TCP"].min(), both["n SCTP"].min()))


def sctp_less_20pct_on_real_stacks(table: pd.DataFrame) -> Verdict:
    """SCTP 20% faster on real stacks: the mean (TCP - SCTP)/TCP over the emulated points and its 95% CI.

    The interval is :func:`~paperlib.emulation.ledger_rows.mean_difference`'s with ``scale`` the TCP means (the
    points are independent runs). Supported if the CI lies within 20 +/- 5%, refuted if wholly below or wholly
    above it, inconclusive otherwise (also when the CI covers the whole band; the reason gives the repetitions per
    point that would decide it against the band's nearer edge), untestable when a stack did not run.
    """
    both = both_stacks(table)
    if not len(both):
        return emulated_rows.no_cells(f"needs both stacks emulated, each at least twice; available: "
                                      f"{experiments.protocols()}", table)
    tcp, sctp = both["emulated TCP (s)"], both["emulated SCTP (s)"]
    mean, half = mean_difference(tcp, both["CI95 TCP (s)"], sctp, both["CI95 SCTP (s)"], scale=tcp)
    gain = (tcp - sctp) / tcp
    status = band_verdict(100 * (mean - half), 100 * (mean + half), 15.0, 25.0)
    needed, note = to_decide(status, 100 * mean, 100 * half, _reps(both), nearest(100 * mean, (15.0, 25.0)))
    return _measured(status, f"mean (TCP - SCTP)/TCP over the {len(both)} emulated points = {100 * mean:.1f}% "
                             f"+/- {100 * half:.1f}% (95% CI); supported if the CI lies within 20 +/- 5%, refuted "
                             f"if wholly below or wholly above it; per point {np.round(100 * gain, 1).tolist()}%"
                             f"{note}", 100 * mean, needed=needed,
                     interval95=(100 * (mean - half), 100 * (mean + half)), n=_reps(both))


def sctp_better_than_tcp_on_real_stacks(table: pd.DataFrame) -> Verdict:
    """SCTP better on real stacks: the mean TCP - SCTP response time over the emulated points and its 95% CI.

    The interval is :func:`~paperlib.emulation.ledger_rows.mean_difference`'s. Supported if the CI is above 0,
    refuted if below, inconclusive otherwise (with the repetitions per point that would decide it), untestable
    when a stack did not run.
    """
    both = both_stacks(table)
    if not len(both):
        return emulated_rows.no_cells(f"needs both stacks emulated, each at least twice; available: "
                                      f"{experiments.protocols()}", table)
    mean, half = mean_difference(both["emulated TCP (s)"], both["CI95 TCP (s)"], both["emulated SCTP (s)"],
                                 both["CI95 SCTP (s)"])
    status = verdict(mean - half, mean + half, lambda v: v > 0, lambda v: v < 0)
    needed, note = to_decide(status, mean, half, _reps(both))
    return _measured(status, f"mean TCP - SCTP response time {mean:.3f} s +/- {half:.3f} s (95% CI) over "
                             f"{len(both)} points; supported if the CI is above 0, refuted if below{note}", mean,
                     needed=needed, interval95=(mean - half, mean + half), n=_reps(both))


def response_increases_rtt_on_real_stacks(table: pd.DataFrame) -> Verdict:
    """Response time rises with RTT on real stacks: Table III's lowest against highest RTT, per stack, by the CI.

    Each stack's rise (highest minus lowest RTT) and its 95% half-width are
    :func:`~paperlib.emulation.ledger_rows.rise_verdict`'s (one pair). Supported if every emulated
    stack's rise has a CI above 0, refuted if every one is at most 0, inconclusive if they split or straddle 0
    (:func:`~paperlib.emulation.ledger_rows.split_note`); the paper's "sharply" is not quantified.
    Untestable without a Table III column of at least 2 repetitions.
    """
    t3 = table[table["table"] == "Table III"].sort_values("rtt_s")
    parts, verdicts, needs = [], [], []
    for proto in ("TCP", "SCTP"):
        if t3[f"n {proto}"].min() > 1:
            lo, hi = t3.iloc[0], t3.iloc[-1]
            rise, half, status = rise_verdict(lo[f"emulated {proto} (s)"], hi[f"emulated {proto} (s)"],
                                              lo[f"CI95 {proto} (s)"], hi[f"CI95 {proto} (s)"])
            verdicts.append(status)
            needs.append(to_decide(status, rise, half, int(min(lo[f"n {proto}"], hi[f"n {proto}"])))[0])
            parts.append(f"{proto}: RTT {lo['rtt_s']:g} -> {hi['rtt_s']:g} s adds {rise:.2f} +/- {half:.2f} s")
    if not verdicts:
        return emulated_rows.no_cells("no emulated Table III column with at least 2 repetitions", table)
    status = verdicts[0] if len(set(verdicts)) == 1 else "inconclusive"
    needed, note = split_note(verdicts, needs)
    return _measured(status, "; ".join(parts) + " (95% CI of the difference); supported if every emulated stack's "
                                                f"response time rises, 'sharply' is not quantified by the paper{note}",
                     needed=needed)
