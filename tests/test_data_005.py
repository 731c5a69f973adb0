"""The anchors of paper 005 load, and every number is tied to its source by a verbatim quote.

``data/005`` holds today's reference values (Web Almanac 2024, RFCs, two papers' abstracts). These
tests check what can be checked without the sources at hand: the schema (through
``paperlib.data.load_paper``), that each ``printed`` snippet sits inside its row's quote, that
``value`` is the first number in ``printed``, that every source and passage id resolves, and that each
handshake derivation ends in the count of its row. A check is also run on broken copies, so each
one is shown to fail.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from paperlib.data import DATA_DIR, load_paper

FOLDER = DATA_DIR / "005"
ANCHOR_TABLES = ("page_weight", "page_weight_lighthouse", "requests_per_page", "requests_by_type", "bytes_by_type",
                 "protocol_share")
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
#: Numbers that the RFCs print as words in the initial-window rules.
WORDS = {"ten": 10, "twice": 2}


def _read(folder: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False)


def _printed_number(text: str) -> float:
    """Return the first number of a printed snippet: digits (thousands separators allowed) or a number word.

    The number of a row comes first in its snippet; what follows may hold other numbers that only
    label it (``85% over HTTP/2``, ``28% for mobile in 2024``).
    """
    found = [(m.start(), float(m.group().replace(",", ""))) for m in NUMBER.finditer(text)]
    found += [(m.start(), float(WORDS[m.group()])) for m in re.finditer(r"[a-z]+", text) if m.group() in WORDS]
    if not found:
        raise ValueError(f"{text!r} holds no number")
    return min(found)[1]


def quote_problems(folder: Path) -> list[str]:
    """Return every row of the anchor tables whose printed snippet or value disagrees with its quote."""
    out = []
    for name in ANCHOR_TABLES:
        cells = _read(folder, name)
        for i, row in cells.iterrows():
            where = f"{name}.csv: row {i + 1}"
            if not row["quote"].strip():
                out.append(f"{where}: empty quote")
            elif row["printed"] not in row["quote"]:
                out.append(f"{where}, column 'printed': {row['printed']!r} is not in the quote")
            try:
                if _printed_number(row["printed"]) != float(row["value"]):
                    out.append(f"{where}, column 'value': {row['value']!r} is not the number in {row['printed']!r}")
            except ValueError as err:
                out.append(f"{where}, column 'printed': {err}")
    windows = _read(folder, "initial_windows")
    for i, row in windows.iterrows():
        for printed, value in (("segments_printed", "segments"), ("byte_limit_printed", "byte_limit"),
                               ("floor_printed", "floor_segments")):
            where = f"initial_windows.csv: row {i + 1}"
            if row[printed] not in row["quote"]:
                out.append(f"{where}, column {printed!r}: {row[printed]!r} is not in the quote")
            if _printed_number(row[printed]) != float(row[value]):
                out.append(f"{where}, column {value!r}: {row[value]!r} is not the number in {row[printed]!r}")
    return out


def test_005_loads_with_the_loader_and_has_every_table():
    paper = load_paper("005")
    assert set(paper.tables) == {"sources", *ANCHOR_TABLES, "initial_windows", "handshake_passages",
                                 "handshake_rtts", "text_values", "claims"}
    # The page weights and the loader's typed view of them: 2,652 KB and 2,311 KB.
    assert paper.tables["page_weight"].values("value").tolist() == [2652.0, 2311.0]


def test_every_printed_number_is_in_its_quote_and_equals_its_value():
    assert quote_problems(FOLDER) == []


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    # a mistyped value: the quote says 2,652 KB
    ("page_weight.csv", ",2652,", ",2625,", r"page_weight.csv: row 1, column 'value': '2625' is not the number"),
    # a printed snippet that is not in the quote
    ("requests_per_page.csv", "desktop,90th,176 requests on desktop,",
     "desktop,90th,167 requests on desktop,", r"requests_per_page.csv: row 5, column 'printed'"),
    # the RFC 9002 byte limit mistyped
    ("initial_windows.csv", ",14720,", ",14600,", r"initial_windows.csv: row 2, column 'byte_limit'"),
])
def test_quote_check_fails_on_a_broken_copy(tmp_path, file, old, new, message):
    copy = tmp_path / "005"
    shutil.copytree(FOLDER, copy)
    text = (copy / file).read_text(encoding="utf-8")
    assert old in text
    (copy / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = quote_problems(copy)
    assert any(re.search(message, p) for p in problems), problems


def test_every_source_id_resolves_and_every_source_is_used():
    sources = set(_read(FOLDER, "sources")["id"])
    used = set()
    for name in (*ANCHOR_TABLES, "initial_windows", "handshake_passages"):
        used |= set(_read(FOLDER, name)["source"])
    for name in ("text_values", "claims"):
        # location is "<source id>: <part of the source>"
        used |= {loc.split(":", 1)[0] for loc in _read(FOLDER, name)["location"]}
    assert used - sources == set()
    assert sources - used == set()


def test_text_values_and_claims_quote_what_they_state():
    for _, row in _read(FOLDER, "text_values").iterrows():
        assert row["printed"] in row["quote"], row["id"]
    for _, row in _read(FOLDER, "claims").iterrows():
        assert row["quote"].strip(), row["id"]


def test_handshake_counts_name_existing_passages_and_match_their_derivation():
    passages = set(_read(FOLDER, "handshake_passages")["id"])
    named = set()
    for _, row in _read(FOLDER, "handshake_rtts").iterrows():
        ids = row["passages"].split(";")
        assert set(ids) <= passages, row["stack"]
        named |= set(ids)
        # each derivation ends in "...: <n> RTT." or "... = <n> RTT.": the count of the row
        ending = re.search(r"(\d+) RTT\.$", row["derivation"])
        assert ending is not None and ending.group(1) == row["rtts"], row["stack"]
    assert passages - named == set()


def test_anchors_that_the_source_prints_twice_agree():
    # The chapter prints the median request count twice: as the 50th percentile of the request
    # distribution and as the total of the per-type figure (71 desktop, 66 mobile).
    per_page = _read(FOLDER, "requests_per_page").set_index(["device", "percentile"])["value"]
    by_type = _read(FOLDER, "requests_by_type").set_index(["device", "content_type"])["value"]
    for device in ("desktop", "mobile"):
        assert per_page[(device, "50th")] == by_type[(device, "total")]
    # Shares of one scope and device add up to 100 %: 15 + 85; 22 + 71 + 7; 21 + 70 + 9.
    shares = _read(FOLDER, "protocol_share")
    shares = shares[shares["scope"] != "home pages announcing HTTP/3 via alt-svc"]
    totals = shares.assign(value=shares["value"].astype(float)).groupby(["scope", "device"])["value"].sum()
    assert totals.tolist() == [100.0] * 4
