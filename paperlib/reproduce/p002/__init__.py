"""Paper 002 (Lee, Atiquzzaman, Sivagurunathan): mean response time of HTTP over SCTP vs TCP, wireless.

Source text: the paper cited in ``data/002/datapackage.json`` (published data in ``data/002/``).
Notebook: ``notebooks/002_http_sctp_response.ipynb``. Model: :mod:`paperlib.models.http_response_time`
(reconstruction in ``docs/reconstruction-002-000.md``).

Modules (each with its test module ``tests/test_reproduce_p002_<module>.py``):

=====================  ===================================================================
``convention``         ``Convention``: the type of the paper's one reading (a leaf module)
``operating_point``    Tables II-III's operating points from the text, the open conventions,
                       their search and the one chosen convention; the regenerated model rows
``model_reading``      the only calls of the model: the convention's switches handed to it
``tables``             the printed rows and Tables II-III with the regenerated model beside them
``findings``           the two tables' shared point, loss-free bounds, the algorithm's trace
``claims``             ``CLAIMS``: one function per claim id of ``data/002/claims.csv``, three of them
                       also judged on the real stacks when the evidence carries their measurements
``ledger_rows``        ``ledger_rows``: every ledger row, the 32 printed cells (against ns-3 and the
                       real stacks when given) and the claims
``what_if``            ``check`` of the notebook's parameters; the what-if curve against p
``explore``            the interactive explorer: mean response time against p, the RTT or the rate
                       (:mod:`paperlib.explore`; ``notebooks/explorers.ipynb``)
``figures``            the notebook's figures
``ns3``                the TCP scenario in ns-3 (:mod:`paperlib.sim.tcp_loss_transfer`)
``emulated``           Tables II-III's experiments on real stacks through the emulated link: the
                       sweep points and the table of emulated means the ledger and claims read
``stack``              the stacks' settings the model assumes (MSS, initial window, the paper's own
                       testbed), read by :mod:`paperlib.emulation`
``reproduce``          the notebook's stages: ``model``, ``with_ns3``, ``with_real_stacks``, each returning
                       the paper's ``Reproduction`` with the tables and figures it wrote
``verdict``            its ``CITATION``, the typed ``Facts`` of its finding and the finding's words
                       for the README and the report (:mod:`paperlib.verdicts`)
=====================  ===================================================================

Simulations and emulations (all through :func:`paperlib.sweep.run_sweep`): ns-3 TCP NewReno, every
distinct printed TCP point x ``repetitions`` (``ns3.run``); Linux TCP and usrsctp through the
package's link emulator (``emulated.points``, run by :func:`paperlib.emulation.notebook.run`).

Other tests that exercise this package: ``tests/test_models_http_response_time.py`` (the model),
``tests/test_ledger_coverage.py``, ``tests/test_emulation_experiments.py``, ``tests/test_reproduce_p002_explore.py``,
``tests/test_run_notebook.py``, ``tests/test_notebooks.py`` and ``tests/test_nbval.py`` (the notebook).
"""

from paperlib.reference import IntervalTable

#: The figures the reference run keeps (``reference/figures/002/``) and ``docs/papers/002.md`` shows.
KEY_FIGURES = ("response_vs_p_and_rtt.png", "emulated_vs_published.png")
#: The real stacks' mean response times with their 95% half-widths (``emulated.summary``), compared with the
#: reference's by :mod:`paperlib.reference`.
REAL_STACK_INTERVALS = IntervalTable("emulated_tables.csv", keys=("table", "column", "p", "rtt_s"),
                                     cells=(("emulated TCP (s)", "CI95 TCP (s)"),
                                            ("emulated SCTP (s)", "CI95 SCTP (s)")))
#: Kinds of the notebook's parameters whose default is ``None`` (:func:`paperlib.parameters.kinds`).
PARAMETER_KINDS = {"obj_size_bytes": "number", "rate_bps": "number", "rtt_s": "number"}
#: The quick profile's parameters (``make reproduce PROFILE=quick``, :mod:`paperlib.profiles`): the small values
#: the nbval fixtures use, ns-3 in the kernel.
QUICK_PARAMETERS = {"repetitions": 2, "scheduler": "synchronous"}
