"""The report's page of paper 005, a paper without a seed whose anchors are mostly ``input`` rows.

Built from a figures/ tree with 005's model ledger rows (no real stacks) and one figure; about 15 s.
"""

from __future__ import annotations

import re

import pytest

from paperlib import ledger
from paperlib.data import load_paper
from paperlib.figures import STATUS_COLORS
from paperlib.provenance import Stamp
from paperlib.report import build as report_build
from paperlib.reproduce.p005 import ledger_rows


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("report005")
    figures = root / "figures"
    rows = ledger_rows.ledger_rows(load_paper("005"))
    stamp = Stamp(notebook="notebooks/005_today_transports.ipynb", parameters={"emulation": "off"})
    ledger.write_partial(rows, stamp, figures / "005" / "ledger.csv")
    stamp.write(figures / "005")
    # a tiny valid PNG stands for the notebook's figures: the page must show whatever figures/005 holds
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")
    (figures / "005" / "iw_gain_heatmap.png").write_bytes(png)
    (root / "docs").mkdir()
    return rows, report_build.build(figures, docs=root / "docs")


def test_the_page_says_the_paper_has_no_seed_and_cites_its_sources(site):
    _, out = site
    html = (out / "paper-005.html").read_text(encoding="utf-8")
    assert "<h1>Paper 005: Today&#39;s anchors: page weight" in html
    # the datapackage's seed_note stands in for a seed
    assert re.search(r'<p class="seed-note">005 has no seed text: its published numbers are today&#39;s anchors',
                     html)
    assert "from the Web Almanac 2024, RFCs 4960" in html and "Langley et al. (2017)" in html
    assert '<img src="fig/005/iw_gain_heatmap.png"' in html and (out / "fig" / "005" / "iw_gain_heatmap.png").exists()
    # a seeded paper has no note
    assert report_build.paper_seed_note("004") == ""


def test_input_rows_are_listed_apart_after_the_results(site):
    rows, out = site
    html = (out / "paper-005.html").read_text(encoding="utf-8")
    inputs = sum(r.status == "input" for r in rows)
    assert 0 < inputs < len(rows)
    results, rest = html.split('<details id="input-rows">')
    # every row but the inputs in the first table, the inputs (and only they) in the folded one
    assert results.count("<tr class=") == len(rows) - inputs and 'data-status="input"' not in results
    folded = rest.split("</details>")[0]
    assert folded.count('<tr class="status-input"') == inputs == folded.count("<tr class=")
    assert f"{inputs} <span class=\"badge badge-input\">input</span> rows" in folded
    assert html.count('id="ledger"') == 1 and 'id="ledger-inputs"' in folded


def test_input_has_its_colour_and_meaning(site):
    _, out = site
    css = (out / "assets" / "status.css").read_text()
    assert f".badge-input {{ background: {STATUS_COLORS['input']}; }}" in css
    # #bababa: luminance 0.4910, white on it 1.05 / 0.5410 = 1.94 < 3, so its badge text is dark
    assert ".badge-input { color: #222222; }" in css
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<span class="badge badge-input">input</span></dt><dd>a number this paper takes as given' in index
    assert 'paper 005</a> has no seed' in index


def test_white_contrast_follows_wcag():
    # white on white 1.05 / 1.05 = 1; on black 1.05 / 0.05 = 21; on #777777 (luminance 0.1845) 1.05 / 0.2345 = 4.48
    assert report_build.white_contrast("#ffffff") == pytest.approx(1.0)
    assert report_build.white_contrast("#000000") == pytest.approx(21.0)
    assert report_build.white_contrast("#777777") == pytest.approx(4.48, abs=0.01)
