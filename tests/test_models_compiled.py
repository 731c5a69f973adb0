"""The compiled path of paper 004's Eq. (5) and paper 000's Eq. (4) against their NumPy paths, bit for bit
(paperlib.models.compiled, paperlib/models/closed_forms.c). Needs gcc, which make venv already requires.

The NumPy path of each model is its source of truth; the compiled path exists for speed and must agree with it."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies

from paperlib.emulation import build
from paperlib.models import compiled, multiuser_waiting, slow_start_latency
from paperlib.validate import ParameterError

S = 1500 * 8  # a 1500-byte segment, bits


def both_paths(fn, *args, **kwargs):
    """Return ``fn`` on the compiled path and on the NumPy path."""
    assert compiled.library() is not None, compiled.status()
    fast = fn(*args, **kwargs)
    with compiled.numpy_only():
        slow = fn(*args, **kwargs)
    return fast, slow


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a.view(np.int64), b.view(np.int64))


# --- the same bits --------------------------------------------------------------------------------------------


@settings(max_examples=60)
@given(strategies.integers(1, 1500), strategies.integers(0, 2**32 - 1),
       strategies.sampled_from(["all", "mtu", "setup", "x"]))
def test_eq_5_both_paths_give_the_same_bits(size, seed, single):
    # random grids around every regime (no stall, some stalls, stalls until the end), one operand a single
    # value or all arrays; lengths around the kernel's chunk of 512 points exercise its seams
    rng = np.random.default_rng(seed)
    obj = rng.uniform(1e3, 1e8, size) * 8
    mtu = rng.choice([536.0, 1460.0, 1500.0, 9000.0], size) * 8
    rate = 10.0 ** rng.uniform(3, 11, size)
    rtt = rng.choice([0.0, 1e-3, 0.1, 2.0], size) * rng.uniform(0.5, 1.5, size)
    x = rng.integers(1, 17, size).astype(float)
    setup = np.full(size, 2.0)
    args = {"obj": obj, "mtu": mtu, "rate": rate, "rtt": rtt, "x": x, "setup": setup}
    if single != "all":
        args[single] = args[single][:1]
    fast, slow = both_paths(slow_start_latency.transfer_latency_s, args["obj"], args["mtu"], args["rate"], args["rtt"],
                            args["x"], setup_rtts=args["setup"])
    assert same_bits(fast, slow)


def test_eq_5_edges_give_the_same_bits():
    # infinite rate with and without a round trip, zero round trip, a huge window (beta < 0), objects whose
    # L_obj/(x L_mtu) + 1 is a power of two exactly and one ulp either side (the tolerance of Eq. (1)),
    # a rate whose mu T_r overflows (beta = inf)
    n = np.array([1.0, 2.0, 3.0, 7.0, 15.0, 31.0])
    obj = np.concatenate([n * S, np.nextafter(n * S, np.inf), np.nextafter(n * S, 0)])
    grid = np.meshgrid(obj, [1e3, 28e3, 1e6, 1e12, 1e300, np.inf], [0.0, 0.1, 1e10], [1.0, 2.0, 4.0, 1e12],
                       indexing="ij")
    with np.errstate(over="ignore"):
        fast, slow = both_paths(slow_start_latency.sctp_latency_s, grid[0], S, grid[1], grid[2], grid[3])
    assert same_bits(fast, slow)
    finite = np.isfinite(fast)
    assert finite[grid[1] < 1e300].all()  # every sensible point is a number


def test_eq_5_single_point_and_shape():
    # one point: a NumPy scalar, as before; Table II's 28 kbps row (tests/test_models_slow_start_latency.py)
    fast, slow = both_paths(slow_start_latency.sctp_latency_s, 400_000, S, 28e3, 0.2, 4)
    assert np.ndim(fast) == 0 and same_bits(fast, slow) and fast == pytest.approx(14.685714285714, abs=1e-9)
    fast, slow = both_paths(slow_start_latency.sctp_latency_s, np.full((2, 3), 4e5), S, np.array([28e3, 1e6, 1e8]),
                            0.2, 4)
    assert fast.shape == (2, 3) and same_bits(fast, slow)


def _points(sizes, rates, times, windows, setups):
    """Return a strategy of 1 to 40 points of Eq. (5)'s operands (obj, mtu, rate, rtt, x, setup), as arrays."""
    point = strategies.tuples(sizes, sizes, rates, times, windows, setups)
    return strategies.lists(point, min_size=1, max_size=40).map(
        lambda pts: [np.array(col, dtype=float) for col in zip(*pts, strict=True)])


@settings(max_examples=150, deadline=None)
@given(_points(strategies.integers(1, 10**9), strategies.integers(1, 10**12), strategies.integers(0, 100),
               strategies.integers(1, 2**20), strategies.integers(0, 8)))
def test_eq_5_paths_agree_exactly_on_whole_numbers(operands):
    # whole-number sizes (bits), rates (bit/s), round trips (s), windows and set-up round trips, drawn by
    # hypothesis: the compiled path equals the NumPy path (the source of truth) exactly
    obj, mtu, rate, rtt, x, setup = operands
    fast, slow = both_paths(slow_start_latency.transfer_latency_s, obj, mtu, rate, rtt, x, setup_rtts=setup)
    assert same_bits(fast, slow)


@settings(max_examples=150, deadline=None)
@given(_points(strategies.floats(1.0, 1e12), strategies.one_of(strategies.floats(1.0, 1e12), strategies.just(np.inf)),
               strategies.floats(0.0, 100.0), strategies.integers(1, 2**20), strategies.floats(0.0, 8.0)))
def test_eq_5_paths_agree_to_rounding_on_floats(operands):
    # any finite sizes, rates (or an infinite rate), round trips and set-up round trips, whole windows: the
    # compiled path equals the NumPy path to rounding (a relative 4 x 2^-52), and is infinite or NaN where it is
    obj, mtu, rate, rtt, x, setup = operands
    fast, slow = both_paths(slow_start_latency.transfer_latency_s, obj, mtu, rate, rtt, x, setup_rtts=setup)
    np.testing.assert_allclose(fast, slow, rtol=4 * np.finfo(float).eps, atol=0)


@settings(max_examples=60)
@given(strategies.integers(1, 1500), strategies.integers(0, 2**32 - 1))
def test_eq_4_both_paths_give_the_same_bits(size, seed):
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 10**6, size).astype(float)
    n = rng.integers(1, 10**6, size).astype(float)
    tau = 10.0 ** rng.uniform(-6, 3, size)
    assert same_bits(*both_paths(multiuser_waiting.mean_waiting_time_same, m, n, tau))
    assert same_bits(*both_paths(multiuser_waiting.mean_waiting_time_same, m, 3, 0.15))  # single values for n and tau


# --- bad points: the same error on both paths -------------------------------------------------------------------


@pytest.mark.parametrize("name, bad", [("obj_bits", 0.0), ("mtu_bits", np.inf), ("rate_bps", -1.0),
                                       ("rtt_s", np.nan), ("initial_window", 2.5), ("setup_rtts", -1.0)])
@pytest.mark.parametrize("where", [0, 511, 512, 999])
def test_eq_5_a_bad_point_anywhere_is_named_on_both_paths(name, bad, where):
    args = {"obj_bits": np.full(1000, 4e5), "mtu_bits": np.full(1000, float(S)), "rate_bps": np.full(1000, 1e6),
            "rtt_s": np.full(1000, 0.2), "initial_window": np.full(1000, 2.0), "setup_rtts": np.full(1000, 2.0)}
    args[name][where] = bad
    messages = []
    for numpy_only in (False, True):
        with compiled.numpy_only() if numpy_only else np.errstate():
            with pytest.raises(ParameterError, match=f"^{name} ") as err:
                slow_start_latency.transfer_latency_s(**args)
        messages.append(str(err.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("args, name", [((2.5, 3, 0.1), "m"), ((2, np.inf, 0.1), "n"), ((2, 3, 0.0), "tau"),
                                        ((0, 3, 0.1), "m"), ((2, 3, np.nan), "tau")])
def test_eq_4_a_bad_point_is_named_on_both_paths(args, name):
    arrays = [np.full(700, 1.0) for _ in range(3)]
    for k, value in enumerate(args):
        arrays[k][600] = value
    messages = []
    for context in (np.errstate(), compiled.numpy_only()):
        with context, pytest.raises(ParameterError, match=f"^{name} ") as err:
            multiuser_waiting.mean_waiting_time_same(*arrays)
        messages.append(str(err.value))
    assert messages[0] == messages[1]


# --- building and falling back ----------------------------------------------------------------------------------


@pytest.fixture
def fresh_build(tmp_path, monkeypatch):
    """An empty kernel cache in tmp_path and no library loaded yet (restored afterwards)."""
    monkeypatch.setattr(compiled, "CACHE", tmp_path / "kernels")
    compiled._load.cache_clear()
    yield tmp_path / "kernels"
    compiled._load.cache_clear()


def test_built_once_per_source_flags_and_cpu(fresh_build, monkeypatch):
    assert compiled.library() is not None and compiled.status().startswith("compiled path")
    built = compiled.target()
    assert built.parent == fresh_build and built.exists()
    before = built.stat().st_mtime_ns
    compiled._load.cache_clear()
    assert compiled.library() is not None and built.stat().st_mtime_ns == before  # loaded, not rebuilt
    monkeypatch.setattr(compiled, "_cpu", lambda: "flags : another CPU")
    assert compiled.target() != built  # another instruction set: another shared object


def test_without_a_compiler_the_numpy_path_gives_the_same_results(fresh_build, monkeypatch):
    # compiled, into the empty cache
    expected = slow_start_latency.sctp_latency_s(np.array([4e5, 14 * S]), S, 1e6, 0.1, 2)
    compiled.target().unlink()
    compiled._load.cache_clear()
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    assert compiled.library() is None
    assert compiled.status() == "NumPy path (the compiled path could not be built: no C compiler to build " \
                                "closed_forms.c: install gcc (Debian: apt-get install gcc))"
    assert same_bits(slow_start_latency.sctp_latency_s(np.array([4e5, 14 * S]), S, 1e6, 0.1, 2), expected)
    with pytest.raises(ParameterError, match="^rate_bps"):
        slow_start_latency.sctp_latency_s(4e5, S, 0.0, 0.1, 2)


def test_numpy_only_is_undone_on_leaving():
    with compiled.numpy_only():
        assert compiled.library() is None and compiled.status().startswith("NumPy path (compiled path switched off")
    assert compiled.library() is not None
