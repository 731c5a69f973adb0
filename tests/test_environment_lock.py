"""requirements.lock installs on every Python that pyproject.toml admits, down to the lowest.

A lock made on a newer interpreter can pin a release that refuses an older one: soupsieve 3.0.2 and later need
Python >= 3.11.5, and Debian 12's python3.11 is 3.11.2, so a fresh Debian machine's bootstrap failed at pip. The
environment the tests run in holds exactly the lock's pins (``make`` installs them), so each pin's own
``Requires-Python`` is read from its installed metadata, without the network.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parent.parent


def lowest_python(requires_python: str) -> Version:
    """Return the lowest Python version a ``requires-python`` specifier admits (its ``>=`` bound, padded to x.y.0)."""
    floors = [Version(s.version) for s in SpecifierSet(requires_python) if s.operator in (">=", "==", "~=")]
    if not floors:
        raise ValueError(f"requires-python {requires_python!r} has no lower bound")
    low = max(floors)
    return Version(".".join(map(str, (*low.release, 0, 0)[:3])))


def pins(lock: Path) -> dict[str, str]:
    """Return the lock's pins: canonical name -> version."""
    found = {}
    for line in lock.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)", line)
        if m:
            found[canonicalize_name(m.group(1))] = m.group(2)
    return found


def refusing(requires: dict[str, str | None], python: Version) -> dict[str, str]:
    """Return the packages (name -> their Requires-Python) that refuse ``python``."""
    return {name: spec for name, spec in requires.items() if spec and not SpecifierSet(spec).contains(python)}


def test_the_lowest_python_of_a_specifier():
    assert lowest_python(">=3.11,<3.14") == Version("3.11.0")
    assert lowest_python(">=3.11.5") == Version("3.11.5")
    with pytest.raises(ValueError, match="no lower bound"):
        lowest_python("<3.14")


def test_a_pin_that_refuses_the_lowest_python_is_named():
    assert refusing({"soupsieve": ">=3.11.5", "six": None, "numpy": ">=3.11"}, Version("3.11.2")) == {
        "soupsieve": ">=3.11.5"}


def test_every_pin_admits_the_lowest_python_of_pyproject():
    floor = lowest_python(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"])
    locked = pins(REPO / "requirements.lock")
    assert len(locked) > 100  # the whole environment, not a few lines
    installed = {canonicalize_name(d.metadata["Name"]): d for d in importlib.metadata.distributions()}
    missing = sorted(name for name in locked if name not in installed)
    assert missing == [], f"the environment lacks pins of requirements.lock (run make): {missing}"
    other = {n: (installed[n].version, v) for n, v in locked.items() if Version(installed[n].version) != Version(v)}
    assert other == {}, f"installed versions differ from requirements.lock (run make): {other}"
    assert refusing({n: installed[n].metadata.get("Requires-Python") for n in locked}, floor) == {}, (
        f"these pins refuse Python {floor}, the lowest pyproject.toml admits: pin an older release in "
        "requirements.in and run make lock")
