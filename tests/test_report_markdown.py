"""paperlib.report.markdown: docs/ pages as HTML, with GitHub's heading anchors, links resolved to the site's
pages, and math left for MathJax."""

from paperlib.report import markdown


def test_heading_slugs_are_githubs():
    # GitHub's anchors: lower case, punctuation dropped, spaces to hyphens (so "Eqs. (3)-(8)" -> "eqs-3-8")
    assert markdown.slug("Eqs. (3)-(8)") == "eqs-3-8"
    assert markdown.slug("The `code` and <em>tags</em>") == "the-code-and-tags"


def test_repeated_headings_get_numbered_anchors():
    html = markdown.to_html("# Setup\n\n## Setup\n\n### Setup\n")
    # the first keeps the slug, repeats get -1, -2 (GitHub's rule)
    assert '<h1 id="setup">' in html and '<h2 id="setup-1">' in html and '<h3 id="setup-2">' in html


def test_links_resolve_to_pages_or_show_as_text():
    pages = {"docs/a.md": "doc-a.html", "docs/papers/000.md": "doc-papers-000.html", "README.md": "index.html"}
    resolve = markdown.doc_resolver("docs/papers/000.md", pages)
    assert resolve("../a.md#x") == "doc-a.html#x"          # docs/papers/../a.md is docs/a.md
    assert resolve("../../README.md") == "index.html"
    assert resolve("#here") == "#here" and resolve("https://example.org/") == "https://example.org/"
    assert resolve("../../paperlib/ledger.py") is None      # no copy in the site
    html = markdown.to_html("[code](../../paperlib/ledger.py) and [a](../a.md)", resolve)
    assert '<span class="repo-link"' in html and '<a href="doc-a.html">a</a>' in html


def test_without_a_resolver_only_outside_links_and_fragments_stay_links():
    html = markdown.to_html("[x](https://example.org/) [y](#z) [w](other.md)")
    assert '<a href="https://example.org/">x</a>' in html and '<a href="#z">y</a>' in html
    assert 'href="other.md"' not in html


def test_math_is_left_for_mathjax():
    html = markdown.to_html("The mean $W_{tcp} = a_1 * b_2$ holds.")
    # no emphasis made of the underscores or the star inside the math
    assert "<em>" not in html and "W_{tcp}" in html


def test_first_heading():
    assert markdown.first_heading("intro\n\n## The note ##\n\n# Later\n") == "The note"
    assert markdown.first_heading("no heading here\n") == ""
