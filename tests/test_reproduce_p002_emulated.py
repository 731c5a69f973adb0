"""Paper 002 on real stacks: sweep points, the per-point summary and the notebook's sentence.

The ledger rows scored against the real stacks are tested in test_reproduce_p002_ledger_rows.py, the claims
judged on them in test_reproduce_p002_claims.py.
"""

import numpy as np
import pandas as pd
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib import replications
from paperlib.emulation import experiments
from paperlib.emulation import notebook as emulation_notebook
from paperlib.emulation.notebook import Emulated
from paperlib.reproduce.p002 import emulated


def test_points_per_profile(paper):
    assert emulated.points(paper, "off") == []
    pts = emulated.points(paper, "reduced")
    # 7 distinct (rate, RTT, p) points (the shared one once) x protocols x the pilot's 5 repetitions
    assert len(pts) == 7 * len(experiments.protocols()) * replications.PILOT == 7 * len(experiments.protocols()) * 5
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
                          "rel_error": ["", ""], "emulation": ["not run by choice"] * 2,
                          "status": ["not_regenerable"] * 2})
    text = emulated.summary_text(frame, "emulation = 'off'")
    assert text.startswith("**Real stacks.** 0 of 2 published experimental cells") and "; emulation = 'off')" in text


def _runs(values: dict[tuple[str, float, float], list[float]]) -> pd.DataFrame:
    """Kept runs at 40 kbit/s: (protocol, rtt_s, loss) -> the response time of each repetition (starting at 0)."""
    return pd.DataFrame([{"protocol": proto, "rate_bps": 40e3, "rtt_s": rtt, "loss": loss, "rep": k, "users": 1,
                          "t_start": [0.0], "t_done": [v]}
                         for (proto, rtt, loss), vs in values.items() for k, v in enumerate(vs)])


def test_measured_cells_are_the_printed_experiments_with_their_runs(paper):
    kept = _runs({("tcp", 0.256, 0.02): [15.84, 17.69, 16.54, 15.84, 15.84]})
    cells = emulated.measured_cells(paper, kept)
    # 8 printed columns (Table II: 4 values of p, Table III: 4 RTTs; the shared point twice) x 2 protocols
    assert len(cells) == 16
    (tcp2,) = [c for c in cells if c.label == "Table II, p = 2 %, TCP (Experimental) (Sec)"]
    assert tcp2.printed == 19.00 and tcp2.values == (15.84, 17.69, 16.54, 15.84, 15.84)
    assert tcp2.at == {"protocol": "tcp", "rate_bps": 40e3, "rtt_s": 0.256, "loss": 0.02}
    assert all(c.values == () for c in cells if c is not tcp2 and c.at != tcp2.at)


def test_every_cell_runs_the_fixed_replications_and_its_pilot_says_what_the_power_rule_asks(paper):
    # the pilot of 5: TCP at p = 2 % with one run that drew a retransmission timeout (seconds longer), SCTP at RTT
    # 55 ms without; sd of (15.84, 17.69, 16.54, 15.84, 15.84) = sqrt(2.612 / 4) = 0.808 s against 5% of 19.00 s =
    # 0.95 s: the power rule's smallest n with (t(.975, n-1) + t(.8, n-1)) 0.808 / sqrt(n) <= 0.95 is 8
    # (n = 7: (2.447 + 0.906) 0.808 / 2.646 = 1.02; n = 8: (2.365 + 0.896) 0.808 / 2.828 = 0.93); the steady SCTP
    # cell's need is the pilot's 5. Both run 20: the pilot does not choose how many
    kept = _runs({("tcp", 0.256, 0.02): [15.84, 17.69, 16.54, 15.84, 15.84],
                  ("sctp", 0.055, 0.01): [15.74, 15.74, 15.75, 15.74, 15.74]})
    pts = emulated.points(paper, "reduced")
    every = emulation_notebook.measured_plans(emulated.measured_cells(paper, kept))
    # the cells without two kept runs run the same 20 with no spread to size from: 20 new repetitions (5 to 24)
    unsized = [p for p in every if p.pilot_n < 2]
    assert unsized and all(p.plan.n == 20 and np.isnan(p.plan.spread) for p in unsized)
    extra = emulation_notebook.more_points(pts, unsized[:1], kept)
    assert sorted({p["rep"] for p in extra}) == list(range(5, 25))
    plans = [p for p in every if p.pilot_n >= 2]
    assert len(plans) == 2
    by_label = {p.label: p for p in plans}
    tcp2 = by_label["Table II, p = 2 %, TCP (Experimental) (Sec)"]
    assert (tcp2.pilot_n, tcp2.plan.n, tcp2.plan.n_needed) == (5, 20, 8.0) and np.isclose(tcp2.plan.effect, 0.95)
    sctp = by_label["Table III, RTT (s) = 0.055, SCTP (Experimental) (Sec)"]
    assert (sctp.plan.n, sctp.plan.n_needed) == (replications.MEASURED_REPLICATIONS, replications.PILOT)
    extra = emulation_notebook.more_points(pts, plans, kept)
    # fifteen new repetitions (5 to 19) of each of the two points, nothing else
    assert sorted((p["protocol"], p["loss"], p["rtt_s"], p["rep"]) for p in extra) == sorted(
        [("tcp", 0.02, 0.256, k) for k in range(5, 20)] + [("sctp", 0.01, 0.055, k) for k in range(5, 20)])
    # the new repetitions are the pilot's point but for rep (so the sweep runner gives them their own seeds)
    base = next(p for p in pts if (p["protocol"], p["loss"], p["rtt_s"], p["rep"]) == ("tcp", 0.02, 0.256, 0))
    assert all({**p, "rep": 0} == base for p in extra if p["protocol"] == "tcp")


def test_a_run_lost_in_the_pilot_is_replaced_by_the_extension(paper):
    # 4 of the pilot's 5 runs kept their timing and the cell runs 20 that kept theirs: 16 new repetitions (5 to 20)
    kept = _runs({("sctp", 0.055, 0.01): [15.74, 15.74, 15.75, 15.74]})
    plans = [p for p in emulation_notebook.measured_plans(emulated.measured_cells(paper, kept)) if p.pilot_n]
    assert [p.plan.n for p in plans] == [20]
    extra = emulation_notebook.more_points(emulated.points(paper, "reduced"), plans, kept)
    assert [(p["protocol"], p["rep"]) for p in extra] == [("sctp", k) for k in range(5, 21)]


def _run_faked(paper, monkeypatch, tmp_path, response, calls: list) -> Emulated:
    """Return paper 002's shared run (paperlib.emulation.notebook.run) with its sweeps faked: every run kept, one
    object whose response time is ``response(point)``; each sweep's size and description appended to ``calls``."""

    def fake_run(points, **kw):
        calls.append((len(points), kw.get("desc")))
        return pd.DataFrame([{**p, "seed": 1, "t0": 0.0, "t_start": [0.0], "t_done": [response(p)], "user": [0],
                              "object": [0], "fidelity_kept": True} for p in points])

    monkeypatch.setattr(emulation_notebook.experiments, "run", fake_run)
    monkeypatch.setattr(emulation_notebook, "not_run_reason", lambda profile: None)
    return emulated.run(paper, "reduced", tmp_path)


def test_run_pilots_then_brings_each_cell_to_its_plan(paper, monkeypatch, tmp_path):
    """The shared run (paperlib.emulation.notebook.run) of paper 002, its sweeps faked: a pilot, then the cells
    the rule extends, the pilot's runs read again (the sweep cache) beside the new ones."""
    calls = []

    def response(p) -> float:  # TCP at p = 2 %: the pilot of the test above, then steady; every other cell is steady
        if (p["protocol"], p["loss"], p["rtt_s"]) == ("tcp", 0.02, 0.256) and p["rep"] < 5:
            return (15.84, 17.69, 16.54, 15.84, 15.84)[p["rep"]]
        return 15.84

    em = _run_faked(paper, monkeypatch, tmp_path, response, calls)
    pilot = 7 * len(experiments.protocols()) * replications.PILOT
    # every cell runs 20: 15 more of each of the 7 points per protocol (Table II's p = 1 % and Table III's 0.256 s
    # are one point); the TCP cell at p = 2 % needs 8 by the power rule (the test above), the steady ones the pilot
    more = 7 * len(experiments.protocols()) * (replications.MEASURED_REPLICATIONS - replications.PILOT)
    assert [n for n, _ in calls] == [pilot, pilot + more]
    assert calls[1][1].endswith("to the planned replications")
    plan = em.plan_at(19.00, protocol="tcp", rate_bps=40e3, rtt_s=0.256, loss=0.02)
    assert plan is not None and (plan.plan.n, plan.plan.n_needed, plan.pilot_n) == (20, 8.0, 5)
    assert len(em.runs) == pilot + more and len(em.plans) == 16
    table = emulated.summary(paper, em, conv=CONV)
    assert (table["n TCP"] == 20).all()
    shown = emulation_notebook.plans_table(em)
    assert len(shown) == 16 and (shown["replications"] == 20).all() and shown["needed by the rule"].max() == 8


def test_run_gives_a_cell_near_an_edge_of_its_band_a_second_stage(paper, monkeypatch, tmp_path):
    """As above, with TCP at RTT 0.08 s alternating 15.0 and 16.0 s: after its 20 replications its interval (15.5 +/-
    0.24 s, test_replications) lies 0.14 s from its print 14.63 s's band edge 15.36 s, less than two half-widths, so
    its point runs 20 more; every other cell is steady and clear of its band."""
    calls = []

    def response(p) -> float:
        if (p["protocol"], p["rtt_s"]) == ("tcp", 0.08):
            return (15.0, 16.0)[p["rep"] % 2]
        return 15.84

    em = _run_faked(paper, monkeypatch, tmp_path, response, calls)
    pilot = 7 * len(experiments.protocols()) * replications.PILOT
    more = 7 * len(experiments.protocols()) * (replications.MEASURED_REPLICATIONS - replications.PILOT)
    assert [n for n, _ in calls] == [pilot, pilot + more, pilot + more + 20]
    assert "second stage" in calls[2][1]
    plan = em.plan_at(14.63, protocol="tcp", rate_bps=40e3, rtt_s=0.08, loss=0.01)
    assert (plan.plan.n, plan.plan.first_stage) == (40, 20)
    assert em.plan_at(14.71, protocol="sctp", rate_bps=40e3, rtt_s=0.08, loss=0.01).plan.first_stage is None
    table = emulated.summary(paper, em, conv=CONV)
    assert sorted(table["n TCP"]) == [20] * 7 + [40]
