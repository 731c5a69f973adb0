"""Write a new paper's skeleton: ``python -m paperlib.new_paper 006 --name short_name --title "..."``.

The skeleton is every file a paper has (docs/extending.md, "Adding a paper"), each rendered from a template kept
beside this module (``templates/``, a tree shaped like the repository whose paths and texts hold ``{paper}``,
``{name}`` and ``{{paper}}``, ``{{name}}``, ``{{title}}``, ``{{title_doc}}``, the title wrapped for a docstring):

* ``data/<id>/``: ``datapackage.json``, ``example_table.csv`` (a printed table's schema: a label and an input
  column), ``text_values.csv`` with one example input and ``claims.csv`` with one example claim (no published number:
  every example says PLACEHOLDER);
* ``paperlib/models/<name>.py``: a placeholder model that returns its input;
* ``paperlib/reproduce/p<id>/``: every named part of a paper package, answering :mod:`paperlib.reproduce.protocol`;
* ``tests/test_models_<name>.py`` and ``tests/test_reproduce_p<id>_<module>.py``, one per module;
* ``notebooks/<id>_<name>.ipynb``: a thin notebook between ``notebook.open_paper`` and ``notebook.close_paper``;
* ``docs/papers/<id>.md``: the paper's page, in the sections every paper page has;
* the notebook's entry in ``tests/nbval/parameters.yml`` and, unless ``--no-fixture``, its nbval fixture
  ``tests/nbval/<id>_<name>.ipynb`` (``tools/nbval_fixtures.py``, which executes the notebook: seconds).

Nothing shared is edited but ``tests/nbval/parameters.yml``: the registry discovers the paper from ``data/<id>/`` and
its notebook (:func:`paperlib.data.paper_ids`). A bad id (not three digits, or a paper that exists), name or title is
refused naming the parameter, before anything is written. Each file is written atomically; a failure part-way
removes the files already written.
"""

from __future__ import annotations

import argparse
import keyword
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from paperlib.atomic import atomic_write_text
from paperlib.data import PAPER_ID_RE
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parents[2]
#: The templates: a tree shaped like the repository, every file's path ending in ``.tmpl``.
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: A short name: the notebook's suffix and the model's module name (``slow_start_latency``).
NAME_RE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
MAX_NAME, MAX_TITLE = 40, 200
#: The width a title is wrapped to in a docstring (``{{title_doc}}``).
DOC_WIDTH = 110
#: Characters a title may not hold: it goes into docstrings, JSON and Markdown as it is.
TITLE_FORBIDDEN = re.compile(r'["\\{}`\x00-\x1f\x7f]')
#: The nbval parameters of every notebook (tools/nbval_fixtures.py reads them).
NBVAL_PARAMETERS = Path("tests") / "nbval" / "parameters.yml"


@dataclass(frozen=True)
class Skeleton:
    """A new paper's skeleton: its id, short name and title, and the files it is written as."""

    paper: str
    name: str
    title: str
    #: repository-relative path -> text
    files: dict[str, str]

    @property
    def notebook(self) -> str:
        """The notebook's name without ``.ipynb`` (``006_short_name``), its key in the nbval parameters."""
        return f"{self.paper}_{self.name}"


def check_paper(paper: object, root: Path = REPO) -> str:
    """Return ``paper`` if it is a new paper id: three digits, no data, notebook, package or page of that id yet."""
    if not isinstance(paper, str) or not PAPER_ID_RE.fullmatch(paper):
        raise ParameterError(f"paper: the id must be three digits (a string), got {paper!r}")
    taken = [p for p in (f"data/{paper}", f"paperlib/reproduce/p{paper}", f"docs/papers/{paper}.md")
             if (root / p).exists()]
    taken += [f"notebooks/{nb.name}" for nb in sorted((root / "notebooks").glob(f"{paper}_*.ipynb"))]
    if taken:
        raise ParameterError(f"paper: {paper} exists ({', '.join(taken)}); choose an id no paper has")
    return paper


def check_name(name: object, root: Path = REPO) -> str:
    """Return ``name`` if it is a short name: lower-case words joined by ``_``, not a model module that exists."""
    if not isinstance(name, str) or len(name) > MAX_NAME or not NAME_RE.fullmatch(name) or keyword.iskeyword(name):
        raise ParameterError(f"name: the short name must be lower-case letters and digits in words joined by '_', "
                             f"starting with a letter, at most {MAX_NAME} characters (e.g. slow_start_latency), "
                             f"got {name!r}")
    if (root / "paperlib" / "models" / f"{name}.py").exists():
        raise ParameterError(f"name: paperlib/models/{name}.py exists (another paper's model); choose another name")
    return name


def check_title(title: object) -> str:
    """Return ``title`` stripped if it is one line of at most :data:`MAX_TITLE` characters, without a quotation mark,
    a backslash, a brace or a backtick (:data:`TITLE_FORBIDDEN`)."""
    if not isinstance(title, str) or not title.strip():
        raise ParameterError(f"title: the paper's title must be a non-empty text, got {title!r}")
    bad = TITLE_FORBIDDEN.search(title)
    if bad or len(title.strip()) > MAX_TITLE:
        why = f"holds {bad.group()!r}" if bad else f"is longer than {MAX_TITLE} characters"
        raise ParameterError(f"title: {title!r} {why}; a title is one line without quotes, backslashes, braces or "
                             "backticks")
    return title.strip()


def render(text: str, values: dict[str, str], where: str) -> str:
    """Return ``text`` with every ``{{key}}`` of ``values`` replaced; raise naming ``where`` if one is left."""
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    left = re.search(r"\{\{\w+\}\}", text)
    if left:
        raise ValueError(f"{where}: template placeholder {left.group()} has no value")
    return text


def skeleton(paper: str, name: str, title: str, root: Path = REPO) -> Skeleton:
    """Return the skeleton of a new paper ``paper`` (checked: :func:`check_paper`, :func:`check_name`,
    :func:`check_title`) rendered from :data:`TEMPLATES`; write nothing."""
    paper, name, title = check_paper(paper, root), check_name(name, root), check_title(title)
    # title_doc: the title wrapped for a docstring's lines (the line length ruff allows)
    values = {"paper": paper, "name": name, "title": title, "title_doc": textwrap.fill(title, DOC_WIDTH)}
    files = {}
    for template in sorted(TEMPLATES.rglob("*.tmpl")):
        rel = template.relative_to(TEMPLATES).as_posix().removesuffix(".tmpl").format(paper=paper, name=name)
        files[rel] = render(template.read_text(encoding="utf-8"), values, str(template.relative_to(TEMPLATES)))
    return Skeleton(paper, name, title, files)


def nbval_entry(text: str, notebook: str) -> str:
    """Return the nbval parameters ``text`` with an entry for ``notebook`` added: its defaults (``{}``)."""
    if re.search(rf"^{re.escape(notebook)}:", text, re.M):
        raise ParameterError(f"paper: {NBVAL_PARAMETERS} already has an entry {notebook}")
    return text.rstrip("\n") + f"\n# A new paper's skeleton runs with its own defaults (seconds).\n{notebook}: {{}}\n"


def write(sk: Skeleton, root: Path = REPO) -> list[Path]:
    """Write the skeleton's files under ``root`` and its nbval entry; return the paths written, in order.

    Raises :class:`~paperlib.validate.ParameterError` before writing anything if a file exists; if a write fails,
    the files already written are removed and the nbval parameters are left as they were.
    """
    targets = [root / rel for rel in sk.files]
    existing = [str(p.relative_to(root)) for p in targets if p.exists()]
    if existing:
        raise ParameterError(f"paper: {sk.paper}'s files exist ({', '.join(existing)}); nothing was written")
    params = root / NBVAL_PARAMETERS
    old = params.read_text(encoding="utf-8")
    new = nbval_entry(old, sk.notebook)
    written: list[Path] = []
    made: list[Path] = []  # the folders made for the files, removed with them
    try:
        for path, text in zip(targets, sk.files.values(), strict=True):
            made += [d for d in (path.parent, *path.parent.parents) if not d.exists()]
            path.parent.mkdir(parents=True, exist_ok=True)
            written.append(atomic_write_text(path, text))
        atomic_write_text(params, new)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        for folder in sorted(set(made), key=lambda p: len(p.parts), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    return [*written, params]


def write_fixture(sk: Skeleton, root: Path = REPO) -> subprocess.CompletedProcess:
    """Execute the new notebook with ``tools/nbval_fixtures.py`` into its nbval fixture; return the finished process."""
    return subprocess.run([sys.executable, str(root / "tools" / "nbval_fixtures.py"), sk.notebook], cwd=root,
                          capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m paperlib.new_paper ID --name NAME --title TITLE``; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.new_paper", description=__doc__.splitlines()[0])
    parser.add_argument("paper", help="the new paper's id, three digits")
    parser.add_argument("--name", required=True, help="short name: the notebook's suffix and the model's module")
    parser.add_argument("--title", required=True, help="the paper's title, as data/<id>/datapackage.json gives it")
    parser.add_argument("--no-fixture", action="store_true",
                        help="do not execute the notebook into its nbval fixture (make nbval-fixtures does it later)")
    args = parser.parse_args(argv)
    try:
        sk = skeleton(args.paper, args.name, args.title)
        paths = write(sk)
    except ParameterError as err:
        sys.stderr.write(f"new paper: {err}\n")
        return 2
    for path in paths:
        print(f"wrote {path.relative_to(REPO)}")
    if args.no_fixture:
        print(f"nbval fixture not written: run `make nbval-fixtures` (or tools/nbval_fixtures.py {sk.notebook})")
        return 0
    done = write_fixture(sk)
    sys.stdout.write(done.stdout)
    if done.returncode:
        sys.stderr.write(done.stderr + f"new paper: the notebook failed to run into its nbval fixture; fix it and "
                                       f"run tools/nbval_fixtures.py {sk.notebook}\n")
        return 1
    print(f"next: docs/extending.md, \"Adding a paper\": replace every PLACEHOLDER of paper {sk.paper}")
    return 0
