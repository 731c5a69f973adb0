"""Time the vectorised models on a parameter grid against a plain Python loop (prints ratios).

Run with `make bench`. Timings are machine-dependent; the ratio is the point.
Each model is timed on the same grid both ways, and the two results are
checked equal before any time is printed.
"""

from __future__ import annotations

import math
import time

import numpy as np

from paperlib.models.slow_start_latency import sctp_latency_s


def loop_sctp_latency_s(obj, mtu, rate, rtt, x):
    """Seed 004 Eq. (5), corrected form, one point, plain Python (the loop baseline)."""
    alpha = math.ceil(math.log2(obj / (x * mtu) + 1) - 1e-9)
    beta = max(math.floor(math.log2((1 + rate * rtt / mtu) / x) + 1e-9) + 1, 0)
    gamma = max(min(alpha - 1, beta), 0)
    seg = mtu / rate
    return 2 * rtt + obj / rate + gamma * (rtt + seg) - x * (2**gamma - 1) * seg


def best_of(fn, repeats=3):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def bench_004():
    obj = np.geomspace(1e3, 1e7, 40) * 8
    rate = np.geomspace(1e4, 1e9, 50)
    rtt = np.linspace(0.001, 1.0, 50)
    x = np.arange(1, 11)
    O, R, T, X = np.meshgrid(obj, rate, rtt, x, indexing="ij")
    mtu = 1500 * 8
    n = O.size
    t_vec, vec = best_of(lambda: sctp_latency_s(O, mtu, R, T, X))
    flat = list(zip(O.ravel().tolist(), R.ravel().tolist(), T.ravel().tolist(), X.ravel().astype(int).tolist()))
    t_loop, loop = best_of(lambda: [loop_sctp_latency_s(o, mtu, r, t, xx) for o, r, t, xx in flat], repeats=1)
    err = float(np.max(np.abs(vec.ravel() - np.array(loop)) / vec.ravel()))
    assert err < 1e-9, f"vectorised and loop results differ (max rel {err:g})"
    print(f"004 slow-start latency (Eq. 5), {n:,} grid points (object size x rate x RTT x initial window)")
    print(f"  vectorised numpy : {t_vec:8.3f} s  ({n / t_vec / 1e6:6.1f} M points/s)")
    print(f"  plain Python loop: {t_loop:8.3f} s  ({n / t_loop / 1e6:6.2f} M points/s)")
    print(f"  ratio loop/vectorised: {t_loop / t_vec:.1f}x")


if __name__ == "__main__":
    bench_004()
