"""Build the report site: ``python -m paperlib.report`` (see :mod:`paperlib.report.build`)."""

from paperlib.report.build import main

raise SystemExit(main())
