"""Paper 003's notebook parameters: a bad one is named before anything is written."""

from pathlib import Path

import pytest

from paperlib.parameters import Parameters
from paperlib.reproduce.p003 import what_if
from paperlib.validate import ParameterError

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "003_specweb96_abr.ipynb"
GOOD = dict(within_class=None, n_samples=20_000, run_simulation=True, n_servers=[1, 2], k_clients=2, repetitions=2,
            sim_time_s=3.0, warmup_s=1.0, queue_limit_packets=20000, scheduler="synchronous", n_workers=None,
            seed=20261122)


def test_good_parameters_pass_and_come_back_as_parameters():
    checked = what_if.check(**GOOD)
    # the values as given, by name, in the notebook's order (dict(GOOD) is in that order)
    assert isinstance(checked, Parameters) and dict(checked) == GOOD and list(checked) == list(GOOD)
    assert what_if.check(**{**GOOD, "within_class": "binomial", "n_servers": 10})["within_class"] == "binomial"


def test_check_takes_the_notebook_parameters_keyword_only():
    # the notebook's parameters cell, minus the folders that paperlib.notebook.open_paper checks itself
    from paperlib.parameters import notebook_parameters

    names = [n for n in notebook_parameters(NOTEBOOK) if not n.endswith("_dir")]
    assert list(what_if.check(**GOOD)) == names
    with pytest.raises(TypeError):
        what_if.check(None, **{k: v for k, v in GOOD.items() if k != "within_class"})


@pytest.mark.parametrize("name, value", [
    ("within_class", "gaussian"), ("n_samples", 0), ("seed", -1), ("run_simulation", "yes"), ("n_servers", [1, 0]),
    ("k_clients", 1.5), ("k_clients", [1, 2]), ("repetitions", 0), ("queue_limit_packets", -3), ("sim_time_s", 0.0),
    ("warmup_s", -1.0)])
def test_a_bad_parameter_is_named(name, value):
    with pytest.raises(ParameterError, match=name):
        what_if.check(**{**GOOD, name: value})


def test_warm_up_must_end_before_the_run():
    with pytest.raises(ParameterError, match=r"warmup_s \(3.0\) must be below sim_time_s \(3.0\)"):
        what_if.check(**{**GOOD, "warmup_s": 3.0})
