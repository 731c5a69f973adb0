"""Paper 003's other results: users to fill a link, offered load per N, slopes, efficiency rounding."""

import numpy as np
import pytest
from p003_helpers import CHOSEN

from paperlib.reproduce.p003 import derived, findings


def test_users_to_fill(paper):
    u = findings.users_to_fill(paper, CHOSEN).set_index(["workload", "link (Mbit/s)"])
    # 155 Mbit/s / 60 108.8 bit/s per original user = 2 578.7 users; 45 Mbit/s / 481 280 bit/s = 93.5 modified users
    assert u.loc[("SPECweb96", 155.0), "users to fill"] == pytest.approx(155e6 / 60108.8)
    assert u.loc[("modified SPECweb96", 45.0), "users to fill"] == pytest.approx(45e6 / 481280)


def test_offered_load_is_k_n_users_of_the_modified_workload(paper):
    # 15 clients per server x N x 0.48128 Mbit/s: 7.2192 Mbit/s per server
    assert findings.offered_load_mbps(paper, CHOSEN, np.array([1.0, 10.0])).tolist() == pytest.approx(
        [7.2192, 72.192])


def test_slopes_are_growth_per_unit_of_n():
    # (3 - 1) / (2 - 1) = 2, (4 - 3) / (5 - 2) = 1/3
    assert findings.slopes(np.array([1, 2, 5]), np.array([1.0, 3.0, 4.0])).tolist() == pytest.approx([2, 1 / 3])


def test_efficiency_rounding_note_says_whether_print_and_throughput_agree(paper):
    values = derived.derived_values(paper, CHOSEN)
    cells = {c.key: c for c in derived.printed_cells(paper)}
    # N = 1: 6.1 Mbit/s stands for [6.05, 6.15), i.e. [17.24, 17.52)% of 35.1; the printed 17.4% for [17.35, 17.45)
    note = findings.efficiency_rounding_note(paper, cells["efficiency_1"], values, CHOSEN)
    assert "[17.24, 17.52)%" in note and note.endswith("consistent within the rounding of the printed throughput")
