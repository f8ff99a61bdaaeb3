"""Load a script of ``bench/`` as a module (bench/ is not a package), for tests of its functions."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py`` as a module, loaded afresh."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
