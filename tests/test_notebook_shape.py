"""Every paper notebook is thin (issue 32, item 4): parameters, the paper's stages, display cells, the closing call.

A code cell of a paper notebook (the parameters cell aside) holds no branch, no loop and no comprehension, writes
no file and opens or closes nothing: the paper's ``reproduce`` stages decide what runs and what is written
(:mod:`paperlib.reproduction`), and the notebook shows what they return.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

from paperlib.data import PAPERS
from paperlib.notebook import notebook_path

REPO = Path(__file__).resolve().parents[1]

#: Statements and expressions a paper notebook's code cell does not hold, with the reason a failure names.
FORBIDDEN_NODES = {
    ast.If: "a branch (the stage decides; a skipped check leaves a note)",
    ast.IfExp: "a branch (the stage decides; a skipped check leaves a note)",
    ast.For: "a loop (the stage or a display helper walks the list)",
    ast.While: "a loop (the stage or a display helper walks the list)",
    ast.comprehension: "a loop (the stage or a display helper walks the list)",
    ast.With: "a resource opened in a cell (PaperRun.hold keeps it until close_paper)",
    ast.FunctionDef: "a definition (logic lives in paperlib)",
    ast.ClassDef: "a definition (logic lives in paperlib)",
}
#: Names a paper notebook's code cell never calls: the stages write every output.
FORBIDDEN_CALLS = {"atomic_write_csv", "atomic_write_text", "atomic_write_bytes", "save_figure", "savefig", "to_csv",
                   "open", "__enter__", "__exit__"}


def called_name(node: ast.Call) -> str | None:
    """Return the name a call calls (``f`` of ``f(...)`` or ``a.b.f(...)``), None for another callee."""
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def cell_problems(source: str) -> list[str]:
    """Return what keeps a paper notebook's code cell ``source`` thin, one line each (empty when it is)."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        reason = FORBIDDEN_NODES.get(type(node))
        if reason:
            problems.append(f"line {node.lineno}: {type(node).__name__}: {reason}"
                            if hasattr(node, "lineno") else f"{type(node).__name__}: {reason}")
        if isinstance(node, ast.Call) and called_name(node) in FORBIDDEN_CALLS:
            problems.append(f"line {node.lineno}: calls {called_name(node)} (the stages write every output)")
    return problems


def notebook_problems(path: Path) -> list[str]:
    """Return what keeps the paper notebook ``path`` thin: each code cell's problems (the parameters cell aside), and
    a notebook that does not open the paper, call its model stage and close the paper."""
    cells = [c for c in nbformat.read(path, as_version=4).cells
             if c.cell_type == "code" and "parameters" not in c.metadata.get("tags", [])]
    problems = [f"{path.name} cell {i}: {p}" for i, c in enumerate(cells) for p in cell_problems(c.source)]
    code = "\n".join(c.source for c in cells)
    problems += [f"{path.name}: never calls {call}" for call in ("notebook.open_paper(", "reproduce.model(run)",
                                                                  "notebook.close_paper(run, r)")
                 if call not in code]
    return problems


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_notebook_is_its_stages_and_display_cells(paper):
    assert notebook_problems(REPO / notebook_path(paper)) == []


def test_the_shape_check_names_a_branch_a_loop_and_a_write():
    source = ("rows = []\n"
              "if ns3_replications:\n"
              "    rows = [r for r in ledger_rows(paper)]\n"
              "atomic_write_csv(out / 'x.csv', frame)\n"
              "Image(str(save_figure(fig, out / 'x.png', stamp)))\n")
    assert sorted(cell_problems(source)) == [
        "comprehension: a loop (the stage or a display helper walks the list)",
        "line 2: If: a branch (the stage decides; a skipped check leaves a note)",
        "line 4: calls atomic_write_csv (the stages write every output)",
        "line 5: calls save_figure (the stages write every output)",
    ]
    assert cell_problems("r = reproduce.model(run)\nr.table('convention_search.csv').head(12)") == []


def test_a_notebook_without_its_stages_is_named(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("run = notebook.open_paper('004', parameters={}, output_dir='.')")]
    path = tmp_path / "004_x.ipynb"
    nbformat.write(nb, path)
    assert notebook_problems(path) == ["004_x.ipynb: never calls reproduce.model(run)",
                                       "004_x.ipynb: never calls notebook.close_paper(run, r)"]
