"""Paper 001's notebook parameters: checked before anything runs, and the profile they make.

The notebook's parameters pick a profile of :mod:`~paperlib.reproduce.p001.testbed` (``scaled``,
``sensitivity``, ``full``) and override parts of it (bottleneck rate, replications, run length,
warm-up, calibration counts); :func:`run_profile` returns the profile the run uses and
:func:`check` checks every parameter, raising :class:`paperlib.validate.ParameterError` naming
the bad one before the notebook writes anything, and returns them with that profile
(:class:`RunParameters`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from paperlib import validate
from paperlib.data import load_paper
from paperlib.emulation import experiments
from paperlib.parameters import Parameters
from paperlib.reproduce.p001 import testbed
from paperlib.reproduce.p001.testbed import Profile


@dataclass(frozen=True, kw_only=True)
class RunParameters(Parameters):
    """The notebook's parameters, checked (a mapping of their values), and the profile of the run they make.

    ``params["profile"]`` is the profile's name as given; ``params.profile`` the
    :class:`~paperlib.reproduce.p001.testbed.Profile` with the overrides applied (:func:`run_profile`).
    """

    profile: Profile


def apply_overrides(prof: Profile, *, bottleneck_bps=None, reps=None, sim_time_s=None, warmup_s=None,
                    calibration_browsers=None) -> Profile:
    """Return ``prof`` with the notebook's non-None overrides applied, validated (errors name the parameter)."""
    if bottleneck_bps is not None:
        prof = replace(prof, bottleneck_bps=float(validate.positive("bottleneck_bps", bottleneck_bps)))
    if reps is not None:
        prof = replace(prof, reps=int(validate.positive_integer("reps", reps)))
    if sim_time_s is not None:
        prof = replace(prof, sim_time_s=float(validate.positive("sim_time_s", sim_time_s)))
    if warmup_s is not None:
        prof = replace(prof, warmup_s=float(validate.non_negative("warmup_s", warmup_s)))
    if prof.sim_time_s <= prof.warmup_s:
        raise validate.ParameterError(f"sim_time_s ({prof.sim_time_s}) must exceed warmup_s ({prof.warmup_s})")
    if calibration_browsers is not None:
        counts = tuple(int(validate.positive_integer("calibration_browsers", x)) for x in calibration_browsers)
        prof = replace(prof, calibration_browsers=counts)
    return prof


def run_profile(profile: str = "scaled", *, bottleneck_bps=None, reps=None, sim_time_s=None, warmup_s=None,
                calibration_browsers=None) -> Profile:
    """Return the profile called ``profile`` with the notebook's overrides (``None``: the profile's value)."""
    return apply_overrides(testbed.profile(profile), bottleneck_bps=bottleneck_bps, reps=reps, sim_time_s=sim_time_s,
                           warmup_s=warmup_s, calibration_browsers=calibration_browsers)


def check(*, profile="scaled", latency_reading=testbed.LATENCY_READING, bottleneck_bps=None, reps=None,
          sim_time_s=None, warmup_s=None, calibration_browsers=None, configs=None, run_scale_check=True,
          run_latency_check=True, run_table3_counts=True, scale_check_sim_time_s=25.0, n_samples=200_000,
          scheduler=None, n_workers=None, compare_with=None, seed=20261122, emulation="reduced",
          emulation_lock="emulation") -> RunParameters:
    """Check the notebook's parameters (defaults: the notebook's); return them with the run's profile.

    Raises :class:`paperlib.validate.ParameterError` naming the parameter: an unknown
    ``latency_reading``, ``profile`` or queue configuration in ``configs``, a profile override out
    of range (:func:`apply_overrides`), ``n_samples`` not a positive integer,
    ``scale_check_sim_time_s`` not positive, ``seed`` negative, ``emulation`` not a real-stack profile
    ("reduced", "full", "off"), ``emulation_lock`` neither None nor a lock's name.
    """
    values = dict(locals())  # every parameter, by name, before anything else is bound
    validate.choice("latency_reading", latency_reading, ("one_way", "rtt"))
    prof = run_profile(profile, bottleneck_bps=bottleneck_bps, reps=reps, sim_time_s=sim_time_s, warmup_s=warmup_s,
                       calibration_browsers=calibration_browsers)
    validate.positive_integer("n_samples", n_samples)
    validate.positive("scale_check_sim_time_s", scale_check_sim_time_s)
    validate.non_negative("seed", seed)
    experiments.check_profile(emulation)
    if emulation_lock is not None and not (isinstance(emulation_lock, str) and emulation_lock.isidentifier()):
        raise validate.ParameterError(f"emulation_lock must be None or a lock's name, got {emulation_lock!r}")
    if configs is not None:
        known = tuple(testbed.queue_configs(load_paper("001")))
        for name in configs:
            validate.choice("configs", name, known)
    return RunParameters(values, profile=prof)
