"""Paper 000's stages: the model (the schedule checks, the convention, Tables 1-3 regenerated, the law in m, Fig. 4,
the what-if and the mean difference), the ns-3 check, then Tables 1-3 on real stacks.

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
from paperlib.reproduce.p000 import (
    diff_mean,
    emulated,
    figures,
    findings,
    ledger_rows,
    ns3,
    operating_point,
    tables,
    what_if,
)

#: The notebook's what-if parameters (the what-if figure; the tables and the ledger use the printed points).
WHAT_IF = ("m_values", "p", "rtt_s", "rate_bps", "obj_size_bytes", "mtu_bytes")
#: The link rates (bit/s) at which the emulator's accuracy is measured: Table 2's narrowband rates and a fast one.
ACCURACY_RATES_BPS = (40e3, 400e3, 3000e3)


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 000's results: the common ones, every printed model cell with its regenerated W
    (:func:`paperlib.reproduce.p000.tables.regenerate`), and Tables 1-3 as printed with the regenerated columns
    beside them, by the printed table's name (``Table 1``)."""

    regenerated: pd.DataFrame
    regenerated_tables: dict[str, pd.DataFrame]


def model(run: PaperRun) -> Reproduction:
    """Return the model's results: Fig. 2's and Eqs. (7)-(8)'s schedule checks, the convention search and choice,
    the response times, the printed departures, Tables 1-3 regenerated, the law in m, the shared operating point,
    Fig. 4, the what-if against the number of users (the run's what-if parameters), the mean difference, and the
    model's ledger rows.

    Writes ``figure2_schedule_check.csv``, ``eq7_eq8_schedule_check.csv``, ``convention_search.csv``,
    ``response_times.csv``, ``printed_departures.csv``, ``table{1,2,3}_regenerated.csv``, ``law_in_m.csv``,
    ``shared_operating_point.csv``, ``figure4_data.csv``, ``figure4_waiting_times.png``, ``waiting_vs_users.csv``
    and ``.png``, ``diff_mean.csv``; notes ``convention`` and ``summary``.
    """
    paper, out = run.paper, run.outputs()
    out.table("figure2_schedule_check.csv", findings.figure2_check(paper))
    out.table("eq7_eq8_schedule_check.csv", findings.group_examples())
    search = out.table("convention_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    out.note("convention", operating_point.convention_summary(search, conv))
    out.table("response_times.csv", operating_point.response_times(
        operating_point.operating_points(paper), operating_point.web_object(paper), conv))
    out.table("printed_departures.csv", findings.printed_departures(paper, conv))
    regenerated_tables = tables.regenerated_tables(paper, conv)
    by_source = {}
    for name, frame in regenerated_tables.items():
        by_source[paper.tables[name].source] = out.table(f"{name}_regenerated.csv", frame)
    regen = tables.regenerate(paper, conv)
    out.table("law_in_m.csv", findings.law_in_m(paper))
    out.table("shared_operating_point.csv", findings.shared_operating_point(paper).reset_index())
    fig4 = out.table("figure4_data.csv", findings.figure4_data(paper, conv))
    out.figure("figure4_waiting_times.png", figures.figure4(fig4))
    w = what_if.what_if(paper, conv, **{name: run.parameters.get(name) for name in WHAT_IF})
    users = out.table("waiting_vs_users.csv", what_if.waiting_vs_users(w, conv))
    out.figure("waiting_vs_users.png", figures.waiting_vs_users(users, w))
    out.table("diff_mean.csv", diff_mean.diff_mean_table(paper, conv))
    rows = ledger_rows.ledger_rows(paper, search=search)  # W by Eq. (4): operating_point.ledger_convention
    out.note("summary", ledger_rows.summary_text(notebook.ledger_table(run, rows), regen))
    return Reproduction(paper=paper, search=search, convention=conv, regenerated=regen,
                        regenerated_tables=by_source).adding(out, rows=rows)


def with_ns3(run: PaperRun, r: Reproduction, *, replications: int, cache_dir, seed: int, scheduler=None,
             n_workers=None, users=None) -> Reproduction:
    """Return ``r`` with the ns-3 check (:func:`paperlib.reproduce.p000.ns3.run`: ``replications`` seeded TCP runs
    per operating point and number of users, ``users`` besides 1, seeds from ``seed``; nothing when
    ``replications`` is 0): its table, its set-up check, the figure, and the ledger rows with ns-3's column.

    Writes ``ns3_tables.csv``, ``ns3_setup_check.csv`` and ``ns3_waiting.png`` when it ran; note ``ns3`` says what
    ran.
    """
    out = run.outputs()
    if not replications:
        out.note("ns3", "ns-3 check skipped (ns3_replications = 0)")
        return r.adding(out)
    simulations = ns3.run(r.paper, r.convention, replications=replications, cache_dir=cache_dir, seed=seed,
                          scheduler=scheduler, n_workers=n_workers, users=users)
    ns3_table = out.table("ns3_tables.csv", ns3.summary(simulations))
    out.table("ns3_setup_check.csv", simulations.setup)
    out.note("ns3", f"{replications} seeded ns-3 runs per operating point and number of users")
    out.figure("ns3_waiting.png", figures.ns3_waiting(ns3_table, replications))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, simulations=simulations)
    return r.adding(out, rows=rows, simulations=simulations)


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str) -> Reproduction:
    """Return ``r`` with Tables 1-3 re-run on real stacks (``emulation``: "reduced", "full" or "off"): the
    emulator's accuracy, the runs, their table beside the model and ns-3, the figure, and the ledger rows with
    the real stacks' column.

    Writes ``emulator_accuracy.csv`` and ``emulation_runs.csv`` (when the testbed runs), ``emulated_tables.csv``,
    ``emulated_vs_published.png``; notes ``runs`` (how many, or why none) and ``real_stacks``.
    """
    out = run.outputs()
    out.written("emulator_accuracy.csv", emulation_notebook.accuracy_table(list(ACCURACY_RATES_BPS), run.out,
                                                                           emulation))
    real_stacks = emulated.run(r.paper, emulation, run.out)
    out.note("runs", real_stacks.not_run or f"{len(real_stacks.points)} runs ({emulation} grid); application: "
                                            f"{experiments.application()}")
    emu_table = out.table("emulated_tables.csv", emulated.summary(r.paper, real_stacks, conv=r.convention))
    out.figure("emulated_vs_published.png", figures.emulated_vs_published(emu_table, r.tables.get("ns3_tables.csv")))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, simulations=r.simulations, real_stacks=real_stacks)
    out.note("real_stacks", emulated.summary_text(notebook.ledger_table(run, rows), real_stacks.not_run))
    return r.adding(out, rows=rows, real_stacks=real_stacks, stamp_parameters={"emulation": emulation})
