"""Seed 000's m users in ns-3 and their summary: bounds derived by hand, spurious timeouts shown, CIs.

About 25 s (most of it the ns-3 import); the summary tests need no ns-3.
"""

import numpy as np
import pandas as pd
import pytest

from paperlib.reproduce import p000_ns3
from paperlib.validate import ParameterError

POINT = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256, "p": 0.0}
# One pure ACK or SYN on the wire: PPP 2 + IPv4 20 + TCP 20 + options <= 22 bytes, so at most 64 bytes.
CONTROL_BITS = 64 * 8


@pytest.mark.ns3
def test_one_user_loss_free_matches_seed_004_slow_start_and_the_bound():
    from paperlib.models import slow_start_latency as ssl
    from paperlib.sim import multiuser_narrowband as mu

    # An object of exactly 26 segments of 536 B; on the wire a segment is 536 + 20 (IP) + 32 (TCP with
    # timestamps) + 2 (PPP) = 590 B. Seed 004's Eq. (5) with x = 1 (TCP's initial window here), L_mtu = 590 B,
    # 40 kbit/s, rtt 0.256 s: 2 rtt + 26 x 0.118 s + gamma = 2 stalls = 3.974 s. Eq. (5) neglects the
    # control packets' transmission times: two SYNs, the handshake's ACK and one ACK per stall (at most
    # 5 x 64 B, 64 ms at 40 kbit/s); a spurious timeout is ruled out with a 60 s minimum RTO.
    r = mu.simulate({**POINT, "obj_bytes": 26 * 536, "users": 1, "min_rto_s": 60.0}, 1)
    model = float(ssl.transfer_latency_s(26 * 590 * 8, 590 * 8, 40_000, 0.256, 1, setup_rtts=2))
    assert model == pytest.approx(3.974)
    t = r["mean_turnaround_s"]
    assert model <= t <= model + 5 * CONTROL_BITS / 40_000
    # and above the hand-derived bound for one user: 2 rtt + theta / mu = 0.512 + 2.7872 s
    assert t >= float(p000_ns3.mean_turnaround_lower_bound_s(1, 26 * 536, 40_000, 0.256))
    assert r["wire_packets"] == 26 + 2  # 26 data segments, the SYN and the handshake's ACK: no retransmission


@pytest.mark.ns3
def test_users_share_the_link_and_spurious_timeouts_waste_it():
    from paperlib.sim import multiuser_narrowband as mu

    clean = mu.simulate({**POINT, "users": 3, "min_rto_s": 60.0}, 1)
    # Three 13.5 KB objects through 40 kbit/s: the k-th finisher needs k x 2.7 s of payload after 1.5 rtt,
    # plus rtt/2: mean >= 2 x 0.256 + 2 x 2.7 = 5.912 s; the last >= 0.512 + 3 x 2.7 = 8.612 s.
    assert clean["mean_turnaround_s"] >= 5.912
    assert clean["max_turnaround_s"] >= 8.612
    assert clean["queue_drops"] == 0 and clean["data_drops"] == 0
    # Each user's ceil(13500/536) = 26 segments, plus a SYN, the handshake's ACK and a FIN (those who finish
    # before the last): at most 3 x 29 = 87 packets when nothing is resent.
    assert clean["wire_packets"] <= 3 * (26 + 3)
    # With the model's minimum RTO (1 rtt) ten users' queueing delay (10 x 0.118 s per round) exceeds
    # the RTO learnt from the handshake: the server resends segments that were only queued.
    spurious = mu.simulate({**POINT, "users": 10, "min_rto_s": 0.256}, 1)
    assert spurious["data_drops"] == 0 and spurious["queue_drops"] == 0
    assert spurious["wire_packets"] > 1.5 * 10 * 26
    assert mu.simulate({**POINT, "users": 2, "p": 0.05}, 4) == mu.simulate({**POINT, "users": 2, "p": 0.05}, 4)


@pytest.mark.ns3
@pytest.mark.parametrize("name, value", [("users", 0), ("p", 1.0), ("queue", "red"), ("min_loss_bytes", 600)])
def test_bad_parameters_are_named(name, value):
    from paperlib.sim import multiuser_narrowband as mu

    with pytest.raises(ParameterError, match=name):
        mu.simulate({**POINT, "users": 2, name: value}, 1)


# --- the summary, on hand-made runs -------------------------------------------------------------


def _runs(values_by_m):
    rows = []
    for m, values in values_by_m.items():
        for r, v in enumerate(values):
            rows.append({**POINT, "users": m, "min_rto_s": 0.256, "rep": r, "seed": r + 1, "mean_turnaround_s": v,
                         "data_drops": 0, "queue_drops": 0, "wire_packets": 0})
    return pd.DataFrame(rows)


def test_summary_waiting_is_turnaround_minus_single_user_time_with_ci():
    s = p000_ns3.ns3_summary(_runs({1: [4.0, 6.0], 5: [20.0, 24.0]})).set_index("users")
    # T(5) = 22, T(1) = 5: W = 17 s. CI of T(5): t(0.975, 1) x sd / sqrt(2) = 12.706 x 2.828 / 1.414 = 25.41 s.
    assert s.loc[5, "waiting_s"] == pytest.approx(17.0)
    assert s.loc[5, "turnaround_ci95_s"] == pytest.approx(12.7062 * 2.0, rel=1e-4)
    # Welch: variances 8 (20, 24) and 2 (4, 6), se^2 = 8/2 + 2/2 = 5, df = 5^2 / (4^2/1 + 1^2/1) = 25/17.
    from scipy import stats

    assert s.loc[5, "waiting_ci95_s"] == pytest.approx(stats.t.ppf(0.975, 25 / 17) * np.sqrt(5))
    assert s.loc[1, "waiting_s"] == pytest.approx(0.0)


def test_unfinished_runs_are_counted_but_not_averaged():
    s = p000_ns3.ns3_summary(_runs({1: [4.0, 4.0], 5: [20.0, None]})).set_index("users")
    assert (s.loc[5, "runs"], s.loc[5, "finished"]) == (2, 1)
    assert s.loc[5, "turnaround_s"] == 20.0 and np.isnan(s.loc[5, "turnaround_ci95_s"])


def test_lower_bound_by_hand():
    # m = 30, 13.5 KB, 40 kbit/s, 256 ms: 2 x 0.256 + 31/2 x 2.7 = 42.362 s.
    assert float(p000_ns3.mean_turnaround_lower_bound_s(30, 13_500, 40_000, 0.256)) == pytest.approx(42.362)
    with pytest.raises(ParameterError, match="m"):
        p000_ns3.mean_turnaround_lower_bound_s(0, 13_500, 40_000, 0.256)


def _table_with(ns3_w_of_model, ci):
    from paperlib.data import load_paper
    from paperlib.reproduce import p000

    paper = load_paper("000")
    conv = p000.chosen_convention(paper)
    empty = pd.DataFrame(columns=[*p000_ns3.POINT_KEYS, "users", "waiting_s", "waiting_ci95_s", "turnaround_s",
                                  "turnaround_ci95_s", "finished"])
    table = p000_ns3.ns3_tables(paper, conv, empty)
    assert len(table) == 36 and table["ns3 W"].isna().all()  # one row per printed row; nothing simulated yet
    table["ns3 W"] = ns3_w_of_model(table["model W (tables' law)"])
    table["ns3 W ci95"] = ci
    table["ns3 T"], table["ns3 T ci95"], table["runs"] = table["ns3 W"] + 4.0, ci, 3
    return paper, conv, table


def test_ledger_rows_keep_t_tcp_not_regenerable_and_judge_the_claim_only_where_cis_decide():
    # ns-3 ten times the model with a tight CI: the model is below in every row, also in Tables 1-2 where the
    # claim says above -> refuted.
    paper, conv, table = _table_with(lambda w: 10 * w, 0.1)
    rows = p000_ns3.ns3_ledger_rows(paper, conv, table)
    assert len(rows) == 36 + 1
    assert {r.status for r in rows[:36]} == {"not_regenerable"} and all(r.column == "T_{tcp}" for r in rows[:36])
    assert "95% CI +/- 0.10 s over 3 seeded runs" in rows[0].reason
    assert rows[-1].status == "refuted"
    # ns-3 equal to the model with a CI of +/- 1 s: no row decided -> untestable.
    paper, conv, table = _table_with(lambda w: w, 1.0)
    assert p000_ns3.ns3_ledger_rows(paper, conv, table)[-1].status == "untestable"
