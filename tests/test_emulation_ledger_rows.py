"""The emulated runs' ledger rows: verdicts decided only by whole confidence intervals, measured cells scored
against their interval (paperlib.emulation.ledger_rows). Pure: no testbed."""

import pandas as pd
import pytest

from paperlib.emulation import ledger_rows
from paperlib.ledger import Row


def test_verdict_decides_only_when_the_whole_interval_agrees():
    pos, neg = (lambda v: v > 0), (lambda v: v < 0)
    assert ledger_rows.verdict(0.1, 0.5, pos, neg) == "supported"
    assert ledger_rows.verdict(-0.5, -0.1, pos, neg) == "refuted"
    assert ledger_rows.verdict(-0.1, 0.5, pos, neg) == "inconclusive"  # tested, not decided


def test_emulated_row_is_scored_against_the_measurement_and_counts_within_5_percent():
    old = Row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", "", "", "not_regenerable", "testbed")
    near = ledger_rows.emulated_row(old, 1.52, 0.01, 3, "half_up", "stack")  # (1.52 - 1.49) / 1.49 = 2.0% -> within 5%
    far = ledger_rows.emulated_row(Row("004", "Table II", "10 Mbps", "Exp(TCP)", "1.42", "", "", "not_regenerable",
                                       "t"), 1.02, 0.01, 3, "half_up", "stack")  # -28% -> not within
    skipped = ledger_rows.not_run_row(Row("004", "Table II", "28 Kbps", "Exp(TCP)", "14.71", "", "", "not_regenerable",
                                          "t"), "off")
    # [1.51, 1.53] misses 1.49 but within 5%; [1.01, 1.03] misses 1.42 and 28% away
    assert (near.status, far.status, skipped.status) == ("measured_close", "measured_differs", "not_regenerable")
    assert near.reason.startswith(ledger_rows.MARK) and "95% CI +/- 0.010" in near.reason
    frame = pd.DataFrame([r.__dict__ for r in (near, far, skipped)])
    assert ledger_rows.counts(frame) == (1, 3)


def test_band_verdict_needs_the_ci_on_one_side_of_the_band_to_refute():
    # claim "20 +/- 5 %": band [15, 25]
    assert ledger_rows.band_verdict(16.0, 24.0, 15.0, 25.0) == "supported"
    assert ledger_rows.band_verdict(2.0, 9.0, 15.0, 25.0) == "refuted"  # wholly below
    assert ledger_rows.band_verdict(26.0, 40.0, 15.0, 25.0) == "refuted"  # wholly above
    assert ledger_rows.band_verdict(10.0, 20.0, 15.0, 25.0) == "inconclusive"  # straddles the lower edge
    # both ends outside the band, but the CI covers it: the data cannot tell, so no verdict
    assert ledger_rows.band_verdict(10.0, 30.0, 15.0, 25.0) == "inconclusive"
    with pytest.raises(ValueError, match="low <= high"):
        ledger_rows.band_verdict(3.0, 1.0, 15.0, 25.0)


def test_rise_verdict_combines_the_two_intervals():
    # 2.0 +/- 0.3 -> 3.0 +/- 0.4: rise 1.0, half-width hypot(0.3, 0.4) = 0.5, CI [0.5, 1.5] above 0
    assert ledger_rows.rise_verdict(2.0, 3.0, 0.3, 0.4) == (1.0, 0.5, "supported")
    assert ledger_rows.rise_verdict(3.0, 2.0, 0.3, 0.4) == (-1.0, 0.5, "refuted")
    assert ledger_rows.rise_verdict(2.0, 2.2, 0.3, 0.4)[2] == "inconclusive"  # CI [-0.3, 0.7]


def test_mean_difference_is_the_quadrature_of_the_points_half_widths():
    # two points: differences 1 and 2 (mean 1.5); half-widths sqrt(0.3^2 + 0.4^2) = 0.5 each,
    # so the mean's half-width is sqrt(0.5^2 + 0.5^2) / 2 = 0.3536
    mean, half = ledger_rows.mean_difference([2.0, 3.0], [0.3, 0.3], [1.0, 1.0], [0.4, 0.4])
    assert mean == pytest.approx(1.5) and half == pytest.approx(0.5**0.5 / 2)
    # relative to a scale: (2 - 1) / 2 = 0.5 with half-width 0.5 / 2 = 0.25 on one point
    assert ledger_rows.mean_difference([2.0], [0.3], [1.0], [0.4], scale=[2.0]) == pytest.approx((0.5, 0.25))
    with pytest.raises(ValueError, match="one value per point"):
        ledger_rows.mean_difference([1.0, 2.0], [0.1], [1.0, 2.0], [0.1, 0.1])


def test_measured_stack_takes_the_point_of_the_cells_own_protocol(monkeypatch):
    monkeypatch.setattr(ledger_rows.experiments, "stack_text", lambda point: f"{point['protocol']} #{point['id']}")
    points = [{"protocol": "tcp", "rate_bps": 1e5, "id": 1}, {"protocol": "sctp", "rate_bps": 2e5, "id": 2},
              {"protocol": "sctp", "rate_bps": 1e5, "id": 3}]
    # the TCP point comes first at that rate and an SCTP point at another rate second: the SCTP cell is the third
    assert ledger_rows.measured_stack(points, "sctp", 3, "cell", rate_bps=1e5) == "sctp #3"
    assert ledger_rows.measured_stack(points, "tcp", 3, "cell", rate_bps=1e5) == "tcp #1"
    with pytest.raises(ValueError, match="cell: 3 sctp runs but no sctp point"):
        ledger_rows.measured_stack(points, "sctp", 3, "cell", rate_bps=4e5)


def test_to_decide_gives_the_repetitions_of_a_straddling_interval_only():
    # rise 0.2 +/- 0.5 over 4 repetitions (CI [-0.3, 0.7]): s = 0.5 x 2 / t(0.975, 3) = 1 / 3.1824 = 0.31422;
    # t(n - 1) x 0.31422 / sqrt(n) < 0.2 first at n = 12 (n = 11: 2.2281 x 0.31422 / 3.3166 = 0.2111; n = 12:
    # 2.2010 x 0.31422 / 3.4641 = 0.1996)
    needed, note = ledger_rows.to_decide("inconclusive", 0.2, 0.5, 4)
    assert needed == 12
    assert note == ("; the 95% interval [-0.3, 0.7] straddles 0: about 12 replications would decide it at the "
                    "measured spread (4 now)")
    assert ledger_rows.to_decide("supported", 1.0, 0.5, 4) == (None, "")
    # a band [15, 25]: a mean of 12 is decided against 15 (3 away, 25 is 13 away), one of 24 against 25
    assert ledger_rows.nearest(12.0, (15.0, 25.0)) == 15.0 and ledger_rows.nearest(24.0, (15.0, 25.0)) == 25.0


def test_split_cases_are_inconclusive_with_the_most_any_straddling_case_needs():
    assert ledger_rows.split_note(["supported", "supported"], [None, None]) == (None, "")
    # every case decided, but not the same way: no number of repetitions is given
    assert ledger_rows.split_note(["supported", "refuted"], [None, None]) == (
        None, "; the cases' verdicts split: 1 supported, 1 refuted")
    needed, note = ledger_rows.split_note(["supported", "inconclusive", "inconclusive"], [None, 12.0, 40.0])
    assert needed == 40 and "2 of 3 cases' 95% CIs straddle the threshold: about 40 replications" in note


def test_a_cell_whose_runs_lost_their_timing_is_fidelity_lost_and_counted_as_run_not_within():
    old = Row("004", "Table II", "1 Mbps", "Exp(TCP)", "1.49", "", "", "not_regenerable", "testbed")
    lost = ledger_rows.fidelity_lost_cell(old, "2 of 5 runs kept; lateness 40 ms, waiting 12 ms")
    assert (lost.status, lost.regenerated, lost.rel_error) == ("fidelity_lost", "", "")
    assert lost.reason == f"{ledger_rows.MARK} 2 of 5 runs kept; lateness 40 ms, waiting 12 ms; testbed"
    near = ledger_rows.emulated_row(old, 1.52, 0.01, 3, "half_up", "stack")  # 2.0% from 1.49: within 5%
    frame = pd.DataFrame([r.__dict__ for r in (near, lost)])
    assert ledger_rows.counts(frame) == (1, 2)  # the lost cell counts among the cells, not among those within 5%
