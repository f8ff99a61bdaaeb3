"""kibitz's public Python API: the game registry, games, bots, playouts, tilings, exact cover and the
per-game solvers, under one name.

>>> import kibitz
>>> sorted(kibitz.GAMES)
['blokus', 'projectl', 'shelfie', 'towers']

The code lives in :mod:`puzzles` (what the games are) and :mod:`solvers` (bots and searches); this package
only re-exports it.  ``import kibitz`` loads the registry alone: every other name is imported on first
use, since most of them compile numba kernels or load game data.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from puzzles.game import CHANCE, GAMES, GameInfo, GameState, IllegalActionError, game_info

if TYPE_CHECKING:
    from puzzles.blokus import BlokusState, perft
    from puzzles.blokus.records import from_sgf, to_sgf
    from puzzles.polyomino import Region, Shape, Tiling, piece, piece_set
    from puzzles.projectl import ProjectLState, default_deck, parse_deck
    from puzzles.projectl.cards import parse_counts
    from puzzles.shelfie import (
        Bookshelf,
        ShelfieState,
        adjacency_points,
        common_goal_met,
        goals_met,
        personal_goal_points,
    )
    from puzzles.towers import TowersState, parse_stones
    from solvers.blokus.solitaire import solve_all_pieces
    from solvers.blokus.tetrominoes import ColoredTilingProblem
    from solvers.bots import RandomBot, make_bot
    from solvers.exact_cover import ExactCoverProblem, parse_knuth
    from solvers.playout import PlayoutStats, play_game, run_playouts
    from solvers.projectl.checker import PuzzleInHand, check_card, finishable_this_turn
    from solvers.shelfie.best_shelf import best_shelf
    from solvers.tiling import TilingProblem, parse_pieces
    from solvers.towers.planner import guaranteed_21_towers, max_21_towers
    from solvers.towers.solver import Solver as TowersSolver
    from solvers.towers.solver import solve as solve_towers
    from solvers.widget import PlayModel
    from solvers.widget_view import play_widget

#: Public name -> (module, name there), imported on first use.
_LAZY: dict[str, tuple[str, str]] = {
    # bots and playouts
    "make_bot": ("solvers.bots", "make_bot"),
    "RandomBot": ("solvers.bots", "RandomBot"),
    "play_game": ("solvers.playout", "play_game"),
    "run_playouts": ("solvers.playout", "run_playouts"),
    "PlayoutStats": ("solvers.playout", "PlayoutStats"),
    # polyominoes, tilings, exact cover
    "Region": ("puzzles.polyomino", "Region"),
    "Shape": ("puzzles.polyomino", "Shape"),
    "Tiling": ("puzzles.polyomino", "Tiling"),
    "piece": ("puzzles.polyomino", "piece"),
    "piece_set": ("puzzles.polyomino", "piece_set"),
    "TilingProblem": ("solvers.tiling", "TilingProblem"),
    "parse_pieces": ("solvers.tiling", "parse_pieces"),
    "ExactCoverProblem": ("solvers.exact_cover", "ExactCoverProblem"),
    "parse_knuth": ("solvers.exact_cover", "parse_knuth"),
    # Blokus: the engine, records, the two solitaires
    "BlokusState": ("puzzles.blokus", "BlokusState"),
    "perft": ("puzzles.blokus", "perft"),
    "to_sgf": ("puzzles.blokus.records", "to_sgf"),
    "from_sgf": ("puzzles.blokus.records", "from_sgf"),
    "ColoredTilingProblem": ("solvers.blokus.tetrominoes", "ColoredTilingProblem"),
    "solve_all_pieces": ("solvers.blokus.solitaire", "solve_all_pieces"),
    # Project L: the engine, cards, the completion checker
    "ProjectLState": ("puzzles.projectl", "ProjectLState"),
    "default_deck": ("puzzles.projectl", "default_deck"),
    "parse_deck": ("puzzles.projectl", "parse_deck"),
    "parse_counts": ("puzzles.projectl.cards", "parse_counts"),
    "check_card": ("solvers.projectl.checker", "check_card"),
    "finishable_this_turn": ("solvers.projectl.checker", "finishable_this_turn"),
    "PuzzleInHand": ("solvers.projectl.checker", "PuzzleInHand"),
    # My Shelfie: the engine, scoring, the best shelf
    "ShelfieState": ("puzzles.shelfie", "ShelfieState"),
    "Bookshelf": ("puzzles.shelfie", "Bookshelf"),
    "adjacency_points": ("puzzles.shelfie", "adjacency_points"),
    "common_goal_met": ("puzzles.shelfie", "common_goal_met"),
    "goals_met": ("puzzles.shelfie", "goals_met"),
    "personal_goal_points": ("puzzles.shelfie", "personal_goal_points"),
    "best_shelf": ("solvers.shelfie.best_shelf", "best_shelf"),
    # Rainbow Blackjack (towers): the engine, the exact solver, the planner
    "TowersState": ("puzzles.towers", "TowersState"),
    "parse_stones": ("puzzles.towers", "parse_stones"),
    "TowersSolver": ("solvers.towers.solver", "Solver"),
    "solve_towers": ("solvers.towers.solver", "solve"),
    "max_21_towers": ("solvers.towers.planner", "max_21_towers"),
    "guaranteed_21_towers": ("solvers.towers.planner", "guaranteed_21_towers"),
    # play in a notebook cell (the notebook extra: ipywidgets, anywidget)
    "play_widget": ("solvers.widget_view", "play_widget"),
    "PlayModel": ("solvers.widget", "PlayModel"),
}


def new_game(game: str, players: int | None = None, seed: int = 0, **options: Any) -> GameState[Any]:
    """A new game of ``game`` (a key of :data:`GAMES`) for ``players`` seats dealt from ``seed``, with the
    game's options (its :class:`GameInfo` lists them); the same arguments give the same game."""
    return game_info(game).new_game(players, seed, **options)


def __getattr__(name: str) -> Any:
    """Import a re-exported name on first use and keep it."""
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'kibitz' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CHANCE", "GAMES", "GameInfo", "GameState", "IllegalActionError", "game_info", "new_game", "make_bot",
    "RandomBot", "play_game", "run_playouts", "PlayoutStats", "Region", "Shape", "Tiling", "piece", "piece_set",
    "TilingProblem", "parse_pieces", "ExactCoverProblem", "parse_knuth", "BlokusState", "perft", "to_sgf",
    "from_sgf", "ColoredTilingProblem", "solve_all_pieces", "ProjectLState", "default_deck", "parse_deck",
    "parse_counts", "check_card", "finishable_this_turn", "PuzzleInHand", "ShelfieState", "Bookshelf",
    "adjacency_points", "common_goal_met", "goals_met", "personal_goal_points", "best_shelf", "TowersState",
    "parse_stones", "TowersSolver", "solve_towers", "max_21_towers", "guaranteed_21_towers",
    "play_widget", "PlayModel",
]
