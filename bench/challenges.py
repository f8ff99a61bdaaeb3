"""Bench: ten unique-solution tiling challenges of medium difficulty (target ≤ 60 s).

Run: python bench/challenges.py [--count 10] [--difficulty medium] [--pieces pentominoes]
"""

from __future__ import annotations

import argparse
import time

from solvers.challenges import generate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--pieces", default="pentominoes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    found = list(generate(args.count, args.difficulty, args.pieces, args.seed))
    seconds = time.perf_counter() - start
    nodes = [ch.nodes for ch in found]
    print(f"{len(found)} {args.difficulty} {args.pieces} challenges in {seconds:.2f} s "
          f"(seeds tried {found[-1].seed - args.seed + 1}); difficulty nodes {min(nodes)}..{max(nodes)}; "
          f"areas {min(ch.region.area for ch in found)}..{max(ch.region.area for ch in found)} cells")


if __name__ == "__main__":
    main()
