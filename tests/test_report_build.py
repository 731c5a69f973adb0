"""make report: the site builds from whatever figures/ holds, offline, with provenance on every page.

Built from a small tree (tests/report_helpers.py); about 25 s. The browser checks are in
tests/test_report_browser.py.
"""

import re
from pathlib import Path

import pandas as pd
import pytest

import paperlib.report.build as report_build
from paperlib import explore, ledger
from paperlib.report.build import build
from report_helpers import small_figures


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    figures = small_figures(tmp_path_factory.mktemp("report"))
    return figures, build(figures)


def test_every_page_is_written(site):
    _, out = site
    names = sorted(p.name for p in out.glob("*.html"))
    assert names == ["explorers.html", "index.html", "ledger.html", "paper-000.html", "paper-001.html",
                     "paper-002.html", "paper-003.html", "paper-004.html"]
    assert (out / "ledger_overview.png").exists()
    # every explorer along every axis
    assert len(list((out / "explorers").glob("*.png"))) == sum(len(e.axes) for e in _with_data(explore))


def test_nothing_comes_from_the_network(site):
    _, out = site
    for path in [*out.glob("*.html"), *out.glob("assets/*")]:
        text = path.read_text(encoding="utf-8")
        # no script, stylesheet, image or font is fetched from anywhere but the site itself
        # (links a reader may follow, <a href="https://...">, are not fetched)
        assert not re.search(r"""\bsrc\s*=\s*["'](https?:)?//""", text), path.name
        assert not re.search(r"""<link[^>]+href\s*=\s*["'](https?:)?//""", text), path.name
        assert "@import" not in text and "@font-face" not in text and "cdn" not in text.lower(), path.name


def test_provenance_on_every_page(site):
    figures, out = site
    frame = ledger.read(figures / "ledger.csv")
    commit = frame["commit"].iloc[0]
    for page in out.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert 'id="provenance"' in html and commit in html and "numpy" in html, page.name
    assert '{&#34;report_test&#34;: true}' in (out / "paper-004.html").read_text()  # the run's parameters


def test_ledger_page_has_every_row_coloured_by_status(site):
    figures, out = site
    frame = ledger.read(figures / "ledger.csv")
    html = (out / "ledger.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="status-(\w+)" data-paper="(\d+)" data-status="(\w+)">', html)
    assert len(rows) == len(frame)
    assert [r[2] for r in rows] == frame["status"].tolist() and all(r[0] == r[2] for r in rows)
    paper = (out / "paper-004.html").read_text(encoding="utf-8")
    assert paper.count('data-paper="004"') == (frame["paper"] == "004").sum()


def test_index_counts_and_status_meanings(site, monkeypatch):
    figures, out = site
    frame = ledger.read(figures / "ledger.csv")
    html = (out / "index.html").read_text(encoding="utf-8")
    n_refuted = int((frame["status"] == "refuted").sum())
    assert f'href="ledger.html?status=refuted">{n_refuted}</a>' in html
    for status in ledger.STATUSES:
        assert f'<span class="badge badge-{status}">{status}</span>' in html
    # a STATUS_MEANINGS dict in paperlib.ledger, where present, is what the index shows
    monkeypatch.setattr(ledger, "STATUS_MEANINGS", {"reproduced": "MEANING-R", "refuted": "MEANING-F"}, raising=False)
    meanings = report_build.status_meanings()
    assert meanings == {"reproduced": "MEANING-R", "refuted": "MEANING-F"}
    monkeypatch.delattr(ledger, "STATUS_MEANINGS")
    assert set(report_build.status_meanings()) == set(ledger.STATUSES)


def test_same_inputs_same_bytes_and_partial_ledgers(site, tmp_path):
    figures, out = site
    again = build(figures, tmp_path / "again")
    for page in out.rglob("*"):
        if page.is_file():
            assert (again / page.relative_to(out)).read_bytes() == page.read_bytes(), page.name
    # without figures/ledger.csv the partial ledgers are read
    (figures / "ledger.csv").rename(figures / "ledger.csv.bak")
    try:
        partial = build(figures, tmp_path / "partial")
    finally:
        (figures / "ledger.csv.bak").rename(figures / "ledger.csv")
    n = len(pd.read_csv(figures / "ledger.csv", dtype=str))
    assert (partial / "ledger.html").read_text().count("<tr class=") == n


def _with_data(explore):
    """Return the explorers that have data (001's reads the sweep cache, which a fresh checkout lacks)."""
    out = []
    for name in explore.EXPLORERS:
        try:
            out.append(explore.explorer(name))
        except explore.NoData:
            pass
    return out
