"""Browser-level web traffic after Mah (1997), as Christiansen et al. (2001) generated it: seed 001's workload.

Seed 001 drove its testbed with Christiansen et al.'s browser program ([9] of the paper), which
replays the empirical distributions Mah measured on 230+ hours of UC Berkeley traces (B. A.
Mah, "An Empirical Model of HTTP Network Traffic", INFOCOM 1997). A browser is an independent
ON/OFF source:

1. it asks for a page's *primary* object over a new TCP connection (HTTP/1.0);
2. when the primary arrives, it asks for the page's embedded objects, up to ``parallel``
   (4) connections at a time;
3. when the last object arrives, it "thinks" for a random time, then asks for the next page.

What is modelled, and from where (the exact empirical CDFs of Mah's datafiles could not be
obtained here, so each distribution is a named parametric family matched to the summary
statistics Mah reports; the numbers are from our reading of Mah 1997 and are recorded as
such, not as measured facts):

==========================  ============================================  ==========================
quantity                    family (parameters in :data:`DEFAULT_MODEL`)  Mah's summary (as read)
==========================  ============================================  ==========================
request size (bytes)        lognormal, median 240 B, mean 320 B          median ~240 B, a few 100 B
reply size (bytes)          lognormal body (median 2 kB, sigma 1.0) with  median ~2 kB, mean ~8-10 kB,
                            probability 0.9, else Pareto tail (x_m       heavy (Pareto) tail with
                            10 kB, alpha 1.2), truncated at 10 MB        alpha ~1.0-1.5
objects per page            1 + E, E = 0 w.p. 0.55, else geometric       median 1, mean ~2.8-3.2
                            on {1, 2, ...} with mean 4.4 (mean 2.98)
think time between pages    lognormal, median 15 s, mean 30 s            heavy-tailed, median ~15 s
==========================  ============================================  ==========================

Mah's "consecutive pages from the same server" does not matter here: each browser talks to
one responder (its requestor-responder pair of the paper's Table 2) for the whole run.

:func:`model` validates a parameter dict, the ``*_mean`` / ``*_cdf`` functions give exact
moments and distribution functions (tested against samples), :func:`sample_browsers` draws the
whole workload of a run as flat arrays, vectorised and seeded.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from paperlib import validate

#: The default parameters (see the module docstring for their sources). Sizes in bytes, times in s.
DEFAULT_MODEL: dict = {
    "request_median_bytes": 240.0,
    "request_mean_bytes": 320.0,
    "reply_body_median_bytes": 2000.0,
    "reply_body_sigma": 1.0,
    "reply_tail_prob": 0.1,
    "reply_tail_min_bytes": 10_000.0,
    "reply_tail_alpha": 1.2,
    "reply_max_bytes": 10_000_000.0,
    "embedded_none_prob": 0.55,
    "embedded_mean_if_any": 4.4,
    "think_median_s": 15.0,
    "think_mean_s": 30.0,
}


def model(overrides: dict | None = None) -> dict:
    """Return :data:`DEFAULT_MODEL` updated by ``overrides``, validated (raise naming the parameter)."""
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(DEFAULT_MODEL))
    if unknown:
        raise validate.ParameterError(f"unknown traffic model parameter(s) {unknown}; known: {sorted(DEFAULT_MODEL)}")
    m = {**DEFAULT_MODEL, **overrides}
    for name in ("request_median_bytes", "reply_body_median_bytes", "reply_body_sigma", "reply_tail_min_bytes",
                 "reply_tail_alpha", "think_median_s"):
        validate.positive(name, m[name])
    validate.probability("reply_tail_prob", m["reply_tail_prob"])
    validate.probability("embedded_none_prob", m["embedded_none_prob"])
    for mean, median in (("request_mean_bytes", "request_median_bytes"), ("think_mean_s", "think_median_s")):
        if not m[mean] >= m[median]:
            raise validate.ParameterError(f"{mean} ({m[mean]}) must be >= {median} ({m[median]}) for a lognormal")
    if not m["embedded_mean_if_any"] >= 1:
        raise validate.ParameterError(f"embedded_mean_if_any must be >= 1, got {m['embedded_mean_if_any']!r}")
    if not m["reply_max_bytes"] > m["reply_tail_min_bytes"]:
        raise validate.ParameterError("reply_max_bytes must exceed reply_tail_min_bytes")
    return m


def _lognormal_sigma(mean: float, median: float) -> float:
    """Return sigma of the lognormal with this mean and median (mean = median exp(sigma^2 / 2))."""
    return math.sqrt(2.0 * math.log(mean / median))


def _body(m: dict):  # the lognormal body of the reply sizes
    return stats.lognorm(s=m["reply_body_sigma"], scale=m["reply_body_median_bytes"])


def _tail_cdf(x, m: dict):
    """CDF of the Pareto tail truncated at ``reply_max_bytes``."""
    lo, hi, a = m["reply_tail_min_bytes"], m["reply_max_bytes"], m["reply_tail_alpha"]
    x = np.clip(np.asarray(x, dtype=float), lo, hi)
    return (1 - (lo / x) ** a) / (1 - (lo / hi) ** a)


def _tail_mean(m: dict) -> float:
    lo, hi, a = m["reply_tail_min_bytes"], m["reply_max_bytes"], m["reply_tail_alpha"]
    norm = 1 - (lo / hi) ** a
    if a == 1:
        return lo * math.log(hi / lo) / norm
    return a * lo**a / (a - 1) * (lo ** (1 - a) - hi ** (1 - a)) / norm


def reply_cdf(x, m: dict) -> np.ndarray:
    """Return P(reply size <= x) of the mixture (body capped at ``reply_max_bytes``, as sampled)."""
    x = np.asarray(x, dtype=float)
    body = np.where(x >= m["reply_max_bytes"], 1.0, _body(m).cdf(x))
    return (1 - m["reply_tail_prob"]) * body + m["reply_tail_prob"] * _tail_cdf(x, m)


def reply_mean(m: dict) -> float:
    """Return the mean reply size (bytes) of the mixture, the body capped at ``reply_max_bytes``.

    Body: E[min(X, c)] for X lognormal(mu, s) is exp(mu + s^2/2) Phi((ln c - mu - s^2)/s)
    + c (1 - Phi((ln c - mu)/s)).
    """
    mu, s, cap = math.log(m["reply_body_median_bytes"]), m["reply_body_sigma"], m["reply_max_bytes"]
    z = (math.log(cap) - mu) / s
    capped_body = math.exp(mu + s * s / 2) * stats.norm.cdf(z - s) + cap * stats.norm.sf(z)
    return (1 - m["reply_tail_prob"]) * capped_body + m["reply_tail_prob"] * _tail_mean(m)


def request_mean(m: dict) -> float:
    """Return the mean request size (bytes)."""
    return float(m["request_mean_bytes"])


def objects_per_page_mean(m: dict) -> float:
    """Return the mean number of objects of a page (primary + embedded)."""
    return 1.0 + (1 - m["embedded_none_prob"]) * m["embedded_mean_if_any"]


def objects_per_page_pmf(k, m: dict) -> np.ndarray:
    """Return P(a page has k objects), k = 1, 2, ..."""
    k = np.asarray(k)
    q = 1.0 / m["embedded_mean_if_any"]
    positive = (1 - m["embedded_none_prob"]) * q * (1 - q) ** np.maximum(k - 2, 0)
    return np.where(k == 1, m["embedded_none_prob"], np.where(k >= 2, positive, 0.0))


def think_mean(m: dict) -> float:
    """Return the mean think time between pages (s)."""
    return float(m["think_mean_s"])


def bits_per_page(m: dict) -> float:
    """Return the mean reply payload of a page in bits (objects per page x mean reply size x 8)."""
    return 8.0 * objects_per_page_mean(m) * reply_mean(m)


def sample_requests(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` request sizes (whole bytes >= 1)."""
    sigma = _lognormal_sigma(m["request_mean_bytes"], m["request_median_bytes"])
    x = m["request_median_bytes"] * np.exp(sigma * rng.standard_normal(n))
    return np.maximum(np.rint(x), 1).astype(np.uint32)


def sample_replies(n: int, m: dict, rng: np.random.Generator, whole: bool = True) -> np.ndarray:
    """Return ``n`` reply sizes: whole bytes >= 1 (``whole``) or the continuous variates."""
    tail = rng.random(n) < m["reply_tail_prob"]
    body = m["reply_body_median_bytes"] * np.exp(m["reply_body_sigma"] * rng.standard_normal(n))
    lo, hi, a = m["reply_tail_min_bytes"], m["reply_max_bytes"], m["reply_tail_alpha"]
    u = rng.random(n)
    pareto = lo * (1 - u * (1 - (lo / hi) ** a)) ** (-1 / a)  # inverse CDF of the truncated Pareto
    x = np.minimum(np.where(tail, pareto, body), hi)
    return np.maximum(np.rint(x), 1).astype(np.uint32) if whole else x


def sample_objects_per_page(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` numbers of objects per page (>= 1)."""
    any_embedded = rng.random(n) >= m["embedded_none_prob"]
    embedded = rng.geometric(1.0 / m["embedded_mean_if_any"], size=n)
    return (1 + np.where(any_embedded, embedded, 0)).astype(np.uint32)


def sample_think(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` think times (s)."""
    sigma = _lognormal_sigma(m["think_mean_s"], m["think_median_s"])
    return m["think_median_s"] * np.exp(sigma * rng.standard_normal(n))


def sample_browsers(m: dict, n_browsers: int, horizon_s: float, rng: np.random.Generator,
                    n_groups: int = 1) -> dict:
    """Draw the workload of ``n_browsers`` independent browsers for a run of ``horizon_s`` seconds.

    Browser ``i`` belongs to group ``i % n_groups`` (its requestor-responder pair). It starts
    thinking, with the *residual* think time of a browser observed at a random instant
    (renewal theory: a length-biased think time times a uniform fraction; for a lognormal the
    length-biased law is the lognormal with its median multiplied by exp(sigma^2)), so the
    run starts close to the browsers' stationary state instead of with a burst of first pages. A browser can ask for no more pages than those whose start, counting
    only think times, falls before the horizon; it gets exactly those pages (fetch times only
    delay them further, so the simulation never runs out of pages).

    Returns flat arrays: per browser ``browser_group``, ``browser_start_s``,
    ``browser_first_page``, ``browser_pages``; per page ``page_first`` (index of its primary
    object), ``page_objects``, ``page_think_s`` (think time after it); per object
    ``req_bytes``, ``reply_bytes``.
    """
    validate.positive_integer("n_browsers", n_browsers)
    validate.positive_integer("n_groups", n_groups)
    validate.positive("horizon_s", horizon_s)
    sigma = _lognormal_sigma(m["think_mean_s"], m["think_median_s"])
    biased = m["think_median_s"] * np.exp(sigma**2 + sigma * rng.standard_normal(n_browsers))
    start = rng.random(n_browsers) * biased
    # Think times column by column until every browser's next page would start after the horizon.
    columns, clock = [], start.copy()
    while True:
        think = sample_think(n_browsers, m, rng)
        columns.append(think)
        clock = clock + think
        if np.all(clock >= horizon_s):
            break
    thinks = np.column_stack(columns)  # page j's think time is thinks[:, j]
    page_start = start[:, None] + np.concatenate([np.zeros((n_browsers, 1)), np.cumsum(thinks, axis=1)[:, :-1]], 1)
    live = page_start < horizon_s
    n_pages = live.sum(axis=1).astype(np.uint32)
    page_think = thinks[live]  # row-major: browser by browser, pages in order
    page_objects = sample_objects_per_page(len(page_think), m, rng)
    n_objects = int(page_objects.sum())
    page_first = np.concatenate([[0], np.cumsum(page_objects)[:-1]]).astype(np.uint32)
    first_page = np.concatenate([[0], np.cumsum(n_pages)[:-1]]).astype(np.uint32)
    return {
        "browser_group": (np.arange(n_browsers) % n_groups).astype(np.int32),
        "browser_start_s": start,
        "browser_first_page": first_page,
        "browser_pages": n_pages,
        "page_first": page_first,
        "page_objects": page_objects,
        "page_think_s": page_think.astype(float),
        "req_bytes": sample_requests(n_objects, m, rng),
        "reply_bytes": sample_replies(n_objects, m, rng),
    }


def offered_bps_per_browser(m: dict, page_time_s: float = 0.0) -> float:
    """Return the mean reply bits per second one browser asks for: page bits / (think + page time).

    ``page_time_s`` is the mean time a page takes to arrive (0 = the think-time-only bound).
    """
    validate.non_negative("page_time_s", page_time_s)
    return bits_per_page(m) / (think_mean(m) + page_time_s)
