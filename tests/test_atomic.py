"""An interrupted write leaves the previous file intact and no partial file behind."""

import os
import signal
import subprocess
import sys
import time

import pytest

from paperlib.atomic import atomic_write_bytes, atomic_write_text


def test_exception_mid_write_keeps_previous_file(tmp_path):
    target = tmp_path / "ledger.csv"
    atomic_write_text(target, "old,complete\n")

    def chunks():
        yield b"new,half"
        raise KeyboardInterrupt  # as if the user hit Ctrl-C half way

    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(target, chunks())
    assert target.read_text() == "old,complete\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger.csv"]


def test_killed_writer_keeps_previous_file(tmp_path):
    target = tmp_path / "table.csv"
    atomic_write_text(target, "old\n")
    started = tmp_path / "started"
    child = f"""
import time
from pathlib import Path
from paperlib.atomic import atomic_write_bytes
def chunks():
    yield b"new first half"
    Path({str(started)!r}).touch()
    time.sleep(60)
    yield b"never"
atomic_write_bytes({str(target)!r}, chunks())
"""
    proc = subprocess.Popen([sys.executable, "-c", child])
    deadline = time.monotonic() + 30
    while not started.exists():
        assert time.monotonic() < deadline, "child never started writing"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert target.read_text() == "old\n"
    # a hard kill may leave the temporary file; it is hidden and never read as output
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in ("table.csv", "started")]
    assert all(n.startswith(".table.csv.") and n.endswith(".tmp") for n in leftovers)


def test_successful_write_replaces(tmp_path):
    target = tmp_path / "sub" / "f.txt"
    atomic_write_text(target, "a")
    atomic_write_text(target, "b")
    assert target.read_text() == "b"


def test_replace_folder_swaps_a_whole_folder_and_leaves_no_old_copy(tmp_path):
    from paperlib.atomic import replace_folder

    out, new = tmp_path / "site", tmp_path / "site.new"
    out.mkdir()
    (out / "old.txt").write_text("old")
    new.mkdir()
    (new / "new.txt").write_text("new")
    assert replace_folder(new, out) == out
    # the old folder's file is gone with it, the new one's is there, and nothing else is left beside them
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    fresh = tmp_path / "fresh.new"
    fresh.mkdir()
    assert replace_folder(fresh, tmp_path / "fresh") == tmp_path / "fresh" and not fresh.exists()
