"""Later passes of a real-stack sweep (paperlib.emulation.later_tries): a point that lost its timing runs again after
the others, same parameters and seed, up to two more passes, each cached as a point of its own."""

import pytest
import sweep_helpers

from paperlib import sweep
from paperlib.emulation import later_tries
from paperlib.validate import ParameterError


def _run(tmp_path, points, passes=later_tries.LATER_PASSES):
    return later_tries.run_sweep_kept(sweep_helpers.timing_lost_until, points, cache_dir=tmp_path / "cache",
                                      code_version="v1", scheduler="synchronous", progress=False, passes=passes)


def _calls(log) -> list[str]:
    return log.read_text().split()


def test_a_lost_point_runs_again_after_the_others_with_its_own_seed(tmp_path):
    log = tmp_path / "calls"
    points = [{"x": 1, "log": str(log), "keeps_from": 2}, {"x": 2, "log": str(log)},
              {"x": 3, "log": str(log), "keeps_from": 0}]
    out = _run(tmp_path, points)
    # point 1 lost its timing on the sweep, kept it on the first later pass; point 3 never keeps it: two later
    # passes; point 2 ran once. The later passes come after the whole sweep: 1, 2, 3, then 1 and 3, then 3.
    assert _calls(log) == ["1", "2", "3", "1", "3", "3"]
    assert out.fidelity_passes.tolist() == [1, 0, 2] and out.fidelity_kept.tolist() == [True, True, False]
    # the tries add up over the passes (3 per pass here), and every pass ran the point's own seed
    assert out.fidelity_tries.tolist() == [6, 3, 9]
    assert out.seed_seen.tolist() == [sweep.point_seed(p) for p in points] == out.seed.tolist()
    # the frame keeps the point's parameters and order, with the later pass's result in place of the first
    assert out.x.tolist() == [1, 2, 3] and out.call.tolist() == [2, 1, 3]


def test_the_later_passes_are_read_back_from_the_cache(tmp_path):
    log = tmp_path / "calls"
    points = [{"x": 1, "log": str(log), "keeps_from": 2}, {"x": 2, "log": str(log)}]
    first = _run(tmp_path, points)
    again = _run(tmp_path, points)
    assert _calls(log) == ["1", "2", "1"]  # nothing runs the second time
    assert again.equals(first)


def test_no_later_pass_when_asked_for_none_or_when_results_carry_no_fidelity(tmp_path):
    log = tmp_path / "calls"
    out = _run(tmp_path, [{"x": 1, "log": str(log), "keeps_from": 0}], passes=0)
    assert _calls(log) == ["1"] and out.fidelity_passes.tolist() == [0]
    plain = later_tries.run_sweep_kept(sweep_helpers.square, [{"x": 2}], cache_dir=tmp_path / "c2",
                                       code_version="v1", scheduler="synchronous", progress=False)
    assert plain.fidelity_passes.tolist() == [0]
    with pytest.raises(ParameterError, match="passes"):
        _run(tmp_path, [{"x": 1, "log": str(log)}], passes=-1)
    with pytest.raises(ParameterError, match="module-level"):
        later_tries.function_name(lambda p, s: {})
