"""Uniform-random full 4-player classic Blokus games per second, in one process.

A random game: at every turn the color to move picks uniformly among all its
legal placements (a color with none passes for good), until no color can move.
The whole game loop runs in numba (solvers.blokus.bots.random_games); the rate
through the generic driver (solvers.playout.run_playouts, which hands all-random
line-ups to solvers.blokus.bots.fast_playouts) and the Python engine's rate are
printed for comparison.

    python bench/blokus_playouts.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.blokus import BlokusState
from solvers.blokus.bots import BIG_PIECE_WEIGHTS, random_games
from solvers.playout import run_playouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    random_games(2, seed=0)
    print(f"warm-up (numba compile or cache load): {time.perf_counter() - t0:.2f} s")

    for label, weights in (("uniform", None), ("weighted (size^3)", BIG_PIECE_WEIGHTS)):
        t0, c0 = time.perf_counter(), time.process_time()
        scores, plies = random_games(args.games, seed=args.seed, weights=weights)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"{label:>18}: {args.games} games in {dt:.2f} s = {args.games / dt:,.0f} games/s wall "
              f"({args.games / cpu:,.0f} games/s of CPU time); "
              f"{plies.mean():.1f} plies/game (passes included); mean score per color {scores.mean():.2f}; "
              f"all 21 placed in {(scores >= 15).mean() * 100:.3f}% of color-games")

    run_playouts("blokus", ["random"], 2, seed=0)
    t0 = time.perf_counter()
    stats = run_playouts("blokus", ["random"], args.games, seed=args.seed)
    dt = time.perf_counter() - t0
    print(f"{'run_playouts':>18}: {stats.games} games in {dt:.2f} s = {stats.games / dt:,.0f} games/s wall "
          f"(seeded per game, with statistics)")
    rng = random.Random(args.seed)
    n = 200
    t0 = time.perf_counter()
    for _ in range(n):
        state = BlokusState()
        while not state.is_terminal():
            state._apply_unchecked(rng.choice(state.legal_actions()))
    dt = time.perf_counter() - t0
    print(f"{'python engine':>18}: {n} games in {dt:.2f} s = {n / dt:,.0f} games/s (legal_actions + apply per ply)")


if __name__ == "__main__":
    main()
