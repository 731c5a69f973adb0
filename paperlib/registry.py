"""Each registered paper's own declarations, found in its package: shared modules loop here, never over ids.

The papers are discovered (:data:`paperlib.data.PAPERS`: a ``data/<id>/`` beside its ``notebooks/<id>_*.ipynb``),
and everything about paper ``<id>`` lives in its package ``paperlib.reproduce.p<id>`` (:mod:`paperlib.reproduce`).
A shared module that needs a paper's fact asks for it by the paper's id and the name of the part or attribute that
holds it, and loops over :data:`paperlib.data.PAPERS` when it needs every paper's:

* :func:`part` returns a part of the package (``part(paper, "stack")``) or the package itself, ``None`` when the
  paper has no such part (a part a paper does not have is absent, never renamed);
* :func:`declared` returns an attribute the package or one of its parts declares (``PARAMETER_KINDS``,
  ``QUICK_PARAMETERS``, ``CORRECTIONS``), or the default given when it declares none;
* :func:`papers_with` returns the registered papers whose package has a given part.

Examples: :func:`paperlib.parameters.kinds` reads ``PARAMETER_KINDS``, :func:`paperlib.corrections.for_paper` a
paper's ``corrections`` part, :func:`paperlib.emulation.apps.paper_settings` its ``stack`` part.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from paperlib.data import PAPER_ID_RE, PAPERS
from paperlib.validate import ParameterError

#: The package that holds the paper packages, ``<PACKAGE>.p<id>``.
PACKAGE = "paperlib.reproduce"


def package_name(paper: str, name: str | None = None) -> str:
    """Return the import name of paper ``paper``'s package (``paperlib.reproduce.p<id>``) or of its part ``name``.

    Raises :class:`~paperlib.validate.ParameterError` unless ``paper`` is a paper id (three digits, a string) and
    ``name`` a module name.
    """
    if not isinstance(paper, str) or not PAPER_ID_RE.fullmatch(paper):
        raise ParameterError(f"paper must be a paper id of three digits (a string), got {paper!r}")
    if name is not None and not (isinstance(name, str) and name.isidentifier()):
        raise ParameterError(f"name must be a module name, got {name!r}")
    return f"{PACKAGE}.p{paper}" + (f".{name}" if name else "")


def part(paper: str, name: str | None = None) -> ModuleType | None:
    """Return part ``name`` of paper ``paper``'s package (the package itself without ``name``), ``None`` if absent.

    Only a missing module is absence: an error inside an existing one propagates.
    """
    target = package_name(paper, name)
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as err:
        if err.name is not None and target.startswith(err.name) and target[len(err.name):][:1] in ("", "."):
            return None
        raise


def declared(paper: str, attribute: str, default: object = None, name: str | None = None) -> object:
    """Return ``attribute`` as paper ``paper``'s package (or its part ``name``) declares it, else ``default``."""
    module = part(paper, name)
    return default if module is None else getattr(module, attribute, default)


def papers_with(name: str, papers: tuple[str, ...] | list[str] | None = None) -> tuple[str, ...]:
    """Return the papers of ``papers`` (default: the registered ones, in order) whose package has part ``name``."""
    return tuple(p for p in (PAPERS if papers is None else papers) if part(p, name) is not None)
