"""One package per paper, ``paperlib.reproduce.p<id>`` for each ``data/<id>/``, all with the same named parts.

Every paper package has these modules (a part a paper does not have is absent, never renamed):

=====================  ===================================================================
``__init__``           the map: seed file, notebook, the package's modules, the simulations
                       and emulations it runs, and the test modules that check it (docstring)
``convention``         ``Convention``: the type of the paper's one reading (a frozen dataclass
                       of its conventions' axes), a leaf of the package (no import cycle)
``operating_point``    the paper's operating point(s) read from ``data/<id>/`` and the
                       conventions (the one reading of the paper applied to every row, and
                       the search that chose it)
``tables``             the published tables regenerated
``findings``           the paper's other results re-derived: text values, figures' data,
                       checks of the printed numbers (bounds, typos)
``claims``             ``CLAIMS``: one function per claim id of ``data/<id>/claims.csv``
                       (:class:`paperlib.claims.ClaimRegistry`)
``ledger_rows``        every ledger row of the paper: tables, text results, claims
``what_if``            ``check(**parameters)`` for the notebook's parameters and the what-if
                       grids the parameters span
``figures``            the notebook's plotting helpers (colours from :func:`paperlib.figures.style`)
``explore``            ``explorer()``: the paper's interactive explorer (:class:`paperlib.explore.Explorer`),
                       found by :mod:`paperlib.explore` by its file
``verdict``            ``finding(rows)``: the paper's finding in words for the README and the report, from
                       the typed ``Facts`` that ``facts(rows)`` reads from the ledger's structured columns;
                       ``CITATION`` (:class:`paperlib.verdicts.Citation`, ``None`` without a seed)
``reproduce``          the paper's stages, the calls its notebook makes: ``model(run)``, and
                       ``with_ns3(run, r, ...)`` / ``with_real_stacks(run, r, ...)`` where the paper
                       has an ``ns3`` / ``emulated`` part; each returns the paper's ``Reproduction``
                       (:class:`paperlib.reproduction.Reproduction`) with what it wrote
=====================  ===================================================================

plus the parts only one paper has, named for what they are (``emulated`` for a real-stack
re-run, ``ns3`` for an ns-3 check, ``testbed`` / ``workload`` / ``calibration`` for 001's
simulated testbed). A notebook opens with :func:`paperlib.notebook.open_paper`, calls the stages of
``reproduce``, shows what they return, and closes with :func:`paperlib.notebook.close_paper`. Each module has one
test module, named after it: ``paperlib/reproduce/p<id>/tables.py`` -> ``tests/test_reproduce_p<id>_tables.py``.

The package's ``__init__`` declares what the reference run keeps (:mod:`paperlib.reference`): ``KEY_FIGURES``,
the figures of ``figures/<id>/`` that ``reference/`` holds and ``docs/papers/<id>.md`` shows, and, for a paper
with real stacks, ``REAL_STACK_INTERVALS``, its table of means with 95% half-widths
(:class:`paperlib.reference.IntervalTable`) that ``make reproduce`` compares with the reference's. It also declares
``PARAMETER_KINDS``, the kinds of its notebook's parameters whose default is ``None``
(:func:`paperlib.parameters.kinds`), and ``QUICK_PARAMETERS``, the quick profile's values (:mod:`paperlib.profiles`).

Everything else a shared module needs of a paper is a part of its package, found by :mod:`paperlib.registry`, never
by a paper id written in the shared module (``tests/test_owner.py``): ``corrections`` (``CORRECTIONS``, the printed
typos read differently, :mod:`paperlib.corrections`), ``stack`` (``tcp_settings()``, ``app_settings(transport)``
and ``TESTBED``: the stacks' settings the model assumes, read by :mod:`paperlib.emulation`), ``verdict``
(:mod:`paperlib.verdicts`).
"""
