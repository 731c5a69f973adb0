"""The C implementations beside paper 005's Python stacks (paperlib.emulation.c_stacks): command lines, the
clients' outputs read from canned text written as nghttp and the ngtcp2 example client print it, and one small
page load per implementation on a testbed (skipped, with the reason, without root, TUN, namespaces or the Debian
packages)."""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperlib.emulation import c_stacks, netns
from paperlib.emulation.netns import Link, Testbed
from paperlib.emulation.tcp_settings import TcpSettings
from paperlib.validate import ParameterError

REASON = netns.unavailable_reason()
needs_testbed = pytest.mark.skipif(REASON is not None, reason=f"emulated testbed unavailable: {REASON}")


def needs(implementation):
    why = c_stacks.missing_reason(implementation)
    return pytest.mark.skipif(why is not None, reason=f"{implementation}: {why}")


# --- programs and command lines ---------------------------------------------------------------------------

def test_missing_reason_names_the_debian_packages(monkeypatch):
    monkeypatch.setattr(c_stacks, "program_path", lambda name: None)
    why = c_stacks.missing_reason("ngtcp2")
    assert "ngtcp2-server, ngtcp2-client" in why and "apt-get install ngtcp2-server ngtcp2-client" in why
    monkeypatch.setattr(c_stacks, "program_path", lambda name: None if name == "nghttp" else f"/usr/bin/{name}")
    assert c_stacks.missing_reason("nghttp2") == ("the Debian package nghttp2-client of nghttp2 is not installed "
                                                  "(apt-get install nghttp2-client)")
    monkeypatch.setattr(c_stacks, "program_path", lambda name: f"/usr/bin/{name}")
    assert c_stacks.missing_reason("nghttp2") is None
    with pytest.raises(ParameterError, match="implementation"):
        c_stacks.missing_reason("quiche")


def test_ngtcp2_initial_window_is_ten_datagrams():
    # ngtcp2_cc_compute_initcwnd(1472) = min(10 x 1472, max(2 x 1472, 14720)) = min(14720, 14720) = 14720 B,
    # which is 14720 / 1472 = 10 datagrams
    assert c_stacks.NGTCP2_INITIAL_WINDOW == 10


def test_server_command_lines_bind_the_server_address_only(tmp_path):
    nghttpd = c_stacks.nghttpd_argv("nghttpd", tmp_path, tmp_path / "c.pem", tmp_path / "k.pem", 150)
    assert f"--address={netns.SERVER_IP}" in nghttpd and "--no-rfc7540-pri" in nghttpd
    # 150 objects: more than nghttpd's default 100 concurrent streams, so 150
    assert "--max-concurrent-streams=150" in nghttpd
    # nghttpd <PORT> <PRIVATE_KEY> <CERT>, in that order, last
    assert nghttpd[-3:] == [str(c_stacks.PORT), str(tmp_path / "k.pem"), str(tmp_path / "c.pem")]
    gtls = c_stacks.gtlsserver_argv("gtlsserver", tmp_path, tmp_path / "c.pem", tmp_path / "k.pem", 5, 30.2)
    # server <ADDR> <PORT> <PRIVATE_KEY_FILE> <CERTIFICATE_FILE>; 5 objects: the default 100 streams stand
    assert gtls[-4:] == [netns.SERVER_IP, str(c_stacks.PORT), str(tmp_path / "k.pem"), str(tmp_path / "c.pem")]
    assert {"--cc=reno", "--max-udp-payload-size=1472", "--no-pmtud", "--quiet", "--max-streams-bidi=100",
            "--timeout=31s"} <= set(gtls)


def test_client_command_lines_ask_for_every_object_in_order(tmp_path):
    nghttp = c_stacks.nghttp_argv("nghttp", tmp_path / "h.har", 3, 12.5)
    assert nghttp[-3:] == [f"https://{netns.SERVER_IP}:{c_stacks.PORT}/obj{i}" for i in range(3)]
    # windows of 2^30 - 1 bytes; RFC 9218 priorities without RFC 7540's dependency tree; the timeout rounded up
    assert {"--window-bits=30", "--connection-window-bits=30", "--no-rfc7540-pri", "--no-dep", "--null-out",
            f"--har={tmp_path / 'h.har'}", "--timeout=13", "--peer-max-concurrent-streams=100"} <= set(nghttp)
    gtls = c_stacks.gtlsclient_argv("gtlsclient", tmp_path, 2, 40)
    assert gtls[-4:] == [netns.SERVER_IP, str(c_stacks.PORT), f"https://{netns.SERVER_IP}:{c_stacks.PORT}/obj0",
                         f"https://{netns.SERVER_IP}:{c_stacks.PORT}/obj1"]
    # its debug log is its timing: no --quiet, and no hex dumps
    assert "--quiet" not in gtls and {"--no-quic-dump", "--no-http-dump", "--exit-on-all-streams-close",
                                      f"--max-data={2**30}", f"--max-stream-data-bidi-local={2**30}"} <= set(gtls)


def test_write_page_writes_one_file_per_object(tmp_path):
    docs = c_stacks.write_page(tmp_path, [3, 1, 7])
    assert [(p.name, p.stat().st_size) for p in sorted(docs.iterdir())] == [("obj0", 3), ("obj1", 1), ("obj2", 7)]
    # a name of digits alone would be generated content of that length to ngtcp2's server
    assert not any(p.name.isdigit() for p in docs.iterdir())


@pytest.mark.parametrize("bad", [[], [0], [1.5], [True], "123", [c_stacks.page_app.MAX_PAGE_BYTES, 1]])
def test_bad_page_is_named(bad):
    with pytest.raises(ParameterError, match="objects_bytes"):
        c_stacks.check_objects(bad)


def test_initial_window_checks_come_before_any_run():
    # a Testbed object is only built here, never entered: nothing is created
    tb = Testbed(Link(rate_bps=10e6, delay_s=0.025), seed=1, tcp=TcpSettings(initcwnd=3))
    with pytest.raises(ParameterError, match="iw_segments must be 10 for ngtcp2"):
        c_stacks.run_ngtcp2(tb, [100], iw_segments=3, bound_s=10, tmp=Path("."))
    with pytest.raises(ParameterError, match="must equal the Testbed's TCP initcwnd"):
        c_stacks.run_nghttp2(tb, [100], iw_segments=10, bound_s=10, tmp=Path("."))
    with pytest.raises(ParameterError, match="bound_s"):
        c_stacks.run_nghttp2(tb, [100], iw_segments=3, bound_s=0, tmp=Path("."))
    with pytest.raises(ParameterError, match="tb must be"):
        c_stacks.run_nghttp2(object(), [100], iw_segments=3, bound_s=5, tmp=Path("."))


# --- nghttp's HAR -----------------------------------------------------------------------------------------

def _entry(path, started, time_ms, wait_ms, receive_ms, dns_ms=0.0, connect_ms=0.0, status=200, size=1000,
           stream=1):
    """One HAR entry as nghttp 1.52 writes it (its output_har), with the fields it always has."""
    return {"startedDateTime": started, "time": time_ms, "comment": "",
            "request": {"headers": [{"name": ":method", "value": "GET"}, {"name": ":path", "value": f"/{path}"}],
                        "method": "GET", "url": f"https://10.77.0.2:8443/{path}", "httpVersion": "HTTP/2.0",
                        "cookies": [], "queryString": [], "headersSize": -1, "bodySize": -1},
            "response": {"headers": [{"name": ":status", "value": str(status)}], "status": status, "statusText": "",
                         "httpVersion": "HTTP/2.0", "cookies": [], "content": {"size": size, "mimeType": ""},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"dns": dns_ms, "connect": connect_ms, "blocked": 0.0, "send": 0.0,
                                     "wait": wait_ms, "receive": receive_ms},
            "pageref": "page_0", "connection": str(stream)}


def _har(*entries):
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "nghttp", "version": "1.52.0"},
                               "pages": [{"startedDateTime": "2026-11-26T21:57:25.469Z", "id": "page_0", "title": "",
                                          "pageTimings": {}}],
                               "entries": list(entries)}}, indent=2)


HAR = _har(
    _entry("obj0", "2026-11-26T21:57:25.469Z", 268.498, 107.929, 0.05, dns_ms=0.079, connect_ms=160.347, size=5000),
    _entry("obj1", "2026-11-26T21:57:25.629Z", 121.12, 107.95, 13.17, size=20000, stream=3),
    _entry("obj2", "2026-11-26T21:57:25.631Z", 150.0, 108.0, 42.0, size=100000, stream=5),
)


def test_har_gives_connection_and_object_times():
    conn, objects = c_stacks.parse_har(HAR, 3)
    # connection start = dns = 0.079 ms; handshake done = dns + connect = 0.079 + 160.347 = 160.426 ms
    assert conn["t_connect_start"] == pytest.approx(0.000079)
    assert conn["t_handshake_done"] == pytest.approx(0.160426)
    # request 0 = time0 - wait0 - receive0 = 268.498 - 107.929 - 0.05 = 160.519 ms
    assert conn["t_first_request"] == pytest.approx(0.160519)
    # wall clock: 21:57:25.469 (entry 0's start) + 0.160519 s
    start = 1795730245.469  # 2026-11-26T21:57:25.469Z in seconds since 1970
    assert conn["realtime_first_request"] == pytest.approx(start + 0.160519, abs=1e-6)
    o0, o1, o2 = objects
    # object 0: first byte = 160.519 + 107.929 = 268.448 ms, done = time0 = 268.498 ms
    assert (o0["t_request"], o0["t_first_byte"], o0["t_done"]) == pytest.approx((0.160519, 0.268448, 0.268498))
    # object 1 started at .629 - .469 = 160 ms by the whole-ms wall clock, before request 0's 160.519 ms, which it
    # cannot precede: 160.519 ms; first byte 160.519 + 107.95 = 268.469 ms; done 160.519 + 121.12 = 281.639 ms
    assert (o1["t_request"], o1["t_first_byte"], o1["t_done"]) == pytest.approx((0.160519, 0.268469, 0.281639))
    # object 2: .631 - .469 = 162 ms; first byte 162 + 108 = 270 ms; done 162 + 150 = 312 ms
    assert (o2["t_request"], o2["t_first_byte"], o2["t_done"]) == pytest.approx((0.162, 0.270, 0.312))
    assert [o["bytes"] for o in objects] == [5000, 20000, 100000]
    assert [o["stream"] for o in objects] == [1, 3, 5]  # the HAR's "connection": the request's stream ID


def test_har_entries_are_matched_by_path_not_position():
    swapped = json.loads(HAR)
    log = swapped["log"]
    log["entries"][1]["request"]["url"], log["entries"][2]["request"]["url"] = (
        log["entries"][2]["request"]["url"], log["entries"][1]["request"]["url"])
    _, objects = c_stacks.parse_har(json.dumps(swapped), 3)
    # obj2 is now entry 1 (time 121.12 ms from request 0's 160.519 ms): done 281.639 ms
    assert objects[2]["t_done"] == pytest.approx(0.281639) and objects[2]["bytes"] == 20000


@pytest.mark.parametrize("har, message", [
    (_har(_entry("obj0", "2026-11-26T21:57:25.469Z", 1.0, 0.5, 0.1)), "holds 1 completed responses, expected 3"),
    (_har(_entry("obj0", "2026-11-26T21:57:25.469Z", 1.0, 0.5, 0.1, status=404)), "status 404"),
    (_har(_entry("index.html", "2026-11-26T21:57:25.469Z", 1.0, 0.5, 0.1)), "not one of obj0"),
    (_har(_entry("obj0", "yesterday", 1.0, 0.5, 0.1)), "not an ISO 8601 time"),
    ("{not json", "could not be read"),
])
def test_bad_har_is_named(har, message):
    n = 3 if "completed" in message else 1
    with pytest.raises(c_stacks.CStackError, match=message):
        c_stacks.parse_har(har, n)


# --- the ngtcp2 client's log ----------------------------------------------------------------------------

CID = "0x7b2a2f1701e3890a33848d05f1ed34867e"
#: Written as gtlsclient 0.12.1 prints its log: the handshake, two requests (streams 0 and 4) and their responses.
#: Stream 0's bytes 1431-2862 are lost once and arrive at 168 ms, after its FIN frame (111 ms) and after a
#: duplicate of its first frame (112 ms); stream 4's second half comes before its first.
CLIENT_LOG = "\n".join(f"I{ms:08d} {CID} {rest}" if isinstance(ms, int) else ms for ms, rest in [
    (0, "pkt tx pkn=0 dcid=0x31f5 scid=0x7b2a version=0x00000001 type=Initial len=0"),
    (0, "frm tx 0 Initial CRYPTO(0x06) offset=0 len=379"),
    (0, "frm tx 0 Initial PADDING(0x00) len=1025"),
    ("Sent packet: local=[10.77.0.1]:48525 remote=[10.77.0.2]:8443 ecn=0x2 1472 bytes", None),
    (53, "frm rx 0 Initial CRYPTO(0x06) offset=0 len=90"),
    (53, "frm rx 0 Handshake CRYPTO(0x06) offset=0 len=626"),
    ("QUIC handshake has completed", None),
    ("http: stream 0x0 submit request headers", None),
    ("[:path: /obj0]", None),
    (54, "frm tx 1 Initial ACK(0x02) largest_ack=0 ack_delay=0(0) ack_range_count=0"),
    (54, "frm tx 0 Handshake ACK(0x03) largest_ack=0 ack_delay=0(0) ack_range_count=0"),
    (55, "frm tx 1 Handshake CRYPTO(0x06) offset=0 len=36"),
    (55, "frm tx 0 1RTT STREAM(0x0a) id=0x2 fin=0 offset=0 len=18 uni=1"),
    (55, "frm tx 0 1RTT STREAM(0x0b) id=0x0 fin=1 offset=0 len=14 uni=0"),
    (56, "frm tx 1 1RTT STREAM(0x0b) id=0x4 fin=1 offset=0 len=14 uni=0"),
    (110, "frm rx 1 1RTT STREAM(0x0a) id=0x3 fin=0 offset=0 len=18 uni=1"),
    (110, "frm rx 1 1RTT STREAM(0x0a) id=0x0 fin=0 offset=0 len=1431 uni=0"),
    (111, "frm rx 2 1RTT STREAM(0x0f) id=0x0 fin=1 offset=2862 len=100 uni=0"),
    (112, "frm rx 3 1RTT STREAM(0x0a) id=0x0 fin=0 offset=0 len=1431 uni=0"),
    (113, "frm rx 4 1RTT STREAM(0x0f) id=0x4 fin=1 offset=500 len=500 uni=0"),
    (115, "frm rx 5 1RTT STREAM(0x0a) id=0x4 fin=0 offset=0 len=500 uni=0"),
    ("http: stream 0x4 body 900 bytes", None),
    (168, "frm rx 6 1RTT STREAM(0x0e) id=0x0 fin=0 offset=1431 len=1431 uni=0"),
    (169, "frm tx 7 1RTT ACK(0x02) largest_ack=6 ack_delay=0(0) ack_range_count=0"),
]) + "\n"


def test_client_log_gives_connection_and_object_times():
    conn, objects = c_stacks.parse_client_log(CLIENT_LOG, [2900, 950])
    # the connection starts at the log's 0 ms; the client's Finished (Handshake CRYPTO sent) at 55 ms, not the
    # Handshake ACK at 54 ms nor the server's Handshake CRYPTO received at 53 ms
    assert conn == {"t_connect_start": 0.0, "t_handshake_done": 0.055, "t_first_request": 0.055,
                    "realtime_first_request": None}
    o0, o1 = objects
    # stream 0: request 55 ms; byte 0 at 110 ms; [0, 1431) + [2862, 2962) leave a gap until 168 ms; the duplicate at
    # 112 ms does not fill it
    assert (o0["object"], o0["stream"], o0["t_request"], o0["t_first_byte"], o0["t_done"]) == (0, 0, 0.055, 0.110,
                                                                                                0.168)
    # stream 4: request 56 ms; [500, 1000) with FIN at 113 ms, byte 0 at 115 ms, which completes it
    assert (o1["object"], o1["stream"], o1["t_request"], o1["t_first_byte"], o1["t_done"]) == (1, 4, 0.056, 0.115,
                                                                                                0.115)
    assert [o["bytes"] for o in objects] == [2900, 950]  # the saved files' sizes, as given


def test_client_log_without_a_response_names_the_object():
    without_4 = "\n".join(line for line in CLIENT_LOG.splitlines() if "id=0x4 " not in line or "frm tx" in line)
    with pytest.raises(c_stacks.CStackError, match="no first byte for object 1 \\(stream 4\\)"):
        c_stacks.parse_client_log(without_4, [2900, 950])
    unfinished = "\n".join(line for line in CLIENT_LOG.splitlines() if "offset=1431" not in line)
    with pytest.raises(c_stacks.CStackError, match="no done for object 0"):
        c_stacks.parse_client_log(unfinished, [2900, 950])
    no_finished = "\n".join(line for line in CLIENT_LOG.splitlines() if "Handshake CRYPTO(0x06) offset=0 len=36"
                            not in line)
    with pytest.raises(c_stacks.CStackError, match="Handshake CRYPTO"):
        c_stacks.parse_client_log(no_finished, [2900, 950])


@given(st.lists(st.integers(1, 50), min_size=1, max_size=20), st.randoms(use_true_random=False), st.data())
def test_ranges_cover_exactly_when_no_piece_is_missing(lengths, rnd, data):
    # the pieces of [0, sum) in any order cover it; without any one piece they do not
    edges = [sum(lengths[:i]) for i in range(len(lengths) + 1)]
    pieces = [(edges[i], edges[i + 1]) for i in range(len(lengths))]
    rnd.shuffle(pieces)
    assert c_stacks._covered(pieces, edges[-1])
    drop = data.draw(st.integers(0, len(pieces) - 1))
    assert not c_stacks._covered(pieces[:drop] + pieces[drop + 1:], edges[-1])


# --- one small page load per implementation on a testbed ------------------------------------------------------

#: The small page: 4 objects, 86 000 bytes in all.
SMALL_PAGE = [1000, 5000, 20000, 60000]
RTT_S = 0.05


def _small_load(implementation):
    link = Link(rate_bps=10e6, delay_s=RTT_S / 2, queue_packets=42, mtu_bytes=1500)
    tcp = TcpSettings(congestion_control="reno", initcwnd=10, mss_bytes=1460, sack=True, timestamps=True,
                      quickack=False)
    run = c_stacks.run_nghttp2 if implementation == "nghttp2" else c_stacks.run_ngtcp2
    with tempfile.TemporaryDirectory(prefix="c-stacks-") as tmp, Testbed(link, seed=3, tcp=tcp) as tb:
        return run(tb, SMALL_PAGE, iw_segments=10, bound_s=60, tmp=Path(tmp))


@needs_testbed
@pytest.mark.exclusive  # real stacks timed on the wall clock: alone under pytest -n
@pytest.mark.parametrize("implementation", [
    pytest.param("nghttp2", marks=needs("nghttp2")), pytest.param("ngtcp2", marks=needs("ngtcp2"))])
def test_small_page_load(implementation):
    conn, objects, settings = _small_load(implementation)
    assert [o["object"] for o in objects] == [0, 1, 2, 3]
    assert [o["bytes"] for o in objects] == SMALL_PAGE
    assert conn["t_connect_start"] <= conn["t_handshake_done"] <= conn["t_first_request"]
    for o in objects:
        assert conn["t_first_request"] <= o["t_request"] <= o["t_first_byte"] <= o["t_done"]
    t0 = conn["t_connect_start"]
    # lower bounds the link sets, whatever the machine's load: HTTP/2 needs TCP's and TLS 1.3's round trips before
    # its first request (2 RTT), HTTP/3 QUIC's one; a response comes a round trip after its request; and 86 000
    # bytes take at least 86 000 x 8 / 10e6 = 68.8 ms at 10 Mbit/s. Less 1 ms: the clients' times are rounded to
    # whole ms (the ngtcp2 client's log, the nghttp HAR's later requests).
    handshake_rtts = {"nghttp2": 2, "ngtcp2": 1}[implementation]
    assert conn["t_first_request"] - t0 >= handshake_rtts * RTT_S - 1e-3
    assert min(o["t_first_byte"] for o in objects) - conn["t_first_request"] >= RTT_S - 1e-3
    assert max(o["t_done"] for o in objects) - conn["t_first_request"] >= RTT_S + 0.0688 - 1e-3
    assert settings["implementation"] == implementation and all(settings["versions"].values())
    if implementation == "nghttp2":  # the namespace's TCP is the Testbed's
        assert settings["tcp"]["server"] == {"net.ipv4.tcp_congestion_control": "reno"}
