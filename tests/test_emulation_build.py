"""C programs compiled once per source hash, atomically (paperlib.emulation.build). Needs gcc, which
make reproduce and make test install first (tools/prereqs.sh); about 1 s."""

import json
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


# --- linkemu's lateness histogram, compiled alone (-DLINKEMU_LATENESS_TEST: values on stdin, one JSON line) ---

def _lateness(exe, values) -> dict:
    out = subprocess.run([str(exe)], input="\n".join(str(int(v)) for v in values) + "\n", capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["lateness"]


@pytest.fixture(scope="module")
def histogram(tmp_path_factory):
    target = tmp_path_factory.mktemp("linkemu") / "lateness"
    return build.compile_into(build.HERE / "linkemu.c", target,
                              ("-std=gnu99", "-O2", "-Wall", "-Wno-unused-function", "-DLINKEMU_LATENESS_TEST"))


def test_lateness_quantiles_agree_with_numpy(histogram):
    import numpy as np

    rng = np.random.default_rng(31)
    # exponential lateness (mean 20 us), a heavy tail (mean 2 ms) and bucket edges; all below 100 ms
    values = np.concatenate([rng.exponential(20e3, 900), rng.exponential(2e6, 95),
                             [0, 999, 1000, 1999, 2000, 99_999_999]]).astype(np.int64)
    got = _lateness(histogram, values)
    # the k-th smallest value, k = ceil(q n) (numpy's inverted_cdf), floored to its 1 us bucket
    for key, q in (("median_ns", 50), ("p99_ns", 99)):
        exact = int(np.percentile(values, q, method="inverted_cdf"))
        assert got[key] == exact // 1000 * 1000
        assert 0 <= exact - got[key] < 1000  # the stated error: under 1 us, never above
    assert got["n"] == values.size and got["max_ns"] == int(values.max()) and got["overflow"] == 0


def test_lateness_beyond_the_histogram_reports_the_maximum(histogram):
    # 98 packets 1.5 us late, two beyond 100 ms: the median (50th smallest) is 1.5 us, in bucket 1 -> 1000 ns;
    # the p99 (99th smallest = 200 ms) lies in the overflow, so the exact maximum (300 ms) bounds it from above
    got = _lateness(histogram, [1500] * 98 + [200_000_000, 300_000_000])
    assert got == {"n": 100, "median_ns": 1000, "p99_ns": 300_000_000, "max_ns": 300_000_000, "overflow": 2}
    # a negative difference (never produced: a packet is not written before its time) counts as 0
    assert _lateness(histogram, [-5])["median_ns"] == 0
