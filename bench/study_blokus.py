"""Data of notebooks/blokus.ipynb: mcts-rave's strength by budget, where first moves go, scores by seat.

    nice -n 10 python bench/study_blokus.py [--redo strength|openings|scores]

Seeded (game ``i`` of a series uses ``random.Random(seed + i)``), one process, sections saved to
``bench/results/study_blokus.json`` as they finish (a rerun computes only missing sections).

* ``strength``: ``mcts-rave`` at budgets 25..6400 iterations per move against two fixed opponents
  (``greedy`` and ``mcts-rave:400``), Blokus Duo, the bots swapping seats every game.
* ``openings``: the cells covered by each color's first three moves in Classic games of
  ``mcts-rave:300`` against itself (4 seats), for heat maps.
* ``scores``: final scores by seat in self-play of ``mcts-rave:200`` in Duo, Two-Player, Three-Player and Classic.
"""

from __future__ import annotations

import random
from typing import Any

from study_common import progress, run_study

from puzzles.blokus import BlokusState
from solvers.bots import make_bot
from solvers.playout import play_game

BUDGETS = (25, 50, 100, 200, 400, 800, 1600, 3200, 6400)
OPPONENTS = ("greedy", "mcts-rave:400")
STRENGTH_GAMES = 16
OPENING_GAMES = 16
OPENING_MOVES = 3
SCORE_GAMES = {"duo": 40, "two-player": 24, "three-player": 16, "classic": 24}


def play(variant: str, specs: list[str], seed: int) -> BlokusState:
    """One seeded game of ``variant``, seat ``p`` played by ``specs[p]``."""
    state = BlokusState(variant)
    play_game(state, [make_bot("blokus", spec) for spec in specs], random.Random(seed))
    return state


def strength() -> list[dict[str, Any]]:
    """Points per game (win 1, draw 0.5) of mcts-rave:budget against each fixed opponent, seats swapped."""
    rows = []
    pairs = [(budget, opponent) for opponent in OPPONENTS for budget in BUDGETS]
    for budget, opponent in progress(pairs, "strength (budget x opponent)"):
        points, margins = 0.0, []  # game i: seed 1000 * budget + i, mcts-rave in seat i % 2
        for game in range(STRENGTH_GAMES):
            me = game % 2
            specs = [opponent, opponent]
            specs[me] = f"mcts-rave:{budget}"
            state = play("duo", specs, 1000 * budget + game)
            points += state.returns()[me]
            scores = state.scores()
            margins.append(scores[me] - scores[1 - me])
        rows.append({"budget": budget, "opponent": opponent, "games": STRENGTH_GAMES, "points": points,
                     "margins": margins, "seed": 1000 * budget})
    return rows


def openings() -> dict[str, Any]:
    """Per color, how often each cell was covered by that color's first OPENING_MOVES moves."""
    heat = [[[0] * 20 for _ in range(20)] for _ in range(4)]
    for game in progress(range(OPENING_GAMES), "openings (classic games)"):
        state = play("classic", ["mcts-rave:300"] * 4, 500 + game)
        seen = [0] * 4
        for color, move in state.moves_played:
            if move.is_pass or seen[color] >= OPENING_MOVES:
                continue
            seen[color] += 1
            for row, col in move.cells:
                heat[color][row][col] += 1
    return {"games": OPENING_GAMES, "moves_per_color": OPENING_MOVES, "bot": "mcts-rave:300",
            "colors": list(BlokusState("classic").color_names), "heat": heat}


def scores() -> dict[str, Any]:
    """Final seat scores of mcts-rave:200 self-play per variant (seat scores as the engine counts them)."""
    out: dict[str, Any] = {}
    for variant, games in SCORE_GAMES.items():
        seats = BlokusState(variant).num_players
        rows = [play(variant, ["mcts-rave:200"] * seats, 700 + game).scores()
                for game in progress(range(games), f"scores ({variant})")]
        out[variant] = {"seat_names": list(BlokusState(variant).variant.seat_names), "scores": rows}
    return out


if __name__ == "__main__":
    run_study("blokus", {"strength": strength, "openings": openings, "scores": scores}, __doc__ or "")
