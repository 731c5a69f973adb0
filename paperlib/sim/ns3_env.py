"""Import ns-3 safely and once per process.

ns-3's Python loader scans the current working directory recursively for its
shared objects, and fails if it finds two installs (e.g. a checkout holding a
virtual environment of its own). :func:`load` reads the wheel's own folder
instead (or, loading every module, imports it from an empty temporary directory
and restores the working directory), so callers can run from anywhere. The import costs seconds
and hundreds of MB, so it happens once per process (Dask workers import it on their first task).

The ns-3 loader parses every module header before it loads the shared objects. ``nstime.h``
defines a static ``g_timeInitHelper`` whose constructor calls ``ns3::Time::StaticInit()``; cling
JIT-compiles that initializer while no library defines the function yet, and prints
"[runStaticInitializersOnce]: Failed to materialize symbols" (twice per process). :func:`load`
loads ``libns3*-core.so`` into cling first, so the symbol resolves and the initializer runs (it is
idempotent: the core library's own copies of the helper have already called it).

Only the modules the package's simulations use are loaded (:data:`MODULES`): ns-3's own loader
(``from ns import ns``) parses the headers of all 45 modules of the wheel (LTE, Wi-Fi, mesh...), most
of a process's start-up, where these nine take a fraction of it (``make bench`` prints both); every
Dask worker, notebook kernel and test process that simulates pays it once. :func:`load` parses and
loads them as the wheel's loader (``ns3/ns/__init__.py``) does: the same macros, the ``Ptr`` smart
pointer, headers before libraries, the same Python conveniences, so a simulation gives the same bytes
either way (``tests/test_sim_ns3_env.py`` checks it). ``WEBPERF_NS3_ALL_MODULES=1`` loads every module
through the wheel's loader instead (for work with modules outside :data:`MODULES`).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import types
from functools import lru_cache
from glob import glob
from importlib.util import find_spec
from pathlib import Path

#: The ns-3 modules the package's simulations use, each after the ns-3 modules its library links.
MODULES = ("core", "stats", "network", "bridge", "traffic-control", "internet", "point-to-point", "applications",
           "flow-monitor")

#: The macros the wheel's loader defines before it parses any header (it derives them from the third-party
#: libraries the wheel's modules link: SQLite, libxml2, OpenFlow, Click); the test compares the two loaders.
DEFINES = ("HAVE_SQLITE3", "HAVE_LIBXML2", "NS3_OPENFLOW", "ENABLE_OPENFLOW", "NS3_CLICK")

#: The environment variable that makes :func:`load` import every module through the wheel's own loader.
ALL_MODULES_VARIABLE = "WEBPERF_NS3_ALL_MODULES"

_CONVENIENCES = """
using namespace ns3;
bool Time_ge(Time& a, Time& b){ return a >= b;}
bool Time_eq(Time& a, Time& b){ return a == b;}
bool Time_ne(Time& a, Time& b){ return a != b;}
bool Time_le(Time& a, Time& b){ return a <= b;}
bool Time_gt(Time& a, Time& b){ return a > b;}
bool Time_lt(Time& a, Time& b){ return a < b;}
std::tuple<bool, TypeId> LookupByNameFailSafe(std::string name)
{
    TypeId id;
    bool ok = TypeId::LookupByNameFailSafe(name, &id);
    return std::make_tuple(ok, id);
}
"""


@lru_cache(maxsize=1)
def load():
    """Return the ``ns`` namespace of the ns-3 bindings (:data:`MODULES`, or every module when the environment sets
    :data:`ALL_MODULES_VARIABLE` to 1), imported once per process."""
    _load_core_library()
    if os.environ.get(ALL_MODULES_VARIABLE, "") == "1":
        return _load_all()
    loaded = getattr(sys.modules.get("ns"), "ns", None)
    if loaded is not None:  # this process has loaded ns-3 already (either loader): cling cannot parse it twice
        return loaded
    return _load_modules(MODULES)


def _load_modules(modules: tuple[str, ...]):
    """Parse ``modules``' headers and load their libraries as the wheel's loader does for all of them."""
    import cppyy  # noqa: PLC0415
    import libcppyy  # noqa: PLC0415 (cppyy's extension module, as the wheel's loader uses it)

    core = Path(core_library())
    version = re.fullmatch(r"libns(.+)-core\.so", core.name)
    if version is None:
        raise ImportError(f"cannot read the ns-3 version from {core}")
    libraries = [core.parent / f"libns{version.group(1)}-{m}.so" for m in modules]
    missing = [str(p) for p in libraries if not p.exists()]
    if missing:
        raise ImportError(f"ns-3 module libraries missing: {missing}")
    libcppyy.AddSmartPtrType("Ptr")
    cppyy.add_library_path(str(core.parent))
    cppyy.add_include_path(str(core.parent.parent / "include"))
    cppyy.cppexec("".join(f"\n#ifndef {d}\n#define {d} 1\n#endif\n" for d in DEFINES))
    for module in modules:
        cppyy.include(f"ns3/{module}-module.h")
    for library in libraries:
        cppyy.load_library(str(library))
    ns = cppyy.gbl.ns3
    ns.cppyy = cppyy
    cppyy.cppdef(_CONVENIENCES)
    for op in ("ge", "eq", "ne", "le", "gt", "lt"):
        setattr(ns.Time, f"__{op}__", getattr(cppyy.gbl, f"Time_{op}"))
    # As the wheel's loader: a Node is deleted by the simulator, so Python keeps every Node it drops alive.
    pending = []
    ns.Node.__del__ = lambda self: pending.append(self)
    ns.LookupByNameFailSafe = cppyy.gbl.LookupByNameFailSafe
    # ``from ns import ns`` in this process now gives these bindings instead of loading everything a second time
    module = types.ModuleType("ns", f"ns-3 bindings of {', '.join(modules)} (loaded by paperlib.sim.ns3_env)")
    module.ns = ns
    sys.modules.setdefault("ns", module)
    return ns


def _load_all():
    """Import every ns-3 module through the wheel's loader (``from ns import ns``) from an empty folder."""
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
