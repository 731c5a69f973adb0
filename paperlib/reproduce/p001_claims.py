"""Seed 001's observations, checked against the simulated testbed: one verdict per stated claim.

The paper reads its CDFs by eye ("almost the same", "apparently longer", "90% of response
time is less than around 500 ms"). To check them every claim is turned into a comparison of
numbers, with one convention for all of them:

* a configuration's **response time** is the 90th percentile of its response times (the
  paper's own reading of its CDFs, "90% of response time is less than ..."), pooled over the
  seeded repetitions; the spread of the repetitions' own 90th percentiles is reported beside it;
* two or more response times are **almost the same** when the largest exceeds the smallest by
  at most :data:`SAME_TOL` (10 %); one is **longer / less** than another when it differs by
  more than that, in that direction; the queue-size effect at a load is the **spread**
  max / min - 1 over the queue sizes;
* a number stated as **around** N is met when the measurement is within :data:`AROUND_TOL`
  (20 %) of N; "less than around N" when it is below N (1 + AROUND_TOL);
* **queue occupancy** is the mean of the sampled backlog after the warm-up (Figs. 4, 5, 8).

Fig. 8's panels are taken as 8-A = RED-A and 8-B = RED-C with short latency, 8-C = RED-A and
8-D = RED-C with long latency (the caption names RED-A and RED-C, short and long RTT, queue
240, 98 % load; the text pairs A with B and C with D).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

SAME_TOL = 0.10
AROUND_TOL = 0.20
HIGH = 0.98  # the paper's "high traffic intensity" / "highly congested" load


@dataclass(frozen=True)
class Verdict:
    claim: str
    status: str  # supported / refuted / untestable
    regenerated: float | None  # the number the verdict rests on (in the claim's unit), if one
    reason: str
    margin: float = float("nan")  # > 0 where the claim holds, < 0 where it fails (its distance from the threshold)


def summarise(sweep: pd.DataFrame) -> pd.DataFrame:
    """Return one row per (config, load, latency): response-time percentiles, queue and drops.

    Response times in ms, pooled over repetitions; ``p90_rep_min`` / ``p90_rep_max`` are the
    smallest and largest 90th percentile of a single repetition.
    """
    rows = []
    for (config, load, latency), g in sweep.groupby(["config", "load", "latency"], sort=False):
        rt = np.concatenate([np.asarray(x, dtype=float) for x in g["response_s"]]) * 1e3
        per_rep = [np.percentile(np.asarray(x, dtype=float) * 1e3, 90) for x in g["response_s"] if len(x)]
        queue = np.concatenate([np.asarray(q)[np.asarray(t) >= w] for q, t, w in
                                zip(g["queue_samples"], g["queue_sample_times_s"], g["warmup_s"])])
        rows.append({
            "config": config, "load": load, "latency": latency, "reps": len(g), "requests": len(rt),
            "mean_ms": rt.mean(), "p50_ms": np.percentile(rt, 50), "p90_ms": np.percentile(rt, 90),
            "p99_ms": np.percentile(rt, 99), "p90_rep_min": min(per_rep), "p90_rep_max": max(per_rep),
            "mean_queue": queue.mean(), "drop_rate": g["drops"].sum() / max(g["arrivals"].sum(), 1),
            "early_drops": int(g["early_drops"].sum()), "utilisation": (g["throughput_bps"] / g["bottleneck_bps"]).mean(),
            "unfinished": int(g["unfinished"].sum()), "failed": int(g["failed"].sum()),
        })
    return pd.DataFrame(rows)


class Results:
    """Lookups into the summary table by configuration, load and latency set."""

    def __init__(self, summary: pd.DataFrame):
        self.s = summary.set_index(["config", "load", "latency"]).sort_index()
        self.touched: set = set()  # the (config, load, latency) whose p90 was read since the last reset

    def get(self, config: str, load: float, latency: str, column: str = "p90_ms") -> float:
        if column == "p90_ms":
            self.touched.add((config, load, latency))
        return float(self.s.loc[(config, load, latency), column])

    def rep_note(self) -> str:
        """Say how far single repetitions' p90 stray from each other in the configurations read, then reset."""
        keys, self.touched = sorted(self.touched), set()
        if not keys or "p90_rep_min" not in self.s:
            return ""
        rows = self.s.loc[keys]
        worst = (rows["p90_rep_max"] / rows["p90_rep_min"] - 1).max()
        return f" [largest spread of single repetitions' p90 in these {len(keys)} configurations: {worst:.0%}]"


def spread(values) -> float:
    """Return max / min - 1 of positive numbers."""
    values = np.asarray(values, dtype=float)
    return float(values.max() / values.min() - 1)


def _fmt(values: dict, unit: str = "ms") -> str:
    return ", ".join(f"{k} {v:.0f} {unit}" if unit else f"{k} {v:.1f}" for k, v in values.items())


def _same(claim: str, groups: dict[str, dict], what: str) -> Verdict:
    """All groups' values are almost the same (spread <= SAME_TOL)."""
    spreads = {name: spread(list(vals.values())) for name, vals in groups.items()}
    ok = all(s <= SAME_TOL for s in spreads.values())
    detail = "; ".join(f"{name}: {_fmt(vals)} (spread {spreads[name]:.0%})" for name, vals in groups.items())
    return Verdict(claim, "supported" if ok else "refuted", max(spreads.values()),
                   f"{what}; p90 {detail}; almost the same means spread <= {SAME_TOL:.0%}",
                   SAME_TOL - max(spreads.values()))


def _increasing(claim: str, series: dict[str, dict], what: str, unit: str = "ms") -> Verdict:
    """Every series increases strictly in its order."""
    bad = [name for name, vals in series.items() if not np.all(np.diff(list(vals.values())) > 0)]
    detail = "; ".join(f"{name}: {_fmt(vals, unit)}" for name, vals in series.items())
    status = "supported" if not bad else "refuted"
    tail = f" (not increasing: {', '.join(bad)})" if bad else ""
    steps = [np.min(np.diff(v) / np.abs(v[:-1])) for v in (np.asarray(list(x.values()), float) for x in series.values())]
    return Verdict(claim, status, None, f"{what}: {detail}{tail}", float(min(steps)))


def _around(claim: str, value: float, target: float, what: str, upper_bound: bool = False) -> Verdict:
    if upper_bound:
        ok = value <= target * (1 + AROUND_TOL)
        rule = f"'less than around {target:g}' met when <= {target * (1 + AROUND_TOL):g}"
        margin = target * (1 + AROUND_TOL) / value - 1
    else:
        ok = abs(value / target - 1) <= AROUND_TOL
        rule = f"'around {target:g}' met within {AROUND_TOL:.0%}"
        margin = AROUND_TOL - abs(value / target - 1)
    return Verdict(claim, "supported" if ok else "refuted", value, f"{what} = {value:.0f}; {rule}", margin)


def _less(claim: str, a: tuple[str, float], b: tuple[str, float], what: str) -> Verdict:
    """a is less than b by more than SAME_TOL."""
    ok = a[1] * (1 + SAME_TOL) < b[1]
    return Verdict(claim, "supported" if ok else "refuted", a[1] / b[1] - 1,
                   f"{what}: p90 {a[0]} {a[1]:.0f} ms vs {b[0]} {b[1]:.0f} ms ({a[1] / b[1] - 1:+.0%}; "
                   f"'less' needs < -{SAME_TOL:.0%} relative to the other)", b[1] / (a[1] * (1 + SAME_TOL)) - 1)


def verdicts(summary: pd.DataFrame, loads: list[float], fifo: list[str], red480: list[str], red240: list[str],
             fig9: tuple[str, str], claim_numbers: dict[str, float]) -> list[Verdict]:
    """Return a verdict for every claim of ``data/001/claims.csv`` (ids as there).

    ``fifo``: FIFO configurations by queue size; ``red480`` / ``red240``: RED-A/B/C at the two
    queue sizes; ``fig9``: (FIFO, RED-A) at Fig. 9's queue size; ``claim_numbers``: the numbers
    the claims print (by claim id).
    """
    r = Results(summary)
    lo, mid, hi = loads
    p90 = r.get

    v: list[Verdict] = []

    margins: dict[str, float] = {}  # margins of the verdicts built inline (the helpers compute their own)

    def add(verdict: Verdict) -> None:  # every verdict also says how noisy the numbers behind it are
        margin = margins.get(verdict.claim, verdict.margin)
        v.append(Verdict(verdict.claim, verdict.status, verdict.regenerated, verdict.reason + r.rep_note(), float(margin)))

    def by(configs, load, latency, column="p90_ms"):
        return {c: p90(c, load, latency, column) for c in configs}

    def qspread(configs, load, latency):
        return spread(list(by(configs, load, latency).values()))

    add(_same("fifo_queue_size_same", {f"{lat}, {lo:.0%}": by(fifo, lo, lat) for lat in ("short", "long")},
                   f"FIFO queue sizes at {lo:.0%}"))
    add(_increasing("fifo_intensity_increases",
                         {f"{c} {lat}": {f"{x:.0%}": p90(c, x, lat) for x in loads} for c in fifo for lat in ("short", "long")},
                         "FIFO p90 at 80/90/98%"))
    load_effect = np.mean([spread([p90(c, x, lat) for x in loads]) for c in fifo for lat in ("short", "long")])
    queue_effect = np.mean([qspread(fifo, x, lat) for x in loads for lat in ("short", "long")])
    margins["fifo_intensity_more_than_queue"] = load_effect - queue_effect
    add(Verdict("fifo_intensity_more_than_queue", "supported" if load_effect > queue_effect else "refuted",
                     load_effect / queue_effect if queue_effect else None,
                     f"mean spread of FIFO p90 over the loads {load_effect:.0%} vs over the queue sizes {queue_effect:.0%}"))
    add(_around("fifo_80_short_500", np.mean(list(by(fifo, lo, "short").values())),
                     claim_numbers["fifo_80_short_500"], f"FIFO {lo:.0%} short: p90 (mean over queue sizes, ms)", True))
    add(_around("fifo_80_long_1200", np.mean(list(by(fifo, lo, "long").values())),
                     claim_numbers["fifo_80_long_1200"], f"FIFO {lo:.0%} long: p90 (mean over queue sizes, ms)", True))
    add(_increasing("fifo_98_longer_larger_queue", {lat: by(fifo, hi, lat) for lat in ("short", "long")},
                         f"FIFO p90 at {hi:.0%} by queue size"))
    s = {(x, lat): qspread(fifo, x, lat) for x in loads for lat in ("short", "long")}
    ok = all(s[(x, lat)] > s[(lo, lat)] for x in (mid, hi) for lat in ("short", "long"))
    margins["fifo_diff_90_98"] = min(s[(x, lat)] - s[(lo, lat)] for x in (mid, hi) for lat in ("short", "long"))
    add(Verdict("fifo_diff_90_98", "supported" if ok else "refuted", None,
                     "spread of FIFO p90 over queue sizes: " + ", ".join(f"{x:.0%} {lat} {s[(x, lat)]:.0%}" for x, lat in s)))
    ok = all(s[(x, "short")] > s[(x, "long")] for x in (mid, hi))
    margins["fifo_diff_short_latency"] = min(s[(x, "short")] - s[(x, "long")] for x in (mid, hi))
    add(Verdict("fifo_diff_short_latency", "supported" if ok else "refuted", None,
                     "spread over queue sizes, short vs long: " +
                     ", ".join(f"{x:.0%} {s[(x, 'short')]:.0%} vs {s[(x, 'long')]:.0%}" for x in (mid, hi))))
    add(_increasing("occupancy_intensity",
                         {f"{c} {lat}": {f"{x:.0%}": p90(c, x, lat, "mean_queue") for x in loads}
                          for c in fifo for lat in ("short", "long")}, "FIFO mean queue (packets) by load", ""))
    add(_increasing("occupancy_longer_queue",
                         {f"{x:.0%} {lat}": by(fifo, x, lat, "mean_queue") for x in loads for lat in ("short", "long")},
                         "FIFO mean queue (packets) by queue size", ""))
    short_q, long_q = by(fifo, mid, "short", "mean_queue"), by(fifo, mid, "long", "mean_queue")
    ok = all(long_q[c] < short_q[c] for c in fifo)
    margins["occupancy_long_latency_fewer"] = min(short_q[c] - long_q[c] for c in fifo)
    add(Verdict("occupancy_long_latency_fewer", "supported" if ok else "refuted", None,
                     f"FIFO mean queue at {mid:.0%}, long vs short: " +
                     ", ".join(f"{c} {long_q[c]:.1f} vs {short_q[c]:.1f}" for c in fifo)))
    d_short = {x: np.mean(list(by(fifo, x, "short", "drop_rate").values())) for x in (mid, hi)}
    d_long = {x: np.mean(list(by(fifo, x, "long", "drop_rate").values())) for x in (mid, hi)}
    ok = all(d_short[x] > d_long[x] and s[(x, "short")] > s[(x, "long")] for x in (mid, hi))
    margins["drops_short_latency"] = min(min(d_short[x] - d_long[x], s[(x, "short")] - s[(x, "long")]) for x in (mid, hi))
    add(Verdict("drops_short_latency", "supported" if ok else "refuted", None,
                     "FIFO drop rate short vs long: " + ", ".join(f"{x:.0%} {d_short[x]:.2%} vs {d_long[x]:.2%}" for x in (mid, hi))
                     + "; queue-size spread short vs long: " + ", ".join(f"{x:.0%} {s[(x, 'short')]:.0%} vs {s[(x, 'long')]:.0%}" for x in (mid, hi))))
    add(_around("red_80_short_500", np.mean(list(by(red480, lo, "short").values())),
                     claim_numbers["red_80_short_500"], f"RED (qlen 480) {lo:.0%} short: p90 (mean of A/B/C, ms)", True))
    add(_around("red_80_long_1200", np.mean(list(by(red480, lo, "long").values())),
                     claim_numbers["red_80_long_1200"], f"RED (qlen 480) {lo:.0%} long: p90 (mean of A/B/C, ms)", True))
    add(_around("red_98_short_700", np.mean(list(by(red480, hi, "short").values())),
                     claim_numbers["red_98_short_700"], f"RED (qlen 480) {hi:.0%} short: p90 (mean of A/B/C, ms)"))
    add(_around("red_98_long_1500", np.mean(list(by(red480, hi, "long").values())),
                     claim_numbers["red_98_long_1500"], f"RED (qlen 480) {hi:.0%} long: p90 (mean of A/B/C, ms)"))
    add(_increasing("red_intensity_increases",
                         {f"{c} {lat}": {f"{x:.0%}": p90(c, x, lat) for x in loads} for c in red480 for lat in ("short", "long")},
                         "RED (qlen 480) p90 by load"))
    add(_same("red_params_same", {f"{x:.0%} {lat}": by(red480, x, lat) for x in loads for lat in ("short", "long")},
                   "RED-A/B/C, qlen 480, every load and latency"))
    add(_same("red_480_same", {f"{hi:.0%} {lat}": by(red480, hi, lat) for lat in ("short", "long")},
                   f"RED-A/B/C, qlen 480, {hi:.0%} (Fig. 7)"))
    a, b, c = (p90(n, hi, "short") for n in red240)
    la, lb, lc = (p90(n, hi, "long") for n in red240)
    longer_short = c > max(a, b) * (1 + SAME_TOL)
    longer_long = lc > max(la, lb) * (1 + SAME_TOL)
    margins["red_240_c_longer_short"] = min(c / (max(a, b) * (1 + SAME_TOL)) - 1, 1 - lc / (max(la, lb) * (1 + SAME_TOL)))
    add(Verdict("red_240_c_longer_short", "supported" if longer_short and not longer_long else "refuted",
                     c / max(a, b) - 1,
                     f"qlen 240, {hi:.0%}: short A/B/C {a:.0f}/{b:.0f}/{c:.0f} ms, long {la:.0f}/{lb:.0f}/{lc:.0f} ms; "
                     f"needs C > max(A, B) by > {SAME_TOL:.0%} in short and not in long"))
    ss, sl = spread([a, b, c]), spread([la, lb, lc])
    margins["red_240_short_differ_long_same"] = min(ss - SAME_TOL, SAME_TOL - sl)
    add(Verdict("red_240_short_differ_long_same", "supported" if ss > SAME_TOL >= sl else "refuted", ss,
                     f"qlen 240, {hi:.0%}: spread of A/B/C short {ss:.0%}, long {sl:.0%} (differ > {SAME_TOL:.0%} >= same)"))
    qa, qb = p90(red240[0], hi, "short", "mean_queue"), p90(red240[2], hi, "short", "mean_queue")
    qc, qd = p90(red240[0], hi, "long", "mean_queue"), p90(red240[2], hi, "long", "mean_queue")
    n150 = claim_numbers["fig8b_above_150"]
    margins["fig8b_above_150"] = qb / (n150 * (1 + SAME_TOL)) - 1
    add(Verdict("fig8b_above_150", "supported" if qb > n150 * (1 + SAME_TOL) else "refuted", qb,
                     f"mean queue RED-C, qlen 240, {hi:.0%}, short (8-B) = {qb:.1f} packets; 'much higher' needs > {n150 * (1 + SAME_TOL):g}"))
    margins["fig8a_below_150"] = min(qa / (n150 * (1 - AROUND_TOL)) - 1, 1 - qa / claim_numbers["fig8a_below_150"])
    add(Verdict("fig8a_below_150", "supported" if n150 * (1 - AROUND_TOL) <= qa < claim_numbers["fig8a_below_150"] else "refuted",
                     qa, f"mean queue RED-A, qlen 240, {hi:.0%}, short (8-A) = {qa:.1f}; 'a little less' needs "
                     f"[{n150 * (1 - AROUND_TOL):g}, {n150:g})"))
    margins["fig8_ab_response_differ"] = spread([a, c]) - SAME_TOL
    add(Verdict("fig8_ab_response_differ", "supported" if spread([a, c]) > SAME_TOL else "refuted", spread([a, c]),
                     f"p90 RED-A vs RED-C, qlen 240, {hi:.0%}, short: {a:.0f} vs {c:.0f} ms"))
    add(_around("fig8d_around_150", qd, claim_numbers["fig8d_around_150"], f"mean queue RED-C, qlen 240, {hi:.0%}, long (8-D)"))
    add(_around("fig8c_around_100", qc, claim_numbers["fig8c_around_100"], f"mean queue RED-A, qlen 240, {hi:.0%}, long (8-C)"))
    dl, ds = spread([la, lc]), spread([a, c])
    margins["fig8_cd_response_similar"] = ds - dl
    add(Verdict("fig8_cd_response_similar", "supported" if dl < ds else "refuted", dl,
                     f"RED-A vs RED-C p90 difference, long {dl:.0%} vs short {ds:.0%}"))
    f, ra = fig9
    add(_same("fifo_red_80_short_same", {f"{lo:.0%} short": by([f, ra], lo, "short")}, f"{f} vs {ra}"))
    margins["fifo_red_98_long_differ"] = spread(list(by([f, ra], hi, "long").values())) - SAME_TOL
    add(Verdict("fifo_red_98_long_differ", "supported" if spread(list(by([f, ra], hi, "long").values())) > SAME_TOL
                     else "refuted", spread(list(by([f, ra], hi, "long").values())),
                     f"{f} vs {ra} at {hi:.0%} long: {_fmt(by([f, ra], hi, 'long'))} (apparently different: spread > {SAME_TOL:.0%})"))
    add(_same("fifo_red_small_queue_same", {f"{hi:.0%} short": by([f, ra], hi, "short")}, f"{f} vs {ra}"))
    add(_less("red_better_long_latency", (ra, p90(ra, hi, "long")), (f, p90(f, hi, "long")), f"{hi:.0%}, long latency"))
    best = {lat: min(by(red240, hi, lat), key=by(red240, hi, lat).get) for lat in ("short", "long")}
    ok = all(b == red240[0] for b in best.values())
    a_lead = {lat: min(x for n, x in by(red240, hi, lat).items() if n != red240[0]) / p90(red240[0], hi, lat) - 1 for lat in ("short", "long")}
    margins["red_a_better_small_queue"] = min(a_lead.values())
    add(Verdict("red_a_better_small_queue", "supported" if ok else "refuted", None,
                     f"qlen 240, {hi:.0%}: lowest p90 short {best['short']} ({_fmt(by(red240, hi, 'short'))}); "
                     f"long {best['long']} ({_fmt(by(red240, hi, 'long'))})"))
    vs_fifo = p90(ra, hi, "long") * (1 + SAME_TOL) < p90(f, hi, "long")
    ok = vs_fifo and best["long"] == red240[0]
    margins["red_a_beneficial"] = min(p90(f, hi, "long") / (p90(ra, hi, "long") * (1 + SAME_TOL)) - 1, a_lead["long"])
    add(Verdict("red_a_beneficial", "supported" if ok else "refuted", None,
                     f"{hi:.0%}, long: {ra} vs {f} p90 {p90(ra, hi, 'long'):.0f} vs {p90(f, hi, 'long'):.0f} ms; "
                     f"qlen 240 best {best['long']}"))
    pairs = [(cfg, x) for cfg in r.s.index.get_level_values("config").unique() for x in loads]
    worse = [(cfg, x) for cfg, x in pairs if not p90(cfg, x, "long") > p90(cfg, x, "short")]
    ratio = np.mean([p90(cfg, x, "long") / p90(cfg, x, "short") for cfg, x in pairs])
    margins["long_latency_larger"] = min(p90(cfg, x, "long") / p90(cfg, x, "short") - 1 for cfg, x in pairs)
    add(Verdict("long_latency_larger", "supported" if not worse else "refuted", ratio,
                     f"p90 long / short over all {len(pairs)} configuration-loads: mean {ratio:.2f}"
                     + (f"; not larger: {worse}" if worse else "")))
    highs = (mid, hi)
    wins = {x: p90(ra, x, "long") * (1 + SAME_TOL) < p90(f, x, "long") for x in highs}
    margins["red_beneficial_conclusion"] = min(p90(f, x, "long") / (p90(ra, x, "long") * (1 + SAME_TOL)) - 1 for x in highs)
    add(Verdict("red_beneficial_conclusion", "supported" if all(wins.values()) else "refuted", None,
                     f"{ra} vs {f}, long latency: " + ", ".join(
                         f"{x:.0%} {p90(ra, x, 'long'):.0f} vs {p90(f, x, 'long'):.0f} ms" for x in highs)
                     + f" (RED 'less' needs < -{SAME_TOL:.0%})"))
    return v


def scale_comparison(scaled: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Return, per configuration run at both scales, how far apart the response-time distributions are.

    ``scaled`` and ``full`` hold the same configurations in the same order (one run each).
    Columns: the two-sample Kolmogorov-Smirnov distance ``ks`` (the largest vertical gap
    between the CDFs), medians and 90th percentiles (ms) at both scales and their relative
    differences (full / scaled - 1), mean queues (packets) and drop rates.
    """
    from scipy.stats import ks_2samp

    if list(scaled["config"]) != list(full["config"]) or list(scaled["load"]) != list(full["load"]):
        raise ValueError("scaled and full must hold the same configurations in the same order")
    rows = []
    for (_, a), (_, b) in zip(scaled.iterrows(), full.iterrows()):
        x, y = np.asarray(a["response_s"], dtype=float) * 1e3, np.asarray(b["response_s"], dtype=float) * 1e3
        qa = np.asarray(a["queue_samples"])[np.asarray(a["queue_sample_times_s"]) >= a["warmup_s"]]
        qb = np.asarray(b["queue_samples"])[np.asarray(b["queue_sample_times_s"]) >= b["warmup_s"]]
        p50a, p90a, p50b, p90b = np.percentile(x, 50), np.percentile(x, 90), np.percentile(y, 50), np.percentile(y, 90)
        rows.append({"config": a["config"], "load": a["load"], "latency": a["latency"],
                     "browsers_scaled": int(a["browsers"]), "browsers_full": int(b["browsers"]),
                     "requests_scaled": len(x), "requests_full": len(y), "ks": ks_2samp(x, y).statistic,
                     "p50_scaled_ms": p50a, "p50_full_ms": p50b, "p50_rel_diff": p50b / p50a - 1,
                     "p90_scaled_ms": p90a, "p90_full_ms": p90b, "p90_rel_diff": p90b / p90a - 1,
                     "mean_queue_scaled": qa.mean(), "mean_queue_full": qb.mean(),
                     "drop_rate_scaled": a["drops"] / max(a["arrivals"], 1),
                     "drop_rate_full": b["drops"] / max(b["arrivals"], 1)})
    return pd.DataFrame(rows)


#: The decision rule, fixed before any run (printed in the notebook, quoted in every claim's reason).
CONFIDENCE = 0.95
MIN_REPS = 10
RULE = (f"Each claim is turned into a margin (> 0 where it holds, < 0 where it fails, its distance from the "
        f"claim's threshold) computed on every replication alone; replications are the unit of evidence and "
        f"repetition r of every configuration shares its workload and simulator seed (common random numbers), so "
        f"margins that compare configurations are paired. The claim is 'supported' when the {CONFIDENCE:.0%} "
        f"t-interval of the mean margin across at least {MIN_REPS} replications lies above 0, 'refuted' when it lies "
        f"below 0, otherwise 'untestable', with the interval and the replications that would make its half-width "
        f"smaller than the mean's distance from 0 (n = (t s / |mean|)^2).")


def decide(margins) -> dict:
    """Return the verdict of :data:`RULE` for per-replication ``margins``: status, mean, interval, n needed."""
    from scipy import stats

    m = np.asarray(margins, dtype=float)
    m = m[np.isfinite(m)]
    n = len(m)
    if n < 2:
        return {"status": "untestable", "mean": float(m.mean()) if n else float("nan"), "low": float("nan"),
                "high": float("nan"), "n": n, "n_needed": float("nan")}
    mean, sd = float(m.mean()), float(m.std(ddof=1))
    t = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1))
    half = t * sd / np.sqrt(n)
    low, high = mean - half, mean + half
    if n >= MIN_REPS and low > 0:
        status = "supported"
    elif n >= MIN_REPS and high < 0:
        status = "refuted"
    else:
        status = "untestable"
    needed = float(np.ceil((t * sd / abs(mean)) ** 2)) if mean != 0 else float("inf")
    return {"status": status, "mean": mean, "low": low, "high": high, "n": n,
            "n_needed": max(needed, float(MIN_REPS)) if status == "untestable" else float(n)}


def ci_verdicts(sweep: pd.DataFrame, *args, **kwargs) -> list[Verdict]:
    """Return the verdicts of :data:`RULE`: pooled numbers in the reason, status from the replications' margins."""
    pooled = verdicts(summarise(sweep), *args, **kwargs)
    reps = sorted(sweep["rep"].unique())
    per_rep = [{v.claim: v.margin for v in verdicts(summarise(sweep[sweep["rep"] == r]), *args, **kwargs)}
               for r in reps]
    out = []
    for v in pooled:
        d = decide([p[v.claim] for p in per_rep])
        ci = (f"margin over {d['n']} replications: mean {d['mean']:+.3f}, {CONFIDENCE:.0%} CI "
              f"[{d['low']:+.3f}, {d['high']:+.3f}]")
        if d["status"] == "untestable":
            ci += (f"; the interval straddles 0 (pooled reading: {v.status}); about {d['n_needed']:.0f} replications "
                   f"would decide it" if d["n"] >= MIN_REPS else f"; fewer than {MIN_REPS} replications")
        out.append(Verdict(v.claim, d["status"], v.regenerated, f"{ci}. {v.reason}", d["mean"]))
    return out
