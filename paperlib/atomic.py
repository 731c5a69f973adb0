"""Atomic writes: a reader sees the old file or the new one, never half of one.

Every output of the package goes through :func:`atomic_write_bytes`: the bytes
go to a temporary file in the same folder, are flushed and fsynced, and the
temporary file is renamed over the target (``os.replace`` is atomic on POSIX).
An exception or a kill before the rename leaves the previous file intact and
the temporary file is removed (or, after a hard kill, left as ``.<name>.*.tmp``,
which nothing reads).
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def atomic_write_bytes(path: Path | str, data: bytes | Iterable[bytes]) -> Path:
    """Write ``data`` (bytes, or an iterable of byte chunks) to ``path`` atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, (bytes, bytearray)):
                fh.write(data)
            else:
                for chunk in data:
                    fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def atomic_write_text(path: Path | str, text: str) -> Path:
    r"""Write ``text`` as UTF-8 with ``\n`` line ends to ``path`` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_csv(path: Path | str, frame) -> Path:
    r"""Write a pandas DataFrame as CSV (no index, ``\n`` line ends) atomically."""
    buf = io.StringIO()
    frame.to_csv(buf, index=False, lineterminator="\n")
    return atomic_write_text(path, buf.getvalue())


def replace_folder(new: Path | str, out: Path | str) -> Path:
    """Replace the folder ``out`` by the complete folder ``new`` (same file system); return ``out``.

    The old ``out`` stays whole until one rename puts ``new`` in its place, so a reader sees the old folder or the
    new one, never a mixture; the old one is removed afterwards.
    """
    import shutil

    new, out = Path(new), Path(out)
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, old / out.name)
        os.replace(new, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(new, out)
    return out
