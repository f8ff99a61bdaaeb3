"""Rainbow Blackjack ("Colorful 21"), the tower game: stones, rule engine, information sets, rendering.

The rules as implemented are in ``docs/rules/rainbow-blackjack.md``.
"""

from puzzles.towers.engine import (
    ANNOUNCE_MODES,
    LINE_CELLS,
    LINE_NAMES,
    PASS,
    STARTERS,
    Announce,
    Draw,
    Pass,
    PickLine,
    Place,
    TowersAction,
    TowersState,
    new_game,
    replace_ok,
    sample_state,
)
from puzzles.towers.infoset import resample_hidden
from puzzles.towers.stones import COLORS, JOKER, LETTERS, allowed_towers, parse_stone, parse_stones, stone_str

__all__ = [
    "ANNOUNCE_MODES",
    "COLORS",
    "JOKER",
    "LETTERS",
    "LINE_CELLS",
    "LINE_NAMES",
    "PASS",
    "STARTERS",
    "Announce",
    "Draw",
    "Pass",
    "PickLine",
    "Place",
    "TowersAction",
    "TowersState",
    "allowed_towers",
    "new_game",
    "parse_stone",
    "parse_stones",
    "replace_ok",
    "resample_hidden",
    "sample_state",
    "stone_str",
]
