"""What the report shows of each paper notebook is there in the notebook itself.

Each paper notebook ends with a Conclusions section whose last cell shows the paper's verdict
paragraph generated from the run's ledger rows (``paperlib.verdicts``), and every figure a notebook
writes is displayed where it is made (in the cell that writes it or the next), not only saved.
Read from the notebooks' sources: no kernel, about a second.
"""

import json
import re
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


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.name[:3])
def test_notebook_ends_with_conclusions_and_its_verdict(path):
    *_, (kind_md, conclusions), (kind_code, verdict) = cells(path)
    assert kind_md == "markdown" and conclusions.startswith("## Conclusions\n"), path.name
    # the paragraph of this paper, from the ledger rows the notebook has just written (frame)
    assert kind_code == "code" and "paper_verdicts(frame)" in verdict, path.name
    assert f'v.paper == "{path.name[:3]}"' in verdict and verdict.rstrip().endswith(".paragraph())"), path.name


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.name[:3])
def test_every_figure_written_is_displayed_where_it_is_made(path):
    source = cells(path)
    for i, (kind, text) in enumerate(source):
        if kind != "code" or not re.search(r"""\.png["']""", text):
            continue
        here_or_next = text + (source[i + 1][1] if i + 1 < len(source) and source[i + 1][0] == "code" else "")
        assert "Image(" in here_or_next, f"{path.name} cell {i} writes a PNG that it does not show:\n{text}"
        # a figure's path thrown away (``_ = ...``) is a figure nobody sees in the notebook
        assert not re.search(r"^_ = .*(figure|save_figure)", text, re.M), f"{path.name} cell {i}:\n{text}"
