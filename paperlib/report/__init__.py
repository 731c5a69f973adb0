"""The reproduction report: a static HTML site built from figures/ (``make report``).

nbconvert (its ``basic`` template, the notebook body only) renders the executed notebooks; Jinja2
templates in ``templates/`` wrap them with the index, paper and ledger pages. Both are already in
the environment (nbconvert is Jupyter's own exporter), so the report adds no dependency, and every
asset is a local file: the site opens offline from ``figures/report/index.html``.

``paperlib.report.build.build(figures, out)`` builds it; ``python -m paperlib.report`` is the command.
"""
