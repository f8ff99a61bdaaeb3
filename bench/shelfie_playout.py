"""Benchmark: uniform-random 4-player My Shelfie games per second in one process (numba kernel).

Also times the pure-Python engine with the generic RandomBot, and the 2-player bot matches.
Run: /work/venv/bin/python bench/shelfie_playout.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.shelfie import new_game
from solvers.bots import RandomBot
from solvers.playout import play_game
from solvers.shelfie.bots import kernel_playouts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--bot-games", type=int, default=0, help="also play N 2-player bot matches")
    args = parser.parse_args()

    kernel_playouts(4, ["random"] * 4, 10, seed=0)  # compile / load the cache
    start = time.perf_counter()
    result = kernel_playouts(4, ["random"] * 4, args.games, seed=1)
    elapsed = time.perf_counter() - start
    print(f"kernel: {args.games} random 4-player games in {elapsed:.2f} s = {args.games / elapsed:,.0f} games/s "
          f"(mean score {result['scores'].mean():.2f})")

    n = 100
    start = time.perf_counter()
    for seed in range(n):
        play_game(new_game(4, seed=seed), [RandomBot()] * 4, random.Random(seed))
    elapsed = time.perf_counter() - start
    print(f"engine (pure Python, generic RandomBot): {n / elapsed:,.0f} games/s")

    if args.bot_games:
        for pair in (["greedy", "random"], ["lookahead", "greedy"]):
            start = time.perf_counter()
            r = kernel_playouts(2, pair, args.bot_games, seed=11, rotate_seats=True)
            elapsed = time.perf_counter() - start
            rate = float((r["winners"] == 0).mean())
            print(f"{pair[0]} vs {pair[1]}: {rate:.3f} wins over {args.bot_games} games "
                  f"(seats rotated), {args.bot_games / elapsed:,.1f} games/s")


if __name__ == "__main__":
    main()
