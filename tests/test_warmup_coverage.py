"""``kibitz warmup`` compiles every cached kernel of ``puzzles`` and ``solvers`` (solvers/warmup.py).

A kernel that no warm-up group runs compiles the first time a command needs it: a silent wait of seconds
for a person (the commands say "compiling ..." only for groups), and in a fresh checkout's test run a
compile in each test process that needs it.  Inlined helpers (``inline="always"``) are compiled into their
callers and have no cache entry of their own; :data:`NOT_WARMED` lists the kernels only tests and benchmarks
run, each with its reason.

The default test checks this process's cache directory (warmed by tests/conftest.py); the slow one runs
``kibitz warmup`` into an empty directory first, so that no kernel compiled by another test can hide a gap.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Cached kernels that no command runs (module.function -> why warmup leaves them).
NOT_WARMED: dict[str, str] = {
    "puzzles.towers.kernel.random_game_trace": "replays a kernel game in the Python rules: a cross-check for tests",
}

#: Modules that need an optional extra, skipped when it is missing.
OPTIONAL = ("solvers.openspiel", "solvers.pettingzoo")


def cached_kernels() -> dict[str, object]:
    """Every numba dispatcher with an on-disk cache defined in ``puzzles`` or ``solvers``, not inlined, by name."""
    from numba.core.registry import CPUDispatcher

    found: dict[str, object] = {}
    for package in ("puzzles", "solvers"):
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            try:
                module = importlib.import_module(info.name)
            except ImportError:
                if info.name.startswith(OPTIONAL):
                    continue
                raise
            for name, value in vars(module).items():
                if (isinstance(value, CPUDispatcher) and value.__module__ == info.name
                        and value.targetoptions.get("inline") != "always" and value._cache._enabled):
                    found[f"{info.name}.{name}"] = value
    return found


def unwarmed() -> list[str]:
    """The cached kernels whose cache entry is missing or was compiled from other sources."""
    missing = []
    for name, kernel in sorted(cached_kernels().items()):
        if name in NOT_WARMED:
            continue
        cache = kernel._cache  # type: ignore[attr-defined]
        index = Path(cache._cache_file._index_path)
        stamp = None
        if index.exists():
            with index.open("rb") as handle:
                pickle.load(handle)  # numba's version
                stamp, _ = pickle.loads(handle.read())
        if stamp != cache._impl.locator.get_source_stamp():
            missing.append(name)
    return missing


def test_every_cached_kernel_of_a_command_has_a_cache_entry() -> None:
    assert len(cached_kernels()) > 100  # the walk found the kernels
    assert unwarmed() == []


def test_the_not_warmed_kernels_exist() -> None:
    assert set(NOT_WARMED) <= set(cached_kernels())


@pytest.mark.slow
def test_warmup_alone_compiles_every_cached_kernel(tmp_path: Path) -> None:
    """``kibitz warmup`` into an empty cache directory (a cold compile: ~2 minutes), then the same check."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "cli", "warmup", "--quiet"], cwd=ROOT, env=env, check=True, timeout=900)
    check = "import json, tests.test_warmup_coverage as t; print(json.dumps(t.unwarmed()))"
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=300)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
