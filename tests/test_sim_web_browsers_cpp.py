"""The C++ side of paper 001's testbed (paperlib.sim.web_browsers_cpp): defined once per process, the
workload tables it is handed, its reset. What it does in a run is tested through
tests/test_sim_web_testbed.py; these need the ns-3 import (shared with the other ns-3 tests)."""

import numpy as np
import pytest

pytestmark = pytest.mark.ns3


@pytest.fixture(scope="module")
def cpp():
    from paperlib.sim import ns3_env, web_browsers_cpp

    ns = ns3_env.load()
    first = web_browsers_cpp.load(ns)
    second = web_browsers_cpp.load(ns)  # a second cppdef of the same code would fail to compile
    assert second.Reset is not None and hasattr(ns.cppyy.gbl, "webperf_web")
    yield first
    first.Reset()


def test_key_packs_address_and_port(cpp):
    # 10.0.1.2 = 0x0A000102 = 10 x 2^24 + 1 x 2^8 + 2 = 167 772 418; shifted by 16 bits:
    # 167 772 418 x 65 536 = 167 772 160 x 65 536 + 258 x 65 536 = 10 995 116 277 760 + 16 908 288
    # = 10 995 133 186 048; the port in the low 16 bits: + 49 153 = 10 995 133 235 201
    assert cpp.Key(0x0A000102, 49153) == 10_995_133_235_201
    assert cpp.Key(0x0A000102, 49153) != cpp.Key(0x0A000102, 49154) != cpp.Key(0x0A000103, 49153)


def test_tables_are_loaded_as_given_and_reset_empties_them(cpp):
    cpp.Reset()
    req = np.array([300, 310, 320], dtype=np.uint32)
    reply = np.array([7000, 120, 65000], dtype=np.uint32)
    cpp.LoadObjects(req, reply, 3)
    cpp.LoadPages(np.array([0, 2], dtype=np.uint32), np.array([2, 1], dtype=np.uint32),
                  np.array([1.5, 30.0]), 2)
    # browsers with no pages schedule nothing ("an idle browser costs nothing")
    cpp.LoadBrowsers(np.array([0, 0], dtype=np.int32), np.array([0, 0], dtype=np.uint32),
                     np.array([0, 0], dtype=np.uint32), np.array([0.0, 1.0]), 2)
    assert [(o.req, o.reply) for o in cpp.objs] == [(300, 7000), (310, 120), (320, 65000)]
    assert [(p.first, p.n, p.think) for p in cpp.pages] == [(0, 2, 1.5), (2, 1, 30.0)]
    assert len(cpp.browsers) == 2 and cpp.browsers[1].n_pages == 0
    cpp.Reset()
    assert (len(cpp.objs), len(cpp.pages), len(cpp.browsers), cpp.failed, cpp.rx_bytes) == (0, 0, 0, 0, 0)
