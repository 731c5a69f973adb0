"""tools/timeline_summary.py: where the two workers of make test spent the run, from the timeline conftest writes."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import timeline_summary  # noqa: E402


def _timeline(tmp_path, lines) -> Path:
    path = tmp_path / "timeline.tsv"
    path.write_text("".join("\t".join(str(f) for f in line) + "\n" for line in lines))
    return path


def test_the_summary_splits_each_workers_time_into_tests_waits_and_gaps(tmp_path):
    # gw0: a test 0-10 s, then an exclusive test asked at 10, started at 12 (gw1's test ran until 12), ended 20.
    # gw1: a test 0-12 s, asked for the next at 12, waited for gw0's exclusive test until 20, ran 20-25.
    path = _timeline(tmp_path, [
        ("gw0", 100.0, 100.0, 110.0, 0, "tests/test_a.py::test_one"),
        ("gw0", 110.0, 112.0, 120.0, 1, "tests/test_a.py::test_alone"),
        ("gw1", 100.0, 100.0, 112.0, 0, "tests/test_b.py::test_long"),
        ("gw1", 112.0, 120.0, 125.0, 0, "tests/test_b.py::test_after"),
    ])
    text = timeline_summary.summary(timeline_summary.read(path), top=2)
    lines = text.splitlines()
    assert lines[0] == "4 tests, 25.0 s from the first test's turn to the last test's end"
    # gw0: 10 + 8 = 18 s in tests (8 alone), 2 s waiting, 25 - 18 - 2 = 5 s after its last test
    assert lines[1] == ("  gw0: 2 tests, 18.0 s in tests (8.0 s of them alone), 2.0 s waiting for a turn, "
                        "5.0 s between tests or after its last")
    # gw1: 12 + 5 = 17 s in tests, 8 s waiting, 0 s between
    assert lines[2] == ("  gw1: 2 tests, 17.0 s in tests (0.0 s of them alone), 8.0 s waiting for a turn, "
                        "0.0 s between tests or after its last")
    assert lines[4] == "      8.0 s  gw1  tests/test_b.py::test_after"  # the longest wait first
    assert lines[-1] == "      8.0 s  tests/test_a.py::test_alone"


def test_a_malformed_line_is_named(tmp_path):
    path = _timeline(tmp_path, [("gw0", 1.0, 2.0, 3.0, 0, "t::a"), ("gw0", "x", 2.0, 3.0, 0, "t::b")])
    with pytest.raises(ValueError, match="line 2: the times are not numbers"):
        timeline_summary.read(path)
    path.write_text("gw0\t1\t2\n")
    with pytest.raises(ValueError, match="line 1: expected 6 tab-separated fields, got 3"):
        timeline_summary.read(path)
    assert timeline_summary.main([str(path)]) == 2


def test_the_conftest_writes_one_line_per_test(tmp_path):
    # the suite's own hook, run by a pytest in a subprocess over a tiny test file, without workers
    import subprocess

    (tmp_path / "test_tiny.py").write_text("import pytest\n\ndef test_x():\n    pass\n\n"
                                           "@pytest.mark.exclusive\ndef test_y():\n    pass\n")
    (tmp_path / "conftest.py").write_text((REPO / "tests" / "conftest.py").read_text())
    timeline = tmp_path / "t.tsv"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "-c", "/dev/null", "--rootdir", str(tmp_path), str(tmp_path / "test_tiny.py")],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**__import__("os").environ, "WEBPERF_TEST_TIMELINE": str(timeline)}, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    entries = timeline_summary.read(timeline)
    assert [(e.worker, e.exclusive, e.nodeid.split("::")[1]) for e in entries] == [
        ("main", False, "test_x"), ("main", True, "test_y")]
    assert all(e.asked <= e.started <= e.ended for e in entries)
