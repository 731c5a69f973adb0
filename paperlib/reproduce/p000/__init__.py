"""Paper 000 (Y.-J. Lee): mean waiting time of m users, HTTP over SCTP vs TCP, narrowband network.

Source text: the paper cited in ``data/000/datapackage.json`` (published data in ``data/000/``).
Notebook: ``notebooks/000_multiuser_waiting.ipynb``.

Modules (the layout of :mod:`paperlib.reproduce`; the calls every paper package answers are in
:mod:`paperlib.reproduce.protocol`):

=====================  ===================================================================
``convention``         ``Convention``: the type of the paper's one reading (a leaf module)
``operating_point``    the nine printed blocks of Tables 1-3, theta and mtu, the printed cells,
                       E(T) per block, the convention search and the chosen/ledger ``Convention``
``model``              the only calls of ``paperlib.models.narrowband_response`` (Eq. (2)) and
                       of 002's packet/loss counts, with the switches a convention sets
``tables``             Tables 1-3 regenerated (W beside the print)
``findings``           Eq. (2)'s terms, departures from the printed algorithm, the law in m,
                       the 3.27 typo, the shared operating point, the loss-free bounds,
                       Fig. 2 and Eqs. (7)-(8) against schedules, Fig. 4, sensitivities
``diff_mean``          DIFF_mean (Eq. (9)) under the printed and the plausible definitions
``corrections``        ``CORRECTIONS``: the two printed items read differently, each with its reason
                       (:mod:`paperlib.corrections` finds them)
``claims``             ``CLAIMS``: one function per claim id of ``data/000/claims.csv``, judged on
                       the tables and, given their evidence, on the real stacks or ns-3
``ledger_rows``        ``ledger_rows``: every row (144 printed cells, the claims, the re-runs')
``what_if``            ``check`` of the notebook's parameters (``Parameters``); W against m at a
                       what-if point
``explore``            the interactive explorer: W or turnaround time against m, p or the rate
                       (:mod:`paperlib.explore`; ``notebooks/explorers.ipynb``)
``figures``            the notebook's figures (each function returns its Figure)
``ns3``                m users in ns-3 (TCP), the record ``Simulations``, its ledger cells
                       (``T_{tcp} (ns-3)``)
``emulated``           Tables 1-3's experiment re-run on real stacks through an emulated link,
                       the experimental cells scored against it
``stack``              the stacks' settings the model assumes (segment size, initial window, the
                       paper's own testbed), read by :mod:`paperlib.emulation`
``reproduce``          the notebook's stages: ``model``, ``with_ns3``, ``with_real_stacks``, each returning
                       the paper's ``Reproduction`` with the tables and figures it wrote
``verdict``            its ``CITATION``, the typed ``Facts`` of its finding and the finding's words
                       for the README and the report (:mod:`paperlib.verdicts`)
=====================  ===================================================================

Simulations and emulations: ``paperlib/sim/multiuser_narrowband.py`` (ns-3, via
:func:`paperlib.sweep.run_sweep`), ``paperlib/emulation/`` (real stacks). Models:
``paperlib/models/narrowband_response.py`` (Eq. (2)), ``paperlib/models/multiuser_waiting.py``
(Eqs. (3)-(8)), ``paperlib/models/lower_bounds.py``.

Tests: ``tests/test_reproduce_p000_<module>.py`` (one per module), the notebook in
``tests/test_notebook_000.py`` (and its nbval fixture ``tests/nbval/000_multiuser_waiting.ipynb``),
the ns-3 simulation itself in ``tests/test_sim_multiuser_narrowband.py``.
"""

from paperlib.reference import IntervalTable

#: The figures the reference run keeps (``reference/figures/000/``) and ``docs/papers/000.md`` shows.
KEY_FIGURES = ("figure4_waiting_times.png", "emulated_vs_published.png")
#: The real stacks' mean waiting times with their 95% half-widths (``emulated.summary``), compared with the
#: reference's by :mod:`paperlib.reference`.
REAL_STACK_INTERVALS = IntervalTable("emulated_tables.csv", keys=("table", "block", "m"),
                                     cells=(("emulated W SCTP (s)", "CI95 SCTP (s)"),
                                            ("emulated W TCP (s)", "CI95 TCP (s)")))
#: Kinds of the notebook's parameters whose default is ``None`` (:func:`paperlib.parameters.kinds`).
PARAMETER_KINDS = {"m_values": "integers", "p": "number", "rtt_s": "number", "rate_bps": "number",
                   "obj_size_bytes": "number", "mtu_bytes": "number"}
#: The quick profile's parameters (``make reproduce PROFILE=quick``, :mod:`paperlib.profiles`): the small values
#: the nbval fixtures use, ns-3 in the kernel.
QUICK_PARAMETERS = {"m_values": [1, 2, 8], "p": 0.02, "ns3_replications": 2, "ns3_users": [5],
                    "scheduler": "synchronous"}
