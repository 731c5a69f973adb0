"""The run manifest of an output folder and the check make reproduce runs (paperlib.manifest)."""

import json

from paperlib import manifest


def test_manifest_check_fails_loudly_on_incomplete_or_changed_sets(tmp_path, capsys):
    good = tmp_path / "good"
    good.mkdir()
    (good / "ledger.csv").write_text("x\n")
    manifest.write(good, notebook="nb", parameters={})
    assert manifest.main(["check", str(good)]) == 0
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "ledger.csv").write_text("x\n")
    assert manifest.main(["check", str(bare)]) == 1
    assert "no .run-manifest.json" in capsys.readouterr().err
    (good / "ledger.csv").write_text("y\n")
    assert manifest.main(["check", str(good)]) == 1
    assert "changed since the run" in capsys.readouterr().err
    record = json.loads((good / manifest.NAME).read_text())
    (good / manifest.NAME).write_text(json.dumps({**record, "status": "running"}))
    assert "incomplete" in "".join(manifest.problems(good))
    assert manifest.problems(tmp_path / "absent")
