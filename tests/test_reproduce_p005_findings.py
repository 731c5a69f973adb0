"""Paper 005's questions in the page model (paperlib/reproduce/p005/findings.py): hand-derived points, invariants."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib import validate
from paperlib.data import load_paper
from paperlib.models import slow_start_latency, web_page
from paperlib.reproduce.p005 import findings, transports

S = 1500 * 8  # 1500-byte segments: s = MSS/R = 0.012 s at 1 Mbit/s
FIG1 = web_page.WebPage([14 * S], ("html",))  # paper 004's Fig. 1 example: one object of 14 segments


def page_of(*segments):
    return web_page.WebPage([n * S for n in segments], ("object",) * len(segments))


def test_one_object_without_loss_is_paper_004_eq5_with_the_handshake():
    t = findings.transport_times(FIG1, transports.PROTOCOLS, 1e6, 0.1, 0.0, 2, mss_bits=S).set_index("protocol")
    # Eq. (5) after the set-up, x = 2, 1 Mbit/s, T_r = 0.1 s: L/mu = 14 x 0.012 = 0.168; alpha = ceil(log2(8)) = 3,
    # beta = floor(log2((1 + 1e5/12000)/2)) + 1 = floor(log2 4.67) + 1 = 3, gamma = 2: 0.168 + 2 x 0.112 - 2 x 3
    # x 0.012 = 0.32 s. Plus (h + 1) T_r: h2 (TCP + TLS 1.3, h = 2) 0.62 s, h3 and sctp (h = 1) 0.52 s.
    assert t.loc["h2", "plt_s"] == pytest.approx(0.62, abs=1e-12)
    assert t.loc["h3", "plt_s"] == pytest.approx(0.52, abs=1e-12)
    assert t.loc["sctp", "plt_s"] == pytest.approx(0.52, abs=1e-12)
    assert t.loc["h2", "plt_s"] == pytest.approx(slow_start_latency.transfer_latency_s(14 * S, S, 1e6, 0.1, 2,
                                                                                        setup_rtts=3))
    # one object: its mean is itself; TTFB = (h + 1) T_r + MSS/R = 0.3 + 0.012 (h2), 0.2 + 0.012 (h3)
    assert t.loc["h2", "mean_object_s"] == t.loc["h2", "plt_s"]
    assert t.loc["h2", "ttfb_s"] == pytest.approx(0.312, abs=1e-12)
    assert t.loc["h3", "ttfb_s"] == pytest.approx(0.212, abs=1e-12)
    assert list(t.handshake_rtts) == [2.0, 1.0, 1.0]


def test_ttfb_adds_the_first_packets_expected_loss_delay():
    # recovery reading: D = MSS/R = 0.012 s, H = 1.5 T_r = 0.15 s. h3 (h = 1), 1 Mbit/s, T_r = 0.1 s, p = 0.1:
    # "mean": (a/N)(D + H) = 0.1 x 0.162 = 0.0162 -> TTFB = 0.212 + 0.0162 = 0.2282 s.
    page = page_of(3, 3)
    kw = {"mss_bits": S, "loss_cost": "recovery"}
    mean = findings.transport_times(page, ["h3"], 1e6, 0.1, 0.1, 10, **kw)
    assert mean.ttfb_s.iloc[0] == pytest.approx(0.2282, abs=1e-12)
    # "ceil": a = ceil(6 x 0.1) = 1 of N = 6 packets, a/N = 1/6 -> 0.212 + 0.162/6 = 0.239 s
    ceil = findings.transport_times(page, ["h3"], 1e6, 0.1, 0.1, 10, a_mode="ceil", **kw)
    assert ceil.ttfb_s.iloc[0] == pytest.approx(0.239, abs=1e-12)


def test_transport_times_is_one_row_per_protocol_and_grid_point():
    t = findings.transport_times(page_of(3, 2), ["h2", "sctp"], [1e6, 2e6, 4e6], [0.05, 0.1], [0, 0.01], [2, 10],
                                 mss_bits=S)
    assert len(t) == 2 * 3 * 2 * 2 * 2
    assert list(t.columns) == ["protocol", "rate_bps", "rtt_s", "loss", "iw_segments", "handshake_rtts", "plt_s",
                               "mean_object_s", "ttfb_s"]
    assert not t.duplicated(["protocol", "rate_bps", "rtt_s", "loss", "iw_segments"]).any()


def test_the_worked_page_of_the_docs():
    # docs/reconstruction-005.md Sec. 4: two objects of 3 segments, s = 0.01 s (1.2 Mbit/s), T_r = 0.1 s,
    # x = 10, TCP + TLS 1.3 (h2), p = 1/6, printed shared: objects 0.4917 and 0.53 s -> PLT 0.53, mean 0.51083
    t = findings.transport_times(page_of(3, 3), ["h2"], 1.2e6, 0.1, 1 / 6, 10, mss_bits=S)
    assert t.plt_s.iloc[0] == pytest.approx(0.53, abs=1e-12)
    assert t.mean_object_s.iloc[0] == pytest.approx((0.35 + 5 / 6 * 0.17 + 0.53) / 2, abs=1e-12)


def test_iw_gain_of_paper_004s_example():
    g = findings.iw_gain(FIG1, 1e6, 0.1, iw_old=(2,), mss_bits=S).iloc[0]
    # x = 2: 0.62 s (above). x = 10: alpha = ceil(log2(14/10 + 1)) = 2, beta = floor(log2(9.33/10)) + 1 = 0,
    # gamma = 0: 0.168 s after the set-up, 0.468 s. Gain 1 - 0.468/0.62 = 0.24516, saved 0.152 s; BDP 1e5 bits.
    assert g.plt_old_s == pytest.approx(0.62) and g.plt_new_s == pytest.approx(0.468)
    assert g.gain == pytest.approx(1 - 0.468 / 0.62, abs=1e-12)
    assert g.saved_s == pytest.approx(0.152, abs=1e-12)
    assert g.bdp_bits == pytest.approx(1e5)


def test_iw_gain_is_zero_when_the_page_fits_or_the_path_is_filled():
    # the whole page (2 packets) fits the old window of 2: both windows send it in the first flight
    fits = findings.iw_gain(page_of(1, 1), 1e6, 0.1, iw_old=(2,), mss_bits=S)
    assert fits.gain.iloc[0] == 0.0 and fits.saved_s.iloc[0] == 0.0
    # 1 Mbit/s, T_r = 0.01 s: 1 + R T_r/MSS = 1.83 < 2, beta = floor(log2 0.92) + 1 = 0 for x = 2 and 10: no stall
    filled = findings.iw_gain(FIG1, 1e6, 0.01, iw_old=(2,), mss_bits=S)
    assert filled.gain.iloc[0] == pytest.approx(0.0, abs=1e-15)


def test_iw_gain_rows_follow_the_grid_and_the_old_windows():
    g = findings.iw_gain(page_of(20, 5), [1e6, 10e6], [0.02, 0.1, 0.3], mss_bits=S)
    assert len(g) == 3 * 2 * 3
    assert list(g.iw_old.unique()) == list(findings.IW_OLD)
    assert list(g.columns) == ["rate_bps", "rtt_s", "bdp_bits", "iw_old", "plt_old_s", "plt_new_s", "gain", "saved_s"]
    # a larger old window is closer to 10: gain non-increasing in iw_old at every point
    wide = g.pivot_table(index=["rate_bps", "rtt_s"], columns="iw_old", values="gain")
    assert (np.diff(wide.to_numpy(), axis=1) <= 1e-12).all()


def test_crossover_on_the_grid_and_by_root_finding():
    page = page_of(3, 3)
    kw = {"mss_bits": S, "loss_cost": "recovery"}
    # h2 with a 0-RTT handshake (h = 0) against h3 (h = 1), last object c = N = 6, n = 3, H = 1.5 T_r:
    # PLT_h2 - PLT_h3 = -T_r + p (N - n) H = T_r (-1 + 4.5 p): zero at p* = 2/9 = 0.2222
    zero = {"h2": "quic_0rtt"}
    losses = [0.0, 0.1, 0.2, 0.3]
    assert findings.crossover_loss(page, 1e6, 0.1, losses, handshake_stacks=zero, **kw) == 0.3
    root = findings.crossover_loss(page, 1e6, 0.1, losses, handshake_stacks=zero, method="root", **kw)
    assert root == pytest.approx(2 / 9, abs=1e-9)
    # the default families: h3 has one round trip fewer, faster at every loss; no sign change, no root
    assert findings.crossover_loss(page, 1e6, 0.1, losses, **kw) == 0.0
    assert np.isnan(findings.crossover_loss(page, 1e6, 0.1, losses, method="root", **kw))
    # the same handshake: equal at p = 0, h3 faster at every p > 0
    same = {"h3": "tcp_tls13"}
    assert findings.crossover_loss(page, 1e6, 0.1, losses, handshake_stacks=same, **kw) == 0.1
    # reversed: shared blocking is never faster than independent at the same handshake
    assert np.isnan(findings.crossover_loss(page, 1e6, 0.1, losses, a="h3", b="h2", handshake_stacks=same, **kw))


def test_narrowband_setting_is_papers_000_and_002s():
    s = findings.narrowband_setting()
    p002 = load_paper("002")
    # 40 Kbps, 256 ms, p = 1 %, 5 objects of 13.5 KB, MSS 536 B, in both papers
    assert s["rate_bps"] == 40e3 == p002.text_value("t2_rate").value * 1e3
    assert s["rtt_s"] == pytest.approx(0.256) and p002.text_value("t2_rtt").value == 256
    assert s["loss"] == 0.01 == p002.text_value("t3_p").value / 100
    assert s["objects"] == 5 == p002.text_value("t2_m").value
    assert s["object_kb"] == 13.5 == p002.text_value("t2_obj_size").value
    assert s["mss_bits"] == 536 * 8 == p002.text_value("t2_mss").value * 8
    assert s["iw_segments"] == 2
    # the function's defaults are this setting
    import inspect
    defaults = {k: v.default for k, v in inspect.signature(findings.narrowband_what_if).parameters.items()}
    assert (defaults["rate_bps"], defaults["rtt_s"], defaults["loss"], defaults["iw_paper"]) == (
        s["rate_bps"], pytest.approx(s["rtt_s"]), s["loss"], s["iw_segments"])


def test_narrowband_what_if_rows_and_the_papers_page():
    today = transports.real_stack_page()
    table = findings.narrowband_what_if(today, mss_bits=1460 * 8)
    assert len(table) == 2 * len(transports.PROTOCOLS) * 2
    paper = table[table.page == "paper"]
    # 5 x 13.5 KB x 1000 B x 8 = 540,000 bits
    assert (paper.page_bits == 540_000).all() and (paper.objects == 5).all()
    assert (table[table.page == "today"].objects == 71).all()
    # today's page is 35.6 times the papers' (19.2 Mbit against 0.54): it takes longer with every transport
    by = table.set_index(["page", "protocol", "iw_segments"]).plt_s
    for proto in transports.PROTOCOLS:
        assert by["today", proto, 10] > by["paper", proto, 10]


def test_heatmap_grid():
    rates, rtts = findings.heatmap_grid()
    assert rates[0] == pytest.approx(0.5e6) and rates[-1] == pytest.approx(100e6)
    assert rtts[0] == pytest.approx(0.01) and rtts[-1] == pytest.approx(0.4)
    assert np.allclose(np.diff(np.log(rates)), np.log(200) / (len(rates) - 1))


@pytest.mark.parametrize("call, name", [
    (lambda: findings.transport_times(FIG1, ["h4"], 1e6, 0.1, 0, 2, mss_bits=S), "protocol"),
    (lambda: findings.transport_times(FIG1, ["h2"], 1e6, 0.1, 1.0, 2, mss_bits=S), "loss"),
    (lambda: findings.transport_times(FIG1, ["h2"], -1, 0.1, 0, 2, mss_bits=S), "rate_bps"),
    (lambda: findings.transport_times(FIG1, ["h2"], 1e6, 0.1, 0, 2.5, mss_bits=S), "iw_segments"),
    (lambda: findings.transport_times([1, 2], ["h2"], 1e6, 0.1, 0, 2, mss_bits=S), "page"),
    (lambda: findings.iw_gain(FIG1, 1e6, 0.1, iw_old=(0,), mss_bits=S), "iw_old"),
    (lambda: findings.crossover_loss(FIG1, 1e6, 0.1, [0], method="bisect", mss_bits=S), "method"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(validate.ParameterError, match=name):
        call()


pages = st.lists(st.integers(1, 12), min_size=1, max_size=6).map(lambda n: page_of(*n))
rates = st.floats(1e5, 1e8)
rtts = st.floats(0.001, 0.5)
losses = st.floats(0.0, 0.2)
readings = st.fixed_dictionaries({"loss_cost": st.sampled_from(["printed", "recovery"]),
                                  "order": st.sampled_from(["round_robin", "sequential"]),
                                  "a_mode": st.sampled_from(["mean", "ceil"])})


@settings(max_examples=60, deadline=None)
@given(pages, rates, rtts, losses, readings)
def test_gain_lies_in_0_1(page, rate, rtt, p, reading):
    g = findings.iw_gain(page, rate, rtt, loss=p, mss_bits=S, **reading)
    assert (g.gain >= -1e-12).all() and (g.gain < 1).all()


@settings(max_examples=60, deadline=None)
@given(pages, rates, rtts, losses, st.integers(1, 12), readings)
def test_h2_is_never_faster_than_h3_at_the_same_handshake(page, rate, rtt, p, iw, reading):
    t = findings.transport_times(page, ["h2", "h3"], rate, rtt, p, iw, mss_bits=S,
                                 handshake_stacks={"h3": "tcp_tls13"}, **reading).set_index("protocol")
    for column in ("plt_s", "mean_object_s", "ttfb_s"):
        assert t.loc["h2", column] >= t.loc["h3", column] - 1e-12


@settings(max_examples=60, deadline=None)
@given(pages, rates, st.lists(rtts, min_size=2, max_size=4), st.lists(losses, min_size=2, max_size=4),
       st.sampled_from(transports.PROTOCOLS), readings)
def test_plt_is_non_decreasing_in_loss_and_rtt(page, rate, rtt_list, loss_list, protocol, reading):
    t = findings.transport_times(page, [protocol], rate, sorted(rtt_list), sorted(loss_list), 4, mss_bits=S,
                                 **reading)
    for column in ("plt_s", "mean_object_s", "ttfb_s"):
        grid = t.pivot_table(index="rtt_s", columns="loss", values=column).to_numpy()
        assert (np.diff(grid, axis=0) >= -1e-12).all() and (np.diff(grid, axis=1) >= -1e-12).all()
