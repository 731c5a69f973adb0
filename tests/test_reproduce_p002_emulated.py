"""Paper 002 on real stacks: sweep points, the per-point summary and the notebook's sentence.

The ledger rows scored against the real stacks are tested in test_reproduce_p002_ledger_rows.py, the claims
judged on them in test_reproduce_p002_claims.py.
"""

import numpy as np
import pandas as pd
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.emulation import experiments
from paperlib.emulation.notebook import Emulated
from paperlib.reproduce.p002 import emulated


def test_points_per_profile(paper):
    assert emulated.points(paper, "off") == []
    pts = emulated.points(paper, "reduced")
    # 7 distinct (rate, RTT, p) points (the shared one once) x protocols x 3 repetitions
    assert len(pts) == 7 * len(experiments.protocols()) * 3
    # 13.5 KB under the chosen convention's KB = 1024: 13 824 B; 536 B segments, 5 objects, pipelined
    assert {(q["object_bytes"], q["mss_bytes"], q["objects"], q["mode"]) for q in pts} == {(13_824, 536, 5,
                                                                                            "pipelined")}
    assert len(emulated.points(paper, "full")) == 7 * len(experiments.protocols()) * 10
    assert emulated.link_rates_bps(paper) == [40_000.0]


def test_per_repetition_response_is_connect_to_last_object():
    runs = pd.DataFrame([{"protocol": "tcp", "rate_bps": 40e3, "rtt_s": 0.256, "loss": 0.01, "rep": 0,
                          "t_start": [1.0, 1.5], "t_done": [9.0, 12.5]}])
    # from the first start (1.0) to the last object's end (12.5): 11.5 s
    assert emulated.per_repetition(runs)["response_s"].tolist() == [11.5]


def test_summary_without_runs_has_no_emulated_means(paper):
    none = pd.DataFrame(columns=["protocol", "rate_bps", "rtt_s", "loss", "rep", "t_start", "t_done"])
    table = emulated.summary(paper, Emulated("reduced", runs=none), conv=CONV)
    # one row per printed column (8), none measured; the model column is the regenerated model under CONV
    assert len(table) == 8 and (table["n TCP"] == 0).all() and np.isnan(table["emulated TCP (s)"]).all()
    assert table["ns-3 TCP (s)"].isna().all()


def test_summary_text_names_the_reason_nothing_ran(paper):
    frame = pd.DataFrame({"reason": ["x"] * 2, "column": ["TCP (Experimental) (Sec)"] * 2,
                          "rel_error": ["", ""], "emulation": ["not run by choice"] * 2})
    text = emulated.summary_text(frame, "emulation = 'off'")
    assert text.startswith("**Real stacks.** 0 of 2 published experimental cells") and "(emulation = 'off')" in text
