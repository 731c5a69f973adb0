"""A web page drawn from the HTTP Archive Web Almanac 2024: how many objects, and how large each is.

Paper: 005 (``data/005/requests_per_page.csv``, ``requests_by_type.csv``, ``bytes_by_type.csv``;
``docs/reconstruction-005.md`` Sec. 3). The Almanac prints requests per page at five percentiles
(p10, p25, p50, p75, p90) and, per content type, the median number of requests and the median bytes.
It prints no distribution; this module turns the printed numbers into one, as follows.

* Number of objects (:func:`requests_quantile`, :func:`sample_request_counts`). The quantile function
  Q(q) passes through the five printed percentiles, with log Q linear in q between neighbouring ones
  (piecewise log-linear: request counts are positive and right-skewed, p90/p50 = 2.5 against
  p50/p10 = 3.0 on desktop, so ratios, not differences, are what interpolate evenly). Below p10 and
  above p90 the first and the last segment are **extrapolated** with their own slope to q = 0 and
  q = 1 (desktop: 16.5 to 234 requests), not clamped: clamping would put 10 % of all pages exactly on
  the p10 value and 10 % exactly on the p90 value, two atoms no crawl shows. The Almanac prints nothing
  beyond p10 and p90, so the tails are a choice: the extrapolated support is bounded and understates the
  heavy upper tail of real pages (pages with several hundred requests exist). A count is
  round(Q(U)), U uniform on [0, 1) (inverse-transform sampling; the printed percentiles are whole
  numbers, so rounding keeps them).
* Content types and sizes (:func:`content_mix`, :func:`page_of`). The median page's request mix by
  type (``requests_by_type.csv``: desktop HTML 2, fonts 4, CSS 8, images 18, JavaScript 24) gives
  each type's share of the typed requests; a page of N requests gets N objects split by these shares
  (largest-remainder rounding). An object of a type weighs that type's median bytes
  (``bytes_by_type.csv``, homepage or inner page) divided by its median request count: the mean object
  size of the type in the median page. The chapter types 56 of the median desktop page's 71 requests
  (51 of 66 on mobile) and prints no bytes for the rest; those requests take the typed requests' mix.
  A page's weight thus grows with its request count, in proportion up to the rounding of the type
  counts. The sum of per-type medians is not the median page weight (``page_weight.csv``), and this
  construction does not claim to reproduce it (``docs/reconstruction-005.md`` gives the number it
  lands on).

SI inside: object sizes in bits; ``kilo`` (1000 or 1024 bytes per KB) is the caller's convention, as
everywhere in :mod:`paperlib.units`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from paperlib import data, units, validate

PAPER = "005"
DEVICES = ("desktop", "mobile")
PAGE_TYPES = ("homepage", "inner page")
#: The printed percentile labels and the probabilities they stand for.
PERCENTILES = {"10th": 0.10, "25th": 0.25, "50th": 0.50, "75th": 0.75, "90th": 0.90}


@functools.lru_cache(maxsize=1)
def _paper():
    return data.load_paper(PAPER)


def requests_percentiles(device: str) -> pd.Series:
    """Return the printed requests per page, indexed by probability (0.10 .. 0.90).

    Paper: 005, ``data/005/requests_per_page.csv`` (Web Almanac 2024, Page Weight, "Distribution of
    requests by device type").

    Parameters
    ----------
    device : ``"desktop"`` or ``"mobile"``
    """
    validate.choice("device", device, DEVICES)
    table = _paper().tables["requests_per_page"]
    rows = (table.cells["device"] == device).to_numpy()
    labels = table.cells["percentile"].to_numpy()[rows]
    unknown = [label for label in labels if label not in PERCENTILES]
    if unknown:
        raise ValueError(f"{table.path}: column 'percentile' has labels {unknown} outside {list(PERCENTILES)}")
    series = pd.Series(table.values("value")[rows], index=[PERCENTILES[label] for label in labels],
                       name=f"requests per page ({device})").sort_index()
    if len(series) != len(PERCENTILES) or (np.diff(series.to_numpy()) <= 0).any():
        raise ValueError(f"{table.path}: device {device!r} needs five increasing percentiles, got {series.to_dict()}")
    return series


def requests_quantile(q, device: str) -> np.ndarray:
    """Return Q(q), the requests per page at probability q (not rounded), vectorised over ``q``.

    Paper: 005, the printed p10..p90 of :func:`requests_percentiles`, interpolated piecewise
    log-linearly in q and extrapolated with the end segments' slopes to q = 0 and q = 1 (module
    docstring: why). Q passes exactly through every printed percentile and is strictly increasing.

    Parameters
    ----------
    q : probabilities in [0, 1]
    device : ``"desktop"`` or ``"mobile"``
    """
    qq = validate.numbers("q", q)
    if ((qq < 0) | (qq > 1)).any():
        bad = qq[(qq < 0) | (qq > 1)].flat[0]
        raise validate.ParameterError(f"q must be in [0, 1], got {bad!r}")
    knots = requests_percentiles(device)
    probs, logs = knots.index.to_numpy(dtype=float), np.log(knots.to_numpy(dtype=float))
    # segment k joins knots k and k+1; q below the first knot uses segment 0, above the last the last one
    k = np.clip(np.searchsorted(probs, qq, side="right") - 1, 0, len(probs) - 2)
    slope = (logs[k + 1] - logs[k]) / (probs[k + 1] - probs[k])
    return np.exp(logs[k] + slope * (qq - probs[k]))[()]


def sample_request_counts(rng: np.random.Generator, size: int, device: str) -> np.ndarray:
    """Return ``size`` request counts drawn from the Almanac's distribution: round(Q(U)), U uniform.

    Paper: 005, :func:`requests_quantile` by inverse-transform sampling; half-up rounding to a whole
    count (at least 1).

    Parameters
    ----------
    rng : the random generator (``numpy.random.default_rng(seed)``)
    size : how many counts (whole number >= 1)
    device : ``"desktop"`` or ``"mobile"``
    """
    n = int(validate.scalar("size", size, validate.positive_integer))
    if not isinstance(rng, np.random.Generator):
        raise validate.ParameterError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return np.maximum(np.floor(requests_quantile(rng.random(n), device) + 0.5), 1.0).astype(int)


def content_mix(device: str, page_type: str, *, kilo: int) -> pd.DataFrame:
    """Return, per content type of the median page, its median requests, median bits and mean object size.

    Paper: 005, ``requests_by_type.csv`` (column ``value``, the row ``total`` left out) and
    ``bytes_by_type.csv`` (``value`` in KB for ``device`` and ``page_type``). Columns: ``requests``,
    ``bits`` (KB x ``kilo`` x 8), ``share`` (requests / typed requests), ``object_bits`` (bits /
    requests); rows in the order of ``requests_by_type.csv``.

    Parameters
    ----------
    device : ``"desktop"`` or ``"mobile"``
    page_type : ``"homepage"`` or ``"inner page"`` (the bytes; the request counts are printed for the
        median page only)
    kilo : bytes per KB, 1000 or 1024 (the caller's convention)
    """
    validate.choice("device", device, DEVICES)
    validate.choice("page_type", page_type, PAGE_TYPES)
    validate.choice("kilo", kilo, (units.DECIMAL, units.BINARY))
    requests_table = _paper().tables["requests_by_type"]
    bytes_table = _paper().tables["bytes_by_type"]
    req = requests_table.cells
    pick = ((req["device"] == device) & (req["content_type"] != "total")).to_numpy()
    requests = pd.Series(requests_table.values("value")[pick], index=req["content_type"].to_numpy()[pick])
    byt = bytes_table.cells
    pick = ((byt["device"] == device) & (byt["page_type"] == page_type)).to_numpy()
    kbytes = pd.Series(bytes_table.values("value")[pick], index=byt["content_type"].to_numpy()[pick])
    if set(kbytes.index) != set(requests.index):
        raise ValueError(f"{bytes_table.path} and {requests_table.path}: column 'content_type' differs for "
                         f"{device} {page_type}: {sorted(kbytes.index)} against {sorted(requests.index)}")
    mix = pd.DataFrame({"requests": requests, "bits": units.kbytes_to_bits(kbytes[requests.index], kilo=kilo)})
    mix["share"] = mix["requests"] / mix["requests"].sum()
    mix["object_bits"] = mix["bits"] / mix["requests"]
    mix.index.name = "content_type"
    return mix


@dataclass(frozen=True)
class WebPage:
    """One page: the size of every object (bits) and its content type, in request order.

    ``object_bits`` is a read-only 1-D float array; ``content_types`` a tuple of the same length.
    """

    object_bits: np.ndarray
    content_types: tuple[str, ...]

    def __post_init__(self):
        """Check the sizes (positive, finite) and that every object has one type; freeze the array."""
        sizes = np.array(validate.positive("object_bits", self.object_bits), dtype=float).reshape(-1)
        if len(self.content_types) != sizes.size:
            raise validate.ParameterError(f"content_types has {len(self.content_types)} entries, object_bits "
                                          f"{sizes.size}: one type per object")
        sizes.setflags(write=False)
        object.__setattr__(self, "object_bits", sizes)
        object.__setattr__(self, "content_types", tuple(self.content_types))

    @property
    def objects(self) -> int:
        """Return the number of objects (requests) of the page."""
        return int(self.object_bits.size)

    @property
    def total_bits(self) -> float:
        """Return the page weight (bits): the sum of its object sizes."""
        return float(self.object_bits.sum())


def type_counts(requests: int, shares) -> np.ndarray:
    """Return whole object counts per type that sum to ``requests``: largest-remainder rounding of requests x shares.

    Each type gets floor(requests x share); the objects left over go one each to the types with the
    largest fractional parts (ties to the earlier type).

    Parameters
    ----------
    requests : the page's number of objects (whole number >= 1)
    shares : each type's share (non-negative, summing to 1)
    """
    n = int(validate.scalar("requests", requests, validate.positive_integer))
    share = validate.non_negative("shares", shares).reshape(-1)
    if abs(share.sum() - 1.0) > 1e-9:
        raise validate.ParameterError(f"shares must sum to 1, got {share.sum()!r}")
    exact = n * share
    counts = np.floor(exact + 1e-9)
    left = n - int(counts.sum())
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:left]] += 1
    return counts.astype(int)


def page_of(requests: int, device: str, page_type: str, *, kilo: int) -> WebPage:
    """Return a page of ``requests`` objects with the median page's mix of types and mean object sizes.

    Paper: 005, :func:`content_mix` and :func:`type_counts` (module docstring: the construction).
    Objects are listed type by type in the order of ``requests_by_type.csv`` (HTML first).

    Parameters
    ----------
    requests : number of objects (whole number >= 1)
    device, page_type, kilo : as :func:`content_mix`
    """
    mix = content_mix(device, page_type, kilo=kilo)
    counts = type_counts(requests, mix["share"].to_numpy())
    sizes = np.repeat(mix["object_bits"].to_numpy(), counts)
    types = tuple(np.repeat(mix.index.to_numpy(), counts))
    return WebPage(object_bits=sizes, content_types=types)


def median_page(device: str, page_type: str, *, kilo: int) -> WebPage:
    """Return the page of the median request count (p50 of ``requests_per_page.csv``), built by :func:`page_of`."""
    return page_of(int(requests_percentiles(device)[0.5]), device, page_type, kilo=kilo)


def sample_pages(rng: np.random.Generator, size: int, device: str, page_type: str, *, kilo: int) -> list[WebPage]:
    """Return ``size`` pages: request counts from :func:`sample_request_counts`, each built by :func:`page_of`."""
    return [page_of(int(n), device, page_type, kilo=kilo) for n in sample_request_counts(rng, size, device)]
