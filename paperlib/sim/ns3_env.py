"""Import ns-3 safely and once per process.

ns-3's Python loader scans the current working directory recursively for its
shared objects, and fails if it finds two installs (e.g. a checkout holding a
virtual environment of its own). :func:`load` imports it from an empty
temporary directory and restores the working directory, so callers can run
from anywhere. The import costs about 6 s and 640 MB, so it happens once per
process (Dask workers import it on their first task).

The ns-3 loader parses every module header before it loads the shared objects. ``nstime.h``
defines a static ``g_timeInitHelper`` whose constructor calls ``ns3::Time::StaticInit()``; cling
JIT-compiles that initializer while no library defines the function yet, and prints
"[runStaticInitializersOnce]: Failed to materialize symbols" (twice per process). :func:`load`
loads ``libns3*-core.so`` into cling first, so the symbol resolves and the initializer runs (it is
idempotent: the core library's own copies of the helper have already called it).
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from glob import glob
from importlib.util import find_spec


@lru_cache(maxsize=1)
def load():
    """Return the ``ns`` namespace of the ns-3 bindings, imported once per process."""
    _load_core_library()
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ns3-import-") as empty:
        os.chdir(empty)
        try:
            from ns import ns  # noqa: PLC0415
        finally:
            os.chdir(here)
    return ns


def core_library() -> str:
    """Return the path of the ns-3 wheel's core library (``<site-packages>/ns3/lib*/libns3*-core.so``)."""
    spec = find_spec("ns3")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("ns-3 is not installed (no ns3 package); pip install ns3")
    found = sorted(path for folder in spec.submodule_search_locations
                   for path in glob(os.path.join(folder, "lib*", "libns3*-core.so")))
    if not found:
        raise ImportError(f"no libns3*-core.so under {list(spec.submodule_search_locations)}")
    return found[0]


def _load_core_library() -> None:
    """Load ns-3's core library into cling before its headers are parsed (see the module docstring)."""
    import cppyy  # noqa: PLC0415 (ns-3's own dependency, imported on first use like ns-3)

    cppyy.load_library(core_library())


def cpp(ns, namespace: str, code: str):
    """Return the C++ namespace ``namespace`` (``ns.cppyy.gbl.<namespace>``), defining it from ``code`` on first use.

    cppyy compiles ``code`` once per process; a second definition of the same names would fail.
    """
    if not hasattr(ns.cppyy.gbl, namespace):
        ns.cppyy.cppdef(code)
    return getattr(ns.cppyy.gbl, namespace)
