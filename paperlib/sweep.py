"""The one sweep runner: every simulation of the package goes through :func:`run_sweep`.

``run_sweep(simulate, points, cache_dir=...)`` calls ``simulate(params, seed)`` once per
parameter point and returns one row per point, in the order of ``points``. A point's seed is a
hash of its parameters (:func:`point_seed`), so its result does not depend on the order, the
workers or the other points of the sweep. Each result is cached as JSON under ``cache_dir``,
keyed by the parameters in canonical form, the seed, the code version and the versions of the
libraries that compute a result (numpy, scipy, ns-3): a re-run computes only what is missing, and an
edit of the simulating module or an upgrade of those libraries recomputes everything. Each entry
carries its schema number and a sha256 checksum of its content; an entry that fails either (edited,
truncated, written by another schema) is recomputed with a warning, never served. An entry also records
how long its point took on its worker (``seconds``, ``cpu_seconds``; outside the key): the estimate of
the time left of a later sweep (:mod:`paperlib.sweep_progress`) reads them. Entries are written to a
temporary file and renamed into place, so concurrent runs of the same point (two workers, two ``make``
calls) each leave a whole entry with the same result. Points run on a local Dask cluster, on an
existing one (by address) or, with ``scheduler="synchronous"``, in this process. On Dask, points start
longest first when the simulating module estimates their cost (:func:`longest_first`). Only the client
(this process) reads and writes the cache: workers receive parameters and return results, so they need
this package and its libraries, not the cache folder or a shared filesystem.

A worker lost while it holds a point (killed, its machine gone) makes Dask run that point again on
another worker; the point's seed makes the retry give the same result. The sweep's provenance
(:func:`sweep_record`) counts, per point, the workers lost while holding it.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import itertools
import json
import logging
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pandas as pd
from tqdm import tqdm

import paperlib
from paperlib.atomic import atomic_write_text
from paperlib.provenance import package_versions
from paperlib.run_progress import note_sweep
from paperlib.sweep_progress import SweepProgress, progress_path
from paperlib.validate import ParameterError

#: ``scheduler`` value that runs the points in this process, in order, without Dask.
SYNCHRONOUS = "synchronous"
#: Schema number of a cache entry (bumped when its layout changes; other entries are recomputed).
CACHE_SCHEMA = 2
#: Distributions whose versions (:func:`paperlib.provenance.package_versions`) key the cache: they compute the results.
KEY_LIBRARIES = ("numpy", "scipy", "ns3")
#: Where a local cluster's scheduler serves HTTP (its health pages; the dashboard where bokeh is installed): a
#: port the operating system picks, on the loopback interface. Without an address the scheduler takes Dask's
#: fixed port 8787, so two clusters at once (papers run side by side) compete for it and the second one warns.
LOCAL_DASHBOARD_ADDRESS = "127.0.0.1:0"

logger = logging.getLogger(__name__)


def canonical(obj):
    """Return ``obj`` with every whole float as an int (``1.0`` -> ``1``), recursively: the cache key's form.

    Booleans stay booleans; dict keys are sorted when dumped. The seed does not use this form
    (see :func:`point_seed`): it follows the parameters as written, so published seeds stay.
    """
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, float) and obj.is_integer() and abs(obj) < 2**53:
        return int(obj)
    if isinstance(obj, dict):
        return {k: canonical(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    return obj


def _plain(obj):
    """Return a numpy scalar or array as Python numbers (the ``json.dumps`` hook)."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    raise TypeError(f"{type(obj).__name__} is not JSON-serialisable")


def _dumps(obj) -> str:
    """Return canonical JSON: sorted keys, no spaces, no NaN."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False, default=_plain)


def _params_json(name: str, params) -> str:
    """Return the canonical JSON of a parameter dict; raise naming ``name`` if it is not one."""
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise ParameterError(f"{name} must be a dict with string keys, got {params!r}")
    try:
        return _dumps(params)
    except (TypeError, ValueError) as err:
        raise ParameterError(f"{name} must hold JSON-serialisable values (no NaN), got {params!r}: {err}") from None


def _whole(name: str, value, minimum: int | None = None) -> int:
    """Return ``value`` if it is an int (not a bool) >= ``minimum``; raise naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        raise ParameterError(f"{name} must be a whole number{'' if minimum is None else f' >= {minimum}'}, "
                             f"got {value!r}")
    return value


def point_seed(params: dict, base_seed: int = 0) -> int:
    """Return the seed of one grid point, in [1, 2**31 - 1].

    A stable hash (sha256) of the parameters as JSON with sorted keys and of ``base_seed``: the
    same point always gets the same seed, whatever the order of its keys or of the sweep; another
    point or another ``base_seed`` gets another seed (barring a 1 in 2**31 collision).
    """
    record = {"base_seed": _whole("base_seed", base_seed), "params": json.loads(_params_json("params", params))}
    return int(hashlib.sha256(_dumps(record).encode()).hexdigest()[:16], 16) % (2**31 - 1) + 1


def grid(**axes) -> list[dict]:
    """Return the cartesian product of the axes as a list of parameter dicts, in declaration order.

    The first axis varies slowest: ``grid(a=[1, 2], b=[3, 4])`` is
    ``[{"a": 1, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 3}, {"a": 2, "b": 4}]``.
    """
    if not axes:
        raise ParameterError("axes: grid needs at least one axis, e.g. grid(rate_bps=[1e6, 1e7])")
    columns = {}
    for name, values in axes.items():
        iterable = hasattr(values, "__iter__") and not isinstance(values, (str, bytes, dict))
        columns[name] = list(values) if iterable else []
        if not columns[name]:
            raise ParameterError(f"{name} must be a non-empty list of values, got {values!r}")
    return [dict(zip(columns, combo, strict=True)) for combo in itertools.product(*columns.values())]


def _check_points(points) -> list[str]:
    """Return the canonical JSON of every point; raise naming ``points`` if one is unusable."""
    if not isinstance(points, (list, tuple)) or not points:
        raise ParameterError(f"points must be a non-empty list of parameter dicts, got {points!r:.200}")
    blobs, seen = {}, {}
    for i, params in enumerate(points):
        blob = _params_json(f"points[{i}]", params)
        if "seed" in params:
            raise ParameterError(f"points[{i}] has a 'seed' key, but the runner sets the seed: {params!r}")
        key = _dumps(canonical(json.loads(blob)))
        if key in seen:  # equal parameters, perhaps written 1 and 1.0
            raise ParameterError(f"points[{i}] duplicates points[{seen[key]}]: {params!r}")
        blobs[blob], seen[key] = i, i
    return list(blobs)


def _check_options(simulate, cache_dir, code_version, scheduler, n_workers) -> None:
    """Raise naming the parameter if one of :func:`run_sweep`'s options is unusable."""
    if not inspect.isfunction(simulate):
        raise ParameterError(f"simulate must be a module-level function (params, seed) -> dict, got {simulate!r}")
    if not isinstance(cache_dir, (str, os.PathLike)) or str(cache_dir) == "":
        raise ParameterError(f"cache_dir must be a folder (Path or str), got {cache_dir!r}")
    if code_version is not None and not isinstance(code_version, str):
        raise ParameterError(f"code_version must be a string, got {code_version!r}")
    if scheduler not in (None, SYNCHRONOUS) and not (isinstance(scheduler, str) and "://" in scheduler):
        raise ParameterError(f"scheduler must be None, 'synchronous' or an address like 'tcp://10.0.0.5:8786', "
                             f"got {scheduler!r}")
    if n_workers is not None:
        _whole("n_workers", n_workers, minimum=1)
        if scheduler is not None:
            raise ParameterError(f"n_workers applies only to the local cluster (scheduler=None), got {n_workers!r}")


def _default_code_version(simulate) -> str:
    """Return paperlib's version and a hash of the source of ``simulate``'s module and its declared dependencies.

    A simulating module lists the modules its results depend on in a module-level
    ``SWEEP_DEPENDS`` tuple (e.g. the workload model it samples from); editing any
    of them, or the module itself, changes the version and so invalidates the cache.
    """
    module = sys.modules.get(simulate.__module__)
    files = [inspect.getsourcefile(simulate)]
    files += [inspect.getsourcefile(m) for m in getattr(module, "SWEEP_DEPENDS", ())]
    if any(f is None or not os.path.isfile(f) for f in files):
        raise ParameterError(f"code_version: the source file of {simulate.__qualname__} is unknown; pass one")
    digest = hashlib.sha256()
    for f in files:
        digest.update(Path(f).read_bytes())
    return f"{paperlib.__version__}+{digest.hexdigest()[:16]}"


def code_version(simulate) -> str:
    """Return the code version :func:`run_sweep` files ``simulate``'s results under when given none.

    For readers of the cache (an explorer) that must read only the results of the current code
    (:func:`read_entries`).
    """
    return _default_code_version(simulate)


def _checksum(entry: dict) -> str:
    """Return the sha256 of an entry's canonical JSON without its ``checksum`` field."""
    return hashlib.sha256(_dumps({k: v for k, v in entry.items() if k != "checksum"}).encode()).hexdigest()


def _read_cache(path: Path, expected: dict) -> dict | None:
    """Return the cached result, or None if the file is missing or fails its schema or checksum (with a warning)."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        stored = None
    problem = _entry_problem(stored, expected)
    if problem is None:
        return stored["result"]
    warnings.warn(f"recomputing a corrupted cache file ({problem}): {path}", RuntimeWarning, stacklevel=3)
    return None


def _entry_problem(stored, expected: dict) -> str | None:
    """Return why ``stored`` (a cache file's parsed JSON) is not a whole entry matching ``expected``, or None."""
    if not isinstance(stored, dict):
        return "unreadable JSON"
    if stored.get("schema") != CACHE_SCHEMA:
        return f"schema {stored.get('schema')!r}, expected {CACHE_SCHEMA}"
    if not isinstance(stored.get("result"), dict):
        return "no result dict"
    if any(stored.get(k) != v for k, v in expected.items()):
        return "its parameters, seed or versions do not match its key"
    try:
        ok = stored.get("checksum") == _checksum(stored)
    except (TypeError, ValueError):
        ok = False
    return None if ok else "checksum mismatch (edited or damaged)"


def _stored_entries(folder: Path | str):
    """Yield the parsed JSON of every cache file in ``folder``, by file name; an unreadable file is skipped."""
    for path in sorted(Path(folder).glob("*.json")):
        try:
            yield json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue


def read_entries(folder: Path | str, code_version: str) -> list[dict]:
    """Return the whole cache entries in ``folder`` (one simulating function's) of ``code_version``, by file name.

    The check is :func:`run_sweep`'s own (schema, result, checksum); an entry that fails it, or of
    another code version, is left out silently: this reads what a sweep left, it repairs nothing.
    """
    return [stored for stored in _stored_entries(folder)
            if _entry_problem(stored, {"code_version": code_version}) is None]


def _store(path: Path, record: dict, result, name: str, seconds: tuple[float, float] | None = None) -> dict:
    """Write a point's record, result, schema and checksum to ``path`` atomically; return the result as read back.

    ``seconds``: the point's wall and CPU seconds on its worker (:func:`timed_call`), kept in the entry as
    ``seconds`` and ``cpu_seconds`` (rounded to the millisecond); they are not part of the key.
    """
    params = record["params"]
    if not isinstance(result, dict) or not all(isinstance(k, str) for k in result):
        raise TypeError(f"{name} must return a dict with string keys, got {result!r} at {params}")
    if clash := sorted(set(result) & {*params, "seed"}):
        raise ValueError(f"{name} returned keys {clash} that clash with the parameter and seed columns at {params}")
    try:
        timing = {} if seconds is None else {"seconds": round(seconds[0], 3), "cpu_seconds": round(seconds[1], 3)}
        entry = json.loads(json.dumps({**record, "schema": CACHE_SCHEMA, "result": result, **timing},
                                      default=_plain))
        entry["checksum"] = _checksum(entry)
        text = json.dumps(entry, indent=2) + "\n"
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} returned a result that is not JSON-serialisable at {params}: {err}") from err
    try:
        atomic_write_text(path, text)
    except OSError as err:
        raise ParameterError(f"cache_dir: cannot write {path}: {err}") from err
    return json.loads(text)["result"]


def _key(record: dict) -> str:
    """Return the cache key of a record: sha256 of its canonical form (sorted keys, 1.0 == 1)."""
    return hashlib.sha256(_dumps(canonical(record)).encode()).hexdigest()


def _writable_cache(folder: Path) -> None:
    """Create ``folder`` and check a file can be written there; raise naming ``cache_dir`` otherwise."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe."):
            pass
    except OSError as err:
        raise ParameterError(f"cache_dir: {folder} is not a writable folder: {err}") from None


def timed_call(simulate, params: dict, seed: int) -> tuple:
    """Return ``(simulate(params, seed), wall seconds, CPU seconds of this thread)``: the unit of work sent to a worker.

    Wall time is how long the point holds a worker; CPU time is what it costs a core (an emulated
    run mostly waits on real time, an ns-3 run computes), and other processes on the machine
    disturb it less.
    """
    import time

    started, cpu = time.perf_counter(), time.thread_time()
    result = simulate(params, seed)
    return result, time.perf_counter() - started, time.thread_time() - cpu


def _run_here(simulate, tasks: dict, done) -> None:
    """Run ``tasks`` (index -> record) in this process, in order."""
    for i, record in tasks.items():
        try:
            result = timed_call(simulate, dict(record["params"]), record["seed"])
        except Exception as err:
            raise RuntimeError(f"{simulate.__name__} failed at {record['params']}: {err}") from err
        done(i, *result)


def longest_first(simulate, tasks: dict) -> list:
    """Return the keys of ``tasks`` (index -> record) in the order to start them: largest estimated cost first.

    The estimate is the simulating module's ``sweep_cost(params) -> float`` (any unit; only the order
    counts), if it has one; equal costs, or no estimate, keep the points' order. Started longest first,
    the last runs of a sweep are short ones, so no worker idles for long while another finishes a
    long run (greedy longest-processing-time scheduling). Results do not depend on the order.
    """
    cost = getattr(sys.modules.get(simulate.__module__), "sweep_cost", None)
    if cost is None:
        return list(tasks)
    return sorted(tasks, key=lambda i: -float(cost(tasks[i]["params"])))


def _lost_workers(client, futures: dict) -> dict | None:
    """Return index -> how many workers were lost while holding that point (only points with at least one).

    Dask's scheduler counts, per task, the workers that died while the task was assigned to them
    (``TaskState.suspicious``: running there, or queued there to run next); at ``allowed-failures``
    + 1 the task fails with ``KilledWorker``. Read while the futures are held, so the tasks are known.
    None (with a warning) if the scheduler does not answer (e.g. it refuses to run client code).
    """
    keys = {future.key: i for future, i in futures.items()}

    def counts(dask_scheduler, keys):  # nested, so cloudpickle ships it by value (the scheduler needs no paperlib)
        return {k: dask_scheduler.tasks[k].suspicious for k in keys
                if k in dask_scheduler.tasks and dask_scheduler.tasks[k].suspicious}

    try:
        found = client.run_on_scheduler(counts, keys=list(keys))
    except Exception as err:  # the results are whole and cached; only this count is missing
        logger.warning("cannot read the points' lost workers from the scheduler (retries unknown): %s", err)
        return None
    return {keys[k]: int(n) for k, n in found.items()}


@contextlib.contextmanager
def local_cluster(n_workers: int):
    """Yield a new local Dask cluster of ``n_workers`` single-threaded worker processes; close it on exit.

    Its scheduler serves HTTP on a free loopback port (:data:`LOCAL_DASHBOARD_ADDRESS`), so any number of
    these clusters run at once without a warning. A simulation may hold the GIL for minutes (ns-3's event
    loop runs in C++ called from Python), so its worker misses heartbeats: the scheduler never declares a
    worker dead for that (Dask's default worker TTL is 5 min).
    """
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.worker-ttl": None}), LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True,
            dashboard_address=LOCAL_DASHBOARD_ADDRESS, silence_logs=logging.ERROR) as cluster:
        yield cluster


def _run_dask(simulate, tasks: dict, scheduler, n_workers, done, started=None) -> dict | None:
    """Run ``tasks`` (index -> record) on a new local Dask cluster or the scheduler at that address, longest first.

    ``started(workers)``, if given, is called with the number of points that run at once before the first starts.
    Return index -> workers lost while holding that point, or None if unknown (see :func:`_lost_workers`).
    """
    from distributed import Client, as_completed

    with contextlib.ExitStack() as stack:
        workers = None
        if scheduler is None:
            workers = min(n_workers or os.cpu_count() or 1, len(tasks))
            scheduler = stack.enter_context(local_cluster(workers))
        client = stack.enter_context(Client(scheduler, set_as_default=False))
        if started is not None:
            started(workers or sum(client.nthreads().values()) or 1)
        order = longest_first(simulate, tasks)
        futures = {client.submit(timed_call, simulate, tasks[i]["params"], tasks[i]["seed"], pure=False,
                                 priority=len(order) - rank): i
                   for rank, i in enumerate(order)}
        for future in as_completed(futures, loop=client.loop):
            try:
                result = future.result()
            except Exception as err:
                raise RuntimeError(f"{simulate.__name__} failed at {tasks[futures[future]]['params']}: {err}") from err
            done(futures[future], *result)
        return _lost_workers(client, futures)


def _recorded_seconds(folder: Path) -> list[tuple[dict, int, float]]:
    """Return ``(params, seed, wall seconds)`` of each entry in ``folder`` that records how long its point took.

    Any code version: an estimate of the time left reads them (:func:`_progress`), no result is served from
    them. An unreadable entry, or one without a time, is left out.
    """
    out = []
    for stored in _stored_entries(folder):
        if (isinstance(stored, dict) and isinstance(stored.get("params"), dict) and isinstance(stored.get("seed"), int)
                and isinstance(stored.get("seconds"), (int, float)) and stored["seconds"] >= 0):
            out.append((stored["params"], stored["seed"], float(stored["seconds"])))
    return out


def _progress(simulate, name: str, folder: Path, records: list[dict], tasks: dict) -> SweepProgress | None:
    """Return the progress events of a sweep with ``tasks`` to compute, or None outside a run that follows them.

    The estimate of the time left (:func:`paperlib.sweep_progress.time_left_s`) takes each point's earlier time
    from the cache entries of the same parameters and seed, and the rate from this sweep's own points once one is
    done, before that from every entry of ``simulate`` that records its time (:class:`SweepProgress`), with the
    points' costs from the simulating module's ``sweep_cost`` where it has one that answers for every point (else
    1 each).
    """
    path = progress_path()
    if path is None or not tasks:
        return None
    recorded = _recorded_seconds(folder)
    cost = getattr(sys.modules.get(simulate.__module__), "sweep_cost", None)

    def cost_of(params: dict) -> float | None:
        if cost is None:
            return 1.0
        try:
            return float(cost(params))
        except (KeyError, TypeError, ValueError):  # e.g. the parameters of an older version
            return None

    if any(cost_of(r["params"]) is None for r in tasks.values()):
        cost = None
    earlier, known = [], {}
    for params, seed, seconds in recorded:
        if (c := cost_of(params)) is not None:
            earlier.append((c, seconds))
        known.setdefault((_dumps(canonical(params)), seed), []).append(seconds)
    remaining = {}
    for i, record in tasks.items():
        runs = known.get((_dumps(canonical(record["params"])), record["seed"]))
        remaining[i] = (cost_of(record["params"]), sum(runs) / len(runs) if runs else None)
    return SweepProgress(path, name, len(records), len(records) - len(tasks), remaining, earlier)


def _scheduler_name(scheduler) -> str:
    """Return how a sweep's points ran: ``"synchronous"``, ``"local cluster"`` or the scheduler's address."""
    return "local cluster" if scheduler is None else str(scheduler)


def sweep_record(frame: pd.DataFrame) -> dict:
    """Return the provenance of the :func:`run_sweep` call that returned ``frame``.

    Keys: ``simulate`` (module.function), ``code_version``, ``versions``, ``scheduler``
    (``"synchronous"``, ``"local cluster"`` or the address), ``points``, ``cached`` (read from the
    cache), ``computed``, and ``retried``: one entry per point that Dask ran again because a worker
    holding it was lost (``params``, ``seed``, ``workers_lost``), in the order of the points (None if
    the scheduler could not be asked). No wall-clock time, so equal runs give equal records.

    When the call computed anything, the record is also written, as the call ends, to
    ``<cache_dir>/runs/<module.function>-<sweep id>.json`` (the sweep id is a hash of the points'
    cache keys) with ``seconds``: each computed point's wall and CPU seconds on its worker
    (:func:`timed_call`), what ``make bench`` sizes a cold run or a cluster allocation from. A
    notebook's sweep cache thus tells which of its points were retried and what each cost.
    """
    try:
        return frame.attrs["sweep"]
    except KeyError:
        raise ParameterError("frame: not returned by run_sweep (no attrs['sweep'])") from None


def run_sweep(simulate, points, *, cache_dir, code_version=None, base_seed=0,
              scheduler=None, n_workers=None, progress=True, desc=None) -> pd.DataFrame:
    """Return one row per point, in the order of ``points``: the parameters, ``seed``, then the results.

    Parameters
    ----------
    simulate : module-level function ``(params: dict, seed: int) -> dict`` of JSON-serialisable values.
    points : non-empty list of distinct parameter dicts (string keys, JSON-serialisable values).
    cache_dir : the cache folder; a point's result is ``<cache_dir>/<module.function>/<key>.json``,
        key = sha256 of (canonical parameters, seed, code version, numpy/scipy/ns-3 versions).
        Cached points are not recomputed; an unwritable folder raises ParameterError naming it.
    code_version : changing it invalidates the cache; default paperlib's version and a hash of
        the source file that defines ``simulate`` (not of the modules it imports).
    base_seed : a point's seed is ``point_seed(params, base_seed)``.
    scheduler : None (a local Dask cluster, started and closed here), ``"synchronous"`` (this
        process, in order) or the address of a running Dask scheduler (``"tcp://host:8786"``).
    n_workers : worker processes of the local cluster (default the CPU count; at most one per
        point to compute).
    progress, desc : a tqdm progress bar (cached points count as done) labelled ``desc``
        (default the name of ``simulate``). Under :mod:`paperlib.run_progress` (``make reproduce``) a sweep
        with points to compute also reports its progress to the terminal, whatever ``progress`` says
        (:mod:`paperlib.sweep_progress`), under the name ``desc`` (default ``module.function``).

    The frame's ``attrs["sweep"]`` is the call's provenance (:func:`sweep_record`): points read from
    the cache, computed, and retried after a lost worker.

    A failure of ``simulate`` raises RuntimeError naming the point's parameters. The frame is
    built from the results as stored in JSON, so computing and reading the cache give equal
    frames; a list-valued result stays a Python list in its cell.
    """
    blobs = _check_points(points)
    _check_options(simulate, cache_dir, code_version, scheduler, n_workers)
    version = _default_code_version(simulate) if code_version is None else code_version
    folder = Path(cache_dir) / f"{simulate.__module__}.{simulate.__qualname__}"
    libs = package_versions(KEY_LIBRARIES)
    # The seed follows the parameters as written (published seeds stay); the key uses their canonical form.
    records = [{"params": json.loads(b), "seed": point_seed(json.loads(b), base_seed), "code_version": version,
                "versions": libs} for b in blobs]
    paths = [folder / f"{_key(r)}.json" for r in records]
    _writable_cache(folder)
    results = [_read_cache(path, record) for path, record in zip(paths, records, strict=True)]
    tasks = {i: records[i] for i, result in enumerate(results) if result is None}
    report = _progress(simulate, desc or f"{simulate.__module__.rsplit('.', 1)[-1]}.{simulate.__qualname__}",
                       folder, records, tasks)
    with tqdm(total=len(records), initial=len(records) - len(tasks), desc=desc or simulate.__name__,
              disable=not progress) as bar:

        seconds = {}

        def done(i: int, result, wall_s: float, cpu_s: float) -> None:
            results[i] = _store(paths[i], records[i], result, simulate.__name__, (wall_s, cpu_s))
            seconds[i] = wall_s, cpu_s
            bar.update()
            if report is not None:
                report.point_done(i, wall_s, time.time())

        def started(workers: int) -> None:
            if report is not None:
                report.start(workers, time.time())

        lost = {}
        if tasks and scheduler == SYNCHRONOUS:
            started(1)
            _run_here(simulate, tasks, done)
        elif tasks:
            lost = _run_dask(simulate, tasks, scheduler, n_workers, done, started)
    if report is not None:
        report.end(time.time())
    names = [*dict.fromkeys(k for params in points for k in params), "seed"]
    names += dict.fromkeys(k for result in results for k in result)
    rows = [{**r["params"], "seed": r["seed"], **result} for r, result in zip(records, results, strict=True)]
    frame = pd.DataFrame(rows, columns=names)
    frame.attrs["sweep"] = record = {
        "simulate": folder.name, "code_version": version, "versions": libs, "scheduler": _scheduler_name(scheduler),
        "points": len(records), "cached": len(records) - len(tasks), "computed": len(tasks),
        "retried": None if lost is None else [{"params": records[i]["params"], "seed": records[i]["seed"],
                                                "workers_lost": lost[i]} for i in sorted(lost)],
    }
    note_sweep(record["points"], record["cached"], record["computed"], folder.name)  # a cold or a warm run
    for i in sorted(lost or {}):
        logger.warning("%s: point %s ran again: %d worker(s) holding it were lost", simulate.__name__,
                       records[i]["params"], lost[i])
    if tasks:
        sweep_id = hashlib.sha256("".join(sorted(p.stem for p in paths)).encode()).hexdigest()[:16]
        timed = {**record, "seconds": [{"params": records[i]["params"], "seed": records[i]["seed"],
                                        "seconds": round(seconds[i][0], 3), "cpu_seconds": round(seconds[i][1], 3)}
                                       for i in sorted(seconds)]}
        atomic_write_text(Path(cache_dir) / "runs" / f"{folder.name}-{sweep_id}.json",
                          json.dumps(timed, indent=2, sort_keys=True) + "\n")
    return frame
