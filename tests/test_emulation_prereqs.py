"""The prerequisite check names what the emulated testbed lacks, without failing the bootstrap (< 1 s)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

CHECK = Path(__file__).resolve().parent.parent / "tools" / "check_prereqs.sh"


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
