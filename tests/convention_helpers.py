"""What every paper's ``convention.py`` must be (tests/test_reproduce_p<id>_convention.py call :func:`check`).

A paper's ``Convention`` is the type of its one reading (issue 32: the type in a leaf module, so that the modules the
search imports take it without an import cycle): a frozen dataclass subclassing
:class:`paperlib.conventions.Convention`, whose fields are the axes its search scores
(``operating_point.CONVENTION_AXES``, in their order) followed by the readings it fixes (``FIXED_REASONS``, where the
paper has them); the module imports nothing of its own package, and ``operating_point`` hands out the same type.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

from paperlib import conventions
from paperlib.data import load_paper

REPO = Path(__file__).resolve().parent.parent


def own_imports(paper: str) -> list[str]:
    """Return the modules of paper ``paper``'s package that its ``convention.py`` imports (anywhere in it)."""
    path = REPO / "paperlib" / "reproduce" / f"p{paper}" / "convention.py"
    package = f"paperlib.reproduce.p{paper}"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            name = ("." * node.level) + (node.module or "")
            if node.level or name == package or name.startswith(package + "."):
                found.append(name)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name == package or a.name.startswith(package + ".")]
    return found


def check(paper: str) -> None:
    """Fail unless paper ``paper``'s ``Convention`` is what the module docstring says."""
    leaf = importlib.import_module(f"paperlib.reproduce.p{paper}.convention")
    operating_point = importlib.import_module(f"paperlib.reproduce.p{paper}.operating_point")
    cls = leaf.Convention
    assert issubclass(cls, conventions.Convention)
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    fields = [f.name for f in dataclasses.fields(cls)]
    assert fields == [*operating_point.CONVENTION_AXES, *getattr(operating_point, "FIXED_REASONS", {})]
    assert operating_point.Convention is cls
    assert own_imports(paper) == []
    chosen = operating_point.chosen_convention(load_paper(paper))
    assert type(chosen) is cls
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(chosen, fields[0], None)
