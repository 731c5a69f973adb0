"""Paper 005: the questions of papers 000-004 asked of today's transports and today's page (issue 25).

Its "published" numbers are today's anchors in ``data/005/`` (Web Almanac 2024, RFCs 6928, 9002, 8446,
9000, 9001, 4960, Dukkipati et al. 2010, Langley et al. 2017), each with its source and a verbatim quote;
its models are :mod:`paperlib.models.handshake`, :mod:`paperlib.models.web_page` and
:mod:`paperlib.models.page_transfer` (``docs/reconstruction-005.md``). :mod:`.transports` names the three
transport families once for the models and the real stacks.
"""
