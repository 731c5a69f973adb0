"""make lab in a real browser: JupyterLab opens a paper notebook, runs it, shows its outputs, writes only to scratch/.

``make lab`` itself starts the server (with ``--allow-root`` when the tests run as root), on a free port with a
token from a private Jupyter configuration folder, as a user's own jupyter_server_config.json would set them.
Headless Chromium (Debian's, over the DevTools protocol: tests/browser_helpers.py) opens a copy of paper 004's
notebook with the fast parameters of tests/nbval/parameters.yml injected, in a folder of its own under scratch/,
runs all cells and finds every code cell executed, no error output, text and table outputs, and a figure
rendered as an image. Nothing in the checkout outside scratch/ is written: ``git status --porcelain`` and the
files' modification times are the same before and after. The server stops (its kernels with it) whether the
test passes or fails. Skipped, with the reason, where no Chromium is installed. About half a minute.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest
import yaml
from browser_helpers import CHROMIUM, NO_CHROMIUM, Browser

REPO = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)
NOTEBOOK = "004_slow_start_latency"  # the cheapest paper notebook: a model, no simulation; the real stacks off
#: Make's variables of an outer make (make test runs pytest), which would reach the inner make lab.
OUTER_MAKE = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "EMULATION", "BROWSER_TEST", "PROFILE", "PYTHON")

pytest.importorskip("websocket", reason="websocket-client is not installed")
pytestmark = [pytest.mark.slow,  # a server, a browser and a notebook: half a minute on a quiet 2-core machine
              pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM),
              pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _checkout_state() -> tuple[str, dict[str, tuple[int, int]]]:
    """Return ``git status --porcelain`` and (modification time, size) of every file outside scratch/.

    Left out: .git/, scratch/, the virtual environment (make lab registers the kernel there) and Python's
    bytecode caches (__pycache__/, written by any import of the package).
    """
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO, check=True,
                            capture_output=True, text=True).stdout
    skip = {REPO / ".git", REPO / "scratch", VENV, REPO / ".venv"}
    files = {}
    for folder, dirs, names in os.walk(REPO):
        here = Path(folder)
        dirs[:] = [d for d in dirs if d != "__pycache__" and here / d not in skip]
        for name in names:
            st = (here / name).lstat()
            files[str((here / name).relative_to(REPO))] = (st.st_mtime_ns, st.st_size)
    return status, files


def _fast_copy(folder: Path) -> Path:
    """Write paper 004's notebook into ``folder`` with its nbval parameters injected, its outputs in ``folder``/out."""
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook

    table = yaml.safe_load((REPO / "tests" / "nbval" / "parameters.yml").read_text())
    nb = load_notebook_node(str(REPO / "notebooks" / f"{NOTEBOOK}.ipynb"))
    nb = parameterize_notebook(nb, {**table[NOTEBOOK], "output_dir": "out"})
    folder.mkdir(parents=True)
    copy = folder / f"{NOTEBOOK}.ipynb"
    nbformat.write(nb, copy)
    return copy


def _stop(proc: subprocess.Popen, runtime: Path) -> None:
    """Stop make lab's process group (the server shuts its kernels down), then any kernel of this server left."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # a kernel runs in a session of its own, with its connection file in this server's (private) runtime folder
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(runtime).encode() in cmdline.read_bytes():
                os.kill(int(cmdline.parent.name), signal.SIGKILL)
        except (OSError, ValueError):
            pass


@pytest.fixture
def lab(tmp_path):
    """Start make lab on a free port with a token; yield (base URL, token, server log, checkout state before the
    start: :func:`_checkout_state`); stop it afterwards."""
    port, token = _free_port(), uuid.uuid4().hex
    config, runtime = tmp_path / "jupyter-config", tmp_path / "jupyter-runtime"
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(json.dumps({
        "ServerApp": {"ip": "127.0.0.1", "port": port, "port_retries": 0, "open_browser": False},
        "IdentityProvider": {"token": token},
        "LabApp": {"expose_app_in_browser": True},  # window.jupyterapp: the test runs JupyterLab's own commands
    }))
    env = {k: v for k, v in os.environ.items() if k not in OUTER_MAKE}
    env.update(JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(runtime),
               JUPYTER_DATA_DIR=str(tmp_path / "data"), IPYTHONDIR=str(tmp_path / "ipython"),
               # the kernel imports this checkout's package (as the editable install of a clone does)
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    log_path = tmp_path / "lab.log"
    before = _checkout_state()
    with log_path.open("w") as log:
        # -o: the running .venv is taken as built (the tests run from it)
        proc = subprocess.Popen(["make", "--no-print-directory", f"VENV={VENV}", "-o", f"{VENV}/.installed", "lab"],
                                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, f"make lab exited ({proc.returncode}):\n{log_path.read_text()[-3000:]}"
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, f"no server after 90 s:\n{log_path.read_text()[-3000:]}"
                time.sleep(0.5)
        yield base, token, log_path, before
    finally:
        _stop(proc, runtime)


#: The open notebook's state, from JupyterLab's own model: its kernel, and per code cell the execution count and
#: the outputs (type, MIME types, and for errors the exception).
STATE = """(path => {
  const app = window.jupyterapp;
  const w = app && Array.from(app.shell.widgets('main')).find(w => w.context && w.context.path === path);
  if (!w || !w.content || !w.content.model || !w.sessionContext) return null;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const cells = [];
  for (const c of w.content.model.cells) {
    if (c.type !== 'code') continue;
    const outputs = [];
    for (let i = 0; i < c.outputs.length; i++) {
      const o = c.outputs.get(i).toJSON();
      outputs.push({type: o.output_type, mime: Object.keys(o.data || {}),
                    error: o.output_type === 'error' ? `${o.ename}: ${o.evalue}` : null});
    }
    cells.push({count: c.executionCount, outputs});
  }
  return {id: w.id, kernel: kernel ? kernel.name : null, status: kernel ? kernel.status : null, cells};
})"""


#: Scroll the current notebook to its first cell with a rendered image (the notebook scrolls itself: its cells are
#: laid out as they come into view).
SHOW_FIRST_FIGURE = """(async () => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const cell = nb.widgets.find(c => c.node.querySelector('.jp-RenderedImage img'));
  await nb.scrollToCell(cell, 'start');
  await new Promise(r => setTimeout(r, 1000));
})()"""


def _wait(browser: Browser, path: str, ready, what: str, timeout_s: float, log_path: Path):
    """Return the state (:data:`STATE`) of the notebook at ``path`` once ``ready(state)``; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = browser.eval(f"{STATE}({json.dumps(path)})")
        if state is not None and ready(state):
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not within {timeout_s:g} s; last state {json.dumps(state)[:2000]}\n"
                               f"server log:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.5)


def test_make_lab_runs_a_paper_notebook_in_the_browser_and_writes_only_to_scratch(lab, tmp_path):
    base, token, log_path, before = lab
    folder = REPO / "scratch" / f"lab-browser-test-{uuid.uuid4().hex[:8]}"
    browser = None
    try:
        copy = _fast_copy(folder)
        browser = Browser(tmp_path / "chromium-profile", window_size=(1300, 900))
        # the page keeps the focus a person's window would have (JupyterLab's current notebook follows the focus)
        browser.call("Emulation.setFocusEmulationEnabled", enabled=True)
        rel = copy.relative_to(REPO).as_posix()
        browser.load(f"{base}/lab/tree/{rel}?reset&token={token}", timeout_s=60)
        # make lab's server opens at notebooks/ (the file browser's preferred folder)
        page_config = json.loads(browser.eval("document.getElementById('jupyter-config-data').textContent"))
        assert page_config["preferredPath"].strip("/") == "notebooks", page_config.get("preferredPath")

        opened = _wait(browser, rel, lambda s: s["status"] == "idle", "the notebook with an idle kernel", 90, log_path)
        assert opened["kernel"] == "webperf-repro", opened
        assert all(c["count"] is None and not c["outputs"] for c in opened["cells"])  # a copy without outputs
        # Run > Run All Cells (its promise is not awaited: the cells' progress is read from the model below)
        browser.eval(f"window.jupyterapp.shell.activateById({json.dumps(opened['id'])})")
        assert browser.eval("window.jupyterapp.shell.currentWidget.id") == opened["id"]
        browser.eval("window.jupyterapp.commands.execute('notebook:run-all-cells'), true")

        def finished(s):
            errors = [o["error"] for c in s["cells"] for o in c["outputs"] if o["error"]]
            return errors or (s["status"] == "idle" and all(c["count"] is not None for c in s["cells"]))

        state = _wait(browser, rel, finished, "all cells run", 240, log_path)
        errors = [o["error"] for c in state["cells"] for o in c["outputs"] if o["error"]]
        assert errors == [], f"error outputs: {errors}"
        # executed in order, one count per code cell: 1, 2, ..., n
        assert [c["count"] for c in state["cells"]] == list(range(1, len(state["cells"]) + 1))
        mimes = [m for c in state["cells"] for o in c["outputs"] for m in o["mime"]]
        assert "text/html" in mimes and "text/markdown" in mimes and "image/png" in mimes, sorted(set(mimes))

        # the notebook wrote its outputs where its output_dir says, inside its scratch/ folder
        figure = folder / "out" / "latency_vs_bandwidth.png"
        assert figure.is_file() and (folder / "out" / "ledger.csv").is_file()
        # the figures as the page shows them: decoded images in rendered image outputs, the notebook's figure among
        # them at its own size in pixels (a PNG's width and height are bytes 16-23, big-endian)
        shown = _wait_for_images(browser)
        png = figure.read_bytes()
        assert [int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")] in shown, shown
        if os.environ.get("LAB_BROWSER_SCREENSHOT"):  # for a person to look at; a test run never writes it
            browser.eval(SHOW_FIRST_FIGURE, wait=True)
            browser.screenshot(Path(os.environ["LAB_BROWSER_SCREENSHOT"]))
    finally:
        if browser is not None:
            browser.close()
        shutil.rmtree(folder, ignore_errors=True)
    after = _checkout_state()
    assert after[0] == before[0], f"git status changed:\n{before[0]}\n---\n{after[0]}"
    changed = sorted(k for k in before[1].keys() | after[1].keys() if before[1].get(k) != after[1].get(k))
    assert changed == [], f"written outside scratch/: {changed}"


def _wait_for_images(browser: Browser, timeout_s: float = 30) -> list[list[int]]:
    """Return the (width, height) of every decoded image in a rendered image output, once there is one."""
    deadline = time.monotonic() + timeout_s
    while True:
        sizes = browser.eval("Array.from(document.querySelectorAll('.jp-RenderedImage img'))"
                             ".filter(i => i.complete && i.naturalWidth > 0)"
                             ".map(i => [i.naturalWidth, i.naturalHeight])")
        if sizes or time.monotonic() > deadline:
            return sizes
        time.sleep(0.5)

