"""Provenance stamps: which code, data, parameters and packages made an output.

A stamp carries no wall-clock time, so two runs of the same tree with the
same parameters give byte-identical outputs.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from paperlib import profiles

REPO_ROOT = Path(__file__).resolve().parent.parent

#: The name under which :func:`package_versions` gives the Python interpreter's version (no distribution's name).
PYTHON = "python"
#: Packages whose versions (and Python's) are stamped on every output.
STAMPED_PACKAGES = (
    "numpy",
    "pandas",
    "matplotlib",
    "seaborn",
    "statsmodels",
    "papermill",
    "dask",
    "distributed",
    "hypothesis",
    "ns3",
)


@lru_cache(maxsize=1)
def git_state(root: Path = REPO_ROOT) -> tuple[str, bool]:
    """Return ``(commit, dirty)`` of the checkout; ``("unknown", True)`` outside git.

    Generated folders are ignored by git, so writing outputs never makes the
    tree dirty.
    """
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown", True
    return commit, bool(status.strip())


def package_versions(names: tuple[str, ...] = (*STAMPED_PACKAGES, PYTHON)) -> dict[str, str]:
    """Return ``name -> version`` of the installed distributions ``names``, in that order.

    ``"absent"`` for a distribution that is not installed; the name :data:`PYTHON` gives the Python
    interpreter's version. The one look-up of versions: the default is what every output's stamp
    carries, :data:`paperlib.sweep.KEY_LIBRARIES` what keys the sweep cache. Looked up once per process.
    """
    return dict(_versions(tuple(names)))


@lru_cache(maxsize=None)
def _versions(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Return :func:`package_versions` as pairs (immutable, so the cached value cannot be changed by a caller)."""
    import platform

    out = []
    for name in names:
        if name == PYTHON:
            out.append((name, platform.python_version()))
            continue
        try:
            out.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append((name, "absent"))
    return tuple(out)


def digest(obj) -> str:
    """Return a short stable hash of a JSON-serialisable object."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


@dataclass(frozen=True)
class Stamp:
    """The provenance of one notebook run (or other producer of outputs)."""

    notebook: str
    parameters: dict = field(default_factory=dict)
    seed: int | None = None
    #: the profile of the run (``"quick"``: :mod:`paperlib.profiles`, read from the environment when the stamp is
    #: made; ``""``: the notebooks' own scale)
    profile: str = field(default_factory=profiles.current)

    @property
    def commit(self) -> str:
        """Return the git commit of the working tree."""
        return git_state()[0]

    @property
    def dirty(self) -> bool:
        """Return whether the working tree has uncommitted changes."""
        return git_state()[1]

    @property
    def versions(self) -> dict[str, str]:
        """Return the versions of the stamped packages and of Python."""
        return package_versions()

    def as_dict(self) -> dict:
        """Return the stamp as a JSON-serialisable dict, with a digest of the versions."""
        return {
            "notebook": self.notebook,
            "commit": self.commit,
            "dirty": self.dirty,
            "parameters": self.parameters,
            "seed": self.seed,
            "profile": self.profile,
            "versions": self.versions,
            "environment": digest(self.versions),
        }

    def columns(self) -> dict[str, str]:
        """Return the provenance columns written on every ledger row."""
        return {
            "commit": self.commit,
            "dirty": str(self.dirty).lower(),
            "notebook": self.notebook,
            "parameters": json.dumps(self.parameters, sort_keys=True, separators=(",", ":")),
            "seed": "" if self.seed is None else str(self.seed),
            "environment": digest(self.versions),
            "profile": self.profile,
        }

    def write(self, folder: Path | str) -> Path:
        """Write this stamp (with the full package versions) to ``folder/provenance.json`` atomically."""
        from paperlib.atomic import atomic_write_text

        text = json.dumps(self.as_dict(), sort_keys=True, indent=2) + "\n"
        return atomic_write_text(Path(folder) / "provenance.json", text)

    def png_metadata(self) -> dict[str, str]:
        """Return PNG text chunks (all strings) describing this run."""
        d = self.as_dict()
        return {
            "Software": f"webperf-repro paperlib, matplotlib {self.versions.get('matplotlib')}",
            "Source": f"{d['notebook']} @ {d['commit']}{' (dirty)' if d['dirty'] else ''}",
            "Comment": json.dumps(
                {k: d[k] for k in ("parameters", "seed", "profile", "environment", "versions")},
                sort_keys=True,
                separators=(",", ":"),
            ),
        }
