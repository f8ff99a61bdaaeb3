"""Benchmark: the perfect shelf (CP-SAT) for a sample of personal card / common goal pairs.

Prints, per instance, the best score found, CP-SAT's proven upper bound, whether optimality was
proven and the time.  Run: /work/venv/bin/python bench/shelfie_best_shelf.py [--count N] [--time-limit S]
(--all runs all 12 x 66 instances: hours).
"""

from __future__ import annotations

import argparse
import itertools
import random

from puzzles.shelfie.rules import COMMON_GOAL_KEYS
from solvers.shelfie_best_shelf import best_shelf


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    instances = [(card, pair) for card in range(1, 13) for pair in itertools.combinations(COMMON_GOAL_KEYS, 2)]
    if not args.all:
        instances = random.Random(args.seed).sample(instances, args.count)
    proven = 0
    for card, pair in instances:
        r = best_shelf(card, pair, time_limit=args.time_limit, workers=args.workers)
        proven += r.optimal
        print(f"card {card:2d} {pair[0]:>26s} + {pair[1]:<26s} score {r.score:3d} bound {r.bound:5.1f} "
              f"{'OPTIMAL' if r.optimal else 'gap':7s} {r.seconds:5.1f} s  {'/'.join(r.shelf.rows())}", flush=True)
    print(f"proven optimal: {proven} of {len(instances)} within {args.time_limit:g} s each")


if __name__ == "__main__":
    main()
