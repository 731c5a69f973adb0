"""The shared record type of a paper's ns-3 runs."""

from dataclasses import FrozenInstanceError, dataclass

import pandas as pd
import pytest

from paperlib.sim.record import Simulations


@dataclass(frozen=True, eq=False)
class _Mine(Simulations):
    summary: pd.DataFrame


def test_a_paper_s_record_is_frozen_and_keeps_its_fields():
    frame = pd.DataFrame({"a": [1]})
    mine = _Mine(replications=3, summary=frame)
    assert mine.replications == 3 and mine.summary is frame
    with pytest.raises(FrozenInstanceError):
        mine.replications = 4


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_replications_must_be_a_whole_number_of_at_least_one(bad):
    with pytest.raises(ValueError, match="replications must be a whole number >= 1"):
        Simulations(replications=bad)
