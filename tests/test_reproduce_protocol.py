"""The protocol's checker (paperlib/reproduce/protocol.py) names every departure and passes a conforming package.

Whether each paper package conforms is ``tests/test_layout.py::test_every_paper_package_answers_the_protocol``.
"""

from __future__ import annotations

import sys

#: A paper package that departs from the protocol in every checked way (written into a temporary folder).
BROKEN_PACKAGE = {
    "__init__.py": "",
    "operating_point.py": (
        "import pandas as pd\n"
        "def convention_search(paper, axes=None) -> pd.DataFrame: ...\n"
        "def chosen_convention(search) -> dict: ...\n"),
    "ledger_rows.py": "def ledger_rows(paper, search=None) -> tuple: ...\n",
    "what_if.py": "def check(profile='scaled') -> dict: ...\n",
    "claims.py": "CLAIMS = {}\n",
    "figures.py": "from pathlib import Path\ndef latency(frame, path) -> Path: ...\n",
    "explore.py": "def explorer(cache_dir): ...\n",
    "ns3.py": (
        "import pandas as pd\n"
        "def run(paper, conv, replications, *, cache_dir, base_seed) -> pd.DataFrame: ...\n"),
    "emulated.py": (
        "import pandas as pd\n"
        "def run(paper, profile, browsers, out, n_links=None) -> pd.DataFrame: ...\n"
        "def summary(runs, *, conv) -> pd.DataFrame: ...\n"),
    "reproduce.py": (
        "import pandas as pd\n"
        "def model(run, seed) -> pd.DataFrame: ...\n"
        "def with_ns3(run, r, cache_dir, seed): ...\n"),
}


def test_the_protocol_check_names_every_departure(tmp_path, monkeypatch):
    from paperlib.reproduce import protocol

    folder = tmp_path / "broken_paper"
    folder.mkdir()
    for name, text in BROKEN_PACKAGE.items():
        (folder / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    found = "\n".join(protocol.conformance("999", package="broken_paper"))
    expected = [
        "convention_search: parameters ['paper', 'axes'], expected ['paper']",
        "chosen_convention: parameters ['search'], expected ['paper', 'search']",
        "chosen_convention: returns 'dict', not a subclass of paperlib.conventions.Convention",
        "ledger_rows: parameters ['paper', 'search'], expected ['paper', 'search', 'simulations', 'real_stacks']",
        "what_if.check: parameters ['profile'] are not keyword-only",
        "what_if.check: returns 'dict', expected paperlib.parameters.Parameters",
        "claims.CLAIMS: not the paper's ClaimRegistry",
        "figures.latency: returns 'Path', expected matplotlib.figure.Figure",
        "explore.explorer: parameters ['cache_dir'] have no default",
        "emulated.run: positional parameters ['paper', 'profile', 'browsers', 'out', 'n_links'], expected ['paper', "
        "'profile', 'out'] (a paper's own parameters are keyword-only)",
        "emulated.run: returns 'DataFrame', expected Emulated",
        "emulated.summary: positional parameters ['runs'], expected ['paper', 'real_stacks']",
        "ns3.run: positional parameters ['paper', 'conv', 'replications'], expected ['paper', 'conv'] (a paper's own "
        "parameters are keyword-only)",
        "ns3.run: returns 'DataFrame', expected Simulations",
        "ns3.summary: missing",
        "reproduce.model: parameters ['run', 'seed'], expected ['run']",
        "reproduce.model: returns 'DataFrame', expected",
        "reproduce.with_ns3: positional parameters ['run', 'r', 'cache_dir', 'seed'], expected ['run', 'r']",
        "reproduce.with_ns3: returns None, expected paperlib.reproduction.Reproduction",
        "reproduce.with_real_stacks: missing (the paper has an 'emulated' part)",
    ]
    assert [e for e in expected if e not in found] == []


def test_a_conforming_signature_passes_and_a_changed_default_fails(tmp_path, monkeypatch):
    from paperlib.reproduce import protocol

    folder = tmp_path / "good_paper"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "ledger_rows.py").write_text(
        "from __future__ import annotations\n"
        "from paperlib.ledger import Row\n"
        "def ledger_rows(paper, *, search=None, simulations=None, real_stacks=None) -> list[Row]: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert not [p for p in protocol.conformance("998", package="good_paper") if ".ledger_rows.ledger_rows" in p]
    (folder / "ledger_rows.py").write_text(
        "from __future__ import annotations\n"
        "from paperlib.ledger import Row\n"
        "def ledger_rows(paper, *, search=None, simulations=None, real_stacks=0) -> list[Row]: ...\n")
    sys.modules.pop("good_paper.ledger_rows", None)
    assert [p for p in protocol.conformance("998", package="good_paper") if ".ledger_rows.ledger_rows" in p] == [
        "good_paper.ledger_rows.ledger_rows: parameter 'real_stacks': keyword-only default 0, expected "
        "keyword-only default None"]


def departures(tmp_path, monkeypatch, package: str, files: dict[str, str], module: str) -> list[str]:
    """Write the paper package ``package`` of ``files`` (name -> text; an empty ``__init__.py`` added) into
    ``tmp_path``, importable afresh, and return the protocol's departures that concern its ``module``."""
    from paperlib.reproduce import protocol

    folder = tmp_path / package
    folder.mkdir(exist_ok=True)
    for name, text in {"__init__.py": "", **files}.items():
        (folder / name).write_text(text)
        sys.modules.pop(f"{package}.{name.removesuffix('.py')}", None)
    monkeypatch.syspath_prepend(str(tmp_path))
    return [p for p in protocol.conformance("997", package=package) if f".{module}." in p]


def test_a_paper_s_own_emulated_parameters_are_keyword_only_and_summary_s_have_defaults(tmp_path, monkeypatch):
    head = ("from __future__ import annotations\n"
            "import pandas as pd\n"
            "from paperlib.emulation.notebook import Emulated\n"
            "class Mine(Emulated): ...\n")
    # a subclass of Emulated, a required keyword-only parameter of run's own, a keyword-only one of summary's
    assert departures(tmp_path, monkeypatch, "emulating_paper", {"emulated.py": (
        head + "def run(paper, profile, out, *, browsers, scheduler_links=None) -> Mine: ...\n"
               "def summary(paper, real_stacks, *, conv=None) -> pd.DataFrame: ...\n")}, "emulated") == []
    assert departures(tmp_path, monkeypatch, "emulating_paper", {"emulated.py": (
        head + "def run(paper, profile, out) -> Mine: ...\n"
               "def summary(paper, real_stacks, *, conv) -> pd.DataFrame: ...\n")}, "emulated") == [
        "emulating_paper.emulated.run: parameter 'scheduler_links' missing",
        "emulating_paper.emulated.summary: parameter 'conv' has no default"]


def test_a_paper_s_stages_return_its_reproduction_and_take_their_own_parameters_by_keyword(tmp_path, monkeypatch):
    head = ("from __future__ import annotations\n"
            "from dataclasses import dataclass\n"
            "from paperlib import reproduction\n"
            "@dataclass(frozen=True, kw_only=True)\n"
            "class Reproduction(reproduction.Reproduction): ...\n"
            "def model(run) -> Reproduction: ...\n")
    # a subclass of Reproduction; with_ns3 without an ns3 part (as 001's); both with keyword-only parameters of
    # their own
    assert departures(tmp_path, monkeypatch, "staged_paper", {"emulated.py": "", "reproduce.py": (
        head + "def with_ns3(run, r, *, cache_dir, seed, scheduler=None, n_workers=None, users) -> Reproduction: ...\n"
               "def with_real_stacks(run, r, *, emulation, lock=None) -> Reproduction: ...\n")}, "reproduce") == []
    assert departures(tmp_path, monkeypatch, "staged_paper", {"reproduce.py": (
        head + "def with_ns3(run, r, *, cache_dir, seed, scheduler=None, n_workers=2) -> Reproduction: ...\n")},
        "reproduce") == [
        "staged_paper.reproduce.with_ns3: parameter 'n_workers': keyword-only default 2, expected keyword-only "
        "default None",
        "staged_paper.reproduce.with_real_stacks: missing (the paper has an 'emulated' part)"]
