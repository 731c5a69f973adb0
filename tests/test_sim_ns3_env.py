"""ns-3 is part of the environment: its bindings import and run a tiny simulation."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.ns3

PROGRAM = textwrap.dedent(
    """
    from ns import ns
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

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "ns", None)  # "import ns" now raises ImportError
    ns3_env.load.cache_clear()
    try:
        with pytest.raises(ImportError):
            ns3_env.load()
        assert Path.cwd() == tmp_path
    finally:
        ns3_env.load.cache_clear()  # the next caller imports (from sys.modules, restored by monkeypatch) again
