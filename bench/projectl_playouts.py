"""Full-game playout throughput of the Project L engine in one process.

Run: /work/venv/bin/python bench/projectl_playouts.py
Target (issue 7): ≥ 200 random 2-player games/s (classic rules, default deck).
Random players usually stall with four blocked puzzles; when every player must pass for a
whole round the game ends (nothing can change any more), see puzzles/projectl/engine.py.
"""

from __future__ import annotations

import random
import time

from puzzles.projectl.engine import new_game
from solvers.bots import RandomBot
from solvers.playout import game_seed
from solvers.projectl.bots import GreedyBot, play_match


def rate(make_bots, games: int, **kwargs) -> tuple[float, float]:
    start = time.perf_counter()
    actions = 0
    for i in range(games):
        seed = game_seed(0, i)
        st = new_game(kwargs.get("players", 2), seed, **{k: v for k, v in kwargs.items() if k != "players"})
        play_match(st, make_bots(), seed)
        actions += len(st.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def main() -> None:
    for label, make, games, kwargs in [
        ("random x2, classic", lambda: [RandomBot(), RandomBot()], 1000, {}),
        ("random x2, revised (100-round limit)", lambda: [RandomBot(), RandomBot()], 60, {"rules": "revised"}),
        ("random x4, classic", lambda: [RandomBot()] * 4, 300, {"players": 4}),
        ("random solo, normal", lambda: [RandomBot()], 300, {"solo": True}),
        ("greedy x2, classic", lambda: [GreedyBot(), GreedyBot()], 40, {}),
    ]:
        per_s, length = rate(make, games, **kwargs)
        print(f"{label:<40} {per_s:8.1f} games/s   ({length:.0f} actions per game, {games} games)")


if __name__ == "__main__":
    main()
