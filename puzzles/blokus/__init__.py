"""Blokus: rule engine (:mod:`.engine`), precomputed tables (:mod:`.tables`), numba kernels
(:mod:`.kernel`), game records (:mod:`.records`) and pictures (:mod:`.render`)."""

from puzzles.blokus.engine import VARIANTS, BlokusState, Variant, get_variant, new_game, perft, random_game
from puzzles.blokus.tables import PASS, PIECE_NAMES, Move, board_tables

__all__ = ["BlokusState", "Variant", "VARIANTS", "get_variant", "new_game", "perft", "random_game", "PASS", "PIECE_NAMES",
           "Move", "board_tables"]
