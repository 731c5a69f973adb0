"""The one interface every paper package answers, written once and checked (``tests/test_layout.py``).

A notebook, a test or a new paper can rely on these calls in every ``paperlib.reproduce.p<id>``:

==============================================================  ===========================================
``operating_point.convention_search(paper)``                    every combination of the open conventions
                                                                scored against the printed cells
                                                                (:mod:`paperlib.conventions`), best first
``operating_point.chosen_convention(paper, search=None)``       the paper's ``Convention`` (a frozen
                                                                dataclass subclassing
                                                                :class:`paperlib.conventions.Convention`,
                                                                with ``describe()`` for ledger reasons)
``ledger_rows.ledger_rows(paper, *, search=None,``              every ledger row of the paper; without
``simulations=None, real_stacks=None)``                         ``simulations`` or ``real_stacks`` the rows
                                                                that need them say they were not run
``what_if.check(**parameters)``                                 the notebook's parameters checked (keyword
                                                                only), as :class:`paperlib.parameters.Parameters`
``claims.CLAIMS``                                               a :class:`paperlib.claims.ClaimRegistry`
                                                                holding every claim of ``claims.csv``,
                                                                also those judged on ns-3 or real stacks
                                                                (a claim function takes its evidence)
``figures.<name>(...)``                                         every public function returns a matplotlib
                                                                ``Figure``; the caller saves it
                                                                (:func:`paperlib.figures.save_figure`)
``explore.explorer()``                                          the paper's interactive explorer (options
                                                                it may take all have defaults)
``verdict.finding(rows)``                                       the paper's finding for the README and the
                                                                report (:class:`paperlib.verdicts.Finding`),
                                                                from its ledger rows' structured columns
``verdict.brief(rows)``                                         the same finding in short cells (each at
                                                                most about 40 words): the README's table
                                                                and the report's opening
``reproduce.model(run)``                                        the notebook's first stage: the model's
                                                                tables, figures and ledger rows, as the
                                                                paper's ``Reproduction`` (a subclass of
                                                                :class:`paperlib.reproduction.Reproduction`)
==============================================================  ===========================================

A paper's later stages take the run and the ``Reproduction`` so far and return it with their results added;
a paper that simulates in ns-3 answers ``reproduce.with_ns3(run, r, *, cache_dir, seed, scheduler=None,
n_workers=None, ...)`` (required with an ``ns3`` part), one that re-runs on real stacks
``reproduce.with_real_stacks(run, r, *, emulation, ...)`` (a paper's own further parameters keyword-only). A
paper notebook calls only these stages between :func:`paperlib.notebook.open_paper` and
:func:`paperlib.notebook.close_paper`; its other cells show what they returned (``tests/test_notebook_shape.py``).

A paper that simulates in ns-3 has an ``ns3`` module, and it answers two more calls:

==============================================================  ===========================================
``ns3.run(paper, conv, *, replications, cache_dir, seed,``      the paper's ns-3 runs through the sweep
``scheduler=None, n_workers=None, ...)``                        runner (cached, seeds from ``seed``), as
                                                                its record: a subclass of
                                                                :class:`paperlib.sim.record.Simulations`;
                                                                a paper's own further parameters are
                                                                keyword-only
``ns3.summary(simulations)``                                    the record's table (a ``DataFrame``)
==============================================================  ===========================================

A paper that re-runs its experiments on real stacks has an ``emulated`` module, and it answers two more calls:

==============================================================  ===========================================
``emulated.run(paper, profile, out, *,``                        the real-stack runs of ``profile``
``scheduler_links=None, ...)``                                  ("reduced", "full", "off"), written to
                                                                ``out/emulation_runs.csv``: an
                                                                :class:`~paperlib.emulation.notebook.Emulated`
                                                                (or a subclass), ``not_run`` saying why
                                                                nothing ran; a paper's own further
                                                                parameters are keyword-only
``emulated.summary(paper, real_stacks, *, ...)``                the paper's table of the runs that kept
                                                                their timing (a ``DataFrame``, empty when
                                                                none ran); further parameters keyword-only
                                                                with defaults
==============================================================  ===========================================

``search`` is the frame ``convention_search`` returned, passed on so a notebook searches once;
``simulations`` is the paper's own record of its ns-3 runs (each paper documents its type), and
``real_stacks`` the :class:`paperlib.emulation.notebook.Emulated` runs of the real-stack column.

:func:`conformance` compares a package with the reference signatures below (names, kinds and
defaults of the parameters, and the return annotation) and returns what differs.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import typing
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from paperlib.claims import ClaimRegistry
from paperlib.conventions import Convention
from paperlib.data import Paper
from paperlib.emulation.notebook import Emulated
from paperlib.explore import Explorer
from paperlib.ledger import Row
from paperlib.notebook import PaperRun
from paperlib.parameters import Parameters
from paperlib.reproduction import Reproduction
from paperlib.sim.record import Simulations
from paperlib.verdicts import Finding, PaperRows


def convention_search(paper: Paper) -> pd.DataFrame:
    """Reference signature of ``operating_point.convention_search``."""
    raise NotImplementedError


def chosen_convention(paper: Paper, search: pd.DataFrame | None = None) -> Convention:
    """Reference signature of ``operating_point.chosen_convention``."""
    raise NotImplementedError


def ledger_rows(paper: Paper, *, search: pd.DataFrame | None = None, simulations: object | None = None,
                real_stacks: Emulated | None = None) -> list[Row]:
    """Reference signature of ``ledger_rows.ledger_rows``."""
    raise NotImplementedError


def check(**parameters) -> Parameters:
    """Reference signature of ``what_if.check`` (a paper's check names its parameters, all keyword-only)."""
    raise NotImplementedError


def explorer() -> Explorer:
    """Reference signature of ``explore.explorer``."""
    raise NotImplementedError


def finding(rows: PaperRows) -> Finding:
    """Reference signature of ``verdict.finding``."""
    raise NotImplementedError


def brief(rows: PaperRows) -> Finding:
    """Reference signature of ``verdict.brief``."""
    raise NotImplementedError


def ns3_run(paper: Paper, conv: Convention, *, replications: int, cache_dir, seed: int, scheduler=None,
            n_workers=None) -> Simulations:
    """Reference signature of ``ns3.run`` (a paper may add keyword-only parameters)."""
    raise NotImplementedError


def ns3_summary(simulations: Simulations) -> pd.DataFrame:
    """Reference signature of ``ns3.summary``."""
    raise NotImplementedError


def emulated_run(paper: Paper, profile: str, out: Path, *, scheduler_links: int | None = None) -> Emulated:
    """Reference signature of ``emulated.run`` (a paper may add keyword-only parameters)."""
    raise NotImplementedError


def emulated_summary(paper: Paper, real_stacks: Emulated) -> pd.DataFrame:
    """Reference signature of ``emulated.summary`` (a paper may add keyword-only parameters with defaults)."""
    raise NotImplementedError


def model(run: PaperRun) -> Reproduction:
    """Reference signature of ``reproduce.model``."""
    raise NotImplementedError


def with_ns3(run: PaperRun, r: Reproduction, *, cache_dir, seed: int, scheduler=None, n_workers=None) -> Reproduction:
    """Reference signature of ``reproduce.with_ns3`` (a paper may add keyword-only parameters)."""
    raise NotImplementedError


def with_real_stacks(run: PaperRun, r: Reproduction, *, emulation: str) -> Reproduction:
    """Reference signature of ``reproduce.with_real_stacks`` (a paper may add keyword-only parameters)."""
    raise NotImplementedError


#: Stage -> (the part whose presence asks for it, its reference): a paper with an ``ns3`` part answers
#: ``reproduce.with_ns3``, one with an ``emulated`` part ``reproduce.with_real_stacks``; a stage a paper has
#: without the part (001's ns-3 testbed lives in ``sweeps``) answers the same signature.
STAGE_REFERENCES: dict[tuple[str, str], tuple[str, Callable]] = {
    ("reproduce", "with_ns3"): ("ns3", with_ns3),
    ("reproduce", "with_real_stacks"): ("emulated", with_real_stacks),
}


#: Function -> its reference, for the calls of a module only some papers have (checked where the module exists):
#: the reference's parameters lead, in order and kind; the paper's own further parameters are keyword-only.
OPTIONAL_REFERENCES: dict[tuple[str, str], Callable] = {
    ("ns3", "run"): ns3_run,
    ("ns3", "summary"): ns3_summary,
    ("emulated", "run"): emulated_run,
    ("emulated", "summary"): emulated_summary,
}


#: (module, function) -> its reference; ``explore.explorer``, ``what_if.check`` and the figure functions are checked
#: by their own rules (below).
REFERENCES: dict[tuple[str, str], Callable] = {
    ("operating_point", "convention_search"): convention_search,
    ("operating_point", "chosen_convention"): chosen_convention,
    ("ledger_rows", "ledger_rows"): ledger_rows,
    ("verdict", "finding"): finding,
    ("verdict", "brief"): brief,
    ("reproduce", "model"): model,
}


def _hints(fn: Callable) -> dict[str, object]:
    """Return ``fn``'s annotations evaluated in its module (postponed annotations resolved)."""
    return typing.get_type_hints(fn)


def _returns(fn: Callable, expected: object) -> bool:
    """Return whether ``fn``'s return annotation is ``expected`` (or, for a class, a subclass of it)."""
    try:
        got = _hints(fn).get("return")
    except Exception:  # an annotation that does not resolve is a mismatch, reported by the caller
        return False
    if isinstance(expected, type) and isinstance(got, type):
        return issubclass(got, expected)
    return got == expected


def _declared(fn: Callable) -> str:
    """Return ``fn``'s return annotation as written (``'dict'``), for messages."""
    got = fn.__annotations__.get("return")
    return repr(got.__name__ if isinstance(got, type) else got)


def _same_parameters(fn: Callable, reference: Callable) -> list[str]:
    """Return how ``fn``'s parameters differ from ``reference``'s (names, kinds, defaults), empty if they do not."""
    got, want = inspect.signature(fn).parameters, inspect.signature(reference).parameters
    if list(got) != list(want):
        return [f"parameters {list(got)}, expected {list(want)}"]
    return [f"parameter {name!r}: {got[name].kind.description} default {got[name].default!r}, expected "
            f"{want[name].kind.description} default {want[name].default!r}"
            for name in want if (got[name].kind, got[name].default) != (want[name].kind, want[name].default)]


def _leading_parameters(fn: Callable, reference: Callable) -> list[str]:
    """Return how ``fn``'s parameters depart from ``reference``'s, empty when they do not.

    ``fn`` has the reference's positional parameters (names, in order), every keyword-only parameter of the
    reference (kind and default), and otherwise keyword-only parameters of its own; when the reference has no
    keyword-only parameter (a call made with the leading arguments alone), each of them has a default.
    """
    got, want = inspect.signature(fn).parameters, inspect.signature(reference).parameters
    positional = [n for n, p in got.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    wanted = [n for n, p in want.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if positional != wanted:
        return [f"positional parameters {positional}, expected {wanted} (a paper's own parameters are keyword-only)"]
    problems = [f"parameter {name!r}: {got[name].kind.description} default {got[name].default!r}, expected "
                f"{want[name].kind.description} default {want[name].default!r}" if name in got
                else f"parameter {name!r} missing" for name in want
                if name not in got or (got[name].kind, got[name].default) != (want[name].kind, want[name].default)]
    if not any(p.kind is p.KEYWORD_ONLY for p in want.values()):
        problems += [f"parameter {n!r} has no default" for n, p in got.items()
                     if n not in want and p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    return problems


def _check_convention(cls: object) -> list[str]:
    """Return what keeps ``cls`` from being a paper's convention type (a frozen Convention dataclass)."""
    if not (isinstance(cls, type) and issubclass(cls, Convention)):
        name = cls.__name__ if isinstance(cls, type) else cls
        return [f"returns {name!r}, not a subclass of paperlib.conventions.Convention"]
    params = getattr(cls, "__dataclass_params__", None)
    if not dataclasses.is_dataclass(cls) or params is None or not params.frozen:
        return [f"{cls.__qualname__} is not a frozen dataclass"]
    return []


def figure_functions(module) -> dict[str, Callable]:
    """Return the public functions defined in a paper's ``figures`` module (not those it imports)."""
    return {name: fn for name, fn in vars(module).items()
            if inspect.isfunction(fn) and not name.startswith("_") and fn.__module__ == module.__name__}


def conformance(paper_id: str, package: str | None = None) -> list[str]:
    """Return every way paper ``paper_id``'s package departs from the protocol (empty when it conforms).

    ``package`` is the package's import name (default ``paperlib.reproduce.p<paper_id>``).
    """
    package = package or f"paperlib.reproduce.p{paper_id}"
    problems: list[str] = []

    def module(name: str):
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as err:
            problems.append(f"{package}.{name}: missing ({err})")
            return None

    def function(mod_name: str, fn_name: str):
        mod = module(mod_name)
        fn = getattr(mod, fn_name, None) if mod else None
        if mod and fn is None:
            problems.append(f"{package}.{mod_name}.{fn_name}: missing")
        return fn

    for (mod_name, fn_name), reference in REFERENCES.items():
        fn = function(mod_name, fn_name)
        where = f"{package}.{mod_name}.{fn_name}"
        if fn is None:
            continue
        problems += [f"{where}: {p}" for p in _same_parameters(fn, reference)]
        expected = _hints(reference)["return"]
        if fn_name == "chosen_convention":
            try:
                problems += [f"{where}: {p}" for p in _check_convention(_hints(fn).get("return"))]
            except Exception as err:
                problems.append(f"{where}: return annotation does not resolve ({err})")
        elif not _returns(fn, expected):
            problems.append(f"{where}: returns {_declared(fn)}, expected {expected!r}")

    folder = Path(importlib.import_module(package).__file__).parent
    for (mod_name, fn_name), reference in OPTIONAL_REFERENCES.items():
        if not (folder / f"{mod_name}.py").exists():
            continue
        fn = function(mod_name, fn_name)
        if fn is None:
            continue
        where = f"{package}.{mod_name}.{fn_name}"
        problems += [f"{where}: {p}" for p in _leading_parameters(fn, reference)]
        expected = _hints(reference)["return"]
        if not _returns(fn, expected):
            problems.append(f"{where}: returns {_declared(fn)}, expected {getattr(expected, '__name__', expected)}")

    for (mod_name, fn_name), (part, reference) in STAGE_REFERENCES.items():
        where = f"{package}.{mod_name}.{fn_name}"
        stage = getattr(module(mod_name), fn_name, None)
        if stage is None:
            if (folder / f"{part}.py").exists():
                problems.append(f"{where}: missing (the paper has an {part!r} part)")
            continue
        problems += [f"{where}: {p}" for p in _leading_parameters(stage, reference)]
        if not _returns(stage, Reproduction):
            problems.append(f"{where}: returns {_declared(stage)}, expected paperlib.reproduction.Reproduction")

    explorer_fn = function("explore", "explorer")
    if explorer_fn is not None:
        required = [n for n, p in inspect.signature(explorer_fn).parameters.items()
                    if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if required:
            problems.append(f"{package}.explore.explorer: parameters {required} have no default")
        if not _returns(explorer_fn, Explorer):
            problems.append(f"{package}.explore.explorer: returns {_declared(explorer_fn)}, "
                            f"expected paperlib.explore.Explorer")

    check_fn = function("what_if", "check")
    if check_fn is not None:
        positional = [n for n, p in inspect.signature(check_fn).parameters.items()
                      if p.kind not in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
        if positional:
            problems.append(f"{package}.what_if.check: parameters {positional} are not keyword-only")
        if not _returns(check_fn, Parameters):
            problems.append(f"{package}.what_if.check: returns {_declared(check_fn)}, "
                            f"expected paperlib.parameters.Parameters")

    claims = module("claims")
    if claims and not (isinstance(getattr(claims, "CLAIMS", None), ClaimRegistry)
                       and claims.CLAIMS.paper_id == paper_id):
        problems.append(f"{package}.claims.CLAIMS: not the paper's ClaimRegistry")

    figures = module("figures")
    if figures:
        for name, fn in figure_functions(figures).items():
            if not _returns(fn, Figure):
                problems.append(f"{package}.figures.{name}: returns {_declared(fn)}, "
                                f"expected matplotlib.figure.Figure (saving is the caller's)")
    return list(dict.fromkeys(problems))  # a missing module is reported once
