"""Paper 002's operating points from the text, the convention search and the one chosen convention."""

import numpy as np
import pytest
from p002_helpers import CHOSEN

from paperlib import conventions
from paperlib.reproduce.p002 import operating_point


@pytest.fixture(scope="module")
def search(paper):
    return operating_point.convention_search(paper)


def test_operating_points_come_from_the_text(paper):
    pts = operating_point.operating_points(paper)
    assert [pt.p for pt in pts[:4]] == pytest.approx([0.004, 0.01, 0.02, 0.05])
    assert [pt.rtt_s for pt in pts[4:]] == pytest.approx([0.055, 0.08, 0.256, 1.0])
    assert {(pt.obj_kb, pt.mss_bytes, pt.rate_bps, pt.objects) for pt in pts} == {(13.5, 536.0, 40_000.0, 5)}


def test_the_shared_point_is_table_ii_at_1_percent_and_table_iii_at_256_ms(paper):
    pts = operating_point.operating_points(paper)
    assert [(pt.table, pt.column) for pt in pts if operating_point.is_shared_point(paper, pt)] == [("table2", "1%"),
                                                                                       ("table3", "0.256")]
    assert [operating_point.column_label(pts[i]) for i in (1, 6)] == ["p = 1%", "RTT (s) = 0.256"]


def test_model_points_are_si_under_the_kb_convention(paper):
    frame = operating_point.model_points(operating_point.operating_points(paper), 1024)
    # 13.5 KB x 1024 B x 8 = 110 592 bit; MSS 536 B x 8 = 4288 bit
    assert set(frame["obj_bits"]) == {110_592.0} and set(frame["mss_bits"]) == {4288.0}
    assert set(operating_point.model_points(operating_point.operating_points(paper), 1000)["obj_bits"]) == {108_000.0}


def test_chosen_convention_fixes_it_and_a_and_ranks_the_rest(paper, search):
    conv = operating_point.chosen_convention(paper, search)
    # The paper defines IT as "initial connection setup and HTML transfer time": one round trip to set up, one to
    # fetch the HTML, so IT = 2 RTT (docs/reconstruction-002-000.md 1.3); a = ceil(Np) as paper 000 prints it.
    assert (conv.it_rtts, conv.a_mode) == (2, "ceil")
    assert conv == CHOSEN  # the copy the other 002 test modules use (tests/p002_helpers.py)
    fixed = search[(search["it_rtts"] == 2) & (search["a_mode"] == "ceil")]
    # no combination with IT = 2 RTT and a = ceil(Np) brings more cells within 5%, nor reproduces more
    row = operating_point.search_row(fixed, conv)
    assert row["within_5pct"] == fixed["within_5pct"].max()
    assert row["reproduced"] == fixed[fixed["within_5pct"] == row["within_5pct"]]["reproduced"].max()
    # a = ceil(26 x p) = 1 at p = 0.4, 1, 2 % and 2 at 5 %: TCP - SCTP = M a MSS/R = 5 x 4288/40000 = 0.536 s,
    # then 1.072 s (Table II prints 0.51, 0.52, 0.51, 0.98)
    r = operating_point.regenerate(operating_point.operating_points(paper), conv)
    gap = (r["tcp_s"] - r["sctp_s"]).to_numpy()[:4]
    assert gap == pytest.approx([0.536, 0.536, 0.536, 1.072])


def test_the_search_scores_every_combination_of_the_axes(paper, search):
    # 2 x 2 x 2 x 2 x 3 x 2 x 2 x 2 x 2 x 2 = 1536 combinations, 16 model cells each
    assert len(search) == int(np.prod([len(v) for v in operating_point.CONVENTION_AXES.values()])) == 1536
    assert set(search["cells"]) == {16}
    # a narrowed search scores its combinations exactly as the full one does
    narrow = operating_point._search(paper, {**operating_point.CONVENTION_AXES, "it_rtts": [2], "a_mode": ["ceil"]})
    assert len(narrow) == 1536 // 6
    conv = operating_point.chosen_convention(paper, search)
    assert operating_point.search_row(narrow, conv).equals(operating_point.search_row(search, conv))


def test_recommended_reconstruction_reference_point(paper):
    # docs/reconstruction-002-000.md Sec. 1.4: with KB = 1000, continuous logs, IT = 2 RTT, PI = 1,
    # SCTP x M, the model gives TCP 21.380 s and SCTP 20.844 s at p = 1 %, RTT = 0.256 s.
    rec = operating_point.Convention(**{k: v[0] for k, v in operating_point.CONVENTION_AXES.items()})
    r = operating_point.regenerate(operating_point.operating_points(paper), rec)
    assert r["tcp_s"].iloc[1] == pytest.approx(21.380, abs=1e-3)
    assert r["sctp_s"].iloc[1] == pytest.approx(20.844, abs=1e-3)
    # TCP - SCTP = M a MSS/R = 5 x 1 x 4288 / 40000 = 0.536 s
    assert r["tcp_s"].iloc[1] - r["sctp_s"].iloc[1] == pytest.approx(0.536)


def test_printed_model_cells_are_the_16_model_prints_in_point_order(paper):
    cells = operating_point.printed_model_cells(paper)
    assert len(cells) == 16
    assert cells[0] == ("table2", "TCP (Model) (Sec)", "0.4 %", "21.27")
    assert cells[-1] == ("table3", "SCTP (Model) (Sec)", "1.0", "19.40")


def test_the_convention_is_a_frozen_dataclass_that_prints_as_the_mapping(paper):
    conv = CHOSEN
    assert isinstance(conv, conventions.Convention)
    with pytest.raises(AttributeError):
        conv.kilo = 1000  # frozen
    # its fields are the axes, in their order, so str() prints what the notebook printed for the dict
    assert list(conv.as_dict()) == list(operating_point.CONVENTION_AXES)
    assert str(conv) == str(conv.as_dict()) and str(conv).startswith("{'kilo': 1024, 'log_mode': 'continuous'")
    assert conv.describe().startswith("kilo=1024, log_mode=continuous, sctp_total=times_M")
    assert conv.replace(kilo=1000).kilo == 1000 and conv.kilo == 1024
    with pytest.raises(ValueError, match="unknown switches \\['kb'\\]"):
        operating_point.Convention.from_choice({**conv.as_dict(), "kb": 1000})


def test_the_search_evaluates_the_model_once_per_reading_and_each_cell_as_the_convention_alone(paper, search):
    # 64 readings of the algorithm (2^6 switches), each over the stacked grid of 2 KB x 2 PI x 3 IT = 12 inputs
    points = operating_point.operating_points(paper)
    inputs, grid = operating_point._input_grid(points, operating_point.CONVENTION_AXES)
    assert len(inputs) == 12 and len(grid) == 12 * len(points)
    rng = np.random.default_rng(2)
    for i in rng.choice(len(search), size=12, replace=False):
        conv = operating_point.Convention.from_choice(search.iloc[i][list(operating_point.CONVENTION_AXES)].to_dict())
        alone = operating_point.regenerate(points, conv)
        stacked = operating_point._regenerate_inputs(inputs, grid, conv)[(conv.kilo, conv.pipeline_depth,
                                                                           conv.it_rtts)]
        # bit for bit: the grid's rows do not interact
        assert np.array_equal(stacked, np.concatenate([alone["tcp_s"].to_numpy(), alone["sctp_s"].to_numpy()]))
