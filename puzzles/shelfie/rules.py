"""The :class:`Bookshelf` and the stand-alone scoring functions of My Shelfie.

A plain-Python face for analysis, the CLI and the solvers; every rule it states (groups, adjacency,
personal goals, the common goals) is computed by the compiled kernel (:mod:`puzzles.shelfie.kernel`),
the one implementation of the rules.  The component data and constants are in
:mod:`puzzles.shelfie.components` (re-exported here).

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

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from puzzles.shelfie import kernel
from puzzles.shelfie.components import (
    BOARD_MASKS,
    COLS,
    COMMON_GOAL_KEYS,
    EMPTY,
    EMPTY_CHARS,
    END_GAME_TOKEN,
    GROUP_POINTS,
    LETTERS,
    NUM_TYPES,
    PERSONAL_POINTS,
    ROWS,
    SCORING_TOKENS,
    TILES_PER_TYPE,
    TYPE_NAMES,
    board_mask,
    check_goal_key,
    load_data,
    personal_goal_card,
    personal_goal_grid,
    type_index,
)

__all__ = [
    "BOARD_MASKS", "COLS", "COMMON_GOAL_KEYS", "EMPTY", "EMPTY_CHARS", "END_GAME_TOKEN", "GROUP_POINTS",
    "LETTERS", "NUM_TYPES", "PERSONAL_POINTS", "ROWS", "SCORING_TOKENS", "TILES_PER_TYPE", "TYPE_NAMES",
    "Bookshelf", "adjacency_points", "as_shelf", "board_mask", "check_goal_key", "common_goal_met", "goals_met",
    "group_points", "groups", "load_data", "personal_goal_card", "personal_goal_grid", "personal_goal_matches",
    "personal_goal_points", "shelf_points", "type_index",
]


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
        lines = [line.split("#", 1)[0].strip() for line in text.removeprefix("\ufeff").splitlines()]
        lines = [line.replace(" ", "") for line in lines if line]
        if len(lines) == 1:
            lines = [part for part in lines[0].split("/") if part]
        return cls.from_rows(lines, strict=strict)

    def validate(self) -> None:
        """Raise ValueError if the shelf could not arise in play (floating tile, over-supply)."""
        for c in range(COLS):
            for r in range(ROWS - 1):
                if self.grid[r, c] != EMPTY and self.grid[r + 1, c] == EMPTY:
                    raise ValueError(f"column {c + 1}: tile at row {r + 1} sits above an empty cell "
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
# groups and scoring (computed by the kernel)
# ---------------------------------------------------------------------------------------------


def groups(shelf: Bookshelf | Sequence[str] | np.ndarray) -> list[tuple[int, list[tuple[int, int]]]]:
    """The connected same-type groups as (type, cells) pairs, in reading order of first cell."""
    grid = as_shelf(shelf).grid
    labels = np.empty(ROWS * COLS, dtype=np.int64)
    sizes = np.empty(ROWS * COLS, dtype=np.int64)
    boxes = np.empty((ROWS * COLS, 4), dtype=np.int64)
    n = int(kernel.label_groups(grid, labels, sizes, boxes))
    found: list[tuple[int, list[tuple[int, int]]]] = [(EMPTY, []) for _ in range(n)]
    for i, g in enumerate(labels.tolist()):
        if g >= 0:
            r, c = divmod(i, COLS)
            found[g] = (int(grid[r, c]), found[g][1])
            found[g][1].append((r, c))
    return found


def group_points(size: int) -> int:
    """Adjacency points of one group: 3: 2, 4: 3, 5: 5, 6 or more: 8."""
    return GROUP_POINTS[min(size, 6)]


def adjacency_points(shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """Points for groups of adjacent same-type tiles (the rulebook example scores 21)."""
    return int(kernel.adjacency(as_shelf(shelf).grid))


def personal_goal_matches(card: int, shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """How many of the 6 cells of personal goal ``card`` hold the required type."""
    return int(kernel.personal_matches(personal_goal_grid(card), as_shelf(shelf).grid))


def personal_goal_points(card: int, shelf: Bookshelf | Sequence[str] | np.ndarray) -> int:
    """Points of personal goal ``card`` (1..12): 0/1/2/4/6/9/12 for 0..6 matching cells."""
    return PERSONAL_POINTS[personal_goal_matches(card, shelf)]


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
    gid = kernel.GOAL_IDS[check_goal_key(key)]
    return bool(kernel.goal_met(gid, as_shelf(shelf).grid, bool(squares_inside_groups), bool(squares_same_type)))


def goals_met(shelf: Bookshelf | Sequence[str] | np.ndarray, keys: Iterable[str] | None = None,
              **options: bool) -> dict[str, bool]:
    """``common_goal_met`` for several keys (all 12 by default)."""
    return {key: common_goal_met(key, shelf, **options) for key in (keys or COMMON_GOAL_KEYS)}


def shelf_points(shelf: Bookshelf | Sequence[str] | np.ndarray, personal: int | None = None) -> int:
    """Adjacency points plus, when a card is given, personal goal points (tokens not included)."""
    return adjacency_points(shelf) + (personal_goal_points(personal, shelf) if personal else 0)
