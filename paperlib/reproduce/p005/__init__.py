"""Paper 005: the questions of papers 000-004 asked of today's transports and today's page (issue 25).

=====================  ===================================================================
paper                  no seed: today's anchors in ``data/005/`` (Web Almanac 2024, RFCs 6928, 9002, 8446,
                       9000, 9001, 4960, Dukkipati et al. 2010, Langley et al. 2017), each with its source
                       and a verbatim quote (``data/005/README.md``)
notebook               ``notebooks/005_today_transports.ipynb``
model                  :mod:`paperlib.models.handshake`, :mod:`paperlib.models.web_page`,
                       :mod:`paperlib.models.page_transfer` (``docs/reconstruction-005.md``)
``transports``         the three families (``h2``, ``h3``, ``sctp``) named once: handshake, blocking reading,
                       label, the real stacks' page
``convention``         ``Convention``: the type of the paper's one reading (a leaf module)
``operating_point``    the page, the segment and the windows read from the data; the KB search (it ties: no
                       printed number depends on it), the fixed readings and the chosen ``Convention``
``tables``             the anchors as the package reads them: the page beside the printed weight, the
                       handshakes, the initial windows
``findings``           the model's grids: page load time per family, the IW10 gain, the loss crossover, the
                       narrowband what-if, the heat map's grid
``claims``             ``CLAIMS``: claims.csv's four and the package's questions (IW10 gain, QUIC's handshake
                       saving, head-of-line blocking of h2 against h3 and SCTP, papers 000's and 002's
                       SCTP-over-TCP claims re-asked), on the model and on the real stacks
``ledger_rows``        ``ledger_rows``: every anchor (``input`` or scored), Dukkipati's results, the claims;
                       given the real stacks' runs, the measured anchors and the claims judged on them
``what_if``            ``check`` of the notebook's parameters; the what-if grid (rate, RTT, loss, window, device)
``explore``            the interactive explorer (:mod:`paperlib.explore`; ``notebooks/explorers.ipynb``)
``figures``            page load time against loss, the IW10 gain heat map, the narrowband bars
``emulated``           today's page over HTTP/2, HTTP/3 and SCTP on real stacks through the emulated link
                       (:mod:`paperlib.emulation`, through :func:`paperlib.sweep.run_sweep`)
``replication_plan``   the real-stack questions' replications: a pilot, then power at the model's effect
                       (:mod:`paperlib.replications`)
simulations            none (no ns-3 run for 005: ``ledger_rows``'s ``simulations`` stays ``None``)
tests                  ``tests/test_reproduce_p005_<module>.py``, one per module above;
                       ``tests/test_models_{handshake,web_page,page_transfer}.py`` for the models
``reproduce``          the notebook's stages: ``model`` and ``with_real_stacks``, each returning the paper's
                       ``Reproduction`` with the tables and figures it wrote
``verdict``            the typed ``Facts`` of its finding and the finding's words
                       for the README and the report (:mod:`paperlib.verdicts`)
=====================  ===================================================================
"""

from paperlib.reference import IntervalTable

#: The figures the reference run keeps (``reference/figures/005/``) and ``docs/papers/005.md`` shows.
KEY_FIGURES = ("plt_vs_loss_real_stacks.png", "iw_gain_heatmap.png")
#: The real stacks' means with their 95% half-widths (``emulated.summary``: page load time, time to first byte,
#: handshake and protocol round trips), compared with the reference's by :mod:`paperlib.reference`.
REAL_STACK_INTERVALS = IntervalTable("emulated_summary.csv",
                                     keys=("protocol", "rate_bps", "rtt_s", "loss", "iw_segments"),
                                     cells=(("plt_mean_s", "plt_half_s"), ("ttfb_mean_s", "ttfb_half_s"),
                                            ("handshake_rtts_mean", "handshake_rtts_half"),
                                            ("protocol_rtts_mean", "protocol_rtts_half")))
#: The quick profile's parameters (``make reproduce PROFILE=quick``, :mod:`paperlib.profiles`): none, the model
#: runs in seconds at the notebook's defaults; EMULATION=off is all the profile changes.
QUICK_PARAMETERS = {}
