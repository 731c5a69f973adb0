"""The sweep runner: grid order, per-point seeds, the on-disk cache, and the three schedulers.

Most tests run ``scheduler="synchronous"`` (no Dask, fast); one module-scoped Dask cluster is
reached by address, and one test lets run_sweep start and close its own two-worker cluster.
Call counts come from ``tests/sweep_helpers.py``, whose functions append a line to the file
named by the ``log`` parameter on every call, in whichever process they run.
"""

import contextlib
import hashlib
import json
import os
from pathlib import Path

import distributed
import pandas as pd
import pytest
import sweep_helpers
from distributed.core import Status

from paperlib import sweep
from paperlib.sweep import grid, local_cluster, longest_first, point_seed, run_sweep, sweep_record
from paperlib.validate import ParameterError

TESTS = Path(__file__).resolve().parent


def _calls(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def _points(log: Path, xs=(0, 1, 2)) -> list[dict]:
    return grid(x=list(xs), log=[str(log)])


@pytest.fixture(scope="module")
def worker_path():
    """Put tests/ on PYTHONPATH before any Dask worker starts, so workers can import sweep_helpers.

    Workers that multiprocessing spawns (distributed's default) also get this process's sys.path,
    which pytest's rootdir insertion already gives tests/; PYTHONPATH covers any other start method.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])))
        yield


@pytest.fixture(scope="module")
def cluster(worker_path):
    """An already running one-worker Dask cluster, as a shared scheduler would be."""
    with local_cluster(1) as running:
        yield running


# --- grid and seeds --------------------------------------------------------------------------

def test_grid_is_the_product_in_declaration_order():
    assert grid(a=[1, 2], b=["u", "v"]) == [
        {"a": 1, "b": "u"}, {"a": 1, "b": "v"}, {"a": 2, "b": "u"}, {"a": 2, "b": "v"},
    ]
    assert list(grid(b=[0], a=[0])[0]) == ["b", "a"]  # keys in declaration order too
    assert grid(x=(v for v in [3, 4])) == [{"x": 3}, {"x": 4}]  # any iterable, consumed once


@pytest.mark.parametrize("axes, name", [({}, "axes"), ({"a": []}, "a"), ({"a": "12"}, "a"), ({"a": 1}, "a")])
def test_grid_rejects_bad_axes_naming_them(axes, name):
    with pytest.raises(ParameterError, match=f"^{name}"):
        grid(**axes)


def test_point_seed_is_the_documented_hash():
    # sha256 of the canonical JSON {"base_seed":0,"params":{"x":1}}; first 16 hex digits,
    # mod 2**31 - 1, plus 1, so the seed is in [1, 2**31 - 1].
    digest = hashlib.sha256(b'{"base_seed":0,"params":{"x":1}}').hexdigest()
    assert point_seed({"x": 1}) == int(digest[:16], 16) % (2**31 - 1) + 1


def test_seeds_are_stable_distinct_and_follow_base_seed():
    points = grid(rate=[1e3, 1e4, 1e5, 1e6], rtt=[0.01, 0.1, 0.2], proto=["tcp", "sctp"])
    seeds = [point_seed(p) for p in points]
    assert len(set(seeds)) == len(points)
    assert all(1 <= s <= 2**31 - 1 for s in seeds)
    assert point_seed({"a": 1, "b": 2}) == point_seed({"b": 2, "a": 1})  # key order does not matter
    assert [point_seed(p, base_seed=1) for p in points] != seeds
    assert not set(point_seed(p, base_seed=1) for p in points) & set(seeds)


# --- run_sweep in this process ---------------------------------------------------------------

def test_rows_follow_points_with_seed_and_result_columns(tmp_path):
    points = list(reversed(_points(tmp_path / "log")))  # x = 2, 1, 0
    frame = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path / "cache",
                      scheduler="synchronous", progress=False)
    assert list(frame.columns) == ["x", "log", "seed", "y", "seed_seen", "trace", "label"]
    assert frame["x"].tolist() == [2, 1, 0]
    assert frame["y"].tolist() == [4, 1, 0]
    assert frame["seed"].tolist() == [point_seed(p) for p in points] == frame["seed_seen"].tolist()
    assert frame["trace"].tolist() == [[2, 2.5], [1, 1.5], [0, 0.5]]
    assert isinstance(frame.at[0, "trace"], list)
    assert _calls(tmp_path / "log") == ["2", "1", "0"]  # synchronous: in order


def test_base_seed_reaches_simulate(tmp_path):
    points = _points(tmp_path / "log", xs=[0])
    frame = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, base_seed=7,
                      scheduler="synchronous", progress=False)
    assert frame.at[0, "seed_seen"] == point_seed(points[0], base_seed=7)


def test_second_run_computes_nothing_and_starts_no_cluster(tmp_path, monkeypatch):
    log, cache = tmp_path / "log", tmp_path / "cache"
    first = run_sweep(sweep_helpers.square, _points(log), cache_dir=cache, scheduler="synchronous", progress=False)
    stored = sorted((cache / "sweep_helpers.square").iterdir())
    assert len(stored) == 3 and len(_calls(log)) == 3
    record = json.loads(stored[0].read_text())
    assert list(record) == ["params", "seed", "code_version", "versions", "schema", "result", "seconds",
                            "cpu_seconds", "checksum"]
    assert record["seconds"] >= 0 and record["cpu_seconds"] >= 0  # the point's time on its worker, outside the key

    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started although every point is cached")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    monkeypatch.setattr(distributed, "Client", no_cluster)
    second = run_sweep(sweep_helpers.square, _points(log), cache_dir=str(cache), progress=False)
    assert len(_calls(log)) == 3
    pd.testing.assert_frame_equal(first, second)


def test_only_missing_points_are_computed(tmp_path):
    log = tmp_path / "log"
    run_sweep(sweep_helpers.square, _points(log, xs=[0, 1]), cache_dir=tmp_path, scheduler="synchronous",
              progress=False)
    frame = run_sweep(sweep_helpers.square, _points(log, xs=[0, 1, 2, 3]), cache_dir=tmp_path,
                      scheduler="synchronous", progress=False)
    assert _calls(log) == ["0", "1", "2", "3"]
    assert frame["y"].tolist() == [0, 1, 4, 9]


def test_new_code_version_recomputes(tmp_path):
    log = tmp_path / "log"
    for version in ["v1", "v2", "v1"]:
        run_sweep(sweep_helpers.square, _points(log), cache_dir=tmp_path, code_version=version,
                  scheduler="synchronous", progress=False)
    assert len(_calls(log)) == 6  # v1 computes, v2 computes, v1 again is cached


def test_default_code_version_follows_the_source_file(tmp_path, monkeypatch):
    source = tmp_path / "src" / "editable_sim.py"
    source.parent.mkdir()
    source.write_text((TESTS / "sweep_helpers.py").read_text())
    monkeypatch.syspath_prepend(str(source.parent))
    import editable_sim

    log = tmp_path / "log"
    run = lambda: run_sweep(editable_sim.square, _points(log), cache_dir=tmp_path,  # noqa: E731
                            scheduler="synchronous", progress=False)
    run()
    run()
    assert len(_calls(log)) == 3  # same source: cached
    source.write_text(source.read_text() + "\n# an edit\n")
    run()
    assert len(_calls(log)) == 6  # edited source: recomputed


@pytest.mark.parametrize("corrupt", [
    lambda text: text[: len(text) // 2],  # truncated JSON
    lambda text: text.replace('"x": 1', '"x": 5'),  # params that do not match the key
    lambda text: json.dumps({**json.loads(text), "result": [1]}),  # result not a dict
])
def test_corrupted_cache_file_is_recomputed(tmp_path, corrupt):
    log, folder = tmp_path / "log", tmp_path / "sweep_helpers.square"
    points = _points(log, xs=[1])
    first = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous", progress=False)
    [path] = folder.iterdir()
    good = path.read_text()
    path.write_text(corrupt(good))
    with pytest.warns(RuntimeWarning, match="corrupted cache file"):
        again = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous",
                          progress=False)
    assert len(_calls(log)) == 2
    assert _untimed(path.read_text()) == _untimed(good)  # the same entry but for the point's new time
    pd.testing.assert_frame_equal(first, again)


def test_failure_names_the_point_and_keeps_finished_points(tmp_path):
    log = tmp_path / "log"
    with pytest.raises(RuntimeError, match=r"fails_at_two failed at \{.*'x': 2\}: x must not be 2") as info:
        run_sweep(sweep_helpers.fails_at_two, _points(log), cache_dir=tmp_path, scheduler="synchronous",
                  progress=False)
    assert isinstance(info.value.__cause__, ValueError)
    assert len(list((tmp_path / "sweep_helpers.fails_at_two").iterdir())) == 2  # x = 0 and 1 are cached


@pytest.mark.parametrize("kwargs, name", [
    ({"points": []}, "points"),
    ({"points": {"x": 1}}, "points"),
    ({"points": [1, 2]}, r"points\[0\]"),
    ({"points": [{"x": 1}, {"x": 2}, {"x": 1}]}, r"points\[2\] duplicates points\[0\]"),
    ({"points": [{"x": object()}]}, r"points\[0\]"),
    ({"points": [{"x": float("nan")}]}, r"points\[0\]"),
    ({"points": [{1: 2}]}, r"points\[0\]"),
    ({"points": [{"seed": 3}]}, r"points\[0\]"),
    ({"cache_dir": None}, "cache_dir"),
    ({"cache_dir": ""}, "cache_dir"),
    ({"n_workers": 0}, "n_workers"),
    ({"n_workers": 1.5}, "n_workers"),
    ({"n_workers": True}, "n_workers"),
    ({"n_workers": 2, "scheduler": "synchronous"}, "n_workers"),
    ({"scheduler": "synchronus"}, "scheduler"),
    ({"scheduler": 8786}, "scheduler"),
    ({"base_seed": "1"}, "base_seed"),
    ({"code_version": 3}, "code_version"),
    ({"simulate": print}, "simulate"),
])
def test_invalid_inputs_are_named(tmp_path, kwargs, name):
    args = {"simulate": sweep_helpers.square, "points": [{"x": 1}], "cache_dir": tmp_path, **kwargs}
    with pytest.raises(ParameterError, match=f"^{name}"):
        run_sweep(args.pop("simulate"), args.pop("points"), **args)
    assert not any(tmp_path.iterdir())  # rejected before anything ran or was written


@pytest.mark.parametrize("result, error, match", [
    ({"x": 0}, ValueError, "clash with the parameter and seed columns"),
    ({"seed": 0}, ValueError, "clash with the parameter and seed columns"),
    ({"y": {1, 2}}, TypeError, "not JSON-serialisable"),
    ([1, 2], TypeError, "must return a dict"),
])
def test_bad_results_are_named(tmp_path, result, error, match):
    with pytest.raises(error, match=match + r".* at \{'x': 1\}"):
        run_sweep(lambda params, seed: result, [{"x": 1}], cache_dir=tmp_path, code_version="t",
                  scheduler="synchronous", progress=False)


# --- run_sweep on Dask ------------------------------------------------------------------------

def test_existing_cluster_by_address_matches_synchronous(tmp_path, cluster):
    log = tmp_path / "log"
    here = run_sweep(sweep_helpers.square, _points(log), cache_dir=tmp_path / "a", scheduler="synchronous",
                     progress=False)
    there = run_sweep(sweep_helpers.square, _points(log), cache_dir=tmp_path / "b",
                      scheduler=cluster.scheduler_address, progress=False)
    pd.testing.assert_frame_equal(here, there)
    assert len(_calls(log)) == 6  # both computed (separate caches)
    assert cluster.status == Status.running  # only the client was closed
    assert len(cluster.scheduler_info["workers"]) == 1


def test_points_start_longest_first_and_rows_keep_points_order(tmp_path, cluster):
    log = tmp_path / "log"
    # sweep_helpers.sweep_cost(params) = x: on the one worker the points run x = 3, 2, 1, whatever their order here
    frame = run_sweep(sweep_helpers.square, _points(log, xs=(1, 3, 2)), cache_dir=tmp_path,
                      scheduler=cluster.scheduler_address, progress=False)
    assert _calls(log) == ["3", "2", "1"]
    assert frame["x"].tolist() == [1, 3, 2]


def test_longest_first_keeps_points_order_without_an_estimate():
    tasks = {0: {"params": {"x": 1}}, 1: {"params": {"x": 3}}, 2: {"params": {"x": 3}}, 3: {"params": {"x": 2}}}
    assert longest_first(sweep_helpers.square, tasks) == [1, 2, 3, 0]  # ties (x = 3) in points order
    assert longest_first(pd.DataFrame, tasks) == [0, 1, 2, 3]  # pandas.core.frame has no sweep_cost


def test_failure_on_a_worker_names_the_point(tmp_path, cluster):
    with pytest.raises(RuntimeError, match=r"fails_at_two failed at \{.*'x': 2\}: x must not be 2") as info:
        run_sweep(sweep_helpers.fails_at_two, _points(tmp_path / "log"), cache_dir=tmp_path,
                  scheduler=cluster.scheduler_address, progress=False)
    assert isinstance(info.value.__cause__, ValueError)


def test_default_local_cluster_returns_points_order(tmp_path, worker_path, monkeypatch):
    started, real = [], distributed.LocalCluster

    def spy(**kwargs):
        started.append((kwargs, real(**kwargs)))
        return started[-1][1]

    monkeypatch.setattr(distributed, "LocalCluster", spy)
    log = tmp_path / "log"
    # x = 0 waits until another point has finished (an event, not a delay): with two workers, each holding at
    # most two of the three points, the other worker has one and runs it, so x = 0 is never the first to finish
    points = [{"x": 0, "wait_for_others": 1, "log": str(log)}] + grid(x=[1, 2], wait_for_others=[0], log=[str(log)])
    frame = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path / "a", n_workers=2, progress=False)
    assert _calls(log)[0] != "0"  # completion order differs from points order ...
    assert frame["x"].tolist() == [0, 1, 2]  # ... the frame does not
    [(kwargs, local)] = started
    assert (kwargs["n_workers"], kwargs["threads_per_worker"], kwargs["processes"]) == (2, 1, True)
    assert local.status == Status.closed
    here = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path / "b", scheduler="synchronous",
                     progress=False)
    pd.testing.assert_frame_equal(frame, here)


def test_local_clusters_at_once_take_free_ports_without_a_warning(worker_path):
    import socket
    import warnings

    # Dask's default HTTP port held (by this test if it is free, else by whoever holds it): a cluster that
    # asked for it would warn "Port 8787 is already in use" and take another port.
    with contextlib.ExitStack() as stack:
        holder = stack.enter_context(socket.socket())
        with contextlib.suppress(OSError):
            holder.bind(("127.0.0.1", 8787))
            holder.listen()
        caught = stack.enter_context(warnings.catch_warnings(record=True))
        warnings.simplefilter("always")
        first, second = stack.enter_context(local_cluster(1)), stack.enter_context(local_cluster(1))
        ports = {first.scheduler.http_server.port, second.scheduler.http_server.port}
    assert not [str(w.message) for w in caught if "already in use" in str(w.message)]
    assert len(ports) == 2 and 8787 not in ports


def test_workers_capped_at_points_to_compute(tmp_path, monkeypatch):
    seen = {}

    def fake_cluster(**kwargs):
        seen.update(kwargs)
        raise RuntimeError("stop before starting anything")

    monkeypatch.setattr(distributed, "LocalCluster", fake_cluster)
    with pytest.raises(RuntimeError, match="stop before"):
        run_sweep(sweep_helpers.square, [{"x": 1}], cache_dir=tmp_path, n_workers=8, progress=False)
    assert seen["n_workers"] == 1


def test_importing_sweep_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, paperlib.sweep; print(any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_progress_bar_counts_cached_points(tmp_path, capsys):
    run_sweep(sweep_helpers.square, [{"x": 1}], cache_dir=tmp_path, scheduler="synchronous", desc="demo")
    run_sweep(sweep_helpers.square, [{"x": 1}, {"x": 2}], cache_dir=tmp_path, scheduler="synchronous",
              desc="demo")
    err = capsys.readouterr().err
    assert "demo:  50%" in err and "demo: 100%" in err and "2/2" in err


# --- a cache that cannot lie (issue 13) ------------------------------------------------------
# All synchronous, tiny points: about 1 s together.

def _untimed(text: str) -> dict:
    """Return a cache entry's JSON without the point's time and the checksum that covers it."""
    return {k: v for k, v in json.loads(text).items() if k not in ("seconds", "cpu_seconds", "checksum")}


def test_an_entry_without_the_points_time_is_served_under_the_same_key(tmp_path):
    """The time a point took is kept beside its result but is no part of its key: an entry written without it (as
    before it was kept) is still whole and served, not recomputed."""
    log = tmp_path / "log"
    points, first, [path] = _one_entry(tmp_path, log)
    entry = {k: v for k, v in json.loads(path.read_text()).items() if k not in ("seconds", "cpu_seconds")}
    entry["checksum"] = sweep._checksum(entry)
    path.write_text(json.dumps(entry, indent=2) + "\n")
    again = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous", progress=False)
    assert len(_calls(log)) == 1  # the first run's call only
    pd.testing.assert_frame_equal(first, again)


def _one_entry(tmp_path, log, xs=(1,)):
    points = _points(log, xs=list(xs))
    frame = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous", progress=False)
    return points, frame, sorted((tmp_path / "sweep_helpers.square").iterdir())


@pytest.mark.parametrize("tamper", [
    # valid JSON, matching key fields, but a result nobody computed: only the checksum catches it
    lambda e: {**e, "result": {**e["result"], "y": 999}},
    lambda e: {k: v for k, v in e.items() if k != "checksum"},  # no checksum
    lambda e: {**e, "schema": 1},  # another schema
    lambda e: {**e, "versions": {**e["versions"], "numpy": "0.0"}},  # versions not those of the key
])
def test_tampered_but_valid_entry_is_recomputed_with_a_warning(tmp_path, tamper):
    log = tmp_path / "log"
    points, first, [path] = _one_entry(tmp_path, log)
    good = path.read_text()
    path.write_text(json.dumps(tamper(json.loads(good)), indent=2) + "\n")
    with pytest.warns(RuntimeWarning, match="corrupted cache file"):
        again = run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous", progress=False)
    assert len(_calls(log)) == 2  # computed again, not served
    assert _untimed(path.read_text()) == _untimed(good)
    pd.testing.assert_frame_equal(first, again)


def test_library_versions_key_the_cache(tmp_path, monkeypatch):
    from importlib import metadata

    import paperlib.sweep as sweep

    log = tmp_path / "log"
    points, _, [path] = _one_entry(tmp_path, log)
    # the key holds the installed numpy's, scipy's and ns-3's versions and nothing else (not Python's)
    installed = {}
    for name in ("numpy", "scipy", "ns3"):
        try:
            installed[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed[name] = "absent"
    assert json.loads(path.read_text())["versions"] == installed
    monkeypatch.setattr(sweep, "package_versions", lambda names: {**installed, "numpy": "9.9"})
    run_sweep(sweep_helpers.square, points, cache_dir=tmp_path, scheduler="synchronous", progress=False)
    assert len(_calls(log)) == 2  # an upgraded numpy recomputes


def test_key_is_canonical_but_seed_follows_the_parameters_as_written():
    import paperlib.sweep as sweep

    # the key's form: 1.0 == 1, key order irrelevant, booleans kept apart from 1
    record = {"params": {"b": 2.0, "a": [1.0, 0.5]}, "seed": 7}
    assert sweep._key(record) == sweep._key({"seed": 7, "params": {"a": [1, 0.5], "b": 2}})
    assert sweep._key({"params": {"a": True}}) != sweep._key({"params": {"a": 1}})
    # seeds are today's: the sha256 of the parameters as written (documented hash test above), so
    # published results do not move; a point written 1.0 is another replication than one written 1
    assert point_seed({"x": 1.0}) != point_seed({"x": 1})


def test_equal_points_written_1_and_1_0_are_duplicates(tmp_path):
    with pytest.raises(ParameterError, match=r"points\[1\] duplicates points\[0\]"):
        run_sweep(sweep_helpers.square, [{"x": 1}, {"x": 1.0}], cache_dir=tmp_path, scheduler="synchronous",
                  progress=False)


def test_unwritable_cache_folder_is_named(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ParameterError, match="^cache_dir: .* is not a writable folder"):
        run_sweep(sweep_helpers.square, [{"x": 1}], cache_dir=blocker, scheduler="synchronous", progress=False)


def test_storing_the_same_point_twice_is_idempotent(tmp_path):
    # Two runs (or workers) computing one point write whole entries by rename, so neither can
    # leave a mixed entry: what the second writes is the first's entry but for the point's own time.
    log = tmp_path / "log"
    _, _, [path] = _one_entry(tmp_path / "a", log)
    _, _, [path_b] = _one_entry(tmp_path / "b", log)
    assert path.name == path_b.name and _untimed(path.read_text()) == _untimed(path_b.read_text())
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary file left


# --- the sweep's provenance ----------------------------------------------------------------------------------

def test_sweep_record_counts_cached_computed_and_retried_points(tmp_path):
    log, cache = tmp_path / "log", tmp_path / "cache"
    run_sweep(sweep_helpers.square, _points(log, xs=[0]), cache_dir=cache, scheduler="synchronous", progress=False)
    frame = run_sweep(sweep_helpers.square, _points(log, xs=[0, 1, 2]), cache_dir=cache, scheduler="synchronous",
                      progress=False)
    record = sweep_record(frame)
    assert (record["points"], record["cached"], record["computed"]) == (3, 1, 2)  # x = 0 was cached by the first run
    assert record["retried"] == [] and record["scheduler"] == "synchronous"
    assert record["simulate"] == "sweep_helpers.square"
    # the file record of the second call: its two computed points with their wall times on the worker
    files = sorted((cache / "runs").glob("sweep_helpers.square-*.json"))
    assert len(files) == 2  # one per distinct sweep (the first call's points differ)
    written = [json.loads(f.read_text()) for f in files]
    second = next(w for w in written if w["points"] == 3)
    assert [s["params"]["x"] for s in second["seconds"]] == [1, 2]
    assert all(s["seconds"] >= 0 and s["cpu_seconds"] >= 0 for s in second["seconds"])
    assert {k: v for k, v in second.items() if k != "seconds"} == record


def test_a_call_that_computes_nothing_writes_no_run_record(tmp_path):
    log, cache = tmp_path / "log", tmp_path / "cache"
    run_sweep(sweep_helpers.square, _points(log, xs=[0]), cache_dir=cache, scheduler="synchronous", progress=False)
    before = {p: p.read_bytes() for p in (cache / "runs").iterdir()}
    again = run_sweep(sweep_helpers.square, _points(log, xs=[0]), cache_dir=cache, scheduler="synchronous",
                      progress=False)
    assert sweep_record(again)["computed"] == 0
    assert {p: p.read_bytes() for p in (cache / "runs").iterdir()} == before


def test_sweep_record_of_another_frame_is_named():
    with pytest.raises(ParameterError, match="^frame"):
        sweep_record(pd.DataFrame({"x": [1]}))
