"""How long each game's picture takes to draw, and how big it is (a widget redraws it after every move).

    python bench/pictures.py [--repeat 20]

For each game: a seeded game of random bots (the same positions as tests/test_pictures.py), the
picture of its middle position drawn ``--repeat`` times; prints the median milliseconds, the SVG's
size in kB and its width x height in px, as a Markdown table (bench/results/pictures.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.game import GAMES, GameState  # noqa: E402
from solvers.bots import make_bot  # noqa: E402
from solvers.playout import play_game  # noqa: E402

PLAYOUTS = {"blokus": (4, 3), "projectl": (2, 5), "shelfie": (3, 7), "towers": (2, 11)}


def middle_position(game: str) -> GameState[Any]:
    """The position halfway through one seeded game of random bots."""
    players, seed = PLAYOUTS[game]
    played: list[Any] = []
    state = GAMES[game].new_game(players, seed=seed)
    play_game(state, [make_bot(game, "random") for _ in range(players)], random.Random(seed),
              lambda _before, _player, action: played.append(action))
    state = GAMES[game].new_game(players, seed=seed)
    for action in played[: len(played) // 2]:
        state.apply(action)
    return state


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    print("| game | players | draw (ms, median) | SVG (kB) | size (px) |")
    print("|---|---|---|---|---|")
    for game, (players, _) in PLAYOUTS.items():
        state = middle_position(game)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            picture = state.picture(0)
            times.append(time.perf_counter() - start)
        root = ET.fromstring(picture)
        print(f"| {game} | {players} | {1000 * statistics.median(times):.1f} | {len(picture) / 1000:.0f} "
              f"| {root.get('width')} x {root.get('height')} |")


if __name__ == "__main__":
    main()
