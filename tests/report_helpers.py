"""A small figures/ tree for the report tests, built in seconds (no make reproduce).

The executed notebooks are the nbval fixtures (tests/nbval/, small parameters); papers 000 and
004 get their real ledger rows (``p000.ledger_rows``, ``p004.ledger_rows.ledger_rows``), provenance.json and one
model figure;
001-003 have a notebook only, as after a partial reproduction. ``small_docs`` writes a docs/ tree
with a subfolder, links and mathematics.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from paperlib import explore, ledger
from paperlib.data import load_paper
from paperlib.figures import save_figure
from paperlib.provenance import Stamp
from paperlib.reproduce.p000 import ledger_rows as p000_ledger_rows
from paperlib.reproduce.p004 import ledger_rows as p004_ledger_rows

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "nbval"
NOTEBOOK_NAMES = {"000": "000_multiuser_waiting", "004": "004_slow_start_latency"}


def small_figures(root: Path, *, merged: bool = True) -> Path:
    """Write a figures/ tree under ``root``; with ``merged`` also figures/ledger.csv; return the tree."""
    verdicts_module()
    figures = root / "figures"
    (figures / "executed").mkdir(parents=True)
    for nb in sorted(FIXTURES.glob("[0-9][0-9][0-9]_*.ipynb")):
        shutil.copyfile(nb, figures / "executed" / nb.name)
    partials = []
    rows_of = {"000": p000_ledger_rows.ledger_rows(load_paper("000")),
               "004": p004_ledger_rows.ledger_rows(load_paper("004"))}
    for paper, rows in rows_of.items():
        stamp = Stamp(notebook=f"notebooks/{NOTEBOOK_NAMES[paper]}.ipynb", parameters={"report_test": True})
        folder = figures / paper
        ledger.write_partial(rows, stamp, folder / "ledger.csv")
        stamp.write(folder)
        ex = explore.explorer(paper)
        save_figure(ex.figure(next(iter(ex.axes))), folder / "model_curves.png", stamp)
        partials.append(folder / "ledger.csv")
    if merged:
        ledger.main(["merge", *map(str, partials), "--out", str(figures / "ledger.csv"),
                     "--summary", str(figures / "ledger-summary.md")])
    return figures


def small_docs(root: Path) -> Path:
    """Write a docs/ tree under ``root`` (two documents, one in a subfolder, linking each other); return it."""
    docs = root / "docs"
    (docs / "notes").mkdir(parents=True)
    (docs / "guide.md").write_text(
        "# A guide\n\nThe waiting time $W_{tcp}=(m-1)(2n-1)\\tau/2$ of [the note](notes/deep.md#a-long-heading),\n"
        "[the front page](../README.md), [a source file](../paperlib/ledger.py), [a site](https://example.org/).\n\n"
        "$$\nT = \\sum_{k=1}^{\\alpha} E(T^k)\n$$\n\n```\nmake report  # costs $5\n```\n", encoding="utf-8")
    (docs / "notes" / "deep.md").write_text(
        "# The note\n\n## A long heading\n\nBack to [the guide](../guide.md#a-guide).\n", encoding="utf-8")
    return docs


def verdicts_module():
    """Return ``paperlib.verdicts``, the one source of the verdicts the report shows."""
    import paperlib.verdicts as real

    return real
