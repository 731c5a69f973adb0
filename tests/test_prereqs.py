"""tools/check_prereqs.sh: a missing prerequisite stops the bootstrap with a message naming what to install;
what only the emulated testbed needs is named without failing it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHECK = REPO / "tools" / "check_prereqs.sh"


def _run_with_path(tmp_path, tools):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name, target in tools.items():
        (bindir / name).symlink_to(target)
    env = {**os.environ, "PATH": str(bindir)}
    return subprocess.run(["/bin/bash", str(CHECK), "python3"], env=env, capture_output=True, text=True)


def test_all_present_passes(tmp_path):
    proc = subprocess.run(["/bin/bash", str(CHECK), sys.executable], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_missing_compiler_is_named(tmp_path):
    git = subprocess.run(["which", "git"], capture_output=True, text=True).stdout.strip()
    proc = _run_with_path(tmp_path, {"python3": sys.executable, "git": git})
    assert proc.returncode == 1
    assert "g++" in proc.stderr and "apt-get install" in proc.stderr


def test_missing_python_is_named(tmp_path):
    proc = _run_with_path(tmp_path, {})
    assert proc.returncode == 1
    assert "'python3' not found" in proc.stderr and "Install Python 3.11-3.13" in proc.stderr


def test_too_old_python_is_named(tmp_path):
    fake = tmp_path / "old-python"
    fake.write_text("#!/bin/bash\nif [[ $1 == -V ]]; then echo 'Python 3.9.2'; exit 0; fi\nexit 1\n")
    fake.chmod(0o755)
    proc = subprocess.run(["/bin/bash", str(CHECK), str(fake)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Python 3.9.2" in proc.stderr and "not supported" in proc.stderr


def test_missing_emulation_tools_are_named_but_optional(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    # everything the package itself needs, nothing the testbed needs (no ip, gcc, tcpdump)
    for name in ("git", "g++"):
        (bindir / name).symlink_to(shutil.which(name))
    (bindir / "python3").symlink_to(sys.executable)
    proc = subprocess.run(["/bin/bash", str(CHECK), "python3"], env={**os.environ, "PATH": str(bindir)},
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for name in ("iproute2", "gcc", "tcpdump"):
        assert name in proc.stderr
