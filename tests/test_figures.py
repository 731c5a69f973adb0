"""The style registry (paperlib.figures): every kind's colour and every source's marker from one place."""

import pytest

from paperlib.figures import PROTOCOLS, SERIES, SOURCES, color, style


def test_style_joins_a_kind_and_a_source():
    assert style("tcp", "model") == {"color": PROTOCOLS["tcp"]["color"], "label": "TCP, model (regenerated)",
                                     "marker": "", "linestyle": "-"}
    # a series kind that is no protocol (seed 003's workloads) takes its colour from SERIES
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
