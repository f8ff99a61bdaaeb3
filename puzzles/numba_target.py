"""The CPU numba compiles for: the host's instruction set, with LLVM's generic x86-64 tuning.

numba compiles for the host CPU by name by default, and so takes LLVM's tuning for that model. On
the AMD EPYC (Zen 3, ``znver3``) this project is measured on, that tuning made mcts-rave's
searches up to 12% slower (the Duo opening) than LLVM's generic x86-64 tuning with the same
instructions: its playouts are the hot loop (``bench/numba_target.py``, ``bench/results/numba_target.md``).
The searches are the same either way (their trees hash the same). So on x86-64 hosts
:func:`use_generic_tuning` sets ``NUMBA_CPU_NAME=x86-64``, unless the user set it or
``NUMBA_CPU_FEATURES`` (their choice stands). numba still takes the instructions from the host's
features (it asks LLVM for them when ``NUMBA_CPU_FEATURES`` is unset), so nothing is queried here and
importing :mod:`puzzles` loads no LLVM. Other hosts keep numba's default.

Like :mod:`puzzles.numba_cache` it runs before numba is imported when it can (worker processes
inherit the variable), and sets ``numba.config`` too when numba was imported already; a process
that compiled something before it keeps its first target.
"""

from __future__ import annotations

import os
import platform
import sys

#: LLVM's name of the generic x86-64 CPU (its tuning; the instructions come from the host's features).
GENERIC_X86 = "x86-64"
#: ``platform.machine()`` of the x86-64 hosts (lower case).
X86_MACHINES = ("x86_64", "amd64")


def use_generic_tuning() -> bool:
    """Compile for the host's features with generic x86-64 tuning (see the module); True when set here."""
    if platform.machine().lower() not in X86_MACHINES:
        return False
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return False  # the user's (or a parent process's) choice
    os.environ["NUMBA_CPU_NAME"] = GENERIC_X86
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba read the environment already
        config.CPU_NAME = GENERIC_X86  # type: ignore[attr-defined]
    return True
