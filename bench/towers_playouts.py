"""Rainbow Blackjack random playouts per second, in one process.

    /work/venv/bin/python bench/towers_playouts.py [--games 200000]

The compiled kernel (deal + uniformly random picks and placements) against the
target of ≥ 2,000 full games/s; the Python engine through the generic
``play_game`` for reference.
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.towers import TowersState
from solvers.bots import RandomBot
from solvers.playout import play_game
from solvers.towers.bots import fast_random_match


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--python-games", type=int, default=300)
    args = ap.parse_args()
    fast_random_match(100, seed=0)  # compile / load cache
    t = time.perf_counter()
    stats = fast_random_match(args.games, seed=1)
    dt = time.perf_counter() - t
    rep = stats.report(("random", "random"))
    print(f"kernel: {args.games} random games in {dt:.2f} s = {args.games / dt:,.0f} games/s (target ≥ 2,000)")
    print(f"  P1 {rep['p1_win_rate']:.3f}  P2 {rep['p2_win_rate']:.3f}  draw {rep['draw_rate']:.3f}"
          f"  instant {rep['instant_win_rate']:.4f}")
    bots = [RandomBot(), RandomBot()]
    t = time.perf_counter()
    for i in range(args.python_games):
        play_game(TowersState(), bots, random.Random(i))
    dt = time.perf_counter() - t
    print(f"python engine: {args.python_games / dt:,.0f} games/s")


if __name__ == "__main__":
    main()
