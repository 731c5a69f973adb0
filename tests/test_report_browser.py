"""The built report in a real browser: headless Chromium (Debian's), driven over the DevTools protocol.

Every page loads without console errors, exceptions or failed loads and fetches nothing from the
network; no image and no internal link (file or #fragment) is broken; the ledger page shows one
row per row of the ledger CSV, and filtering by a status (select, or ?status= in the URL) leaves
exactly that status's rows. MathJax (the site's own copy) typesets every page: no ``$...$`` is left as
source. Every paper page with ledger rows opens with its verdict in a few sentences, and the index's results
table is the one the ledger gives. In a 1300-pixel-wide window no table runs past the page's right edge.
Each page is loaded and typeset once (``visits``) and every check reads that visit. Skipped, with the reason,
where no Chromium is installed (CI installs Debian's chromium: .ci/run). About 40 s on 2 cores, half of it
building the site (from tests/report_helpers.py's tree).
"""

from __future__ import annotations

import functools
import json
import re
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest
from browser_helpers import CHROMIUM, NO_CHROMIUM, Browser

from paperlib.data import PAPERS

websocket = pytest.importorskip("websocket", reason="websocket-client is not installed")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)


def problems(events: list[dict]) -> list[str]:
    """Return console errors, uncaught exceptions, failed loads and network fetches among ``events``."""
    out = []
    for e in events:
        m, p = e["method"], e.get("params", {})
        if m == "Runtime.exceptionThrown":
            out.append(f"exception: {p['exceptionDetails'].get('text')} {p['exceptionDetails'].get('exception', {})}")
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append(f"console.{p['type']}: {[a.get('value') for a in p.get('args', [])]}")
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        elif m == "Network.loadingFailed":
            out.append(f"failed load: {p.get('errorText')} {p.get('requestId')}")
        elif m == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                out.append(f"network fetch: {url}")
    return out


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("id", "name") and v:
                self.ids.add(v)


@functools.cache
def ids_of(path: Path) -> frozenset[str]:
    """Return the ids and names of ``path``'s elements (read once per file: many links point into one page)."""
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


@pytest.fixture(scope="module")
def site(small_site):
    """The small figures/ tree and its report, shared with test_report_build.py (tests/conftest.py): read only."""
    return small_site


#: The window every page is checked in: the width at which no table may run past the right edge.
WINDOW = (1300, 900)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(tmp_path_factory.mktemp("chromium-profile"), window_size=WINDOW)
    yield b
    b.close()


@dataclass(frozen=True)
class Visit:
    """What one page of the report shows once loaded and typeset (read by the tests below)."""

    problems: list[str]  # console errors, exceptions, failed loads, network fetches: while loading and typesetting
    broken_images: list[str]
    images: int
    links: list[str]
    raw_math: list[str]  # text that still holds TeX source after MathJax finished
    math_errors: int
    math: int  # MathML elements, as typeset
    after_title: str | None  # the id of the element after the page's h1
    verdict: str | None  # the text of #verdict without its math
    overflow: list[str]  # what runs past the right edge of a WINDOW-wide window


@pytest.fixture(scope="module")
def visits(site, browser) -> dict[str, Visit]:
    """Every page of the report, visited once: loaded, typeset by MathJax, then read (page name -> :class:`Visit`).

    One visit per page serves every check below (each page is loaded and typeset once, not once per check).
    """
    _, out = site
    seen = {}
    for page in sorted(out.glob("*.html")):
        events = wait_for_mathjax(browser, page)
        seen[page.name] = Visit(
            problems=problems(events),
            broken_images=browser.eval("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                                       ".map(i => i.getAttribute('src'))"),
            images=browser.eval("document.images.length"),
            links=browser.eval("Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"),
            raw_math=browser.eval(RAW_MATH),
            math_errors=browser.eval("document.querySelectorAll('.MathJax_Error, .MathJax_Preview:not(:empty)')"
                                     ".length"),
            math=browser.eval("document.querySelectorAll('math').length"),
            after_title=browser.eval("(h => h && h.nextElementSibling ? h.nextElementSibling.id : null)"
                                     "(document.querySelector('main h1'))"),
            verdict=browser.eval("(v => v ? (c => { c.querySelectorAll('.math, script').forEach(e => e.remove());"
                                 " return c.textContent.split(/\\s+/).filter(Boolean).join(' '); })(v.cloneNode(true))"
                                 " : null)(document.getElementById('verdict'))"),
            overflow=browser.eval(OVERFLOW))
    return seen


def test_every_page_loads_cleanly_with_its_images_and_links(visits):
    # the index, the ledger, the explorers, two docs pages and one page per paper
    assert len(visits) == 5 + len(PAPERS)
    for name, visit in visits.items():
        assert visit.problems == [], name
        assert visit.broken_images == [], f"{name}: broken images {visit.broken_images}"
        # the small figures/ tree (report_helpers.small_figures) has figures for papers 000 and 004 only
        assert visit.images > 0 or name in ("ledger.html", "paper-001.html", "paper-002.html",
                                            "paper-003.html", "paper-005.html") or name.startswith("doc-"), name
        for href in visit.links:
            parts = urlsplit(href)
            if parts.scheme != "file":
                continue  # links to the papers' publishers etc.: not fetched, not part of the site
            target = Path(unquote(parts.path))
            assert target.is_file(), f"{name}: broken link {href}"
            if parts.fragment:
                # HTML's rule: an element whose id is the fragment as written, else as percent-decoded
                # (nbconvert writes heading ids percent-encoded)
                ids = ids_of(target)
                assert parts.fragment in ids or unquote(parts.fragment) in ids, f"{name}: no anchor for {href}"


def _visible(browser) -> list[str]:
    return browser.eval("Array.from(document.querySelectorAll('#ledger tbody tr')).filter(r => !r.hidden)"
                        ".map(r => r.dataset.status)")


def test_ledger_rows_and_filters(site, browser):
    figures, out = site
    frame = pd.read_csv(figures / "ledger.csv", dtype=str, keep_default_na=False)
    assert problems(browser.load((out / "ledger.html").as_uri())) == []
    assert browser.eval("document.querySelectorAll('#ledger tbody tr').length") == len(frame)
    assert len(_visible(browser)) == len(frame)
    counts = frame["status"].value_counts()
    for status, n in counts.items():
        browser.eval(f"(s => {{ s.value = {json.dumps(status)}; s.dispatchEvent(new Event('change')); }})"
                     "(document.getElementById('filter-status'))")
        shown = _visible(browser)
        assert shown == [status] * n, status
        assert browser.eval("document.getElementById('count').textContent") == f"{n} of {len(frame)} rows"
    # status and paper together, preset from the URL as the index's links do
    refuted_004 = int(((frame["status"] == "refuted") & (frame["paper"] == "004")).sum())
    browser.load((out / "ledger.html").as_uri() + "?paper=004&status=refuted")
    assert _visible(browser) == ["refuted"] * refuted_004
    # the search box keeps the rows whose text contains the query
    browser.load((out / "ledger.html").as_uri())
    query = "Table II"
    browser.eval(f"(s => {{ s.value = {json.dumps(query)}; s.dispatchEvent(new Event('input')); }})"
                 "(document.getElementById('search'))")
    expected = int(frame.apply(lambda r: query.lower() in " ".join(r[:9]).lower(), axis=1).sum())
    assert 0 < len(_visible(browser)) == expected


def test_status_colours_are_applied(site, browser):
    _, out = site
    browser.load((out / "paper-004.html").as_uri())
    colours = browser.eval("Object.fromEntries(Array.from(document.querySelectorAll('#ledger tbody tr'))"
                           ".map(r => [r.dataset.status, getComputedStyle(r).backgroundColor]))")
    from paperlib.figures import STATUS_COLORS

    for status, css in colours.items():
        r, g, b = (int(STATUS_COLORS[status][i:i + 2], 16) for i in (1, 3, 5))
        assert re.match(rf"rgba\({r}, {g}, {b}, 0\.1\d*\)", css), (status, css)


def wait_for_mathjax(browser, page: Path) -> list[dict]:
    """Load ``page`` and wait until MathJax has typeset it (its startup's "End" hook marks the document); return the
    page's events, from its navigation to the end of the typesetting."""
    events = browser.load(page.as_uri())
    deadline = time.monotonic() + 120
    while browser.eval("document.documentElement.dataset.mathjax || ''") != "done":
        if time.monotonic() > deadline:
            raise TimeoutError(f"{page.name}: MathJax did not finish in 120 s")
        time.sleep(0.2)
    return events  # the browser adds the events that arrive while it waits


# Text nodes outside code, scripts and MathJax's own output that still hold TeX source: a $...$ pair,
# $$, \( or \[ (a lone "$5" is text).
RAW_MATH = r"""(() => {
  const skip = n => n.closest('pre, code, script, style, textarea, math, .MathJax_MathML, .MathJax_Preview');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const raw = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!skip(n.parentElement) && /\$[^$\s][^$]*\$|\$\$|\\\(|\\\[/.test(n.textContent))
      raw.push(n.textContent.trim().slice(0, 80));
  }
  return raw;
})()"""


def test_math_is_typeset_offline_on_every_page(visits):
    for name, visit in visits.items():
        assert visit.raw_math == [], name
        assert visit.math_errors == 0, name
    typeset = {name: visit.math for name, visit in visits.items()}  # MathML, as typeset
    # the doc's inline and displayed formulas, the notebooks' prose (both papers with a notebook page), the verdicts
    assert typeset["doc-guide.html"] == 2
    assert typeset["paper-000.html"] > 10 and typeset["paper-004.html"] > 10


def _text_without_math(html: str) -> str:
    """Return the words of ``html`` as a browser shows them, minus the math (which MathJax replaces)."""
    from html import unescape

    # as the DOM's textContent: tags and the removed math elements leave nothing, whitespace stays
    html = re.sub(r'<(span|div) class="math">.*?</\1>', "", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_every_paper_page_opens_with_its_verdict(site, visits):
    from report_helpers import verdicts_module

    from paperlib import ledger
    from paperlib.report.markdown import to_html

    figures, _ = site
    verdicts = verdicts_module().paper_verdicts(ledger.read(figures / "ledger.csv"))
    assert verdicts
    for v in verdicts:
        visit = visits[f"paper-{v.paper}.html"]
        # the first element after the title is the verdict, and it says what the paragraph says
        assert visit.after_title == "verdict", v.paper
        shown = visit.verdict
        # it opens with the verdict in a few sentences, then the details (the numbers in full, why, the ledger)
        opening = _text_without_math(to_html(v.opening()))
        details = _text_without_math(to_html(v.details()))
        assert shown.startswith(opening), v.paper
        assert shown.endswith(details), v.paper
        assert len(opening.split()) < len(details.split()), v.paper


def _markdown_table(text: str) -> list[list[str]]:
    """Return the body rows of the first Markdown table in ``text``, each cell as the browser shows it."""
    from paperlib.report.markdown import to_html

    rows = [re.split(r"(?<!\\)\|", line.strip().strip("|")) for line in text.splitlines()
            if line.strip().startswith("|")]
    return [[_text_without_math(to_html(cell.strip().replace("\\|", "|"))) for cell in row] for row in rows[2:]]


def test_index_results_table_agrees_with_the_ledger(site, browser):
    from report_helpers import verdicts_module

    from paperlib import ledger

    figures, out = site
    v = verdicts_module()
    verdicts = v.paper_verdicts(ledger.read(figures / "ledger.csv"))
    expected = _markdown_table(v.results_table(verdicts))
    wait_for_mathjax(browser, out / "index.html")
    shown = browser.eval("Array.from(document.querySelectorAll('#results tbody tr')).map(r => Array.from(r.cells)"
                         ".map(c => { const k = c.cloneNode(true); k.querySelectorAll('.math, script')"
                         ".forEach(e => e.remove()); return k.textContent.split(/\\s+/).filter(Boolean).join(' '); }))")
    assert shown == expected
    # one row per paper of the ledger, in paper order (000 and 004 in the small tree)
    papers = sorted(set(pd.read_csv(figures / "ledger.csv", dtype=str)["paper"]))
    assert len(shown) == len(papers) and all(p in " ".join(row) for p, row in zip(papers, shown, strict=True))


#: What runs past the right edge of a page, outside the executed notebooks (which scroll within their own boxes):
#: the page itself, a table wider than its box or than the window, a scrolling box that has to scroll.
OVERFLOW = r"""(() => {
  const width = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
  for (const t of document.querySelectorAll('table, .table-scroll')) {
    if (t.closest('.notebook, details:not([open])')) continue;
    const name = t.id || t.className || t.tagName;
    if (t.scrollWidth > t.clientWidth + 1) out.push(`${name}: scrollWidth ${t.scrollWidth} > ${t.clientWidth}`);
    if (t.getBoundingClientRect().right > width + 1) out.push(`${name}: right edge ${t.getBoundingClientRect().right}`);
  }
  return out;
})()"""


def test_no_table_runs_past_the_right_edge_of_a_1300_pixel_window(visits):
    assert WINDOW[0] == 1300
    for name, visit in visits.items():
        assert visit.overflow == [], name
