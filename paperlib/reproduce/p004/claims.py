"""Paper 004's claims (``data/004/claims.csv``), one function each: judged on the published Table II, or on
the real stacks' measurements when the evidence carries them (:class:`Evidence`).

The ledger has one row per claim for the published table (its own column: the quantity judged) and,
after an emulated run, one more per claim in the column ``emulated (real stacks)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib.claims import ClaimRegistry, Verdict
from paperlib.data import Paper
from paperlib.emulation import experiments
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.reproduce.p004 import findings, operating_point
from paperlib.reproduce.p004.operating_point import Convention

CLAIMS = ClaimRegistry("004")

#: The ledger's ``source`` of each claim's rows (the claim's places in the paper, as the rows have always named them).
SOURCES = {"within_4_percent": "Abstract; Section 3; Section 4", "tcp_two_rtt_larger": "Section 2, Eq. (6)"}
#: The ledger's ``column`` of a claim judged on real stacks.
REAL_STACKS = emulated_rows.REAL_STACKS


@dataclass(frozen=True)
class Evidence:
    """What paper 004's claims are judged on: the paper, its chosen convention and the regenerated Table II.

    ``real_stacks`` (the table of :func:`paperlib.reproduce.p004.emulated.summary`) switches every claim
    to its judgement on the emulated measurements with their 95% CIs.
    """

    paper: Paper
    conv: Convention
    model: pd.DataFrame
    real_stacks: pd.DataFrame | None = None

    @property
    def rtt_s(self) -> float:
        """Return the round trip T_r (s) of the chosen convention."""
        return operating_point.model_inputs(operating_point.operating_point(self.paper), self.conv.rtt_meaning,
                                            self.conv.kilo)[2]


@CLAIMS.claim("within_4_percent")
def within_4_percent(ev: Evidence) -> Verdict:
    """Judge "the model results are within 4% of the experimental results".

    Published table: supported when :data:`~paperlib.reproduce.p004.findings.PRIMARY_DEFINITION`, the
    mean |M-E|/E over Table II's 10 printed model/experiment pairs, is at most the printed 4%, else
    refuted (the reason lists every other definition). Real stacks: :func:`within_4_percent_on_real_stacks`.
    """
    if ev.real_stacks is not None:
        return within_4_percent_on_real_stacks(ev)
    defs = findings.mean_difference_table(ev.paper, ev.model).set_index("definition")
    bound = float(ev.paper.claim("within_4_percent")["printed"])
    pub = float(defs.loc[findings.PRIMARY_DEFINITION, "published model vs experiment (%)"])
    reg = float(defs.loc[findings.PRIMARY_DEFINITION, "regenerated model vs experiment (%)"])
    others = "; ".join(f"{d} = {v:.2f}%" for d, v in defs["published model vs experiment (%)"].items())
    return Verdict("supported" if pub <= bound else "refuted",
                   f"definition used: {findings.PRIMARY_DEFINITION} over Table II's 10 model/experiment pairs "
                   f"(published model: {pub:.2f}%; regenerated model: {reg:.2f}%); "
                   f"other definitions on the published table: {others}",
                   regenerated=pub, column="mean difference (%)", source=SOURCES["within_4_percent"])


def within_4_percent_on_real_stacks(ev: Evidence) -> Verdict:
    """Judge "within 4%" on the emulated means: mean |model - emulated| / emulated over the cells run at least twice.

    The range of that mean over every cell's 95% CI decides: supported if the whole range is at most 4%,
    refuted if it is all above, inconclusive if it straddles the bound (with the repetitions per cell that would
    decide it, :func:`paperlib.emulation.ledger_rows.to_decide`, the range read as an interval of half its width),
    untestable when no cell has two repetitions.
    """
    table = ev.real_stacks
    claim = ev.paper.claim("within_4_percent")
    errs_lo, errs_hi, errs, reps = [], [], [], []
    for proto in ("SCTP", "TCP"):
        for _, t in table[table[f"n {proto}"] > 1].iterrows():
            m, e, h = t[f"model {proto} (s)"], t[f"emulated {proto} (s)"], t[f"CI95 {proto} (s)"]
            grid = np.linspace(max(e - h, 1e-9), e + h, 201)
            rel = np.abs(m - grid) / grid
            errs.append(abs(m - e) / e)
            reps.append(int(t[f"n {proto}"]))
            errs_lo.append(rel.min())
            errs_hi.append(rel.max())
    if not errs:
        return emulated_rows.no_cells("no emulated Table II cell with at least 2 repetitions", table,
                                      source=SOURCES["within_4_percent"])
    lo, hi, mid = 100 * np.mean(errs_lo), 100 * np.mean(errs_hi), 100 * np.mean(errs)
    bound = float(claim["printed"])
    status = emulated_rows.verdict(lo, hi, lambda v: v <= bound, lambda v: v > bound)
    needed, note = emulated_rows.to_decide(status, mid, (hi - lo) / 2, min(reps), bound)
    return Verdict(status,
                   f"{emulated_rows.MARK} mean |model - emulated| / emulated over {len(errs)} Table II cells "
                   f"(model: Eqs. (5)/(6) under the chosen convention) = {mid:.2f}%, range over the cells' 95% CIs "
                   f"[{lo:.2f}%, {hi:.2f}%]; bound {bound:g}%{note}",
                   regenerated=mid, column=REAL_STACKS, source=SOURCES["within_4_percent"],
                   replications_to_decide=needed, interval95=(lo, hi), n=min(reps))


@CLAIMS.claim("tcp_two_rtt_larger")
def tcp_two_rtt_larger(ev: Evidence) -> Verdict:
    """Judge "HTTP over TCP latency exceeds HTTP over SCTP latency by 2 x RTT" (Eq. (6)).

    Published table: the mean of Exp(TCP) - Exp(SCTP) over Table II's rows, in round trips T_r of the
    chosen convention; supported when within :data:`~paperlib.reproduce.p004.findings.GAP_TOLERANCE`
    (10%) of 2 T_r, else refuted. Real stacks: :func:`tcp_two_rtt_larger_on_real_stacks`.
    """
    if ev.real_stacks is not None:
        return tcp_two_rtt_larger_on_real_stacks(ev)
    rtt = ev.rtt_s
    measured, claimed = findings.two_rtt_gap(ev.paper, rtt)
    cells = ev.paper.tables["table2"].cells
    spread = (cells["Exp(TCP)"].astype(float) - cells["Exp(SCTP)"].astype(float)).round(2).tolist()
    ok = abs(measured - claimed) <= findings.GAP_TOLERANCE * claimed
    return Verdict("supported" if ok else "refuted",
                   f"published Exp(TCP) - Exp(SCTP) = {spread} s, mean {measured:.3f} s = {measured / rtt:.2f} T_r "
                   f"with T_r = {rtt:g} s of the chosen convention; supported when within "
                   f"{findings.GAP_TOLERANCE:.0%} of 2 T_r",
                   regenerated=measured / rtt, column="Exp(TCP) - Exp(SCTP) (round trips)",
                   source=SOURCES["tcp_two_rtt_larger"])


def tcp_two_rtt_larger_on_real_stacks(ev: Evidence) -> Verdict:
    """Judge the 2 T_r gap on the emulated means of the rates where both stacks ran at least twice.

    The gap's mean over those rates and its 95% CI
    (:func:`paperlib.emulation.ledger_rows.mean_difference`, which states its assumptions): supported if
    the whole CI is within 10% of 2 T_r, refuted if wholly outside, inconclusive otherwise (with the repetitions
    per rate that would decide it against the band's nearer edge), untestable without both stacks.
    """
    table, rtt = ev.real_stacks, ev.rtt_s
    have = table[(table["n SCTP"] > 1) & (table["n TCP"] > 1)]
    if not len(have):
        return emulated_rows.no_cells(f"needs both stacks emulated, each at least twice; available: "
                                      f"{experiments.protocols()}", table, source=SOURCES["tcp_two_rtt_larger"])
    d = have["emulated TCP (s)"] - have["emulated SCTP (s)"]
    mean, h = emulated_rows.mean_difference(have["emulated TCP (s)"], have["CI95 TCP (s)"],
                                          have["emulated SCTP (s)"], have["CI95 SCTP (s)"])
    tol = findings.GAP_TOLERANCE * 2 * rtt
    status = emulated_rows.band_verdict(mean - h, mean + h, 2 * rtt - tol, 2 * rtt + tol)
    reps = int(min(have["n SCTP"].min(), have["n TCP"].min()))
    edge = emulated_rows.nearest(mean, (2 * rtt - tol, 2 * rtt + tol))
    needed, note = emulated_rows.to_decide(status, mean, h, reps, edge)
    return Verdict(status,
                   f"{emulated_rows.MARK} emulated TCP - SCTP per rate {d.round(3).tolist()} s, mean {mean:.3f} s "
                   f"+/- {h:.3f} s (95% CI) = {mean / rtt:.2f} T_r (T_r = {rtt:g} s); supported if the whole CI is "
                   f"within {findings.GAP_TOLERANCE:.0%} of 2 T_r, refuted if wholly outside{note}",
                   regenerated=mean / rtt, column=REAL_STACKS, source=SOURCES["tcp_two_rtt_larger"],
                   replications_to_decide=needed, interval95=((mean - h) / rtt, (mean + h) / rtt), n=reps)
