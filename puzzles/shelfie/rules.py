"""My Shelfie component data, the :class:`Bookshelf` and the stand-alone scoring functions.

Everything here is plain Python over small numpy grids so it can be used on its own, for analysis
and tests (the engine and the fast numba kernel are checked against it).

Conventions
-----------
* Tile types are the letters of the data file, numbered in its order: C=0 (cats), B=1 (books),
  G=2 (games), F=3 (frames), T=4 (trophies), P=5 (plants); :data:`EMPTY` (-1) is an empty cell.
* Grids use row 0 = TOP.  A bookshelf is 6 rows x 5 columns; tiles drop to the lowest free cell.
* Common goals are named by their keys (``"SIX_PAIRS"``, ...); see ``docs/rules/my-shelfie.md``.

Rule decisions (see ``docs/rules/my-shelfie.md``)
-------------------------------------------------
* A "group" is a connected orthogonal cluster of one type; touching same-type tiles are ONE group
  (so SIX_PAIRS counts groups of size >= 2, FOUR_GROUPS_OF_FOUR groups of size >= 4).
* TWO_SQUARES, default: two groups that are each exactly a 2x2 square (types may differ).
  Option ``squares_inside_groups``: two non-overlapping 2x2 same-type squares anywhere, even inside
  larger groups (both may lie in the same large group).  Option ``squares_same_type``: both squares
  of one type (the Italian wording).  The options combine.
* STAIRCASE on a non-strict (``strict=False``) shelf: a column has height ``h`` only when its bottom
  ``h`` cells are filled and the rest empty; a column with a hole has no height and fails.
* ``Bookshelf.from_rows(strict=True)`` also rejects more than 22 tiles of one type (the supply).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

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
    return json.loads(text)


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


@lru_cache(maxsize=None)
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


# ---------------------------------------------------------------------------------------------
# the bookshelf
# ---------------------------------------------------------------------------------------------


class Bookshelf:
    """A 6x5 bookshelf (row 0 = top) as an int8 grid; ``EMPTY`` for empty cells."""

    __slots__ = ("grid",)

    def __init__(self, grid: Any = None) -> None:
        if grid is None:
            grid = np.full((ROWS, COLS), EMPTY, dtype=np.int8)
        grid = np.array(grid, dtype=np.int8)
        if grid.shape != (ROWS, COLS):
            raise ValueError(f"a bookshelf is {ROWS}x{COLS}, got shape {grid.shape}")
        self.grid = grid

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str] | str, strict: bool = True) -> Bookshelf:
        """Build a shelf from 6 strings of 5 letters (row 0 = top; '.' empty).

        ``rows`` may also be one string with rows separated by '/' or newlines.  With
        ``strict=True`` (default) impossible shelves are rejected: a tile above an empty cell or
        more than 22 tiles of one type.  Wrong sizes and unknown letters are always rejected.
        """
        if isinstance(rows, str):
            rows = [part.strip() for part in rows.replace("/", "\n").splitlines() if part.strip()]
        rows = list(rows)
        if len(rows) != ROWS:
            raise ValueError(f"a bookshelf has {ROWS} rows, got {len(rows)}")
        grid = np.full((ROWS, COLS), EMPTY, dtype=np.int8)
        for r, row in enumerate(rows):
            if len(row) != COLS:
                raise ValueError(f"row {r} {row!r} has {len(row)} cells, expected {COLS}")
            for c, ch in enumerate(row):
                if ch in EMPTY_CHARS:
                    continue
                if ch.upper() not in LETTERS:
                    raise ValueError(f"unknown tile letter {ch!r} at row {r}, column {c} "
                                     f"(expected one of {LETTERS} or '.')")
                grid[r, c] = LETTERS.index(ch.upper())
        shelf = cls(grid)
        if strict:
            shelf.validate()
        return shelf

    @classmethod
    def from_text(cls, text: str, strict: bool = True) -> Bookshelf:
        """Parse a shelf file: 6 rows of 5 cells; blank lines and '#' comments are ignored."""
        lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
        lines = [line.replace(" ", "") for line in lines if line]
        if len(lines) == 1:
            lines = [part for part in lines[0].split("/") if part]
        return cls.from_rows(lines, strict=strict)

    def validate(self) -> None:
        """Raise ValueError if the shelf could not arise in play (floating tile, over-supply)."""
        for c in range(COLS):
            for r in range(ROWS - 1):
                if self.grid[r, c] != EMPTY and self.grid[r + 1, c] == EMPTY:
                    raise ValueError(f"column {c + 1}: tile at row {r} sits above an empty cell "
                                     f"(tiles drop to the bottom; use strict=False for analysis)")
        counts = self.counts()
        for t in range(NUM_TYPES):
            if counts[t] > TILES_PER_TYPE:
                raise ValueError(f"{counts[t]} tiles of type {LETTERS[t]}, only {TILES_PER_TYPE} exist")

    # -- views ---------------------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The shelf as 6 strings (row 0 = top, '.' empty)."""
        return ["".join(LETTERS[t] if t >= 0 else "." for t in row) for row in self.grid.tolist()]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __repr__(self) -> str:
        return f"Bookshelf.from_rows({self.rows()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bookshelf) and bool(np.array_equal(self.grid, other.grid))

    def __hash__(self) -> int:
        return hash(self.grid.tobytes())

    def copy(self) -> Bookshelf:
        return Bookshelf(self.grid.copy())

    def heights(self) -> list[int]:
        """Tiles per column (for a strict shelf, the column height)."""
        return [int(v) for v in (self.grid != EMPTY).sum(axis=0)]

    def free_cells(self, column: int) -> int:
        """Free cells left in ``column`` (0-based) of a strict shelf."""
        return ROWS - int((self.grid[:, column] != EMPTY).sum())

    def max_free(self) -> int:
        return max(self.free_cells(c) for c in range(COLS))

    def num_tiles(self) -> int:
        return int((self.grid != EMPTY).sum())

    def is_full(self) -> bool:
        return self.num_tiles() == ROWS * COLS

    def counts(self) -> list[int]:
        """Tiles per type (C, B, G, F, T, P)."""
        flat = self.grid[self.grid != EMPTY]
        return [int(v) for v in np.bincount(flat.astype(np.int64), minlength=NUM_TYPES)]

    def place(self, column: int, types: Iterable[int]) -> Bookshelf:
        """A new shelf with ``types`` dropped into ``column`` (0-based), first one lowest."""
        grid = self.grid.copy()
        height = ROWS - self.free_cells(column)
        for t in types:
            if height >= ROWS:
                raise ValueError(f"column {column + 1} is full")
            grid[ROWS - 1 - height, column] = t
            height += 1
        return Bookshelf(grid)

    def to_svg(self, personal: int | None = None, cell: int = 28) -> str:
        """SVG picture of the shelf (optionally with a personal goal card's cells outlined)."""
        from puzzles.shelfie.render import shelf_svg

        return shelf_svg(self, personal=personal, cell=cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def as_shelf(shelf: Bookshelf | Sequence[str] | np.ndarray) -> Bookshelf:
    """Accept a Bookshelf, a list of row strings (non-strict) or a 6x5 array."""
    if isinstance(shelf, Bookshelf):
        return shelf
    if isinstance(shelf, str) or (isinstance(shelf, Sequence) and shelf and isinstance(shelf[0], str)):
        return Bookshelf.from_rows(shelf, strict=False)
    return Bookshelf(shelf)


# ---------------------------------------------------------------------------------------------
# groups and scoring
# ---------------------------------------------------------------------------------------------


def groups(shelf: Bookshelf | Sequence[str] | np.ndarray) -> list[tuple[int, list[tuple[int, int]]]]:
    """The connected same-type groups as (type, cells) pairs, in reading order of first cell."""
    grid = as_shelf(shelf).grid
    seen = np.zeros((ROWS, COLS), dtype=bool)
    found = []
    for r in range(ROWS):
        for c in range(COLS):
            t = int(grid[r, c])
            if t == EMPTY or seen[r, c]:
                continue
            cells, stack = [], [(r, c)]
            seen[r, c] = True
            while stack:
                y, x = stack.pop()
                cells.append((y, x))
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < ROWS and 0 <= nx < COLS and not seen[ny, nx] and grid[ny, nx] == t:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
            found.append((t, sorted(cells)))
    return found


def group_points(size: int) -> int:
    """Adjacency points of one group: 3: 2, 4: 3, 5: 5, 6 or more: 8."""
    return GROUP_POINTS[min(size, 6)]


def adjacency_points(shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """Points for groups of adjacent same-type tiles (the rulebook example scores 21)."""
    return sum(group_points(len(cells)) for _, cells in groups(shelf))


def personal_goal_matches(card: int, shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """How many of the 6 cells of personal goal ``card`` hold the required type."""
    grid = as_shelf(shelf).grid
    return sum(1 for r, c, t in personal_goal_card(card) if grid[r, c] == t)


def personal_goal_points(card: int, shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """Points of personal goal ``card`` (1..12): 0/1/2/4/6/9/12 for 0..6 matching cells."""
    return PERSONAL_POINTS[personal_goal_matches(card, shelf)]


def column_height(grid: np.ndarray, c: int) -> int | None:
    """Height of column ``c`` when its tiles are a bottom-aligned stack, else None."""
    filled = [bool(grid[r, c] != EMPTY) for r in range(ROWS)]
    h = sum(filled)
    return h if filled == [False] * (ROWS - h) + [True] * h else None


def _squares(grid: np.ndarray) -> list[tuple[int, int, int]]:
    """All 2x2 same-type squares as (row, col, type) of their top-left cell."""
    out = []
    for r in range(ROWS - 1):
        for c in range(COLS - 1):
            t = grid[r, c]
            if t != EMPTY and grid[r, c + 1] == t and grid[r + 1, c] == t and grid[r + 1, c + 1] == t:
                out.append((r, c, int(t)))
    return out


def _two_squares(grid: np.ndarray, shelf: Bookshelf, inside_groups: bool, same_type: bool) -> bool:
    if inside_groups:
        squares = _squares(grid)
    else:
        squares = []
        for t, cells in groups(shelf):
            if len(cells) == 4:
                rs = {r for r, _ in cells}
                cs = {c for _, c in cells}
                if len(rs) == 2 and len(cs) == 2:
                    squares.append((min(rs), min(cs), t))
    for i, (r1, c1, t1) in enumerate(squares):
        for r2, c2, t2 in squares[i + 1:]:
            disjoint = abs(r1 - r2) >= 2 or abs(c1 - c2) >= 2
            if disjoint and (t1 == t2 or not same_type):
                return True
    return False


def _lines_full(grid: np.ndarray, axis: int) -> list[np.ndarray]:
    lines = [grid[r, :] for r in range(ROWS)] if axis == 0 else [grid[:, c] for c in range(COLS)]
    return [line for line in lines if (line != EMPTY).all()]


DIAGONALS = (
    tuple((i, i) for i in range(5)),
    tuple((i + 1, i) for i in range(5)),
    tuple((i, 4 - i) for i in range(5)),
    tuple((i + 1, 4 - i) for i in range(5)),
)


def _same_type(grid: np.ndarray, cells: Iterable[tuple[int, int]]) -> bool:
    values = {int(grid[r, c]) for r, c in cells}
    return len(values) == 1 and EMPTY not in values


def common_goal_met(
    key: str,
    shelf: Bookshelf | Sequence[str] | np.ndarray,
    *,
    squares_inside_groups: bool = False,
    squares_same_type: bool = False,
) -> bool:
    """Whether ``shelf`` meets the common goal ``key`` (one of :data:`COMMON_GOAL_KEYS`).

    ``squares_inside_groups`` and ``squares_same_type`` select the TWO_SQUARES variants.
    """
    key = check_goal_key(key)
    shelf = as_shelf(shelf)
    grid = shelf.grid
    if key == "SIX_PAIRS":
        return sum(1 for _, cells in groups(shelf) if len(cells) >= 2) >= 6
    if key == "FOUR_GROUPS_OF_FOUR":
        return sum(1 for _, cells in groups(shelf) if len(cells) >= 4) >= 4
    if key == "TWO_SQUARES":
        return _two_squares(grid, shelf, squares_inside_groups, squares_same_type)
    if key == "FOUR_CORNERS":
        return _same_type(grid, [(0, 0), (0, COLS - 1), (ROWS - 1, 0), (ROWS - 1, COLS - 1)])
    if key == "EIGHT_SAME":
        return max(shelf.counts()) >= 8
    if key == "DIAGONAL":
        return any(_same_type(grid, diag) for diag in DIAGONALS)
    if key == "X_SHAPE":
        return any(_same_type(grid, [(r, c), (r, c + 2), (r + 1, c + 1), (r + 2, c), (r + 2, c + 2)])
                   for r in range(ROWS - 2) for c in range(COLS - 2))
    if key == "FOUR_ROWS_MAX3":
        return sum(1 for line in _lines_full(grid, 0) if len(set(line.tolist())) <= 3) >= 4
    if key == "THREE_COLUMNS_MAX3":
        return sum(1 for line in _lines_full(grid, 1) if len(set(line.tolist())) <= 3) >= 3
    if key == "TWO_ROWS_ALL_DIFFERENT":
        return sum(1 for line in _lines_full(grid, 0) if len(set(line.tolist())) == COLS) >= 2
    if key == "TWO_COLUMNS_ALL_DIFFERENT":
        return sum(1 for line in _lines_full(grid, 1) if len(set(line.tolist())) == ROWS) >= 2
    if key == "STAIRCASE":
        heights = [column_height(grid, c) for c in range(COLS)]
        if None in heights:
            return False
        return any(heights == list(range(k, k + COLS)) or heights == list(range(k + COLS - 1, k - 1, -1))
                   for k in (1, 2))
    raise AssertionError(key)  # pragma: no cover


def goals_met(shelf: Bookshelf | Sequence[str] | np.ndarray, keys: Iterable[str] | None = None,
              **options: bool) -> dict[str, bool]:
    """``common_goal_met`` for several keys (all 12 by default)."""
    return {key: common_goal_met(key, shelf, **options) for key in (keys or COMMON_GOAL_KEYS)}


def shelf_points(shelf: Bookshelf | Sequence[str] | np.ndarray, personal: int | None = None) -> int:
    """Adjacency points plus, when a card is given, personal goal points (tokens not included)."""
    return adjacency_points(shelf) + (personal_goal_points(personal, shelf) if personal else 0)
