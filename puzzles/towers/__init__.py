"""Rainbow Blackjack ("Colorful 21"), the tower game: stones, rule engine, information sets, rendering.

See :mod:`puzzles.towers.engine` for the rules as implemented and the rule decisions.
"""

from puzzles.towers.engine import (
    ANNOUNCE_MODES,
    LINE_CELLS,
    LINE_NAMES,
    STARTERS,
    TowersState,
    replace_ok,
)
from puzzles.towers.infoset import sample_state
from puzzles.towers.stones import COLORS, JOKER, LETTERS, allowed_towers, parse_stone, parse_stones, stone_str

__all__ = [
    "ANNOUNCE_MODES",
    "COLORS",
    "JOKER",
    "LETTERS",
    "LINE_CELLS",
    "LINE_NAMES",
    "STARTERS",
    "TowersState",
    "allowed_towers",
    "parse_stone",
    "parse_stones",
    "replace_ok",
    "sample_state",
    "stone_str",
]
