"""SPECweb96 and the modified SPECweb96 workload of paper 003 (Vandalore et al., bursty WWW over ABR).

Paper 003, slides "SPECWeb96", "Problem with SPECWeb96", "Modified SPECWeb96".

A workload is a set of file-size *classes*: class ``c`` is chosen with
probability ``p_c`` and holds nine files of sizes ``base_c x 1, ..., base_c x 9``
(0.1-0.9 kB, 1-9 kB, ...). Within a class, file ``j`` is chosen with a
*within-class distribution*. The slides say "Poisson distribution centered
around the midpoint of the class"; that admits several readings, all offered:

* ``"uniform"``: each of the nine files with probability 1/9 (SPECweb96's
  mean is then the midpoint, file 5);
* ``"binomial"``: Binomial(8, 1/2) on j - 1, the symmetric bell centred exactly
  on the midpoint (mean file 5, like uniform, but concentrated);
* ``"truncated_poisson"``: Poisson(5) on j, truncated to 1..9 and
  renormalised: "Poisson with mean at the midpoint" taken literally; the
  truncation makes it asymmetric, so the mean file is 4.85, not 5.

A user fetches a *batch* (a Web page) every inter-batch time: in the modified
workload one index file (class 0) and four images (classes 1-4, the original
SPECweb96 class probabilities shifted one class up: p = 0.8 x p_orig(n-1) of the
file mix). The page model of the original workload is not stated; the same
batch of five files reproduces the printed per-user load (see the 003 notebook).

Sizes are bits inside (SI); the base of "kB" is a convention passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from paperlib import validate

WITHIN_CLASS = ("uniform", "binomial", "truncated_poisson")
FILES_PER_CLASS = 9


def within_class_pmf(kind: str) -> np.ndarray:
    """Return the probabilities of files 1..9 of a class under the reading ``kind``."""
    validate.choice("within_class", kind, WITHIN_CLASS)
    j = np.arange(1, FILES_PER_CLASS + 1)
    if kind == "uniform":
        w = np.ones(FILES_PER_CLASS)
    elif kind == "binomial":
        w = np.array([math.comb(FILES_PER_CLASS - 1, int(k - 1)) for k in j], dtype=float)
    else:
        lam = (FILES_PER_CLASS + 1) / 2  # the midpoint, file 5
        w = np.array([lam**k / math.factorial(int(k)) for k in j])
    return w / w.sum()


@dataclass(frozen=True)
class Workload:
    """A SPECweb96-style workload: classes, their probabilities and the page (batch) composition.

    ``class_probs`` are the probabilities of the file mix (they sum to 1);
    ``base_bits`` the size of file 1 of each class (file j is j x base).
    ``page_classes`` lists, for each file of a page, the class probabilities it
    is drawn from (rows sum to 1): ``None`` means every file of a page is drawn
    from the mix ``class_probs``.
    """

    name: str
    class_probs: tuple[float, ...]
    base_bits: tuple[float, ...]
    within_class: str = "uniform"
    files_per_page: int = 5
    page_classes: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self):
        probs = validate.non_negative("class_probs", self.class_probs)
        if probs.ndim != 1 or len(probs) == 0:
            raise validate.ParameterError("class_probs must be a non-empty list of probabilities")
        if not math.isclose(float(probs.sum()), 1.0, abs_tol=1e-9):
            raise validate.ParameterError(f"class_probs must sum to 1, got {float(probs.sum())!r}")
        base = validate.positive("base_bits", self.base_bits)
        if base.shape != probs.shape:
            raise validate.ParameterError(
                f"base_bits has {base.size} classes but class_probs has {probs.size}"
            )
        validate.choice("within_class", self.within_class, WITHIN_CLASS)
        validate.positive_integer("files_per_page", self.files_per_page)
        if self.page_classes is not None:
            rows = np.asarray(self.page_classes, dtype=float)
            if rows.shape != (self.files_per_page, probs.size):
                raise validate.ParameterError(
                    f"page_classes must be {self.files_per_page} rows of {probs.size} probabilities"
                )
            validate.non_negative("page_classes", rows)
            if not np.allclose(rows.sum(axis=1), 1.0):
                raise validate.ParameterError("each row of page_classes must sum to 1")
            if not np.allclose(rows.mean(axis=0), probs):
                raise validate.ParameterError("page_classes must average to class_probs (the file mix)")

    # --- exact moments ---------------------------------------------------------

    def file_sizes_bits(self) -> np.ndarray:
        """Return the size of every file, shape (classes, 9), bits."""
        return np.outer(self.base_bits, np.arange(1, FILES_PER_CLASS + 1))

    def class_mean_bits(self) -> np.ndarray:
        """Return the mean file size of each class (bits)."""
        return self.file_sizes_bits() @ within_class_pmf(self.within_class)

    def mean_file_size_bits(self) -> float:
        """Return the mean size of a requested file (bits): sum_c p_c E[size | c]."""
        return float(np.dot(self.class_probs, self.class_mean_bits()))

    def file_size_second_moment_bits2(self) -> float:
        """Return E[size^2] of a requested file (bits^2)."""
        sq = (self.file_sizes_bits() ** 2) @ within_class_pmf(self.within_class)
        return float(np.dot(self.class_probs, sq))

    def mean_page_size_bits(self) -> float:
        """Return the mean size of a page (batch) of ``files_per_page`` files (bits)."""
        if self.page_classes is None:
            return self.files_per_page * self.mean_file_size_bits()
        return float(np.sum(np.asarray(self.page_classes) @ self.class_mean_bits()))

    def load_per_user_bps(self, inter_batch_s: float) -> float:
        """Return the mean offered load of one user fetching a page every ``inter_batch_s`` seconds (bit/s)."""
        return self.mean_page_size_bits() / float(validate.positive("inter_batch_s", inter_batch_s))

    # --- sampling --------------------------------------------------------------

    def sample_files_bits(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Return ``n`` file sizes drawn from the file mix (bits)."""
        n = int(validate.positive_integer("n", n))
        classes = rng.choice(len(self.class_probs), size=n, p=self.class_probs)
        files = rng.choice(FILES_PER_CLASS, size=n, p=within_class_pmf(self.within_class))
        return self.file_sizes_bits()[classes, files]

    def sample_pages_bits(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Return ``n`` pages, shape (n, files_per_page): the size of each file of each page (bits)."""
        n = int(validate.positive_integer("n", n))
        if self.page_classes is None:
            return self.sample_files_bits(n * self.files_per_page, rng).reshape(n, self.files_per_page)
        sizes = self.file_sizes_bits()
        pmf = within_class_pmf(self.within_class)
        out = np.empty((n, self.files_per_page))
        for slot, probs in enumerate(self.page_classes):
            classes = rng.choice(len(probs), size=n, p=probs)
            files = rng.choice(FILES_PER_CLASS, size=n, p=pmf)
            out[:, slot] = sizes[classes, files]
        return out


def modified_page_classes(original_probs, files_per_page: int = 5) -> tuple[tuple[float, ...], ...]:
    """Return the page composition of the modified workload: one index file, then images.

    Paper 003, slide "Modified SPECWeb96": "Each Web page consists of one
    index page and 4 images. First Column: Index page (p = 1/5). Other Columns:
    p = 0.8 Probability of class n-1 in the original SPECweb96." File 1 of a
    page is the index (class 0); files 2..5 are images from classes 1..4 with
    the original probabilities.
    """
    orig = validate.non_negative("original_probs", original_probs)
    k = orig.size + 1
    index = (1.0,) + (0.0,) * (k - 1)
    image = (0.0,) + tuple(float(p) for p in orig)
    return (index,) + (image,) * (files_per_page - 1)
