"""Tests of paperlib.conventions: scoring every combination of conventions and choosing the best."""

import numpy as np

from paperlib import conventions

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
