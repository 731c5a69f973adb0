"""Claims as a table of small named functions: one function per claim id of ``data/<paper>/claims.csv``.

Each paper's ``paperlib.reproduce.p<id>.claims`` module makes one :class:`ClaimRegistry` and
registers one function per claim::

    CLAIMS = ClaimRegistry(PAPER)  # the package's own id

    @CLAIMS.claim("within_4_percent")
    def within_4_percent(evidence: Evidence) -> Verdict:
        ...

A claim function takes the paper's evidence (whatever object the paper's notebook assembles: a
table of regenerated values, simulation summaries...) and returns a :class:`Verdict` (status,
the regenerated number if there is one, the reason; an ``inconclusive`` one also the replications that
would decide it, :func:`paperlib.decide.replications_to_decide`), or a tuple of verdicts when one claim is judged
on several pieces of evidence (one ledger row each, told apart by ``column``).
:meth:`ClaimRegistry.rows` judges every
claim of ``claims.csv`` in the file's order and returns the ledger rows; a claim of the data
without a function, or a function without a claim in the data, is an error there and in the
test that checks every paper (``tests/test_claims.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from paperlib import ledger
from paperlib.data import Paper


class ClaimError(ValueError):
    """A claim function is missing, duplicated, or returns something that is not a verdict."""


@dataclass(frozen=True)
class Verdict:
    """What a claim function found: a claim status, the regenerated number (if any) and why."""

    status: str
    reason: str
    regenerated: float | None = None
    #: the ledger's ``column`` for this claim (the default ``claim``; e.g. ``claim (emulated)``)
    column: str = "claim"
    #: the ledger's ``source``; ``None``: the claim's printed location in ``claims.csv``
    source: str | None = None
    #: of an ``inconclusive`` verdict whose interval straddles its threshold: the replications that would decide
    #: it at the measured spread (:func:`paperlib.decide.replications_to_decide`; ``math.inf``: more than its cap);
    #: ``None`` otherwise (also for an inconclusive claim whose cells' verdicts split with every cell decided)
    replications_to_decide: float | None = None
    #: what the verdict rests on (:data:`paperlib.ledger.EVIDENCE`); ``None``: ``real stacks`` in column
    #: :data:`paperlib.ledger.REAL_STACKS`, else the registry's (:class:`ClaimRegistry`)
    evidence: str | None = None
    #: the 95% interval (low, high) of the criterion the verdict is judged on, if it has one
    interval95: tuple[float, float] | None = None
    #: the replications behind that interval or value, if any
    n: int | None = None

    def __post_init__(self):
        if self.status not in ledger.CLAIM_STATUSES:
            raise ClaimError(f"claim status must be one of {ledger.CLAIM_STATUSES}, got {self.status!r}")
        if not self.reason.strip():
            raise ClaimError("a verdict needs a reason")
        n = self.replications_to_decide
        if self.status == ledger.FIDELITY_LOST and self.column != ledger.REAL_STACKS:
            raise ClaimError(f"a fidelity_lost verdict is judged on the real stacks (column {ledger.REAL_STACKS!r}), "
                             f"got column {self.column!r}")
        if n is not None and self.status != "inconclusive":
            raise ClaimError(f"replications_to_decide belongs to an inconclusive verdict, not a {self.status!r} one")
        if n is not None and not (n >= 2 and (math.isinf(n) or n == int(n))):
            raise ClaimError(f"replications_to_decide must be a whole number >= 2 or inf, got {n!r}")
        if self.evidence is not None and self.evidence not in ledger.EVIDENCE:
            raise ClaimError(f"evidence must be one of {tuple(ledger.EVIDENCE)}, got {self.evidence!r}")
        if (self.column == ledger.REAL_STACKS) != (self.evidence in (None, "real stacks")) and \
                self.evidence is not None:
            raise ClaimError(f"a verdict in column {self.column!r} cannot rest on evidence {self.evidence!r}")

    def evidence_or(self, default: str) -> str:
        """Return the verdict's evidence: its own, ``real stacks`` in column :data:`paperlib.ledger.REAL_STACKS`,
        else ``default`` (the registry's)."""
        if self.evidence is not None:
            return self.evidence
        return "real stacks" if self.column == ledger.REAL_STACKS else default

    def row(self, paper: str, source: str, claim_id: str, text: str, published: str, default_evidence: str,
            ) -> ledger.Row:
        """Return the verdict as the ledger row of claim ``claim_id`` (its ``row`` ``text``)."""
        return ledger.claim_row(paper, source, text, published, self.regenerated, self.status, self.reason,
                                column=self.column, claim_id=claim_id, evidence=self.evidence_or(default_evidence),
                                interval95=self.interval95, n=self.n)


def fidelity_lost(reason: str, *, source: str | None = None) -> Verdict:
    """Return the ``fidelity_lost`` verdict of a claim whose real-time runs lost their timing (no verdict drawn).

    Its column is :data:`paperlib.ledger.REAL_STACKS`, where a claim judged on the real stacks goes.

    ``reason`` gives the runs kept and the measured lateness and waiting (:data:`paperlib.ledger.STATUS_MEANINGS`).
    """
    return Verdict(ledger.FIDELITY_LOST, reason, None, ledger.REAL_STACKS, source)


class ClaimRegistry:
    """The claim functions of one paper, keyed by the claim ids of its ``claims.csv``.

    ``evidence`` (:data:`paperlib.ledger.EVIDENCE`) is what the paper's claims rest on unless a verdict names its
    own (a verdict in column :data:`paperlib.ledger.REAL_STACKS` rests on the real stacks).
    """

    def __init__(self, paper_id: str, evidence: str = "printed"):
        if evidence not in ledger.EVIDENCE:
            raise ClaimError(f"evidence must be one of {tuple(ledger.EVIDENCE)}, got {evidence!r}")
        self.paper_id = paper_id
        self.evidence = evidence
        self.functions: dict[str, Callable[..., Verdict]] = {}

    def claim(self, claim_id: str) -> Callable[[Callable[..., Verdict]], Callable[..., Verdict]]:
        """Register the decorated function as the judge of ``claim_id``."""

        def register(fn: Callable[..., Verdict]) -> Callable[..., Verdict]:
            if claim_id in self.functions:
                raise ClaimError(f"paper {self.paper_id}: claim {claim_id!r} has two functions "
                                 f"({self.functions[claim_id].__name__}, {fn.__name__})")
            self.functions[claim_id] = fn
            return fn

        return register

    def check_against(self, paper: Paper) -> None:
        """Raise :class:`ClaimError` unless the functions and the claim ids of ``claims.csv`` match one to one."""
        ids = list(paper.claims.cells["id"])
        missing = [i for i in ids if i not in self.functions]
        extra = [i for i in self.functions if i not in ids]
        if missing or extra:
            raise ClaimError(f"paper {self.paper_id}: data/{self.paper_id}/claims.csv ids without a function: "
                             f"{missing}; functions without a claim in the data: {extra}")

    def judge(self, claim_id: str, *args, **kwargs) -> tuple[Verdict, ...]:
        """Return the verdicts of one claim (one, or several told apart by their ``column``)."""
        if claim_id not in self.functions:
            raise ClaimError(f"paper {self.paper_id}: no function judges claim {claim_id!r}")
        found = self.functions[claim_id](*args, **kwargs)
        verdicts = (found,) if isinstance(found, Verdict) else tuple(found)
        if not verdicts or not all(isinstance(v, Verdict) for v in verdicts):
            raise ClaimError(f"paper {self.paper_id}: claim {claim_id!r} returned {found!r}, "
                             "not a Verdict or a non-empty tuple of them")
        return verdicts

    def rows(self, paper: Paper, *args, source: str | None = None, **kwargs) -> list[ledger.Row]:
        """Judge every claim of ``claims.csv`` (in its order) on the evidence; return the ledger rows.

        The row's ``source`` is the claim's printed location unless ``source`` is given, its ``row``
        the claim's text, its ``claim_id`` the claim's id, its ``published`` the printed number (empty when the
        claim has none).
        """
        self.check_against(paper)
        out = []
        for _, claim in paper.claims.cells.iterrows():
            for v in self.judge(claim["id"], *args, **kwargs):
                out.append(v.row(paper.paper, v.source or source or str(claim["location"]), str(claim["id"]),
                                 str(claim["claim"]), str(claim["printed"]), self.evidence))
        return out
