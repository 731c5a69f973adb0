"""The one registry of colours, markers and labels, and figures saved with their provenance (paperlib.figures)."""

import io

import matplotlib.pyplot as plt
import pytest
from PIL import Image

from paperlib import ledger
from paperlib.figures import PROTOCOLS, SERIES, SOURCES, STATUS_COLORS, color, save_figure, style
from paperlib.provenance import Stamp


def test_style_combines_the_protocols_colour_and_the_sources_marker():
    kw = style("sctp", "experiment")
    assert kw == {"color": "#1b9e77", "label": "SCTP, published experiment", "marker": "o", "linestyle": "none"}
    # the source's own label never reaches matplotlib as a second keyword
    assert style("tcp", "published_model")["fillstyle"] == "none" and style("tcp", "model")["linestyle"] == "-"
    with pytest.raises(KeyError):
        style("quic", "model")


def test_every_combination_is_distinct():
    seen = {(kw["color"], kw.get("marker"), kw.get("linestyle")) for kw in
            (style(p, s) for p in PROTOCOLS for s in SOURCES)}
    assert len(seen) == len(PROTOCOLS) * len(SOURCES)


def test_status_colours_are_ledger_statuses_with_distinct_colours():
    # statuses without a colour of their own (typo, lone_hit) are drawn grey by plots and the report
    assert set(STATUS_COLORS) <= set(ledger.STATUSES)
    assert len(set(STATUS_COLORS.values())) == len(STATUS_COLORS)
    assert all(len(c) == 7 and c[0] == "#" and int(c[1:], 16) >= 0 for c in STATUS_COLORS.values())


def _figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [1, 0], **style("sctp", "model"))
    return fig


def test_save_figure_writes_the_stamp_byte_identically(tmp_path):
    stamp = Stamp("004_slow_start_latency.ipynb", {"rtt_s": 0.2}, seed=3)
    fig = _figure()
    first = save_figure(fig, tmp_path / "a.png", stamp, dpi=50)
    second = save_figure(_figure(), tmp_path / "b.png", stamp, dpi=50)
    assert first.read_bytes() == second.read_bytes()  # no timestamp in the file
    text = Image.open(io.BytesIO(first.read_bytes())).text
    assert text["Source"].startswith("004_slow_start_latency.ipynb @ ")
    assert '"parameters":{"rtt_s":0.2}' in text["Comment"] and '"seed":3' in text["Comment"]
    assert not plt.fignum_exists(fig.number)  # closed after saving
    assert not list(tmp_path.glob(".*"))  # no temporary file left



def test_style_joins_a_kind_and_a_source():
    assert style("tcp", "model") == {"color": PROTOCOLS["tcp"]["color"], "label": "TCP, model (regenerated)",
                                     "marker": "", "linestyle": "-"}
    # a series kind that is no protocol (paper 003's workloads) takes its colour from SERIES
    kw = style("specweb96_modified", "samples")
    assert kw["color"] == SERIES["specweb96_modified"]["color"] and kw["label"] == "modified SPECweb96, seeded samples"
    assert kw["linestyle"] == SOURCES["samples"]["linestyle"]


def test_color_and_an_unknown_kind():
    assert color("abr") == PROTOCOLS["abr"]["color"] and color("reference") == SERIES["reference"]["color"]
    with pytest.raises(KeyError, match="'sctcp' is neither a protocol"):
        color("sctcp")


def test_no_two_protocols_and_no_two_series_share_a_colour():
    for registry in (PROTOCOLS, SERIES):
        colours = [entry["color"] for entry in registry.values()]
        assert len(set(colours)) == len(colours)
    assert not set(PROTOCOLS) & set(SERIES)
