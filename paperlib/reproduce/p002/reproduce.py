"""Paper 002's stages: the model (Tables II and III regenerated, the what-if curve), the TCP scenario in ns-3, then
Tables II and III on real stacks.

The notebook calls :func:`model`, :func:`with_ns3` and :func:`with_real_stacks` and shows what they return; each
stage writes its tables and figures into the run's output folder (:class:`paperlib.reproduction.Outputs`) and the
ledger rows of everything so far travel in the result, which :func:`paperlib.notebook.close_paper` writes.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from paperlib import notebook, reproduction
from paperlib.emulation import experiments
from paperlib.emulation import notebook as emulation_notebook
from paperlib.notebook import PaperRun
from paperlib.reproduce.p002 import emulated, figures, ledger_rows, ns3, operating_point, tables, what_if

#: The notebook's what-if parameters (the what-if curve only; the tables and the ledger use the paper's points).
WHAT_IF = ("obj_size_bytes", "rate_bps", "rtt_s")


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 002's results: the common ones, and Tables II and III as printed with the regenerated model rows
    beside them (by table: ``table2``, ``table3``)."""

    regenerated: dict[str, pd.DataFrame]


def model(run: PaperRun) -> Reproduction:
    """Return the model's results: the convention search and choice, Tables II and III regenerated, the what-if
    curve against p (at the run's what-if parameters), and the model's ledger rows.

    Writes ``convention_search.csv``, ``table2_regenerated.csv``, ``table3_regenerated.csv``,
    ``what_if_response_vs_p.csv`` and ``.png``.
    """
    paper, out = run.paper, run.outputs()
    search = out.table("convention_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    regenerated = tables.regenerated_tables(paper, conv)
    tables.write_regenerated(regenerated, out)
    curve = out.table("what_if_response_vs_p.csv", what_if.response_vs_p(
        paper, conv, **{name: run.parameters.get(name) for name in WHAT_IF}))
    out.figure("what_if_response_vs_p.png", figures.what_if_response_vs_p(curve))
    rows = ledger_rows.ledger_rows(paper, search=search)
    return Reproduction(paper=paper, search=search, convention=conv, regenerated=regenerated).adding(out, rows=rows)


def with_ns3(run: PaperRun, r: Reproduction, *, replications: int, cache_dir, seed: int, scheduler=None,
             n_workers=None, run_simulation: bool = True) -> Reproduction:
    """Return ``r`` with the TCP scenario in ns-3 (``replications`` seeded runs per operating point, seeds from
    ``seed``; none when ``run_simulation`` is False), the figure of the model, the print and ns-3 against p and
    the round trip, and the ledger rows with ns-3's column.

    Writes ``ns3_summary.csv`` (when it ran; it says so when it did not) and ``response_vs_p_and_rtt.png``.
    """
    out = run.outputs()
    simulations = ns3.run(r.paper, r.convention, replications=replications, cache_dir=cache_dir, seed=seed,
                          scheduler=scheduler, n_workers=n_workers) if run_simulation else None
    out.written("ns3_summary.csv", ns3.written(simulations, run.out))
    regen = operating_point.regenerate(operating_point.operating_points(r.paper), r.convention)
    out.figure("response_vs_p_and_rtt.png", figures.response_vs_p_and_rtt(r.paper, regen, simulations))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, simulations=simulations)
    return r.adding(out, rows=rows, simulations=simulations)


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str) -> Reproduction:
    """Return ``r`` with Tables II and III re-run on real stacks (``emulation``: "reduced", "full" or "off"): the
    emulator's accuracy at the paper's rates, the runs, their table beside the model and ns-3, the figure, and the
    ledger rows with the real stacks' column.

    Writes ``emulator_accuracy.csv`` and ``emulation_runs.csv`` (when the testbed runs), ``emulated_tables.csv``,
    ``emulated_vs_published.png``; notes ``runs`` (how many, or why none) and ``real_stacks`` (the cells within 5%
    and the re-judged claims).
    """
    out = run.outputs()
    out.written("emulator_accuracy.csv",
                emulation_notebook.accuracy_table(emulated.link_rates_bps(r.paper), run.out, emulation))
    real_stacks = emulated.run(r.paper, emulation, run.out)
    out.note("runs", real_stacks.not_run or f"{len(real_stacks.points)} runs ({emulation} grid); application: "
                                            f"{experiments.application()}")
    emu_table = out.table("emulated_tables.csv", emulated.summary(r.paper, real_stacks, simulations=r.simulations,
                                                                  conv=r.convention))
    out.figure("emulated_vs_published.png", figures.emulated_vs_published(emu_table))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, simulations=r.simulations, real_stacks=real_stacks)
    out.note("real_stacks", emulated.summary_text(notebook.ledger_table(run, rows), real_stacks.not_run))
    return r.adding(out, rows=rows, real_stacks=real_stacks, stamp_parameters={"emulation": emulation})
