"""The quick profile: every paper at reduced scale, without the real stacks, in a few minutes and without root.

``make reproduce PROFILE=quick`` runs every paper notebook through :mod:`paperlib.run_notebook` with
``--profile quick``: the notebook's quick parameters, its paper package's ``QUICK_PARAMETERS`` (given ``-p``
values win), ``EMULATION=off``
(no real-stack run, so no root, TUN or testbed packages), outputs in ``figures/`` as a full run's. The runner
sets :data:`ENV` to the profile's name in the kernel's environment; :class:`paperlib.provenance.Stamp` reads it
(:func:`current`), so every ledger row of such a run carries ``profile`` = ``quick`` (:data:`QUICK_NAME`,
the ledger column ``profile``; empty for a run at the notebooks' own scale).

A quick run's statuses are not the reference's: its sweeps are too short and its replications too few to decide
what a full run decides, and no real stack runs. ``python -m paperlib.profiles full-scale LEDGER`` (``make
validate``) and ``python -m paperlib.verdicts`` refuse a ledger that holds quick rows, and the ledger summary says
how many it holds (:func:`quick_rows`).

A paper with ns-3 sweeps declares the small values the nbval fixtures use (``tests/nbval/parameters.yml``), with
the ns-3 sweeps run in the kernel (``scheduler`` ``"synchronous"``: a local Dask cluster's start-up and its workers'
ns-3 imports cost more than these few points); a paper whose model runs in seconds keeps its defaults (an empty
declaration). Each notebook's parameters cell names them in a comment.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from paperlib.validate import ParameterError

#: The profile whose rows are marked (the ledger's ``profile`` value).
QUICK_NAME = "quick"
#: The environment variable that carries the profile into the notebook's kernel (set by :mod:`paperlib.run_notebook`).
ENV = "WEBPERF_PROFILE"

#: The quick profile's parameters for notebooks other than the papers' (none in the package; a test adds one). A
#: paper's own are its package's ``QUICK_PARAMETERS`` (:func:`parameters`). ``emulation`` is in neither: the Makefile
#: passes ``EMULATION`` (``off`` under ``PROFILE=quick``) to the notebooks that declare it.
QUICK: dict[str, dict[str, object]] = {}
#: The attribute of a paper's package that holds a profile's parameters, by profile name.
DECLARED_AS = {QUICK_NAME: "QUICK_PARAMETERS"}
#: Every profile that sets parameters, by name.
PROFILES: dict[str, dict[str, dict[str, object]]] = {QUICK_NAME: QUICK}


def paper_of(notebook: Path | str) -> str:
    """Return the paper id of ``notebook``, its name up to the first underscore (``notebooks/<id>_<name>.ipynb``)."""
    return Path(notebook).name.split("_", 1)[0]


def parameters(profile: str, notebook: Path | str) -> dict[str, object]:
    """Return the parameters profile ``profile`` gives ``notebook`` (a copy; ``{}`` for a notebook it leaves alone).

    A paper's notebook (``notebooks/<id>_*.ipynb``) gets its package's declaration (``QUICK_PARAMETERS`` for the
    quick profile, :data:`DECLARED_AS`); another notebook what :data:`PROFILES` holds for its name.

    Raises :class:`~paperlib.validate.ParameterError` for an unknown profile, naming the known ones.
    """
    from paperlib import registry
    from paperlib.data import PAPER_ID_RE

    if profile not in PROFILES:
        raise ParameterError(f"profile must be one of {sorted(PROFILES)}, got {profile!r}")
    paper = paper_of(notebook)
    given = PROFILES[profile].get(paper)
    if given is None and PAPER_ID_RE.fullmatch(paper):
        given = registry.declared(paper, DECLARED_AS[profile], {})
    return {name: list(value) if isinstance(value, list) else value for name, value in (given or {}).items()}


def current() -> str:
    """Return the profile this process runs under (:data:`ENV`): a name of :data:`PROFILES`, or ``""`` for none.

    Raises :class:`~paperlib.validate.ParameterError` when :data:`ENV` holds another value.
    """
    value = os.environ.get(ENV, "")
    if value and value not in PROFILES:
        raise ParameterError(f"the environment's {ENV} must be one of {sorted(PROFILES)} or unset, got {value!r}")
    return value


def quick_rows(frame: pd.DataFrame) -> pd.Series:
    """Return the mask of a ledger table's rows made by the quick profile (column ``profile`` = :data:`QUICK_NAME`)."""
    if "profile" not in frame.columns:
        return pd.Series(np.zeros(len(frame), dtype=bool), index=frame.index)
    return frame["profile"].astype(str) == QUICK_NAME


def quick_note(frame: pd.DataFrame, ledger: str) -> str | None:
    """Return the sentence that says how many rows of ``frame`` (read from ``ledger``) the quick profile made,
    and that their statuses are not the reference's; None when it made none."""
    n = int(quick_rows(frame).sum())
    if not n:
        return None
    return (f"{ledger}: {n} of {len(frame)} rows come from the quick profile (make reproduce PROFILE=quick: "
            "reduced scale, no real stacks); their statuses are not the reference's. A full make reproduce "
            "replaces them.")


def main(argv: list[str] | None = None) -> int:
    """``full-scale LEDGER``: exit 1 with :func:`quick_note` when ``LEDGER`` holds rows of the quick profile."""
    import argparse

    from paperlib import ledger as ledger_file

    parser = argparse.ArgumentParser(prog="python -m paperlib.profiles", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    full = sub.add_parser("full-scale", help="exit 1 when the ledger holds rows of the quick profile")
    full.add_argument("ledger", type=Path)
    args = parser.parse_args(argv)
    if not args.ledger.exists():
        print(f"{args.ledger}: no ledger (run make reproduce first)")
        return 1
    note = quick_note(ledger_file.read(args.ledger), str(args.ledger))
    if note:
        print(note)
        return 1
    print(f"{args.ledger}: every row at the notebooks' own scale (no quick-profile row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
