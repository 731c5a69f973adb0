"""The reproduction report: a static HTML site built from figures/ (``make report``).

nbconvert (its ``basic`` template, the notebook body only) renders the executed notebooks; Jinja2
templates in ``templates/`` wrap them with the index, paper, ledger and docs pages; mistune (nbconvert's
own Markdown renderer) renders ``docs/`` and the verdicts of ``paperlib.verdicts``; MathJax, copied from
the pinned ``jupyter-server-mathjax`` package, typesets the mathematics in the reader's browser. Every
asset is a local file: the site opens offline from ``figures/report/index.html``.

``paperlib.report.build.build(figures, out)`` builds it; ``python -m paperlib.report`` is the command.
"""
