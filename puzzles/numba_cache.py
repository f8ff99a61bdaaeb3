"""numba's on-disk cache, keyed by the sources of every compiled module of the project.

numba refreshes the cached machine code of a function only when the function's own file
changes: a cached search that inlines or calls a kernel of another module (mcts-rave's
playouts call the move generator of ``puzzles/blokus/kernel.py``) would keep running the
old kernel after that kernel is edited.  :func:`use_source_keyed_cache` points numba's cache
(``NUMBA_CACHE_DIR``) at a directory named by a hash of every module of ``puzzles/`` and
``solvers/`` that holds compiled code, so that any kernel edit starts a fresh cache.

A module counts as compiled code when its text mentions ``numba``, ``njit`` or ``hot`` (the
compile options of :mod:`puzzles.blokus.kernel`, ``hot`` and ``hot_inline``); constants a
kernel reads are frozen into its machine code, so they belong in such modules too.

The directory is ``<root>/kibitz-numba-<hash>``; ``<root>`` is an explicit
``NUMBA_CACHE_DIR`` when one is set, else ``kibitz`` in the user's cache directory
(``$XDG_CACHE_HOME`` or ``~/.cache``; ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%``
on Windows).  When a new one is made, the sibling directories of other hashes not used for
:data:`STALE_SECONDS` are removed, and all but the :data:`KEEP` most recently used of those
not used for :data:`RECENT_SECONDS`.  The variable is set in ``os.environ`` before numba is
imported (and in ``numba.config`` when it already is), so worker processes inherit it.
Hashing reads the sources once per process: a few milliseconds.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import time
from functools import cache
from pathlib import Path

#: The project's top-level packages whose compiled modules make up the key (siblings of this package).
PACKAGES = ("puzzles", "solvers")
PREFIX = "kibitz-numba-"
#: A sibling cache directory unused for this long is removed when a new one is made.
STALE_SECONDS = 3600
#: The most keyed directories kept under one root (the one in use included) ...
KEEP = 8
#: ... except those used this recently (a process may be saving into one: numba fails if it goes meanwhile).
RECENT_SECONDS = 600
#: Words whose mention makes a module count as compiled code (substrings: a few extra modules do no harm).
_MARKERS = (b"numba", b"njit", b"hot")
_LEAF = re.compile(re.escape(PREFIX) + r"[0-9a-f]{16}")


def _python_files(folder: Path) -> list[Path]:
    """The ``.py`` files under ``folder`` (caches skipped), in a fixed order."""
    found: list[Path] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__" and not entry.name.startswith("."):
                    found += _python_files(Path(entry.path))
            elif entry.name.endswith(".py"):
                found.append(Path(entry.path))
    return sorted(found)


def source_key(base: Path | None = None) -> str:
    """A 16-hex-digit hash of the path (relative to ``base``) and text of every compiled module of the packages."""
    base = Path(__file__).resolve().parents[1] if base is None else base
    digest = hashlib.sha256()
    for package in PACKAGES:
        folder = base / package
        if not folder.is_dir():
            continue
        for path in _python_files(folder):
            text = path.read_bytes()
            if any(word in text for word in _MARKERS):
                digest.update(path.relative_to(base).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(text).digest())
    return digest.hexdigest()[:16]


def user_cache_root() -> Path:
    """``kibitz`` in the user's cache directory."""
    if sys.platform == "win32":
        home = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        home = Path.home() / "Library" / "Caches"
    else:
        home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "kibitz"


def cache_root() -> Path:
    """Where the keyed directories live: an explicit ``NUMBA_CACHE_DIR`` (the parent of one of ours,
    inherited from the process that set it), else :func:`user_cache_root`."""
    given = os.environ.get("NUMBA_CACHE_DIR", "")
    if not given:
        return user_cache_root()
    path = Path(given)
    return path.parent if _LEAF.fullmatch(path.name) else path


def prune(root: Path, keep: Path, now: float | None = None) -> list[Path]:
    """Remove the keyed directories under ``root`` other than ``keep`` that were unused for
    :data:`STALE_SECONDS` or (unused for :data:`RECENT_SECONDS`) are not among the :data:`KEEP` most
    recently used; return them."""
    now = time.time() if now is None else now
    used = []
    for entry in root.iterdir():
        if entry != keep and _LEAF.fullmatch(entry.name):
            try:
                used.append((entry.stat().st_mtime, entry))
            except OSError:
                continue  # removed meanwhile
    used.sort(reverse=True)
    removed = []
    for rank, (mtime, entry) in enumerate(used, start=1):
        if now - mtime > STALE_SECONDS or (rank >= KEEP and now - mtime > RECENT_SECONDS):
            shutil.rmtree(entry, ignore_errors=True)  # a process using it makes it again (numba does)
            removed.append(entry)
    return removed


def use_source_keyed_cache() -> Path | None:
    """Point numba's cache at the directory of the current sources (made, and marked used, now).

    Returns it, or None when it cannot be made (numba then caches beside the sources, as by default).
    Called by the ``__init__`` of both packages: the work is done once per process.
    """
    folder = _keyed_folder()
    if folder is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        config = sys.modules.get("numba.core.config")
        if config is not None:
            config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # numba read the environment already
    return folder


@cache
def _keyed_folder() -> Path | None:
    """The keyed directory of this process (made, marked used, its stale siblings pruned), or None."""
    folder = cache_root() / f"{PREFIX}{source_key()}"
    try:
        fresh = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # marks it used (see prune)
        if fresh:
            prune(folder.parent, folder)
    except OSError:
        return None
    return folder
