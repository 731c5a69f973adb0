"""Paper 001's ledger rows: Table 3, the calibration line, the text's numbers read off its figures, the claims.

Every published number and claim of the paper becomes a row of :func:`ledger_rows`; the notebook
writes them with :func:`paperlib.notebook.close_paper`. Table 3 needs no simulation; the calibration
line, the text's numbers and the claims need the notebook's ns-3 runs
(:class:`~paperlib.reproduce.p001.sweeps.Simulations`), and without them their rows say they were
not run. The claims judged on real stacks (:mod:`~paperlib.reproduce.p001.emulated`) follow in their own
column when the notebook passes its real-stack runs.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from paperlib.data import Paper
from paperlib.emulation.notebook import Emulated
from paperlib.ledger import Row, claim_row, result_row
from paperlib.reproduce.p001 import claims, operating_point, tables
from paperlib.reproduce.p001.sweeps import Simulations

PAPER = "001"


def table3_rows(paper: Paper, search: pd.DataFrame | None = None) -> list[Row]:
    """Return the ledger rows of Table 3: the three counts and the mislabelled third load.

    ``search``: :func:`~paperlib.reproduce.p001.operating_point.convention_search`'s frame (``None``: searched here).
    """
    conv = operating_point.chosen_convention(paper, search)
    regen = tables.table3(paper, conv)
    printed = paper.tables["table3"].cells
    why = (f"published line y = {paper.text_value('calib_slope').printed} x "
           f"{paper.text_value('calib_intercept').printed} "
           f"inverted with y in units of {conv.y_unit_bps:g} bit/s of a {conv.link_bps / 1e6:g} Mbit/s link "
           f"(kbit/s of 10 Mbit/s; the text's 100 Mbit/s with y in kbit/s would need about ten times the browsers), "
           f"x {conv.browser_rounding}d to whole browsers")
    as_printed = tables.table3(paper, conv.replace(load_column="printed"))  # the same reading, the printed loads
    rows = []
    for i, (_, r) in enumerate(printed.iterrows()):
        load = regen["load"].iloc[i]
        mislabelled = r["Traffic Load"] != f"{load * 100:g}%"
        note = why if not mislabelled else (
            f"{why}; the row printed '{r['Traffic Load']}' is the text's {load * 100:g}% load "
            f"({r['Traffic Load']} would give {int(as_printed['browsers'].iloc[i])} browsers)")
        rows.append(result_row(PAPER, "Table 3", r["Traffic Load"], "The Number of Browsers",
                               r["The Number of Browsers"],
                               float(regen["browsers"].iloc[i]), rule=conv.rounding, reason=note, evidence="model",
                               convention=conv.describe()))
        if mislabelled:
            rows.append(result_row(
                PAPER, "Table 3", f"row {i + 1}", "Traffic Load", r["Traffic Load"], load * 100, rule="half_up",
                compare_as=f"{load * 100:g}", typo=True, evidence="printed",
                reason=(f"the text names 80%, 90% and 98% (Section 2.2, Figs. 3, 7, 8) and the printed count "
                        f"{r['The Number of Browsers']} is the line's inverse at {load * 100:g}% of the link, "
                        f"so the label is a typo of the table (Fig. 6's caption repeats it)")))
    return rows


def calibration_rows(paper: Paper, coefficients: pd.DataFrame, profile_name: str, n_points: int,
                     predicted_kbps: float | None = None, workload: dict | None = None) -> list[Row]:
    """Return the ledger rows of the published line's slope and intercept against the regenerated fit.

    ``predicted_kbps``: the workload's load per browser from its moments
    (:mod:`~paperlib.reproduce.p001.workload`), quoted
    beside the slope; ``workload``: the traffic model overrides in use.
    """
    workload = workload or {}
    if workload.get("family", "mah") == "mah":
        what = (f"Mah's measured CDFs as ns-2 distributes them (data/001/mah, "
                f"{workload.get('mah_reading', 'discrete')} "
                f"reading, files per page {workload.get('mah_objects', 'files_per_page')}); their moments predict "
                f"{predicted_kbps:.4f} kbit/s per browser, about {2.9327 / predicted_kbps:.0f}x below the paper: "
                f"the think "
                f"times' heavy tail (mean about 1800 s, median 16 s) sets it; docs/001-workload.md"
                if predicted_kbps else "Mah's measured CDFs")
    else:
        what = (f"the parametric family (sensitivity workload), predicted {predicted_kbps:.4f} kbit/s per browser"
                if predicted_kbps else "the parametric family")
    rows = []
    for key, name in (("calib_slope", "slope"), ("calib_intercept", "intercept")):
        est = coefficients.loc[name]
        rows.append(result_row(
            PAPER, "Section 2.2 (calibration line)", "y = 2.9327x - 125.0857", name, paper.text_value(key).printed,
            float(est["estimate"]), rule="half_up", evidence="ns-3", n=n_points,
            interval95=(float(est["ci95_low"]), float(est["ci95_high"])),
            reason=(f"OLS fit of simulated throughput (kbit/s) on browsers, {n_points} ns-3 runs of the "
                    f"'{profile_name}' profile's uncongested testbed; 95% CI [{est['ci95_low']:.4f}, "
                    f"{est['ci95_high']:.4f}]. The slope is the mean load one browser offers, set by the workload: "
                    f"{what}")))
    return rows


#: Ledger reading of each of the paper's numeric results in the running text: (text value id,
#: summary lookup (configs, load, latency, column), what the number is).
TEXT_RESULTS = {
    "fifo_80_short_p90": ("fifo", 0.8, "short", "p90_ms", "p90 response time, mean over FIFO-60/120/180"),
    "fifo_80_long_p90": ("fifo", 0.8, "long", "p90_ms", "p90 response time, mean over FIFO-60/120/180"),
    "red_80_short_p90": ("red480", 0.8, "short", "p90_ms", "p90 response time, mean over RED-A/B/C (qlen 480)"),
    "red_80_long_p90": ("red480", 0.8, "long", "p90_ms", "p90 response time, mean over RED-A/B/C (qlen 480)"),
    "red_98_short": ("red480", 0.98, "short", "p90_ms", "p90 response time, mean over RED-A/B/C (qlen 480)"),
    "red_98_long": ("red480", 0.98, "long", "p90_ms", "p90 response time, mean over RED-A/B/C (qlen 480)"),
    "fig8a_avg_q": ("RED-A-240", 0.98, "short", "mean_queue", "mean queue length (packets), Fig. 8-A = RED-A"),
    "fig8b_avg_q": ("RED-C-240", 0.98, "short", "mean_queue", "mean queue length (packets), Fig. 8-B = RED-C"),
}


def text_result_rows(paper: Paper, summary: pd.DataFrame, groups: dict[str, list[str]], profile_name: str) -> list[Row]:
    """Return the ledger rows of the numbers the text reads off its figures, against the simulation."""
    s = summary.set_index(["config", "load", "latency"])
    rows = []
    for key, (which, load, latency, column, what) in TEXT_RESULTS.items():
        configs = groups.get(which, [which])
        value = float(np.mean([s.loc[(c, load, latency), column] for c in configs]))
        q = paper.text_value(key)
        row = paper.text_values.cells.set_index("id").loc[key]
        bound = " (printed as a bound: the claim row gives the verdict)" if key.startswith("fig8") else ""
        rows.append(result_row(PAPER, row["location"].split(";")[0], key, row["quantity"], q.printed, value,
                               rule="half_up", evidence="ns-3",
                               reason=f"{what}, {load:.0%} load, {latency} latency, ns-3 testbed, '{profile_name}' "
                                      f"profile; the paper reads the number off a CDF ('around'){bound}"))
    return rows


def claim_rows(paper: Paper, evidence: claims.Evidence, workload: str = "scaled",
               other: dict | None = None) -> list[Row]:
    """Return one ledger row per claim, in claims.csv order, judged by ``claims.CLAIMS`` on ``evidence``.

    The row is the claim's id and the source the first place the paper states it. ``workload``
    names the profile the verdicts ran on; ``other`` maps claim ids to the status on the other
    workload where it is known (docs/001-workload.md): a verdict that flips says so.
    """
    other = other or {}
    out = []
    found = claims.CLAIMS.rows(paper, evidence)
    for row, (_, c) in zip(found, paper.claims.cells.iterrows(), strict=True):
        note = f"[{workload} workload] "
        if c["id"] in other:
            note += (f"[other workload: {other[c['id']]}; the verdict depends on the workload] "
                     if other[c["id"]] != row.status else "[same verdict on the other workload] ")
        out.append(replace(row, source=c["location"].split(";")[0], row=c["id"], reason=note + row.reason,
                           other_status=other.get(c["id"], "")))
    return out


def not_run_rows(paper: Paper, why: str, *, calibration: bool = True) -> list[Row]:
    """Return the rows that need the ns-3 runs, each saying why it has no value: ``why`` (what did not run).

    The calibration line's two rows (unless ``calibration`` is False), the text's numbers of
    :data:`TEXT_RESULTS` (``not_regenerable``) and every claim (``untestable``), in the order of :func:`ledger_rows`.
    """
    out = []
    if calibration:
        out += [result_row(PAPER, "Section 2.2 (calibration line)", "y = 2.9327x - 125.0857", name,
                           paper.text_value(key).printed, None, rule="half_up", not_regenerable=True,
                           reason=f"the ns-3 calibration regenerates it: {why}")
                for key, name in (("calib_slope", "slope"), ("calib_intercept", "intercept"))]
    cells = paper.text_values.cells.set_index("id")
    out += [result_row(PAPER, cells.loc[key, "location"].split(";")[0], key, cells.loc[key, "quantity"],
                       paper.text_value(key).printed, None, rule="half_up", not_regenerable=True,
                       reason=f"{TEXT_RESULTS[key][4]}: read off the ns-3 experiments, {why}")
            for key in TEXT_RESULTS]
    out += [claim_row(PAPER, c["location"].split(";")[0], c["id"], str(c["printed"]), None, "untestable",
                      f"judged on the ns-3 experiments (every queue configuration): {why}", claim_id=c["id"],
                      evidence="none")
            for _, c in paper.claims.cells.iterrows()]
    return out


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: Simulations | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Return every ledger row of paper 001: Table 3, the calibration line, the text's numbers and the claims.

    ``search``: :func:`~paperlib.reproduce.p001.operating_point.convention_search`'s frame (``None``: searched
    here). ``simulations``: the notebook's ns-3 runs; without them (or without every queue configuration:
    ``summary``/``evidence`` None) the rows that need them say they were not run (:func:`not_run_rows`).
    ``real_stacks``: the real-stack runs (:func:`paperlib.reproduce.p001.emulated.run`, a
    :class:`~paperlib.reproduce.p001.emulated.RealStacks`), whose rows follow the ns-3 ones in the column
    ``emulated (real stacks)``: the calibration line's slope and intercept measured on the real stacks
    (:func:`paperlib.reproduce.p001.emulated.calibration_rows`, quoting the ns-3 line beside them), then the claims
    (:func:`paperlib.reproduce.p001.emulated.real_stack_rows`, each quoting the ns-3 verdict beside it); a record
    that says why nothing ran gives every such row that reason; ``None``: no real-stack rows.
    """
    out = _ns3_rows(paper, search, simulations)
    if real_stacks is None:
        return out
    from paperlib.reproduce.p001 import emulated

    cal = emulated.calibration_of(real_stacks)
    if cal is not None:
        out = out + emulated.calibration_rows(paper, cal, simulations.coefficients if simulations is not None else None)
    ns3 = {r.claim_id: r.status for r in out if r.claim_id and r.evidence == "ns-3"}
    return out + emulated.real_stack_rows(paper, real_stacks, ns3)


def _ns3_rows(paper: Paper, search: pd.DataFrame | None, simulations: Simulations | None) -> list[Row]:
    """Return the rows of :func:`ledger_rows` but the real stacks': Table 3, the calibration line, text, claims."""
    out = table3_rows(paper, search)
    if simulations is None:
        return out + not_run_rows(paper, "not run (no simulations given)")
    prof = simulations.profile
    out += calibration_rows(paper, simulations.coefficients, prof.name, simulations.n_calibration_runs,
                            predicted_kbps=prof.predicted_kbps_per_browser(), workload=prof.traffic)
    evidence = simulations.evidence
    if simulations.summary is None or evidence is None:
        return out + not_run_rows(paper, "not run with every queue configuration (configs)", calibration=False)
    groups = {"fifo": list(evidence.fifo), "red480": list(evidence.red480)}
    out += text_result_rows(paper, simulations.summary, groups, prof.name)
    out += claim_rows(paper, evidence, workload=prof.name, other=simulations.other_workload)
    return out
