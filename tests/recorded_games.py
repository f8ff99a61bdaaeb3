"""Recorded games: fixed seeds, every bot of every game, the moves and scores they give.

The fixture ``tests/data/recorded_games/<game>.json`` was written before the rule kernels were
reorganised; ``tests/test_recorded_games.py`` replays the same line-ups and seeds and asserts the
same move sequences and scores, so a refactor that claims "no behaviour change" is checked, game by
game. Regenerate (only when a behaviour change is intended and explained) with
``python -m tests.recorded_games [game ...]``.

Each game also records the totals of :func:`solvers.playout.run_playouts` for the line-ups with
compiled playouts (the numba fast path is a second implementation of play).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzles.game import GAMES
from solvers.bots import make_bot
from solvers.playout import game_seed, play_game, run_playouts

DATA = Path(__file__).parent / "data" / "recorded_games"
GAMES_PER_GAME = 200


@dataclass(frozen=True)
class LineUp:
    """Bots in seat order, the options and the seat count of one recorded series."""

    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


#: Every bot of every game (``human`` aside), at iteration budgets (seconds budgets are not reproducible).
LINE_UPS: dict[str, tuple[LineUp, ...]] = {
    "blokus": (
        LineUp(("random", "greedy", "random", "greedy")),
        LineUp(("greedy", "random", "greedy", "random"), {"variant": "classic"}),
        LineUp(("mcts:6", "greedy"), {"variant": "duo"}),
        LineUp(("mcts-rave:200", "random"), {"variant": "duo"}),
        LineUp(("greedy", "mcts-rave:100"), {"variant": "two-player"}),
        LineUp(("random", "random", "random"), {"variant": "three-player"}),
    ),
    "projectl": (
        LineUp(("random", "greedy")),
        LineUp(("greedy", "mcts:10")),
        LineUp(("greedy", "random", "greedy")),
        LineUp(("greedy",), {}),
    ),
    "shelfie": (
        LineUp(("random", "greedy")),
        LineUp(("lookahead:1", "greedy", "random")),
        LineUp(("mcts:20", "lookahead")),
        LineUp(("greedy", "random", "lookahead", "greedy"), {"squares_same_type": True}),
        LineUp(("random", "random"), {"refill_rule": "four_or_fewer", "squares_inside_groups": True}),
    ),
    "towers": (
        LineUp(("random", "greedy")),
        LineUp(("greedy", "pimc:4")),
        LineUp(("ismcts:60", "greedy")),
        LineUp(("mcts:30", "random")),
    ),
}

#: Line-ups whose totals are also recorded through ``run_playouts`` (compiled playouts where the game has them).
PLAYOUT_RUNS: dict[str, tuple[tuple[tuple[str, ...], int, dict[str, Any]], ...]] = {
    "blokus": ((("random",), 4, {}), (("random",), 2, {"variant": "duo"})),
    "projectl": ((("random", "greedy"), 2, {}),),
    "shelfie": ((("random", "greedy"), 2, {}), (("greedy", "lookahead", "random"), 3, {}), (("random",), 4, {})),
    "towers": ((("random", "greedy"), 2, {}),),
}


def series(game: str) -> list[tuple[int, LineUp]]:
    """The (seed, line-up) of every recorded game of ``game``: line-ups in turn, seeds 0..199."""
    line_ups = LINE_UPS[game]
    return [(game_seed(7, index), line_ups[index % len(line_ups)]) for index in range(GAMES_PER_GAME)]


def play_recorded(game: str, seed: int, line_up: LineUp) -> dict[str, Any]:
    """One game: its actions as text (chance included), the final scores and a digest of both."""
    state = GAMES[game].new_game(len(line_up.bots), seed, **line_up.options)
    bots = [make_bot(game, spec) for spec in line_up.bots]
    actions: list[str] = []
    play_game(state, bots, random.Random(seed),
              on_move=lambda before, player, action: actions.append(before.action_to_string(action)))
    scores = [float(score) for score in state.scores()]
    digest = hashlib.sha256(json.dumps([actions, scores]).encode()).hexdigest()[:16]
    return {"seed": seed, "bots": list(line_up.bots), "options": line_up.options, "actions": actions,
            "scores": scores, "digest": digest}


def playout_totals(game: str, bots: tuple[str, ...], players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The totals of 40 seeded ``run_playouts`` games of ``bots``."""
    stats = run_playouts(game, list(bots), 40, seed=3, players=players, options=options)
    return {"bots": list(bots), "players": players, "options": options, "totals": stats.to_json()}


def record(game: str) -> dict[str, Any]:
    """Every recorded game and playout total of ``game``."""
    return {
        "game": game,
        "games": [play_recorded(game, seed, line_up) for seed, line_up in series(game)],
        "playouts": [playout_totals(game, *run) for run in PLAYOUT_RUNS[game]],
    }


def load(game: str) -> dict[str, Any]:
    """The committed fixture of ``game``."""
    data: dict[str, Any] = json.loads((DATA / f"{game}.json").read_text())
    return data


def main(games: list[str]) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for game in games or list(LINE_UPS):
        data = record(game)
        (DATA / f"{game}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(game, len(data["games"]), "games recorded", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
