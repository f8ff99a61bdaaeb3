"""Cold compile time of every kernel group (``kibitz warmup``'s groups, solvers/warmup.py), and of its slowest kernels.

Each group is compiled alone, in a fresh process with an empty cache directory, so its time is what a user
waits the first time that group is needed (wall seconds, and the process's CPU seconds, steadier on a shared
machine); then once more from the cache (a warm load).  The kernels' own
compile times come from numba's compile events: inclusive (a kernel's time includes the kernels it inlines or
calls that were compiled for it) and, with ``--self``, exclusive (without the kernels compiled inside it; numba
still re-optimizes and emits every callee's code again inside each caller, so a wrapper over big kernels costs
about a second).  The project's kernels compiled for more than one signature are listed after the group (a
literal argument such as ``f(x, 0)`` compiles a ``Literal[int](0)`` copy; type inference may also compile one
on its way to ``int64``, then discard it).  Then the whole ``kibitz warmup`` is timed cold.

    python bench/compile_times.py [GROUP ...] [--top 5] [--self] [--no-warmup]

Results and what was cut: bench/results/compile_times.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
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
stack, kernels = [], []
for stamp, ev in record.buffer:  # compile events nest: a kernel's callees compile inside it
    if ev.is_start:
        stack.append([stamp, 0.0])
        continue
    begun, inner = stack.pop()
    if stack:
        stack[-1][1] += stamp - begun
    function = ev.data["dispatcher"].py_func
    kernels.append([stamp - begun, stamp - begun - inner, f"{function.__module__}.{function.__qualname__}",
                    str(ev.data.get("args"))])
print(json.dumps({"wall": wall, "kernels": sorted(kernels, reverse=True)}))
"""


def run_group(name: str, cache: Path) -> dict:
    """Compile group ``name`` in a fresh process using ``cache`` as numba's cache root; its result, with ``cpu``
    the process's CPU seconds (user + system: steadier than the wall time on a shared machine)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", CHILD, name], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "cpu": cpu}


def slowest(kernels: list, top: int, by_self: bool) -> str:
    """The ``top`` slowest kernels, by inclusive or by exclusive (``by_self``) compile seconds."""
    ranked = sorted(kernels, key=lambda k: k[1] if by_self else k[0], reverse=True)[:top]
    return ", ".join(f"{name.rsplit('.', 1)[-1]} {(own if by_self else total):.1f}" for total, own, name, _ in ranked)


def repeated(kernels: list) -> str:
    """The project's kernels compiled more than once (several signatures), with how many times."""
    counts = Counter(name for _, _, name, _ in kernels if name.startswith(("puzzles.", "solvers.")))
    return ", ".join(f"{name.rsplit('.', 1)[-1]} x{n}" for name, n in counts.most_common() if n > 1)


def main() -> None:
    from solvers.warmup import GROUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", default=list(GROUPS))
    parser.add_argument("--top", type=int, default=5, help="Slowest kernels shown per group.")
    parser.add_argument("--self", action="store_true", help="Rank kernels by exclusive compile seconds.")
    parser.add_argument("--no-warmup", action="store_true", help="Skip timing the whole 'kibitz warmup'.")
    args = parser.parse_args()
    kind = "exclusive" if args.self else "inclusive"
    print(f"{'group':<10} {'cold s':>7} {'cpu s':>6} {'warm s':>7} {'kernels':>8}  slowest kernels ({kind} compile s)")
    for name in args.groups:
        cache = Path(tempfile.mkdtemp(prefix="kibitz-compile-"))
        try:
            cold = run_group(name, cache)
            warm = run_group(name, cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        top = slowest(cold["kernels"], args.top, args.self)
        print(f"{name:<10} {cold['wall']:7.1f} {cold['cpu']:6.1f} {warm['wall']:7.1f} {len(cold['kernels']):8d}  {top}",
              flush=True)
        again = repeated(cold["kernels"])
        if again:
            print(f"{'':<43}compiled more than once: {again}", flush=True)
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
