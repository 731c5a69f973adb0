"""Build the reproduction report from whatever ``figures/`` holds.

``python -m paperlib.report [--figures figures] [--out figures/report]`` (``make report``) reads the
ledger (``figures/ledger.csv``, or the partial ledgers ``figures/<paper>/ledger.csv`` if the merged
one is missing), the executed notebooks ``figures/executed/<paper>_*.ipynb``, the PNGs and
``provenance.json`` of every ``figures/<paper>/``, and writes a static site:

* ``index.html``: what was found (the README's results block, from
  ``paperlib.verdicts``), the ledger summary (rows by paper and status, each count a link to the
  filtered ledger), what each status means, the ledger overview figure, the papers, the
  documentation, the explorers;
* ``paper-<id>.html``: the paper's verdict in a few sentences (``paperlib.verdicts``'s ``opening``),
  then, folded, its details (what reproduces, what does not, why, the key numbers), its ledger rows
  coloured by status, its figures (its package's ``KEY_FIGURES`` first) and its executed notebook
  (nbconvert, ``basic`` template);
* ``doc-<name>.html``: every ``docs/**/*.md`` (``paperlib.report.markdown``), with the key figures of the
  reference run (``reference/figures/``, copied into the site) that the paper documents show;
* ``ledger.html``: every ledger row, filterable by paper and status and searchable (local JS);
* ``explorers.html``: the interactive explorers of ``notebooks/explorers.ipynb`` as static figures.

Every page carries the provenance: the commit of the outputs (and of the build), the parameters
of every notebook run it shows, and the package versions. Mathematics (``$...$`` in the notebooks'
prose, the docs and the verdicts) is typeset in the browser by a MathJax copied into the site from an
installed package (``paperlib.report.mathjax``). Nothing comes from the network. The
site replaces ``--out`` atomically (built in a sibling folder, then swapped); the same inputs give
the same bytes.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from paperlib import ledger, profiles
from paperlib.atomic import replace_folder
from paperlib.data import PAPERS
from paperlib.provenance import REPO_ROOT, Stamp, git_state, package_versions
from paperlib.reference import declaration
from paperlib.report import markdown
from paperlib.report.mathjax import SCRIPT as MATHJAX_SCRIPT
from paperlib.report.mathjax import copy_mathjax
from paperlib.validate import ParameterError

HERE = Path(__file__).resolve().parent
STAMP = Stamp(notebook="paperlib/report")


@dataclass
class PaperPage:
    """What the report shows of one paper."""

    paper: str
    title: str
    notebook: Path | None = None
    figures: list[Path] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)
    rows: pd.DataFrame | None = None
    #: the verdict in a few sentences (:meth:`paperlib.verdicts.PaperVerdict.opening`), which the page opens with
    opening_html: str | None = None
    verdict_html: str | None = None
    #: what stands in for the seed of a paper without one (``seed_note`` of its datapackage.json; "" otherwise)
    seed_note: str = ""

    @property
    def href(self) -> str:
        """Return the file name of this paper's report page."""
        return f"paper-{self.paper}.html"

    @property
    def results(self) -> pd.DataFrame:
        """Return the ledger rows the paper reproduces, measures or judges (every status but ``input``)."""
        rows = self.rows if self.rows is not None else pd.DataFrame(columns=list(ledger.ALL_COLUMNS))
        return rows[rows["status"] != "input"]

    @property
    def inputs(self) -> pd.DataFrame:
        """Return the ledger rows of the numbers the paper takes as given (status ``input``)."""
        rows = self.rows if self.rows is not None else pd.DataFrame(columns=list(ledger.ALL_COLUMNS))
        return rows[rows["status"] == "input"]

    @property
    def present(self) -> bool:
        """Return whether there is anything to show for this paper (notebook, figures or ledger rows)."""
        return self.notebook is not None or bool(self.figures) or (self.rows is not None and len(self.rows) > 0)


def status_meanings() -> dict[str, str]:
    """Return {status: meaning}: ``paperlib.ledger.STATUS_MEANINGS`` if it exists, else parsed from its docstring."""
    meanings = getattr(ledger, "STATUS_MEANINGS", None)
    if isinstance(meanings, dict) and meanings:
        return {str(k): str(v) for k, v in meanings.items()}
    parsed = {}
    for name, text in re.findall(r"\*\s+``(\w+)``:\s+(.*?)(?=\n\s*\*|\n\s*\n|\Z)", ledger.__doc__ or "", re.S):
        parsed[name] = " ".join(text.replace("``", "").split()).rstrip(";.")
    claims = getattr(ledger, "CLAIM_STATUSES", ())
    return {s: parsed.get(s) or (f"a stated claim judged {s.replace('_', ' ')} (data/README.md)" if s in claims else "")
            for s in ledger.STATUSES}


def load_ledger(figures: Path) -> tuple[pd.DataFrame, str]:
    """Return the ledger and the file(s) it came from (relative to ``figures``' parent)."""
    merged = figures / "ledger.csv"
    if merged.exists():
        return ledger.read(merged), f"{figures.name}/ledger.csv"
    partials = sorted(figures.glob("[0-9][0-9][0-9]/ledger.csv"))
    return ledger.merge(partials), ", ".join(f"{figures.name}/{p.parent.name}/ledger.csv" for p in partials) or "none"


def _datapackage(paper: str) -> dict:
    """Return the paper's datapackage.json (empty if absent or unreadable)."""
    path = REPO_ROOT / "data" / paper / "datapackage.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def paper_title(paper: str) -> str:
    """Return the paper's title from its datapackage.json (empty if absent)."""
    return _datapackage(paper).get("title", "")


def paper_seed_note(paper: str) -> str:
    """Return what a paper without a seed rests on (its datapackage's ``seed_note``), or "" for a seeded paper."""
    package = _datapackage(paper)
    return "" if package.get("seed", "-") else str(package.get("seed_note", ""))


def collect(figures: Path, frame: pd.DataFrame) -> list[PaperPage]:
    """Return one PaperPage per paper, with whatever ``figures`` holds for it."""
    pages = []
    for paper in PAPERS:
        page = PaperPage(paper=paper, title=paper_title(paper), seed_note=paper_seed_note(paper))
        notebooks = sorted((figures / "executed").glob(f"{paper}_*.ipynb"))
        page.notebook = notebooks[0] if notebooks else None
        folder = figures / paper
        page.figures = key_first(list(folder.glob("*.png")), _key_figures(paper)) if folder.is_dir() else []
        prov = folder / "provenance.json"
        if prov.exists():
            page.provenance = json.loads(prov.read_text())
        page.rows = frame[frame["paper"] == paper]
        pages.append(page)
    return pages


def render_notebook(path: Path) -> str:
    """Return the notebook's body as HTML (nbconvert's ``basic`` template: no page, no scripts)."""
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(path, as_version=4)
    body, _ = HTMLExporter(template_name="basic", exclude_input_prompt=True,
                           exclude_output_prompt=True).from_notebook_node(nb)
    return body


@dataclass(frozen=True)
class DocPage:
    """One document of ``docs/`` as a page of the site."""

    source: str  # path in the repository, e.g. docs/001-workload.md
    href: str
    title: str
    html: str


def doc_page_name(source: str) -> str:
    """Return the site's page name of a ``docs/`` document: ``docs/a/b.md`` -> ``doc-a-b.html``."""
    stem = source.removeprefix("docs/").removesuffix(".md")
    return "doc-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", stem) + ".html"


def collect_docs(docs: Path, assets: dict[str, str] | None = None) -> list[DocPage]:
    """Return every ``*.md`` under ``docs`` (subfolders too, sorted by path) rendered as a page.

    Links between documents lead to their pages, ``README.md`` to the index, a repository file
    the site copies (``assets``: its repository path -> its path in the site, such as the reference
    run's key figures, :func:`reference_assets`) to its copy, other repository files show as text
    (see :mod:`paperlib.report.markdown`).
    """
    if not docs.is_dir():
        return []
    paths = sorted(docs.rglob("*.md"))
    sources = {p: "docs/" + p.relative_to(docs).as_posix() for p in paths}
    names = {src: doc_page_name(src) for src in sources.values()}
    clashes = {page: sorted(src for src, p in names.items() if p == page) for page in names.values()}
    clashes = {page: srcs for page, srcs in clashes.items() if len(srcs) > 1}
    if clashes:
        raise ValueError(f"{docs}: documents that would be the same page of the report: {clashes}")
    pages_of = {**(assets or {}), **names, "README.md": "index.html"}
    out = []
    for path, src in sources.items():
        text = path.read_text(encoding="utf-8")
        html = markdown.to_html(text, markdown.doc_resolver(src, pages_of))
        out.append(DocPage(source=src, href=names[src], title=markdown.first_heading(text) or src, html=html))
    return out


def reference_assets(reference: Path) -> dict[str, Path]:
    """Return the reference run's key figures the docs show: ``reference/figures/<id>/<name>.png`` -> the file.

    The keys are repository paths (what a document's link resolves to) and the paths of the copies in the site.
    """
    reference = Path(reference)
    return {f"reference/{p.relative_to(reference).as_posix()}": p
            for p in sorted(reference.glob("figures/*/*.png"))} if reference.is_dir() else {}


def _key_figures(paper: str) -> tuple[str, ...]:
    """Return the paper's ``KEY_FIGURES`` (none while its package declares none: ``make validate`` says so)."""
    try:
        return declaration(paper).key_figures
    except (ParameterError, ImportError):
        return ()


def key_first(figures: list[Path], key: tuple[str, ...]) -> list[Path]:
    """Return ``figures`` with the paper's key figures first (in ``key``'s order), then the others by name."""
    return sorted(figures, key=lambda p: (key.index(p.name) if p.name in key else len(key), p.name))


def summary_table(frame: pd.DataFrame, statuses: list[str]) -> pd.DataFrame:
    """Return rows per paper (index) and status (columns), with totals."""
    if not len(frame):
        return pd.DataFrame(columns=statuses)
    counts = frame.groupby(["paper", "status"]).size().unstack(fill_value=0).reindex(columns=statuses, fill_value=0)
    counts["total"] = counts.sum(axis=1)
    counts.loc["all"] = counts.sum()
    return counts


def versions_of(pages: list[PaperPage]) -> dict[str, str]:
    """Return package -> version(s) of the runs behind the pages (the build's own if no run recorded them)."""
    seen: dict[str, list[str]] = {}
    for page in pages:
        for name, version in (page.provenance.get("versions") or {}).items():
            seen.setdefault(name, [])
            if version not in seen[name]:
                seen[name].append(version)
    if not seen:
        return dict(package_versions())
    return {name: ", ".join(v) for name, v in sorted(seen.items())}


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["params"] = lambda d: json.dumps(d, sort_keys=True) if d else "{}"
    return env


#: Text colour of a badge whose background is too light for white text.
DARK_TEXT = "#222222"


def white_contrast(color: str) -> float:
    """Return the contrast ratio of white text on ``color`` (``#rrggbb``), WCAG 2's (L1 + 0.05) / (L2 + 0.05)."""
    channels = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def _status_css(statuses: list[str]) -> str:
    """Return each status's row tint and badge colour; a badge below WCAG's 3:1 for white text gets dark text."""
    from paperlib.figures import STATUS_COLORS

    lines = []
    for s in statuses:
        color = STATUS_COLORS.get(s, "#999999")
        lines.append(f".status-{s} {{ background: {color}22; }} .badge-{s} {{ background: {color}; }}")
        if white_contrast(color) < 3:
            lines.append(f".badge-{s} {{ color: {DARK_TEXT}; }}")
    return "\n".join(lines) + "\n"


def paper_link(pages: list[PaperPage]) -> Callable[[str], str | None]:
    """Return the link resolver of the results table: a paper's page under ``docs/papers/`` becomes the site's page
    of that paper; links outside the site are kept; any other is shown as text."""
    present = {p.paper for p in pages if p.present}

    def resolve(url: str) -> str | None:
        m = re.fullmatch(r"docs/papers/(\d{3})\.md", url)
        if m and m.group(1) in present:
            return f"paper-{m.group(1)}.html"
        return url if markdown.external(url) else None

    return resolve


def build(figures: Path | str = REPO_ROOT / "figures", out: Path | str | None = None,
          docs: Path | str = REPO_ROOT / "docs", reference: Path | str = REPO_ROOT / "reference") -> Path:
    """Build the site from ``figures`` (and the documents of ``docs``) into ``out`` (default ``figures/report``).

    The key figures of the reference run (``reference``, :func:`reference_assets`) are copied into the site,
    so the paper documents show them as they do on GitHub. Return ``out``.
    """
    from paperlib.verdicts import paper_verdicts, results_table

    figures = Path(figures).resolve()
    out = Path(out).resolve() if out is not None else figures / "report"
    frame, ledger_source = load_ledger(figures)
    meanings = status_meanings()
    statuses = list(dict.fromkeys([*meanings, *ledger.STATUSES]))
    pages = collect(figures, frame)
    verdicts = paper_verdicts(frame) if len(frame) else []
    by_paper = {v.paper: v for v in verdicts}
    for page in pages:
        if page.paper in by_paper:
            page.opening_html = markdown.to_html(by_paper[page.paper].opening())
            page.verdict_html = markdown.to_html(by_paper[page.paper].details())
    results_html = markdown.to_html(results_table(verdicts), paper_link(pages)) if verdicts else None
    assets = reference_assets(Path(reference))
    doc_pages = collect_docs(Path(docs), {src: src for src in assets})
    commit, dirty = git_state()
    output_commits = sorted(set(frame["commit"])) if len(frame) else []
    for page in pages:
        if page.provenance.get("commit") and page.provenance["commit"] not in output_commits:
            output_commits.append(page.provenance["commit"])
    versions = versions_of(pages)

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; the site is meant to be read (and served)
    try:
        (tmp / "assets").mkdir()
        for name in ("report.css", "ledger.js"):
            shutil.copyfile(HERE / "static" / name, tmp / "assets" / name)
        (tmp / "assets" / "status.css").write_text(_status_css(statuses))
        copy_mathjax(tmp)

        from paperlib import explore, plots
        from paperlib.figures import save_figure

        overview = None
        if len(frame):
            save_figure(plots.ledger_overview(frame), tmp / "ledger_overview.png", STAMP)
            overview = "ledger_overview.png"
        explorers = explore.static_figures(tmp / "explorers", STAMP)

        for src, path in assets.items():
            (tmp / src).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, tmp / src)
        for page in pages:
            if page.figures:
                (tmp / "fig" / page.paper).mkdir(parents=True)
                for png in page.figures:
                    shutil.copyfile(png, tmp / "fig" / page.paper / png.name)

        env = _environment()
        common = {
            "pages": pages,
            "statuses": statuses,
            "meanings": meanings,
            "build_commit": commit,
            "build_dirty": dirty,
            "output_commits": output_commits,
            "versions": versions,
            "ledger_source": ledger_source,
            "docs": doc_pages,
            "mathjax": MATHJAX_SCRIPT,
            "quick_note": profiles.quick_note(frame, ledger_source),  # None unless the quick profile made rows
        }

        def write(name: str, template: str, shown: list[PaperPage], **context) -> None:
            html = env.get_template(template).render(**common, shown=shown, page_name=name, **context)
            (tmp / name).write_text(html, encoding="utf-8")

        present = [p for p in pages if p.present]
        write("index.html", "index.html.j2", present, summary=summary_table(frame, statuses), total=len(frame),
              overview=overview, explorers=explorers, results_html=results_html)
        write("ledger.html", "ledger.html.j2", present, frame=frame,
              papers=sorted(set(frame["paper"])) if len(frame) else [])
        write("explorers.html", "explorers.html.j2", [], explorers=explorers)
        for page in present:
            notebook_html = render_notebook(page.notebook) if page.notebook else None
            write(page.href, "paper.html.j2", [page], page=page, notebook_html=notebook_html)
        for doc in doc_pages:
            write(doc.href, "doc.html.j2", [], doc=doc)
        replace_folder(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out



def main(argv: list[str] | None = None) -> int:
    """Build the report site from the figures folder; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.report", description=__doc__.splitlines()[0])
    parser.add_argument("--figures", type=Path, default=REPO_ROOT / "figures",
                        help="outputs to read (default figures/)")
    parser.add_argument("--out", type=Path, default=None, help="site folder (default <figures>/report)")
    parser.add_argument("--docs", type=Path, default=REPO_ROOT / "docs",
                        help="documents to render as pages, subfolders too (default docs/)")
    parser.add_argument("--reference", type=Path, default=REPO_ROOT / "reference",
                        help="the reference run whose key figures the documents show (default reference/)")
    args = parser.parse_args(argv)
    out = build(args.figures, args.out, args.docs, args.reference)
    print(f"report: {out / 'index.html'}")
    return 0
