"""Paper 003: Vandalore et al., performance of bursty WWW (SPECweb96) sources over ATM ABR (slides).

Paper text: the paper cited in ``data/003/datapackage.json``; published data: ``data/003/``.
Notebook: ``notebooks/003_specweb96_abr.ipynb``.

Modules (no re-exports: import the module that holds a name):

=====================  ===================================================================
``workload``           the original and modified SPECweb96 workloads from the printed class
                       tables; exact moments against seeded samples
``corrections``        ``CORRECTIONS``: the three printed items read differently, each with its reason
                       (:mod:`paperlib.corrections` finds them)
``derived``            the stated inputs and every derived number of the slides under a
                       convention; the printed cells they are compared with
``convention``         ``Convention``: the type of the paper's one reading (a leaf module)
``operating_point``    the open conventions, the systematic search and the chosen one (``Convention``)
``tables``             the printed derived numbers beside their regenerated values
``findings``           users to fill a link, offered load per N, slopes, efficiency rounding
``claims``             ``CLAIMS``: one function per claim id of ``data/003/claims.csv``
``ledger_rows``        every ledger row: derived numbers, the results table, the claims
``what_if``            ``check(**parameters)`` of the notebook's parameters (a ``Parameters``)
``ns3``                the ABR experiment re-posed as TCP over a FIFO bottleneck in ns-3
``explore``            the interactive explorer: load per user against the think time and the share
                       of the largest class (:mod:`paperlib.explore`; ``notebooks/explorers.ipynb``)
``figures``            the notebook's figures, returned for the caller to save (colours from
                       :func:`paperlib.figures.style`)
``reproduce``          the notebook's stages: ``model`` and ``with_ns3`` (the analogue), each returning the
                       paper's ``Reproduction`` with the tables and figures it wrote
``verdict``            its ``CITATION``, the typed ``Facts`` of its finding and the finding's words
                       for the README and the report (:mod:`paperlib.verdicts`)
=====================  ===================================================================

Simulations: :func:`paperlib.sim.web_bottleneck.simulate` (ns-3), through :func:`paperlib.sweep.run_sweep`
(:func:`paperlib.reproduce.p003.ns3.run_analogue`), shown beside the published table and not scored. No
emulation. The package answers the calls of :mod:`paperlib.reproduce.protocol`.

Tests: ``tests/test_reproduce_p003_<module>.py`` (one per module), ``tests/test_sim_web_bottleneck.py``
(the ns-3 analogue), ``tests/test_models_specweb96.py`` (the workload model), ``tests/test_moments.py`` (the shared
moment check), ``tests/test_notebooks.py`` and ``tests/nbval/003_specweb96_abr.ipynb`` (the notebook).
"""

#: The figures the reference run keeps (``reference/figures/003/``) and ``docs/papers/003.md`` shows.
KEY_FIGURES = ("efficiency_queue_vs_n.png", "file_size_cdf.png")
#: Kinds of the notebook's parameters whose default is ``None`` (:func:`paperlib.parameters.kinds`).
PARAMETER_KINDS = {"within_class": "str"}
#: The quick profile's parameters (``make reproduce PROFILE=quick``, :mod:`paperlib.profiles`): the small values
#: the nbval fixtures use, ns-3 in the kernel.
QUICK_PARAMETERS = {"n_servers": [1, 2], "k_clients": 2, "repetitions": 2, "sim_time_s": 3.0, "warmup_s": 1.0,
                    "scheduler": "synchronous", "n_samples": 20000}
