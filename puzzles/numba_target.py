"""The CPU numba compiles for: the host's instruction set, with LLVM's generic x86-64 tuning.

numba compiles for the host CPU by name by default, and so takes LLVM's tuning for that model. On
the AMD EPYC (Zen 3, ``znver3``) this project is measured on, that tuning made mcts-rave's
searches 4-11% slower than LLVM's generic x86-64 tuning with the same instructions (the host's
features): its playouts are the hot loop (``bench/numba_target.py``, ``bench/results/numba_target.md``).
The searches are the same either way (their trees hash the same). So on x86-64 hosts
:func:`use_generic_tuning` sets ``NUMBA_CPU_NAME=x86-64`` and ``NUMBA_CPU_FEATURES`` to the host's
features, unless the user set either (their choice stands). Other hosts keep numba's default.

Like :mod:`puzzles.numba_cache` it runs before numba is imported when it can (worker processes
inherit the variables), and sets ``numba.config`` too when numba was imported already; a process
that compiled something before it keeps its first target.
"""

from __future__ import annotations

import os
import platform
import sys

#: LLVM's name of the generic x86-64 CPU (its tuning; the instructions come from the features).
GENERIC_X86 = "x86-64"
_X86_MACHINES = ("x86_64", "amd64")


def host_features() -> str:
    """The host CPU's features as LLVM names them (``+avx2,+bmi2,...``): what numba uses by default."""
    import llvmlite.binding as llvm

    return str(llvm.get_host_cpu_features().flatten())


def use_generic_tuning() -> bool:
    """Compile for the host's features with generic x86-64 tuning (see the module); True when set here."""
    if platform.machine().lower() not in _X86_MACHINES:
        return False
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return False  # the user's (or a parent process's) choice
    try:
        features = host_features()
    except (ImportError, RuntimeError):
        return False
    os.environ["NUMBA_CPU_NAME"] = GENERIC_X86
    os.environ["NUMBA_CPU_FEATURES"] = features
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba read the environment already
        config.CPU_NAME = GENERIC_X86  # type: ignore[attr-defined]
        config.CPU_FEATURES = features  # type: ignore[attr-defined]
    return True
