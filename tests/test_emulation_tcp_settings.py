"""Kernel TCP settings pinned per paper (paperlib.emulation.tcp_settings)."""

import pytest

from paperlib.emulation import tcp_settings
from paperlib.validate import ParameterError


def test_kernel_and_sctp_initial_windows_agree():
    apps = pytest.importorskip("paperlib.emulation.apps")
    assert sorted(tcp_settings.INITIAL_WINDOW) == ["000", "002", "004"]  # the papers with a stack part
    for paper, x in tcp_settings.INITIAL_WINDOW.items():
        assert apps.paper_settings(paper, "sctp").init_cwnd_mtus == x == tcp_settings.for_paper(paper).initcwnd


def test_a_paper_without_stack_settings_is_refused_naming_those_with():
    with pytest.raises(ParameterError, match=r"paper '003' declares no stack settings.*\['000', '002', '004'\]"):
        tcp_settings.for_paper("003")
    with pytest.raises(ParameterError, match="paper must be a paper id"):
        tcp_settings.for_paper("4")
    with pytest.raises(KeyError):
        tcp_settings.INITIAL_WINDOW["003"]


def test_each_paper_gets_its_segment_size_and_initial_window():
    # paper 004: L_mtu = 1500 B -> MSS 1460 B, x = 2; papers 000/002: mtu/MSS = 536 B, x = 2 and 1
    got = {p: (s.mss_bytes, s.mtu_bytes, s.initcwnd) for p, s in
           ((p, tcp_settings.for_paper(p)) for p in ("004", "000", "002"))}
    assert got == {"004": (1460, 1500, 2), "000": (536, 576, 2), "002": (536, 576, 1)}
    assert all(tcp_settings.for_paper(p).congestion_control == "reno" for p in got)


def test_sysctls_and_route_options_say_what_the_models_assume():
    s = tcp_settings.TcpSettings(initcwnd=1, mss_bytes=536, rto_min_ms=256)
    sysctls = s.sysctls()
    assert {k: sysctls[k] for k in ("net.ipv4.tcp_congestion_control", "net.ipv4.tcp_sack", "net.ipv4.tcp_timestamps",
                                    "net.ipv4.tcp_slow_start_after_idle", "net.ipv4.tcp_recovery")} == {
        "net.ipv4.tcp_congestion_control": "reno", "net.ipv4.tcp_sack": "0", "net.ipv4.tcp_timestamps": "0",
        "net.ipv4.tcp_slow_start_after_idle": "0", "net.ipv4.tcp_recovery": "0"}
    assert tcp_settings.TcpSettings(sack=True).sysctls()["net.ipv4.tcp_sack"] == "1"
    assert s.route_options() == ["initcwnd", "1", "initrwnd", "64", "advmss", "536", "rto_min", "256ms",
                                 "quickack", "1"]
    prov = s.provenance()
    assert prov["route"] == " ".join(s.route_options()) and prov["mtu_bytes"] == 576 and prov["sysctls"] == sysctls


@pytest.mark.parametrize("kwargs, name", [
    ({"initcwnd": True}, "initcwnd"),  # a boolean is not a window
    ({"initcwnd": 101}, "initcwnd"),
    ({"mss_bytes": 87}, "mss_bytes"),
    ({"mss_bytes": 1460.0}, "mss_bytes"),  # whole numbers only, as ints
    ({"rto_min_ms": 0}, "rto_min_ms"),
])
def test_settings_outside_their_range_are_named(kwargs, name):
    with pytest.raises(ParameterError, match=f"^{name} must be a whole number in"):
        tcp_settings.TcpSettings(**kwargs)
    edge = {"initcwnd": 100, "mss_bytes": 88, "rto_min_ms": 60000}
    assert tcp_settings.TcpSettings(**edge).mss_bytes == 88  # the limits themselves are accepted
