"""paperlib.report.mathjax: the report's MathJax comes from an installed package, copied into the site."""

import pytest

from paperlib.report import mathjax


def test_missing_mathjax_package_is_named(monkeypatch):
    monkeypatch.setattr(mathjax, "PACKAGE", "no_such_mathjax_package")
    with pytest.raises(RuntimeError, match="no-such-mathjax-package"):
        mathjax.mathjax_root()


def test_the_copy_holds_the_config_the_pages_load_and_not_the_left_out_parts(tmp_path):
    dest = mathjax.copy_mathjax(tmp_path)
    assert dest == tmp_path / mathjax.SITE_FOLDER
    assert (dest / "MathJax.js").is_file() and (dest / "config" / f"{mathjax.CONFIG}.js").is_file()
    # the accessibility extension is left out (its speech rules are most of MathJax's size)
    assert not any(part in mathjax.LEFT_OUT for p in dest.rglob("*") for part in p.relative_to(dest).parts)
