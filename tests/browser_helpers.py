"""Headless Chromium (Debian's), driven over the DevTools protocol: shared by the browser tests.

``CHROMIUM`` is the browser found on PATH (``None`` where none is installed: the tests then skip, saying so);
:class:`Browser` starts it with a private profile and speaks DevTools-protocol JSON over a websocket
(websocket-client, which Jupyter's server already depends on). No WebDriver and no browser download.
"""

from __future__ import annotations

import base64
import itertools
import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
#: Why a browser test skips where no Chromium is installed.
NO_CHROMIUM = "no Chromium found (Debian: apt-get install chromium; tools/prereqs.sh --for test installs it as root)"


class Browser:
    """A headless Chromium and one page, spoken to in DevTools-protocol JSON over a websocket."""

    def __init__(self, profile: Path, window_size: tuple[int, int] = (800, 600)):
        import websocket

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--window-size={window_size[0]},{window_size[1]}", f"--user-data-dir={profile}", "about:blank"],
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

    def load(self, url: str, timeout_s: float = 30.0) -> list[dict]:
        """Navigate to ``url``, wait for its load event (and a short quiet time); return the page's events."""
        self.events = []
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout_s
        while not any(e["method"] == "Page.loadEventFired" for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in {timeout_s:g} s")
            self.events.append(json.loads(self.ws.recv()))
        self.eval("new Promise(r => setTimeout(r, 200))", wait=True)  # late errors, if any, arrive meanwhile
        return self.events

    def eval(self, expression: str, wait: bool = False):
        """Return the value of the JavaScript ``expression`` in the page (awaited when ``wait``)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        """Write the page as it is shown now to ``path`` (PNG); return ``path``."""
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return path

    def close(self) -> None:
        """Close the websocket and stop the browser."""
        if getattr(self, "ws", None) is not None:
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
