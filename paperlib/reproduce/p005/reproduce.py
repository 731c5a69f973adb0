"""Paper 005's stages: the model (today's page, handshakes and initial windows, the page load time against loss,
the IW10 gain, the narrowband what-if), then today's page on real stacks.

The notebook calls :func:`model` and :func:`with_real_stacks` and shows what they return; each stage writes its
tables and figures into the run's output folder (:class:`paperlib.reproduction.Outputs`) and the ledger rows of
everything so far travel in the result, which :func:`paperlib.notebook.close_paper` writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperlib import reproduction
from paperlib.models.web_page import WebPage
from paperlib.notebook import PaperRun
from paperlib.reproduce.p005 import claims, emulated, figures, findings, ledger_rows, operating_point, tables, what_if

#: The transports of the page-load figures.
TRANSPORTS = ("h2", "h3", "sctp")


@dataclass(frozen=True, kw_only=True)
class Reproduction(reproduction.Reproduction):
    """Paper 005's results: the common ones, and the operating point, the model's page and the model's keywords
    under the chosen reading (the real stacks' figure draws the model at their path)."""

    point: operating_point.OperatingPoint
    page: WebPage
    keywords: dict


def model(run: PaperRun) -> Reproduction:
    """Return the model's results at the run's what-if grids (:func:`what_if.what_if`): the reading, today's page,
    the handshakes and initial windows, the page load time against loss, the IW10 gain over rate and round trip,
    the narrowband what-if, and the model's ledger rows.

    Writes ``convention_search.csv``, ``page.csv``, ``handshakes.csv``, ``initial_windows.csv``,
    ``plt_vs_loss_model.csv``, ``plt_vs_loss.png``, ``iw_gain.csv``, ``iw_gain_heatmap.png``, ``narrowband.csv``,
    ``narrowband.png``; note ``chosen`` (the reading).
    """
    paper, out = run.paper, run.outputs()
    w = what_if.what_if(**run.parameters)
    search = out.table("convention_search.csv", operating_point.convention_search(paper))
    conv = operating_point.chosen_convention(paper, search)
    point = operating_point.operating_point(paper)
    keywords = operating_point.model_keywords(conv, point)
    out.note("chosen", operating_point.chosen_text(search, conv))
    out.table("page.csv", tables.page_table(paper, conv))
    out.table("handshakes.csv", tables.handshake_table())
    out.table("initial_windows.csv", tables.initial_window_table())
    page = operating_point.model_page(conv, w.device, point.page_type)
    plt_model = out.table("plt_vs_loss_model.csv", findings.transport_times(
        page, TRANSPORTS, claims.LINK["rate_bps"], claims.LINK["rtt_s"], w.losses, w.iw_segments, **keywords))
    out.figure("plt_vs_loss.png", figures.plt_vs_loss(plt_model))
    gain = out.table("iw_gain.csv", findings.iw_gain(page, w.rates_bps, w.rtts_s, iw_new=point.iw_new, **keywords))
    out.figure("iw_gain_heatmap.png", figures.iw_gain_heatmap(
        gain, iw_old=3, point=(claims.LINK["rate_bps"], claims.LINK["rtt_s"])))
    narrow = out.table("narrowband.csv", findings.narrowband_what_if(page, **keywords))
    out.figure("narrowband.png", figures.narrowband(narrow))
    rows = ledger_rows.ledger_rows(paper, search=search)
    return Reproduction(paper=paper, search=search, convention=conv, point=point, page=page,
                        keywords=keywords).adding(out, rows=rows)


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str) -> Reproduction:
    """Return ``r`` with today's page loaded on real stacks (``emulation``: "reduced", "full" or "off"): the runs,
    their summary, the model figure at the real stacks' path with their means, and the ledger rows with the real
    stacks' column.

    Writes ``emulation_runs.csv`` (when runs were made), ``emulated_summary.csv`` and
    ``plt_vs_loss_real_stacks.png``; note ``runs`` (how many, or why none).
    """
    out = run.outputs()
    real_stacks = emulated.run(r.paper, emulation, run.out)
    out.note("runs", real_stacks.not_run or f"{len(real_stacks.points)} runs ({emulation} grid)")
    emu_table = out.table("emulated_summary.csv", emulated.summary(r.paper, real_stacks))
    model_link = findings.transport_times(r.page, TRANSPORTS, claims.LINK["rate_bps"], claims.LINK["rtt_s"],
                                          claims.LOSSES, claims.IW_REAL, **r.keywords)
    out.figure("plt_vs_loss_real_stacks.png", figures.plt_vs_loss(model_link, emu_table if len(emu_table) else None))
    rows = ledger_rows.ledger_rows(r.paper, search=r.search, real_stacks=real_stacks)
    return r.adding(out, rows=rows, real_stacks=real_stacks, stamp_parameters={"emulation": emulation})
