"""The My Shelfie rules in plain Python: the reference the compiled kernel is checked against.

Production code plays :mod:`puzzles.shelfie.kernel`; these readable functions (groups, scoring, every
common goal, move generation, a whole turn) are kept here, for tests only, so the differential tests
(``tests/test_shelfie_*.py``) compare the kernel with an independent statement of the rules
(``docs/rules/my-shelfie.md``).  Same conventions as the kernel: row 0 = top, types 0..5,
``EMPTY`` (-1) an empty cell; a board is the 9x9 living room (unusable cells ``EMPTY``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from puzzles.shelfie.components import (
    COLS,
    COMMON_GOAL_KEYS,
    EMPTY,
    GROUP_POINTS,
    PERSONAL_POINTS,
    ROWS,
    check_goal_key,
    personal_goal_card,
)
from puzzles.shelfie.engine import Move, ShelfieState
from puzzles.shelfie.rules import Bookshelf

BOARD_SIZE = 9
Cell = tuple[int, int]
ShelfLike = Bookshelf | Sequence[str] | np.ndarray


def _grid(shelf: ShelfLike) -> np.ndarray:
    if isinstance(shelf, Bookshelf):
        return shelf.grid
    if isinstance(shelf, str) or (isinstance(shelf, Sequence) and shelf and isinstance(shelf[0], str)):
        return Bookshelf.from_rows(shelf, strict=False).grid
    return Bookshelf(shelf).grid


# ---------------------------------------------------------------------------------------------
# groups and scoring
# ---------------------------------------------------------------------------------------------


def groups(shelf: ShelfLike) -> list[tuple[int, list[tuple[int, int]]]]:
    """The connected same-type groups as (type, cells) pairs, in reading order of first cell."""
    grid = _grid(shelf)
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


def adjacency_points(shelf: ShelfLike) -> int:
    """Points for groups of adjacent same-type tiles (the rulebook example scores 21)."""
    return sum(group_points(len(cells)) for _, cells in groups(shelf))


def personal_goal_matches(card: int, shelf: ShelfLike) -> int:
    """How many of the 6 cells of personal goal ``card`` hold the required type."""
    grid = _grid(shelf)
    return sum(1 for r, c, t in personal_goal_card(card) if grid[r, c] == t)


def personal_goal_points(card: int, shelf: ShelfLike) -> int:
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


def _two_squares(grid: np.ndarray, shelf: ShelfLike, inside_groups: bool, same_type: bool) -> bool:
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
    shelf: ShelfLike,
    *,
    squares_inside_groups: bool = False,
    squares_same_type: bool = False,
) -> bool:
    """Whether ``shelf`` meets the common goal ``key`` (one of :data:`COMMON_GOAL_KEYS`).

    ``squares_inside_groups`` and ``squares_same_type`` select the TWO_SQUARES variants.
    """
    key = check_goal_key(key)
    grid = _grid(shelf)
    shelf = Bookshelf(grid)
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


def goals_met(shelf: ShelfLike, keys: Iterable[str] | None = None, **options: bool) -> dict[str, bool]:
    """``common_goal_met`` for several keys (all 12 by default)."""
    return {key: common_goal_met(key, shelf, **options) for key in (keys or COMMON_GOAL_KEYS)}


# ---------------------------------------------------------------------------------------------
# moves and whole turns
# ---------------------------------------------------------------------------------------------


def _neighbours(r: int, c: int) -> tuple[Cell, ...]:
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def _tile(board: np.ndarray, r: int, c: int) -> int:
    if 0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE:
        return int(board[r, c])
    return EMPTY


def free_cells(board: np.ndarray) -> set[Cell]:
    """Tiles with at least one free side (an empty, unusable or off-board neighbour)."""
    return {(r, c) for r in range(BOARD_SIZE) for c in range(BOARD_SIZE)
            if board[r, c] != EMPTY and any(_tile(board, y, x) == EMPTY for y, x in _neighbours(r, c))}


def board_needs_refill(board: np.ndarray, rule: str = "isolated") -> bool:
    """Whether the refill rule fires on ``board`` (see the module docstring)."""
    tiles = [(r, c) for r in range(BOARD_SIZE) for c in range(BOARD_SIZE) if board[r, c] != EMPTY]
    if rule == "four_or_fewer":
        return len(tiles) <= 4
    return not any(_tile(board, y, x) != EMPTY for r, c in tiles for y, x in _neighbours(r, c))


def pick_lines(board: np.ndarray, max_len: int = 3) -> list[tuple[Cell, ...]]:
    """All straight lines of 1..max_len adjacent free tiles (cells sorted), in reading order."""
    free = free_cells(board)
    lines: list[tuple[Cell, ...]] = []
    for r, c in sorted(free):
        lines.append(((r, c),))
        for dr, dc in ((0, 1), (1, 0)):
            line = [(r, c)]
            for k in range(1, max_len):
                nxt = (r + dr * k, c + dc * k)
                if nxt not in free:
                    break
                line.append(nxt)
                lines.append(tuple(line))
    return [line for line in lines if len(line) <= max_len]




def legal_actions(state: ShelfieState) -> list[Move]:
    """The moves of the seat to move, in the engine's order (empty at a chance node or the end)."""
    if state.game_over or state.needs_refill:
        return []
    board, player = state.board, state.to_move
    free = [int((state.shelves[player, :, c] == EMPTY).sum()) for c in range(COLS)]
    moves: list[Move] = []
    for line in pick_lines(board, min(3, max(free))):
        seen: set[tuple[int, ...]] = set()
        for order in itertools.permutations(line):
            types = tuple(int(board[cell]) for cell in order)
            if types in seen:
                continue
            seen.add(types)
            for column in range(COLS):
                if free[column] >= len(order):
                    moves.append(Move(order, column))
    return moves


class ReferenceState:
    """The public game state as plain Python (lists, a 9x9 board) with the turn played in Python."""

    def __init__(self, state: ShelfieState) -> None:
        self.num_players = state.num_players
        self.common_goals = state.common_goals
        self.personal_cards = state.personal_cards
        self.refill_rule = state.refill_rule
        self.squares_inside_groups = state.squares_inside_groups
        self.squares_same_type = state.squares_same_type
        self.board = state.board.copy()
        self.shelves = state.shelves.copy()
        self.stacks = [list(s) for s in state.stacks]
        self.tokens = [list(t) for t in state.tokens]
        self.end_token = state.end_token
        self.to_move = state.to_move
        self.needs_refill = state.needs_refill
        self.game_over = state.game_over
        self.turn = state.turn

    def column_free(self, seat: int, column: int) -> int:
        return int((self.shelves[seat, :, column] == EMPTY).sum())

    def apply(self, action: Move) -> None:
        """Play a legal move (no checks)."""
        seat = self.to_move
        shelf = self.shelves[seat]
        height = ROWS - self.column_free(seat, action.column)
        for cell in action.cells:
            shelf[ROWS - 1 - height, action.column] = self.board[cell]
            self.board[cell] = EMPTY
            height += 1
        self.turn += 1
        self._score_common_goals(seat)
        if self.end_token is None and bool((shelf != EMPTY).all()):
            self.end_token = seat
        if self.end_token is not None and seat == self.num_players - 1:
            self.game_over = True
            return
        self.to_move = (seat + 1) % self.num_players
        self.needs_refill = board_needs_refill(self.board, self.refill_rule)

    def _score_common_goals(self, seat: int) -> None:
        shelf = Bookshelf(self.shelves[seat])
        for g, key in enumerate(self.common_goals):
            if self.tokens[seat][g] or not self.stacks[g]:
                continue
            if common_goal_met(key, shelf, squares_inside_groups=self.squares_inside_groups,
                               squares_same_type=self.squares_same_type):
                self.tokens[seat][g] = self.stacks[g].pop(0)

    def public(self) -> dict[str, Any]:
        """The fields the engine's state is compared on."""
        return {"board": self.board.tolist(), "shelves": self.shelves.tolist(), "stacks": self.stacks,
                "tokens": self.tokens, "end_token": self.end_token, "to_move": self.to_move,
                "needs_refill": self.needs_refill, "game_over": self.game_over, "turn": self.turn}

    def scores(self) -> list[float]:
        """Tokens, end-game token, personal goal and adjacency points per seat."""
        return [float(sum(self.tokens[s]) + (1 if self.end_token == s else 0)
                      + personal_goal_points(self.personal_cards[s], Bookshelf(self.shelves[s]))
                      + adjacency_points(Bookshelf(self.shelves[s]))) for s in range(self.num_players)]


def engine_public(state: ShelfieState) -> dict[str, Any]:
    """The engine state's fields that :meth:`ReferenceState.public` lists."""
    return {"board": state.board.tolist(), "shelves": state.shelves.tolist(), "stacks": state.stacks,
            "tokens": state.tokens, "end_token": state.end_token, "to_move": state.to_move,
            "needs_refill": state.needs_refill, "game_over": state.game_over, "turn": state.turn}
