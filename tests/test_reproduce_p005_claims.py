"""Paper 005's claims: claims.csv's four and the package's questions, on the model and a hand-made real-stack table."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from paperlib.claims import ClaimError, Verdict
from paperlib.data import load_paper
from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.reproduce.p005 import claims, operating_point
from tests.p005_helpers import with_pairs


@pytest.fixture(scope="module")
def ev():
    paper = load_paper("005")
    return claims.Evidence(paper, operating_point.chosen_convention(paper), operating_point.operating_point(paper))


def test_the_registry_matches_claims_csv_and_keeps_questions_apart(ev):
    claims.CLAIMS.check_against(ev.paper)
    assert set(claims.CLAIMS.questions) == {"iw10_gain", "quic_handshake_saving", "h3_beats_h2_loss",
                                            "sctp_streams_same", "h3_less_than_h2_000", "h3_less_20pct_002",
                                            "loss_model_holds"}
    # the re-asked claims quote papers 000 and 002 from their own data
    assert load_paper("002").claim("sctp_less_20pct")["claim"] in claims.CLAIMS.questions["h3_less_20pct_002"]
    reg = claims.TransportClaims("005")
    reg.question("dukkipati_iw_at_least_ten", "a question that is a claim")(lambda e: Verdict("untestable", "x"))
    with pytest.raises(ClaimError, match="also claims"):
        reg.check_against(ev.paper)


def test_model_verdicts(ev):
    rows = {r.row: r for r in claims.CLAIMS.rows(ev.paper, ev)}
    q = claims.CLAIMS.questions
    # RFC counts: TCP + TLS 1.3 2 round trips, QUIC 1: a saving of 1, inside [0.5, 1.5)
    assert rows[q["quic_handshake_saving"]].status == "supported"
    assert rows[q["quic_handshake_saving"]].regenerated == "1.0000"
    # independent streams never slower than one byte stream at the same handshake (docs Sec. 4)
    assert rows[q["h3_beats_h2_loss"]].status == "supported"
    assert rows[ev.paper.claim("langley_deployed_at_scale")["claim"]].status == "untestable"
    assert len(rows) == 4 + len(q)


def _table(plt3, plt10, half=0.05, n=5, clock=(2.0, 1.0), wire=(2.0, 1.0)):
    """A hand-made real-stack summary: h2 and h3 on the claims' link, losses 0 and 3%, IW 3 and 10; ``clock``:
    h2's and h3's handshake on the client's clock, ``wire``: counted on the wire (protocol round trips)."""
    rows = []
    link = {"rate_bps": claims.LINK["rate_bps"], "rtt_s": claims.LINK["rtt_s"]}
    for proto, extra in (("h2", 0.0), ("h3", -0.1)):
        for loss in (0.0, 0.03):
            for iw, plt in ((3, plt3), (10, plt10)):
                hold = 0.5 if (proto == "h2" and loss) else 0.0
                rows.append({"protocol": proto, **link, "loss": loss, "iw_segments": iw,
                             "n": n, "plt_mean_s": plt + extra + hold, "plt_half_s": half, "ttfb_mean_s": 0.3,
                             "ttfb_half_s": 0.01, "handshake_rtts_mean": clock[proto == "h3"],
                             "handshake_rtts_half": 0.02, "first_flight_packets": iw, "iw_checked": True,
                             "stack": proto, "object_mean_s": (plt + extra + hold) / 2, "object_half_s": half,
                             "protocol_rtts_mean": wire[proto == "h3"], "protocol_rtts_half": 0.02,
                             "wire_rtts_mean": clock[proto == "h3"] - 0.2, "wire_rtts_half": 0.05,
                             "processing_rtts_mean": clock[proto == "h3"] - 0.2 - wire[proto == "h3"],
                             "processing_rtts_half": 0.05, "wire_n": n})
    return with_pairs(pd.DataFrame(rows))


def test_real_stack_verdicts_follow_the_interval(ev):
    real = claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=_table(3.0, 2.7))
    v = claims.CLAIMS.judge("iw10_gain", real)[0]
    # h2 without loss only (claims.LOSS_FREE; the 3% cells do not count): (3.0 - 2.7)/3.0 = 10%, half-width
    # sqrt(0.05^2 + 0.05^2)/3.0 = 2.36%: above 0
    assert (v.status, v.column) == ("supported", emulated_rows.REAL_STACKS)
    assert v.regenerated == pytest.approx(10.0)
    # an interval that straddles 0 decides nothing: gain 0.01 / 3 = 0.003333 +/- sqrt(0.5^2 + 0.5^2) / 3 = 0.2357
    # over 5 repetitions, s = 0.2357 sqrt(5) / t(0.975, 4) = 0.52705 / 2.7764 = 0.18983; with t near 1.960 at
    # large n, n = (1.960 x 0.18983 / 0.003333)^2 = 111.6^2 = 12460: the exact search gives 12461 (t(0.975, 12460)
    # = 1.96015, half-width 0.0033333 at 12460, just not below 0.0033333)
    wide = claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=_table(3.0, 2.99, half=0.5))
    straddle = claims.CLAIMS.judge("iw10_gain", wide)[0]
    assert straddle.status == "inconclusive" and straddle.replications_to_decide == 12461
    assert "about 12461 replications would decide it at the measured spread (5 now)" in straddle.reason
    # the measured handshake saving 2.0 - 1.0 = 1 with half sqrt(2) 0.02 / 1 ... inside [0.5, 1.5]
    assert claims.CLAIMS.judge("quic_handshake_saving", real)[0].status == "supported"
    # the saving is decided on the wire count, not on the client's clock: clocks 3.3 and 1.3 (a saving of 2,
    # outside [0.5, 1.5)) with wire counts 2.0 and 1.0 -> 1.0, supported; clocks 2.0 and 1.0 with wire counts
    # 3.0 and 1.0 (an extra exchange on the wire) -> 2.0 +/- 0.028 (0.02 x sqrt 2), refuted
    slow_clock = claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=_table(3.0, 2.7, clock=(3.3, 1.3)))
    v = claims.CLAIMS.judge("quic_handshake_saving", slow_clock)[0]
    assert v.status == "supported" and v.regenerated == pytest.approx(1.0)
    assert "h2 - h3 = 2.00" in v.reason  # the clock's figure beside it, as what it is
    extra = claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=_table(3.0, 2.7, wire=(3.0, 1.0)))
    v = claims.CLAIMS.judge("quic_handshake_saving", extra)[0]
    assert v.status == "refuted" and v.regenerated == pytest.approx(2.0)
    # cells whose captures were not read at least twice give no interval
    unread = _table(3.0, 2.7).assign(wire_n=1)
    v = claims.CLAIMS.judge("quic_handshake_saving", claims.Evidence(ev.paper, ev.conv, ev.point,
                                                                     real_stacks=unread))[0]
    assert v.status == "untestable" and v.regenerated is None
    # blocking: (h2 - h3) at 3% = 0.6 s, at 0 = 0.1 s: excess 0.5 s, half 0.1 s (four 0.05 s in quadrature)
    b = claims.CLAIMS.judge("h3_beats_h2_loss", real)[0]
    assert b.status == "supported" and b.regenerated == pytest.approx(0.5)
    assert "3%: 0.500 +/- 0.100 s" in b.reason and "the smallest loss where it is above 0 beyond the interval: 3%" \
        in b.reason
    # SCTP did not run in this table: no interval
    assert claims.CLAIMS.judge("sctp_streams_same", real)[0].status == "untestable"


def test_the_loss_model_is_judged_against_the_measured_interval(ev):
    # on the model alone the question has nothing to judge
    assert claims.CLAIMS.judge("loss_model_holds", ev)[0].status == "untestable"
    t = claims.link_times(ev)
    model = claims._model(t, "h2", claims.IW_REAL[1])[0.03]
    table = _table(3.0, 2.7)
    lossy = (table.protocol == "h2") & (table.iw_segments == claims.IW_REAL[1]) & (table.loss > 0)
    # the measured mean twice the model's, +/- 10%: the model lies outside the interval -> refuted
    table.loc[lossy, "plt_mean_s"], table.loc[lossy, "plt_half_s"] = 2 * model, 0.2 * model
    v = claims.CLAIMS.judge("loss_model_holds", claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=table))[0]
    assert v.status == "refuted" and v.regenerated == pytest.approx(0.5)
    assert "loss-limited Reno" in v.reason
    # the measured mean within its half-width of the model's -> supported
    table.loc[lossy, "plt_mean_s"] = 1.1 * model
    v = claims.CLAIMS.judge("loss_model_holds", claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=table))[0]
    assert v.status == "supported"


def test_the_loss_limited_time_is_mathis_law():
    # 1 MB page, MSS 1000 B = 8000 bits, RTT 0.1 s, p = 3/8: sqrt(3 / (2 p)) = 2, rate 8000 / 0.1 x 2 =
    # 160 kbit/s; 8e6 bits / 160e3 = 50 s, plus (h + 1) RTT = 0.3 s with h = 2
    assert claims.loss_limited_time_s(8e6, 8000.0, 0.1, 3 / 8, 2) == pytest.approx(50.3)


def test_the_re_asked_questions_average_over_every_loss_or_stay_unjudged(ev):
    table = _table(3.0, 2.7)
    middle = table[table.loss == 0.03].assign(loss=0.01)
    every = pd.concat([table, middle], ignore_index=True)
    assert sorted(every.loss.unique()) == sorted(claims.LOSSES)
    judged = claims.CLAIMS.judge("h3_less_than_h2_000", claims.Evidence(ev.paper, ev.conv, ev.point,
                                                                         real_stacks=every))[0]
    # h3's mean object time at IW10 is 0.05 s shorter at loss 0 (2.6 vs 2.7, halved: 1.30 vs 1.35) and 0.30 s
    # at 1% and 3% (h2 holds 0.5 s more: 1.60 vs 1.30): (0.05/1.35 + 0.30/1.60 + 0.30/1.60) / 3 = 13.7%
    assert judged.status == "supported" and "averaged over 3 losses" in judged.reason
    assert judged.regenerated == pytest.approx(100 * (0.05 / 1.35 + 2 * 0.30 / 1.60) / 3)
    # without h3's loss-free cell (its runs lost their timing) the question is not judged on the other two losses
    missing = every[~((every.protocol == "h3") & (every.loss == 0))]
    got = claims.CLAIMS.judge("h3_less_20pct_002", claims.Evidence(ev.paper, ev.conv, ev.point,
                                                                   real_stacks=missing))[0]
    assert got.status == "untestable" and "at a loss of [0.0, 0.01, 0.03]" in got.reason


def test_the_questions_against_h2_read_the_paired_differences(ev):
    # the same cells, paired runs: the gaps' own half-widths (0.02 s) in place of two cells' spreads in quadrature
    table = with_pairs(_table(3.0, 2.7, half=0.5).drop(columns=[c for c in _table(3.0, 2.7).columns
                                                                 if c.startswith("h2_")]), gap_half=0.02)
    real = claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=table)
    b = claims.CLAIMS.judge("h3_beats_h2_loss", real)[0]
    # excess (0.6 - 0.1) = 0.5 s, half sqrt(0.02^2 + 0.02^2) = 0.028284, over 5 pairs
    assert b.status == "supported" and b.interval95 == pytest.approx((0.5 - 0.028284, 0.5 + 0.028284), abs=1e-6)
    assert b.n == 5 and "paired on the link seed" in b.reason and "5 pairs" in b.reason
    # unpaired the same cells would straddle: sqrt(4 x 0.5^2) = 1.0 > 0.5
    unpaired = claims.CLAIMS.judge("h3_beats_h2_loss", claims.Evidence(ev.paper, ev.conv, ev.point,
                                                                       real_stacks=with_pairs(table)))[0]
    assert unpaired.status == "inconclusive" and unpaired.replications_to_decide > 5
    # fewer than two pairs at a loss: no interval there, so no verdict
    lone = table.assign(h2_pairs=table.h2_pairs.where(table.protocol == "h2", 1))
    v = claims.CLAIMS.judge("h3_beats_h2_loss", claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=lone))[0]
    assert v.status == "untestable"


def test_an_undecided_re_asked_question_gives_the_replications_that_would_decide(ev):
    table = _table(3.0, 2.7)
    every = pd.concat([table, table[table.loss == 0.03].assign(loss=0.01)], ignore_index=True)
    # object gaps' half-widths 0.5 s: per loss 0.5 / h2's object time (1.35, 1.60, 1.60), over 3 losses
    # sqrt(0.3704^2 + 0.3125^2 + 0.3125^2) / 3 = 0.1958 > the mean 13.7%: inconclusive
    wide = every.assign(h2_gap_object_half_s=every.h2_gap_object_half_s.where(every.protocol == "h2", 0.5))
    v = claims.CLAIMS.judge("h3_less_than_h2_000", claims.Evidence(ev.paper, ev.conv, ev.point, real_stacks=wide))[0]
    half = math.sqrt((0.5 / 1.35) ** 2 + 2 * (0.5 / 1.60) ** 2) / 3
    assert v.status == "inconclusive" and v.n == 5
    assert v.interval95 == pytest.approx((v.regenerated - 100 * half, v.regenerated + 100 * half))
    assert v.replications_to_decide > 5 and "replications would decide it" in v.reason
