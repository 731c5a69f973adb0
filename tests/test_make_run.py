"""Two small papers through make's own rules (issues 23 and 26): a quiet run, and overlapped runs that give the
same bytes as sequential ones.

A scratch tree holds two papers the Makefile discovers: 900, an ns-3 notebook (a transfer in the kernel and a
two-point sweep on a one-worker Dask cluster, so both import ns-3 and compile C++ with cling), and 901, a
notebook that declares ``emulation`` (so it runs under the emulation lock at normal priority) and waits on the
wall clock as a real-time emulation does. The tree is built twice, with ``-j1`` (one paper after the other)
and ``-j2`` (side by side). About 1-2 minutes (four kernels, four ns-3 imports).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)

pytestmark = [pytest.mark.notebook, pytest.mark.ns3, pytest.mark.slow,  # the module's make runs: about a minute
              pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")]

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
    # the system's prerequisites as checked (tests/test_prereqs.py checks them; the scratch tree has no tools/)
    return subprocess.run(["make", "--no-print-directory", "-f", str(REPO / "Makefile"), f"VENV={VENV}",
                           "-o", f"{VENV}/.installed", "-o", "prereqs-reproduce", f"-j{jobs}",
                           "figures/900/ledger.csv", "figures/901/ledger.csv"],
                          cwd=root, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The two trees built by make: sequential (-j1) and overlapped (-j2)."""
    if not (VENV / ".installed").exists():
        pytest.skip(f"{VENV} is not the project's .venv (no .installed stamp)")
    done = {}
    for mode, jobs in (("sequential", 1), ("overlapped", 2)):
        root = _tree(tmp_path_factory.mktemp(mode))
        done[mode] = (root, _make(root, jobs))
    return done


@pytest.mark.parametrize("mode", ["sequential", "overlapped"])
def test_a_run_prints_one_line_per_paper_as_it_starts_and_ends_and_nothing_else(runs, mode):
    root, proc = runs[mode]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert sorted(line.split()[:2] for line in lines) == [["[900]", "done"], ["[900]", "start"],
                                                          ["[901]", "done"], ["[901]", "start"]], lines
    assert "[900] start  900_ns3_sweep: first run here; log figures/logs/900.log" in lines


@pytest.mark.parametrize("mode", ["sequential", "overlapped"])
def test_neither_the_terminal_nor_the_logs_hold_errors_warnings_or_jit_messages(runs, mode):
    root, proc = runs[mode]
    logs = {p.name: p.read_text() for p in (root / "figures" / "logs").glob("*.log")}
    assert sorted(logs) == ["900.log", "901.log"]
    for name, text in [("terminal", proc.stdout + proc.stderr), *logs.items()]:
        assert not NOISE.findall(text), (name, text)


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


def test_a_second_run_expects_the_time_the_first_took(runs):
    root, _ = runs["overlapped"]
    (root / "figures" / "901" / "ledger.csv").unlink()  # 901 out of date again; 900 is up to date
    proc = _make(root, 2)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # make also says "'figures/900/ledger.csv' is up to date." (a goal with nothing to do)
    (start, done) = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert start.startswith("[901] start  901_real_time_wait: expect about ") and "(last run here)" in start
    assert done.startswith("[901] done   in ") and "(expected about " in done
