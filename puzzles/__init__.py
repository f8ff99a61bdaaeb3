"""What the games ARE: pieces, boards, rule engines, card data, rendering.

:data:`GAMES` is the registry of the four games (see :mod:`puzzles.game`);
reading it loads no engine.  This package never imports :mod:`solvers`.
"""

from puzzles.game import (
    CHANCE,
    GAMES,
    TERMINAL,
    ChanceMode,
    GameInfo,
    GameOption,
    GameState,
    IllegalActionError,
    Information,
    game_info,
)

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "ChanceMode",
    "GameInfo",
    "GameOption",
    "GameState",
    "IllegalActionError",
    "Information",
    "game_info",
]
