"""Markdown to HTML for the report: the docs pages, the verdict paragraphs and the results table.

mistune (already in the environment: nbconvert renders notebooks' Markdown with it) with its math
plugin, so ``$...$`` and ``$$...$$`` reach the page untouched for MathJax (``paperlib.report.mathjax``)
instead of having their underscores read as emphasis. Headings get GitHub's anchors, so a link
``other.md#a-heading`` written for GitHub finds its target in the site too. Links are rewritten for
the site: a ``docs/`` page to its report page, ``README.md`` to the index, anything else in the
repository (source files, data) to plain text, since the site holds no copy of it.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable
from html import escape
from urllib.parse import urlsplit

import mistune

PLUGINS = ["math", "table", "strikethrough", "url", "footnotes"]


def slug(text: str) -> str:
    """Return GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", text)
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


class SiteRenderer(mistune.HTMLRenderer):
    """mistune's HTML renderer with heading anchors and links resolved by ``resolve``.

    ``resolve(url)`` returns the URL to link to in the site, or None to show the link's text only.
    """

    def __init__(self, resolve: Callable[[str], str | None]):
        super().__init__(escape=False)
        self.resolve = resolve
        self.seen: dict[str, int] = {}

    def heading(self, text: str, level: int, **attrs) -> str:
        """Return the heading with an ``id`` (GitHub's slug, ``-1``, ``-2`` ... for repeats)."""
        base = slug(text)
        n = self.seen.get(base, 0)
        self.seen[base] = n + 1
        anchor = base if n == 0 else f"{base}-{n}"
        return f'<h{level} id="{escape(anchor)}">{text}</h{level}>\n'

    def link(self, text: str, url: str, title: str | None = None) -> str:
        """Return the link to the site's copy of ``url``, or its text alone if the site has none."""
        target = self.resolve(url)
        if target is None:
            return f'<span class="repo-link" title="{escape(url)} in the repository">{text}</span>'
        return super().link(text, target, title)

    def image(self, text: str, url: str, title: str | None = None) -> str:
        """Return the image if the site has it, else its alternative text."""
        target = self.resolve(url)
        if target is None:
            return f'<span class="repo-link" title="{escape(url)} in the repository">{escape(text)}</span>'
        return super().image(text, target, title)


def external(url: str) -> bool:
    """Return whether ``url`` leaves the site (a scheme such as https: or mailto:, or a network path)."""
    parts = urlsplit(url)
    return bool(parts.scheme) or url.startswith("//")


def to_html(text: str, resolve: Callable[[str], str | None] | None = None) -> str:
    """Return ``text`` (Markdown with ``$`` math) as HTML; relative links go through ``resolve``.

    Without ``resolve``, links outside the site or to a fragment of the same page are kept and
    every other relative link is shown as text.
    """
    def keep_only_outside(url: str) -> str | None:
        return url if external(url) or url.startswith("#") else None

    md = mistune.create_markdown(renderer=SiteRenderer(resolve or keep_only_outside), plugins=PLUGINS)
    return md(text)


def doc_resolver(doc: str, pages: dict[str, str]) -> Callable[[str], str | None]:
    """Return the link resolver of the document ``doc`` (its path under the repository, e.g. ``docs/a.md``).

    ``pages`` maps repository paths of documents in the site to their page names; ``README.md``
    maps to the index.
    """
    here = posixpath.dirname(doc)

    def resolve(url: str) -> str | None:
        if external(url) or url.startswith("#"):
            return url
        parts = urlsplit(url)
        path = posixpath.normpath(posixpath.join(here, parts.path)) if parts.path else doc
        page = pages.get(path)
        if page is None:
            return None
        return page + (f"#{parts.fragment}" if parts.fragment else "")

    return resolve


def first_heading(text: str) -> str:
    """Return the text of the first ``#`` heading of a Markdown document (empty if none)."""
    match = re.search(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)
    return match.group(1) if match else ""
