"""Two small papers through make's own rules (issues 23, 26 and 34): a quiet run that shows its sweeps' progress, and
overlapped runs that give the same bytes as sequential ones.

A scratch tree holds two papers the Makefile discovers: 900, an ns-3 notebook (a transfer in the kernel and a
two-point sweep on a one-worker Dask cluster, so both import ns-3 and compile C++ with cling), and 901, a
notebook that declares ``emulation`` (so it runs under the emulation lock at normal priority) and waits on the
wall clock as a real-time emulation does. The tree is built twice, with ``-j1`` (one paper after the other)
and ``-j2`` (side by side). About 1-2 minutes (four kernels, four ns-3 imports). The runs print every progress
line with news at once (``WEBPERF_PROGRESS_EVERY=0`` instead of one at most every 30 s), so 900's short sweep
shows its lines.

The last test shows why such a log once held "KeyboardInterrupt caught in kernel." and that it no longer can: a
kernel slow to leave the handler of papermill's last request (a ``kernel_info`` after the last cell), as a kernel
starved of CPU is, was shut down with SIGINT to its process group while still inside it (one kernel, about 10 s).
"""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)

pytestmark = pytest.mark.notebook
#: the make runs: about a minute
MAKE_RUNS = [pytest.mark.ns3, pytest.mark.slow,
             pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")]


def make_runs(test):
    """Mark ``test`` as one that uses the make runs (:data:`MAKE_RUNS`)."""
    for mark in MAKE_RUNS:
        test = mark(test)
    return test

#: A sweep's progress line as docs/running.md shows it (paperlib.run_progress.sweep_line and sweep_end_line).
PROGRESS = re.compile(r"\[(?P<paper>\d{3})\] sweep  (?P<sweep>[^:]+): (?P<done>\d+)/(?P<planned>\d+) runs done"
                      r"(?: \(\d+ from the cache\))?"
                      r"(?P<rest>, about (?:\d+ s|\d+ min \d\d s|\d+ h \d\d min) left|, time left not known yet"
                      r"|, past its estimate| in (?:\d+ s|\d+ min \d\d s|\d+ h \d\d min))")

#: What a quiet run never prints: errors, tracebacks, warnings (the kernel's TCP one among them) and cling JIT
#: messages ("[runStaticInitializersOnce]: Failed to materialize symbols ...").
NOISE = re.compile(r"ERROR|Traceback|WARNING|Warning|runStaticInitializersOnce|materiali[sz]e|cling|JIT")

NS3_CELLS = [
    'output_dir = "out"\nscheduler = None',
    "import pandas as pd\n"
    "from paperlib.atomic import atomic_write_csv\n"
    "from paperlib.sim import tcp_loss_transfer\n"
    "from paperlib.sweep import run_sweep\n"
    'point = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256}\n'
    'in_kernel = tcp_loss_transfer.simulate({**point, "p": 0.0}, 1)\n'
    'swept = run_sweep(tcp_loss_transfer.simulate, [{**point, "p": 0.0}, {**point, "p": 0.05}],\n'
    '                  cache_dir=f"{output_dir}/../../cache", scheduler=scheduler, n_workers=1, progress=False)\n'
    'atomic_write_csv(f"{output_dir}/sweep.csv", swept)\n'
    'atomic_write_csv(f"{output_dir}/ledger.csv", pd.DataFrame([in_kernel]))\n'
    "swept",
]
WAIT_CELLS = [
    'output_dir = "out"\nemulation = "reduced"',
    "import time\n"
    "import numpy as np\n"
    "import pandas as pd\n"
    "from paperlib.atomic import atomic_write_csv\n"
    "time.sleep(3.0)  # a link emulated in real time: the wall clock runs, the core idles\n"
    "draws = np.random.default_rng(901).exponential(1.0, size=50)\n"
    'atomic_write_csv(f"{output_dir}/ledger.csv", pd.DataFrame({"emulation": emulation, "draw": draws}))',
]


def _notebook(path: Path, cells: list[str]) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"  # the same in both trees (nbformat draws random ids)
    nb.cells[0].metadata["tags"] = ["parameters"]
    nbformat.write(nb, str(path))


def _tree(root: Path) -> Path:
    for paper, name, cells in (("900", "ns3_sweep", NS3_CELLS), ("901", "real_time_wait", WAIT_CELLS)):
        (root / "data" / paper).mkdir(parents=True)
        (root / "data" / paper / "table.csv").write_text("a\n1\n")
        (root / "notebooks").mkdir(exist_ok=True)
        _notebook(root / "notebooks" / f"{paper}_{name}.ipynb", cells)
    return root


def _make(root: Path, jobs: int) -> subprocess.CompletedProcess:
    # -o: the project's .venv is taken as built (the scratch tree has no requirements.lock to build it from), and
    # the system's prerequisites as checked (tests/test_prereqs.py checks them; the scratch tree has no tools/).
    # PRIORITY=normal: an idle-class run waits for every other test of make test's other worker (a run of a minute
    # took two and a half beside one); the idle class of make reproduce is tests/test_make_papers.py's and
    # tests/test_run_progress.py's, the emulation lock stays.
    return subprocess.run(["make", "--no-print-directory", "-f", str(REPO / "Makefile"), f"VENV={VENV}",
                           "-o", f"{VENV}/.installed", "-o", "prereqs-reproduce", f"-j{jobs}", "PRIORITY=normal",
                           "figures/900/ledger.csv", "figures/901/ledger.csv"],
                          cwd=root, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "WEBPERF_PROGRESS_EVERY": "0"})


class _Runs(dict):
    """The trees built by make, by mode: ``sequential`` (-j1) and ``overlapped`` (-j2), each built when first used
    (so ``-k overlapped`` builds one tree)."""

    JOBS = {"sequential": 1, "overlapped": 2}

    def __init__(self, tmp_path_factory):
        super().__init__()
        self.factory = tmp_path_factory

    def __missing__(self, mode: str):
        root = _tree(self.factory.mktemp(mode))
        self[mode] = (root, _make(root, self.JOBS[mode]))
        return self[mode]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The two trees built by make: sequential (-j1) and overlapped (-j2)."""
    if not (VENV / ".installed").exists():
        pytest.skip(f"{VENV} is not the project's .venv (no .installed stamp)")
    return _Runs(tmp_path_factory)


@make_runs
@pytest.mark.slow  # (make_runs marks it slow too; named here so tests/test_slow_marker.py sees it)
@pytest.mark.parametrize("mode", ["sequential", "overlapped"])
def test_a_run_prints_a_line_per_paper_as_it_starts_and_ends_its_sweeps_progress_and_nothing_else(runs, mode):
    root, proc = runs[mode]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    by_paper = {paper: [line for line in lines if line.startswith(f"[{paper}] ")] for paper in ("900", "901")}
    assert sum(map(len, by_paper.values())) == len(lines), lines  # every line is a paper's
    assert [line.split()[1] for line in by_paper["901"]] == ["start", "done"], lines  # no sweep: no progress
    assert [line.split()[1] for line in by_paper["900"]] == ["start", "sweep", "sweep", "sweep", "done"], lines
    assert by_paper["900"][0] == "[900] start  900_ns3_sweep: first run here; log figures/logs/900.log"
    # its two-point sweep on a cold cache: started with nothing timed, one done with the other's time left
    # estimated from it, then its end with the time it took
    shown = [PROGRESS.fullmatch(line) for line in by_paper["900"][1:4]]
    assert all(shown), by_paper["900"]
    assert [(m["sweep"], m["done"], m["planned"]) for m in shown] == [("tcp_loss_transfer.simulate", "0", "2"),
                                                                     ("tcp_loss_transfer.simulate", "1", "2"),
                                                                     ("tcp_loss_transfer.simulate", "2", "2")]
    assert shown[0]["rest"] == ", time left not known yet"
    assert shown[1]["rest"].startswith(", about ") and shown[2]["rest"].startswith(" in ")


@make_runs
@pytest.mark.parametrize("mode", ["sequential", "overlapped"])
def test_neither_the_terminal_nor_the_logs_hold_errors_warnings_or_jit_messages(runs, mode):
    root, proc = runs[mode]
    logs = {p.name: p.read_text() for p in (root / "figures" / "logs").glob("*.log")}
    assert sorted(logs) == ["900.log", "901.log"]
    for name, text in [("terminal", proc.stdout + proc.stderr), *logs.items()]:
        assert not NOISE.findall(text), (name, text)


@make_runs
def test_overlapped_runs_write_the_same_bytes_as_sequential_ones(runs):
    (seq, _), (over, _) = runs["sequential"], runs["overlapped"]
    files = sorted(p.relative_to(seq) for p in (seq / "figures").glob("90*/*.csv"))
    assert [str(f) for f in files] == ["figures/900/ledger.csv", "figures/900/sweep.csv", "figures/901/ledger.csv"]
    for f in files:
        assert (seq / f).read_bytes() == (over / f).read_bytes(), f
    # The executed notebooks too, but for the tree's own path: outside the repository the runner shows the output
    # folder as an absolute path (inside it, relative to the notebook).
    for name in ("900_ns3_sweep.ipynb", "901_real_time_wait.ipynb"):
        texts = [(root / "figures/executed" / name).read_text().replace(str(root), "<tree>") for root in (seq, over)]
        assert texts[0] == texts[1], name


@make_runs
def test_a_second_run_expects_the_time_the_first_took(runs):
    root, _ = runs["overlapped"]
    (root / "figures" / "901" / "ledger.csv").unlink()  # 901 out of date again; 900 is up to date
    proc = _make(root, 2)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # make also says "'figures/900/ledger.csv' is up to date." (a goal with nothing to do)
    (start, done) = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert start.startswith("[901] start  901_real_time_wait: expect about ") and "(last run here)" in start
    assert done.startswith("[901] done   in ") and "(expected about " in done


#: Loaded by the kernel (on its PYTHONPATH): a kernel that leaves the handler of each kernel_info request 1.5 s
#: after sending the reply, as a kernel starved of CPU can (less than jupyter_client's 2.5 s before it terminates a
#: kernel that does not stop).
SLOW_KERNEL_INFO = """
import importlib.abc, importlib.machinery, sys, time


class SlowKernelInfo(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "ipykernel.kernelbase":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            reply = module.Kernel.kernel_info_request

            async def kernel_info_request(self, *args, **kwargs):
                await reply(self, *args, **kwargs)
                time.sleep(1.5)  # the reply is out; the handler (where SIGINT raises KeyboardInterrupt) is not done

            module.Kernel.kernel_info_request = kernel_info_request

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, SlowKernelInfo())
"""

#: A process in the kernel's process group that writes "SIGINT" to its file if it gets one (else it is killed).
WATCHER = ("import signal, sys, time; from pathlib import Path; out = Path(sys.argv[1]); "
           "signal.signal(signal.SIGINT, lambda *a: (out.write_text('SIGINT'), sys.exit(0))); "
           "out.write_text('ready'); time.sleep(120)")


def test_the_kernel_is_shut_down_without_sigint_so_a_slow_kernel_logs_no_keyboard_interrupt(tmp_path):
    """Papermill shuts the kernel down as soon as its last request's reply arrives; jupyter_client's shutdown began
    with SIGINT to the kernel's process group, which raised KeyboardInterrupt in a kernel still inside that
    request's handler ("[IPKernelApp] ERROR | KeyboardInterrupt caught in kernel."). The runner's shutdown sends
    none: the slow kernel logs nothing, and a process in its group gets no SIGINT."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SLOW_KERNEL_INFO)
    watched = tmp_path / "watcher.txt"
    cells = ['output_dir = "out"',
             "import subprocess, sys, time\n"
             "from pathlib import Path\n"
             f"watched = Path({str(watched)!r})\n"
             f"watcher = subprocess.Popen([sys.executable, '-c', {WATCHER!r}, str(watched)])\n"
             "while not (watched.exists() and watched.read_text() == 'ready'):\n"
             "    time.sleep(0.05)\n"
             "Path(output_dir, 'watcher.pid').write_text(str(watcher.pid))"]
    notebook = tmp_path / "nb" / "slow_kernel.ipynb"
    notebook.parent.mkdir()
    _notebook(notebook, cells)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path / "site"),
                                                                     os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", "paperlib.run_notebook", str(notebook), str(tmp_path / "out.ipynb"),
                           "-p", "output_dir", str(tmp_path / "outputs")], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)
    pid = int((tmp_path / "outputs" / "watcher.pid").read_text()) if proc.returncode == 0 else None
    seen = watched.read_text() if watched.exists() else ""
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert seen == "ready"  # the watcher ran and got no SIGINT
    assert not NOISE.findall(proc.stdout + proc.stderr), proc.stdout + proc.stderr
