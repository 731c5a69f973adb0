"""Paper 002's ns-3 TCP check: sweep points, the summary per point and its lookup (no simulation runs here)."""

import numpy as np
import pandas as pd
import pytest
from p002_helpers import CHOSEN as CONV  # the chosen convention (test_reproduce_p002_operating_point checks it)

from paperlib.reproduce.p002 import ns3
from paperlib.reproduce.p002.operating_point import operating_points


@pytest.mark.parametrize("kilo", [1000, 1024])
def test_simulation_points_cover_each_distinct_point(paper, kilo):
    pts = ns3.simulation_points(paper, CONV.replace(kilo=kilo), 3)
    # 8 printed columns, the p = 1 % / RTT 0.256 s point twice: 7 distinct points x 3 runs
    assert len(pts) == 7 * 3
    assert len({(q["p"], q["rtt_s"]) for q in pts}) == 7
    # 13.5 KB under the convention's KB: 13 500 B (KB = 1000) or 13 824 B (KB = 1024)
    assert all(q["obj_bytes"] == pytest.approx(13.5 * kilo) for q in pts)
    assert np.isclose(sorted({q["rtt_s"] for q in pts}), [0.055, 0.08, 0.256, 1.0]).all()
    assert {(q["mss_bytes"], q["objects"]) for q in pts} == {(536, 5)}


def test_repetitions_must_be_a_whole_number(paper):
    from paperlib.validate import ParameterError

    with pytest.raises(ParameterError, match="replications"):
        ns3.simulation_points(paper, CONV, 0)


def _sims(values):
    """Runs at Table II's 1 % point (13 824 B) with the given response times."""
    return pd.DataFrame({"obj_bytes": 13_824.0, "rate_bps": 40e3, "rtt_s": 0.256, "p": 0.01,
                         "response_time_s": values})


def test_summary_mean_and_t_interval_by_hand():
    s = ns3.simulation_summary(_sims([10.0, 12.0])).iloc[0]
    # mean 11; sample std sqrt(2); half-width t(0.975, 1) x sqrt(2)/sqrt(2) = 12.706
    assert (s["runs"], s["finished"], s["mean_s"]) == (2, 2, 11.0)
    assert s["ci95_s"] == pytest.approx(12.7062, abs=1e-4)
    # an unfinished run (NaN) counts as a run, not in the mean; one finished run has no interval
    one = ns3.simulation_summary(_sims([10.0, float("nan")])).iloc[0]
    assert (one["runs"], one["finished"], one["mean_s"]) == (2, 1, 10.0) and np.isnan(one["ci95_s"])


def test_summary_at_finds_the_point_of_a_printed_column(paper):
    summary = ns3.Simulations(replications=2, summary=ns3.simulation_summary(_sims([10.0, 12.0])))
    pts = operating_points(paper)
    assert ns3.summary_at(summary, pts[1], 1024)["mean_s"] == 11.0  # Table II, p = 1 %
    assert ns3.summary_at(summary, pts[6], 1024)["mean_s"] == 11.0  # Table III, RTT 0.256 s: the same point
    assert ns3.summary_at(summary, pts[0], 1024) is None  # p = 0.4 % was not simulated
    assert ns3.summary_at(summary, pts[1], 1000) is None  # 13 500 B is another object
    assert ns3.summary_at(None, pts[1], 1024) is None


def test_written_writes_the_summary_or_says_the_simulation_was_skipped(tmp_path, capsys):
    assert ns3.written(None, tmp_path) is None
    assert "simulation skipped" in capsys.readouterr().out and not any(tmp_path.iterdir())
    sims = ns3.Simulations(replications=2, summary=ns3.simulation_summary(_sims([10.0, 12.0])))
    assert ns3.written(sims, tmp_path) is ns3.summary(sims)
    assert pd.read_csv(tmp_path / "ns3_summary.csv")["mean_s"].tolist() == [11.0]
