"""Paper 000's findings from the published data: the law in m, the 3.27, the shared point, bounds, checks."""

import numpy as np
import pytest

from paperlib.reproduce.p000 import findings, operating_point


def test_the_tables_follow_c_times_m_minus_1_over_m(paper):
    laws = findings.law_in_m(paper).set_index(["table", "block", "column"])
    # Table 1, p = 1 %, W_sctp = 3.19, 3.59, 3.78, 3.85 at m = 5, 10, 20, 30; g = (m-1)/m = 0.8, 0.9, 0.95, 0.96667.
    # Least squares: sum g W = 2.552 + 3.231 + 3.591 + 3.72167 = 13.09567, sum g^2 = 0.64 + 0.81 + 0.9025 + 0.93444
    # = 3.28694, c = 3.98415; residuals 3.19 - 3.18732 = 0.00268, 3.59 - 3.58574 = 0.00426,
    # 3.78 - 3.78494 = -0.00494, 3.85 - 3.85135 = -0.00135: the largest is 0.00494 (print rounding is 0.005).
    row = laws.loc[("table1", "1 %", "W_{sctp}")]
    assert row["c [(m-1)/m]"] == pytest.approx(3.98415, abs=1e-5)
    assert row["max |residual| [(m-1)/m] (s)"] == pytest.approx(0.00494, abs=1e-5)
    # all 36 columns (model and experiment) within print rounding, to 0.006 s; Eq. (4)'s m - 1 and
    # Eq. (6)'s 2mn - m + 1 miss every column by more than a third of a second
    assert laws["max |residual| [(m-1)/m] (s)"].max() < 0.006
    assert laws["max |residual| [Eq. (4): m-1] (s)"].min() > 0.3
    assert laws["max |residual| [Eq. (6): 2mn-m+1] (s)"].min() > 0.3
    # as printed, the 3.27 column misses the law by 0.30 s
    printed = findings.law_in_m(paper, corrected=False).set_index(["table", "block", "column"])
    assert printed.loc[("table1", "0.4 %", "W_{tcp}"), "max |residual| [(m-1)/m] (s)"] == pytest.approx(0.302, abs=1e-3)
    # the largest residual of each law over the 36 columns is the column maximum above
    top = findings.largest_residuals(findings.law_in_m(paper)).iloc[:, 0]
    assert top["max |residual| [(m-1)/m] (s)"] == laws["max |residual| [(m-1)/m] (s)"].max()
    assert len(top) == 3


def test_the_3_27_is_a_typo_for_3_67(paper):
    # Other three W_tcp cells of the p = 0.4 % block: 3.26, 3.88, 3.94 at g = 0.8, 0.95, 0.96667:
    # sum g W = 2.608 + 3.686 + 3.80867 = 10.10267, sum g^2 = 0.64 + 0.9025 + 0.93444 = 2.47694, c = 4.07868;
    # at m = 10: 0.9 c = 3.67081, which prints 3.67.
    t = findings.typo_check(paper)
    assert t["c from m = 5, 20, 30"] == pytest.approx(4.07868, abs=1e-5)
    assert t["law at m = 10"] == pytest.approx(3.67081, abs=1e-5)
    assert f"{t['law at m = 10']:.2f}" == t["read as"] == "3.67"


def test_one_operating_point_printed_three_times(paper):
    shared = findings.shared_operating_point(paper)
    t1, t2, t3 = (shared[c] for c in shared.columns)
    assert list(shared.columns) == ["Table 1 1 %", "Table 2 4 Kbps", "Table 3 256 ms"]
    # Table 2's "4 Kbps" block is Table 3's 256 ms block: W_sctp and T_sctp equal, W_tcp and T_tcp within 0.02 s
    for col in ("W_{sctp}", "T_{sctp}"):
        assert (t2[col] == t3[col]).all()
    diff = np.abs(t2.astype(float) - t3.astype(float))
    assert diff.max() <= 0.02 + 1e-12
    # Table 1's p = 1 % block is not: its T_sctp is within 0.01 of the others' W_sctp, and its W_sctp is 12% higher
    gap = t1["T_{sctp}"].astype(float).to_numpy() - t3["W_{sctp}"].astype(float).to_numpy()
    assert np.abs(gap).max() <= 0.01 + 1e-9
    ratio = (t1["W_{sctp}"].astype(float) / t3["W_{sctp}"].astype(float)).to_numpy()
    assert ratio == pytest.approx([1.123, 1.122, 1.118, 1.119], abs=1e-3)


def test_round_robin_bound_by_hand(paper):
    bounds = findings.waiting_bounds(paper)
    points = operating_point.operating_points(paper)
    # Closed form of the round-robin bound, derived by hand: n = ceil(108 000 / 4288) = 26 packets, the last of
    # 108 000 - 25 x 4288 = 800 bit; user r waits for (n-1)(m-1) full packets and r-1 last packets of the others,
    # so the mean is (m-1) [(n-1) 4288 + 800/2] / mu. At 40 kbit/s and m = 5: 4 x (107 200 + 400) / 40 000 = 10.76 s.
    cells = operating_point.printed_cells(paper)
    closed = np.array([(c.m - 1) * (25 * 4288 + 400) / points[c.point].rate_bps for c in cells])
    assert bounds["round-robin bound"].to_numpy() == pytest.approx(closed)
    assert closed[0] == pytest.approx(10.76)
    # any order of service: (m-1)/2 theta/mu = 4/2 x 108 000 / 40 000 = 5.4 s at m = 5, 40 kbit/s
    assert bounds["any-order bound"].iloc[0] == pytest.approx(5.4)


def test_bound_note_flags_a_print_below_its_bounds():
    import pandas as pd

    bounds = pd.Series({"round-robin bound": 10.76, "any-order bound": 5.4})
    # 3.18 + 0.01 < 5.4 < 10.76: below both bounds
    note = findings.bound_note("3.18", bounds, 40e3)
    assert note.startswith("impossible as printed") and "below even the 5.400 s of any order of service" in note
    # 8.00 is below the round-robin bound only; 11.00 is above both: no flag
    assert "any order" not in findings.bound_note("8.00", bounds, 40e3)
    assert findings.bound_note("11.00", bounds, 40e3) == ""


def test_figure2_and_group_checks(paper):
    # Fig. 2: m = 4, n = 3: total waiting 30 tau, mean 7.5, total turnaround 42, mean 10.5 (schedule = Eqs. 3-6)
    fig2 = findings.figure2_check(paper)
    assert fig2["closed form (tau)"].tolist() == [30.0, 7.5, 42.0, 10.5] and fig2["agree"].all()
    g = findings.group_examples()
    # corrected Eqs. (7)-(8) equal the schedule; printed ones do not (first example: 14.2 and 26.2 vs 15.4 and 20.2)
    assert np.allclose(g["W schedule"], g["W Eq. (7) corrected"])
    assert np.allclose(g["T schedule"], g["T Eq. (8) corrected"])
    assert g.iloc[0][["W Eq. (7) printed", "T Eq. (8) printed"]].tolist() == pytest.approx([14.2, 26.2])


def test_response_time_terms_at_table_1s_p_1_percent(paper, conv):
    text, phases = findings.response_time_terms(paper, conv)
    # n = 13 500 B / 536 B = 25.19 packets (n_mode exact), alpha = ceil(25.19 x 0.01) = 1 loss, E(T_sctp) = 3.5788 s
    # (tests/test_models_narrowband_response.py derives the 3.57877 s)
    assert "$\\alpha$ = 1" in text and "$E(T)$ = 3.5788 s" in text
    assert len(phases) >= 1


def test_printed_departures(paper, conv):
    d = findings.printed_departures(paper, conv).set_index("variant")
    # the first row is the chosen convention itself: its E_sctp at Table 1 p = 1 % is 3.57877 s
    assert d.loc["as chosen (printed algorithm)", "E_sctp at Table 1 p = 1 % (s)"] == pytest.approx(3.57877, abs=1e-4)
    # alpha = round(np): round(25.19 x 0.01) = 0 losses at p = 1 %, so E(T) drops (no timeout, no second slow start)
    assert d.loc["alpha = round(np) (printed: ceil(np))", "E_sctp at Table 1 p = 1 % (s)"] < 3.57877
    # a TCP window changes TCP only: SCTP's E(T) is the chosen one
    assert d.loc["TCP initial window 2 (no TCP/SCTP difference)", "E_sctp at Table 1 p = 1 % (s)"] == pytest.approx(
        3.57877, abs=1e-4)


def test_figure4_data_means_over_m(paper, conv):
    fig4 = findings.figure4_data(paper, conv)
    # 9 blocks x 2 protocols x 3 sources
    assert len(fig4) == 9 * 2 * 3
    row = fig4[(fig4.table == "table1") & (fig4.block == "1 %") & (fig4.protocol == "sctp")
               & (fig4.source == "published model")]
    # printed W_sctp of Table 1, p = 1 %: (3.19 + 3.59 + 3.78 + 3.85) / 4 = 3.6025
    assert float(row["W_s"].iloc[0]) == pytest.approx(3.6025)
    pivot = findings.figure4_pivot(fig4)
    assert pivot.shape == (9, 6)


def test_sensitivity_elasticities(paper):
    s = findings.sensitivity(paper).set_index(["table", "column"])
    # Table 3, W_sctp: mean over m at 55 ms and at 256 ms; elasticity = ln(W256/W55) / ln(256/55)
    t3 = paper.tables["table3"].cells
    w = t3["W_{sctp}"].astype(float).to_numpy().reshape(3, 4).mean(axis=1)
    assert s.loc[("Table 3", "W_{sctp}"), "elasticity d ln W / d ln x"] == pytest.approx(
        np.log(w[2] / w[0]) / np.log(256 / 55))
    # elasticity of y = x^2 between x = 1 and x = 3 is 2
    assert findings.elasticity(1.0, 9.0, 1.0, 3.0) == pytest.approx(2.0)
