"""Paper 004's other results (paperlib/reproduce/p004/findings.py): mean differences, the gap, the bounds."""

import numpy as np
import pandas as pd
import pytest

from paperlib.models import lower_bounds
from paperlib.reproduce.p004 import findings, operating_point, tables


def test_mean_difference_definitions_on_the_published_table(paper):
    cells = paper.tables["table2"].cells
    model = np.concatenate([cells["Model(SCTP)"].astype(float), cells["Model(TCP)"].astype(float)])
    exp = np.concatenate([cells["Exp(SCTP)"].astype(float), cells["Exp(TCP)"].astype(float)])
    d = findings.mean_difference(model, exp)
    # |M-E|/E per pair: .56/14.12, .18/7.36, .01/4.39, .04/1.14, .18/1.02,
    #                   .37/14.71, .24/7.70, .10/4.70, .01/1.49, .18/1.42  -> mean 4.89 %
    assert d["mean |M-E|/E"] == pytest.approx(4.890, abs=0.001)
    # worst pair: 10 Mbps SCTP, 0.18 / 1.02 = 17.65 %
    assert d["max |M-E|/E"] == pytest.approx(17.647, abs=0.001)
    # totals: sum M = 59.12, sum E = 58.05 -> 1.07 / 58.05 = 1.84 %
    assert d["|sum M - sum E| / sum E"] == pytest.approx(1.843, abs=0.001)


def test_mean_difference_per_protocol(paper):
    conv = operating_point.chosen_convention(paper)
    regen = tables.regenerate_table2(operating_point.operating_point(paper), conv)
    table = findings.mean_difference_table(paper, regen)
    pub = table.set_index("definition")["published model vs experiment (%)"]
    # SCTP only: (.56/14.12 + .18/7.36 + .01/4.39 + .04/1.14 + .18/1.02) / 5 = 27.797 / 5 = 5.559 %
    assert pub["mean |M-E|/E, SCTP only"] == pytest.approx(5.559, abs=0.001)
    # TCP only: (.37/14.71 + .24/7.70 + .10/4.70 + .01/1.49 + .18/1.42) / 5 = 21.107 / 5 = 4.221 %
    assert pub["mean |M-E|/E, TCP only"] == pytest.approx(4.221, abs=0.001)
    # both protocols together: their mean, 4.890 %
    assert pub["mean |M-E|/E"] == pytest.approx((pub["mean |M-E|/E, SCTP only"] + pub["mean |M-E|/E, TCP only"]) / 2)


def test_two_rtt_gap_of_the_published_experiment(paper):
    # Exp(TCP) - Exp(SCTP): 0.59, 0.34, 0.31, 0.35, 0.40 -> mean 1.99 / 5 = 0.398 s; claimed 2 x 0.2 = 0.4 s
    measured, claimed = findings.two_rtt_gap(paper, 0.2)
    assert measured == pytest.approx(0.398) and claimed == 0.4


def test_loss_free_bounds(paper):
    conv = operating_point.chosen_convention(paper)
    b = findings.latency_bounds(paper, conv).set_index("BANDWIDTH")
    # 28 Kbps, every reading's smallest bound: 2 x 0.1 s + 50 000 B x 8 / 28 000 bit/s = 0.2 + 14.2857 = 14.4857 s
    # (4 segments take 4 x 12 000 / 28 000 = 1.71 s, longer than a round trip: the window never stalls)
    assert b.loc["28 Kbps", "any reading"] == pytest.approx(0.2 + 400_000 / 28_000)
    # the ledger's reading at 100 Kbps: 2 x 0.2 + 4 s, no stall (see the model's reference point) = 4.4 s
    assert b.loc["100 Kbps", "ledger reading"] == pytest.approx(4.4)


def test_bound_notes(paper):
    conv = operating_point.chosen_convention(paper)
    b = findings.latency_bounds(paper, conv).set_index("BANDWIDTH")
    # the printed 14.12 s at 28 Kbps is below the transmission time of the object alone: impossible as printed
    assert "0.366 s below the loss-free bound 14.486 s" in findings.bound_note("14.12", b.loc["28 Kbps"], conv, paper)
    # 1.14 s at 1 Mbps is above both bounds (1.100 s under the ledger's reading, less under any): no note
    assert findings.bound_note("1.14", b.loc["1 Mbps"], conv, paper) == ""
    # under the ledger's reading (T_r = 0.2 s, x = 4) 0.84 s at 10 Mbps is below 2 x 0.2 s + three stalls of
    # about one round trip each (windows 4, 8, 16 of 34 segments) = 1.01 s, possible only if T_r = 0.1 s
    note = findings.bound_note("0.84", b.loc["10 Mbps"], conv, paper)
    assert note.startswith("below the loss-free bound 1.010 s under the ledger's reading")


def test_a_model_below_the_bound_fails():
    with pytest.raises(lower_bounds.BoundViolation, match="below its loss-free physical bound"):
        lower_bounds.check_not_below([1.0, 0.5], [0.9, 0.6], "test")
    lower_bounds.check_not_below([1.0, 0.6], [0.9, 0.6], "test")  # equal is allowed


def test_fig1_alpha(paper):
    # Fig. 1: 14 segments, x = 2: windows of 2, 4, 8 carry 2 + 4 + 8 = 14 >= 14 -> alpha = 3
    assert findings.fig1_alpha(paper) == 3.0


def test_summary_text_reads_the_ledger(paper):
    conv = operating_point.chosen_convention(paper)
    regen = tables.regenerate_table2(operating_point.operating_point(paper), conv)
    frame = pd.DataFrame({"status": ["reproduced", "differs", "refuted"],
                          "column": ["Model(SCTP)", "Model(TCP)", "mean difference (%)"],
                          "row": ["28 Kbps", "10 Mbps", "the model results are within 4% of ..."],
                          "regenerated": ["14.6857", "1.4100", "4.89"]})
    text = findings.summary_text(paper, frame, regen)
    assert text.startswith("**Summary.** Under one convention for the whole table, 1 of the 2 printed model cells")
    assert "claim is **refuted** on the paper's own table (mean |M-E|/E = 4.89%)" in text
