"""Write a new paper's skeleton: ``python -m paperlib.new_paper`` (see :mod:`paperlib.new_paper`)."""

from paperlib.new_paper import main

raise SystemExit(main())
