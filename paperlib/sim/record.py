"""The type every paper's record of its ns-3 runs shares (``paperlib.reproduce.p<id>.ns3.Simulations``).

A paper package with an ``ns3`` module answers ``ns3.run(paper, conv, *, replications, cache_dir, seed,
scheduler=None, n_workers=None, ...) -> Simulations`` and ``ns3.summary(simulations) -> DataFrame``
(:mod:`paperlib.reproduce.protocol`); its ``Simulations`` subclasses :class:`Simulations` with what its ledger rows
and figures read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class Simulations:
    """A paper's record of its ns-3 runs: ``replications`` seeded runs per point (the sweep runner's, cached by
    parameters and code version). Frozen; compared by identity (its fields hold frames)."""

    replications: int

    def __post_init__(self):
        if isinstance(self.replications, bool) or not isinstance(self.replications, int) or self.replications < 1:
            raise ValueError(f"replications must be a whole number >= 1, got {self.replications!r}")
