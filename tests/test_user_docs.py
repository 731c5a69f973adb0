"""User documents stay current: no paper list written by hand, no dated measurement (issue 34, item 7).

The papers are discovered (:func:`paperlib.data.paper_ids`), so a document that counts or enumerates them by hand
goes stale when a paper is added; measurements with their dates belong in CHANGELOG.md, not in the README or
``docs/`` (the user documents speak in the present tense).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USER_DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CITATION.cff", ROOT / "pyproject.toml",
                         *(ROOT / "docs").rglob("*.md")])

#: A count of the papers ("six papers", "all five papers") or a range of their ids in code style ("`000` to `004`",
#: "000 .. 004"): both change when a paper is added. "five published studies" names the seeds, a fixed set.
HAND_LIST = re.compile(r"\b(?:all )?(?:five|six|seven) papers\b|`0\d\d` to `0\d\d`|\b0\d\d ?\.\. ?0\d\d\b",
                       re.IGNORECASE)
#: An ISO date (a dated measurement or a work log); citations give years, not days.
DATED = re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b")


def _hits(pattern: re.Pattern, path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.relative_to(ROOT)}:{i}: {line.strip()}" for i, line in enumerate(lines, 1)
            if pattern.search(line)]


@pytest.mark.parametrize("pattern", [HAND_LIST, DATED], ids=["paper list by hand", "dated measurement"])
def test_user_documents_hold_no_stale_kind_of_statement(pattern):
    hits = [h for path in USER_DOCUMENTS for h in _hits(pattern, path)]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("text, pattern, found", [
    ("cite the five papers themselves", HAND_LIST, True),
    ("| `paper` | the paper's id, `000` to `004` |", HAND_LIST, True),
    ("`<paper>` is the seed prefix, `000` .. `004`.", HAND_LIST, False),  # backticks around each id: not a range
    ("`<paper>` is the seed prefix, 000..004.", HAND_LIST, True),
    ("regenerates five published studies", HAND_LIST, False),
    ("measured on 2026-11-26: 31 min", DATED, True),
    ("Proc. IEEE ICC 2006, pp. 164-169", DATED, False),
])
def test_the_patterns_catch_what_they_name(text, pattern, found):
    assert bool(pattern.search(text)) is found


# --- the registry drives the lists (issue 32, item 6) --------------------------------------------------------------

#: Number words a document uses for a count of seeds.
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}
#: "regenerates five published studies": the count of the seeds, the registered papers with a citation.
STUDIES = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r"|\d+) published studies\b", re.IGNORECASE)


def _seeded() -> list[str]:
    """Return the registered papers that reproduce a seed (a ``CITATION``; a paper without a seed has ``None``)."""
    from paperlib import registry
    from paperlib.data import PAPERS

    return [p for p in PAPERS if registry.declared(p, "CITATION", None, "verdict") is not None]


def test_citation_cff_references_every_seeded_paper_in_registry_order():
    import yaml

    from paperlib.verdicts import title

    refs = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))["references"]
    # each seeded paper's title as data/<id>/datapackage.json gives it, one reference each, in paper order
    assert [r["title"] for r in refs] == [title(p) for p in _seeded()]


@pytest.mark.parametrize("path", ["CITATION.cff", "pyproject.toml"])
def test_the_count_of_studies_is_the_registrys(path):
    counts = [m.group(1) for m in STUDIES.finditer((ROOT / path).read_text(encoding="utf-8"))]
    got = [int(c) if c.isdigit() else NUMBER_WORDS[c.lower()] for c in counts]
    assert got and set(got) == {len(_seeded())}, (path, counts, _seeded())


def test_every_registered_paper_has_its_docs_page_and_only_those():
    from paperlib.data import PAPERS

    assert sorted(p.stem for p in (ROOT / "docs" / "papers").glob("*.md")) == list(PAPERS)
