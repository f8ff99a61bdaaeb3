"""Rainbow Blackjack random playouts per second, in one process.

    python bench/towers_playouts.py [--games 200000] [--python-games 300]

The compiled kernel (deal + uniformly random picks and placements, through
``solvers.towers.bots.fast_playouts`` as the generic playout runner uses it)
against the target of ≥ 2,000 full games/s; the Python engine through the
generic ``play_game`` for reference.  Outcome figures (seat 1 / seat 2 /
draw, instant wins) come from the kernel's per-game results.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from puzzles.towers import new_game
from solvers.bots import RandomBot
from solvers.playout import game_seed, make_job, play_game
from solvers.towers.bots import fast_playouts, kernel_random_games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--python-games", type=int, default=300)
    args = ap.parse_args()
    job = make_job("towers", ["random"], seed=1, rotate=False)
    fast_playouts(job, 0, 100)  # compile / load cache
    t = time.perf_counter()
    stats = fast_playouts(job, 0, args.games)
    dt = time.perf_counter() - t
    assert stats is not None
    print(f"kernel: {args.games} random games in {dt:.2f} s = {args.games / dt:,.0f} games/s (target ≥ 2,000)")
    res = kernel_random_games(np.array([game_seed(1, i) % 2**32 for i in range(args.games)], dtype=np.int64))
    n = len(res)
    p1, p2 = (res[:, 0] == 0).sum() / n, (res[:, 0] == 1).sum() / n
    print(f"  P1 {p1:.3f}  P2 {p2:.3f}  draw {(res[:, 0] < 0).sum() / n:.3f}  instant {res[:, 1].sum() / n:.4f}"
          f"  (seat-1 win share with draws halved {stats.seat_wins[0] / stats.games:.3f})")
    bots = [RandomBot(), RandomBot()]
    t = time.perf_counter()
    for i in range(args.python_games):
        play_game(new_game(2, i), bots, random.Random(i))
    dt = time.perf_counter() - t
    print(f"python engine: {args.python_games / dt:,.0f} games/s")


if __name__ == "__main__":
    main()
