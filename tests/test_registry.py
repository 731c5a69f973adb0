"""A paper's declarations found in its package (paperlib.registry): parts, attributes, the papers that have a part."""

import pytest

from paperlib import registry
from paperlib.data import PAPERS
from paperlib.validate import ParameterError


def test_package_names():
    assert registry.package_name("004") == "paperlib.reproduce.p004"
    assert registry.package_name("004", "stack") == "paperlib.reproduce.p004.stack"
    for bad in ("4", "0004", 4, "p004", "../x"):
        with pytest.raises(ParameterError, match="paper must be a paper id"):
            registry.package_name(bad)
    with pytest.raises(ParameterError, match="name must be a module name"):
        registry.package_name("004", "a.b")


def test_a_part_is_the_module_or_none():
    import paperlib.reproduce.p004.tables as tables

    assert registry.part("004", "tables") is tables
    assert registry.part("004").__name__ == "paperlib.reproduce.p004"
    assert registry.part("003", "stack") is None  # 003 has no real stacks: the part is absent
    assert registry.part("999") is None  # no such package


def test_an_error_inside_an_existing_part_is_not_absence(tmp_path, monkeypatch):
    # a part that exists but imports a missing module raises: absence is only the part's own module missing
    pkg = tmp_path / "paperlib_fake"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "p007").mkdir()
    (pkg / "p007" / "__init__.py").write_text("")
    (pkg / "p007" / "broken.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "PACKAGE", "paperlib_fake")
    assert registry.part("007", "absent") is None
    with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
        registry.part("007", "broken")


def test_declared_reads_an_attribute_or_the_default():
    assert registry.declared("004", "KEY_FIGURES")[0].endswith(".png")
    assert registry.declared("004", "NO_SUCH_ATTRIBUTE", "dflt") == "dflt"
    assert registry.declared("003", "CORRECTIONS", (), "corrections")  # 003's three corrections
    assert registry.declared("004", "CORRECTIONS", (), "corrections") == ()  # no such part: the default


def test_papers_with_a_part_follow_the_registry():
    assert registry.papers_with("verdict") == PAPERS  # every paper has the common parts
    assert registry.papers_with("stack") == ("000", "002", "004")  # the papers whose C application runs
    assert registry.papers_with("stack", ["004", "003"]) == ("004",)
