"""Sample moments against model moments: is a seeded sample's mean where the model's exact mean says?

A workload model that can both compute its exact mean and draw samples is checked by drawing a
large seeded sample and measuring how many standard errors its mean lies from the exact mean::

    z = (sample mean - exact mean) / (sd / sqrt(n))

(the central limit theorem: for a correct sampler and finite variance, ``z`` is approximately
standard normal, so ``|z|`` above about 4 is a one-in-15 000 event and points at a bug). ``sd``
is the model's exact standard deviation when it has one (paper 003's SPECweb96 workloads),
otherwise the sample's own (paper 001's traffic model, whose heavy tails have no closed-form
variance in every reading).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MeanCheck:
    """A seeded sample's mean beside the model's exact mean, in the sample's units."""

    exact_mean: float
    sample_mean: float
    #: sd / sqrt(n): the exact sd when the model gives one, else the sample's (ddof 0)
    standard_error: float
    #: (sample mean - exact mean) / standard error
    z: float
    n: int

    def within(self, k: float = 4.0) -> bool:
        """Return whether the sample mean lies within ``k`` standard errors of the exact mean."""
        return bool(abs(self.z) <= k)


def mean_check(sample, exact_mean: float, *, exact_sd: float | None = None) -> MeanCheck:
    """Return the z score of ``sample``'s mean against ``exact_mean`` (see the module docstring).

    Parameters
    ----------
    sample : array_like
        The seeded sample (at least two values), in the units of ``exact_mean``.
    exact_mean : float
        The model's exact mean.
    exact_sd : float, optional
        The model's exact standard deviation; ``None``: the sample's (``ddof=0``).
    """
    x = np.asarray(sample, dtype=float)
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"sample must be a one-dimensional array of at least two values, got shape {x.shape}")
    if exact_sd is not None and not (np.isfinite(exact_sd) and exact_sd > 0):
        raise ValueError(f"exact_sd must be a positive finite number, got {exact_sd!r}")
    sd = x.std() if exact_sd is None else exact_sd
    se = sd / np.sqrt(x.size)
    sample_mean = x.mean()
    return MeanCheck(exact_mean=exact_mean, sample_mean=sample_mean, standard_error=float(se),
                     z=(sample_mean - exact_mean) / se, n=int(x.size))


def mean_check_columns(check: MeanCheck, unit: str = "") -> dict[str, float]:
    """Return the check as a table's columns: ``exact mean``, ``sample mean`` (with `` (unit)``) and ``z``."""
    suffix = f" ({unit})" if unit else ""
    return {f"exact mean{suffix}": check.exact_mean, f"sample mean{suffix}": check.sample_mean, "z": check.z}
