"""Paper 005 on real stacks (paperlib.reproduce.p005.emulated): its grids, the shared link seeds, the tables it
hands to the package, bad input, and one small emulated page per transport (a few seconds each; skipped with
the reason where the machine cannot run the testbed or lacks a transport's package)."""

import math

import numpy as np
import pandas as pd
import pytest

from paperlib.emulation import ledger_rows as emulated_rows
from paperlib.emulation import netns
from paperlib.reproduce.p005 import emulated, transports
from paperlib.validate import ParameterError
from tests.fidelity_helpers import on_time

#: The paper the summaries are of (``emulated.summary`` takes it first, as every paper's does).
PAPER_005 = "005"

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def test_interface_names_come_from_transports():
    assert emulated.PROTOCOLS is transports.PROTOCOLS and emulated.HANDSHAKE_STACK is transports.HANDSHAKE_STACK
    assert emulated.PAPER == "005"


def test_grid_sizes():
    # reduced: 3 protocols x 1 rate x 1 RTT x 3 losses x 2 IWs x 5 reps = 90 runs, one capture run per
    # (protocol, rate, RTT, IW) = 3 x 2 = 6; full: 3 x 3 x 4 x 5 x 4 x 10 = 7200 runs, 3 x 3 x 4 x 4 = 144 captures;
    # then the C points: nghttp2 at every IW, ngtcp2 at IW 10, loss 0, one link: reduced (2 + 1) x 5 = 15,
    # full (4 + 1) x 10 = 50, none captured
    for profile, runs, captures in (("reduced", 90 + 15, 6), ("full", 7200 + 50, 144)):
        pts = emulated.points(None, profile)
        assert len(pts) == runs and sum(p["capture"] for p in pts) == captures
        assert all(p["loss"] == 0.0 and p["rep"] == 0 for p in pts if p["capture"])
    assert emulated.points(None, "off") == []
    with pytest.raises(ParameterError, match="emulation"):
        emulated.points(None, "tiny")


def test_page_is_the_median_desktop_homepage_in_bytes():
    sizes = emulated.page_bytes()
    bits = transports.real_stack_page().object_bits
    assert len(sizes) == transports.real_stack_page().objects
    # each size is round(bits / 8), so the page differs from bits / 8 by at most half a byte per object
    assert abs(sum(sizes) - bits.sum() / 8) <= 0.5 * len(sizes)


def test_queue_is_one_bdp_with_a_floor_of_one_initial_window():
    # 10 Mbit/s x 0.1 s / 8 / 1500 B = 83.3 packets -> 84; 2 Mbit/s x 0.02 s -> 3.3 -> 4, raised to IW10's 10;
    # 50 Mbit/s x 0.2 s -> 833.3 -> 834
    assert emulated.queue_packets(10e6, 0.1) == 84
    assert emulated.queue_packets(2e6, 0.02) == 10
    assert emulated.queue_packets(50e6, 0.2) == 834
    with pytest.raises(ParameterError, match="rate_bps"):
        emulated.queue_packets(0.0, 0.1)


def test_link_seed_is_shared_by_protocols_and_windows_only():
    pts = emulated.points(None, "reduced")
    by_link = {}
    for p in pts:
        by_link.setdefault((p["rate_bps"], p["rtt_s"], p["loss"], p["rep"]), set()).add(p["link_seed"])
    assert all(len(seeds) == 1 for seeds in by_link.values())  # every protocol and IW at a link point: one seed
    assert len({s for seeds in by_link.values() for s in seeds}) == len(by_link)  # distinct across link points


def test_c_points_are_the_loss_free_cells_of_the_questions_link_on_the_python_seeds():
    pts = emulated.points(None, "reduced")
    py = [p for p in pts if "implementation" not in p]
    c = [p for p in pts if p.get("implementation") == "c"]
    assert len(py) + len(c) == len(pts) and c == emulated.c_points("reduced")
    assert {(p["protocol"], p["iw_segments"]) for p in c} == {("h2", 3), ("h2", 10), ("h3", 10)}
    assert all(p["loss"] == 0.0 and not p["capture"] for p in c)
    assert {(p["rate_bps"], p["rtt_s"]) for p in c} == {(10e6, 0.05)}
    seeds = {(p["protocol"], p["iw_segments"], p["rep"]): p["link_seed"] for p in py if p["loss"] == 0.0}
    for p in c:  # the same link seed as the Python point of its cell and repetition
        assert p["link_seed"] == seeds[(p["protocol"], p["iw_segments"], p["rep"])]
        assert {k: v for k, v in p.items() if k != "implementation"} == {
            **next(q for q in py if (q["protocol"], q["loss"], q["iw_segments"], q["rep"]) ==
                   (p["protocol"], 0.0, p["iw_segments"], p["rep"])), "capture": False}
    full = emulated.c_points("full")
    assert sorted({p["iw_segments"] for p in full if p["protocol"] == "h3"}) == [10]
    assert sorted({p["iw_segments"] for p in full if p["protocol"] == "h2"}) == [2, 3, 4, 10]
    assert emulated.c_points("off") == []


def test_a_point_without_implementation_is_python_and_keeps_its_sweep_key():
    from paperlib import sweep

    p = emulated.points(None, "reduced")[0]
    assert emulated.implementation_of(p) == "python" and emulated.implementation_of({"implementation": math.nan}) \
        == "python"
    # the field is added to the C points only, so a Python point's key is that of the point as it always was
    assert "implementation" not in p and sweep._key({"params": p}) != sweep._key({"params": {**p, "implementation":
                                                                                             "python"}})
    c = emulated.c_points("reduced")
    for bad, field in (({**c[0], "implementation": "rust"}, "implementation"),
                       ({**c[0], "protocol": "sctp"}, "implementation 'c'"),
                       ({**c[-1], "iw_segments": 3}, "iw_segments must be 10")):
        with pytest.raises(ParameterError, match=field):
            emulated.check_point(bad)
    assert emulated.check_point(c[-1]) is c[-1]


def test_a_missing_c_program_is_named(monkeypatch):
    from paperlib.emulation import c_stacks

    monkeypatch.setattr(c_stacks, "program_path", lambda name: None)
    assert "ngtcp2-server" in emulated.missing_reason("h3", "c")
    with pytest.raises(ParameterError, match="implementation"):
        emulated.missing_reason("sctp", "c")


def test_run_leaves_out_the_c_points_whose_programs_are_missing(monkeypatch, tmp_path):
    from paperlib.emulation import notebook

    class Swept(Exception):
        pass

    def sweep(simulate, points, **kw):
        raise Swept(points)

    monkeypatch.setattr(notebook, "not_run_reason", lambda profile: None)
    monkeypatch.setattr(emulated, "missing_reason", lambda p, implementation="python":
                        "ngtcp2-server is not installed" if (p, implementation) == ("h3", "c") else None)
    monkeypatch.setattr(emulated.sweep, "run_sweep", sweep)
    with pytest.raises(Swept) as swept:
        emulated.run("005", "reduced", tmp_path, scheduler_links=1)
    pts = swept.value.args[0]
    # the Python points all run and nghttp2's: 90 + 2 IWs x 5 reps; ngtcp2's 5 are left out
    assert len(pts) == 100 and {(p["protocol"], emulated.implementation_of(p)) for p in pts} == {
        ("h2", "python"), ("h3", "python"), ("sctp", "python"), ("h2", "c")}
    # every Python stack missing: nothing runs, and the C programs' reason is kept beside
    monkeypatch.setattr(emulated, "missing_reason", lambda p, implementation="python":
                        "missing" if implementation == "python" or p == "h3" else None)
    rs = emulated.run("005", "reduced", tmp_path, scheduler_links=1)
    assert rs.not_run and set(rs.c_missing) == {"h3"}


class _FakeTestbed:
    """Stands in for a Testbed in the dispatch test: no namespaces, nothing runs."""

    def __init__(self, link, seed, tcp):
        self.tcp, self.link_stats = tcp, {}
        self.fidelity = type("F", (), {"to_dict": lambda self: {}})()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def provenance(self):
        return {}

    def sysctl_values(self, side, names):
        return {}


def test_load_page_dispatches_c_points_to_c_stacks(monkeypatch):
    from paperlib.emulation import c_stacks, experiments

    called = []

    def canned(name):
        def run(tb, objects_bytes, *, iw_segments, bound_s, tmp):
            called.append((name, iw_segments, tb.tcp.initcwnd))
            conn = {"t_connect_start": 10.0, "t_handshake_done": 10.1, "t_first_request": 10.1,
                    "realtime_first_request": None}
            objects = [{"object": i, "stream": 4 * i, "bytes": b, "t_request": 10.1, "t_first_byte": 10.2 + i,
                        "t_done": 10.3 + i} for i, b in enumerate(objects_bytes)]
            return conn, objects, {"implementation": name, "versions": {}}
        return run

    monkeypatch.setattr(c_stacks, "run_nghttp2", canned("nghttp2"))
    monkeypatch.setattr(c_stacks, "run_ngtcp2", canned("ngtcp2"))
    monkeypatch.setattr(emulated, "_run_http", lambda *a: pytest.fail("the Python stack ran for a C point"))
    monkeypatch.setattr(emulated, "Testbed", _FakeTestbed)
    monkeypatch.setattr(experiments, "start_capture", lambda *a: None)
    monkeypatch.setattr(experiments, "stop_captures", lambda dumps: [None for _ in dumps])
    monkeypatch.setattr(emulated.capture, "read_pcap", lambda path: [])
    monkeypatch.setattr(emulated, "wire_figures", lambda c, s, p: {"protocol_rtts": 2.0})
    c = emulated.c_points("reduced")
    h2 = {**c[0], "objects_bytes": [100, 200]}
    r = emulated.load_page(h2, 0)
    # objects end at 10.3 and 11.3 from a start at 10.0: plt 1.3 s; first byte 10.2 -> ttfb 0.2 s; the request
    # leaves at 10.1: 0.1 s / 0.05 s = 2 round trips on the client's clock
    assert r["plt_s"] == pytest.approx(1.3) and r["ttfb_s"] == pytest.approx(0.2)
    assert r["handshake_rtts"] == pytest.approx(2.0) and r["first_flight"] is None
    assert r["provenance"]["application_settings"]["client"]["implementation"] == "nghttp2"
    emulated.load_page({**c[-1], "objects_bytes": [100]}, 0)
    # nghttp2 on the Testbed's TCP initial window of its point (3); ngtcp2 at 10
    assert called == [("nghttp2", 3, 3), ("ngtcp2", 10, 10)]


def test_the_kernels_answers_to_a_closed_end_are_left_out_of_the_c_captures():
    # IPv4 header of 20 B (0x45), protocol at byte 9 (6 TCP, 17 UDP, 1 ICMP); TCP flags at byte 20 + 13: RST (0x04)
    # and ACK (0x10)
    def packet(proto, flags=0):
        ip = bytearray(40)
        ip[0], ip[9], ip[33] = 0x45, proto, flags
        return bytes(ip)

    packets = [(0.0, packet(6, 0x10)), (0.1, packet(6, 0x04)), (0.2, packet(6, 0x14)), (0.3, packet(6, 0x18))]
    assert [t for t, _ in emulated.without_teardown(packets, "h2")] == [0.0, 0.3]
    quic = [(0.0, packet(17)), (0.1, packet(1)), (0.2, packet(17))]
    assert [t for t, _ in emulated.without_teardown(quic, "h3")] == [0.0, 0.2]


def test_the_quic_bit_ngtcp2_greases_is_set_again():
    from paperlib.emulation import capture

    # a datagram of a greased Initial (first byte 0x80: long header, type 0, QUIC bit clear; version 1, DCID of
    # 1 B, no SCID, token length 0, Length 2, 2 B) coalesced with a greased short header (0x01 and 3 B)
    quic = bytes([0x80, 0, 0, 0, 1, 1, 0xAA, 0, 0, 2, 0xEE, 0xEE, 0x01, 0xBB, 0xBB, 0xBB])
    ip = bytearray(28) + quic
    ip[0], ip[9], ip[2:4] = 0x45, 17, len(ip).to_bytes(2, "big")
    assert capture.quic_packet_types(bytes(ip)) == []  # read as padding
    (t, fixed), = emulated.with_quic_bit([(1.0, bytes(ip))])
    # 0x80 | 0x40 = 0xC0 and 0x01 | 0x40 = 0x41; nothing else changes
    assert fixed[28] == 0xC0 and fixed[40] == 0x41 and fixed[:28] == ip[:28] and fixed[29:40] == ip[29:40]
    assert capture.quic_packet_types(fixed) == ["initial", "1rtt"] and t == 1.0


def test_bad_point_names_the_field():
    p = emulated.points(None, "reduced")[0]
    for field, value in (("protocol", "quic"), ("loss", 1.0), ("iw_segments", 0), ("objects_bytes", [0])):
        with pytest.raises(ParameterError, match=field):
            emulated.check_point({**p, field: value})
    with pytest.raises(ParameterError, match="lacks 'link_seed'"):
        emulated.check_point({k: v for k, v in p.items() if k != "link_seed"})


def test_sctp_burst_limit_is_at_least_the_window():
    # RFC 4960 Max.Burst is 4: kept for IW 2..4, raised to the window for IW 10
    assert [emulated.sctp_settings(iw).max_burst for iw in (2, 3, 4, 10)] == [4, 4, 4, 10]
    assert "--max-burst" in emulated.sctp_settings(10).argv()


def _fake_wire(proto: str, k: int) -> dict:
    """Wire figures of a fake run: protocol round trips 2 (h2) or 1 (h3) plus 0.01 k, processing 0.1 + 0.1 k."""
    base = 2.0 if proto == "h2" else 1.0
    keys = dict.fromkeys(emulated.WIRE_COLUMNS.values(), 0.0)
    return {**keys, "wire_rtts": base + 0.01 * k + 0.1 + 0.1 * k, "protocol_rtts": base + 0.01 * k,
            "processing_rtts": 0.1 + 0.1 * k, "ttfb_wire_s": 0.2, "ttfb_protocol_rtts": base + 1}


def _fake_runs():
    """Two protocols, one link point, 3 reps each (plt, ttfb, handshake rtts), h2's first rep captured."""
    rows = []
    for proto, plts in (("h2", [3.0, 4.0, 5.0]), ("h3", [2.0, 2.0, 2.0])):
        for k, plt in enumerate(plts):
            rows.append({"protocol": proto, "rate_bps": 10e6, "rtt_s": 0.1, "loss": 0.01, "queue_packets": 84,
                         "iw_segments": 10, "rep": k, "link_seed": 100 + k, "plt_s": plt, "ttfb_s": 0.3,
                         "t_done": [plt / 2, plt],
                         "handshake_rtts": 2.0 if proto == "h2" else 1.0, "provenance": {},
                         "first_flight": ({"packets": 13, "full_packets": 11, "iw_checked": True}
                                          if proto == "h2" and k == 0 else None),
                         # h2's third repetition has no wire figures (its captures could not be read)
                         "wire": None if (proto, k) == ("h2", 2) else _fake_wire(proto, k),
                         "wire_error": "no request" if (proto, k) == ("h2", 2) else None})
    return emulated.RealStacks("reduced", runs=pd.DataFrame(rows))


def test_summary_means_and_intervals():
    s = emulated.summary(PAPER_005, _fake_runs())
    assert list(s.columns) == emulated.SUMMARY_COLUMNS and list(s.protocol) == ["h2", "h3"]
    h2 = s.iloc[0]
    # h2: plt 3, 4, 5 -> mean 4, sd 1, half = t(0.975, 2) / sqrt(3) = 4.302653 / 1.732051 = 2.484138
    assert h2.plt_mean_s == 4.0 and h2.plt_half_s == pytest.approx(2.484138, abs=1e-6) and h2.n == 3
    assert h2.first_flight_packets == 11 and h2.iw_checked
    # mean object time: each run's objects end at plt/2 and plt, so 0.75 plt per run: 2.25, 3, 3.75 -> mean 3,
    # sd 0.75, half 0.75 x 2.484138 = 1.863104
    assert h2.object_mean_s == 3.0 and h2.object_half_s == pytest.approx(1.863104, abs=1e-6)
    h3 = s.iloc[1]
    # h3: three equal values -> half-width 0; no capture run -> no first flight
    assert h3.plt_half_s == 0.0 and h3.handshake_rtts_mean == 1.0 and pd.isna(h3.first_flight_packets)
    assert "HTTP/3 over QUIC" in h3.stack and "RTT 100 ms" in h3.stack
    # the wire: h2 has two readable runs (protocol 2.00, 2.01 -> mean 2.005, sd 0.0070711, half = t(0.975, 1)
    # 12.706205 x 0.0070711 / sqrt(2) = 0.063531; processing 0.1, 0.2 -> 0.15); h3 three (1.00, 1.01, 1.02 ->
    # 1.01, sd 0.01, half 2.484138 x 0.01 = 0.024841)
    assert h2.wire_n == 2 and h2.protocol_rtts_mean == pytest.approx(2.005)
    assert h2.protocol_rtts_half == pytest.approx(0.063531, abs=1e-6) and h2.processing_rtts_mean == pytest.approx(0.15)
    assert h3.wire_n == 3 and h3.protocol_rtts_mean == pytest.approx(1.01)
    assert h3.protocol_rtts_half == pytest.approx(0.024841, abs=1e-6) and h3.ttfb_protocol_rtts_mean == 2.0


def _with_c_runs():
    """_fake_runs plus C runs at loss 0 on the questions' link: h2 at IW 10 (plt 2.0, 2.2; wire 2.0, 2.02), and the
    Python h2 of that cell (plt 2.4, 2.6; wire 2.1, 2.1) and an sctp run the implementation table leaves out."""
    fake = _fake_runs().runs
    rows = []
    for impl, proto, plts, wires in (("c", "h2", [2.0, 2.2], [2.0, 2.02]), ("python", "h2", [2.4, 2.6], [2.1, 2.1]),
                                     ("python", "sctp", [9.0, 9.0], [2.0, 2.0])):
        for k, (plt, w) in enumerate(zip(plts, wires, strict=True)):
            wire = {**_fake_wire("h2", 0), "protocol_rtts": w, "processing_rtts": 0.05 if impl == "c" else 0.25}
            rows.append({"protocol": proto, "implementation": impl, "rate_bps": 10e6, "rtt_s": 0.05, "loss": 0.0,
                         "queue_packets": 42, "iw_segments": 10, "rep": k, "link_seed": 7 + k, "plt_s": plt,
                         "ttfb_s": 0.2 + 0.1 * k, "t_done": [plt], "handshake_rtts": 2.0, "provenance": {},
                         "first_flight": None, "wire": wire, "wire_error": None})
    return emulated.RealStacks("reduced", runs=pd.concat([fake, pd.DataFrame(rows)], ignore_index=True))


def test_summary_keeps_the_python_cells_and_the_implementations_stand_side_by_side():
    rs = _with_c_runs()
    s = emulated.summary(PAPER_005, rs)
    py = rs.runs[rs.runs.implementation.fillna("python") == "python"]
    expected = emulated.summary(PAPER_005, emulated.RealStacks("reduced", runs=py.drop(columns="implementation")))
    pd.testing.assert_frame_equal(s, expected)  # the C runs change nothing in the Python cells
    t = emulated.implementation_summary(rs)
    assert list(t.columns) == emulated.IMPLEMENTATION_COLUMNS
    # one cell with a C run: h2 at IW 10; sctp and the lossy cells are not among them; Python first
    assert t[["protocol", "iw_segments", "implementation"]].values.tolist() == [["h2", 10, "python"], ["h2", 10, "c"]]
    c, p = t.iloc[1], t.iloc[0]
    # C: plt 2.0, 2.2 -> mean 2.1, sd 0.141421, half t(0.975, 1) 12.706205 x 0.141421 / sqrt(2) = 1.270621;
    # wire 2.0, 2.02 -> 2.01, half 12.706205 x 0.014142 / 1.414214 = 0.127062; processing 0.05 both
    assert c.plt_mean_s == pytest.approx(2.1) and c.plt_half_s == pytest.approx(1.270621, abs=1e-6)
    assert c.protocol_rtts_mean == pytest.approx(2.01) and c.protocol_rtts_half == pytest.approx(0.127062, abs=1e-6)
    assert c.processing_rtts_mean == pytest.approx(0.05) and c.n == 2 and c.wire_n == 2
    # ttfb 0.2, 0.3 -> 0.25 on both; Python: plt 2.5, wire 2.1 with half 0, processing 0.25
    assert c.ttfb_mean_s == pytest.approx(0.25) and p.plt_mean_s == pytest.approx(2.5)
    assert p.protocol_rtts_half == 0.0 and p.processing_rtts_mean == pytest.approx(0.25)
    assert "nghttp2" in c.stack and "h2 " in p.stack
    assert emulated.implementation_summary(_fake_runs()).empty  # no C run, no row
    # the Python-only view of the runs (the claims and anchors) holds no C run
    assert set(emulated.python_only(rs).runs.implementation.dropna()) == {"python"}
    assert emulated.paired(rs, "h2", "sctp").empty or set(emulated.paired(rs, "h2", "sctp").plt_a_s) == {2.4, 2.6}


def test_runs_table_holds_the_wire_figures_and_why_they_are_missing():
    runs = _fake_runs().runs.assign(wall_s=1.0)
    runs["objects_bytes"] = [[1000, 2000]] * len(runs)
    t = emulated.runs_table(runs)
    assert list(t.columns) == emulated.RUN_COLUMNS
    h2 = t[t.protocol == "h2"].reset_index(drop=True)
    # rep 1: protocol 2 + 0.01 = 2.01, processing 0.1 + 0.1 = 0.2 RTT; rep 2: no figures, its reason
    assert h2.protocol_rtts[1] == pytest.approx(2.01) and h2.processing_rtts[1] == pytest.approx(0.2)
    assert math.isnan(h2.protocol_rtts[2]) and h2.wire_error[2] == "no request" and h2.wire_error[:2].isna().all()


def test_paired_matches_repetitions_on_the_same_link_seed():
    p = emulated.paired(_fake_runs(), "h2", "h3")
    assert list(p.columns) == emulated.PAIRED_COLUMNS
    assert p.plt_a_s.tolist() == [3.0, 4.0, 5.0] and p.plt_b_s.tolist() == [2.0, 2.0, 2.0]
    # feeds the ledger's interval: mean of h2 - h3 = 2
    assert emulated_rows.mean_difference(p.plt_a_s, [0.0] * 3, p.plt_b_s, [0.0] * 3)[0] == 2.0
    with pytest.raises(ParameterError, match="protocol"):
        emulated.paired(_fake_runs(), "h2", "tcp")
    with pytest.raises(ParameterError, match="two protocols"):
        emulated.paired(_fake_runs(), "h2", "h2")


def test_the_summary_pairs_each_protocol_with_h2_on_the_link_seed():
    s = emulated.summary(PAPER_005, _fake_runs()).set_index("protocol")
    # h2's own row is not paired with itself
    assert s.loc["h2", "h2_pairs"] == 0 and pd.isna(s.loc["h2", "h2_gap_plt_mean_s"])
    # h3 against h2 on seeds 100, 101, 102: PLT gaps 1, 2, 3 -> mean 2, sd 1, half t(0.975, 2) / sqrt(3) = 2.484138;
    # object times 0.75 plt: h2 2.25, 3, 3.75 against h3 1.5 each -> gaps 0.75, 1.5, 2.25, mean 1.5, half 0.75 x
    # 2.484138 = 1.863104; h2's mean object time over the pairs 3
    h3 = s.loc["h3"]
    assert h3.h2_pairs == 3 and h3.h2_gap_plt_mean_s == pytest.approx(2.0)
    assert h3.h2_gap_plt_half_s == pytest.approx(2.484138, abs=1e-6)
    assert h3.h2_gap_object_mean_s == pytest.approx(1.5) and h3.h2_gap_object_half_s == pytest.approx(1.863104,
                                                                                                      abs=1e-6)
    assert h3.h2_paired_object_mean_s == pytest.approx(3.0)
    # a run without its h2 partner (h2's seed 102 replaced by 202: the run that lost its timing) drops out
    runs = _fake_runs().runs
    runs.loc[(runs.protocol == "h2") & (runs.rep == 2), "link_seed"] = 202
    h3 = emulated.summary(PAPER_005, emulated.RealStacks("reduced", runs=runs)).set_index("protocol").loc["h3"]
    # gaps 1, 2 -> mean 1.5, sd 0.707107, half t(0.975, 1) 12.706205 x 0.707107 / sqrt(2) = 6.353102
    assert h3.h2_pairs == 2 and h3.h2_gap_plt_mean_s == pytest.approx(1.5)
    assert h3.h2_gap_plt_half_s == pytest.approx(6.353102, abs=1e-6) and h3.n == 3


def test_nothing_run_gives_empty_tables_and_reasons(tmp_path):
    off = emulated.run("005", "off", tmp_path)
    assert emulated.not_run_reasons(off) == {p: emulated_rows.NOT_RUN_BY_CHOICE for p in transports.PROTOCOLS}
    empty = emulated.summary(PAPER_005, off)
    assert list(empty.columns) == emulated.SUMMARY_COLUMNS and empty.empty
    assert emulated.paired(off, "h2", "sctp").empty
    assert emulated.not_run_reasons(_fake_runs()) == {}
    with pytest.raises(ParameterError, match="real_stacks"):
        emulated.summary(PAPER_005, object())


def test_a_missing_package_is_named(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "aioquic" else real(name, *a))
    assert emulated.missing_reason("h3") == "aioquic is not installed"


def test_code_version_hashes_the_page_app_and_c_app(monkeypatch, tmp_path):
    from paperlib.emulation import apps, page_app

    before = emulated.code_version()
    c_copy = tmp_path / "webperf_app.c"
    c_copy.write_bytes(apps.APP_SOURCE.read_bytes() + b"\n")
    monkeypatch.setattr(apps, "APP_SOURCE", c_copy)
    assert emulated.code_version() != before
    monkeypatch.undo()
    py_copy = tmp_path / "page_app.py"
    py_copy.write_bytes(open(page_app.__file__, "rb").read() + b"\n")
    monkeypatch.setattr(page_app, "__file__", str(py_copy))
    assert emulated.code_version() != before


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("protocol", transports.PROTOCOLS)
def test_one_small_page_per_transport(protocol):
    why = emulated.missing_reason(protocol)
    if why:
        pytest.skip(why)
    # 50 Mbit/s, RTT 40 ms, no loss, IW 3; three objects of 20 kB (60 kB, more than 3 + 2 packets of 1.5 kB)
    p = {**emulated.points(None, "reduced")[0], "protocol": protocol, "rate_bps": 50e6, "rtt_s": 0.04,
         "loss": 0.0, "queue_packets": 200, "iw_segments": 3, "objects_bytes": [20000, 20000, 20000],
         "capture": True}
    r = on_time(lambda: emulated.run_point(p, seed=0), 0.04)  # a run the machine delivered late: up to three
    # the page cannot load faster than its handshake (h2: 2 RTT; h3, sctp: at least 1) plus one round trip and
    # 60 kB at 50 Mbit/s (9.6 ms)
    h = {"h2": 2, "h3": 1, "sctp": 1}[protocol]
    assert r["handshake_rtts"] >= h and r["plt_s"] > (h + 1) * 0.04 + 60000 * 8 / 50e6
    assert r["ttfb_s"] <= r["plt_s"] and len(r["t_done"]) == 3 and max(r["t_done"]) == pytest.approx(r["plt_s"])
    assert r["first_flight"]["iw_checked"], r["first_flight"]
    # counted on the wire (both devices' captures): the message flow's round trips without the applications'
    # processing: TCP + TLS 1.3 2, QUIC 1, usrsctp 2 (its connect returns on the COOKIE-ACK); the response
    # one round trip later
    w = r["wire"]
    assert r["wire_error"] is None and w["protocol_rtts"] == pytest.approx({"h2": 2, "h3": 1, "sctp": 2}[protocol],
                                                                             abs=0.1), w
    assert w["ttfb_protocol_rtts"] == pytest.approx(w["protocol_rtts"] + 1, abs=0.1)
    assert w["wire_rtts"] >= w["protocol_rtts"] and w["processing_s"] >= 0
    assert r["provenance"]["link"]["loss_down"] == 0.0 and r["provenance"]["seed"] == p["link_seed"]
    if protocol == "sctp":
        # what the C program reports in force: the window, RFC 4960's Max.Burst 4 (not below IW 3), the
        # default congestion control module (usrsctp's SCTP_CC_RFC2581 = 0, RFC 4960 section 7.2)
        sctp = r["provenance"]["application_settings"]["server"]["sctp"]
        assert (sctp["initial_cwnd_mtus"], sctp["max_burst"], sctp["cc_module"]) == (3, 4, 0)
        assert "usrsctp module 0" in emulated.stack_text(p, r["provenance"])
    assert math.isfinite(r["wall_s"]) and np.all(np.diff(sorted(r["t_done"])) >= 0)


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("protocol", sorted(emulated.C_IMPLEMENTATION))
def test_one_small_page_per_c_implementation(protocol):
    why = emulated.missing_reason(protocol, "c")
    if why:
        pytest.skip(why)
    # 50 Mbit/s, RTT 40 ms, no loss, three objects of 20 kB; nghttp2 at IW 3, ngtcp2 at its fixed 10
    c = next(p for p in emulated.c_points("reduced") if p["protocol"] == protocol)
    p = {**c, "rate_bps": 50e6, "rtt_s": 0.04, "queue_packets": 200, "objects_bytes": [20000, 20000, 20000]}
    r = on_time(lambda: emulated.run_point(p, seed=0), 0.04)  # a run the machine delivered late: up to three
    # counted on the wire (both devices' captures): TCP + TLS 1.3 2 round trips, QUIC 1, as for the Python stacks
    w = r["wire"]
    assert r["wire_error"] is None and w["protocol_rtts"] == pytest.approx({"h2": 2, "h3": 1}[protocol], abs=0.1), w
    assert r["plt_s"] > ({"h2": 2, "h3": 1}[protocol] + 1) * 0.04 and len(r["t_done"]) == 3
    assert r["first_flight"] is None and r["provenance"]["seed"] == p["link_seed"]
    assert emulated.C_IMPLEMENTATION[protocol] in emulated.stack_text(p, r["provenance"])


def test_stack_sentence_names_each_family():
    for proto, words in (("h2", "TLS 1.3"), ("h3", "aioquic"), ("sctp", "usrsctp")):
        p = {**emulated.points(None, "reduced")[0], "protocol": proto}
        assert words in emulated.stack_text(p) and emulated.stack_text(p).endswith(".")


def test_max_burst_option_of_the_c_program():
    from paperlib.emulation import apps

    with pytest.raises(ParameterError, match="max_burst"):
        apps.AppSettings("sctp", max_burst=-1)
    with pytest.raises(ParameterError, match="max_burst pins usrsctp"):
        apps.AppSettings("tcp", max_burst=4)
    try:
        binary = apps.build_app()
    except apps.AppBuildError as err:
        pytest.skip(str(err))
    import subprocess

    for args, message in ((["--transport", "sctp", "--max-burst", "-1"], "--max-burst"),
                          (["--transport", "tcp", "--max-burst", "4"], "need --transport sctp")):
        proc = subprocess.run([str(binary), "server", "--port", "1", *args], capture_output=True, text=True,
                              timeout=10)
        assert proc.returncode == apps.EXIT_USAGE and message in proc.stderr
    assert "--max-burst N" in subprocess.run([str(binary), "--help"], capture_output=True, text=True,
                                             timeout=10).stderr


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
def test_run_leaves_out_a_missing_protocol_and_runs_the_others(monkeypatch, tmp_path):
    from paperlib.emulation import experiments

    if emulated.missing_reason("h2") or emulated.missing_reason("sctp"):
        pytest.skip("h2 or the C application is missing")
    tiny = {**emulated.points(None, "reduced")[0], "rate_bps": 50e6, "rtt_s": 0.02, "loss": 0.0,
            "queue_packets": 100, "objects_bytes": [5000, 5000], "capture": False}
    monkeypatch.setattr(emulated, "points", lambda paper, profile: [
        {**tiny, "protocol": proto} for proto in ("h2", "h3", "sctp")])
    real = emulated.missing_reason
    monkeypatch.setattr(emulated, "missing_reason", lambda p, implementation="python": "aioquic is not installed"
                        if (p, implementation) == ("h3", "python") else real(p, implementation))
    monkeypatch.setattr(experiments, "CACHE_DIR", tmp_path / "cache")
    rs = emulated.run("005", "reduced", tmp_path, scheduler_links=1)
    assert emulated.not_run_reasons(rs) == {"h3": f"{emulated_rows.NOT_RUN_CANNOT}: aioquic is not installed"}
    # one run per protocol, kept or (on a loaded machine) lost to the fidelity rule: either way it ran
    every = rs.every_run()
    assert sorted(every.protocol) == ["h2", "sctp"] and every.fidelity_kept.notna().all()
    s = emulated.summary(PAPER_005, rs)
    assert set(s.protocol) <= {"h2", "sctp"} and (s.n == 1).all()
    written = pd.read_csv(tmp_path / "emulation_runs.csv")
    assert list(written.columns) == emulated.RUN_COLUMNS and sorted(written.protocol) == ["h2", "sctp"]
    # a second call reads the cache: the same times
    again = emulated.summary(PAPER_005, emulated.run("005", "reduced", tmp_path, scheduler_links=1))
    assert again.plt_mean_s.tolist() == s.plt_mean_s.tolist()


def test_the_captures_are_read_up_to_the_page_loaded():
    # the teardown after the page (here a packet at 2.5 s) can be in one capture alone: it is not read
    packets = [(1.0, b"a"), (2.0, b"b"), (2.5, b"fin")]
    assert emulated.until(packets, 2.0) == [(1.0, b"a"), (2.0, b"b")]
    assert emulated.until([], 2.0) == []
