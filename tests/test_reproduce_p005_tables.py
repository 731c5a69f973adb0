"""Paper 005's anchor tables: the page beside the printed weight, the handshakes, the initial windows."""

from __future__ import annotations

import pytest

from paperlib.data import load_paper
from paperlib.reproduce.p005 import tables
from paperlib.reproduce.p005.operating_point import Convention

CONV = Convention(kilo=1000, rounding="half_up", loss_cost="recovery", order="round_robin", a_mode="mean")


def test_the_model_page_beside_the_printed_median():
    t = tables.page_table(load_paper("005"), CONV).set_index("device")
    # docs/reconstruction-005.md Sec. 3: desktop 3 HTML x 18/2 + 5 fonts x 131/4 + 10 CSS x 78/8 + 23 images
    # x 1054/18 + 30 JS x 613/24 = 2401.28 KB; mobile 3 x 18/2 + 4 x 111/3 + 10 x 73/8 + 21 x 900/16 +
    # 28 x 558/22 = 2157.68 KB; printed medians 2,652 and 2,311 KB
    desktop = 3 * 18 / 2 + 5 * 131 / 4 + 10 * 78 / 8 + 23 * 1054 / 18 + 30 * 613 / 24
    assert t.loc["desktop", "model page (KB)"] == pytest.approx(desktop, rel=1e-12)
    assert t.loc["mobile", "model page (KB)"] == pytest.approx(3 * 18 / 2 + 4 * 111 / 3 + 10 * 73 / 8 + 21 * 900 / 16
                                                               + 28 * 558 / 22, rel=1e-12)
    assert t.loc["desktop", "model / printed"] == pytest.approx(desktop / 2652)
    assert list(t["model objects"]) == [71, 66] and list(t["printed median requests"]) == [71, 66]
    # in KB of 1024 bytes the weight in KB is the same: the reading cancels
    t1024 = tables.page_table(load_paper("005"), CONV.replace(kilo=1024)).set_index("device")
    assert t1024.loc["desktop", "model page (KB)"] == pytest.approx(desktop, rel=1e-12)


def test_the_handshakes_and_the_family_of_each():
    t = tables.handshake_table().set_index("stack")
    # data/005/handshake_rtts.csv: TLS 1.2 3, TLS 1.3 2, QUIC 1, QUIC 0-RTT 0, SCTP 1; set-up = h + 1
    assert t["handshake round trips"].to_dict() == {"tcp_tls12": 3, "tcp_tls13": 2, "quic": 1, "quic_0rtt": 0,
                                                    "sctp": 1}
    assert (t["set-up round trips"] == t["handshake round trips"] + 1).all()
    assert t["family"].to_dict() == {"tcp_tls12": "", "tcp_tls13": "h2", "quic": "h3", "quic_0rtt": "",
                                     "sctp": "sctp"}


def test_the_initial_windows_at_the_worked_sizes():
    t = tables.initial_window_table().set_index("segment (B)")
    # RFC 6928: min(10 MSS, max(2 MSS, 14600)): 1460 -> 14600 B = 10; 536 -> 5360 B = 10; 9000 -> 18000 B = 2
    assert t.loc[1460.0, ["TCP IW (B)", "TCP IW (segments)"]].tolist() == [14600, 10]
    assert t.loc[536.0, ["TCP IW (B)", "TCP IW (segments)"]].tolist() == [5360, 10]
    assert t.loc[9000.0, ["TCP IW (B)", "TCP IW (segments)"]].tolist() == [18000, 2]
    # RFC 9002: min(10 D, max(14720, 2 D)): 1200 -> 12000 B = 10; 1500 -> 14720 B = 9 whole datagrams
    assert t.loc[1200.0, ["QUIC IW (B)", "QUIC IW (datagrams)"]].tolist() == [12000, 10]
    assert t.loc[1500.0, ["QUIC IW (B)", "QUIC IW (datagrams)"]].tolist() == [14720, 9]
