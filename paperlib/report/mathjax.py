r"""MathJax for the report, from a package installed with the environment (no network, no CDN).

``jupyter-server-mathjax`` (PyPI, BSD-3-Clause; Jupyter's own offline MathJax) ships MathJax 2.7.
:func:`copy_mathjax` copies the part the report uses into the site; :data:`SCRIPT` is the page's
configuration: ``$...$`` and ``\(...\)`` inline, ``$$...$$`` and ``\[...\]`` displayed, ``\$`` a
dollar sign, nothing inside ``pre`` or ``code``. The output is the browser's own MathML (MathJax's
NativeMML output; Chromium, Firefox and Safari render MathML), so no web font is loaded: a page
opened from disk (``file:``) may not load fonts at all. MathJax runs in the reader's browser, so the
HTML stays the same bytes for the same inputs.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

PACKAGE = "jupyter_server_mathjax"
CONFIG = "TeX-AMS-MML_HTMLorMML-full"
# What the TeX-AMS-MML_HTMLorMML-full configuration loads for NativeMML output: its output jax are inside
# the configuration file, but the HTML-CSS jax reads its font tables (JavaScript) at start-up whatever the
# renderer. The web fonts themselves, the SVG output, the localization and the accessibility extension's
# speech rules (half of the package's size; the math menu that would load them is off) are left out.
PARTS = ("MathJax.js", "LICENSE", "config", "extensions", "jax/input", "jax/element", "jax/output/HTML-CSS")
LEFT_OUT = ("a11y",)
SITE_FOLDER = "assets/mathjax"

SCRIPT = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  tex2jax: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]], displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]],
            processEscapes: true, processEnvironments: true},
  "HTML-CSS": {availableFonts: [], webFont: "STIX-Web", imageFont: null, preferredFont: null},
  messageStyle: "none", showMathMenu: false, menuSettings: {zoom: "None"}
});
MathJax.Hub.Register.StartupHook("End Jax", function () { return MathJax.Hub.setRenderer("NativeMML"); });
MathJax.Hub.Register.StartupHook("End", function () { document.documentElement.dataset.mathjax = "done"; });
</script>
<script src="assets/mathjax/MathJax.js?config=%s"></script>
""" % CONFIG


def mathjax_root() -> Path:
    """Return the folder of the installed MathJax; raise naming the package to install if it is missing."""
    # found, not imported: importing the package starts jupyter_server's imports (seconds)
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the report needs MathJax from the Python package {PACKAGE.replace('_', '-')} "
                           "(requirements.lock; make venv installs it)")
    root = Path(spec.submodule_search_locations[0]) / "static"
    if not (root / "MathJax.js").is_file():
        raise RuntimeError(f"{root}: no MathJax.js in the installed {PACKAGE}")
    return root


def copy_mathjax(site: Path) -> Path:
    """Copy MathJax's parts the report uses into ``site``/assets/mathjax; return that folder."""
    root = mathjax_root()
    dest = site / SITE_FOLDER
    for part in PARTS:
        src = root / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns(*LEFT_OUT))
        else:
            (dest / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / part)
    return dest
