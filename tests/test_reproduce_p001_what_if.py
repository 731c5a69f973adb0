"""Paper 001's notebook parameters: overrides of a profile, and the check that names a bad parameter."""

import pytest

from paperlib.parameters import Parameters
from paperlib.reproduce.p001 import testbed, what_if
from paperlib.validate import ParameterError


def test_overrides_apply_and_are_validated():
    prof = what_if.apply_overrides(testbed.profile("scaled"), reps=3, calibration_browsers=[10, 20])
    assert prof.reps == 3 and prof.calibration_counts() == (10, 20)
    with pytest.raises(ParameterError, match="sim_time_s"):
        what_if.apply_overrides(testbed.profile("scaled"), sim_time_s=5.0)  # below the 10 s warm-up
    assert what_if.run_profile("sensitivity", bottleneck_bps=5e5).bottleneck_bps == 5e5


def test_check_returns_the_parameters_with_the_profile_of_the_notebook_defaults():
    params = what_if.check()
    assert isinstance(params, Parameters)
    assert params.profile == testbed.profile("scaled") and params["profile"] == "scaled"
    assert params["seed"] == 20261122 and params["configs"] is None  # every parameter, defaults included
    assert len(params) == 19  # with emulation and emulation_lock
    given = what_if.check(profile="full", reps=2)
    assert given.profile.reps == 2 and given.profile.name == "full" and given["reps"] == 2


@pytest.mark.parametrize("bad, name", [
    ({"profile": "huge"}, "profile"), ({"latency_reading": "both"}, "latency_reading"), ({"reps": 0}, "reps"),
    ({"bottleneck_bps": -1.0}, "bottleneck_bps"), ({"warmup_s": -1.0}, "warmup_s"), ({"n_samples": 0}, "n_samples"),
    ({"scale_check_sim_time_s": 0.0}, "scale_check_sim_time_s"), ({"seed": -1}, "seed"),
    ({"configs": ["FIFO-999"]}, "configs"), ({"calibration_browsers": [0]}, "calibration_browsers"),
])
def test_a_bad_parameter_is_named(bad, name):
    with pytest.raises(ParameterError, match=name):
        what_if.check(**bad)
