"""Bench: the tetromino rectangle (10x8, 4 colors): find one per backend; count rate and Knuth estimate.

Usage: python bench/solitaire_tetrominoes.py [--sample 20] [--probes 1000000]
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.polyomino import Region
from solvers.blokus.tetrominoes import BitColorCounter, ColoredTilingProblem, estimate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=20, help="random depth-7 subproblems to time")
    parser.add_argument("--probes", type=int, default=1_000_000)
    args = parser.parse_args()
    BitColorCounter(ColoredTilingProblem(Region.rectangle(4, 5), 1)).count()  # compile kernels first
    for backend in ("dlx", "bitset", "sat", "cpsat"):
        problem = ColoredTilingProblem(Region.rectangle(10, 8))
        start = time.perf_counter()
        pieces = problem.find(backend, workers=2, time_limit=120)
        print(f"find 10x8 with {backend}: {time.perf_counter() - start:.2f} s, {len(pieces)} pieces, verified")
    problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    start = time.perf_counter()
    try:
        pieces = problem.find("bitset", time_limit=30)
        print(f"find 10x8 --corner-contact (bitset restarts): found in {time.perf_counter() - start:.2f} s")
    except TimeoutError:
        print(f"find 10x8 --corner-contact (bitset restarts): none within {time.perf_counter() - start:.0f} s")

    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    for depth in (1, 2, 3):
        print(f"split depth {depth}: {len(problem.split(depth))} subproblems")
    est = estimate(problem, args.probes, seed=0)
    print(f"Knuth estimate ({args.probes} probes, {est['seconds']:.1f} s): raw tilings ≈ {est['count_estimate']:.3g} "
          f"± {est['count_stderr']:.2g}, bitboard nodes ≈ {est['nodes_estimate']:.3g}")
    # node rate on random deep subproblems
    counter = BitColorCounter(problem)
    rng = random.Random(0)
    total_nodes = 0
    start = time.perf_counter()
    for _ in range(args.sample):
        total_nodes += counter.count(problem.random_prefix(7, rng.randrange(10**9)))[1]
    seconds = time.perf_counter() - start
    rate = total_nodes / max(seconds, 1e-9)
    print(f"bitboard kernel: {total_nodes} nodes in {seconds:.2f} s = {rate / 1e6:.2f} M nodes/s (one core)")
    print(f"full count estimate: {est['nodes_estimate'] / rate / 3600 / 24:.3g} core-days "
          f"({len(problem.split(3))} depth-3 subproblems, ≈ {est['nodes_estimate'] / rate / len(problem.split(3)) / 3600:.2g} h each)")


if __name__ == "__main__":
    main()
