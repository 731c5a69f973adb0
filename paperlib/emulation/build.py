"""Compile the package's C programs with gcc into a cache folder keyed by the source's hash."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("WEBPERF_EMU_CACHE", HERE.parent.parent / ".cache" / "emulation"))


class BuildError(RuntimeError):
    """A C program of the testbed could not be compiled."""


def compile_into(source: Path, target: Path, flags: tuple[str, ...] = ("-O2", "-Wall"), libs: tuple[str, ...] = (),
                 *, timeout_s: float = 120) -> Path:
    """Compile ``source`` with gcc into ``target``, atomically: a temporary file in the target's folder,
    renamed into place on success and removed on any failure (concurrent or interrupted builds never
    leave a half-written program). Raises :class:`BuildError` naming gcc's complaint."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise BuildError(f"no C compiler to build {source.name}: install gcc (Debian: apt-get install gcc)")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        proc = subprocess.run([gcc, *flags, "-o", tmp, str(source), *libs], capture_output=True, text=True,
                              timeout=timeout_s)
        if proc.returncode != 0:
            raise BuildError(f"compiling {source.name} failed:\n{proc.stderr.strip()}")
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def compile_c(source: Path, name: str, libs: tuple[str, ...] = ()) -> Path:
    """Return the path of ``source`` compiled with ``gcc -O2`` (built once per source hash)."""
    digest = hashlib.sha256(source.read_bytes() + " ".join(libs).encode()).hexdigest()[:16]
    out = CACHE / f"{name}-{digest}"
    if out.exists():
        return out
    return compile_into(source, out, ("-O2", "-Wall"), libs)


def linkemu() -> Path:
    """Return the compiled link emulator (``linkemu.c``, linked with libm for RED's average)."""
    return compile_c(HERE / "linkemu.c", "linkemu", ("-lm",))
