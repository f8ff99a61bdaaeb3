"""Benchmark: count all 9,356 tilings of 6x10 by the 12 pentominoes.

Prints, each in a fresh process so the figures do not mix:
  * numba compile time (empty cache) and the cached load (must not recompile);
  * our count: the default symmetry-reduced search (what `kibitz tile --count` runs),
    the plain first-empty-cell bitboard search, and the generic dancing-links engine;
  * xcover (PyPI, the fastest Python exact-cover package we know) on the same options;
  * peak RSS of the counting process; wall time of `kibitz tile 6x10 --pieces pentominoes`.

Run: python bench/exact_cover.py [--repeat N] [--skip-xcover]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, resource, sys, time
mode = sys.argv[1]
from puzzles.polyomino import Region
from solvers.tiling import TilingProblem
from solvers.exact_cover import SearchLimits, _bitset_run, _dlx_run
problem = TilingProblem.from_spec(Region.from_spec("6x10"), "pentominoes")
start = time.perf_counter()
if mode == "warmup":
    TilingProblem.from_spec(Region.from_spec("3x5"), "I,L,P").counts()
    TilingProblem.from_spec(Region.from_spec("3x5"), "I,L,P").exact_cover_problem().count()
    TilingProblem.from_spec(Region.from_spec("3x5"), "I,L,P").counts(reduce_symmetry=False)
    count = None
elif mode == "reduced":
    count = problem.counts().raw
elif mode == "plain":
    count = problem.cover().count(SearchLimits()).count
elif mode == "dlx":
    count = problem.exact_cover_problem().count().count
elif mode == "xcover":
    from xcover import covers
    ecp = problem.exact_cover_problem()
    list(covers([["r0c0", "r0c1"], ["r0c0"], ["r0c1"]], primary=["r0c0", "r0c1"]))  # compile first
    start = time.perf_counter()
    count = sum(1 for _ in covers(ecp.options, primary=ecp.primary, secondary=ecp.secondary))
seconds = time.perf_counter() - start
stats = {"hits": sum(_bitset_run.stats.cache_hits.values()) + sum(_dlx_run.stats.cache_hits.values()),
         "misses": sum(_bitset_run.stats.cache_misses.values()) + sum(_dlx_run.stats.cache_misses.values())}
print(json.dumps({"mode": mode, "count": count, "seconds": seconds,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, **stats}))
"""


def child(mode: str, env: dict[str, str]) -> dict:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, env=env, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    data["process_seconds"] = time.perf_counter() - started
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-xcover", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="kibitz-numba-")
    cold = child("warmup", env)
    warm = child("warmup", env)
    print(f"numba compile (empty cache): {cold['seconds']:.2f} s; cached load: {warm['seconds']:.2f} s "
          f"(cache hits {warm['hits']}, misses {warm['misses']} -> {'no recompile' if warm['misses'] == 0 else 'RECOMPILED'})")
    results = {}
    modes = ["reduced", "plain", "dlx"] + ([] if args.skip_xcover else ["xcover"])
    for mode in modes:
        runs = [child(mode, env) for _ in range(args.repeat if mode != "dlx" else 1)]
        for run in runs:
            assert run["count"] == 9356, run
        best = min(runs, key=lambda r: r["seconds"])
        results[mode] = best
        print(f"{mode:8s} count={best['count']}  best {best['seconds']:.2f} s of {len(runs)}  peak RSS {best['rss_mb']:.0f} MB")
    if "xcover" in results:
        ratio = results["reduced"]["seconds"] / results["xcover"]["seconds"]
        plain = results["plain"]["seconds"] / results["xcover"]["seconds"]
        print(f"ours / xcover = {ratio:.3f} (target <= 0.5); plain bitboard search / xcover = {plain:.3f}")
    walls = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        subprocess.run(["kibitz", "tile", "6x10", "--pieces", "pentominoes"], capture_output=True, env=env, check=True)
        walls.append(time.perf_counter() - started)
    print(f"`kibitz tile 6x10 --pieces pentominoes` wall: best {min(walls):.2f} s, worst {max(walls):.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
