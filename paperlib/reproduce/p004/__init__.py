"""Paper 004, Lee & Atiquzzaman: web object transfer latency over SCTP in the initial slow-start phase.

=====================  ===================================================================
paper                  the paper cited in ``data/004/datapackage.json``; published data in ``data/004/``
notebook               ``notebooks/004_slow_start_latency.ipynb``
model                  :mod:`paperlib.models.slow_start_latency` (Eqs. (1)-(6)), checked against
                       the brute-force schedule :mod:`paperlib.models.slow_start_schedule`
``convention``         ``Convention``: the type of the paper's one reading (a leaf module)
``operating_point``    Table II's stated parameters, the open conventions, their search and the chosen
                       ``Convention``
``tables``             Table II's model columns regenerated, beside the printed table
``findings``           the "mean difference" definitions, the TCP-SCTP gap, the loss-free bounds,
                       Fig. 1's alpha, the notebook's summary
``claims``             ``CLAIMS``: ``within_4_percent``, ``tcp_two_rtt_larger`` (published table or
                       real stacks)
``ledger_rows``        ``ledger_rows``: Table II's 20 cells, Fig. 1's alpha, the claims; given the real
                       stacks' runs, the experimental cells scored against them and the claims judged on them
``what_if``            ``check`` of the notebook's parameters; latency against rate and initial window,
                       the closed form against the schedule
``explore``            the interactive explorer: latency against the rate, T_r, the object size or x
                       (:mod:`paperlib.explore`; ``notebooks/explorers.ipynb``)
``tutorial``           the tutorial's steps (``notebooks/tutorial.ipynb``): Table II's ledger rows under a
                       changed convention, the rows it moves
``figures``            latency vs bandwidth, vs initial window, the real stacks' Table II
``emulated``           Table II's experiment re-run on Linux TCP and usrsctp through the emulated link
                       (:mod:`paperlib.emulation`, through :func:`paperlib.sweep.run_sweep`), and the
                       points of the packet-capture cross-check
``stack``              the stacks' settings the model assumes (L_mtu, initial window x, the paper's
                       own testbed), read by :mod:`paperlib.emulation`
simulations            none (no ns-3 run for 004: ``ledger_rows``'s ``simulations`` stays ``None``)
tests                  ``tests/test_reproduce_p004_<module>.py``, one per module above;
                       ``tests/test_models_slow_start_latency.py`` for the model
``reproduce``          the notebook's stages: ``model`` and ``with_real_stacks``, each returning the paper's
                       ``Reproduction`` with the tables and figures it wrote
``verdict``            its ``CITATION``, the typed ``Facts`` of its finding and the finding's words
                       for the README and the report (:mod:`paperlib.verdicts`)
=====================  ===================================================================
"""

from paperlib.reference import IntervalTable

#: The figures the reference run keeps (``reference/figures/004/``) and ``docs/papers/004.md`` shows.
KEY_FIGURES = ("latency_vs_bandwidth.png", "emulated_vs_published.png")
#: The real stacks' mean latencies with their 95% half-widths (``emulated.summary``), compared with the
#: reference's by :mod:`paperlib.reference`.
REAL_STACK_INTERVALS = IntervalTable("emulated_table2.csv", keys=("BANDWIDTH",),
                                     cells=(("emulated SCTP (s)", "CI95 SCTP (s)"),
                                            ("emulated TCP (s)", "CI95 TCP (s)")))
#: Kinds of the notebook's parameters whose default is ``None`` (:func:`paperlib.parameters.kinds`).
PARAMETER_KINDS = {"obj_size_bytes": "number", "mtu_bytes": "number", "rtt_s": "number", "initial_window": "integer",
                   "initial_windows": "integers", "rates_bps": "numbers"}
#: The quick profile's parameters (``make reproduce PROFILE=quick``, :mod:`paperlib.profiles`): none, the model
#: runs in seconds at the notebook's defaults; EMULATION=off is all the profile changes.
QUICK_PARAMETERS = {}
