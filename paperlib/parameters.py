"""A notebook's parameters, read from the notebook itself, and strict checks of a run's values.

The names and defaults come from the notebook's cell tagged ``parameters`` (parsed with
:mod:`ast`, never executed), so a renamed or new parameter needs no edit here. Each
parameter has a *kind*: declared for the parameters whose default is ``None`` (:data:`COMMON_KINDS` for every
notebook, ``PARAMETER_KINDS`` in a paper's package for its notebook's own), otherwise inferred from the default
(``True`` -> bool, ``0.5`` -> number, ``30`` -> integer, ``"rtt"`` -> str, ``[1, 2]`` -> integers). Kinds are
strict: a boolean or a string is not a number, a list is not a scalar. A name ending in ``_dir`` is a folder: it
must be a string naming a folder that is not a file and can be created or written, and a relative one is resolved
against the caller's working directory.

:func:`check` runs before anything is executed or written; every error is a
:class:`paperlib.validate.ParameterError` naming the parameter.
"""

from __future__ import annotations

import ast
import json
import math
import numbers
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from paperlib.validate import ParameterError

#: Kinds of the parameters every notebook may have whose default is ``None`` (``None`` stays allowed: the paper's
#: value). A paper declares its own in its package, ``PARAMETER_KINDS`` (:func:`declared_kinds`).
COMMON_KINDS: dict[str, str] = {"scheduler": "str", "n_workers": "integer"}
#: Kind of an undeclared parameter whose default is None: None, a number or a list of numbers.
UNDECLARED_NONE = "numeric"
#: Upper bounds by parameter name, for values whose memory grows with them (e.g. 8 bytes per sample,
#: a few arrays: 10^7 samples stay under a few hundred MB).
UPPER_BOUNDS: dict[str, float] = {"n_samples": 10_000_000}
#: Longest list a parameter may hold (a what-if grid; longer lists are refused before any work).
MAX_LIST = 10_000

_NO_DEFAULT = object()


def parameter_cell(notebook: Path | str) -> str:
    """Return the source of the notebook's cell tagged ``parameters``; raise if there is none or several."""
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    cells = [c for c in nb.get("cells", []) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ParameterError(f"{notebook}: expected one cell tagged 'parameters', found {len(cells)}")
    src = cells[0]["source"]
    return "".join(src) if isinstance(src, list) else src


def notebook_parameters(notebook: Path | str) -> dict[str, object]:
    """Return the parameters of ``notebook``, name -> default value, in the cell's order."""
    tree = ast.parse(parameter_cell(notebook))
    out: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    try:
                        out[t.id] = ast.literal_eval(node.value) if node.value is not None else _NO_DEFAULT
                    except ValueError:
                        out[t.id] = _NO_DEFAULT
    return out


def _infer(default) -> str:
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "integer"
    if isinstance(default, float):
        return "number"
    if isinstance(default, str):
        return "str"
    if isinstance(default, (list, tuple)):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in default):
            return "integers"
        if all(isinstance(v, str) for v in default):
            return "strs"
        return "numbers"
    return UNDECLARED_NONE


def declared_kinds(notebook: Path | str) -> dict[str, str]:
    """Return the declared kinds of ``notebook``'s parameters: :data:`COMMON_KINDS` and, for a paper's notebook
    (``notebooks/<id>_<name>.ipynb``), its package's ``PARAMETER_KINDS`` (:func:`paperlib.registry.declared`)."""
    from paperlib import registry
    from paperlib.data import PAPER_ID_RE

    prefix = Path(notebook).name.split("_", 1)[0]
    own = registry.declared(prefix, "PARAMETER_KINDS", {}) if PAPER_ID_RE.fullmatch(prefix) else {}
    return {**COMMON_KINDS, **own}


def kinds(notebook: Path | str) -> dict[str, str]:
    """Return name -> kind for every parameter of ``notebook`` (declared, by name, or inferred)."""
    declared = declared_kinds(notebook)
    out = {}
    for name, default in notebook_parameters(notebook).items():
        if name.endswith("_dir"):
            out[name] = "path"
        elif name in declared:
            out[name] = declared[name]
        else:
            out[name] = _infer(default)
    return out


def _is_number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _number(name: str, v):
    if not _is_number(v):
        what = "a boolean" if isinstance(v, bool) else "a string" if isinstance(v, str) else type(v).__name__
        raise ParameterError(f"{name} must be a number, got {what}: {v!r:.200}"
                             + (" (write it without quotes)" if isinstance(v, str) else ""))
    if isinstance(v, float) and math.isnan(v):
        raise ParameterError(f"{name} must be a number, got NaN")
    return v


def _integer(name: str, v):
    _number(name, v)
    if isinstance(v, float) and not v.is_integer():
        raise ParameterError(f"{name} must be a whole number, got {v!r}")
    return int(v) if isinstance(v, float) else v


def _list(name: str, v, item):
    items = v if isinstance(v, (list, tuple)) else [v]
    if not items:
        raise ParameterError(f"{name} must not be empty")
    if len(items) > MAX_LIST:
        raise ParameterError(f"{name} has {len(items)} values, above the limit of {MAX_LIST}")
    return [item(f"{name}[{i}]" if isinstance(v, (list, tuple)) else name, x) for i, x in enumerate(items)]


def _str(name: str, v):
    if isinstance(v, bool):  # YAML 1.1, which papermill's -p follows, reads off/on/yes/no as booleans
        raise ParameterError(f"{name} must be a string, got {v!r} (a -p value off, on, yes or no is read as a "
                             f"boolean: quote it, e.g. -p {name} '\"off\"')")
    if not isinstance(v, str):
        raise ParameterError(f"{name} must be a string, got {v!r:.200}")
    return v


def resolve_folder(name: str, value, cwd: Path | str | None = None) -> Path:
    """Return folder parameter ``value`` as an absolute path (relative: against ``cwd``, default the caller's).

    Raises naming ``name`` unless it is a non-empty string naming a folder that is not a file
    and that exists writable or can be created (its nearest existing parent is a writable folder).
    """
    if not isinstance(value, (str, os.PathLike)) or str(value).strip() == "":
        raise ParameterError(f"{name} must be a folder path (a string), got {value!r:.200}")
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = Path(cwd or os.getcwd()) / path
    path = Path(os.path.normpath(path))
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ParameterError(f"{name}: {probe} is a file, not a folder (from {value!r})")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ParameterError(f"{name}: {probe} is not writable (from {value!r})")
    return path


def check_value(name: str, kind: str, value, cwd: Path | str | None = None):
    """Return ``value`` checked against ``kind`` (folders resolved); raise naming ``name`` otherwise."""
    if value is None:
        if kind in ("path", "bool"):
            raise ParameterError(f"{name} must not be None")
        return None
    if kind == "path":
        return resolve_folder(name, value, cwd)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ParameterError(f"{name} must be true or false, got {value!r:.200}")
        return value
    if kind in ("number", "integer", "str") and isinstance(value, (list, tuple, dict)):
        raise ParameterError(f"{name} must be a single value, not a {type(value).__name__}: {value!r:.200}")
    if isinstance(value, dict):
        raise ParameterError(f"{name} must not be a mapping, got {value!r:.200}")
    if kind == "number":
        return _number(name, value)
    if kind == "integer":
        return _integer(name, value)
    if kind == "str":
        return _str(name, value)
    if kind == "numbers":
        return _list(name, value, _number)
    if kind == "integers":
        return _list(name, value, _integer)
    if kind == "strs":
        return _list(name, value, _str)
    if kind == "numeric":
        return _list(name, value, _number) if isinstance(value, (list, tuple)) else _number(name, value)
    raise ParameterError(f"{name}: unknown kind {kind!r}")


def check(notebook: Path | str, values: dict, cwd: Path | str | None = None) -> dict:
    """Return ``values`` checked against ``notebook``'s parameters (folders made absolute).

    Raises :class:`ParameterError` for an unknown name (listing the notebook's parameters) or
    a value of the wrong kind, naming the parameter; nothing has been run or written by then.
    """
    known = kinds(notebook)
    unknown = [n for n in values if n not in known]
    if unknown:
        raise ParameterError(f"unknown parameter{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                             f"for {Path(notebook).name}; its parameters are: {', '.join(known)}")
    out = {name: check_value(name, known[name], value, cwd) for name, value in values.items()}
    for name, limit in UPPER_BOUNDS.items():
        if out.get(name) is not None and not out[name] <= limit:
            raise ParameterError(f"{name}: {out[name]!r} is above the limit of {limit:g} (memory grows with it)")
    return out


@dataclass(frozen=True)
class Parameters(Mapping):
    """A notebook run's parameters after its paper's ``what_if.check``: the values given, each checked.

    It reads as a mapping of the values (``params["rtt_s"]``, ``dict(params)``). A paper whose parameters
    imply more than their values (001's run profile) subclasses it with a field for that.
    """

    values: Mapping[str, object] = field(default_factory=dict)

    def __getitem__(self, name: str) -> object:
        return self.values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)
