"""``python -m polibench`` is the same as the ``polibench`` console script."""

from polibench.cli.main import main

raise SystemExit(main())
