"""Paper 003's stages: the model (the derived numbers, the users that fill the link, the workloads), then the
experiment re-posed in ns-3 (the TCP/FIFO analogue of the ABR simulation).

The notebook calls :func:`model` and :func:`with_ns3` and shows what they return; each stage writes its tables and
figures into the run's output folder (:class:`paperlib.reproduction.Outputs`) and the ledger rows travel in the
result, which :func:`paperlib.notebook.close_paper` writes. (The analogue is shown beside the print; the ledger's
ABR results stay ``not_regenerable``, so the ns-3 stage adds no rows.)
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import reproduction
from paperlib.notebook import PaperRun
from paperlib.reproduce.p003 import derived, figures, findings, ledger_rows, ns3, operating_point, tables, workload


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 003's results: the common ones, and the derived numbers under the chosen convention (by name, in
    the printed units) that the ns-3 stage's figures mark."""

    derived: dict[str, float]


def model(run: PaperRun) -> Reproduction:
    """Return the model's results: the convention search and choice, the derived numbers regenerated, the users
    that fill the link, the workloads' moments against seeded samples (``n_samples``, ``seed`` of the run), the
    class distributions and the file-size CDF (under the run's ``within_class`` reading, or the convention's),
    and the ledger rows.

    Writes ``convention_search.csv``, ``derived_numbers.csv``, ``users_to_fill.csv``, ``workload_moments.csv``,
    ``class_distributions.png``, ``file_size_cdf.png``.
    """
    paper, out, params = run.paper, run.outputs(), run.checked
    search = out.table("convention_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    out.table("derived_numbers.csv", tables.derived_table(paper, conv))
    out.table("users_to_fill.csv", findings.users_to_fill(paper, conv))
    out.table("workload_moments.csv", workload.moment_table(paper, conv, params["n_samples"], params["seed"]))
    within_class = params["within_class"] or conv.within_class
    w = workload.conv_workloads(paper, conv, within_class)
    out.figure("class_distributions.png", figures.class_distributions_figure(w))
    out.figure("file_size_cdf.png", figures.file_size_cdf_figure(w, within_class, params["seed"]))
    return Reproduction(paper=paper, search=search, convention=conv,
                        derived=derived.derived_values(paper, conv)).adding(
        out, rows=ledger_rows.ledger_rows(paper, search=search))


def with_ns3(run: PaperRun, r: Reproduction, *, replications: int, cache_dir, seed: int, scheduler=None,
             n_workers=None, run_simulation: bool = True, n_servers, k_clients: int, sim_time_s: float,
             warmup_s: float, queue_limit_packets: int) -> Reproduction:
    """Return ``r`` with the ns-3 analogue (:func:`paperlib.reproduce.p003.ns3.run`: ``replications`` seeded runs
    per number of servers, seeds from ``seed``; nothing when ``run_simulation`` is False): its summary, the
    efficiency and queue against N beside the print, and the analogue's queue over time.

    Writes ``analogue_summary.csv``, ``efficiency_queue_vs_n.png`` and ``analogue_queue_time.png`` when it ran;
    note ``ns3`` says what ran.
    """
    out = run.outputs()
    if not run_simulation:
        out.note("ns3", "simulation skipped (run_simulation = False)")
        return r.adding(out)
    sims = ns3.run(r.paper, r.convention, replications=replications, cache_dir=cache_dir, seed=seed,
                   scheduler=scheduler, n_workers=n_workers, n_servers=n_servers, k_clients=k_clients,
                   sim_time_s=sim_time_s, warmup_s=warmup_s, queue_limit_packets=queue_limit_packets)
    summary = out.table("analogue_summary.csv", ns3.summary(sims))
    out.note("ns3", f"{len(sims.runs)} ns-3 runs of the analogue")
    out.figure("efficiency_queue_vs_n.png", figures.efficiency_queue_figure(summary, r.derived["typo_cells_correct"]))
    out.figure("analogue_queue_time.png", figures.queue_time_figure(sims.runs, r.derived["cells_per_segment"]))
    return r.adding(out, simulations=sims)
