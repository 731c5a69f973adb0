"""make report: the site builds from whatever figures/ holds, offline, with provenance on every page,
each paper's verdict, the results table and the docs/ pages.

Built from a small tree (tests/report_helpers.py); about a minute. The browser checks are in
tests/test_report_browser.py.
"""

import re
import shutil

import pandas as pd
import pytest
from report_helpers import verdicts_module

import paperlib.report.build as report_build
from paperlib import explore, ledger
from paperlib.data import PAPERS
from paperlib.report import markdown, mathjax
from paperlib.report.build import build, doc_page_name


@pytest.fixture(scope="module")
def site(small_site):
    """The small figures/ tree and its report, shared with test_report_browser.py (tests/conftest.py): read only."""
    return small_site


def test_every_page_is_written(site):
    _, out = site
    names = sorted(p.name for p in out.glob("*.html"))
    assert names == ["doc-guide.html", "doc-notes-deep.html", "explorers.html", "index.html", "ledger.html",
                     *(f"paper-{paper}.html" for paper in PAPERS)]
    assert {"paper-000.html", "paper-004.html", "paper-005.html"} <= set(names)
    assert (out / "ledger_overview.png").exists()
    # every explorer along every axis
    assert len(list((out / "explorers").glob("*.png"))) == sum(len(e.axes) for e in _with_data(explore))


def test_nothing_comes_from_the_network(site):
    _, out = site
    for path in [*out.glob("*.html"), *(p for p in out.glob("assets/*") if p.is_file())]:
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
    again = build(figures, tmp_path / "again", docs=figures.parent / "docs")
    for page in out.rglob("*"):
        if page.is_file():
            assert (again / page.relative_to(out)).read_bytes() == page.read_bytes(), page.name
    # without figures/ledger.csv the partial ledgers are read (in a copy: the shared tree is read only)
    copy = shutil.copytree(figures, tmp_path / "figures", ignore=shutil.ignore_patterns("report"))
    (copy / "ledger.csv").unlink()
    partial = build(copy, tmp_path / "partial", docs=figures.parent / "docs")
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


def test_every_page_loads_the_local_mathjax(site):
    _, out = site
    assert (out / mathjax.SITE_FOLDER / "MathJax.js").is_file()
    assert (out / mathjax.SITE_FOLDER / "config" / f"{mathjax.CONFIG}.js").is_file()
    for page in out.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert f'<script src="assets/mathjax/MathJax.js?config={mathjax.CONFIG}"></script>' in html, page.name


def test_paper_pages_open_with_their_verdict(site):
    figures, out = site
    frame = ledger.read(figures / "ledger.csv")
    verdicts = verdicts_module().paper_verdicts(frame)
    assert [v.paper for v in verdicts] == sorted(set(frame["paper"]))  # 000 and 004 in the small tree
    for v in verdicts:
        html = (out / f"paper-{v.paper}.html").read_text(encoding="utf-8")
        # the verdict section follows the page's title directly: the short verdict, then its details folded
        after_title = html.split("</h1>", 1)[1].lstrip()
        assert after_title.startswith('<section id="verdict" class="verdict">'), v.paper
        section = after_title.split("</section>", 1)[0]
        opening, details = markdown.to_html(v.opening()), markdown.to_html(v.details())
        assert opening in section and details in section.split("<details", 1)[1], v.paper
        assert section.index(opening) < section.index("<details"), v.paper
    # a paper without ledger rows says why it has no verdict
    assert "No ledger rows for this paper, so no verdict" in (out / "paper-001.html").read_text(encoding="utf-8")


def test_index_has_the_results_table_of_the_ledger(site):
    figures, out = site
    v = verdicts_module()
    frame = ledger.read(figures / "ledger.csv")
    # each paper's link (docs/papers/<id>.md in the README) goes to the report's page of that paper
    link = report_build.paper_link(report_build.collect(figures, frame))
    table = markdown.to_html(v.results_table(v.paper_verdicts(frame)), link)
    html = (out / "index.html").read_text(encoding="utf-8")
    section = html.split('<section id="results">', 1)[1].split("</section>", 1)[0]
    assert table in section and "<table>" in table
    assert '<a href="paper-004.html">' in table and "docs/papers" not in section
    # before the ledger summary: the index opens with what was found
    assert html.index('<section id="results">') < html.index("<h2>Ledger summary</h2>")


def test_docs_become_pages_with_their_links_resolved(site):
    _, out = site
    guide = (out / "doc-guide.html").read_text(encoding="utf-8")
    assert '<a href="doc-notes-deep.html#a-long-heading">the note</a>' in guide
    assert '<a href="index.html">the front page</a>' in guide
    assert '<a href="https://example.org/">a site</a>' in guide
    # a repository file has no copy in the site: its link is shown as text, not left broken
    assert 'href="../paperlib/ledger.py"' not in guide and ">a source file</span>" in guide
    # math is left for MathJax, untouched by emphasis; a dollar in code stays code
    assert r"\(W_{tcp}=(m-1)(2n-1)\tau/2\)" in guide and "<em>" not in guide
    assert "$$\nT = \\sum_{k=1}^{\\alpha} E(T^k)\n$$" in guide
    assert "make report  # costs $5" in guide
    deep = (out / "doc-notes-deep.html").read_text(encoding="utf-8")
    assert '<h2 id="a-long-heading">A long heading</h2>' in deep and '<a href="doc-guide.html#a-guide">' in deep
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="doc-guide.html">A guide</a>' in index and '<a href="doc-notes-deep.html">The note</a>' in index


def test_doc_page_names_and_heading_slugs():
    assert doc_page_name("docs/a/b c.md") == "doc-a-b-c.html"
    assert doc_page_name("docs/001-workload.md") == "doc-001-workload.html"


def test_two_documents_with_one_page_name_fail_naming_them(tmp_path):
    from paperlib.report.build import collect_docs

    (tmp_path / "a").mkdir()
    (tmp_path / "a-b.md").write_text("# one\n")
    (tmp_path / "a" / "b.md").write_text("# two\n")
    # docs/a-b.md and docs/a/b.md would both be doc-a-b.html
    with pytest.raises(ValueError, match=r"docs/a-b\.md.*docs/a/b\.md"):
        collect_docs(tmp_path)


def test_measured_statuses_have_their_column_colour_and_link():
    from paperlib.figures import STATUS_COLORS

    frame = pd.DataFrame({"paper": ["004", "004", "004", "000"],
                          "status": ["measured_inconclusive", "measured_differs", "not_regenerable", "measured_close"]})
    statuses = list(ledger.STATUSES)
    table = report_build.summary_table(frame, statuses)
    shown = ["measured_inconclusive", "measured_close", "measured_differs", "not_regenerable"]
    assert table.loc["004", shown].tolist() == [1, 0, 1, 1]
    assert table.loc["all", "total"] == 4
    css = report_build._status_css(statuses)
    for status in ledger.MEASURED_STATUSES:  # each its own colour, not the fallback grey
        assert f".badge-{status} {{ background: {STATUS_COLORS[status]}; }}" in css


def test_inconclusive_and_fidelity_lost_have_their_colours_and_readable_badges():
    from paperlib.figures import STATUS_COLORS

    css = report_build._status_css(list(ledger.STATUSES))
    for status in ("inconclusive", "fidelity_lost", "untestable"):  # each its own colour, not the fallback grey
        assert f".badge-{status} {{ background: {STATUS_COLORS[status]}; }}" in css
    # the light yellow of inconclusive (#fee090) is below 3:1 against white text, so its badge text is dark;
    # the dark purple of fidelity_lost (#762a83) keeps white text
    assert report_build.white_contrast(STATUS_COLORS["inconclusive"]) < 3
    assert f".badge-inconclusive {{ color: {report_build.DARK_TEXT}; }}" in css
    assert report_build.white_contrast(STATUS_COLORS["fidelity_lost"]) >= 3
    assert ".badge-fidelity_lost { color:" not in css


def test_docs_show_the_key_figures_of_the_reference_run_from_the_site_s_copy(tmp_path):
    from paperlib.report.build import collect_docs, reference_assets

    reference = tmp_path / "reference"
    (reference / "figures" / "004").mkdir(parents=True)
    (reference / "figures" / "004" / "a.png").write_bytes(b"a png")
    (reference / "RUN.json").write_text("{}")
    docs = tmp_path / "docs"
    (docs / "papers").mkdir(parents=True)
    (docs / "papers" / "004.md").write_text("# Paper 004\n\n![the figure](../../reference/figures/004/a.png)\n\n"
                                            "![not in the reference](../../reference/figures/004/b.png)\n")
    assets = reference_assets(reference)
    assert assets == {"reference/figures/004/a.png": reference / "figures" / "004" / "a.png"}  # its PNGs only
    html = collect_docs(docs, {src: src for src in assets})[0].html
    # the page sits at the site's root, the copy at reference/figures/004/a.png beside it
    assert '<img src="reference/figures/004/a.png" alt="the figure"' in html
    assert ">not in the reference</span>" in html and '<img src="reference/figures/004/b.png"' not in html
    assert reference_assets(tmp_path / "none") == {}


def test_a_paper_page_shows_its_key_figures_first():
    from pathlib import Path

    from paperlib.report.build import key_first

    names = [Path(n) for n in ("a.png", "z_key.png", "m.png", "b_key.png")]
    assert [p.name for p in key_first(names, ("z_key.png", "b_key.png"))] == ["z_key.png", "b_key.png", "a.png",
                                                                               "m.png"]
