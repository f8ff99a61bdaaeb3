"""Full-game playout throughput of the Project L engine in one process.

Run: python bench/projectl_playouts.py
Random players usually stall with four blocked puzzles; when every player must pass for a
whole round the game ends (nothing can change any more), see docs/rules/project-l.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from puzzles.projectl.engine import ProjectLState
from solvers.bots import Bot, RandomBot
from solvers.playout import game_seed, play_game
from solvers.projectl.bots import GreedyBot


def rate(make_bots: Callable[[], list[Bot[Any]]], games: int, **kwargs: Any) -> tuple[float, float]:
    start = time.perf_counter()
    actions = 0
    for i in range(games):
        seed = game_seed(0, i)
        st = ProjectLState.new_game(kwargs.get("players", 2), seed,
                                    **{k: v for k, v in kwargs.items() if k != "players"})
        play_game(st, make_bots(), random.Random(seed))
        actions += len(st.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / games


def main() -> None:
    cases: list[tuple[str, Callable[[], list[Bot[Any]]], int, dict[str, Any]]] = [
        ("random x2, classic", lambda: [RandomBot(), RandomBot()], 1000, {}),
        ("random x2, revised (100-round limit)", lambda: [RandomBot(), RandomBot()], 60, {"rules": "revised"}),
        ("random x4, classic", lambda: [RandomBot()] * 4, 300, {"players": 4}),
        ("random solo, normal", lambda: [RandomBot()], 300, {"solo": True}),
        ("greedy x2, classic", lambda: [GreedyBot(), GreedyBot()], 40, {}),
    ]
    for label, make, games, kwargs in cases:
        per_s, length = rate(make, games, **kwargs)
        print(f"{label:<40} {per_s:8.1f} games/s   ({length:.0f} actions per game, {games} games)")


if __name__ == "__main__":
    main()
