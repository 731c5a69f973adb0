"""One owner per paper: no paper id in ``paperlib/`` outside that paper's own package (issue 32, items 1 and 6).

The rule, checked on every ``paperlib/**/*.py`` outside the paper packages ``paperlib/reproduce/p<id>/``, for every
registered paper id (:data:`paperlib.data.PAPERS`, so a new paper is covered as soon as it exists):

* **code** (every token that is not a comment or a docstring) holds no paper id: no string literal in which an id
  stands as a token (``"004"``, ``"data/001/mah"``, ``f"... paper 000's ..."``), no identifier containing one
  (``p004_rows``, ``READING_000``), so no import of a paper package either (``paperlib.reproduce.p004``);
* **docstrings and comments** name no paper package or module (``p004``, ``paperlib.reproduce.p004.tables``) and
  no quoted id (``"004"``, ``'004'``), the two ways code names a paper; a docstring's *prose* may cite a paper by
  its number ("Paper: 004, Eq. (5)", "papers 000/002"): STYLE.md asks a model's docstring to name the paper and
  equation it reproduces, and no code reads prose.

An id "stands as a token" when no digit touches it on the right and, on the left, no letter, digit or point (so
``0.004`` is a number) unless it is ``p<id>`` after a point or another non-letter (``paperlib.reproduce.p004``) or
follows an underscore (``READING_000``). Inside a paper package the ids of *other* papers are not checked: a paper
that re-asks another's claims (005 asks 000's and 002's of today's transports) names them in its own claim ids.
Shared modules loop over the registry instead (:mod:`paperlib.registry`): ``registry.part(paper, "stack")``,
``registry.declared(paper, "CORRECTIONS", (), "corrections")``.

:data:`ALLOWED` lists, per file, the literals that remain with the reason they stay; the test fails when a file
holds more of them (a new literal) or fewer (the list is stale: lower the count), naming ``file:line`` for each.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from paperlib.data import PAPERS

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "paperlib"
#: A paper package's folder, relative to the repository: the one place its id may stand.
OWN_PACKAGE = re.compile(r"paperlib/reproduce/p(\d{3})/")

#: Literals that stay outside their owner: file -> (how many, why). Each is a debt with its reason, not a licence.
ALLOWED: dict[str, tuple[int, str]] = {
    "paperlib/models/reading.py": (
        4, "READING_000 and READING_002 name the two papers' documented readings of the one per-object algorithm "
           "that models/narrowband_response.py (paper 000's Eq. (2)) and models/http_response_time.py (paper "
           "002's) share; renaming them is an API change across both models, both packages and their tests"),
    "paperlib/models/narrowband_response.py": (
        5, "paper 000's model: its default reading READING_000 (see models/reading.py) and its errors saying whose "
           "model refuses a reading"),
    "paperlib/models/http_response_time.py": (
        6, "paper 002's model: its default reading READING_002 (see models/reading.py) and its error saying whose "
           "model refuses a reading"),
    "paperlib/models/handshake.py": (
        1, "reads its anchors from data/005/ by id (PAPER); passing the tables in from paper 005's package changes "
           "every signature of the model"),
    "paperlib/models/web_page.py": (
        1, "reads its anchors from data/005/ by id (PAPER), as models/handshake.py"),
    "paperlib/models/web_traffic.py": (
        1, "MAH_DIR, the default folder of Mah's distributions (data/001/mah); every reader also takes a folder"),
}


def _docstring_starts(tree: ast.AST) -> set[tuple[int, int]]:
    """Return the (line, column) where each docstring starts: a module's, class's or function's, and a bare
    string statement (an attribute's docstring)."""
    return {(node.lineno, node.col_offset) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def _patterns(papers: tuple[str, ...] | list[str]) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """Return the patterns of an id as a token, of a package reference ``p<id>`` and of a quoted id."""
    ids = "(?:" + "|".join(map(re.escape, papers)) + ")"
    token = re.compile(rf"(?<![A-Za-z0-9])p{ids}(?![0-9])|(?<![A-Za-z0-9.]){ids}(?![0-9])|(?<=_){ids}(?![0-9])")
    package = re.compile(rf"(?<![A-Za-z0-9])p{ids}(?![0-9])")
    quoted = re.compile(rf"[\"']{ids}[\"']")
    return token, package, quoted


def literals(path: Path, papers: tuple[str, ...] | list[str] = PAPERS) -> list[str]:
    """Return ``"file:line: what"`` for every paper id literal of ``path`` that the rule (module docstring) forbids."""
    source = path.read_text(encoding="utf-8")
    docstrings = _docstring_starts(ast.parse(source))
    token, package, quoted = _patterns(papers)
    try:
        rel = path.relative_to(REPO)
    except ValueError:
        rel = path
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        text = tok.string
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start in docstrings):
            hits = [(m, "names a paper package" if rx is package else "quotes a paper id")
                    for rx in (package, quoted) for m in rx.finditer(text)]
            where = "comment" if tok.type == tokenize.COMMENT else "docstring"
        elif tok.type in (tokenize.STRING, tokenize.NAME) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            hits = [(m, "paper id in code") for m in token.finditer(text)]
            where = "name" if tok.type == tokenize.NAME else "string"
        else:
            continue
        for m, what in hits:
            line = tok.start[0] + text.count("\n", 0, m.start())
            found.append(f"{rel}:{line}: {what} ({where}): {text[max(0, m.start() - 25):m.end() + 25]!r}")
    return found


def shared_modules() -> list[Path]:
    """Return every module of ``paperlib/`` outside the paper packages, in path order."""
    return [p for p in sorted(PACKAGE.rglob("*.py")) if not OWN_PACKAGE.match(f"{p.relative_to(REPO).as_posix()}")]


def test_the_rule_by_hand(tmp_path):
    # code: a quoted id, an id in a path or a sentence, a package import, an identifier; not a longer number,
    # not 1004 or 0.004, not an id inside a word (x004y); docstrings: package names and quoted ids only
    path = tmp_path / "m.py"
    path.write_text('"""Paper: 004, Eq. (5); see data/004/ and paperlib.reproduce.p004.tables; "004"."""\n'
                    'from paperlib.reproduce.p004 import tables\n'
                    'A = "004"\nB = "data/001/mah"\nC = f"paper {1} of 000"\nREADING_002 = 1\n'
                    'D = "1004 0.004 x004y 40041"\nE = 4  # p003 and \'005\' and paper 002\n')
    got = [h.split(": ", 2)[1] for h in literals(path, ("000", "001", "002", "003", "004", "005"))]
    assert got == ["names a paper package (docstring)", "quotes a paper id (docstring)",  # line 1: not "Paper: 004"
                   "paper id in code (name)",  # p004 of the import
                   "paper id in code (string)", "paper id in code (string)", "paper id in code (string)",  # A, B, C
                   "paper id in code (name)",  # READING_002
                   "names a paper package (comment)", "quotes a paper id (comment)"]  # not "paper 002" in prose


def test_no_paper_id_outside_its_owner():
    by_file: dict[str, list[str]] = {}
    for path in shared_modules():
        for hit in literals(path):
            by_file.setdefault(hit.split(":", 1)[0], []).append(hit)
    problems = []
    for rel, hits in sorted(by_file.items()):
        allowed, why = ALLOWED.get(rel, (0, ""))
        if len(hits) != allowed:
            problems.append(f"{rel}: {len(hits)} paper id literal(s), {allowed} allowed"
                            + (f" ({why})" if why else "") + ":\n    " + "\n    ".join(hits))
    stale = [f"{rel}: allowed {n}, holds none: remove it from ALLOWED" for rel, (n, _) in ALLOWED.items()
             if rel not in by_file]
    assert not problems + stale, ("a paper's id stands outside its package (move the fact to "
                                  "paperlib/reproduce/p<id>/ or data/<id>/, loop over paperlib.registry):\n"
                                  + "\n".join(problems + stale))


@pytest.mark.parametrize("rel", sorted(ALLOWED))
def test_every_allowance_says_why(rel):
    count, why = ALLOWED[rel]
    assert count > 0 and len(why.split()) >= 8 and (REPO / rel).exists()
