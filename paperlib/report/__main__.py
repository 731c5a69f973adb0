from paperlib.report.build import main

raise SystemExit(main())
