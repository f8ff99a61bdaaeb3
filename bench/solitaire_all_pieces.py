"""Bench: all 84 Blokus pieces on the board (symmetric mode; general mode with --general: the symmetric
solution re-arranged by CP-SAT window moves until it is no longer symmetric), verified by replay.

Usage: python bench/solitaire_all_pieces.py [--seeds 0,1,2] [--general] [--time-limit 60]
"""

from __future__ import annotations

import argparse
import time

from solvers.blokus.solitaire import solve_all_pieces


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--general", action="store_true")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    mode = "general" if args.general else "symmetric"
    times = []
    for seed in map(int, args.seeds.split(",")):
        start = time.perf_counter()
        result = solve_all_pieces(symmetric=not args.general, perfect=True, time_limit=args.time_limit, seed=seed)
        wall = time.perf_counter() - start
        scores = result.state.color_scores() if result.state is not None else None
        print(f"{mode} seed {seed}: {result.status}, {result.placed} placed (best {result.best_placed}), "
              f"{wall:.1f} s wall, {result.nodes} nodes, {result.restarts} restarts, scores {scores}"
              + (f", {result.rearranged} re-arrangements, quarter-turn symmetric: {result.quarter_turn_symmetric}"
                 if args.general else ""))
        if result.status == "found":
            times.append(wall)
    if times:
        print(f"{mode}: {len(times)}/{len(args.seeds.split(','))} found, median {sorted(times)[len(times) // 2]:.1f} s, "
              f"max {max(times):.1f} s (replayed through the engine, perfect: monomino last)")


if __name__ == "__main__":
    main()
