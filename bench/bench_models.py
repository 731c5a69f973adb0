"""Time the vectorised models against a plain Python loop and against their compiled floors (prints ratios).

Run with `make bench`. Timings are machine-dependent; the ratio is the point.
Each model is timed on the same grid both ways, and the two results are
checked equal before any time is printed. :func:`bench_floors` times every
vectorised model on 10^6 points against its floor (bench/model_floors.py),
the goal of issue 15 being at most 3x; the two closed forms with a compiled path
(paperlib.models.compiled) are timed on their NumPy paths too, for information.
"""

from __future__ import annotations

import math
import time

import numpy as np

from paperlib.models import compiled
from paperlib.models.slow_start_latency import sctp_latency_s


def loop_sctp_latency_s(obj, mtu, rate, rtt, x):
    """Paper 004 Eq. (5), corrected form, one point, plain Python (the loop baseline)."""
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


def _side(points: int, other: int) -> int:
    """Return the number of values along each of two grid axes, so that the grid holds about ``points`` points when
    the other axes hold ``other`` (at least 2)."""
    return max(2, round(math.sqrt(points / other)))


def bench_004(points=10**6):
    """Paper 004's Eq. (5) on a grid of about ``points`` points: vectorised against a plain Python loop."""
    side = _side(points, 40 * 10)  # 10^6 points: 50 rates x 50 RTTs
    obj = np.geomspace(1e3, 1e7, 40) * 8
    rate = np.geomspace(1e4, 1e9, side)
    rtt = np.linspace(0.001, 1.0, side)
    x = np.arange(1, 11)
    O, R, T, X = np.meshgrid(obj, rate, rtt, x, indexing="ij")
    mtu = 1500 * 8
    n = O.size
    t_vec, vec = best_of(lambda: sctp_latency_s(O, mtu, R, T, X))
    flat = list(zip(O.ravel().tolist(), R.ravel().tolist(), T.ravel().tolist(), X.ravel().astype(int).tolist(),
                    strict=True))
    t_loop, loop = best_of(lambda: [loop_sctp_latency_s(o, mtu, r, t, xx) for o, r, t, xx in flat], repeats=1)
    err = float(np.max(np.abs(vec.ravel() - np.array(loop)) / vec.ravel()))
    assert err < 1e-9, f"vectorised and loop results differ (max rel {err:g})"
    print(f"004 slow-start latency (Eq. 5), {n:,} grid points (object size x rate x RTT x initial window)")
    print(f"  sctp_latency_s   : {t_vec:8.3f} s  ({n / t_vec / 1e6:6.1f} M points/s)")
    print(f"  plain Python loop: {t_loop:8.3f} s  ({n / t_loop / 1e6:6.2f} M points/s)")
    print(f"  ratio loop/model: {t_loop / t_vec:.1f}x")


#: Issue 15's goal: every vectorised model within this factor of its compiled floor.
FLOOR_GOAL = 3.0


def _numpy_only(model):
    """Return ``model`` run with the compiled path switched off (:func:`paperlib.models.compiled.numpy_only`)."""
    def run():
        with compiled.numpy_only():
            return model()
    return run


def _floor_line(label, model, floor, err, goal=True):
    ratio = model["cpu"] / floor["cpu"]
    verdict = ("within" if ratio <= FLOOR_GOAL else "ABOVE") + f" the {FLOOR_GOAL:g}x goal" if goal else "no goal"
    print(f"  {label:<52s} model {model['cpu'] * 1e3:7.1f} ms  floor {floor['cpu'] * 1e3:6.1f} ms  "
          f"ratio {ratio:5.2f}x ({verdict})  "
          f"[wall {model['wall'] * 1e3:.1f} / {floor['wall'] * 1e3:.1f} ms = {model['wall'] / floor['wall']:.2f}x; "
          f"max rel. diff {err:.1e}]")
    return ratio


def _best_interleaved(model, floor, repeats):
    """Return the best CPU and wall times of ``model`` and ``floor``, timed alternately ``repeats`` times each.

    CPU time of this thread (``time.thread_time``): the time the formula costs, without the time other jobs
    on a shared machine take the core away (a 20 ms model is preempted far more often than a 3 ms floor,
    which inflates its wall time but not its CPU time).
    """
    best = {"model": {"cpu": math.inf, "wall": math.inf}, "floor": {"cpu": math.inf, "wall": math.inf}}
    for _ in range(repeats):
        for name, fn in (("floor", floor), ("model", model)):
            w0, c0 = time.perf_counter(), time.thread_time()
            fn()
            c1, w1 = time.thread_time(), time.perf_counter()
            best[name]["cpu"] = min(best[name]["cpu"], c1 - c0)
            best[name]["wall"] = min(best[name]["wall"], w1 - w0)
    return best["model"], best["floor"]


def _rel_diff(model, floor):
    model = np.asarray(model, dtype=float)
    return float(np.max(np.abs(model - floor) / np.maximum(np.abs(model), np.finfo(float).tiny)))


def bench_floors(n=10**6, repeats=15):
    """Issue 15: each vectorised model on 10^6 random points against its floor, one compiled pass.

    For every model the floor's result is checked equal to the model's (relative 1e-12) before
    any time is printed; both are timed alternately, best of ``repeats`` (5 for the two loops over
    losses, which take a second each), in this one run. The ratio is of CPU times (see
    :func:`_best_interleaved`); wall times are printed beside it.
    """
    import os

    from model_floors import (
        http_response_time_floor,
        multiuser_waiting_floor,
        narrowband_response_floor,
        slow_start_latency_floor,
    )

    from paperlib.models import http_response_time, multiuser_waiting, narrowband_response

    rng = np.random.default_rng(0)
    cases = []
    # 004 Eq. (5): object size x rate x RTT x initial window, mtu 1500 B (an array, as the floor gets it)
    obj = rng.uniform(1e3, 1e7, n) * 8
    mtu = np.full(n, 1500 * 8.0)
    rate = rng.uniform(1e4, 1e9, n)
    rtt = rng.uniform(1e-3, 1.0, n)
    x = rng.integers(1, 11, n).astype(float)
    cases.append(("004 slow-start latency, Eq. (5)", lambda: sctp_latency_s(obj, mtu, rate, rtt, x),
                  lambda: slow_start_latency_floor(obj, mtu, rate, rtt, x), lambda out: out, repeats))
    # 002 algorithm + Table I at 13.5 KB objects, MSS 536 B: rate x RTT x p (a = ceil(N p) up to 3 losses)
    o2, mss = np.full(n, 13_500 * 8.0), np.full(n, 536 * 8.0)
    rate2 = rng.uniform(20e3, 10e6, n)
    rtt2 = rng.uniform(0.02, 1.0, n)
    p2 = rng.uniform(0.0, 0.1, n)
    points = {"obj_bits": o2, "mss_bits": mss, "rate_bps": rate2, "rtt_s": rtt2, "p": p2}
    cases.append(("002 response time, algorithm + Table I", lambda: http_response_time.response_times_grid(points),
                  lambda: http_response_time_floor(o2, mss, rate2, rtt2, p2)[2],
                  lambda out: out["tcp_s"].to_numpy(), min(5, repeats)))
    # 000 Eq. (2): the same points, initial window 1 (TCP) or 2 (SCTP)
    w = rng.integers(1, 3, n).astype(float)
    cases.append(("000 response time E(T), Eq. (2)",
                  lambda: narrowband_response.response_time_s(o2, mss, rate2, rtt2, p2, w),
                  lambda: narrowband_response_floor(o2, mss, rate2, rtt2, p2, w), lambda out: out, min(5, repeats)))
    # 000 Eq. (4): users x packets x packet time
    m = rng.integers(1, 41, n).astype(float)
    pk = rng.integers(1, 41, n).astype(float)
    tau = rng.uniform(0.01, 1.0, n)
    cases.append(("000 mean waiting time, Eq. (4)", lambda: multiuser_waiting.mean_waiting_time_same(m, pk, tau),
                  lambda: multiuser_waiting_floor(m, pk, tau), lambda out: out, repeats))
    # the NumPy path of the two closed forms with a compiled path: what a machine without gcc gets (for information)
    for label, model, floor, column, times in list(cases):
        if label.startswith(("004", "000 mean")):
            cases.append((f"{label}, NumPy path", _numpy_only(model), floor, column, times))

    checked = []
    for label, model, floor, column, times in cases:
        err = _rel_diff(column(model()), floor())  # also compiles the floor, before any timing
        assert err < 1e-12, f"{label}: model and compiled floor differ (max rel {err:g})"
        checked.append((label, model, floor, times, err))
    print(f"Models against their floors (the same formula in C, gcc -O3 -march=native -ffast-math, one pass), "
          f"{n:,} random points, CPU time, best of {repeats} (loops: {min(5, repeats)}); "
          f"load average {os.getloadavg()[0]:.2f}:")
    print(f"  004 Eq. (5) and 000 Eq. (4) take their {compiled.status()}; "
          "their NumPy paths (the same bits, for a machine without gcc) are timed too, for information")
    ratios = {}
    for label, model, floor, times, err in checked:
        t_model, t_floor = _best_interleaved(model, floor, times)
        ratios[label] = _floor_line(label, t_model, t_floor, err, goal="NumPy path" not in label)
    print(f"  load average after: {os.getloadavg()[0]:.2f}")
    print("  003: no vectorised formula evaluated on grids (specweb96 samples a workload, atm_overhead counts cells"
          " for a few MSS values): no floor")
    return ratios


def bench_002(points=20_000):
    """Paper 002's algorithm is a short loop per point: time the grid evaluator against a loop of single calls
    (about ``points`` points)."""
    from paperlib.models import http_response_time

    side = _side(points, 50)  # 20,000 points: 20 RTTs x 20 rates
    p = np.linspace(0.0, 0.1, 50)
    rtt = np.linspace(0.02, 1.0, side)
    rate = np.geomspace(20e3, 10e6, side)
    P, T, R = np.meshgrid(p, rtt, rate, indexing="ij")
    obj, mss = 13_500 * 8, 536 * 8
    n = P.size
    points = {"obj_bits": obj, "mss_bits": mss, "rate_bps": R.ravel(), "rtt_s": T.ravel(), "p": P.ravel()}
    t_grid, grid = best_of(lambda: http_response_time.response_times_grid(points), repeats=1)
    flat = list(zip(R.ravel().tolist(), T.ravel().tolist(), P.ravel().tolist(), strict=True))
    t_loop, loop = best_of(lambda: [http_response_time.response_time_tcp_s(obj, mss, r, t, pp) for r, t, pp in flat],
                           repeats=1)
    err = float(np.max(np.abs(grid["tcp_s"].to_numpy() - np.array(loop))))
    assert err < 1e-9, f"grid and per-call results differ by {err:g} s"
    print(f"002 response time (Table I + algorithm), {n:,} points (p x RTT x rate)")
    print(f"  response_times_grid      : {t_grid:8.3f} s  ({n / t_grid / 1e3:7.1f} k points/s)")
    print(f"  loop of response_time_tcp: {t_loop:8.3f} s  ({n / t_loop / 1e3:7.1f} k points/s)")
    print(f"  ratio loop/grid: {t_loop / t_grid:.1f}x")


def bench_000(points=1600):
    """Paper 000's closed forms (Eqs. 4 and 7) against the brute-force round-robin schedule they replace, on about
    ``points`` (m, n) points."""
    from paperlib.models import multiuser_waiting

    side = _side(points, 1)  # 1,600 points: m and n from 1 to 40
    m = np.arange(1, side + 1)
    n = np.arange(1, side + 1)
    M, N = np.meshgrid(m, n, indexing="ij")
    t_vec, vec = best_of(lambda: multiuser_waiting.mean_waiting_time_same(M, N, 0.15))
    pairs = list(zip(M.ravel().tolist(), N.ravel().tolist(), strict=True))
    t_sched, sched = best_of(
        lambda: [multiuser_waiting.round_robin_schedule([mm], [0.15], nn)["waiting_time"].mean() for mm,
                 nn in pairs], repeats=1
    )
    err = float(np.max(np.abs(vec.ravel() - np.array(sched))))
    assert err < 1e-9, f"Eq. (4) and the schedule differ by {err:g}"
    print(f"000 mean waiting time (Eq. 4), {M.size:,} (m, n) points")
    print(f"  vectorised Eq. (4)       : {t_vec * 1e3:8.3f} ms")
    print(f"  brute-force schedules    : {t_sched:8.3f} s")
    print(f"  ratio schedule/closed form: {t_sched / t_vec:.0f}x")


def main() -> None:
    """Run the benches at the sizes the command line gives (default: the sizes whose times docs/performance.md
    discusses)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=10**6,
                        help="points of 004's grid and of each floor comparison; 002's and 000's grids are "
                             "scaled by the same factor (default 10^6: 20,000 and 1,600 points)")
    parser.add_argument("--repeats", type=int, default=15, help="timed runs per floor comparison (loops: at most 5)")
    args = parser.parse_args()
    scale = args.points / 10**6
    bench_004(args.points)
    bench_002(max(1, round(20_000 * scale)))
    bench_000(max(1, round(1600 * scale)))
    bench_floors(args.points, args.repeats)


if __name__ == "__main__":
    main()
