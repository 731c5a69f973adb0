"""Paper 003's claims: one function per claim id of data/003/claims.csv, each judged on hand-made evidence."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from p003_helpers import CHOSEN

from paperlib.data import load_paper
from paperlib.reproduce.p003 import claims
from paperlib.reproduce.p003.claims import CLAIMS, Evidence


def evidence(**changes) -> Evidence:
    """Return hand-made evidence: the published table's numbers rounded, changed by ``changes``."""
    base = Evidence(
        values={"bw_per_user_mod": 0.5, "avg_load_per_user": 50.0, "max_payload_t3": 35.0},
        users=pd.DataFrame([{"workload": "SPECweb96", "link (Mbit/s)": 155.0, "users to fill": 2000.0},
                            {"workload": "SPECweb96", "link (Mbit/s)": 45.0, "users to fill": 600.0}]),
        users_simulated=150.0,
        n=np.array([1.0, 2.0, 5.0, 10.0]),
        queue_f=np.array([1.0, 1.7, 3.8, 4.7]),
        efficiency=np.array([17.0, 40.0, 97.0, 93.0]),
        offered_mbps=np.array([7.0, 14.0, 36.0, 72.0]),
    )
    return replace(base, **changes)


def users(fill_155: float) -> pd.DataFrame:
    """Return a users-to-fill table with only the original workload at 155 Mbit/s."""
    return pd.DataFrame([{"workload": "SPECweb96", "link (Mbit/s)": 155.0, "users to fill": fill_155}])


def test_every_claim_of_the_data_has_one_function_and_no_more():
    CLAIMS.check_against(load_paper("003"))


def test_need_many_users():
    # 2000 users >= 10 x 150 = 1500: supported; 1400 < 1500: refuted
    v = claims.need_many_users(evidence())
    assert (v.status, v.regenerated) == ("supported", 2000.0) and "2,000 users" in v.reason
    assert claims.need_many_users(evidence(users=users(1400.0))).status == "refuted"


def test_ten_times_demand():
    # 0.5 Mbit/s = 500 kbit/s against 50 kbit/s: 10x, supported; 460 / 50 = 9.2 is within 10%; 8.9 is not
    v = claims.ten_times_demand(evidence())
    assert v.status == "supported" and v.regenerated == pytest.approx(10.0)
    assert claims.ten_times_demand(evidence(values={"bw_per_user_mod": 0.46, "avg_load_per_user": 50.0})
                                   ).status == "supported"
    v = claims.ten_times_demand(evidence(values={"bw_per_user_mod": 0.445, "avg_load_per_user": 50.0}))
    assert v.status == "refuted" and v.regenerated == pytest.approx(8.9)


def test_queues_linear_then_stable():
    # slopes (1.7 - 1) / 1 = 0.7, (3.8 - 1.7) / 3 = 0.7, (4.7 - 3.8) / 5 = 0.18 < 0.35: supported
    v = claims.queues_linear_then_stable(evidence())
    assert v.status == "supported" and "[0.7, 0.7, 0.18]" in v.reason and v.regenerated is None
    # still growing at the end: (8.8 - 3.8) / 5 = 1.0 >= 0.35: refuted
    assert claims.queues_linear_then_stable(evidence(queue_f=np.array([1.0, 1.7, 3.8, 8.8]))).status == "refuted"


def test_queues_small_multiple_f():
    # the largest queue 4.7 F <= 5 F: supported, regenerated 4.7; 5.1 F: refuted
    v = claims.queues_small_multiple_f(evidence())
    assert (v.status, v.regenerated) == ("supported", 4.7)
    assert claims.queues_small_multiple_f(evidence(queue_f=np.array([1.0, 5.1]), n=np.array([1.0, 2.0]))
                                          ).status == "refuted"


def test_efficiency_linear_then_stable():
    # slopes 23, 19, -0.8; -0.8 < 11.5: supported; a last slope of (97 + 5 x 20 - 97) / 5 = 20 >= 11.5: refuted
    assert claims.efficiency_linear_then_stable(evidence()).status == "supported"
    assert claims.efficiency_linear_then_stable(evidence(efficiency=np.array([17.0, 40.0, 97.0, 197.0]))
                                                ).status == "refuted"


def test_efficiency_high():
    # offered 36 and 72 Mbit/s reach the 35 Mbit/s payload: efficiencies 97 and 93 >= 90: supported, min 93
    v = claims.efficiency_high(evidence())
    assert (v.status, v.regenerated) == ("supported", 93.0)
    # 89% at N = 10: refuted
    assert claims.efficiency_high(evidence(efficiency=np.array([17.0, 40.0, 97.0, 89.0]))).status == "refuted"
    # no N offers enough load to fill the link: nothing shows efficiency high, refuted with no number
    v = claims.efficiency_high(evidence(offered_mbps=np.array([1.0, 2.0, 5.0, 10.0])))
    assert (v.status, v.regenerated) == ("refuted", None)


def test_abr_stable_is_untestable():
    assert claims.abr_stable(evidence()).status == "untestable"


def test_evidence_from_the_published_table():
    ev = claims.evidence(load_paper("003"), CHOSEN)
    # queue / F: 3677 / 3667.92 = 1.0025 ... 17 269 / 3667.92 = 4.708; offered 15 x N x 0.48128 Mbit/s
    assert ev.queue_f.tolist() == pytest.approx([3677 / 3667.92, 6154 / 3667.92, 14057 / 3667.92, 17269 / 3667.92],
                                                abs=1e-5)
    assert ev.offered_mbps.tolist() == pytest.approx([7.2192, 14.4384, 36.096, 72.192])
    assert ev.users_simulated == 150
    # on the published table: 17 269 cells = 4.71 F <= 5 F, and 32.7 / 35.1 = 93.16% at N = 10 >= 90%
    assert claims.queues_small_multiple_f(ev).status == "supported"
    assert claims.efficiency_high(ev).regenerated == pytest.approx(100 * 32.7 / 35.1)
