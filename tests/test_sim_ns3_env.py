"""ns-3 is part of the environment: its bindings import and run a tiny simulation, and the package's loader (the
modules it simulates with) gives the same simulations as the wheel's loader of every module."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.ns3

PROGRAM = textwrap.dedent(
    """
    from paperlib.sim import ns3_env
    ns = ns3_env.load()
    ns.cppyy.cppdef('''
    #include "ns3/simulator.h"
    namespace tick { int count = 0; void Tick() { ++count; } }
    ''')
    ns.Simulator.Schedule(ns.Seconds(1.5), ns.cppyy.gbl.tick.Tick)
    ns.Simulator.Stop(ns.Seconds(2))
    ns.Simulator.Run()
    print(ns.Simulator.Now().GetSeconds(), ns.cppyy.gbl.tick.count)
    ns.Simulator.Destroy()
    """
)


def test_ns3_imports_and_runs_an_event(tmp_path):
    # Import from a small empty folder: ns-3's loader scans the working directory recursively.
    proc = subprocess.run([sys.executable, "-c", PROGRAM], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[-2:] == ["2.0", "1"]


def test_load_imports_once_and_restores_the_working_directory(tmp_path, monkeypatch):
    from paperlib.sim import ns3_env

    monkeypatch.chdir(tmp_path)
    ns = ns3_env.load()
    assert ns3_env.load() is ns  # once per process
    assert Path.cwd() == tmp_path
    assert ns.Seconds(1.5).GetSeconds() == 1.5


def test_a_failed_import_still_restores_the_working_directory(tmp_path, monkeypatch):
    from paperlib.sim import ns3_env

    monkeypatch.setenv(ns3_env.ALL_MODULES_VARIABLE, "1")  # the wheel's loader, which imports ``ns``
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "ns", None)  # "import ns" now raises ImportError
    ns3_env.load.cache_clear()
    try:
        with pytest.raises(ImportError):
            ns3_env.load()
        assert Path.cwd() == tmp_path
    finally:
        ns3_env.load.cache_clear()  # the next caller imports (from sys.modules, restored by monkeypatch) again


#: Which of the macros the wheel's loader can define (its ``LIBRARY_AND_DEFINES``: GSL, libxml2, SQLite, OpenFlow,
#: Click) are defined, and one small run of each of the package's ns-3 simulations (their unit tests' points, RED on
#: for the testbed).
SIMULATIONS = textwrap.dedent(
    """
    import json
    from paperlib.models.specweb96 import Workload
    from paperlib.sim import multiuser_narrowband, ns3_env, tcp_loss_transfer, web_bottleneck, web_testbed
    MACROS = ["HAVE_GSL", "HAVE_LIBXML2", "HAVE_SQLITE3", "NS3_OPENFLOW", "ENABLE_OPENFLOW", "NS3_CLICK"]
    narrow = {"obj_bytes": 13_500, "rate_bps": 40_000, "rtt_s": 0.256}
    tiny = Workload("tiny", (0.5, 0.5), (1024, 10 * 1024), "uniform", files_per_page=2)
    bottleneck = {"n_servers": 1, "k_clients": 3, "workload": web_bottleneck.workload_params(tiny), "sim_time_s": 6.0,
                  "warmup_s": 1.0, "inter_batch_s": 2.0, "queue_limit_packets": 40, "bottleneck_bps": 2e6}
    testbed = {"bottleneck_bps": 0.5e6, "browsers": 60, "sim_time_s": 20.0, "warmup_s": 4.0,
               "traffic": {"family": "parametric"}, "queue": "red", "queue_packets": 40, "red_min_th": 3.0,
               "red_max_th": 15.0, "red_weight": 1 / 32, "red_max_p": 0.1}
    ns = ns3_env.load()
    ns.cppyy.cppdef("namespace macros {" + "".join(
        f"\\n#ifdef {d}\\nint {d.lower()} = 1;\\n#else\\nint {d.lower()} = 0;\\n#endif\\n" for d in MACROS) + "}")
    print(json.dumps({
        "macros": [getattr(ns.cppyy.gbl.macros, d.lower()) for d in MACROS],
        "multiuser_narrowband": multiuser_narrowband.simulate({**narrow, "p": 0.05, "users": 3}, 4),
        "tcp_loss_transfer": tcp_loss_transfer.simulate({**narrow, "p": 0.05}, 4),
        "web_bottleneck": web_bottleneck.simulate(bottleneck, 5),
        "web_testbed": web_testbed.simulate(testbed, 3),
    }, sort_keys=True))
    """
)


def _in_process(program: str, tmp_path, all_modules: bool) -> str:
    """Run ``program`` in a fresh interpreter with the package's loader or the wheel's; return its last line."""
    env = {k: v for k, v in os.environ.items() if k != "WEBPERF_NS3_ALL_MODULES"}
    if all_modules:
        env["WEBPERF_NS3_ALL_MODULES"] = "1"
    proc = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()[-1]


@pytest.mark.slow
def test_the_package_loader_parses_and_simulates_as_the_wheel_loader_of_every_module(tmp_path):
    """Same program, one process per loader: the same macros defined, every result of the four simulations identical.

    The two loaders load the same shared libraries (the package's fewer of them) and parse the same headers with the
    same macros, so nothing a simulation computes can differ; a difference here means the package's loader has
    drifted from the wheel's (a new macro, a module missing from ``MODULES``).
    """
    from paperlib.sim import ns3_env

    package = json.loads(_in_process(SIMULATIONS, tmp_path, all_modules=False))
    wheel = json.loads(_in_process(SIMULATIONS, tmp_path, all_modules=True))
    candidates = ["HAVE_GSL", "HAVE_LIBXML2", "HAVE_SQLITE3", "NS3_OPENFLOW", "ENABLE_OPENFLOW", "NS3_CLICK"]
    assert package["macros"] == [int(d in ns3_env.DEFINES) for d in candidates]
    assert package["web_testbed"]["requests"] > 0 and package["web_testbed"]["early_drops"] > 0  # RED was exercised
    for name in wheel:
        assert package[name] == wheel[name], name
