"""Import ns-3 safely and once per process.

ns-3's Python loader scans the current working directory recursively for its
shared objects, and fails if it finds two installs (e.g. a checkout holding a
virtual environment of its own). :func:`load` imports it from an empty
temporary directory and restores the working directory, so callers can run
from anywhere. The import costs about 6 s and 640 MB, so it happens once per
process (Dask workers import it on their first task).
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache


@lru_cache(maxsize=1)
def load():
    """Return the ``ns`` namespace of the ns-3 bindings, imported once per process."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ns3-import-") as empty:
        os.chdir(empty)
        try:
            from ns import ns  # noqa: PLC0415
        finally:
            os.chdir(here)
    return ns


def cpp(ns, namespace: str, code: str):
    """Return the C++ namespace ``namespace`` (``ns.cppyy.gbl.<namespace>``), defining it from ``code`` on first use.

    cppyy compiles ``code`` once per process; a second definition of the same names would fail.
    """
    if not hasattr(ns.cppyy.gbl, namespace):
        ns.cppyy.cppdef(code)
    return getattr(ns.cppyy.gbl, namespace)
