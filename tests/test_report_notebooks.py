"""What the report shows of each paper notebook is there in the notebook itself.

Each paper notebook ends with a Conclusions section whose last cell shows the paper's verdict
paragraph generated from the run's ledger rows (``paperlib.notebook.finding``, :mod:`paperlib.verdicts`), and every
figure the paper's stages write (``paperlib/reproduce/p<id>/reproduce.py``) is displayed in the notebook, not only
saved. Read from the sources: no kernel, about a second.
"""

import ast
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAPER_NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9][0-9]_*.ipynb"))


def cells(path: Path) -> list[tuple[str, str]]:
    """Return the notebook's cells as (cell type, source)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(c["cell_type"], "".join(c["source"])) for c in nb["cells"]]


def test_every_paper_has_its_notebook():
    # the registry's papers (data/<id>/ beside its notebook), each notebook once: the five seeds and 005 at least
    from paperlib.data import PAPERS

    assert [p.name[:3] for p in PAPER_NOTEBOOKS] == list(PAPERS)
    assert {"000", "001", "002", "003", "004", "005"} <= set(PAPERS)


def figures_named(source: str) -> set[str]:
    """Return the figure file names (``*.png`` string literals) a Python ``source`` names."""
    return {n.value for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.endswith(".png")}


def figures_written_by_name(source: str) -> set[str]:
    """Return the figures a stage module's ``source`` writes by a literal name (``out.figure("x.png", ...)``); a
    figure written under a name held elsewhere (001's Figs. 3-9) is shown through that name's list."""
    return {c.args[0].value for c in ast.walk(ast.parse(source))
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "figure"
            and c.args and isinstance(c.args[0], ast.Constant)}


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.name[:3])
def test_notebook_ends_with_conclusions_and_its_verdict(path):
    *_, (kind_md, conclusions), (kind_code, verdict) = cells(path)
    assert kind_md == "markdown" and conclusions.startswith("## Conclusions\n"), path.name
    # the paragraph of this paper, from the ledger rows the notebook has just closed (frame)
    assert kind_code == "code" and verdict.strip() == f'notebook.finding(frame, "{path.name[:3]}")', path.name


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.name[:3])
def test_every_figure_the_stages_write_is_displayed(path):
    stages = (REPO / "paperlib" / "reproduce" / f"p{path.name[:3]}" / "reproduce.py").read_text(encoding="utf-8")
    shown = set().union(*(figures_named(text) for kind, text in cells(path) if kind == "code"))
    assert figures_written_by_name(stages) - shown == set(), path.name


def test_the_figure_check_reads_literal_names_only():
    stages = 'out.figure("a.png", fig)\nout.figure(name, fig)\nout.table("a.csv", t)\n'
    assert figures_written_by_name(stages) == {"a.png"}
    assert figures_named('r.image("a.png")\ndisplay(*r.images(["b.png", "c.csv"]))') == {"a.png", "b.png"}
