"""kibitz's command groups, one module per game; cli.py registers them on the root group."""

import cli  # noqa: F401  (load cli first: it imports these modules, and they import its helpers)
