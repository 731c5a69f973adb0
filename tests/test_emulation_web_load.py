"""Paper 001's browsers on real sockets (paperlib.emulation.web_load, c/webload.c): the workload file, the
request header, the results table, and real runs on loopback (no namespaces) checked against the behaviour of
the ns-3 browsers (paperlib.sim.web_browsers_cpp). Needs gcc; about 20 s."""

import signal
import socket
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlib.emulation import web_load
from paperlib.reproduce.p001 import testbed
from paperlib.reproduce.p001 import workload as p001_workload
from paperlib.sim import web_testbed
from paperlib.validate import ParameterError

# --- the workload file --------------------------------------------------------------------------


@st.composite
def workloads(draw):
    """A small consistent workload: browsers own consecutive pages, pages own consecutive objects."""
    n_groups = draw(st.integers(1, 3))
    pages_per_browser = draw(st.lists(st.integers(0, 3), min_size=1, max_size=5))
    n_pages = sum(pages_per_browser)
    objects = draw(st.lists(st.integers(1, 4), min_size=n_pages, max_size=n_pages))
    n_objects = sum(objects)
    size = st.integers(1, 2**32 - 1)
    seconds = st.floats(0, 1e4, allow_nan=False)
    return {
        "browser_group": np.arange(len(pages_per_browser), dtype=np.int32) % n_groups,
        "browser_start_s": np.array(draw(st.lists(seconds, min_size=len(pages_per_browser),
                                                  max_size=len(pages_per_browser)))),
        "browser_first_page": np.concatenate([[0], np.cumsum(pages_per_browser)[:-1]]).astype(np.uint32),
        "browser_pages": np.array(pages_per_browser, dtype=np.uint32),
        "page_first": np.concatenate([[0], np.cumsum(objects)[:-1]]).astype(np.uint32)[:n_pages],
        "page_objects": np.array(objects, dtype=np.uint32),
        "page_think_s": np.array(draw(st.lists(seconds, min_size=n_pages, max_size=n_pages))),
        "req_bytes": np.array(draw(st.lists(size, min_size=n_objects, max_size=n_objects)), dtype=np.uint32),
        "reply_bytes": np.array(draw(st.lists(size, min_size=n_objects, max_size=n_objects)), dtype=np.uint32),
    }


@settings(max_examples=40, deadline=None)
@given(load=workloads())
def test_workload_file_round_trip(tmp_path_factory, load):
    path = tmp_path_factory.mktemp("wl") / "w.bin"
    web_load.write_workload(load, path)
    back = web_load.read_workload(path)
    assert list(back) == [name for name, _, _ in web_load.ARRAYS]
    for name, dtype, _ in web_load.ARRAYS:
        assert back[name].dtype == np.dtype(dtype) and np.array_equal(back[name], load[name]), name
    # header 40 B (magic 8, version 4, reserved 4, three u64 counts 24) + 4 or 8 B per array entry
    n_b, n_p, n_o = len(load["browser_group"]), len(load["page_first"]), len(load["req_bytes"])
    assert path.stat().st_size == 40 + n_b * (4 + 8 + 4 + 4) + n_p * (4 + 4 + 8) + n_o * (4 + 4)
    assert web_load.workload_bytes(load) == path.read_bytes()  # same arrays, same bytes


def _tiny_load() -> dict:
    return {"browser_group": np.array([0, 1], dtype=np.int32), "browser_start_s": np.array([0.0, 0.5]),
            "browser_first_page": np.array([0, 1], dtype=np.uint32), "browser_pages": np.array([1, 1], np.uint32),
            "page_first": np.array([0, 2], dtype=np.uint32), "page_objects": np.array([2, 1], dtype=np.uint32),
            "page_think_s": np.array([1.0, 2.0]), "req_bytes": np.array([100, 200, 300], dtype=np.uint32),
            "reply_bytes": np.array([1000, 2000, 3000], dtype=np.uint32)}


@pytest.mark.parametrize(("name", "value", "message"), [
    ("page_think_s", np.array([1.0]), "page_think_s has 1 entries, but the other pages arrays 2"),
    ("browser_start_s", np.array([0.0, np.nan]), "browser_start_s must hold finite numbers >= 0"),
    ("req_bytes", np.array([100, 0, 300]), "req_bytes holds 0"),
    ("browser_group", np.array([0.0, 1.0]), "browser_group must hold integers"),
    ("page_objects", np.array([2, 2], dtype=np.uint32), "page_first \\+ page_objects points beyond the 3 objects"),
    ("browser_pages", np.array([1, 2], dtype=np.uint32), "browser_first_page \\+ browser_pages points beyond"),
])
def test_a_malformed_workload_names_its_array(tmp_path, name, value, message):
    with pytest.raises(ParameterError, match=message):
        web_load.write_workload({**_tiny_load(), name: value}, tmp_path / "w.bin")
    assert not (tmp_path / "w.bin").exists()


def test_a_missing_array_is_named(tmp_path):
    load = _tiny_load()
    del load["reply_bytes"]
    with pytest.raises(ParameterError, match="lacks the array\\(s\\) \\['reply_bytes'\\]"):
        web_load.write_workload(load, tmp_path / "w.bin")


# --- the request header --------------------------------------------------------------------------


@given(reply=st.integers(1, 2**32 - 1), req=st.integers(1, 2**32 - 1))
def test_request_header_round_trip(reply, req):
    head = web_load.request_header(reply, req)
    assert web_load.parse_request_header(head + b"x" * 5) == (reply, req, len(head))
    # on the wire: the request, or the header alone when that is longer ("GET /" 5 + digits + " " 1 + digits + "\n" 1)
    assert web_load.request_length(reply, req) == max(req, 7 + len(str(reply)) + len(str(req)))


def test_request_header_by_hand():
    assert web_load.request_header(1460, 230) == b"GET /1460 230\n"  # 14 bytes
    assert web_load.request_length([1460, 1460], [230, 5]).tolist() == [230, 12]  # "GET /1460 5\n" is 12 bytes
    assert web_load.short_requests({"reply_bytes": [1460, 1460, 1], "req_bytes": [230, 5, 9]}) == 1  # 9 = "GET /1 9\n"
    with pytest.raises(web_load.WebLoadOutputError, match="malformed request header"):
        web_load.parse_request_header(b"GET 12 13\n")


# --- results -------------------------------------------------------------------------------------


def test_results_by_hand():
    rows = [  # browser, page, object, primary, t_sched, t_start, t_done, reply, status
        (0, 0, 0, 1, 0.5, 0.5, 0.7, 1000, "done"),       # before the warm-up (1 s): not kept
        (0, 0, 1, 0, 0.7, 0.7, 1.3, 2000, "done"),       # starts before the warm-up: not kept
        (1, 1, 2, 1, 1.0, 1.0, 1.25, 3000, "done"),      # kept, response 0.25 s
        (1, 1, 3, 0, 1.25, 1.25, 1.5, 4000, "done"),     # kept, 0.25 s
        (1, 1, 4, 0, 1.25, 1.2500001, 1.3, 500, "done"),  # kept, 0.0499999 s; starts after object 3
        (2, 2, 5, 1, 2.0, 2.0, 2.1, 7000, "failed"),
        (2, 3, 6, 1, 3.5, 3.5, np.nan, 8000, "unfinished"),
        (3, 4, 7, 1, 3.9, np.nan, np.nan, 9000, "unissued"),
    ]
    frame = pd.DataFrame(rows, columns=list(web_load.REQUEST_COLUMNS))
    summary = {"warmup_s": 1.0, "rx_bytes_after_warmup": 12_500, "cpu_s": 0.2, "t_end_s": 4.0, "scheduled": 8,
               "issued": 7, "unissued": 1, "issue_lateness_p99_s": 0.01, "issue_lateness_max_s": 0.02,
               "max_open": 2, "short_requests": 0, "errors": {"econnrefused": 1}}
    res = web_load.results(frame, summary, warmup_s=1.0, duration_s=4.0)
    assert res["requests"] == 3
    assert res["response_s"] == [0.25, 0.25, 0.05]  # start order 1.0, 1.25, 1.2500001; 0.0499999 rounded to 1 us
    assert res["response_bytes"] == [3000, 4000, 500] and res["response_primary"] == [1, 0, 0]
    assert res["failed"] == 1 and res["unfinished"] == 1
    assert res["throughput_bps"] == 8 * 12_500 / 3.0  # the summary's bytes after 1 s over the 3 s window
    assert res["generator"]["cpu_per_s"] == 0.2 / 4.0 and res["generator"]["unissued"] == 1
    # a summary of another warm-up: the bytes of requests completed after 1 s, 2000 + 3000 + 4000 + 500
    other = web_load.results(frame, {**summary, "warmup_s": 0.0}, warmup_s=1.0, duration_s=4.0)
    assert other["throughput_bps"] == 8 * 9_500 / 3.0
    with pytest.raises(ParameterError, match="warmup_s"):
        web_load.results(frame, summary, warmup_s=4.0, duration_s=4.0)


def test_parse_summary_takes_the_json_line():
    assert web_load.parse_summary('ready\n{"mode": "serve", "connections": 3}\n')["connections"] == 3
    with pytest.raises(web_load.WebLoadOutputError, match="no JSON summary"):
        web_load.parse_summary("ready\n")


def test_command_lines():
    assert web_load.serve_argv("/x/webload", [("127.0.0.1", 80), ("10.0.0.2", 8080)]) == [
        "/x/webload", "serve", "--listen", "127.0.0.1:80,10.0.0.2:8080"]
    argv = web_load.browse_argv("/x/webload", "w.bin", "r.csv", 40, 4, [("10.1.0.1", "10.2.0.1", 80)], warmup_s=10)
    assert argv == ["/x/webload", "browse", "--workload", "w.bin", "--out", "r.csv", "--duration", "40.0",
                    "--parallel", "4", "--pairs", "10.1.0.1:10.2.0.1:80", "--warmup", "10.0"]
    with pytest.raises(ParameterError, match="port 0"):
        web_load.serve_argv("/x/webload", [("127.0.0.1", 0)])
    with pytest.raises(ParameterError, match="parallel"):
        web_load.browse_argv("/x/webload", "w", "r", 40, 0, [("10.1.0.1", "10.2.0.1", 80)])


# --- real runs on loopback ----------------------------------------------------------------------

TOL_S = 3e-9  # times go through the CSV with 9 decimals


@pytest.fixture(scope="module")
def exe():
    return web_load.binary()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(exe, tmp_path, load, duration_s, parallel, pairs, listen, warmup_s=None, rx_log=None):
    """Run responders and browsers; return (requests, browse summary, serve summary)."""
    web_load.write_workload(load, tmp_path / "w.bin")
    server = subprocess.Popen(web_load.serve_argv(exe, listen), stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline() == "ready\n"
        browse = subprocess.run(web_load.browse_argv(exe, tmp_path / "w.bin", tmp_path / "r.csv", duration_s,
                                                     parallel, pairs, warmup_s=warmup_s, rx_log=rx_log),
                                capture_output=True, text=True, timeout=duration_s + 30, check=True)
    finally:
        server.send_signal(signal.SIGTERM)
        serve_out, _ = server.communicate(timeout=30)
    assert server.returncode == 0
    return (web_load.read_requests(tmp_path / "r.csv"), web_load.parse_summary(browse.stdout),
            web_load.parse_summary(serve_out))


def check_browsers(req: pd.DataFrame, load: dict, parallel: int, duration_s: float) -> None:
    """Assert that every browser issued its requests as web_browsers_cpp's StartPage / ObjectDone would.

    Per browser: objects in workload order, page by page; the primary alone first, then the embedded objects
    over at most ``parallel`` connections, the k-th beyond the first ``parallel`` when the (k - parallel)-th
    embedded object completes; the next page at the last completion + think; every page due before the end
    present, none after it.
    """
    first_page, n_pages = load["browser_first_page"], load["browser_pages"]
    page_first, page_objects, think = load["page_first"], load["page_objects"], load["page_think_s"]
    col = {c: req[c].to_numpy() for c in web_load.REQUEST_COLUMNS}
    ended = np.isin(col["status"], ["done", "failed"])
    assert np.isin(col["browser"], np.flatnonzero(n_pages > 0)).all()
    for b in np.unique(col["browser"]):
        rows = np.flatnonzero(col["browser"] == b)  # in file (connect) order
        p0, objs, pages = int(first_page[b]), col["object"][rows], col["page"][rows]
        assert np.array_equal(objs, np.arange(page_first[p0], page_first[p0] + len(objs))), f"browser {b}: order"
        assert np.all((pages >= p0) & (pages < p0 + n_pages[b])), f"browser {b}: its own pages"
        assert np.array_equal(col["primary"][rows], (objs == page_first[pages]).astype(int)), f"browser {b}"
        ready = float(load["browser_start_s"][b])
        complete = True
        for p in np.unique(pages):
            pg = rows[pages == p]
            prim, emb = pg[0], pg[1:]
            assert col["primary"][prim] == 1 and abs(col["t_sched_s"][prim] - ready) <= TOL_S, f"browser {b} page {p}"
            if col["status"][prim] == "unissued":
                assert len(pg) == 1
                complete = False
                break
            assert col["t_start_s"][prim] >= col["t_sched_s"][prim] - TOL_S
            if len(emb):
                t_prim = col["t_done_s"][prim]
                assert ended[prim] and (col["t_sched_s"][emb] >= t_prim - TOL_S).all()  # the primary first
                done_order = np.sort(col["t_done_s"][emb])  # NaN (unfinished) last
                freed_by = np.concatenate([np.full(min(parallel, len(emb)), t_prim),
                                           done_order[:max(len(emb) - parallel, 0)]])
                assert np.all(np.abs(col["t_sched_s"][emb] - freed_by) <= TOL_S), f"browser {b} page {p}: slots"
                starts, ends = col["t_start_s"][emb], np.nan_to_num(col["t_done_s"][emb], nan=np.inf)
                assert np.all(starts >= col["t_sched_s"][emb] - TOL_S)
                # at most `parallel` open at once: the k-th opens only after the (k - parallel)-th completed
                open_at = (starts[:, None] >= starts[None, :]) & (starts[:, None] < ends[None, :])
                assert open_at.sum(axis=1).max() <= parallel
            complete = len(pg) == page_objects[p] and ended[pg].all()
            if not complete:
                assert p == pages.max(), f"browser {b}: page {p} incomplete but a later page started"
                break
            ready = float(col["t_done_s"][pg].max()) + float(think[p])
        if complete and pages.max() + 1 < p0 + n_pages[b]:  # the next page was due after the end
            assert ready > duration_s - 1e-6, f"browser {b}: a page due at {ready} s is missing"


def _check_counts(req, summary, server, load):
    status = req["status"].value_counts().to_dict()
    assert summary["scheduled"] == len(req) == summary["issued"] + summary["unissued"]
    assert summary["issued"] == summary["done"] + summary["failed"] + summary["unfinished"]
    for name in ("done", "failed", "unfinished", "unissued"):
        assert summary[name] == status.get(name, 0), name
    done = req[req["status"] == "done"]
    open_reply = int(req.loc[req["status"] == "unfinished", "reply_bytes"].sum())
    # every reply byte of a completed request was read, plus part of the replies still open
    assert done["reply_bytes"].sum() <= summary["rx_bytes"] <= done["reply_bytes"].sum() + open_reply
    assert summary["stray_bytes"] == 0
    issued = req[req["status"] != "unissued"]
    on_wire = web_load.request_length(issued["reply_bytes"], load["req_bytes"][issued["object"]])
    assert summary["short_requests"] == int((on_wire > load["req_bytes"][issued["object"]]).sum())
    if summary["unfinished"] == 0 and summary["failed"] == 0:  # every request and reply went whole
        assert server["connections"] == server["replies"] == summary["issued"]
        assert server["bytes_sent"] == summary["rx_bytes"] and server["bytes_read"] == on_wire.sum()
        assert server["short_requests"] == summary["short_requests"] and server["errors"] == 0


def _synthetic_load() -> dict:
    """20 browsers on two pairs, three pages of 1, 6 and 9 objects each (think 0.3 s), done by about 2 s;
    browser 19 has 40 one-object pages 0.2 s apart, so the 5 s run ends in the middle of them."""
    n = 20
    pages = np.full(n, 3, dtype=np.uint32)
    pages[-1] = 40
    objects = np.concatenate([np.tile(np.array([1, 6, 9], dtype=np.uint32), n - 1), np.ones(40, dtype=np.uint32)])
    rng = np.random.default_rng(7)
    n_obj = int(objects.sum())
    req = rng.integers(1, 3000, n_obj).astype(np.uint32)
    req[::17] = 3  # shorter than any header
    return {"browser_group": (np.arange(n) % 2).astype(np.int32), "browser_start_s": np.arange(n) * 0.05,
            "browser_first_page": np.concatenate([[0], np.cumsum(pages)[:-1]]).astype(np.uint32),
            "browser_pages": pages, "page_first": np.concatenate([[0], np.cumsum(objects)[:-1]]).astype(np.uint32),
            "page_objects": objects, "page_think_s": np.where(objects == 1, 0.2, 0.3).astype(float),
            "req_bytes": req, "reply_bytes": rng.integers(1, 200_000, n_obj).astype(np.uint32)}


def test_browsers_on_loopback_behave_as_the_ns3_browsers(exe, tmp_path):
    load = _synthetic_load()
    port = _free_port()
    req, summary, server = _run(exe, tmp_path, load, 5.0, 4, [("127.0.0.1", "127.0.0.1", port),
                                                             ("127.0.0.2", "127.0.0.2", port)],
                                [("127.0.0.1", port), ("127.0.0.2", port)], warmup_s=1.0,
                                rx_log=(tmp_path / "rx.csv", 0.5))
    check_browsers(req, load, parallel=4, duration_s=5.0)
    _check_counts(req, summary, server, load)
    assert summary["failed"] == 0 and summary["short_requests"] >= 1  # req_bytes[::17] = 3 bytes were issued
    # browsers 0-18 fetch all of their 3 pages (16 objects): started by 0.9 s, done in about 1.2 s more
    first19 = req[req["browser"] < 19]
    assert len(first19) == 19 * 16 and (first19["status"] == "done").all()
    # browser 19: its pages start 0.95 s + k x (0.2 s + fetch), so at most 21 of them before 5 s
    assert 1 <= (req["browser"] == 19).sum() <= 21
    assert summary["max_open"] <= 20 * 4 and server["max_open"] >= 1
    rx = web_load.read_rx_log(tmp_path / "rx.csv")
    assert np.allclose(rx["t_s"], np.arange(11) * 0.5)  # 0, 0.5, ..., 5 s
    assert rx["rx_bytes"].iloc[0] == 0 and rx["rx_bytes"].iloc[-1] <= summary["rx_bytes"]
    # the sample at the warm-up (1 s) and the summary's count after it add up to all bytes received
    assert rx["rx_bytes"].iloc[2] + summary["rx_bytes_after_warmup"] == summary["rx_bytes"]


def test_sigterm_ends_a_run_early_with_its_outputs(exe, tmp_path):
    load = _synthetic_load()
    web_load.write_workload(load, tmp_path / "w.bin")
    port = _free_port()
    server = subprocess.Popen(web_load.serve_argv(exe, [("127.0.0.1", port)]), stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline() == "ready\n"
        browse = subprocess.Popen(web_load.browse_argv(exe, tmp_path / "w.bin", tmp_path / "r.csv", 60, 4,
                                                       [("127.0.0.1", "127.0.0.1", port)] * 2),
                                  stdout=subprocess.PIPE, text=True)
        try:
            browse.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            browse.send_signal(signal.SIGTERM)
        out, _ = browse.communicate(timeout=30)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    summary = web_load.parse_summary(out)
    assert browse.returncode == 0 and summary["stopped_by_signal"] is True and summary["t_end_s"] < 60
    req = web_load.read_requests(tmp_path / "r.csv")
    assert len(req) == summary["scheduled"] >= 1


def test_failed_connections_count_and_the_browser_goes_on(exe, tmp_path):
    """Pair 1 binds to an address this host does not have (EADDRNOTAVAIL), pair 2 connects to a closed port
    (ECONNREFUSED): every object of their browsers fails, and they still walk through all their pages, as
    ns-3's error callback calls ObjectDone."""
    load = _synthetic_load()
    load["browser_group"] = (np.arange(20) % 3).astype(np.int32)
    load["browser_pages"][-1] = 3
    port = _free_port()
    with socket.socket() as bound:  # bound but not listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        closed = bound.getsockname()[1]
        req, summary, server = _run(exe, tmp_path, load, 2.5, 4, [("127.0.0.1", "127.0.0.1", port),
                                                                 ("192.0.2.1", "127.0.0.1", port),
                                                                 ("127.0.0.1", "127.0.0.1", closed)],
                                    [("127.0.0.1", port)])
    check_browsers(req, load, parallel=4, duration_s=2.5)
    group = load["browser_group"][req["browser"]]
    assert (req.loc[group == 0, "status"] == "done").all()
    assert (req.loc[group > 0, "status"] == "failed").all()
    # each browser: 3 pages (the last browser too, now), 1 + 6 + 9 objects of browsers 0-18 and 1 + 1 + 1 of 19
    per_group = {g: sum(16 if b < 19 else 3 for b in range(20) if b % 3 == g) for g in range(3)}
    assert summary["errors"]["eaddrnotavail"] == per_group[1] and summary["errors"]["econnrefused"] == per_group[2]
    assert summary["failed"] == per_group[1] + per_group[2] and server["connections"] == per_group[0]


def test_the_generator_keeps_up_with_the_98_percent_browsers(exe, tmp_path):
    """The scaled profile's browser count for 98 % load (Mah's workload, six pairs) for 8 s on loopback, no rate
    limit: counts and order are asserted; issue lateness and CPU are printed (they depend on the machine)."""
    prof = testbed.profile("scaled")
    n = p001_workload.browsers_for_load(0.98, prof.bottleneck_bps, prof.predicted_kbps_per_browser())
    p = {**web_testbed.DEFAULTS, "browsers": n, "sim_time_s": 8.0, "traffic": prof.traffic}
    load = web_testbed.workload(p, 1)
    port = _free_port()
    pairs = [(f"127.0.1.{i + 1}", f"127.0.0.{i % 2 + 1}", port) for i in range(len(p["pairs"]))]
    req, summary, server = _run(exe, tmp_path, load, 8.0, int(p["parallel"]), pairs,
                                [("127.0.0.1", port), ("127.0.0.2", port)], warmup_s=2.0)
    check_browsers(req, load, parallel=int(p["parallel"]), duration_s=8.0)
    _check_counts(req, summary, server, load)
    assert summary["browsers"] == n and summary["failed"] == 0 and summary["issued"] > 0
    print(f"\n{n} browsers ({summary['active_browsers']} with a page), 8 s: {summary['issued']} requests "
          f"({summary['issued'] / 8:.0f}/s), unissued {summary['unissued']}, issue lateness p99 "
          f"{summary['issue_lateness_p99_s'] * 1e3:.3f} ms, max {summary['issue_lateness_max_s'] * 1e3:.3f} ms, "
          f"CPU {summary['cpu_s']:.3f} s ({summary['cpu_s'] / summary['t_end_s']:.4f} s per s), "
          f"responder CPU {server['cpu_s']:.3f} s, max open {summary['max_open']}")
