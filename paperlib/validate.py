"""Argument checks that fail loudly, naming the parameter.

Used by every model function and by the notebooks' parameter cells, so an
impossible input (a negative rate, a loss ratio of 1, zero users) stops the
run with a message that says which parameter is wrong and why.
"""

from __future__ import annotations

import numpy as np


class ParameterError(ValueError):
    """An impossible or malformed parameter value."""


def _strict(name: str, value) -> None:
    """Raise unless ``value`` holds only numbers: no booleans, strings or ``None`` (YAML's ``true``, ``"0.05"``)."""
    if isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be a number, got the boolean {value!r}")
    if isinstance(value, (str, bytes)):
        raise ParameterError(f"{name} must be a number, got the string {value!r} (write it without quotes)")
    if value is None:
        raise ParameterError(f"{name} must be a number, got None")
    if isinstance(value, (list, tuple)):
        for item in value:
            _strict(name, item)
    elif isinstance(value, np.ndarray) and value.dtype.kind in "bUSO":
        if value.dtype.kind == "O":
            for item in value.flat:
                _strict(name, item)
        else:
            raise ParameterError(f"{name} must hold numbers, got an array of {value.dtype}")


def _numbers(name: str, value) -> np.ndarray:
    _strict(name, value)
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must be a number or an array of numbers, got {value!r}") from None
    if arr.size == 0:
        raise ParameterError(f"{name} is empty")
    return arr


def _no_nan(name: str, arr: np.ndarray) -> np.ndarray:
    if np.isnan(arr.sum()) and np.isnan(arr).any():  # a sum is NaN if any element is (or inf - inf)
        raise ParameterError(f"{name} contains NaN")
    return arr


def _array(name: str, value) -> np.ndarray:
    return _no_nan(name, _numbers(name, value))


def numbers(name: str, value) -> np.ndarray:
    """Return ``value`` as a float array; raise unless it holds only numbers and is not empty (no range check).

    A model with a compiled path (:mod:`paperlib.models.compiled`), which checks ranges in the same pass as it
    computes, converts its arguments with this, and calls the full checks (e.g. :func:`positive`) only when a
    point fails, for the error message.
    """
    return _numbers(name, value)


# The fast paths of the range checks: reductions only; a NaN fails every one of them.
_FAST = {
    "positive": lambda a: a.min() > 0 and a.max() < np.inf,
    "positive_or_inf": lambda a: a.min() > 0,
    "non_negative": lambda a: a.min() >= 0 and a.max() < np.inf,
}


def _first_bad(arr: np.ndarray, bad: np.ndarray):
    return (arr[bad].flat[0] if arr.ndim else arr).item()  # a Python float: the message says -1.0, not np.float64(-1.0)


def positive(name: str, value) -> np.ndarray:
    """Return ``value`` as a float array; raise unless every element is > 0 and finite."""
    arr = _numbers(name, value)
    if _FAST["positive"](arr):  # two reductions, no temporaries (the fast path; NaN fails it)
        return arr
    _no_nan(name, arr)
    bad = ~(np.isfinite(arr) & (arr > 0))
    if bad.any():
        raise ParameterError(f"{name} must be positive and finite, got {_first_bad(arr, bad)!r}")
    return arr


def positive_or_inf(name: str, value) -> np.ndarray:
    """Return ``value`` as a float array; raise unless every element is > 0 (infinity allowed)."""
    arr = _numbers(name, value)
    if _FAST["positive_or_inf"](arr):  # one reduction (the fast path; NaN fails it)
        return arr
    _no_nan(name, arr)
    bad = ~(arr > 0)
    if bad.any():
        raise ParameterError(f"{name} must be positive, got {_first_bad(arr, bad)!r}")
    return arr


def non_negative(name: str, value) -> np.ndarray:
    """Return ``value`` as a float array; raise unless every element is >= 0 and finite."""
    arr = _numbers(name, value)
    if _FAST["non_negative"](arr):  # the fast path; NaN fails it
        return arr
    _no_nan(name, arr)
    bad = ~(np.isfinite(arr) & (arr >= 0))
    if bad.any():
        raise ParameterError(f"{name} must be non-negative and finite, got {_first_bad(arr, bad)!r}")
    return arr


def probability(name: str, value) -> np.ndarray:
    """Return a loss probability as a float array; raise unless every element is in [0, 1)."""
    arr = _numbers(name, value)
    if arr.min() >= 0 and arr.max() < 1:  # the fast path; NaN fails it
        return arr
    _no_nan(name, arr)
    bad = ~((arr >= 0) & (arr < 1))
    if bad.any():
        raise ParameterError(f"{name} must be in [0, 1), got {_first_bad(arr, bad)!r}")
    return arr


def positive_integer(name: str, value) -> np.ndarray:
    """Return ``value`` as a float array of whole numbers >= 1; raise otherwise."""
    arr = positive(name, value)
    if _whole(arr):
        return arr
    bad = arr != np.floor(arr)
    raise ParameterError(f"{name} must be a whole number >= 1, got {_first_bad(arr, bad)!r}")


_WHOLE_BLOCK = 1 << 15  # elements per block of the whole-number check: two buffers of it stay in cache


def _whole(arr: np.ndarray) -> bool:
    """Return True if every element of the finite array ``arr`` is a whole number (floor(a) == a).

    Checked block by block into two small reused buffers, so a large array is read once and no
    array of its size is allocated.
    """
    flat = arr.reshape(-1)  # a view of a contiguous array (a copy otherwise)
    if flat.size <= _WHOLE_BLOCK:
        return not (np.floor(flat) != flat).any()
    floors = np.empty(_WHOLE_BLOCK)
    differs = np.empty(_WHOLE_BLOCK, dtype=bool)
    for start in range(0, flat.size, _WHOLE_BLOCK):
        part = flat[start:start + _WHOLE_BLOCK]
        k = part.size
        np.floor(part, out=floors[:k])
        if np.not_equal(floors[:k], part, out=differs[:k]).any():
            return False
    return True


def choice(name: str, value, allowed) -> object:
    """Return ``value`` if it is one of ``allowed``; raise naming the parameter otherwise."""
    if value not in allowed:
        raise ParameterError(f"{name} must be one of {tuple(allowed)!r}, got {value!r}")
    return value


def flag(name: str, value) -> bool:
    """Return ``value`` if it is a boolean (Python or numpy); raise naming the parameter otherwise."""
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def scalar(name: str, value, check=None) -> float:
    """Return ``value`` as one float (checked by ``check``, e.g. :func:`positive`); raise if it is a list."""
    if isinstance(value, (list, tuple, dict, set)) or np.ndim(value) != 0:
        raise ParameterError(f"{name} must be a single number, got {value!r:.200}")
    arr = (check or _array)(name, value)
    return float(arr.reshape(-1)[0])


def grid(name: str, value, check, max_size: int) -> np.ndarray | None:
    """Return a what-if's list of values as a 1-D array checked by ``check`` (e.g. :func:`positive`), or None.

    ``None`` stays None (the caller's default grid); a nested list or more than ``max_size`` values raise
    naming ``name`` (:func:`at_most`), before any work starts.
    """
    if value is None:
        return None
    arr = np.atleast_1d(check(name, value))
    if arr.ndim != 1:
        raise ParameterError(f"{name} must be a list of numbers, got {value!r:.200}")
    at_most(name, "the number of values", arr.size, max_size)
    return arr


def at_most(name: str, what: str, estimate: float, limit: float, hint: str = "") -> None:
    """Raise naming ``name`` if the estimated work ``estimate`` (``what``) exceeds ``limit``.

    The cost bound of a what-if: called before the work starts, so a huge value fails in
    milliseconds instead of exhausting memory or running for hours.
    """
    if not estimate <= limit:  # also catches NaN
        raise ParameterError(f"{name}: {what} would be {estimate:.4g}, above the limit of {limit:.4g}"
                             + (f" ({hint})" if hint else ""))
