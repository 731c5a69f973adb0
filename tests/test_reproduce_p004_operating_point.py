"""Paper 004's operating point and conventions (paperlib/reproduce/p004/operating_point.py), from the published data."""

import dataclasses

import numpy as np
import pytest

from paperlib import conventions
from paperlib.reproduce.p004 import operating_point


def test_operating_point_comes_from_the_text(paper):
    point = operating_point.operating_point(paper)
    assert (point.obj_size_kb, point.mtu_bytes, point.rtt_printed_s, point.n_objects) == (50, 1500, 0.1, 5)
    assert point.rates_bps.tolist() == [28e3, 56e3, 100e3, 1e6, 10e6]


def test_model_inputs_under_each_reading(paper):
    point = operating_point.operating_point(paper)
    # 50 KB = 50 000 B = 400 000 bit; 1500 B = 12 000 bit; T_r = 0.1 s as printed
    assert operating_point.model_inputs(point, "printed_rtt", 1000) == (400_000.0, 12_000.0, 0.1)
    # one-way delay 0.1 s -> round trip 0.2 s; KB = 1024 -> 51 200 B = 409 600 bit; 5 objects -> 2 048 000 bit
    assert operating_point.model_inputs(point, "one_way_delay", 1024, 5) == (2_048_000.0, 12_000.0, 0.2)


def test_model_latencies_reference_points(paper):
    point = operating_point.operating_point(paper)
    conv = operating_point.Convention(rtt_meaning="one_way_delay", kilo=1000, initial_window=4, form="corrected",
                                      rounding="truncate", objects_per_transfer=1)
    sctp, tcp = operating_point.model_latencies_s(point, conv)
    # 100 Kbps: mu T_r / L = 1e5 x 0.2 / 12 000 = 1.667; beta = floor(log2(2.667 / 4)) + 1 = -1 + 1 = 0, no stall:
    # LT = 2 T_r + L_obj / mu = 0.4 + 400 000 / 1e5 = 4.4 s; TCP adds 2 T_r = 0.4 s -> 4.8 s
    assert sctp[2] == pytest.approx(4.4) and tcp[2] == pytest.approx(4.8)
    # 1 Mbps: beta = floor(log2(17.667 / 4)) + 1 = 3, alpha = ceil(log2(33.33 / 4 + 1)) = 4, gamma = 3:
    # LT = 0.4 + 0.4 + 3 (0.2 + 0.012) - 4 (2^3 - 1) 0.012 = 0.8 + 0.636 - 0.336 = 1.100 s
    assert sctp[3] == pytest.approx(1.1)


def test_search_covers_every_combination_once(paper):
    search = operating_point.convention_search(paper)
    n = np.prod([len(v) for v in operating_point.CONVENTION_AXES.values()])
    assert len(search) == n
    assert not search.duplicated(subset=list(operating_point.CONVENTION_AXES)).any()
    assert (search["reproduced"].diff().dropna() <= 0).all()  # ranked best first


def test_chosen_convention_reproduces_the_most_cells(paper):
    search = operating_point.convention_search(paper)
    conv = operating_point.chosen_convention(paper, search)
    assert search.iloc[0]["reproduced"] == search["reproduced"].max()
    row = search.iloc[0]
    assert {k: row[k] for k in operating_point.CONVENTION_AXES} == conv.as_dict()
    assert operating_point.chosen_convention(paper) == conv  # without the frame: searched again, the same choice


def test_the_convention_is_a_frozen_reading_that_prints_as_its_switches(paper):
    conv = operating_point.chosen_convention(paper)
    assert isinstance(conv, conventions.Convention)
    with pytest.raises(dataclasses.FrozenInstanceError):
        conv.kilo = 1024
    # the fields are the axes of the search, in their order, and print as the mapping notebooks show
    assert list(conv.as_dict()) == list(operating_point.CONVENTION_AXES)
    assert str(conv) == str(conv.as_dict()) and str(conv).startswith("{'rtt_meaning': 'one_way_delay', 'kilo': 1000")
    assert conv.describe().startswith("rtt_meaning=one_way_delay, kilo=1000, initial_window=4, form=corrected")
    # a what-if reading is a copy; an unknown switch is refused naming it
    assert conv.replace(initial_window=3).initial_window == 3 and conv.initial_window == 4
    with pytest.raises(ValueError, match="unknown switches \\['kb'\\]"):
        operating_point.Convention.from_choice({**conv.as_dict(), "kb": 1000})


def test_printed_tcp_column_is_sctp_plus_two_round_trips(paper):
    # Eq. (6) adds 2 T_r: the printed columns differ by exactly 0.40 s in every row,
    # which is 2 T_r only if T_r = 0.2 s, i.e. if the printed "T_r = 0.1 second" is one way.
    cells = paper.tables["table2"].cells
    gap = cells["Model(TCP)"].astype(float) - cells["Model(SCTP)"].astype(float)
    assert np.allclose(gap, 0.40)
    assert operating_point.chosen_convention(paper).rtt_meaning == "one_way_delay"


def test_best_by_axis_and_the_chosen_text(paper):
    search = operating_point.convention_search(paper)
    conv = operating_point.chosen_convention(paper)
    best = operating_point.best_by_axis(search)
    # one row per candidate of every axis: 2 + 2 + 4 + 2 + 2 + 2 = 14
    assert len(best) == sum(len(v) for v in operating_point.CONVENTION_AXES.values()) == 14
    text = operating_point.chosen_text(search, conv)
    assert text.startswith("**Chosen convention** (one for all rows): `rtt_meaning=one_way_delay`")
    assert f"**{search.iloc[0].reproduced} of {search.iloc[0].cells}**" in text
