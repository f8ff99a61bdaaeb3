"""My Shelfie component data and constants: tile letters, board masks, personal goal cards, tokens.

Plain data only (no rules), shared by the kernel (:mod:`puzzles.shelfie.kernel`), the scoring API
(:mod:`puzzles.shelfie.rules`) and the engine.  Tile types are the letters of the data file, numbered
in its order: C=0 (cats), B=1 (books), G=2 (games), F=3 (frames), T=4 (trophies), P=5 (plants);
:data:`EMPTY` (-1) is an empty cell.  Grids use row 0 = TOP; a bookshelf is 6 rows x 5 columns.
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np

from puzzles.safe_json import load_json_text

EMPTY = -1
ROWS, COLS = 6, 5
LETTERS = "CBGFTP"
TYPE_NAMES = ("cats", "books", "games", "frames", "trophies", "plants")
NUM_TYPES = 6
TILES_PER_TYPE = 22
EMPTY_CHARS = ".-_ "

#: Points for 0..6 matching personal goal cells.
PERSONAL_POINTS = (0, 1, 2, 4, 6, 9, 12)
#: Points for an adjacency group of size 0..6 (6 or more: 8).
GROUP_POINTS = (0, 0, 0, 2, 3, 5, 8)


@lru_cache(maxsize=1)
def load_data() -> dict[str, Any]:
    """The component data file shipped with the package (board masks, cards, tokens)."""
    text = resources.files("puzzles.shelfie.data").joinpath("my_shelfie.json").read_text()
    return load_json_text(text, "my_shelfie.json")


def _data_constants() -> tuple[tuple[str, ...], dict[int, np.ndarray], dict[int, tuple[int, ...]]]:
    data = load_data()
    keys = tuple(data["common_goal_keys"])
    masks = {int(n): np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)
             for n, rows in data["living_room_masks"].items()}
    tokens = {int(n): tuple(v) for n, v in data["scoring_tokens"].items()}
    assert "".join(data["tile_types"]) == LETTERS
    assert tuple(data["personal_goal_points"]) == PERSONAL_POINTS
    return keys, masks, tokens


#: Canonical common goal keys, in the data file's order (their index is the goal id of the kernel).
COMMON_GOAL_KEYS, BOARD_MASKS, SCORING_TOKENS = _data_constants()
END_GAME_TOKEN = int(load_data()["end_game_token"])


def type_index(letter: str) -> int:
    """The type number of a tile letter (C, B, G, F, T, P; case-insensitive)."""
    index = LETTERS.find(letter.upper())
    if index < 0 or len(letter) != 1:
        raise ValueError(f"unknown tile letter {letter!r} (expected one of {LETTERS} or '.')")
    return index


@cache
def personal_goal_card(card: int) -> tuple[tuple[int, int, int], ...]:
    """The 6 (row, column, type) cells of personal goal card ``card`` (1..12)."""
    cards = load_data()["personal_goal_cards"]
    if str(card) not in cards:
        raise ValueError(f"unknown personal goal card {card!r} (expected 1..{len(cards)})")
    cells = tuple((r, c, type_index(ch)) for r, row in enumerate(cards[str(card)])
                  for c, ch in enumerate(row) if ch not in EMPTY_CHARS)
    return cells


def personal_goal_grid(card: int) -> np.ndarray:
    """Personal goal card ``card`` as a 6x5 int8 grid (EMPTY where the card shows nothing)."""
    grid = np.full((ROWS, COLS), EMPTY, dtype=np.int8)
    for r, c, t in personal_goal_card(card):
        grid[r, c] = t
    return grid


def check_goal_key(key: str) -> str:
    """Normalise and validate a common goal key; raise ValueError naming the valid keys."""
    norm = key.strip().upper().replace("-", "_")
    if norm not in COMMON_GOAL_KEYS:
        raise ValueError(f"unknown common goal {key!r}; keys: {', '.join(COMMON_GOAL_KEYS)}")
    return norm


def board_mask(num_players: int) -> np.ndarray:
    """The usable cells of the living room for 2..4 players (9x9 bool, row 0 = top)."""
    if num_players not in BOARD_MASKS:
        raise ValueError(f"My Shelfie is for 2 to 4 players, got {num_players}")
    return BOARD_MASKS[num_players]
