"""What a notebook's parameters cell declares (issue 34, items 3 and 7): every parameter is read by the notebook or by
the paper's stages it hands them to (and every field of the what-if grid built from them, where it is read field by
field), and the cell says how
long its defaults take and which values make it fast (the quick profile's). Parses the notebooks' JSON only (no
kernel): a second or two."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from paperlib import profiles

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
PAPER_NOTEBOOKS = [nb for nb in NOTEBOOKS if nb.name[:3].isdigit()]
#: the call whose ``parameters=`` argument only stamps and checks the values (paperlib.notebook.open_paper)
STAMP_CALL, STAMP_ARGUMENT = "open_paper", "parameters"


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_parameters(cell: dict) -> bool:
    return "parameters" in cell.get("metadata", {}).get("tags", [])


def declared(nb: dict) -> list[str]:
    """Return the names the cell tagged ``parameters`` assigns, in its order ([] without such a cell)."""
    names = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and _is_parameters(cell):
            for node in ast.parse(_source(cell)).body:
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AnnAssign) else []
                names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def _stamp_only(tree: ast.AST) -> set[int]:
    """Return the ids of the nodes inside ``open_paper(..., parameters=...)``'s argument: a value read only there
    is stamped on the outputs and checked, but shown nowhere."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name == STAMP_CALL:
                for kw in node.keywords:
                    if kw.arg == STAMP_ARGUMENT:
                        inside |= {id(n) for n in ast.walk(kw.value)}
    return inside


def stage_reads(source: str) -> set[str] | None:
    """Return the parameter names the paper's stages (``reproduce.py``'s ``source``) read from the run, as the string
    literals they look them up by (``params["n_samples"]``, a tuple of names); None when a stage hands every
    parameter on (``**run.parameters`` or ``**run.checked``)."""
    tree = ast.parse(source)
    if any(isinstance(n, ast.keyword) and n.arg is None and isinstance(n.value, ast.Attribute)
           and n.value.attr in ("parameters", "checked") for n in ast.walk(tree)):
        return None
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def stage_source(notebook: Path) -> str:
    """Return the source of a paper notebook's stages (``paperlib/reproduce/p<id>/reproduce.py``; "" for another
    notebook)."""
    path = REPO / "paperlib" / "reproduce" / f"p{notebook.name[:3]}" / "reproduce.py"
    return path.read_text(encoding="utf-8") if notebook.name[:3].isdigit() and path.exists() else ""


def unread(nb: dict, stages: str = "") -> list[str]:
    """Return the declared parameters nothing reads, in declaration order: no code cell but the parameters cell (a
    ``Name`` loaded outside ``open_paper``'s ``parameters=`` argument), and no stage of ``stages`` (the paper's
    ``reproduce.py`` source, :func:`stage_reads`) for a value handed to the run by ``parameters=``. Comments and
    strings in the notebook are not reads."""
    reads: set[str] = set()
    stamped: set[str] = set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or _is_parameters(cell):
            continue
        tree = ast.parse(_source(cell))
        skip = _stamp_only(tree)
        names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        reads |= {n.id for n in names if id(n) not in skip}
        stamped |= {n.id for n in names if id(n) in skip}
    by_stages = stage_reads(stages) if stages else set()
    reads |= stamped if by_stages is None else stamped & by_stages
    return [name for name in declared(nb) if name not in reads]


def _notebook(parameters: str, *cells: str) -> dict:
    code = [{"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": parameters}]
    code += [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]
    return {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "a and b are parameters"}, *code]}


def test_a_parameter_read_nowhere_or_only_stamped_is_found():
    nb = _notebook("a = 1\nb = 2\nc = None  # c\nd = 4",
                   'run = notebook.open_paper("000", parameters=dict(a=a, b=b, d=d))\nprint(a)\n# c is in a comment',
                   'x = "b and c in a string"\nfor d in range(3):\n    pass')  # d assigned, never read
    assert declared(nb) == ["a", "b", "c", "d"]
    assert unread(nb) == ["b", "c", "d"]
    # read through a name bound outside the stamp (params), or as a keyword's value: read
    assert unread(_notebook("a = 1\nb = 2", "params = dict(a=a)\nrun = open_paper('x', parameters=params)",
                            "f(b=b)")) == []
    # handed to the run and read by a stage, by name or with every parameter: read
    assert unread(nb, stages='def model(run):\n    return run.parameters["b"]') == ["c", "d"]
    assert unread(nb, stages="def model(run):\n    return f(**run.parameters)") == ["c"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_parameter_a_notebook_declares_is_read(notebook):
    assert unread(json.loads(notebook.read_text(encoding="utf-8")), stage_source(notebook)) == []


def _literal(value) -> str:
    """Return ``value`` as the parameters cell writes it (strings in double quotes)."""
    return f'"{value}"' if isinstance(value, str) else repr(value)


def comment(nb: dict) -> str:
    """Return the comment lines of the parameters cell (lines that start with ``#``), joined by spaces."""
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and _is_parameters(c))
    return " ".join(line.lstrip("# ").strip() for line in _source(cell).splitlines() if line.startswith("#"))


@pytest.mark.parametrize("notebook", PAPER_NOTEBOOKS, ids=lambda p: p.stem)
def test_the_parameters_cell_says_how_long_its_defaults_take_and_what_makes_it_fast(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    text = comment(nb)
    assert re.search(r"defaults take about \d+(\.\d+)? (s|min|h)\b", text), text
    assert re.search(r"PROFILE=quick.*about \d+(\.\d+)? (s|min)\b", text), text
    quick = profiles.parameters(profiles.QUICK_NAME, notebook)
    if "emulation" in declared(nb):
        quick["emulation"] = "off"  # the Makefile's EMULATION under PROFILE=quick
    for name, value in quick.items():
        assert f"{name} = {_literal(value)}" in text, (name, text)
    assert "paperlib/profiles.py" in text


def unread_fields(nb: dict, fields: list[str], stages: str = "") -> list[str]:
    """Return the fields of the what-if grid (``w = what_if.what_if(...)``) that neither the notebook nor its stages
    (``stages``, the paper's ``reproduce.py`` source) read as ``w.<field>``, in ``fields``' order; [] when they bind
    no such ``w`` or pass ``w`` itself on (the package then reads it).

    A parameter that goes into the grid and whose field nothing reads changes nothing the notebook shows (paper 005's
    ``rates_bps`` and ``rtts_s`` once did exactly that)."""
    trees = [ast.parse(_source(c)) for c in nb["cells"] if c["cell_type"] == "code" and not _is_parameters(c)]
    trees += [ast.parse(stages)] if stages else []
    bound = any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "w" for t in n.targets)
                and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
                and n.value.func.attr == "what_if" for tree in trees for n in ast.walk(tree))
    if not bound:
        return []
    attributes = {id(n.value) for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    loads = [n for tree in trees for n in ast.walk(tree)
             if isinstance(n, ast.Name) and n.id == "w" and isinstance(n.ctx, ast.Load)]
    if any(id(n) not in attributes for n in loads):
        return []  # w is passed on whole
    read = {n.attr for tree in trees for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "w"}
    return [f for f in fields if f not in read]


def test_a_what_if_field_no_cell_reads_is_found():
    fields = ["device", "rates_bps", "rtts_s", "losses"]
    old_005 = _notebook("rates_bps = None", "params = dict(rates_bps=rates_bps)\nw = what_if.what_if(**params)",
                        "page = model_page(w.device)\nf(page, w.losses)")
    assert unread_fields(old_005, fields) == ["rates_bps", "rtts_s"]
    passed_on = _notebook("x = 1", "w = what_if.what_if(paper, x=x)\nforms = what_if.form_comparison(w)")
    assert unread_fields(passed_on, fields) == []
    in_a_stage = "def model(run):\n    w = what_if.what_if(**run.parameters)\n    f(w.device, w.rates_bps)"
    assert unread_fields(_notebook("x = 1", "r = reproduce.model(run)"), fields, in_a_stage) == ["rtts_s", "losses"]


@pytest.mark.parametrize("notebook", PAPER_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_field_of_a_notebooks_what_if_grid_is_read(notebook):
    import dataclasses
    import typing
    from importlib import import_module

    module = import_module(f"paperlib.reproduce.p{notebook.name[:3]}.what_if")
    grid = typing.get_type_hints(module.what_if).get("return") if hasattr(module, "what_if") else None
    fields = [f.name for f in dataclasses.fields(grid)] if dataclasses.is_dataclass(grid) else []
    assert unread_fields(json.loads(notebook.read_text(encoding="utf-8")), fields, stage_source(notebook)) == []
