"""Benchmark: the perfect shelf (CP-SAT) for a sample of personal card / common goal pairs.

Prints, per instance, the best score, the proven upper bound, whether optimality was proven, the
time and the number of CP-SAT pieces.  The default set is three of the hardest pairs plus
``--count`` sampled pairs.  Target: every pair proven optimal in <= 30 s on 2 cores.
Run: /work/venv/bin/python bench/shelfie_best_shelf.py [--count N] [--time-limit S] [--seed S]
(--all runs all 12 x 66 instances: about an hour; --log FILE appends one JSON line per instance and skips
the instances already in it, so an interrupted sweep resumes; --pairs A+B,... runs chosen goal pairs for all
12 cards; --no-goal-lemmas solves without the stored lemmas of solvers/shelfie/goal_bounds.py).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from pathlib import Path

from puzzles.shelfie.rules import COMMON_GOAL_KEYS
from solvers.shelfie.best_shelf import best_shelf

HARD = [  # the slowest of the full sweep (bench/results/shelfie_best_shelf_all.tsv)
    (12, ("THREE_COLUMNS_MAX3", "EIGHT_SAME")),
    (10, ("FOUR_ROWS_MAX3", "EIGHT_SAME")),
    (5, ("TWO_COLUMNS_ALL_DIFFERENT", "X_SHAPE")),  # 76.5 s before the goal lemmas
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=11, help="sampled pairs besides the hard ones")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--log", type=Path, help="JSON lines: append results, skip instances already there")
    parser.add_argument("--no-goal-lemmas", action="store_true", help="leave out the stored goal lemmas (A/B)")
    parser.add_argument("--pairs", help="only these goal pairs, e.g. TWO_COLUMNS_ALL_DIFFERENT+X_SHAPE,... (all cards)")
    args = parser.parse_args()
    instances = [(card, pair) for card in range(1, 13) for pair in itertools.combinations(COMMON_GOAL_KEYS, 2)]
    if args.pairs:
        wanted = {tuple(sorted(p.split("+"))) for p in args.pairs.split(",")}
        instances = [(card, pair) for card, pair in instances if tuple(sorted(pair)) in wanted]
    elif not args.all:
        rest = [i for i in instances if i not in HARD]
        instances = HARD + random.Random(args.seed).sample(rest, args.count)
    done = set()
    if args.log and args.log.exists():
        done = {(d["personal"], tuple(d["goals"])) for d in map(json.loads, args.log.read_text().splitlines())}
    proven, times = 0, []
    try:
        for card, pair in instances:
            if (card, pair) in done:
                continue
            r = best_shelf(card, pair, time_limit=args.time_limit, workers=args.workers,
                           goal_bounds=not args.no_goal_lemmas)
            proven += r.optimal
            times.append(r.seconds)
            if args.log:
                with args.log.open("a") as f:
                    f.write(json.dumps(r.to_json()) + "\n")
            print(f"card {card:2d} {pair[0]:>26s} + {pair[1]:<26s} score {r.score:3d} bound {r.bound:5.1f} "
                  f"{'OPTIMAL' if r.optimal else 'gap':7s} {r.seconds:5.1f} s {r.pieces:3d} pieces  "
                  f"{'/'.join(r.shelf.rows())}", flush=True)
    except KeyboardInterrupt:
        print("interrupted")
    if times:
        print(f"proven optimal: {proven} of {len(times)} within {args.time_limit:g} s each; "
              f"max {max(times):.1f} s, mean {sum(times) / len(times):.1f} s")


if __name__ == "__main__":
    main()
