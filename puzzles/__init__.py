"""What the games ARE: pieces, boards, rule engines, card data, rendering.

:data:`GAMES` is the registry of the four games (see :mod:`puzzles.game`);
reading it loads no engine.  This package never imports :mod:`solvers`.
Importing it first points numba's on-disk cache at a directory keyed by the sources of every
compiled module (:mod:`puzzles.numba_cache`) and chooses the CPU numba compiles for
(:mod:`puzzles.numba_target`), before any kernel is compiled.
"""

from puzzles.numba_cache import use_source_keyed_cache
from puzzles.numba_target import use_generic_tuning

use_source_keyed_cache()
use_generic_tuning()

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
