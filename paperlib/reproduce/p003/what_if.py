"""Paper 003's notebook parameters: :func:`check` fails on a bad one, naming it, before anything is written.

The parameters span the what-if grid of the ns-3 analogue (N servers x repetitions, K clients per server,
simulated time, the FIFO limit; :func:`paperlib.reproduce.p003.ns3.analogue_points`) and the within-class
reading and sample size of the workload figures.
"""

from __future__ import annotations

from paperlib import validate
from paperlib.models.specweb96 import WITHIN_CLASS
from paperlib.parameters import Parameters


def check(*, within_class=None, n_samples, run_simulation, n_servers, k_clients, repetitions, sim_time_s, warmup_s,
          queue_limit_packets, scheduler=None, n_workers=None, seed) -> Parameters:
    """Return the 003 notebook's parameters, checked; raise naming the first bad one.

    ``within_class`` is ``None`` (the chosen convention's) or one of :data:`WITHIN_CLASS`; ``n_samples`` a
    positive integer; ``seed`` non-negative; the analogue's parameters are checked whether or not it runs
    (``run_simulation``), so a bad grid never waits for a later run to fail. ``scheduler`` and ``n_workers``
    are the sweep runner's and checked there.

    Returns
    -------
    paperlib.parameters.Parameters
        The values as given, by name, in the notebook's order.

    Raises
    ------
    paperlib.validate.ParameterError
        Naming the first bad parameter.
    """
    if within_class is not None:
        validate.choice("within_class", within_class, WITHIN_CLASS)
    validate.positive_integer("n_samples", n_samples)
    validate.non_negative("seed", seed)
    validate.flag("run_simulation", run_simulation)
    validate.positive_integer("n_servers", n_servers)
    validate.scalar("k_clients", k_clients, validate.positive_integer)
    validate.scalar("repetitions", repetitions, validate.positive_integer)
    validate.scalar("queue_limit_packets", queue_limit_packets, validate.positive_integer)
    if validate.scalar("warmup_s", warmup_s, validate.non_negative) >= validate.scalar("sim_time_s", sim_time_s,
                                                                                         validate.positive):
        raise validate.ParameterError(f"warmup_s ({warmup_s}) must be below sim_time_s ({sim_time_s})")
    return Parameters({
        "within_class": within_class, "n_samples": n_samples, "run_simulation": run_simulation,
        "n_servers": n_servers, "k_clients": k_clients, "repetitions": repetitions, "sim_time_s": sim_time_s,
        "warmup_s": warmup_s, "queue_limit_packets": queue_limit_packets, "scheduler": scheduler,
        "n_workers": n_workers, "seed": seed,
    })
