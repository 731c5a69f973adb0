"""Compile the package's C programs with gcc into a cache folder keyed by the source's hash."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("WEBPERF_EMU_CACHE", HERE.parent.parent / ".cache" / "emulation"))


class BuildError(RuntimeError):
    """A C program of the testbed could not be compiled."""


def compile_c(source: Path, name: str, libs: tuple[str, ...] = ()) -> Path:
    """Return the path of ``source`` compiled with ``gcc -O2`` (built once per source hash)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise BuildError("gcc not found: install it (Debian: apt-get install gcc) to build the link emulator")
    digest = hashlib.sha256(source.read_bytes() + " ".join(libs).encode()).hexdigest()[:16]
    out = CACHE / f"{name}-{digest}"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    proc = subprocess.run([gcc, "-O2", "-Wall", "-o", str(tmp), str(source), *libs], capture_output=True, text=True)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise BuildError(f"gcc failed on {source}:\n{proc.stderr}")
    os.replace(tmp, out)
    return out


def linkemu() -> Path:
    """Return the compiled link emulator (``linkemu.c``)."""
    return compile_c(HERE / "linkemu.c", "linkemu")
