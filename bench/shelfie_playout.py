"""Benchmark: uniform-random 4-player My Shelfie games per second in one process (numba kernel).

Also times the engine (ShelfieState over the kernel, through the game protocol) with the generic
RandomBot, and (``--bot-games N``) the 2-player bot matches, seats rotated, with 95% Wilson intervals.
Run: python bench/shelfie_playout.py [--games N] [--bot-games N]
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.shelfie import new_game
from solvers.bots import RandomBot
from solvers.playout import make_job, play_game, wilson_interval
from solvers.shelfie.bots import fast_playouts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--bot-games", type=int, default=0, help="also play N 2-player bot matches")
    args = parser.parse_args()

    job = make_job("shelfie", ["random"], 4, seed=1)
    fast_playouts(job, 0, 10)  # compile / load the cache
    start = time.perf_counter()
    stats = fast_playouts(job, 0, args.games)
    elapsed = time.perf_counter() - start
    assert stats is not None
    mean = sum(stats.score_sums) / (4 * stats.games)
    print(f"kernel: {args.games} random 4-player games in {elapsed:.2f} s = {args.games / elapsed:,.0f} games/s "
          f"(mean score {mean:.2f})")

    n = 100
    start = time.perf_counter()
    for seed in range(n):
        play_game(new_game(4, seed=seed), [RandomBot()] * 4, random.Random(seed))
    elapsed = time.perf_counter() - start
    print(f"engine (ShelfieState, generic RandomBot): {n / elapsed:,.0f} games/s")

    if args.bot_games:
        for pair in (["greedy", "random"], ["lookahead", "greedy"]):
            start = time.perf_counter()
            stats = fast_playouts(make_job("shelfie", pair, 2, seed=11), 0, args.bot_games)
            elapsed = time.perf_counter() - start
            assert stats is not None
            low, high = wilson_interval(stats.wins[0], stats.games)
            print(f"{pair[0]} vs {pair[1]}: {stats.wins[0] / stats.games:.3f} [{low:.3f}, {high:.3f}] wins over "
                  f"{args.bot_games} games (seats rotated), {args.bot_games / elapsed:,.1f} games/s")


if __name__ == "__main__":
    main()
