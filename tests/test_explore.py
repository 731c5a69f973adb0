"""The explorers' shared machinery: discovery by file, the in-place redraw, bad input named, the widget.

The paper explorers themselves are tested in ``tests/test_reproduce_p<id>_explore.py``.
"""

import ast
from pathlib import Path

import numpy as np
import pytest

from paperlib import explore
from paperlib.data import PAPERS


def _toy(**kw) -> explore.Explorer:
    """Return an explorer of y = a x on x in [0, 1] with slider a (1..10) and a published point at a = 2."""
    axes = {"x": explore.Axis(None, "x", False, explore.lin_grid(0.0, 1.0))}
    sliders = {"a": explore.Slider("slope a", 1.0, 10.0, 2.0)}

    def evaluate(axis, v):
        x = axes[axis].grid()
        points = [({"label": "printed", "marker": "o", "linestyle": "none"}, np.array([0.5]), np.array([1.0]))]
        return explore.Curves(x, [({"label": "a x"}, v["a"] * x)], points if explore.near(v["a"], 2.0) else [])

    return explore.Explorer("toy", "toy", "y", sliders, axes, evaluate, **kw)


def test_grids_have_n_grid_points():
    assert len(explore.lin_grid(0, 1)()) == len(explore.log_grid(1, 10)()) == explore.N_GRID == 10_000
    assert explore.int_grid(1, 64)().tolist() == list(range(1, 65))  # whole numbers, fewer than N_GRID
    assert len(explore.int_grid(1, 10**6)()) == explore.N_GRID  # capped


def test_explorers_are_found_by_file_and_the_machinery_imports_no_paper():
    expected = tuple(p for p in PAPERS if (explore.PACKAGES / f"p{p}" / "explore.py").exists())
    assert explore.EXPLORERS == expected and set(expected) >= {"000", "001", "002", "003", "004"}
    tree = ast.parse(Path(explore.__file__).read_text(encoding="utf-8"))
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert [m for m in imported if m and "reproduce" in m] == []


def test_redraw_updates_the_same_artists_in_place():
    ex = _toy()
    first = ex.redraw("x").copy()
    line = ex._fig.axes[0].get_lines()[0]
    background = ex._background
    moved = ex.redraw("x", a=2.5).copy()  # the point leaves (a != 2): a new set of series, so a rebuild
    assert moved.shape == first.shape and moved.dtype == np.uint8 and moved.shape[2] == 4
    line = ex._fig.axes[0].get_lines()[0]
    background = ex._background
    again = ex.redraw("x", a=2.6).copy()  # same series, data within the view: the same artists, no full draw
    assert ex._fig.axes[0].get_lines()[0] is line and ex._background is background
    assert np.array_equal(line.get_ydata(), 2.6 * np.linspace(0, 1, explore.N_GRID))
    assert not np.array_equal(again, moved)
    # the view was padded by half the data's range: y from 0 to 2.5, view 0..3.75; 2.6 x fits, 10 x does not
    assert ex._fig.axes[0].get_ylim() == pytest.approx((0.0, 3.75))
    ex.redraw("x", a=10.0)  # y up to 10 leaves the view: limits follow (0..15), a full draw
    assert ex._fig.axes[0].get_ylim() == pytest.approx((0.0, 15.0)) and ex._background is not background


def test_fits_needs_the_data_inside_and_filling_a_fifth_of_the_view():
    ex = _toy()
    ex.redraw("x", a=5.0)
    ax = ex._fig.axes[0]
    lo, hi = ax.get_ylim()
    x = np.linspace(0, 1, 3)
    assert explore._fits(ax, [(x, np.array([lo, hi]))])
    assert not explore._fits(ax, [(x, np.array([lo, hi + 1]))])
    assert not explore._fits(ax, [(x, np.array([lo, lo + 0.1 * (hi - lo)]))])  # a tenth of the view: rescale


def test_frame_bytes_is_the_frame_as_an_image():
    import io

    from PIL import Image

    frame = _toy().redraw("x")
    image = explore.frame_bytes(frame)
    assert image[:2] == b"BM"  # a bitmap: the pixels as they are, nothing to compress
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(image))), frame[..., :3])


def test_bad_input_is_named():
    ex = _toy(choices={"kind": ("one", "two")})
    with pytest.raises(ValueError, match="axis"):
        ex.curves("y")
    with pytest.raises(ValueError, match="unknown parameters \\['b'\\]"):
        ex.curves("x", b=1.0)
    with pytest.raises(ValueError, match="kind must be one of"):
        ex.curves("x", kind="three")
    with pytest.raises(ValueError, match="explorer must be one of"):
        explore.explorer("999")


def test_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    box = explore.widget("004")
    controls = box.children[0].children
    image = box.children[1]
    before = image.value
    rtt = next(c for c in controls if getattr(c, "description", "") == "rtt_s")
    rtt.value = 0.5
    assert image.format == "bmp" and image.value != before and image.value[:2] == b"BM"


def test_an_explorer_without_data_shows_why(monkeypatch, tmp_path):
    pytest.importorskip("ipywidgets")

    def no_data(name):
        raise explore.NoData("nothing cached yet")

    monkeypatch.setattr(explore, "explorer", no_data)
    box = explore.widget("001")
    assert "nothing cached yet" in box.children[0].value
    assert explore.static_figures(tmp_path, stamp=None) == []  # skipped, not an error


def test_a_fixed_view_stays():
    ex = _toy(ylim=(0.0, 1.0))
    ex.redraw("x", a=5.0)
    background = ex._background
    ex.redraw("x", a=9.0)  # outside the view, but the view is fixed: no rescale, no full draw
    assert ex._fig.axes[0].get_ylim() == (0.0, 1.0) and ex._background is background
