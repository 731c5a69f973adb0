"""Paper 004's stages: the model (Table II, the closed form against the schedule, the what-if figures, "within 4%"),
then Table II on real stacks.

The notebook calls :func:`model` and :func:`with_real_stacks` and shows what they return; each stage writes its
tables and figures into the run's output folder (:class:`paperlib.reproduction.Outputs`) and the ledger rows of
everything so far travel in the result, which :func:`paperlib.notebook.close_paper` writes.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from paperlib import notebook, reproduction
from paperlib.emulation import experiments
from paperlib.emulation import notebook as emulation_notebook
from paperlib.notebook import PaperRun
from paperlib.reproduce.p004 import emulated, figures, findings, ledger_rows, operating_point, tables, what_if

#: The notebook's what-if parameters (the figures' curves; Table II and the ledger use the paper's operating point).
WHAT_IF = ("obj_size_bytes", "mtu_bytes", "rtt_s", "initial_window", "initial_windows", "rates_bps")


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 004's results: the common ones, and the operating point and regenerated Table II the real stacks'
    stage compares with."""

    point: operating_point.OperatingPoint
    regenerated: pd.DataFrame


def model(run: PaperRun) -> Reproduction:
    """Return the model's results: the convention search and choice, Table II regenerated beside the print, the
    closed form against the brute-force schedule, the latency against bandwidth and against the initial window
    (at the run's what-if parameters), the mean-difference definitions, and the model's ledger rows.

    Writes ``convention_search.csv``, ``table2_regenerated.csv``, ``closed_form_vs_schedule.csv``,
    ``latency_vs_bandwidth.png``, ``latency_vs_initial_window.csv`` and ``.png``, ``mean_difference.csv``;
    notes ``chosen`` (the convention) and ``summary`` (the model's findings).
    """
    paper, out = run.paper, run.outputs()
    search = out.table("convention_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    out.note("chosen", operating_point.chosen_text(search, conv))
    point = operating_point.operating_point(paper)
    regen = tables.regenerate_table2(point, conv)
    out.table("table2_regenerated.csv", tables.side_by_side(paper, conv))
    w = what_if.what_if(paper, conv, **{name: run.parameters.get(name) for name in WHAT_IF})
    out.table("closed_form_vs_schedule.csv", what_if.form_comparison(w, point.rates_bps))
    out.figure("latency_vs_bandwidth.png",
               figures.latency_vs_bandwidth(what_if.latency_vs_rate(w), point, paper.tables["table2"].cells, w))
    by_x = out.table("latency_vs_initial_window.csv", what_if.latency_vs_window(w, point.rates_bps))
    out.figure("latency_vs_initial_window.png", figures.latency_vs_initial_window(by_x, w))
    out.table("mean_difference.csv", findings.mean_difference_table(paper, regen))
    rows = ledger_rows.ledger_rows(paper, search=search)
    out.note("summary", findings.summary_text(paper, notebook.ledger_table(run, rows), regen))
    return Reproduction(paper=paper, search=search, convention=conv, point=point, regenerated=regen).adding(
        out, rows=rows)


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str) -> Reproduction:
    """Return ``r`` with Table II re-run on real stacks (``emulation``: "reduced", "full" or "off"): the
    emulator's accuracy at the paper's rates, the runs, their table, the packet-capture cross-check, the figure
    beside the print, and the ledger rows with the real stacks' column.

    Writes ``emulator_accuracy.csv`` (when the testbed runs), ``emulation_runs.csv`` and
    ``emulated_capture_check.csv`` (when runs were made), ``emulated_table2.csv``, ``emulated_vs_published.png``;
    notes ``runs`` (how many, or why none) and ``real_stacks`` (the cells within 5% and the re-judged claims).
    """
    out = run.outputs()
    out.written("emulator_accuracy.csv", emulation_notebook.accuracy_table(r.point.rates_bps, run.out, emulation))
    real_stacks = emulated.run(r.paper, emulation, run.out)
    out.note("runs", real_stacks.not_run or f"{len(real_stacks.points)} runs ({emulation} grid); application: "
                                            f"{experiments.application()}")
    emu_table = out.table("emulated_table2.csv", emulated.summary(r.paper, real_stacks))
    out.written("emulated_capture_check.csv",
                emulation_notebook.capture_table(emulated.capture_points(real_stacks.points), run.out))
    out.figure("emulated_vs_published.png", figures.emulated_vs_published(emu_table, r.point))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, real_stacks=real_stacks)
    out.note("real_stacks", emulated.real_stacks_text(notebook.ledger_table(run, rows), real_stacks.not_run))
    return r.adding(out, rows=rows, real_stacks=real_stacks)
