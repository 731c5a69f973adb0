"""The published data loads and validates; malformed files fail naming file, row and column."""

import json

import pytest

from paperlib.data import PAPERS, DataError, load_all, load_paper, paper_ids, pending_ids


def _paper_tree(root, data=(), notebooks=()):
    for p in data:
        (root / "data" / p).mkdir(parents=True)
        (root / "data" / p / "datapackage.json").write_text("{}")
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    for name in notebooks:
        (root / "notebooks" / name).write_text("{}")
    return root / "data", root / "notebooks"


def test_papers_are_discovered_from_data_and_notebooks(tmp_path):
    assert PAPERS == paper_ids() and set(PAPERS) >= {"000", "001", "002", "003", "004"}
    # README.md, explorers.ipynb and a folder without datapackage.json are not papers
    dirs = _paper_tree(tmp_path, data=("005", "000"), notebooks=("000_a.ipynb", "005_b.ipynb", "explorers.ipynb"))
    (tmp_path / "data" / "README.md").write_text("x")
    (tmp_path / "data" / "006").mkdir()
    assert paper_ids(*dirs) == ("000", "005")


@pytest.mark.parametrize("data, notebooks, message", [
    (("005",), (), r"data/005/datapackage.json has no notebook .*notebooks/005_<name>.ipynb"),
    ((), ("005_b.ipynb",), r"notebooks/005_b.ipynb has no published data .*data/005/datapackage.json"),
    (("005",), ("005_a.ipynb", "005_b.ipynb"), r"paper 005 has 2 notebooks \(005_a.ipynb, 005_b.ipynb\)"),
])
def test_a_half_added_paper_is_named(tmp_path, data, notebooks, message):
    dirs = _paper_tree(tmp_path, data=("000",) + data, notebooks=("000_a.ipynb",) + notebooks)
    with pytest.raises(DataError, match=message):
        paper_ids(*dirs)
    assert paper_ids(*dirs, strict=False) == ("000",)  # the package itself leaves it out until it is whole


def _declare_pending(data_dir, pid, why):
    (data_dir / pid / "datapackage.json").write_text(json.dumps({"paper": pid, "notebook_pending": why}))


def test_a_paper_with_its_notebook_pending_is_data_only(tmp_path):
    dirs = _paper_tree(tmp_path, data=("000", "005"), notebooks=("000_a.ipynb",))
    _declare_pending(dirs[0], "005", "models still to be written")
    # not a half-added paper (no error), not a paper of the pipeline, listed as pending
    assert paper_ids(*dirs) == ("000",) and pending_ids(dirs[0]) == ("005",)
    # once its notebook exists, the key must go: the pending declaration would otherwise hide the paper
    (dirs[1] / "005_b.ipynb").write_text("{}")
    with pytest.raises(DataError, match=r"notebooks/005_b.ipynb exists, but .*data/005/datapackage.json says its "
                                        r"notebook is pending \('notebook_pending'\): remove that key"):
        paper_ids(*dirs)


@pytest.mark.parametrize("why", ["", "   ", 1, True])
def test_a_pending_notebook_says_why(tmp_path, why):
    dirs = _paper_tree(tmp_path, data=("005",), notebooks=())
    _declare_pending(dirs[0], "005", why)
    with pytest.raises(DataError, match=r"data/005/datapackage.json: 'notebook_pending' must say why"):
        pending_ids(dirs[0])


def test_every_paper_loads():
    papers = load_all()
    # every data folder loads and validates, the papers of the pipeline and those whose notebook is pending
    assert sorted(papers) == sorted(PAPERS + pending_ids())
    # paper 005's notebook exists, so no paper is pending (tests above declare one in a temporary folder)
    assert "005" in PAPERS and pending_ids() == ()
    for paper in papers.values():
        assert len(paper.text_values.cells) > 0
        # something to check: a printed table's result column, a result stated in the text, or a claim (a new
        # paper's skeleton, python -m paperlib.new_paper, has an example claim and no published number)
        printed = any(t.columns("result") for n, t in paper.tables.items() if n not in ("text_values", "claims"))
        assert printed or (paper.text_values.cells["role"] == "result").any() or len(paper.claims.cells) > 0


def test_table_ii_of_004_is_as_printed():
    cells = load_paper("004").tables["table2"].cells
    assert list(cells.columns) == ["BANDWIDTH", "Exp(SCTP)", "Model(SCTP)", "Exp(TCP)", "Model(TCP)"]
    assert cells.iloc[0].tolist() == ["28 Kbps", "14.12", "14.68", "14.71", "15.08"]
    # printed precision is kept: "7.70" stays "7.70", not 7.7
    assert cells["Exp(TCP)"].iloc[1] == "7.70"


def test_typos_are_kept_as_printed():
    p003 = load_paper("003")
    assert "93/2%" in set(p003.tables["results"].cells["Efficiency"])
    assert "100 kb" in set(p003.tables["modified_specweb96"].cells["Class 3"])


def test_number_words_are_kept_as_printed_with_their_number():
    p000 = load_paper("000")
    row = p000.text_values.cells.set_index("id").loc["dupacks_fast_retx"]
    assert (row["printed"], row["number"]) == ("three", "3")  # the seed says "If three duplicate ..."
    q = p000.text_value("dupacks_fast_retx")
    assert (q.printed, q.value) == ("three", 3.0)
    assert p000.text_value("objects_per_html").value == 5.0  # "five web objects"
    assert load_paper("003").text_value("index_pages_per_page").printed == "one"


def test_number_word_and_number_must_agree(data_copy):
    _rewrite(data_copy / "000" / "text_values.csv", "timeout,3\n", "timeout,4\n")
    with pytest.raises(DataError, match=r"text_values\.csv: row 4 \(line 5\), column 'number': printed as the word "
                                         r"'three': the number column must say 3, got '4'"):
        load_paper("000", data_copy)


def test_fill_down_repeats_group_labels():
    cells = load_paper("000").tables["table1"].cells
    assert cells["packet loss ratio (p)"].tolist()[:5] == ["0.4 %"] * 4 + ["1 %"]


def _rewrite(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# (file under data/004, text to replace, replacement, what the error must say)
MALFORMED = [
    pytest.param("table2.csv", "Exp(TCP),", "",
                 r"table2\.csv.*column 'Exp\(TCP\)'.*missing from the header", id="missing-column"),
    pytest.param("table2.csv", "7.54", "7.5x",
                 r"table2\.csv: row 2 \(line 3\), column 'Model\(SCTP\)': '7\.5x' is not a number",
                 id="non-numeric-cell"),
    pytest.param("table2.csv", "56 Kbps", "56 Kbaud",
                 r"row 2 \(line 3\), column 'BANDWIDTH': unknown unit 'Kbaud'", id="unknown-unit-in-cell"),
    pytest.param("text_values.csv", ",1500,B,", ",1500,octets,",
                 r"text_values\.csv: row 2 \(line 3\), column 'unit': unknown unit 'octets'",
                 id="unknown-unit-in-text"),
    pytest.param("table2.csv", "4.39,4.40,", "4.39,",
                 r"row 3 \(line 4\): has 4 cells, the header has 5", id="short-row"),
    pytest.param("table2.csv", "1.14,", ",",
                 r"row 4 \(line 5\), column 'Exp\(SCTP\)': empty cell", id="empty-result-cell"),
    pytest.param("table2.csv", "Model(TCP)\n", "Model(TCP),Extra\n",
                 r"column 'Extra': in the header but not declared", id="undeclared-column"),
    pytest.param("text_values.csv", ",50,KB,", ",fifty,KB,",
                 r"text_values\.csv: row 1 \(line 2\), column 'printed': 'fifty'", id="text-number"),
]


@pytest.mark.parametrize("name, old, new, message", MALFORMED)
def test_malformed_file_is_named(data_copy, name, old, new, message):
    _rewrite(data_copy / "004" / name, old, new)
    with pytest.raises(DataError, match=message):
        load_paper("004", data_copy)


def test_unknown_unit_in_the_schema(data_copy):
    path = data_copy / "004" / "datapackage.json"
    meta = json.loads(path.read_text())
    meta["resources"][0]["schema"]["fields"][1]["unit"] = "fortnights"
    path.write_text(json.dumps(meta))
    with pytest.raises(DataError, match=r"column 'Exp\(SCTP\)': unknown unit 'fortnights'"):
        load_paper("004", data_copy)


def test_unknown_unit_in_text_values(data_copy):
    _rewrite(data_copy / "004" / "text_values.csv", ",1500,B,", ",1500,octets,")
    with pytest.raises(DataError, match=r"text_values\.csv: row 2 \(line 3\), column 'unit': unknown unit 'octets'"):
        load_paper("004", data_copy)


def test_missing_file_and_bad_json(data_copy):
    (data_copy / "004" / "claims.csv").unlink()
    with pytest.raises(DataError, match=r"claims\.csv: file is missing"):
        load_paper("004", data_copy)
    (data_copy / "003" / "datapackage.json").write_text("{not json")
    with pytest.raises(DataError, match=r"003/datapackage\.json: not valid JSON"):
        load_paper("003", data_copy)


def test_cli_reports_invalid_data(data_copy, capsys):
    from paperlib.data import main

    _rewrite(data_copy / "002" / "table3.csv", "14.89", "1489s")
    assert main(["--root", str(data_copy)]) == 1
    assert "table3.csv: row 1 (line 2), column '0.055'" in capsys.readouterr().err
