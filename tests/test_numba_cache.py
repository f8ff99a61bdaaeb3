"""numba's on-disk cache is keyed by the sources of every compiled module (puzzles/numba_cache.py).

The end-to-end test copies the packages, compiles a cached function of one module that calls
a kernel of another (``puzzles.blokus.kernel.color_score``), edits that kernel in the copy and
runs again: the cached caller must use the edit.  With numba's own per-file cache (the keyed
directory switched off) the same steps run the stale kernel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import puzzles  # noqa: F401  # sets the cache directory of this process
from puzzles import numba_cache

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''"""A cached function of this module calling a kernel of another (the cache test writes it)."""
import numpy as np
from numba import njit

from puzzles.blokus import kernel as K


@njit(cache=True)
def probe():
    left = np.zeros((1, 21), dtype=np.uint8)  # every piece placed ...
    last = np.zeros(1, dtype=np.int32)  # ... the monomino (piece 0 here) last: 20 points
    return K.color_score(0, left, last, np.ones(21, dtype=np.int32), 0)
'''

RUN = """
import json, os, puzzles
from solvers.cache_probe import probe
value = probe()
print(json.dumps({"value": int(value), "hits": sum(probe.stats.cache_hits.values()),
                  "module": puzzles.__file__, "cache": os.environ.get("NUMBA_CACHE_DIR", "")}))
"""


def copy_packages(dest: Path) -> Path:
    """A copy of ``puzzles`` and ``solvers`` (no caches) with the probe module added."""
    for package in numba_cache.PACKAGES:
        shutil.copytree(ROOT / package, dest / package, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "solvers" / "cache_probe.py").write_text(PROBE)
    return dest


def run_probe(src: Path, cache: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-c", RUN], cwd=src, env=env, capture_output=True, text=True, check=True)
    report: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert str(report["module"]).startswith(str(src))  # the copy ran, not the checkout
    return report


def edit_kernel(src: Path) -> None:
    kernel = src / "puzzles" / "blokus" / "kernel.py"
    text = kernel.read_text()
    assert text.count("return 20 if") == 1
    kernel.write_text(text.replace("return 20 if", "return 21 if"))


def test_a_kernel_edit_reaches_the_cached_caller_of_another_module(tmp_path: Path) -> None:
    src = copy_packages(tmp_path / "src")
    cache = tmp_path / "cache"
    first = run_probe(src, cache)
    assert first["value"] == 20
    assert Path(str(first["cache"])).parent == cache  # nested under the explicit NUMBA_CACHE_DIR
    again = run_probe(src, cache)
    assert (again["value"], again["cache"]) == (20, first["cache"])
    assert again["hits"] == 1  # unchanged sources: the cached code is used
    edit_kernel(src)
    edited = run_probe(src, cache)
    assert edited["value"] == 21
    assert edited["cache"] != first["cache"]
    assert edited["hits"] == 0


@pytest.mark.slow  # the control experiment; by default: the edit with the key
def test_without_the_key_the_cached_caller_runs_the_old_kernel(tmp_path: Path) -> None:
    src = copy_packages(tmp_path / "src")
    keyed = src / "puzzles" / "numba_cache.py"
    text = keyed.read_text()
    # switch the keyed directory off: numba caches beside the sources, keyed by each file alone
    keyed.write_text(text.replace('    folder = _keyed_folder()\n', '    folder = None\n'))
    cache = tmp_path / "cache"
    assert run_probe(src, cache)["value"] == 20
    edit_kernel(src)
    stale = run_probe(src, cache)
    assert (stale["value"], stale["hits"]) == (20, 1)  # the edit is not seen


def test_this_process_uses_the_keyed_directory() -> None:
    import numba

    folder = Path(os.environ["NUMBA_CACHE_DIR"])
    assert folder == numba_cache.use_source_keyed_cache()  # the directory made at import (sources may change since)
    assert folder.parent == numba_cache.cache_root()
    assert folder.name.startswith(numba_cache.PREFIX)
    assert str(folder) == numba.config.CACHE_DIR
    assert folder.is_dir()


def test_the_root_is_an_explicit_dir_or_the_parent_of_an_inherited_one(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert numba_cache.cache_root() == tmp_path
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kibitz-numba-0123456789abcdef"))
    assert numba_cache.cache_root() == tmp_path
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform not in ("win32", "darwin"):
        assert numba_cache.cache_root() == tmp_path / "xdg" / "kibitz"


def test_prune_removes_stale_keyed_siblings_and_keeps_the_most_recent(tmp_path: Path) -> None:
    now = time.time()
    keep, fresh, stale, other = (tmp_path / name for name in (
        "kibitz-numba-aaaaaaaaaaaaaaaa", "kibitz-numba-bbbbbbbbbbbbbbbb", "kibitz-numba-cccccccccccccccc", "mine"))
    for folder in (keep, fresh, stale, other):
        folder.mkdir()
        (folder / "x.nbi").write_bytes(b"")
    old = now - numba_cache.STALE_SECONDS - 10
    for folder in (keep, stale, other):
        os.utime(folder, (old, old))
    assert numba_cache.prune(tmp_path, keep, now) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (keep, fresh, other))
    recent = [tmp_path / f"kibitz-numba-{i:016x}" for i in range(numba_cache.KEEP + 2)]
    os.utime(fresh, (now, now))
    for age, folder in enumerate(recent, start=1):
        folder.mkdir()
        os.utime(folder, (now - age, now - age))
    assert numba_cache.prune(tmp_path, keep, now) == []  # all used in the last minutes
    for age, folder in enumerate(recent, start=1):
        os.utime(folder, (now - numba_cache.RECENT_SECONDS - age,) * 2)
    # KEEP directories stay: ``keep`` (in use), ``fresh`` and the KEEP - 2 most recent others
    assert numba_cache.prune(tmp_path, keep, now) == recent[numba_cache.KEEP - 2:]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([keep.name, fresh.name, other.name]
                                                                + [p.name for p in recent[:numba_cache.KEEP - 2]])


def test_the_key_follows_compiled_sources_only(tmp_path: Path) -> None:
    for package in numba_cache.PACKAGES:
        (tmp_path / package).mkdir()
    kernel = tmp_path / "puzzles" / "k.py"
    plain = tmp_path / "solvers" / "plain.py"
    kernel.write_text("from numba import njit\n")
    plain.write_text("X = 1\n")
    key = numba_cache.source_key(tmp_path)
    plain.write_text("X = 2\n")
    assert numba_cache.source_key(tmp_path) == key
    kernel.write_text("from numba import njit\nY = 1\n")
    assert numba_cache.source_key(tmp_path) != key
