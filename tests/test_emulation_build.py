"""C programs compiled once per source hash, atomically (paperlib.emulation.build). Needs gcc, which
make reproduce and make test install first (tools/prereqs.sh); about 1 s."""

import subprocess

import pytest

from paperlib.emulation import build

HELLO = '#include <stdio.h>\nint main(void) { printf("%d\\n", 6 * 7); return 0; }\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CACHE", tmp_path / "cache")
    return tmp_path / "cache"


def test_compiled_once_per_source(tmp_path, cache):
    src = tmp_path / "hello.c"
    src.write_text(HELLO)
    exe = build.compile_c(src, "hello")
    assert exe.parent == cache and exe.name.startswith("hello-")
    assert subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout == "42\n"
    before = exe.stat().st_mtime_ns
    assert build.compile_c(src, "hello") == exe and exe.stat().st_mtime_ns == before  # not rebuilt
    assert build.compile_c(src, "hello", libs=("-lm",)) != exe  # other libraries: another program
    src.write_text(HELLO.replace("6 * 7", "6 * 8"))
    changed = build.compile_c(src, "hello")
    assert changed != exe and subprocess.run([str(changed)], capture_output=True, text=True).stdout == "48\n"


def test_a_failed_build_names_the_error_and_leaves_nothing(tmp_path, cache):
    src = tmp_path / "broken.c"
    src.write_text("int main(void) { return undeclared_name; }\n")
    with pytest.raises(build.BuildError, match="(?s)compiling broken.c failed:.*undeclared_name"):
        build.compile_c(src, "broken")
    assert list(cache.iterdir()) == []  # no half-written program, no temporary file


def test_no_compiler_is_named(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    (tmp_path / "a.c").write_text(HELLO)
    with pytest.raises(build.BuildError, match="no C compiler to build a.c: install gcc"):
        build.compile_into(tmp_path / "a.c", cache / "a")
