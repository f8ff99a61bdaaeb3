"""Cold compile time of every kernel group (``kibitz warmup``'s groups, solvers/warmup.py), and of its slowest kernels.

Each group is compiled alone, in a fresh process with an empty cache directory, so its time is what a user
waits the first time that group is needed; then once more from the cache (a warm load).  The kernels' own
compile times come from numba's compile events (inclusive: a kernel's time includes the kernels it inlines or
calls that were compiled for it).  Then the whole ``kibitz warmup`` is timed cold.

    python bench/compile_times.py [GROUP ...] [--top 5] [--no-warmup]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
import puzzles
from numba.core import event
from solvers.warmup import compile_group
started = time.perf_counter()
with event.install_recorder("numba:compile") as record:
    compile_group(sys.argv[1])
wall = time.perf_counter() - started
opened, kernels = {}, []
for stamp, ev in record.buffer:
    key = (id(ev.data["dispatcher"]), str(ev.data.get("args")))
    if ev.is_start:
        opened[key] = stamp
    else:
        function = ev.data["dispatcher"].py_func
        kernels.append([stamp - opened.pop(key), f"{function.__module__}.{function.__qualname__}"])
print(json.dumps({"wall": wall, "kernels": sorted(kernels, reverse=True)}))
"""


def run_group(name: str, cache: Path) -> dict:
    """Compile group ``name`` in a fresh process using ``cache`` as numba's cache root."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD, name], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    from solvers.warmup import GROUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", default=list(GROUPS))
    parser.add_argument("--top", type=int, default=5, help="Slowest kernels shown per group.")
    parser.add_argument("--no-warmup", action="store_true", help="Skip timing the whole 'kibitz warmup'.")
    args = parser.parse_args()
    print(f"{'group':<10} {'cold s':>7} {'warm s':>7} {'kernels':>8}  slowest kernels (inclusive compile s)")
    for name in args.groups:
        cache = Path(tempfile.mkdtemp(prefix="kibitz-compile-"))
        try:
            cold = run_group(name, cache)
            warm = run_group(name, cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        slowest = ", ".join(f"{kernel.rsplit('.', 1)[-1]} {seconds:.1f}" for seconds, kernel in cold["kernels"][:args.top])
        print(f"{name:<10} {cold['wall']:7.1f} {warm['wall']:7.1f} {len(cold['kernels']):8d}  {slowest}", flush=True)
    if not args.no_warmup:
        cache = Path(tempfile.mkdtemp(prefix="kibitz-compile-"))
        try:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "from cli import main; main()", "warmup", "--quiet"], cwd=ROOT,
                           env={**os.environ, "NUMBA_CACHE_DIR": str(cache)}, check=True, capture_output=True)
            print(f"kibitz warmup, cold, all groups on {os.cpu_count()} cores: {time.perf_counter() - started:.1f} s")
        finally:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
