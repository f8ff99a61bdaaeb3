"""My Shelfie: the compiled rules, the scoring API, the game engine over them and rendering.

>>> from puzzles.shelfie import Bookshelf, adjacency_points
>>> adjacency_points(Bookshelf.from_rows(["PP...", "PPPP.", "FFPPB", "FGGGB", "FTCCC", "TTTCC"]))
21
"""

from puzzles.shelfie.engine import (
    Move,
    Refill,
    ShelfieState,
    board_needs_refill,
    cell_name,
    new_game,
    parse_cell,
    pick_error,
)
from puzzles.shelfie.kernel import REFILL_RULES
from puzzles.shelfie.rules import (
    COMMON_GOAL_KEYS,
    EMPTY,
    LETTERS,
    Bookshelf,
    adjacency_points,
    board_mask,
    common_goal_met,
    goals_met,
    groups,
    load_data,
    personal_goal_card,
    personal_goal_matches,
    personal_goal_points,
)

__all__ = [
    "COMMON_GOAL_KEYS", "EMPTY", "LETTERS", "REFILL_RULES", "Bookshelf", "Move", "Refill", "ShelfieState",
    "adjacency_points", "board_mask", "board_needs_refill", "cell_name", "common_goal_met", "goals_met",
    "groups", "load_data", "new_game", "parse_cell", "personal_goal_card", "personal_goal_matches",
    "personal_goal_points", "pick_error",
]
