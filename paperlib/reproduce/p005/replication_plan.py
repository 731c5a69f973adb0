"""How many replications paper 005's real-stack questions run: :data:`paperlib.replications.QUESTION_RULE` applied.

Every cell of the grid first runs the pilot (the grid's repetitions, :data:`paperlib.replications.PILOT`). Then
every cell a question reads runs :data:`paperlib.replications.QUESTION_REPLICATIONS` replications that kept their
timing, fixed beforehand. For each question that a model predicts an effect for, the pilot's 95% interval (the
same interval the verdict uses, :mod:`paperlib.reproduce.p005.claims`) gives the spread of one replication and the
model gives the effect: its distance from the question's threshold (0 for "faster", the nearest edge of the band for
a band question); :func:`paperlib.replications.question_plan` reports the replications a power calculation would
ask at that effect beside the fixed number. The model's effects are several times what the real stacks measure, so
the power rule alone stopped questions at the pilot's five runs, and their verdicts changed between runs.

The replications are counted among the runs that kept their timing:
:func:`paperlib.reproduce.p005.emulated.more_points` brings each cell to its plan and replaces, once, the runs lost
on the way. A question comparing a protocol with HTTP/2 reads the two protocols' runs paired on the link seed, so
its pilot's size is the pairs'.

Questions without a plan, with why: ``loss_model_holds`` (the model's value against the measured interval at each
loss: no threshold of a difference, so no effect to size for) and the claims the real stacks cannot answer (one
link). They run the pilot.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from paperlib import decide, replications
from paperlib.reproduce.p005 import claims

#: The cells' key in the real stacks' summary (:func:`paperlib.reproduce.p005.emulated.summary`).
CELL = ("protocol", "loss", "iw_segments")


@dataclass(frozen=True)
class QuestionPlan:
    """One question's replications: the cells it reads, the pilot's interval, the model's effect and the plan."""

    claim_id: str
    cells: tuple[tuple[str, float, int], ...]  # (protocol, loss, iw_segments) at claims.LINK
    pilot_mean: float
    pilot_half: float
    pilot_n: int
    plan: replications.Plan


def _cells(table: pd.DataFrame, protocols, losses, iws) -> tuple[tuple[str, float, int], ...]:
    return tuple((p, float(loss), int(iw)) for p in protocols for loss in losses for iw in iws
                 if ((table.protocol == p) & (table.loss == loss) & (table.iw_segments == iw)).any())


def _n(table: pd.DataFrame, cells) -> int:
    sel = table.set_index(list(CELL))
    return int(min(int(sel.loc[c, "n"]) for c in cells))


def _planned(claim_id, cells, table, mean, half, effect, pairs: int | None = None) -> QuestionPlan | None:
    """Return the plan of one question from its pilot interval ``mean +/- half`` over the fewest runs of its
    ``cells`` (or ``pairs``, for a question read on paired runs), or None with fewer than two."""
    n = pairs if pairs is not None else (_n(table, cells) if cells else 0)
    if n < 2 or not pd.notna(half):
        return None
    spread = decide.sd_from_half_width(float(half), n)
    return QuestionPlan(claim_id, cells, float(mean), float(half), n,
                        replications.question_plan(spread, float(effect), pilot_n=n))


def plans(ev: claims.Evidence, pilot: pd.DataFrame) -> list[QuestionPlan]:
    """Return the plan of every question with a model effect, from the pilot's summary ``pilot``.

    ``ev`` is the model's evidence (no ``real_stacks``); ``pilot`` the real stacks' summary of the pilot runs.
    A question whose pilot lacks a cell (a family did not run) gets no plan.
    """
    table = pilot[(pilot.n >= 2) & (pilot.rate_bps == claims.LINK["rate_bps"]) & (pilot.rtt_s == claims.LINK["rtt_s"])]
    out: list[QuestionPlan | None] = []
    iw_old, iw_new = claims.IW_REAL[0], claims.IW_REAL[-1]
    times = claims.link_times(ev)
    old, new = claims._model(times, "h2", iw_old), claims._model(times, "h2", iw_new)
    gain = claims.iw_gain_on_real_stacks(table)
    if gain is not None:
        cells = _cells(table, ["h2"], [claims.LOSS_FREE], [iw_old, iw_new])
        model = float(1 - new[claims.LOSS_FREE] / old[claims.LOSS_FREE])
        for claim_id in ("iw10_gain", "dukkipati_iw_at_least_ten"):
            out.append(_planned(claim_id, cells, table, gain[0], gain[1], model))
    same = claims.link_times(ev, same_handshake=True)
    for claim_id, b in (("h3_beats_h2_loss", "h3"), ("sctp_streams_same", "sctp")):
        excess = claims.blocking_excess_on_real_stacks(table, b)
        if excess is None:
            continue
        top = excess.iloc[-1]
        model = float(claims._model(same, "h2", iw_new)[top.loss] - claims._model(same, b, iw_new)[top.loss])
        cells = _cells(table, ["h2", b], [0.0, float(top.loss)], [iw_new])
        out.append(_planned(claim_id, cells, table, top.excess_s, top.half_s, model, pairs=int(top.pairs)))
    rel = claims._real_relative(claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=table))
    if rel is not None:
        model_rel, _ = claims._mean_response(ev)
        cells = _cells(table, ["h2", "h3"], claims.LOSSES, [iw_new])
        out.append(_planned("h3_less_than_h2_000", cells, table, rel[0], rel[1], model_rel, pairs=rel[3]))
        low, high = (x / 100 for x in claims.TWENTY_PERCENT_BAND)
        out.append(_planned("h3_less_20pct_002", cells, table, rel[0], rel[1],
                            min(abs(model_rel - low), abs(model_rel - high)), pairs=rel[3]))
    return [p for p in out if p is not None]


def cell_replications(question_plans: list[QuestionPlan]) -> dict[tuple[str, float, int], int]:
    """Return (protocol, loss, iw_segments) -> the replications the cell runs: the most any question asks."""
    out: dict[tuple[str, float, int], int] = {}
    for q in question_plans:
        for cell in q.cells:
            out[cell] = max(out.get(cell, 0), q.plan.n)
    return out


def table(question_plans: list[QuestionPlan]) -> pd.DataFrame:
    """Return the plans as a table for the notebook: question, pilot interval, effect, spread, n, n_needed."""
    return pd.DataFrame([{"question": q.claim_id, "pilot n": q.pilot_n, "pilot mean": q.pilot_mean,
                          "pilot half-width": q.pilot_half, "model effect": q.plan.effect,
                          "spread per replication": q.plan.spread, "replications": q.plan.n,
                          "needed by the rule": q.plan.n_needed} for q in question_plans],
                        columns=["question", "pilot n", "pilot mean", "pilot half-width", "model effect",
                                 "spread per replication", "replications", "needed by the rule"])

