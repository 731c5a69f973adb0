"""The built report in a real browser: headless Chromium (Debian's), driven over the DevTools protocol.

Every page loads without console errors, exceptions or failed loads and fetches nothing from the
network; no image and no internal link (file or #fragment) is broken; the ledger page shows one
row per row of the ledger CSV, and filtering by a status (select, or ?status= in the URL) leaves
exactly that status's rows. Skipped, with the reason, where no Chromium is installed (CI installs
Debian's chromium: .ci/run). About 30 s (the site is built from tests/report_helpers.py's tree).
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

websocket = pytest.importorskip("websocket", reason="websocket-client is not installed")

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (Debian: apt-get install chromium; "
                                                          "CI installs it in .ci/run)")


class Browser:
    """A headless Chromium and one page, spoken to in DevTools-protocol JSON over a websocket."""

    def __init__(self, profile: Path):
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError(f"{CHROMIUM} did not start (exit {self.proc.poll()})")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.ids = itertools.count(1)
        self.events: list[dict] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def call(self, method: str, **params) -> dict:
        """Send one command; return its result (events that arrive meanwhile are kept)."""
        mid = next(self.ids)
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def load(self, url: str) -> list[dict]:
        """Navigate to ``url``, wait for its load event (and a short quiet time); return the page's events."""
        self.events = []
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while not any(e["method"] == "Page.loadEventFired" for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in 30 s")
            self.events.append(json.loads(self.ws.recv()))
        self.eval("new Promise(r => setTimeout(r, 200))", wait=True)  # late errors, if any, arrive meanwhile
        return self.events

    def eval(self, expression: str, wait: bool = False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


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


def ids_of(path: Path) -> set[str]:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.ids


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from paperlib.report.build import build
    from report_helpers import small_figures

    figures = small_figures(tmp_path_factory.mktemp("browser"))
    return figures, build(figures)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def test_every_page_loads_cleanly_with_its_images_and_links(site, browser):
    _, out = site
    pages = sorted(out.glob("*.html"))
    assert len(pages) == 8
    for page in pages:
        events = browser.load(page.as_uri())
        assert problems(events) == [], page.name
        broken = browser.eval("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                              ".map(i => i.getAttribute('src'))")
        assert broken == [], f"{page.name}: broken images {broken}"
        n_images = browser.eval("document.images.length")
        assert n_images > 0 or page.name in ("ledger.html", "paper-001.html", "paper-002.html",
                                             "paper-003.html"), page.name
        for href in browser.eval("Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
            parts = urlsplit(href)
            if parts.scheme != "file":
                continue  # links to the papers' publishers etc.: not fetched, not part of the site
            target = Path(unquote(parts.path))
            assert target.is_file(), f"{page.name}: broken link {href}"
            if parts.fragment:
                # HTML's rule: an element whose id is the fragment as written, else as percent-decoded
                # (nbconvert writes heading ids percent-encoded)
                ids = ids_of(target)
                assert parts.fragment in ids or unquote(parts.fragment) in ids, f"{page.name}: no anchor for {href}"


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
