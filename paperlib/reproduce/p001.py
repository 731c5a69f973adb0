"""Seed 001 (Seok, FIFO vs RED web response time): Table 3 from the published calibration line.

The paper fits throughput y against the number of browsers x, y = 2.9327 x - 125.0857
(SigmaPlot), and inverts it for the loads of its experiments (Table 3). Neither the unit of
y nor the rounding is stated; :func:`table3_search` tries them systematically. What the
search shows (tests/test_p001.py): the printed browser counts follow only if y is the load
in kbit/s of a 10 Mbit/s link (or, equivalently, in units of 10 kbit/s at 100 Mbit/s), and
the third row, printed "95%", is the 98% load of the text (95% would need 3281 browsers, x = 3281.99 truncated),
and x was truncated, not rounded (2770.51 prints as 2770).

The testbed simulation lives in ``p001_testbed`` (plan), ``p001_calibration`` (the regenerated
line) and ``p001_claims`` (the paper's observations as verdicts); :func:`ledger_rows` gathers
every published number and claim of the paper into ledger rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from paperlib import conventions, units, validate
from paperlib.data import Paper
from paperlib.ledger import Row, claim_row, result_row

PAPER = "001"

#: What y of the calibration line may be measured in (bit/s per unit), and the link the
#: loads are shares of (bit/s), candidates in order of a-priori plausibility.
CONVENTION_AXES: dict[str, list] = {
    "y_unit_bps": [1e6, 1e3, 1.0, 1e4],  # Mbit/s, kbit/s, bit/s, 10 kbit/s
    "link_bps": [100e6, 10e6],  # the 100 Mbit/s of the text, or a tenth of it
    "load_column": ["printed", "text"],  # the third load as printed (95%) or as the text says (98%)
    "browser_rounding": ["half_up", "truncate", "ceil"],
    "rounding": ["half_up"],  # the printed counts are whole numbers: compared exactly
}


def browsers_for_throughput(y, slope: float, intercept: float) -> np.ndarray:
    """Return x of the calibration line y = slope x + intercept for throughput(s) ``y`` (line inverted)."""
    y = np.asarray(y, dtype=float)
    if slope == 0:
        raise validate.ParameterError("slope must not be 0: the line cannot be inverted")
    return (y - intercept) / slope


def _whole(x: np.ndarray, rule: str) -> np.ndarray:
    if rule == "half_up":
        return np.floor(x + 0.5)
    if rule == "truncate":
        return np.trunc(x)
    return np.ceil(x)


def loads(paper: Paper, load_column: str) -> np.ndarray:
    """Return the three loads (fractions): as printed in Table 3, or as the text names them (80, 90, 98 %)."""
    if load_column == "printed":
        return np.array([units.parse_quantity(c).to_si() for c in paper.tables["table3"].cells["Traffic Load"]])
    return np.array([paper.text_value(k).to_si() for k in ("load_80", "load_90", "load_98")])


def table3(paper: Paper, conv: dict) -> pd.DataFrame:
    """Return Table 3 regenerated under ``conv``: load, target throughput in y units, x, browsers."""
    slope = paper.text_value("calib_slope").value
    intercept = paper.text_value("calib_intercept").value
    load = loads(paper, conv["load_column"])
    y = load * conv["link_bps"] / conv["y_unit_bps"]
    x = browsers_for_throughput(y, slope, intercept)
    return pd.DataFrame({"load": load, "y": y, "x": x, "browsers": _whole(x, conv["browser_rounding"])})


def table3_search(paper: Paper) -> pd.DataFrame:
    """Return every reading of the line's units and rounding scored on Table 3's three counts, best first."""
    printed = list(paper.tables["table3"].cells["The Number of Browsers"])
    results = conventions.search(CONVENTION_AXES, lambda **c: table3(paper, c)["browsers"].to_numpy(), printed)
    return conventions.rank(results, CONVENTION_AXES)


def chosen_convention(search: pd.DataFrame) -> dict:
    """Return the reading of the line that reproduces Table 3 (the search's best, by the project rule)."""
    return conventions.choose(search, CONVENTION_AXES)


def table3_rows(paper: Paper, search: pd.DataFrame) -> list[Row]:
    """Return the ledger rows of Table 3: the three counts and the mislabelled third load."""
    conv = chosen_convention(search)
    regen = table3(paper, conv)
    printed = paper.tables["table3"].cells
    why = (f"published line y = {paper.text_value('calib_slope').printed} x {paper.text_value('calib_intercept').printed} "
           f"inverted with y in units of {conv['y_unit_bps']:g} bit/s of a {conv['link_bps'] / 1e6:g} Mbit/s link "
           f"(kbit/s of 10 Mbit/s; the text's 100 Mbit/s with y in kbit/s would need about ten times the browsers), "
           f"x {conv['browser_rounding']}d to whole browsers")
    as_printed = table3(paper, {**conv, "load_column": "printed"})  # the same reading, the printed loads
    rows = []
    for i, (_, r) in enumerate(printed.iterrows()):
        load = regen["load"].iloc[i]
        mislabelled = r["Traffic Load"] != f"{load * 100:g}%"
        note = why if not mislabelled else (
            f"{why}; the row printed '{r['Traffic Load']}' is the text's {load * 100:g}% load "
            f"({r['Traffic Load']} would give {int(as_printed['browsers'].iloc[i])} browsers)")
        rows.append(result_row(PAPER, "Table 3", r["Traffic Load"], "The Number of Browsers", r["The Number of Browsers"],
                               float(regen["browsers"].iloc[i]), rule=conv["rounding"], reason=note))
        if mislabelled:
            rows.append(result_row(
                PAPER, "Table 3", f"row {i + 1}", "Traffic Load", r["Traffic Load"], load * 100, rule="half_up",
                compare_as=f"{load * 100:g}", typo=True,
                reason=(f"the text names 80%, 90% and 98% (Section 2.2, Figs. 3, 7, 8) and the printed count "
                        f"{r['The Number of Browsers']} is the line's inverse at {load * 100:g}% of the link, "
                        f"so the label is a typo of the table (Fig. 6's caption repeats it)")))
    return rows


def calibration_rows(paper: Paper, coefficients: pd.DataFrame, profile_name: str, n_points: int,
                     predicted_kbps: float | None = None, workload: dict | None = None) -> list[Row]:
    """Return the ledger rows of the published line's slope and intercept against the regenerated fit.

    ``predicted_kbps``: the workload's load per browser from its moments (``p001_workload``), quoted
    beside the slope; ``workload``: the traffic model overrides in use.
    """
    workload = workload or {}
    if workload.get("family", "mah") == "mah":
        what = (f"Mah's measured CDFs as ns-2 distributes them (data/001/mah, {workload.get('mah_reading', 'discrete')} "
                f"reading, files per page {workload.get('mah_objects', 'files_per_page')}); their moments predict "
                f"{predicted_kbps:.4f} kbit/s per browser, about {2.9327 / predicted_kbps:.0f}x below the paper: the think "
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
            float(est["estimate"]), rule="half_up",
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
                               rule="half_up",
                               reason=f"{what}, {load:.0%} load, {latency} latency, ns-3 testbed, '{profile_name}' "
                                      f"profile; the paper reads the number off a CDF ('around'){bound}"))
    return rows


def claim_rows(paper: Paper, verdicts, workload: str = "scaled", other: dict | None = None) -> list[Row]:
    """Return one ledger row per claim, in claims.csv order, from ``p001_claims.ci_verdicts``.

    ``workload`` names the profile the verdicts ran on; ``other`` maps claim ids to the status on
    the other workload where it is known (docs/001-workload.md): a verdict that flips says so.
    """
    other = other or {}
    by_id = {v.claim: v for v in verdicts}
    rows = []
    for _, c in paper.claims.cells.iterrows():
        if c["id"] not in by_id:
            raise KeyError(f"paper 001: no verdict for claim {c['id']!r}")
        v = by_id[c["id"]]
        note = f"[{workload} workload] "
        if c["id"] in other:
            note += (f"[other workload: {other[c['id']]}; the verdict depends on the workload] " if other[c["id"]] != v.status
                     else "[same verdict on the other workload] ")
        rows.append(claim_row(PAPER, c["location"].split(";")[0], c["id"], c["printed"], v.regenerated, v.status,
                              note + v.reason))
    return rows
