"""Seed 004's Table II, the convention search and the claims, from the published data."""

import numpy as np
import pytest

from paperlib.data import load_paper
from paperlib.reproduce import p004
from paperlib.validate import ParameterError


@pytest.fixture(scope="module")
def paper():
    return load_paper("004")


def test_operating_point_comes_from_the_text(paper):
    point = p004.operating_point(paper)
    assert (point.obj_size_kb, point.mtu_bytes, point.rtt_printed_s, point.n_objects) == (50, 1500, 0.1, 5)
    assert point.rates_bps.tolist() == [28e3, 56e3, 100e3, 1e6, 10e6]


def test_search_covers_every_combination_once(paper):
    search = p004.convention_search(paper)
    n = np.prod([len(v) for v in p004.CONVENTION_AXES.values()])
    assert len(search) == n
    assert not search.duplicated(subset=list(p004.CONVENTION_AXES)).any()
    assert (search["reproduced"].diff().dropna() <= 0).all()  # ranked best first


def test_chosen_convention_reproduces_the_most_cells(paper):
    search = p004.convention_search(paper)
    conv = p004.chosen_convention(paper)
    assert search.iloc[0]["reproduced"] == search["reproduced"].max()
    row = search.iloc[0]
    assert {k: row[k] for k in conv} == conv


def test_printed_tcp_column_is_sctp_plus_two_round_trips(paper):
    # Eq. (6) adds 2 T_r: the printed columns differ by exactly 0.40 s in every row,
    # which is 2 T_r only if T_r = 0.2 s, i.e. if the printed "T_r = 0.1 second" is one way.
    cells = paper.tables["table2"].cells
    gap = cells["Model(TCP)"].astype(float) - cells["Model(SCTP)"].astype(float)
    assert np.allclose(gap, 0.40)
    assert p004.chosen_convention(paper)["rtt_meaning"] == "one_way_delay"


def test_mean_difference_definitions_on_the_published_table(paper):
    cells = paper.tables["table2"].cells
    model = np.concatenate([cells["Model(SCTP)"].astype(float), cells["Model(TCP)"].astype(float)])
    exp = np.concatenate([cells["Exp(SCTP)"].astype(float), cells["Exp(TCP)"].astype(float)])
    d = p004.mean_difference(model, exp)
    # |M-E|/E per pair: .56/14.12, .18/7.36, .01/4.39, .04/1.14, .18/1.02,
    #                   .37/14.71, .24/7.70, .10/4.70, .01/1.49, .18/1.42  -> mean 4.89 %
    assert d["mean |M-E|/E"] == pytest.approx(4.890, abs=0.001)
    # worst pair: 10 Mbps SCTP, 0.18 / 1.02 = 17.65 %
    assert d["max |M-E|/E"] == pytest.approx(17.647, abs=0.001)
    # totals: sum M = 59.12, sum E = 58.05 -> 1.07 / 58.05 = 1.84 %
    assert d["|sum M - sum E| / sum E"] == pytest.approx(1.843, abs=0.001)


def test_mean_difference_per_protocol(paper):
    conv = p004.chosen_convention(paper)
    table = p004.mean_difference_table(paper, p004.regenerate_table2(p004.operating_point(paper), **conv))
    pub = table.set_index("definition")["published model vs experiment (%)"]
    # SCTP only: (.56/14.12 + .18/7.36 + .01/4.39 + .04/1.14 + .18/1.02) / 5 = 27.797 / 5 = 5.559 %
    assert pub["mean |M-E|/E, SCTP only"] == pytest.approx(5.559, abs=0.001)
    # TCP only: (.37/14.71 + .24/7.70 + .10/4.70 + .01/1.49 + .18/1.42) / 5 = 21.107 / 5 = 4.221 %
    assert pub["mean |M-E|/E, TCP only"] == pytest.approx(4.221, abs=0.001)
    # both protocols together: their mean, 4.890 %
    assert pub["mean |M-E|/E"] == pytest.approx((pub["mean |M-E|/E, SCTP only"] + pub["mean |M-E|/E, TCP only"]) / 2)


def test_ledger_rows_cover_every_printed_number_and_claim(paper):
    rows, conv = p004.ledger_rows(paper)
    cells = paper.tables["table2"].cells
    table_rows = [r for r in rows if r.source == "Table II"]
    assert len(table_rows) == cells.shape[0] * 4 == 20
    printed = {(r.row, r.column): r.published for r in table_rows}
    for _, row in cells.iterrows():
        for col in ("Exp(SCTP)", "Model(SCTP)", "Exp(TCP)", "Model(TCP)"):
            assert printed[(row["BANDWIDTH"], col)] == row[col]
    assert {r.status for r in table_rows if r.column.startswith("Exp")} == {"not_regenerable"}
    # besides the table: one row per claim and one per result stated in the text (Fig. 1's alpha)
    assert len(rows) - len(table_rows) == len(paper.claims.cells) + 1
    # Fig. 1: 14 segments, x = 2: windows of 2, 4, 8 carry 2 + 4 + 8 = 14 >= 14 -> alpha = 3
    alpha = next(r for r in rows if r.row == "fig1_alpha")
    assert (alpha.published, float(alpha.regenerated), alpha.status) == ("3", 3.0, "reproduced")


def test_published_and_regenerated_latencies_against_the_loss_free_bound(paper):
    conv = p004.chosen_convention(paper)
    b = p004.latency_bounds(paper, conv).set_index("BANDWIDTH")
    # 28 Kbps, every reading's smallest bound: 2 x 0.1 s + 50 000 B x 8 / 28 000 bit/s = 0.2 + 14.2857 = 14.4857 s
    # (4 segments take 4 x 12 000 / 28 000 = 1.71 s, longer than a round trip: the window never stalls)
    assert b.loc["28 Kbps", "any reading"] == pytest.approx(0.2 + 400_000 / 28_000)
    rows, _ = p004.ledger_rows(paper)  # raises BoundViolation if a regenerated latency is below its bound
    flagged = [r for r in rows if "impossible as printed" in r.reason]
    # the printed Exp(SCTP) 14.12 s at 28 Kbps is below the transmission time of the object alone (14.29 s)
    assert [(r.row, r.column) for r in flagged] == [("28 Kbps", "Exp(SCTP)")]
    assert "0.366 s below the loss-free bound 14.486 s" in flagged[0].reason
    # under the ledger's own reading (T_r = 0.2 s, x = 4) the 10 Mbps model cell 0.84 s is below 2 x 0.2 s
    # + three stalls of about one round trip each (windows 4, 8, 16 of 34 segments) = 1.01 s
    ten = next(r for r in rows if r.row == "10 Mbps" and r.column == "Model(SCTP)")
    assert "below the loss-free bound 1.010 s under the ledger's reading" in ten.reason


def test_a_model_below_the_bound_fails():
    from paperlib.models import lower_bounds as lb

    with pytest.raises(lb.BoundViolation, match="below its loss-free physical bound"):
        lb.check_not_below([1.0, 0.5], [0.9, 0.6], "test")
    lb.check_not_below([1.0, 0.6], [0.9, 0.6], "test")  # equal is allowed


def test_within_4_percent_claim_row(paper):
    rows, _ = p004.ledger_rows(paper)
    claim = next(r for r in rows if r.row.startswith("the model results are within 4%"))
    assert claim.published == "4"
    assert float(claim.regenerated) == pytest.approx(4.89, abs=0.01)
    assert claim.status == "refuted"  # 4.89 % > 4 % under the stated definition
    assert "mean |M-E|/E" in claim.reason


def test_what_if_parameters_are_validated_by_name(paper):
    conv = p004.chosen_convention(paper)
    with pytest.raises(ParameterError, match="rtt_s"):
        p004.what_if(paper, conv, rtt_s=-0.05)
    with pytest.raises(ParameterError, match="initial_windows"):
        p004.what_if(paper, conv, initial_windows=[1, 0])
    with pytest.raises(ParameterError, match="rates_bps"):
        p004.what_if(paper, conv, rates_bps=[1e6, -1])
    with pytest.raises(ParameterError, match="obj_size_bytes"):
        p004.what_if(paper, conv, obj_size_bytes="big")
    w = p004.what_if(paper, conv, rtt_s=0.05, initial_window=3)
    assert (w.rtt_s, w.initial_window) == (0.05, 3)


def test_form_comparison_matches_schedule(paper):
    conv = p004.chosen_convention(paper)
    w = p004.what_if(paper, conv)
    forms = p004.form_comparison(w, p004.operating_point(paper).rates_bps)
    assert np.allclose(forms["LT corrected (s)"], forms["LT schedule (s)"], rtol=1e-12)
