"""Tests of paperlib.conventions: scoring every combination of conventions and choosing the best."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib import conventions
from paperlib.rounding import matches_printed

AXES = {"scale": [1.0, 2.0], "rounding": ["half_up", "truncate"]}


def regenerate(scale, rounding):
    return np.array([1.234, 2.345]) * scale


def test_search_scores_every_combination():
    res = conventions.search(AXES, regenerate, ["2.46", "4.69"])
    assert len(res) == 4
    # scale 2 gives 2.468 and 4.690: half_up -> 2.47, 4.69 (1 hit); truncate -> 2.46, 4.69 (2 hits)
    by = {(r.scale, r.rounding): r.reproduced for r in res.itertuples()}
    assert by == {(1.0, "half_up"): 0, (1.0, "truncate"): 0, (2.0, "half_up"): 1, (2.0, "truncate"): 2}
    assert conventions.choose(res, AXES) == {"scale": 2.0, "rounding": "truncate"}


def test_ties_go_to_the_earlier_candidate():
    res = conventions.search(AXES, lambda scale, rounding: np.array([9.0, 9.0]), ["1.00", "2.00"])
    # nothing reproduces and the errors are equal: the first candidate of each axis wins
    assert conventions.choose(res, AXES) == {"scale": 1.0, "rounding": "half_up"}


def test_nan_counts_as_not_reproduced():
    res = conventions.search(AXES, lambda scale, rounding: np.array([np.nan, 4.69]), ["2.46", "4.69"])
    assert set(res["reproduced"]) == {1}
    assert np.isinf(res["mean_abs_rel_error"]).all()


def test_close_ranking_prefers_more_cells_within_five_percent():
    axes = {"shift": [0.0, 0.5], "rounding": ["half_up"]}
    # shift 0: one cell exact (2.00), one 50% off; shift 0.5: both within 5% of (2.00, 10.0) but none exact
    printed = ["2.00", "10.0"]

    def regen(shift, rounding):
        return np.array([2.0, 15.0]) if shift == 0.0 else np.array([2.05, 10.3])

    res = conventions.search(axes, regen, printed)
    by = {r.shift: (r.reproduced, r.within_5pct) for r in res.itertuples()}
    assert by == {0.0: (1, 1), 0.5: (0, 2)}
    assert conventions.choose(res, axes) == {"shift": 0.0, "rounding": "half_up"}  # most reproduced
    assert conventions.choose(res, axes, primary="close") == {"shift": 0.5, "rounding": "half_up"}  # most within 5%


def test_best_by_axis_reports_each_candidate():
    res = conventions.search(AXES, regenerate, ["2.46", "4.69"])
    best = conventions.best_by_axis(res, AXES).set_index(["convention", "candidate"])
    # scale 2 reproduces two cells with truncation; scale 1 none, whatever the rounding
    assert best.loc[("scale", "2.0"), "best reproduced"] == 2
    assert best.loc[("scale", "1.0"), "best reproduced"] == 0
    assert best.loc[("rounding", "half_up"), "best reproduced"] == 1
    assert list(best.columns) == ["best reproduced", "best within 5%", "least mean |rel. error|"]


def test_regenerate_is_called_once_per_combination_of_the_other_axes():
    calls = []

    def counted(scale, rounding):
        calls.append((scale, rounding))
        return np.array([1.234, 2.345]) * scale

    res = conventions.search(AXES, counted, ["2.46", "4.69"])
    # scale 1 with both rules (the check that the values do not depend on the rounding), then scale 2 once
    assert calls == [(1.0, "half_up"), (1.0, "truncate"), (2.0, "half_up")]
    assert res.equals(conventions.search(AXES, regenerate, ["2.46", "4.69"]))


def test_a_regenerate_that_depends_on_the_rounding_axis_is_refused():
    with pytest.raises(ValueError, match="depends on the rounding axis 'rounding'"):
        conventions.search(AXES, lambda scale, rounding: np.array([1.0, 2.0]) * (scale if rounding == "half_up"
                                                                                   else 2 * scale), ["2.46", "4.69"])


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.lists(st.one_of(st.floats(-50, 50), st.just(np.nan), st.sampled_from([2.465, 2.46, 4.695])),
                                min_size=3, max_size=3), min_size=1, max_size=6))
def test_the_scores_are_those_of_each_cell_scored_alone(values):
    """The grid's scoring (each distinct value rounded once per rule) against matches_printed, cell by cell."""
    printed = ["2.46", "4.7", "-3"]
    axes = {"row": list(range(len(values))), "rounding": ["half_up", "truncate"]}
    res = conventions.search(axes, lambda row, rounding: np.array(values[row]), printed)
    for r in res.itertuples():
        hits = [bool(np.isfinite(v)) and matches_printed(v, p, r.rounding)
                for v, p in zip(values[r.row], printed, strict=True)]
        assert r.hits == "".join("1" if h else "0" for h in hits)
        rel = np.abs(np.array(values[r.row]) - [2.46, 4.7, -3.0]) / [2.46, 4.7, 3.0]
        assert r.within_5pct == sum(h or bool(x <= 0.05) for h, x in zip(hits, rel, strict=True))
        assert r.mean_abs_rel_error == (float(np.mean(rel)) if np.isfinite(rel).all() else np.inf)
