"""Tests of paperlib.reference: a run's ledger and real-stack intervals compared with the reference run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib import ledger, reference
from paperlib.data import PAPERS
from paperlib.reference import IntervalTable, compare_cells, compare_ledgers, overlap
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent


def frame(rows, **extra) -> pd.DataFrame:
    """Return a ledger table of ``rows`` = [(row, status), ...] of paper 004, source s, column c (plus ``extra``)."""
    out = pd.DataFrame([{"paper": "004", "source": "s", "row": r, "column": "c", "status": s} for r, s in rows],
                       columns=["paper", "source", "row", "column", "status"])
    for name, values in extra.items():
        out[name] = values
    return out


def kinds(comparison) -> list[tuple[str, str]]:
    return sorted(zip(comparison.differences["kind"], comparison.differences["row"], strict=True))


def test_overlap_by_hand():
    assert overlap(1, 2, 2, 3)  # they share the point 2
    assert overlap(1, 4, 2, 3)  # one inside the other
    assert not overlap(1, 2, 2.5, 3)  # 2 < 2.5: a gap
    assert not overlap(2.5, 3, 1, 2)


@given(st.floats(-1e6, 1e6), st.floats(0, 1e3), st.floats(-1e6, 1e6), st.floats(0, 1e3))
def test_intervals_overlap_when_the_means_are_within_the_sum_of_the_half_widths(m1, h1, m2, h2):
    got = overlap(m1 - h1, m1 + h1, m2 - h2, m2 + h2)
    assert got == overlap(m2 - h2, m2 + h2, m1 - h1, m1 + h1)  # symmetric
    if abs(m1 - m2) < 0.999 * (h1 + h2):
        assert got
    if abs(m1 - m2) > 1.001 * (h1 + h2) + 1e-9:
        assert not got


def test_rows_whose_status_changed_or_that_one_run_lacks():
    ref = frame([("a", "reproduced"), ("b", "close"), ("c", "supported"), ("d", "differs")])
    run = frame([("a", "reproduced"), ("b", "differs"), ("c", "supported"), ("e", "input")])
    got = compare_ledgers(ref, run)
    # union of the keys: a, b, c, d, e = 5 rows; a and c keep their status, b changed, d and e are in one only
    assert (got.agree, got.total) == (2, 5)
    assert kinds(got) == [("only_reference", "d"), ("only_run", "e"), ("status", "b")]
    b = got.differences[got.differences["kind"] == "status"].iloc[0]
    assert (b["paper"], b["source"], b["column"], b["reference"], b["run"]) == ("004", "s", "c", "close", "differs")


def test_ledger_intervals_compared_when_both_ledgers_carry_low_and_high():
    ref = frame([("a", "measured_close"), ("b", "measured_close"), ("c", "reproduced")],
                low=["1", "1", ""], high=["2", "2", ""])
    run = frame([("a", "measured_close"), ("b", "measured_close"), ("c", "reproduced")],
                low=["2", "2.5", ""], high=["3", "3", ""])
    got = compare_ledgers(ref, run)
    # a: [1, 2] and [2, 3] share 2, agree; b: [1, 2] and [2.5, 3] are apart; c has no interval: status only
    assert (got.agree, got.total) == (2, 3)
    assert kinds(got) == [("interval", "b")]
    without = compare_ledgers(ref.drop(columns=["low", "high"]), run)  # one ledger without them: status only
    assert (without.agree, without.total) == (3, 3)


def test_a_paper_run_with_other_parameters_is_named_with_what_differs():
    ref = frame([("a", "reproduced")], parameters=[json.dumps({"emulation": "reduced", "x": 1})])
    run = frame([("a", "reproduced")], parameters=[json.dumps({"emulation": "off", "x": 1})])
    got = compare_ledgers(ref, run)
    params = got.differences[got.differences["kind"] == "parameters"].iloc[0]
    assert (params["paper"], params["reference"], params["run"]) == ("004", 'emulation="reduced"', 'emulation="off"')
    assert (got.agree, got.total) == (1, 1)  # the row itself agrees
    reordered = frame([("a", "reproduced")], parameters=['{"x": 1, "emulation": "reduced"}'])
    assert len(compare_ledgers(ref, reordered).differences) == 0  # the same parameters in another order


@st.composite
def ledgers(draw):
    keys = draw(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8))
    return frame([(k, draw(st.sampled_from(ledger.STATUSES))) for k in keys])


@settings(max_examples=40)  # each example merges two frames (milliseconds); 40 cover empty, equal and disjoint
@given(ledgers(), ledgers())
def test_comparison_properties(a, b):
    same = compare_ledgers(a, a)
    assert (same.agree, same.total, len(same.differences)) == (len(a), len(a), 0)
    ab, ba = compare_ledgers(a, b), compare_ledgers(b, a)
    assert (ab.agree, ab.total) == (ba.agree, ba.total)
    assert ab.total == len(set(a["row"]) | set(b["row"]))
    count = (lambda c, kind: int((c.differences["kind"] == kind).sum()))
    assert count(ab, "only_reference") == count(ba, "only_run") == len(set(a["row"]) - set(b["row"]))
    # every row of both either agrees or changed status (by a finding, or by one run's lost timing; without
    # intervals no change is one at the edge of a threshold)
    assert ab.agree + count(ab, "status") + count(ab, "timing") == len(set(a["row"]) & set(b["row"]))
    assert count(ab, "edge") == 0


def test_bad_ledgers_are_named():
    good = frame([("a", "reproduced")])
    with pytest.raises(ParameterError, match="run's ledger: missing column"):
        compare_ledgers(good, good.drop(columns=["status"]))
    with pytest.raises(ParameterError, match="reference ledger: duplicate row 004 / s / a / c"):
        compare_ledgers(frame([("a", "reproduced"), ("a", "close")]), good)


SPEC = IntervalTable("t.csv", keys=("k",), cells=(("m", "h"),))


def table(rows) -> pd.DataFrame:
    return pd.DataFrame([{"k": k, "m": m, "h": h} for k, m, h in rows]).astype(str)


def test_real_stack_cells_by_hand():
    ref = table([("x", 1.0, 0.5), ("y", 1.0, 0.1), ("z", 1.0, 0.1), ("w", "nan", "nan")])
    run = table([("x", 1.4, 0.1), ("y", 2.0, 0.1), ("z", "", ""), ("w", 3.0, 0.2)])
    got = compare_cells("004", SPEC, ref, run)
    # x: |1.0 - 1.4| = 0.4 <= 0.5 + 0.1, overlap; y: 1.0 > 0.2, apart; z measured in the reference only, w here only
    assert (got.agree, got.total) == (1, 4)
    assert kinds(got) == [("cell", "k=y"), ("cell_only_reference", "k=z"), ("cell_only_run", "k=w")]
    y = got.differences[got.differences["kind"] == "cell"].iloc[0]
    # the run's mean 2.0 is (2.0 - 1.0) / 1.0 = +100.0% from the reference's
    assert (y["source"], y["column"], y["reference"], y["run"]) == ("figures/004/t.csv", "m", "1 +/- 0.1",
                                                                    "2 +/- 0.1 (+100.0%)")


def test_a_real_stack_table_without_its_columns_is_named():
    with pytest.raises(ParameterError, match=r"figures/004/t.csv: missing column\(s\) \['h'\]"):
        compare_cells("004", SPEC, table([("x", 1, 1)]), table([("x", 1, 1)]).drop(columns=["h"]))
    with pytest.raises(ParameterError, match="name row 'k=x' twice"):
        compare_cells("004", SPEC, table([("x", 1, 1), ("x", 2, 1)]), table([("x", 1, 1)]))


@pytest.mark.parametrize("kwargs, word", [
    ({"file": "a/t.csv", "keys": ("k",), "cells": (("m", "h"),)}, "file"),
    ({"file": "t.csv", "keys": (), "cells": (("m", "h"),)}, "keys"),
    ({"file": "t.csv", "keys": ("k",), "cells": (("m",),)}, "cells"),
])
def test_a_malformed_interval_table_is_refused(kwargs, word):
    with pytest.raises(ParameterError, match=f"IntervalTable.{word}"):
        IntervalTable(**kwargs)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_declares_key_figures_its_run_writes(paper):
    d = reference.declaration(paper)
    # a name the run writes appears in the notebook's source or in the paper's package (001 names its
    # paper figures in figures.PAPER_FIGURES)
    notebook = next((REPO / "notebooks").glob(f"{paper}_*.ipynb")).read_text(encoding="utf-8")
    folder = REPO / "paperlib" / "reproduce" / f"p{paper}"
    package = "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py") if p.name != "__init__.py")
    assert [f for f in d.key_figures if f not in notebook and f not in package] == []
    if d.intervals:
        assert d.intervals.file in notebook


def lines_for(n_status: int):
    diffs = pd.DataFrame([{"kind": "status", "paper": "004", "source": "s", "row": f"r{i}", "column": "c",
                           "reference": "close", "run": "differs"} for i in range(n_status)])
    return reference.lines(reference.Comparison(diffs, 10 - n_status, 10), reference.Comparison(
        reference._diffs([]), 3, 4), limit=2, full="figures/reference-comparison.csv")


def test_lines_are_short_and_end_with_the_summary():
    out = lines_for(3)
    # a title, two examples (limit 2), the rest counted, then the summary
    assert out == ["  status changed (3):", "    004 s / r0 / c: close -> differs",
                   "    004 s / r1 / c: close -> differs", "    ... and 1 more",
                   "figures/ledger.csv agrees with the reference on 7 of 10 rows; 3 of 4 real-stack cells' 95% "
                   "intervals overlap the reference's (every difference: figures/reference-comparison.csv)"]


def write_ledger(path: Path, rows) -> None:
    records = [{**dict.fromkeys(ledger.ALL_COLUMNS, ""), "paper": "004", "source": "s", "row": r, "column": "c",
                "status": s, "reason": "why"} for r, s in rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(records, columns=list(ledger.ALL_COLUMNS)).to_csv(path, index=False)


def test_the_command_informs_and_exits_0(tmp_path, capsys):
    ref, figs = tmp_path / "reference", tmp_path / "figures"
    assert reference.main(["compare", "--reference", str(ref), "--figures", str(figs)]) == 0
    assert "no reference run" in capsys.readouterr().out
    write_ledger(ref / "ledger.csv", [("a", "close"), ("b", "reproduced")])
    (ref / "RUN.json").write_text(json.dumps({"commit": "0123456789abcdef", "finished": "2026-01-02T03:04:05Z",
                                              "machine": {"cores": 2, "cpu": "a CPU"}}))
    write_ledger(figs / "ledger.csv", [("a", "differs"), ("b", "reproduced")])
    assert reference.main(["compare", "--reference", str(ref), "--figures", str(figs)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("compared with the reference run (0123456789ab, 2026-01-02, 2 cores a CPU;")
    assert "    004 s / a / c: close -> differs" in out
    assert out[-1].startswith("figures/ledger.csv agrees with the reference on 1 of 2 rows")
    saved = pd.read_csv(figs / "reference-comparison.csv", dtype=str, keep_default_na=False)
    assert list(saved.columns) == list(reference.DIFF_COLUMNS) and list(saved["row"]) == ["a"]
    (figs / "ledger.csv").write_text("not,a,ledger\n")
    assert reference.main(["compare", "--reference", str(ref), "--figures", str(figs)]) == 0
    assert "not compared" in capsys.readouterr().out


def test_nan_half_widths_are_not_intervals():
    # a mean without a half-width (one repetition) is not a measured cell
    got = compare_cells("004", SPEC, table([("x", 1.0, math.nan)]), table([("x", 1.0, math.nan)]))
    assert (got.agree, got.total, len(got.differences)) == (0, 0, 0)


def test_a_status_changed_by_lost_timing_is_listed_apart():
    ref = frame([("a", "supported"), ("b", "supported"), ("c", "fidelity_lost")])
    run = frame([("a", "refuted"), ("b", "fidelity_lost"), ("c", "supported")])
    got = compare_ledgers(ref, run)
    # a changed its verdict; b and c changed because one run's runs lost their timing: none of the three agrees
    assert (got.agree, got.total) == (0, 3)
    assert kinds(got) == [("status", "a"), ("timing", "b"), ("timing", "c")]
    out = reference.lines(got, reference.Comparison(reference._diffs([]), 0, 0))
    assert out[0] == "  status changed (1):" and out[2].startswith("  status changed where one run's runs lost")
    assert out[3:5] == ["    004 s / b / c: supported -> fidelity_lost",
                        "    004 s / c / c: fidelity_lost -> supported"]


def test_the_rows_the_real_stacks_ran_for_are_counted_by_what_changed():
    # four rows: a model row (no emulation) that changed, and three the real stacks ran for in one run or both:
    # one the same, one lost its timing in the run, one changed otherwise (supported -> inconclusive)
    ref = frame([("model", "reproduced"), ("same", "supported"), ("lost", "supported"), ("flip", "supported")],
                emulation=["", "ran", "ran", "ran"])
    run = frame([("model", "close"), ("same", "supported"), ("lost", ledger.FIDELITY_LOST), ("flip", "inconclusive")],
                emulation=["", "ran", "fidelity lost", "ran"])
    got = compare_ledgers(ref, run)
    assert got.real_stacks == (1, 1, 0, 1)  # "flip" has no interval: not known to lie at an edge
    text = reference.lines(got, compare_ledgers(ref, ref))
    assert ("  of the 3 rows the real stacks ran for: 1 with the same status, 1 changed where one run lost its "
            "timing, 0 changed at the edge of their threshold, 1 changed otherwise") in text
    # with intervals that overlap, supported -> inconclusive is a change at the edge
    ref["low"], ref["high"] = [None, 0.1, 0.1, 0.015], [None, 0.3, 0.3, 0.256]
    run["low"], run["high"] = [None, 0.1, None, -0.003], [None, 0.3, None, 0.168]
    assert compare_ledgers(ref, run).real_stacks == (1, 1, 1, 0)
    # a ledger without the column: no count, no line
    assert compare_ledgers(ref.drop(columns="emulation"), run).real_stacks is None


def test_a_status_changed_at_the_edge_of_its_threshold_is_listed_apart():
    # Each pair: the reference's (status, low, high) and the run's. Overlapping means share a point.
    pairs = {
        # paper 001's fig8_ab_response_differ in two cold runs: +0.136 [+0.015, +0.256] and +0.082 [-0.003, +0.168]
        # overlap (0.015 <= 0.168): decided in one, undecided in the other -> the edge
        "edge_claim": (("supported", 0.015, 0.256), ("inconclusive", -0.003, 0.168)),
        # a measured cell: [15.36, 16.32] clears the band's edge 15.36, [15.31, 17.12] reaches across it -> the edge
        "edge_cell": (("measured_differs", 15.363, 16.318), ("measured_inconclusive", 15.309, 17.120)),
        # supported against refuted is a contradiction, however the intervals lie
        "contradiction": (("supported", 0.01, 0.2), ("refuted", -0.05, 0.02)),
        # close in one run and differing in the other skips the undecided status between them
        "skips": (("measured_close", 1.0, 1.02), ("measured_differs", 1.01, 1.08)),
        # one step apart but the intervals do not overlap (0.1 < 0.2): a change of finding
        "apart": (("inconclusive", -0.1, 0.1), ("refuted", -0.5, -0.2)),
        # one step apart with no interval to place on the threshold
        "unknown": (("supported", None, None), ("inconclusive", None, None)),
    }
    ref = frame([(k, a[0]) for k, (a, _) in pairs.items()], low=[a[1] for a, _ in pairs.values()],
                high=[a[2] for a, _ in pairs.values()])
    run = frame([(k, b[0]) for k, (_, b) in pairs.items()], low=[b[1] for _, b in pairs.values()],
                high=[b[2] for _, b in pairs.values()])
    got = compare_ledgers(ref, run)
    assert kinds(got) == [("edge", "edge_cell"), ("edge", "edge_claim"), ("interval", "apart"), ("status", "apart"),
                          ("status", "contradiction"), ("status", "skips"), ("status", "unknown")]
    assert got.agree == 0
    out = reference.lines(got, reference.Comparison(reference._diffs([]), 0, 0))
    assert out[0] == "  status changed (4):"
    assert "  status changed at the edge of its threshold (decided in one run, undecided in the other, on 95% " \
           "intervals that overlap: not a contradiction) (2):" in out


@given(st.sampled_from(ledger.STATUSES), st.sampled_from(ledger.STATUSES), st.floats(-10, 10), st.floats(0, 5),
       st.floats(-10, 10), st.floats(0, 5))
def test_across_threshold_is_symmetric_and_needs_overlap(s1, s2, m1, h1, m2, h2):
    a, b = (m1 - h1, m1 + h1), (m2 - h2, m2 + h2)
    got = reference.across_threshold(s1, s2, a, b)
    assert got == reference.across_threshold(s2, s1, b, a)
    if got:
        assert overlap(*a, *b) and s1 != s2
        assert {s1, s2} & {"inconclusive", "measured_inconclusive"}
