"""Paper 004's notebook parameters and what-if curves (paperlib/reproduce/p004/what_if.py)."""

import numpy as np
import pytest

from paperlib.parameters import Parameters
from paperlib.reproduce.p004 import operating_point, what_if
from paperlib.validate import ParameterError


@pytest.fixture(scope="module")
def conv(paper):
    """Paper 004's chosen convention: a frozen Convention, so no copy is needed (conftest's ``conv`` copies a dict)."""
    return operating_point.chosen_convention(paper)


def test_what_if_parameters_are_validated_by_name(paper, conv):
    with pytest.raises(ParameterError, match="rtt_s"):
        what_if.what_if(paper, conv, rtt_s=-0.05)
    with pytest.raises(ParameterError, match="initial_windows"):
        what_if.what_if(paper, conv, initial_windows=[1, 0])
    with pytest.raises(ParameterError, match="rates_bps"):
        what_if.what_if(paper, conv, rates_bps=[1e6, -1])
    with pytest.raises(ParameterError, match="obj_size_bytes"):
        what_if.what_if(paper, conv, obj_size_bytes="big")
    w = what_if.what_if(paper, conv, rtt_s=0.05, initial_window=3)
    assert (w.rtt_s, w.initial_window) == (0.05, 3)


def test_check_covers_the_emulation_profile():
    with pytest.raises(ParameterError, match="^emulation must be one of"):
        what_if.check(emulation="tiny")
    assert what_if.check(emulation="reduced")["emulation"] == "reduced"


def test_check_returns_the_checked_parameters():
    checked = what_if.check(rtt_s=0.05, rates_bps=[1e6, 1e5])
    assert isinstance(checked, Parameters)
    # every parameter, None where not given (the paper's value); a grid becomes an array, a profile is checked
    assert list(checked) == ["obj_size_bytes", "mtu_bytes", "rtt_s", "initial_window", "initial_windows", "rates_bps",
                             "emulation"]
    assert checked["rtt_s"] == 0.05 and checked["obj_size_bytes"] is None and checked["emulation"] == "off"
    assert checked["rates_bps"].tolist() == [1e6, 1e5]


def test_defaults_are_the_papers_operating_point(paper, conv):
    w = what_if.what_if(paper, conv)
    # the chosen convention: 50 KB = 400 000 bit, 1500 B = 12 000 bit, T_r = 0.2 s, x = 4
    assert (w.obj_bits, w.mtu_bits, w.rtt_s, w.initial_window) == (400_000.0, 12_000.0, 0.2, 4)
    assert w.initial_windows.tolist() == list(range(1, 17)) and len(w.rates_bps) == 121


def test_form_comparison_matches_schedule(paper, conv):
    w = what_if.what_if(paper, conv)
    forms = what_if.form_comparison(w, operating_point.operating_point(paper).rates_bps)
    assert np.allclose(forms["LT corrected (s)"], forms["LT schedule (s)"], rtol=1e-12)
    assert "LT printed (s)" in forms  # x = 4 is a power of 2


def test_latency_vs_rate_has_no_printed_form_for_x_3(paper, conv):
    w = what_if.what_if(paper, conv, initial_window=3, rates_bps=[1e5, 1e6])
    curve = what_if.latency_vs_rate(w)
    assert curve["sctp_printed_s"].isna().all() and curve["tcp_printed_s"].isna().all()
    # Eq. (6): TCP = SCTP + 2 T_r = SCTP + 0.4 s
    assert np.allclose(curve["tcp_corrected_s"] - curve["sctp_corrected_s"], 0.4)


def test_latency_vs_window_one_row_per_window_and_rate(paper, conv):
    w = what_if.what_if(paper, conv, initial_windows=[1, 2, 4])
    by_x = what_if.latency_vs_window(w, [1e5, 1e6])
    assert len(by_x) == 3 * 2
    # 100 Kbps, T_r = 0.2 s, L/mu = 12 000 / 1e5 = 0.12 s; the stall after window k is L/mu + T_r - x 2^(k-1) L/mu
    # (Eq. (2)) when positive, on top of 2 T_r + L_obj/mu = 0.4 + 4 = 4.4 s:
    #   x = 1: 0.32 - 0.12 = 0.20 and 0.32 - 0.24 = 0.08 -> 4.68 s;  x = 2: 0.32 - 0.24 = 0.08 -> 4.48 s;  x = 4: none
    assert np.allclose(by_x[by_x.rate_bps == 1e5].sctp_latency_s, [4.68, 4.48, 4.4])
