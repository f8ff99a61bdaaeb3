"""Shared plumbing of the ``bench/study_<game>.py`` scripts: sections saved one by one, so a run resumes.

A study is a few named sections; each is computed by a function and written into
``bench/results/study_<game>.json`` as soon as it is done, so an interrupted run (Ctrl-C, a crash)
keeps the finished sections and the next run computes only the missing ones (``--redo NAME`` forces
one again).  The notebooks in ``notebooks/`` load these files.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

RESULTS = Path(__file__).resolve().parent / "results"
T = TypeVar("T")


def progress(items: Iterable[T], label: str, total: int | None = None) -> Iterator[T]:
    """``items`` with a text progress bar on stderr (count, rate, ETA)."""
    yield from tqdm(items, desc=label, total=total, mininterval=2.0)


def run_study(game: str, sections: dict[str, Callable[[], Any]], description: str) -> dict[str, Any]:
    """Compute the sections of ``study_<game>.json`` not yet there (or named by ``--redo``), saving after each."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--redo", action="append", default=[], choices=sorted(sections),
                        help="compute this section again (repeatable)")
    args = parser.parse_args()
    path = RESULTS / f"study_{game}.json"
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("sections", {})
    for name, compute in sections.items():
        if name in data["sections"] and name not in args.redo:
            print(f"{name}: kept from {path.name}")
            continue
        start, cpu = time.perf_counter(), time.process_time()
        result = compute()
        data["sections"][name] = {"data": result, "seconds": round(time.perf_counter() - start, 1),
                                  "cpu_seconds": round(time.process_time() - cpu, 1)}
        data["machine"] = f"{platform.machine()}, {platform.python_version()}, 2 shared cores"
        path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")  # compact: data, not prose
        print(f"{name}: {data['sections'][name]['cpu_seconds']} CPU s -> {path}")
    return data
