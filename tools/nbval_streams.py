"""pytest plugin for nbval runs: stderr is not compared (``-p nbval_streams``, tools/ on sys.path).

What a notebook writes to stderr is never a result here: tqdm progress bars of the sweep runner
(their timings change every run), warnings (with the absolute path of the environment), the
ns-3 JIT's start-up messages and Dask's logs. A failing cell still fails (nbval checks errors
separately), and everything on stdout and every display (tables, text, Markdown) is compared.
The fixtures are written without stderr (tools/nbval_fixtures.py); this drops it from the
re-executed side too, and from the executed notebooks that ``make validate`` checks.
"""

from nbval.plugin import IPyNbCell

_compare = IPyNbCell.compare_outputs


def _without_stderr(outputs):
    return [o for o in outputs if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]


def compare_outputs(self, test, ref, skip_compare=None):
    """Compare a cell's outputs as nbval does, with stderr streams left out of both sides."""
    return _compare(self, _without_stderr(test), _without_stderr(ref), skip_compare)


IPyNbCell.compare_outputs = compare_outputs
