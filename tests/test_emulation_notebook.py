"""The notebooks' emulation helpers (paperlib/emulation/notebook.py): the capture cross-check through the cache.

No testbed: ``capture.crosscheck`` is replaced by a counter, so the test checks the caching, not the capture
(tests/test_emulation_experiments.py runs a real capture).
"""

import pandas as pd

from paperlib.emulation import capture
from paperlib.emulation import experiments as ex
from paperlib.emulation import notebook as emu_nb


def test_capture_table_is_measured_once_then_read_from_the_sweep_cache(tmp_path, monkeypatch):
    calls = []

    def fake_crosscheck(params, seed=1):
        calls.append((params["protocol"], seed))
        return {"protocol": params["protocol"], "rate_bps": params["rate_bps"], "app_latency_s": 1.0 + len(calls),
                "capture_latency_s": 1.0, "difference_s": float(len(calls)), "packets": 40}

    monkeypatch.setattr(capture, "crosscheck", fake_crosscheck)
    monkeypatch.setattr(ex, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(emu_nb, "_capture_code_version", lambda: "test")
    points = [{"protocol": p, "rate_bps": 1e5, "rep": 0, "objects": 1, "users": 1} for p in ("tcp", "sctp")]
    first = emu_nb.capture_table(points, tmp_path / "out")
    assert calls == [("tcp", 1), ("sctp", 1)]  # measured once per point, with the seed the notebook always used
    again = emu_nb.capture_table(points, tmp_path / "out2")
    assert len(calls) == 2  # a re-execution reads the cache: no new measurement, the same table
    pd.testing.assert_frame_equal(first, again)
    assert (tmp_path / "out2" / "emulated_capture_check.csv").read_text() == \
        (tmp_path / "out" / "emulated_capture_check.csv").read_text()
    assert emu_nb.capture_table([], tmp_path / "out3") is None  # emulation off or not run: no table


def test_capture_code_version_follows_the_capture_module():
    assert emu_nb._capture_code_version().startswith(ex.code_version() + "+capture-")
