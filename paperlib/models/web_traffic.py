"""Browser-level web traffic after Mah (1997), as Christiansen et al. (2001) generated it: paper 001's workload.

Paper 001 drove its testbed with Christiansen et al.'s browser program ([9] of the paper), which
replays the empirical distributions Mah measured on UC Berkeley traces (B. A. Mah, "An
Empirical Model of HTTP Network Traffic", INFOCOM 1997). A browser is an independent ON/OFF
source:

1. it asks for a page's *primary* object over a new TCP connection (HTTP/1.0);
2. when the primary arrives, it asks for the page's embedded objects, up to ``parallel``
   (4) connections at a time;
3. when the last object arrives, it "thinks" for a random time, then asks for the next page.

Two families of distributions (``family`` in :data:`DEFAULT_MODEL`):

* ``"mah"`` (the default): Mah's measured CDFs as ns-2 distributes them (``data/001/mah``,
  :func:`mah_tables`), sampled by inverse CDF exactly as ns-2's ``EmpiricalRandomVariable``
  (tools/ranvar.cc) does: draw u ~ U(0, 1), take the first point whose CDF is >= u. With
  ``mah_reading="discrete"`` (ns-2's default, ``interpolation_ 0``) that point's value is the
  sample: the empirical distribution of the measurements, nothing invented between them.
  With ``"linear"`` (ns-2's ``interpolation_ 1``) the value is interpolated linearly in u
  between the previous point and that one; below the first point's CDF the first value is
  returned (an atom), and nothing is ever drawn past the last point (CDF = 1), so the
  largest measurement bounds every quantity. Sizes are rounded to whole bytes (>= 1), the
  number of objects to a whole number, as ns-2's ``http.tcl`` rounds them.
  ``mah_objects``: Mah's "files per page" (``HttpConnections.cdf``) counts the primary object
  (``"files_per_page"``, the default: median 1, mean 2.84, as Mah reports it); ns-2's
  ``http.tcl`` draws the same table as the number of *embedded* objects and adds the primary
  (``"plus_primary"``: mean 3.84).
* ``"parametric"``: named families matched to our reading of Mah's summary statistics (kept
  as the documented alternative; the numbers are readings, not measured facts):

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

:func:`model` validates a parameter dict, the ``*_mean`` functions give exact moments (tested
against samples), :func:`sample_browsers` draws the whole workload of a run as flat arrays,
vectorised and seeded, every browser starting in its stationary state (:func:`sample_think_residual`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import stats

from paperlib import validate

#: Where Mah's CDF files and their schema live.
MAH_DIR = Path(__file__).resolve().parents[2] / "data" / "001" / "mah"

#: The quantity each of Mah's files gives, by the name the model uses.
MAH_FILES = {"request": "HttpRequestLength", "reply": "HttpReplyLength", "objects": "HttpConnections",
             "think": "HttpThinkTime"}

FAMILIES = ("mah", "parametric")
MAH_READINGS = ("discrete", "linear")
MAH_OBJECTS = ("files_per_page", "plus_primary")

#: The default parameters (see the module docstring for their sources). Sizes in bytes, times in s.
DEFAULT_MODEL: dict = {
    "family": "mah",
    "mah_reading": "discrete",
    "mah_objects": "files_per_page",
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
    validate.choice("family", m["family"], FAMILIES)
    validate.choice("mah_reading", m["mah_reading"], MAH_READINGS)
    validate.choice("mah_objects", m["mah_objects"], MAH_OBJECTS)
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
    """Return the mean reply size (bytes): Mah's CDF (``family="mah"``) or the parametric mixture.

    Parametric: the body capped at ``reply_max_bytes``. Body: E[min(X, c)] for X lognormal(mu, s) is
    exp(mu + s^2/2) Phi((ln c - mu - s^2)/s) + c (1 - Phi((ln c - mu)/s)).
    """
    if m["family"] == "mah":
        return _mah("reply", m).mean(m["mah_reading"])
    mu, s, cap = math.log(m["reply_body_median_bytes"]), m["reply_body_sigma"], m["reply_max_bytes"]
    z = (math.log(cap) - mu) / s
    capped_body = math.exp(mu + s * s / 2) * stats.norm.cdf(z - s) + cap * stats.norm.sf(z)
    return (1 - m["reply_tail_prob"]) * capped_body + m["reply_tail_prob"] * _tail_mean(m)


def request_mean(m: dict) -> float:
    """Return the mean request size (bytes)."""
    if m["family"] == "mah":
        return _mah("request", m).mean(m["mah_reading"])
    return float(m["request_mean_bytes"])


def objects_per_page_mean(m: dict) -> float:
    """Return the mean number of objects of a page (primary + embedded)."""
    if m["family"] == "mah":
        return _mah("objects", m).mean(m["mah_reading"]) + (1.0 if m["mah_objects"] == "plus_primary" else 0.0)
    return 1.0 + (1 - m["embedded_none_prob"]) * m["embedded_mean_if_any"]


def objects_per_page_pmf(k, m: dict) -> np.ndarray:
    """Return P(a page has k objects), k = 1, 2, ... (parametric family; Mah's: the discrete CDF's points)."""
    k = np.asarray(k)
    if m["family"] == "mah":
        t = _mah("objects", m)
        shift = 1 if m["mah_objects"] == "plus_primary" else 0
        return np.array([t.probs[t.values + shift == x].sum() for x in np.atleast_1d(k)]).reshape(k.shape)
    q = 1.0 / m["embedded_mean_if_any"]
    positive = (1 - m["embedded_none_prob"]) * q * (1 - q) ** np.maximum(k - 2, 0)
    return np.where(k == 1, m["embedded_none_prob"], np.where(k >= 2, positive, 0.0))


def think_mean(m: dict) -> float:
    """Return the mean think time between pages (s)."""
    if m["family"] == "mah":
        return _mah("think", m).mean(m["mah_reading"])
    return float(m["think_mean_s"])


def bits_per_page(m: dict) -> float:
    """Return the mean reply payload of a page in bits (objects per page x mean reply size x 8)."""
    return 8.0 * objects_per_page_mean(m) * reply_mean(m)


def _mah(quantity: str, m: dict) -> EmpiricalCDF:
    return mah_tables(m.get("mah_dir"))[quantity]


def _whole_bytes(x) -> np.ndarray:
    """Round to whole bytes, at least 1 (http.tcl rounds; a 0-byte reply would carry nothing here)."""
    return np.maximum(np.floor(np.asarray(x, dtype=float) + 0.5), 1).astype(np.uint32)


def sample_think_residual(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` equilibrium residual think times (s): the time a browser seen at a random instant still thinks.

    Assumes the browser is thinking at that instant: a page takes well under a second to load
    (the ON part of its cycle) while the mean think time is 30 s (parametric) or 1804 s (Mah's
    CDF), so the ON state holds under 3% (parametric) and under 0.1% (Mah) of a browser's time
    and starting every browser in its think state misses at most that share of the load at t = 0.
    Its law is the think time's equilibrium residual, density P(T > t) / E[T] (renewal theory):
    a length-biased think time times an independent uniform fraction. Lognormal (parametric): the
    length-biased law is the lognormal with its median multiplied by exp(sigma^2).
    """
    if m["family"] == "mah":
        return _mah("think", m).residual(n, rng, m["mah_reading"])
    sigma = _lognormal_sigma(m["think_mean_s"], m["think_median_s"])
    biased = m["think_median_s"] * np.exp(sigma**2 + sigma * rng.standard_normal(n))
    return rng.random(n) * biased


def sample_requests(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` request sizes (whole bytes >= 1)."""
    if m["family"] == "mah":
        return _whole_bytes(_mah("request", m).sample(n, rng, m["mah_reading"]))
    sigma = _lognormal_sigma(m["request_mean_bytes"], m["request_median_bytes"])
    x = m["request_median_bytes"] * np.exp(sigma * rng.standard_normal(n))
    return np.maximum(np.rint(x), 1).astype(np.uint32)


def sample_replies(n: int, m: dict, rng: np.random.Generator, whole: bool = True) -> np.ndarray:
    """Return ``n`` reply sizes: whole bytes >= 1 (``whole``) or the continuous variates."""
    if m["family"] == "mah":
        x = _mah("reply", m).sample(n, rng, m["mah_reading"])
        return _whole_bytes(x) if whole else x
    tail = rng.random(n) < m["reply_tail_prob"]
    body = m["reply_body_median_bytes"] * np.exp(m["reply_body_sigma"] * rng.standard_normal(n))
    lo, hi, a = m["reply_tail_min_bytes"], m["reply_max_bytes"], m["reply_tail_alpha"]
    u = rng.random(n)
    pareto = lo * (1 - u * (1 - (lo / hi) ** a)) ** (-1 / a)  # inverse CDF of the truncated Pareto
    x = np.minimum(np.where(tail, pareto, body), hi)
    return np.maximum(np.rint(x), 1).astype(np.uint32) if whole else x


def sample_objects_per_page(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` numbers of objects per page (>= 1)."""
    if m["family"] == "mah":
        x = np.floor(_mah("objects", m).sample(n, rng, m["mah_reading"]) + 0.5)  # http.tcl: rvValue ... round
        return (np.maximum(x, 1) + (1 if m["mah_objects"] == "plus_primary" else 0)).astype(np.uint32)
    any_embedded = rng.random(n) >= m["embedded_none_prob"]
    embedded = rng.geometric(1.0 / m["embedded_mean_if_any"], size=n)
    return (1 + np.where(any_embedded, embedded, 0)).astype(np.uint32)


def sample_think(n: int, m: dict, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` think times (s)."""
    if m["family"] == "mah":
        return _mah("think", m).sample(n, rng, m["mah_reading"]).astype(float)
    sigma = _lognormal_sigma(m["think_mean_s"], m["think_median_s"])
    return m["think_median_s"] * np.exp(sigma * rng.standard_normal(n))


def sample_browsers(m: dict, n_browsers: int, horizon_s: float, rng: np.random.Generator,
                    n_groups: int = 1) -> dict:
    """Draw the workload of ``n_browsers`` independent browsers for a run of ``horizon_s`` seconds.

    Browser ``i`` belongs to group ``i % n_groups`` (its requestor-responder pair). It starts in
    its stationary state, thinking, with the equilibrium residual think time
    (:func:`sample_think_residual`), so the run starts close to steady state instead of with a
    burst of first pages. A browser can ask for no more pages than those whose start, counting
    only think times, falls before the horizon; it gets exactly those pages (fetch times only
    delay them further, so the simulation never runs out of pages). A browser whose residual
    think time outlasts the run has no page at all (with Mah's think times, most of them): it
    costs the simulator nothing.

    Returns flat arrays: per browser ``browser_group``, ``browser_start_s``,
    ``browser_first_page``, ``browser_pages``; per page ``page_first`` (index of its primary
    object), ``page_objects``, ``page_think_s`` (think time after it); per object
    ``req_bytes``, ``reply_bytes``.
    """
    validate.positive_integer("n_browsers", n_browsers)
    validate.positive_integer("n_groups", n_groups)
    validate.positive("horizon_s", horizon_s)
    start = sample_think_residual(n_browsers, m, rng)
    # Think times for the browsers still inside the horizon, round by round (page j's think is drawn in round j).
    who, when, thinks = [], [], []
    idx = np.flatnonzero(start < horizon_s)
    clock = start[idx]
    j = 0
    while idx.size:
        think = sample_think(idx.size, m, rng)
        who.append(idx)
        when.append(np.full(idx.size, j))
        thinks.append(think)
        clock = clock + think
        live = clock < horizon_s
        idx, clock = idx[live], clock[live]
        j += 1
    who_a = np.concatenate(who) if who else np.zeros(0, dtype=np.int64)
    order = np.lexsort((np.concatenate(when) if when else who_a, who_a))  # browser by browser, pages in order
    page_think = (np.concatenate(thinks) if thinks else np.zeros(0))[order]
    n_pages = np.bincount(who_a, minlength=n_browsers).astype(np.uint32)
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


# --- Mah's measured distributions (data/001/mah) --------------------------------------------------


class MahDataError(ValueError):
    """A CDF file of data/001/mah is malformed (the message names file, row and column)."""


@dataclass(frozen=True)
class EmpiricalCDF:
    """One of Mah's CDF files: points ``values`` with cumulative fractions ``cdf`` (last = 1).

    Sampling follows ns-2's ``EmpiricalRandomVariable::value`` (tools/ranvar.cc): u ~ U(0, 1),
    i = the first point with cdf[i] >= u; ``"discrete"`` returns values[i]; ``"linear"``
    returns values[i-1] + (u - cdf[i-1]) (values[i] - values[i-1]) / (cdf[i] - cdf[i-1]) when
    i > 0 and u < cdf[i], else values[i]. So the first value keeps an atom of probability
    cdf[0] and nothing lies beyond the last value.
    """

    name: str
    values: np.ndarray
    counts: np.ndarray
    cdf: np.ndarray

    @property
    def probs(self) -> np.ndarray:
        """Return the probability of each point under the discrete reading (cdf differences)."""
        return np.diff(np.concatenate([[0.0], self.cdf]))

    def quantile(self, u, reading: str = "discrete") -> np.ndarray:
        """Return the inverse CDF at ``u`` in [0, 1] (ns-2's lookup, then its interpolation)."""
        validate.choice("mah_reading", reading, MAH_READINGS)
        u = np.asarray(u, dtype=float)
        i = np.minimum(np.searchsorted(self.cdf, u, side="left"), len(self.cdf) - 1)
        if reading == "discrete":
            return self.values[i]
        j = np.maximum(i - 1, 0)
        lo_v, hi_v, lo_c, hi_c = self.values[j], self.values[i], self.cdf[j], self.cdf[i]
        with np.errstate(invalid="ignore", divide="ignore"):
            inner = lo_v + (u - lo_c) * (hi_v - lo_v) / (hi_c - lo_c)
        return np.where((i > 0) & (u < hi_c), inner, hi_v)

    def sample(self, n: int, rng: np.random.Generator, reading: str = "discrete") -> np.ndarray:
        """Return ``n`` draws (one uniform each, ns-2's inverse-CDF method)."""
        return self.quantile(rng.random(n), reading)

    def _segments(self):
        """(lower end, upper end, probability) of the linear reading's uniform pieces, the atom first."""
        v = self.values
        lo = np.concatenate([[v[0]], v[:-1]])
        return lo, v.astype(float), self.probs

    def moment(self, k: int, reading: str = "discrete") -> float:
        """Return E[X^k] (k = 1, 2): the discrete sum, or the piecewise-uniform integral (linear)."""
        validate.choice("mah_reading", reading, MAH_READINGS)
        if reading == "discrete":
            return float(np.sum(self.values.astype(float) ** k * self.probs))
        a, b, q = self._segments()  # E[X^k] of U(a, b): (b^(k+1) - a^(k+1)) / ((k+1)(b - a)); a = b: a^k
        if k == 1:
            return float(np.sum((a + b) / 2 * q))
        if k == 2:
            return float(np.sum((a * a + a * b + b * b) / 3 * q))
        raise validate.ParameterError(f"k must be 1 or 2, got {k!r}")

    def mean(self, reading: str = "discrete") -> float:
        """Return the mean."""
        return self.moment(1, reading)

    def mean_share_above(self, x, reading: str = "discrete") -> np.ndarray:
        """Return the fraction of the mean carried by values above ``x`` (where the mean comes from)."""
        x = np.atleast_1d(np.asarray(x, dtype=float))
        if reading == "discrete":
            v = self.values.astype(float)
            contrib = v * self.probs
            return np.array([contrib[v > t].sum() for t in x]) / contrib.sum()
        a, b, q = self._segments()
        out = []
        for t in x:  # the part of each uniform piece above t
            lo = np.clip(np.maximum(a, t), a, b)
            frac = np.where(b > a, (b - lo) / np.where(b > a, b - a, 1), (a > t).astype(float))
            out.append(np.sum(q * frac * (lo + b) / 2))
        return np.array(out) / self.mean("linear")

    def residual(self, n: int, rng: np.random.Generator, reading: str = "discrete") -> np.ndarray:
        """Return ``n`` draws of the equilibrium residual: U x (a length-biased draw).

        Renewal theory: at a random instant, the interval in progress has the length-biased law
        (density x f(x) / E[X]) and the time left of it is a uniform fraction of it; its density
        is P(X > x) / E[X]. Discrete: point i with probability v_i p_i / E[X]. Linear: piece
        [a, b] (mass q) with probability q (a + b) / 2 / E[X], then x with density ~ x on [a, b]
        (inverse: sqrt(a^2 + w (b^2 - a^2))).
        """
        if reading == "discrete":
            w = self.values.astype(float) * self.probs
            x = self.values[np.searchsorted(np.cumsum(w) / w.sum(), rng.random(n), side="left").clip(max=len(w) - 1)]
        else:
            a, b, q = self._segments()
            w = q * (a + b) / 2
            i = np.searchsorted(np.cumsum(w) / w.sum(), rng.random(n), side="left").clip(max=len(w) - 1)
            x = np.sqrt(a[i] ** 2 + rng.random(n) * (b[i] ** 2 - a[i] ** 2))
        return rng.random(n) * x


def read_cdf(path: Path | str, name: str | None = None) -> EmpiricalCDF:
    """Return one ns-2 CDF file, validated: three columns, value and cdf strictly increasing, count >= 1,
    cdf = cumsum(count) / total to the printed precision, last cdf = 1. Errors name file, row and column."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except FileNotFoundError:
        raise MahDataError(f"{path}: file is missing") from None
    except UnicodeDecodeError as err:
        raise MahDataError(f"{path}: not ASCII: {err}") from None
    rows = []
    for i, line in enumerate(lines, start=1):
        cells = line.split()
        if len(cells) != 3:
            raise MahDataError(f"{path}, row {i}: {len(cells)} columns, expected 3 (value count cdf)")
        parsed = []
        for col, cell in zip(("value", "count", "cdf"), cells, strict=True):
            try:
                x = float(cell)
            except ValueError:
                raise MahDataError(f"{path}, row {i}, column {col}: {cell!r} is not a number") from None
            if not math.isfinite(x):
                raise MahDataError(f"{path}, row {i}, column {col}: {cell!r} is not finite")
            parsed.append(x)
        if parsed[1] < 1 or parsed[1] != int(parsed[1]):
            raise MahDataError(f"{path}, row {i}, column count: {cells[1]!r} is not a whole number >= 1")
        if not 0 < parsed[2] <= 1:
            raise MahDataError(f"{path}, row {i}, column cdf: {cells[2]!r} is not in (0, 1]")
        if rows and parsed[0] <= rows[-1][0]:
            raise MahDataError(f"{path}, row {i}, column value: {cells[0]} does not exceed the row above")
        if rows and parsed[2] <= rows[-1][2]:
            raise MahDataError(f"{path}, row {i}, column cdf: {cells[2]} does not exceed the row above")
        rows.append(parsed)
    if not rows:
        raise MahDataError(f"{path}: file is empty")
    if rows[0][0] < 0:
        raise MahDataError(f"{path}, row 1, column value: negative")
    a = np.array(rows)
    if a[-1, 2] != 1.0:
        raise MahDataError(f"{path}, row {len(rows)}, column cdf: the last row must be 1, got {a[-1, 2]!r}")
    implied = np.cumsum(a[:, 1]) / a[:, 1].sum()
    bad = np.flatnonzero(np.abs(implied - a[:, 2]) > 1e-9)
    if bad.size:
        raise MahDataError(f"{path}, row {bad[0] + 1}, column cdf: {a[bad[0], 2]!r} is not cumsum(count) / total "
                           f"= {implied[bad[0]]!r}")
    return EmpiricalCDF(name or path.stem, a[:, 0], a[:, 1].astype(np.int64), a[:, 2])


@functools.lru_cache(maxsize=4)
def mah_tables(folder: str | None = None) -> dict[str, EmpiricalCDF]:
    """Return Mah's CDFs by quantity (``request``, ``reply``, ``objects``, ``think``), validated on load.

    ``folder`` holds the files and a ``datapackage.json`` listing them with their sha256 (checked:
    the copies are the ns-2 files byte for byte) and a schema of three fields (value, count, cdf).
    """
    base = Path(folder) if folder else MAH_DIR
    meta_path = base / "datapackage.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MahDataError(f"{meta_path}: file is missing") from None
    except json.JSONDecodeError as err:
        raise MahDataError(f"{meta_path}: not valid JSON: {err}") from None
    by_name = {r.get("name"): r for r in meta.get("resources", [])}
    out = {}
    for quantity, name in MAH_FILES.items():
        res = by_name.get(name)
        if res is None:
            raise MahDataError(f"{meta_path}: no resource {name!r}")
        fields = [f.get("name") for f in res.get("schema", {}).get("fields", [])]
        if fields != ["value", "count", "cdf"]:
            raise MahDataError(f"{meta_path}: resource {name!r} must declare fields value, count, cdf, got {fields}")
        path = base / res["path"]
        if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() != res.get("sha256"):
            raise MahDataError(f"{path}: sha256 differs from datapackage.json (the file is not the ns-2 copy)")
        out[quantity] = read_cdf(path, name)
    return out


def mah_digest(folder: str | None = None) -> str:
    """Return a short digest of Mah's files (goes into sweep points, so a data change invalidates the cache)."""
    base = Path(folder) if folder else MAH_DIR
    h = hashlib.sha256()
    for name in MAH_FILES.values():
        h.update((base / f"{name}.cdf").read_bytes())
    return h.hexdigest()[:16]
