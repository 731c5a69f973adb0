"""Provenance stamps: commit, dirty flag, parameters, seed and package versions, no wall-clock time
(paperlib.provenance)."""

import json
import subprocess

import pytest

from paperlib import provenance
from paperlib.provenance import Stamp, digest, git_state


def test_digest_is_short_stable_and_independent_of_key_order():
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": 1}) != digest({"a": 2})
    # sha256 of the compact JSON '{"a":1}', first 12 hex digits
    import hashlib

    assert digest({"a": 1}) == hashlib.sha256(b'{"a":1}').hexdigest()[:12]
    assert len(digest([])) == 12


@pytest.fixture
def fresh_git_state():
    git_state.cache_clear()
    yield git_state
    git_state.cache_clear()  # the next caller gets the repository's own state again


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_git_state_of_a_clean_and_a_dirty_checkout(tmp_path, fresh_git_state):
    _git(tmp_path, "init", "-q")
    (tmp_path / "f.txt").write_text("one\n")
    _git(tmp_path, "add", "f.txt")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    (tmp_path / "untracked.txt").write_text("generated output\n")  # untracked files do not make it dirty
    assert fresh_git_state(tmp_path) == (head.strip(), False)
    fresh_git_state.cache_clear()
    (tmp_path / "f.txt").write_text("two\n")
    assert fresh_git_state(tmp_path) == (head.strip(), True)
    fresh_git_state.cache_clear()
    assert fresh_git_state(tmp_path / "no-such-folder") == ("unknown", True)


def test_package_versions_name_every_stamped_package_and_python():
    versions = provenance.package_versions()
    assert set(versions) == set(provenance.STAMPED_PACKAGES) | {"python"}
    assert versions["numpy"] != "absent"
    assert all(isinstance(v, str) and v for v in versions.values())


def test_package_versions_of_named_distributions_python_and_an_absent_one():
    import platform
    from importlib import metadata

    names = ("scipy", provenance.PYTHON, "no-such-distribution-webperf")
    versions = provenance.package_versions(names)
    assert list(versions) == list(names)  # in the order asked, nothing else (the sweep cache's key is this dict)
    assert versions == {"scipy": metadata.version("scipy"), "python": platform.python_version(),
                        "no-such-distribution-webperf": "absent"}
    versions["scipy"] = "changed by a caller"  # a copy: the next caller sees the installed version
    assert provenance.package_versions(names)["scipy"] == metadata.version("scipy")


def test_stamp_columns_and_file(tmp_path):
    stamp = Stamp("000_multiuser_waiting.ipynb", {"p": 0.01, "m_values": [1, 5]})
    cols = stamp.columns()
    assert cols["parameters"] == '{"m_values":[1,5],"p":0.01}'  # sorted keys, compact
    assert cols["seed"] == "" and cols["dirty"] in ("true", "false")
    assert cols["environment"] == digest(provenance.package_versions())
    assert Stamp("x", seed=7).columns()["seed"] == "7"
    written = json.loads(stamp.write(tmp_path).read_text())
    assert written == json.loads(json.dumps(stamp.as_dict()))
    assert "time" not in json.dumps(written)  # no wall-clock field anywhere
    meta = stamp.png_metadata()
    assert set(meta) == {"Software", "Source", "Comment"} and all(isinstance(v, str) for v in meta.values())
    assert meta["Source"].startswith("000_multiuser_waiting.ipynb @ " + stamp.commit)
