"""The My Shelfie rule engine: :class:`ShelfieState`, a :class:`puzzles.game.GameState`.

A typed wrapper over the compiled rules: the state is a :class:`puzzles.shelfie.kernel.ShelfieArrays`
(``state.arrays``) and every rule (legal moves, a turn, refills, goals, scores) runs in the kernel;
this class adds the game protocol: typed actions, text, JSON, observations, resampling, pictures
and one-line reasons for illegal actions.  Its views (``board``, ``shelves``, ``bag``, ``tokens``,
``stacks``, ``to_move``...) read and write the kernel arrays.

Flow of a game
--------------
* :func:`new_game` deals the two common goals and the personal cards from its seed; the first
  state is a CHANCE node: the empty board must be filled.
* A refill is a chance outcome: a tuple with one entry per usable cell (row-major order), the
  tile type drawn for it or ``EMPTY`` when the bag ran short.  All tiles still on the board go back
  into the bag first.  :meth:`ShelfieState.sample_chance` draws it; the outcomes are too many to
  list (chance mode SAMPLED), so ``chance_outcomes`` / ``legal_actions`` are empty at a chance node.
* A player's action is a :class:`Move`: the board cells taken, in the order they go into the
  shelf (the first one lands lowest), and the shelf column.  ``legal_actions`` lists each distinct
  result once (orders giving the same type sequence are merged, keeping the first order in
  ``itertools.permutations`` order of the line's cells); ``apply`` accepts any legal order.

Rule decisions (see ``docs/rules/my-shelfie.md``)
-------------------------------------------------
* Refill rule: ``"isolated"`` (default, the printed rule): refill when no tile on the board has an
  orthogonal neighbour tile (an empty board included).  Option ``"four_or_fewer"``
  (a variant): refill when 4 or fewer tiles remain.  The refill is checked after every turn except the
  game's last one; when the bag runs short the cells that get a tile are chosen at random.
* Seat 0 is the first player; seats play in increasing order.  After a shelf is first filled
  (end-game token, +1) the round is completed, so seat ``n-1`` plays last.
* Common goal tokens: each card's stack (8,4 / 8,6,4 / 8,6,4,2, top first); a player takes at most
  one token per card, at the end of their turn, both cards possibly at once.
* Tie-break: among equal scores the seat furthest from the first player in turn order (the highest
  seat number) wins; ``returns()`` gives that seat 1, so there are no shared wins.
* The bag is kept as counts, not as a sequence: there is no order to leak.  Its per-type content is
  public anyway (22 per type minus what is on the board and in shelves), so observations show it;
  they hide the other players' personal goal cards.  :meth:`ShelfieState.resample` redraws
  those from the cards the player has not seen.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from puzzles.game import CHANCE, TERMINAL, GameState, IllegalActionError
from puzzles.shelfie import kernel
from puzzles.shelfie.components import (
    COLS,
    COMMON_GOAL_KEYS,
    EMPTY,
    END_GAME_TOKEN,
    LETTERS,
    NUM_TYPES,
    board_mask,
    check_goal_key,
)
from puzzles.shelfie.kernel import REFILL_RULES, cells_row, row_cells
from puzzles.shelfie.rules import Bookshelf

BOARD_SIZE = 9
COL_LETTERS = "abcdefghi"
Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    """Board coordinates as shown: column letter a..i, row number 1..9 (row 1 = top)."""
    return f"{COL_LETTERS[cell[1]]}{cell[0] + 1}"


def parse_cell(text: str) -> Cell:
    """Inverse of :func:`cell_name` (also accepts ``5d``)."""
    text = text.strip().lower()
    m = re.fullmatch(r"([a-i])([1-9])|([1-9])([a-i])", text)
    if not m:
        raise IllegalActionError(f"not a board cell: {text!r} (use a letter a-i and a row 1-9, e.g. d5)")
    col, row = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return (int(row) - 1, COL_LETTERS.index(col))


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """Take ``cells`` (in placement order: the first lands lowest) and put them in ``column`` (0-based)."""

    cells: tuple[Cell, ...]
    column: int

    def __str__(self) -> str:
        return " ".join(cell_name(c) for c in self.cells) + f" {self.column + 1}"


@dataclass(frozen=True, slots=True)
class Refill:
    """A chance outcome: the type drawn for each usable cell in row-major order (EMPTY: none)."""

    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return "refill:" + "".join(LETTERS[t] if t >= 0 else "." for t in self.tiles)


def usable_cells(num_players: int) -> list[Cell]:
    mask = board_mask(num_players)
    return [(r, c) for r in range(BOARD_SIZE) for c in range(BOARD_SIZE) if mask[r, c]]


def _neighbours(r: int, c: int) -> tuple[Cell, ...]:
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def _tile(board: np.ndarray, r: int, c: int) -> int:
    if 0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE:
        return int(board[r, c])
    return EMPTY


def board_needs_refill(board: np.ndarray, rule: str = "isolated") -> bool:
    """Whether the refill rule fires on the 9x9 ``board`` (see the module docstring)."""
    flat = np.ascontiguousarray(board, dtype=np.int8).reshape(-1)
    return bool(kernel.board_needs_refill(flat, REFILL_RULES.index(rule)))


def pick_error(board: np.ndarray, cells: tuple[Cell, ...]) -> str | None:  # noqa: C901
    """Why taking ``cells`` from ``board`` breaks the rules, or None if it is a legal pick."""
    if not 1 <= len(cells) <= 3:
        return f"take 1, 2 or 3 tiles, not {len(cells)}"
    if len(set(cells)) != len(cells):
        return "the same cell is named twice"
    for cell in cells:
        r, c = cell
        if not (0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE) or board[r, c] == EMPTY:
            return f"no tile at {cell_name(cell) if 0 <= r < 9 and 0 <= c < 9 else cell}"
        if not any(_tile(board, y, x) == EMPTY for y, x in _neighbours(r, c)):
            return f"tile at {cell_name(cell)} has no free side"
    ordered = sorted(cells)
    rows = {r for r, _ in ordered}
    cols = {c for _, c in ordered}
    if len(rows) > 1 and len(cols) > 1:
        return "the tiles are not in one straight line"
    span = (ordered[-1][0] - ordered[0][0]) + (ordered[-1][1] - ordered[0][1])
    if span != len(cells) - 1:
        return "the tiles are not adjacent to each other"
    return None


class ArrayList(list[Any]):
    """A list copy of a kernel array whose item assignments write through (``state.bag[t] -= 1``).

    Rows of a 2-d array are ArrayLists too, so ``state.tokens[s][g] = 8`` and ``state.tokens[s] =
    [8, 0]`` both reach the kernel state; the list compares and prints as a plain list.
    """

    __slots__ = ("_array",)

    def __init__(self, array: np.ndarray) -> None:
        super().__init__(array.tolist() if array.ndim == 1 else [ArrayList(row) for row in array])
        self._array = array

    def __setitem__(self, index: Any, value: Any) -> None:
        self._array[index] = value
        super().__setitem__(index, value if self._array.ndim == 1 else ArrayList(self._array[index]))


#: Room for the moves of one position (the kernel fills it; never read concurrently).
_MOVES = np.empty((kernel.MAX_MOVES, 5), dtype=np.int64)
#: A kernel move row ``(L, c0, c1, c2, column)`` as one integer: ``row + _CODE_OFFSET`` in base 82, then the column.
_CODE_OFFSET = np.array([0, 1, 1, 1, 0], dtype=np.int64)
_CODE_WEIGHTS = np.array([5 * 82**3, 5 * 82**2, 5 * 82, 5, 1], dtype=np.int64)
#: The :class:`Move` of each move code met so far (moves are immutable, so one object serves every position).
_MOVE_OF_CODE: dict[int, Move] = {}


def _move_of_code(code: int) -> Move:
    rest, column = divmod(code, 5)
    rest, c2 = divmod(rest, 82)
    length, c0 = divmod(rest // 82, 82)
    c1 = rest % 82
    row = [length, c0 - 1, c1 - 1, c2 - 1, column]
    move = _MOVE_OF_CODE[code] = Move(row_cells(row), column)
    return move


class ShelfieState(GameState[Move | Refill]):
    """One position of My Shelfie (see the module docstring for the rules as implemented)."""

    game_name: ClassVar[str] = "shelfie"

    def __init__(
        self,
        num_players: int,
        common_goals: tuple[str, str],
        personal_cards: tuple[int, ...],
        refill_rule: str = "isolated",
        squares_inside_groups: bool = False,
        squares_same_type: bool = False,
    ) -> None:
        self.mask = board_mask(num_players)
        if refill_rule not in REFILL_RULES:
            raise ValueError(f"unknown refill rule {refill_rule!r}; use one of {REFILL_RULES}")
        goals = tuple(check_goal_key(k) for k in common_goals)
        if len(goals) != 2 or goals[0] == goals[1]:
            raise ValueError(f"a game uses two different common goals, got {common_goals!r}")
        cards = tuple(int(c) for c in personal_cards)
        if len(cards) != num_players or len(set(cards)) != num_players or not all(1 <= c <= 12 for c in cards):
            raise ValueError(f"need {num_players} different personal goal cards in 1..12, got {personal_cards!r}")
        self.num_players = num_players
        self.common_goals: tuple[str, str] = (goals[0], goals[1])
        self._cards = cards
        self.arrays = kernel.new_state(num_players, (kernel.GOAL_IDS[goals[0]], kernel.GOAL_IDS[goals[1]]), cards,
                                       REFILL_RULES.index(refill_rule), squares_inside_groups, squares_same_type)
        self._board = self.arrays.board.reshape(BOARD_SIZE, BOARD_SIZE)
        self.refills = 0
        self.last_move: Move | None = None

    # -- views of the kernel state ---------------------------------------------------------------
    @property
    def refill_rule(self) -> str:
        return REFILL_RULES[int(self.arrays.meta[kernel.M_RULE])]

    @property
    def squares_inside_groups(self) -> bool:
        return bool(self.arrays.meta[kernel.M_SQIN])

    @property
    def squares_same_type(self) -> bool:
        return bool(self.arrays.meta[kernel.M_SQSAME])

    @property
    def personal_cards(self) -> tuple[int, ...]:
        return self._cards

    @personal_cards.setter
    def personal_cards(self, cards: tuple[int, ...]) -> None:
        self._cards = tuple(int(c) for c in cards)
        self.arrays.cards[:] = kernel.card_grids(self._cards)

    @property
    def board(self) -> np.ndarray:
        """The 9x9 living room (a view: writes change the game), EMPTY for empty or unusable cells."""
        return self._board

    @property
    def shelves(self) -> np.ndarray:
        """int8[seats, 6, 5] (a view: writes change the game)."""
        return self.arrays.shelves

    @shelves.setter
    def shelves(self, value: Any) -> None:
        self.arrays.shelves[:] = value

    @property
    def bag(self) -> list[int]:
        """Tiles per type in the bag."""
        return ArrayList(self.arrays.bag)

    @bag.setter
    def bag(self, value: Any) -> None:
        self.arrays.bag[:] = value

    @property
    def tokens(self) -> list[list[int]]:
        """The token each seat took per common goal (0: none)."""
        return ArrayList(self.arrays.tokens)

    @tokens.setter
    def tokens(self, value: Any) -> None:
        self.arrays.tokens[:] = value

    @property
    def stacks(self) -> list[list[int]]:
        """The tokens left on each common goal, top first."""
        meta, stacks = self.arrays.meta, self.arrays.stacks
        return [stacks[g, meta[kernel.M_SP0 + g]:meta[kernel.M_NTOK]].tolist() for g in range(2)]

    @stacks.setter
    def stacks(self, value: list[list[int]]) -> None:
        meta = self.arrays.meta
        for g, stack in enumerate(value):
            start = int(meta[kernel.M_NTOK]) - len(stack)
            self.arrays.stacks[g, start:meta[kernel.M_NTOK]] = stack
            meta[kernel.M_SP0 + g] = start

    @property
    def end_token(self) -> int | None:
        seat = int(self.arrays.meta[kernel.M_END])
        return None if seat < 0 else seat

    @end_token.setter
    def end_token(self, seat: int | None) -> None:
        self.arrays.meta[kernel.M_END] = -1 if seat is None else seat

    @property
    def to_move(self) -> int:
        return int(self.arrays.meta[kernel.M_TO_MOVE])

    @to_move.setter
    def to_move(self, seat: int) -> None:
        self.arrays.meta[kernel.M_TO_MOVE] = seat

    @property
    def needs_refill(self) -> bool:
        return bool(self.arrays.meta[kernel.M_REFILL])

    @needs_refill.setter
    def needs_refill(self, due: bool) -> None:
        self.arrays.meta[kernel.M_REFILL] = int(due)

    @property
    def game_over(self) -> bool:
        return bool(self.arrays.meta[kernel.M_OVER])

    @game_over.setter
    def game_over(self, over: bool) -> None:
        self.arrays.meta[kernel.M_OVER] = int(over)

    @property
    def turn(self) -> int:
        return int(self.arrays.meta[kernel.M_TURN])

    @turn.setter
    def turn(self, turn: int) -> None:
        self.arrays.meta[kernel.M_TURN] = turn

    # -- protocol: whose turn ---------------------------------------------------------------------
    def current_player(self) -> int:
        meta = self.arrays.meta
        if meta[kernel.M_OVER]:
            return TERMINAL
        if meta[kernel.M_REFILL]:
            return CHANCE
        return int(meta[kernel.M_TO_MOVE])

    # -- moves ----------------------------------------------------------------------------------
    def column_free(self, seat: int, column: int) -> int:
        return int(kernel.column_free(self.arrays.shelves[seat], column))

    def legal_actions(self) -> list[Move | Refill]:
        """The moves of the seat to move; empty at a chance node (refills are sampled) and at the end."""
        n = kernel.legal_moves(self.arrays, _MOVES)
        codes = ((_MOVES[:n] + _CODE_OFFSET) @ _CODE_WEIGHTS).tolist()
        known = _MOVE_OF_CODE
        return [known[code] if code in known else _move_of_code(code) for code in codes]

    def move_error(self, move: Move) -> str | None:
        """Why ``move`` is illegal now (one line), or None."""
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over"
        if player == CHANCE:
            return "the board must be refilled first (a chance outcome is due)"
        if not isinstance(move, Move):
            return f"not a move: {move!r}"
        if not (isinstance(move.column, int) and 0 <= move.column < COLS):
            return f"no shelf column {move.column!r} (columns are 1..{COLS})"
        error = pick_error(self.board, tuple(move.cells))
        if error:
            return error
        free = self.column_free(player, move.column)
        if len(move.cells) > free:
            return f"column {move.column + 1} has only {free} free cell(s) for {len(move.cells)} tiles"
        return None

    def illegal_reason(self, action: Move | Refill) -> str | None:
        """Why ``action`` (a move or a refill) is illegal now, or None."""
        if isinstance(action, Refill):
            return self.refill_error(action)
        return self.move_error(action)

    def apply(self, action: Move | Refill) -> None:
        """Play a move or a refill; IllegalActionError (state unchanged) if the rules forbid it."""
        if isinstance(action, Refill):
            self._apply_refill(action)
            return
        error = self.move_error(action)
        if error:
            raise IllegalActionError(error)
        kernel.apply_move(self.arrays, cells_row(action.cells, action.column))
        self.last_move = action

    # -- chance -----------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Move | Refill, float]]:
        """Always empty: refill outcomes are too many to list (chance mode SAMPLED); see sample_chance."""
        return []

    def refill_pool(self) -> list[int]:
        """Tile counts available to a refill: the bag plus the tiles still on the board."""
        board = self.arrays.board
        counts = np.bincount(board[board >= 0], minlength=NUM_TYPES)
        return (self.arrays.bag + counts).tolist()

    def sample_chance(self, rng: random.Random) -> Refill:
        """Draw a refill: every usable cell gets a random tile while the bag lasts."""
        if not self.needs_refill or self.game_over:
            raise IllegalActionError("no refill is due")
        pool = self.refill_pool()
        tiles = [t for t in range(NUM_TYPES) for _ in range(pool[t])]
        cells = int(self.mask.sum())
        k = min(cells, len(tiles))
        drawn = rng.sample(tiles, k)
        if k == cells:
            return Refill(tuple(drawn))
        out = [EMPTY] * cells
        for index, t in zip(sorted(rng.sample(range(cells), k)), drawn):
            out[index] = t
        return Refill(tuple(out))

    def refill_error(self, refill: Refill) -> str | None:
        """Why ``refill`` cannot be the refill now (one line), or None."""
        if not isinstance(refill, Refill):
            return f"not a refill: {refill!r}"
        if self.game_over or not self.needs_refill:
            return "no refill is due"
        cells = int(self.mask.sum())
        if len(refill.tiles) != cells:
            return f"a refill names {cells} cells, got {len(refill.tiles)}"
        pool = self.refill_pool()
        counts = [0] * NUM_TYPES
        for t in refill.tiles:
            if t != EMPTY:
                if not 0 <= t < NUM_TYPES:
                    return f"unknown tile type {t!r}"
                counts[t] += 1
        for t in range(NUM_TYPES):
            if counts[t] > pool[t]:
                return f"only {pool[t]} tiles of type {LETTERS[t]} can be drawn, refill has {counts[t]}"
        if sum(counts) != min(cells, sum(pool)):
            return f"a refill fills {min(cells, sum(pool))} cells, got {sum(counts)}"
        return None

    def _apply_refill(self, refill: Refill) -> None:
        error = self.refill_error(refill)
        if error:
            raise IllegalActionError(error)
        kernel.apply_refill(self.arrays, np.array(refill.tiles, dtype=np.int8))
        self.refills += 1

    # -- search helpers ---------------------------------------------------------------------------
    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.arrays = kernel.ShelfieArrays._make([a.copy() for a in self.arrays])
        other._board = other.arrays.board.reshape(BOARD_SIZE, BOARD_SIZE)
        return other

    # -- outcome ----------------------------------------------------------------------------------
    def shelf(self, seat: int) -> Bookshelf:
        return Bookshelf(self.shelves[seat].copy())

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points of ``seat`` by source (complete once the game is over)."""
        st = self.arrays
        parts = {
            "common_goals": int(st.tokens[seat].sum()),
            "end_token": END_GAME_TOKEN if self.end_token == seat else 0,
            "personal_goal": int(kernel.personal_points(st.cards[seat], st.shelves[seat])),
            "adjacency": int(kernel.adjacency(st.shelves[seat])),
        }
        parts["total"] = sum(parts.values())
        return parts

    def scores(self) -> list[float]:
        return [float(kernel.seat_score(self.arrays, s)) for s in range(self.num_players)]

    def winner(self) -> int:
        """The winning seat: best score; ties go to the seat latest in turn order."""
        return int(kernel.winner(self.arrays))

    def returns(self) -> list[float]:
        win = self.winner()
        return [1.0 if s == win else 0.0 for s in range(self.num_players)]

    def tile_counts(self) -> list[int]:
        """Tiles per type in bag + board + shelves (22 each while the rules are kept)."""
        st = self.arrays
        on_board = np.bincount(st.board[st.board >= 0], minlength=NUM_TYPES)
        in_shelves = np.bincount(st.shelves[st.shelves >= 0], minlength=NUM_TYPES)
        return (st.bag + on_board + in_shelves).tolist()

    # -- views and serialisation ------------------------------------------------------------------
    def board_rows(self) -> list[str]:
        return ["".join(LETTERS[t] if t >= 0 else ("." if self.mask[r, c] else " ")
                        for c, t in enumerate(row)) for r, row in enumerate(self.board.tolist())]

    def _public(self) -> dict[str, Any]:
        return {
            "game": "my-shelfie",
            "num_players": self.num_players,
            "refill_rule": self.refill_rule,
            "squares_inside_groups": self.squares_inside_groups,
            "squares_same_type": self.squares_same_type,
            "common_goals": list(self.common_goals),
            "token_stacks": self.stacks,
            "tokens": self.arrays.tokens.tolist(),
            "end_token": self.end_token,
            "board": self.board_rows(),
            "shelves": [Bookshelf(s).rows() for s in self.shelves],
            "bag": {LETTERS[t]: n for t, n in enumerate(self.arrays.bag.tolist())},
            "to_move": self.to_move,
            "needs_refill": self.needs_refill,
            "game_over": self.game_over,
            "turn": self.turn,
            "refills": self.refills,
            "last_move": str(self.last_move) if self.last_move else None,
        }

    def resample(self, player: int, rng: random.Random) -> Self:
        """This state with the other seats' personal cards redrawn from the cards ``player`` has not seen.

        The unseen cards (every card but ``player``'s own) are sorted, then drawn with ``rng``, so the
        result depends only on ``observation(player)`` and ``rng``.  Nothing else is hidden: the bag is
        public counts and its order is only drawn at a refill.
        """
        other = self.clone()
        own = self.personal_cards[player]
        unseen = sorted(c for c in range(1, 13) if c != own)
        drawn = iter(rng.sample(unseen, self.num_players - 1))
        other.personal_cards = tuple(own if s == player else next(drawn) for s in range(self.num_players))
        return other

    def observation(self, player: int) -> dict[str, Any]:
        data = self._public()
        data["player"] = player
        data["personal_cards"] = [c if s == player else None for s, c in enumerate(self.personal_cards)]
        data["public_points"] = [sum(self.tokens[s]) + (END_GAME_TOKEN if self.end_token == s else 0)
                                 + int(kernel.adjacency(self.shelves[s])) for s in range(self.num_players)]
        return data

    def to_json(self) -> dict[str, Any]:
        data = self._public()
        data["personal_cards"] = list(self.personal_cards)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        state = cls(data["num_players"], tuple(data["common_goals"]), tuple(data["personal_cards"]),
                    data.get("refill_rule", "isolated"), data.get("squares_inside_groups", False),
                    data.get("squares_same_type", False))
        for r, row in enumerate(data["board"]):
            for c, ch in enumerate(row):
                if ch not in ". ":
                    state.board[r, c] = LETTERS.index(ch)
        for s, rows in enumerate(data["shelves"]):
            state.shelves[s] = Bookshelf.from_rows(rows, strict=False).grid
        state.bag = [int(data["bag"][ch]) for ch in LETTERS]
        state.stacks = [list(s) for s in data["token_stacks"]]
        state.tokens = [list(t) for t in data["tokens"]]
        state.end_token = data["end_token"]
        state.to_move = data["to_move"]
        state.needs_refill = data["needs_refill"]
        state.game_over = data["game_over"]
        state.turn = data["turn"]
        state.refills = data.get("refills", 0)
        state.last_move = state.string_to_move(data["last_move"], check=False) if data.get("last_move") else None
        return state


    # -- text forms ----------------------------------------------------------------------------
    def action_to_string(self, action: Move | Refill) -> str:
        return str(action)

    def string_to_move(self, text: str, check: bool = False) -> Move:
        """Parse ``"d5 e5 3"`` (cells in placement order, then the shelf column 1..5).

        Parsing only, unless ``check``: then an illegal move raises IllegalActionError too.
        """
        tokens = [t for t in re.split(r"[\s,;>:-]+", text.strip()) if t]
        if len(tokens) < 2:
            raise IllegalActionError(f"expected cells then a column, e.g. 'd5 e5 3', got {text!r}")
        if not re.fullmatch(r"[1-5]", tokens[-1]):
            raise IllegalActionError(f"the last item must be a shelf column 1..5, got {tokens[-1]!r}")
        move = Move(tuple(parse_cell(t) for t in tokens[:-1]), int(tokens[-1]) - 1)
        if check:
            error = self.move_error(move)
            if error:
                raise IllegalActionError(error)
        return move

    def string_to_action(self, text: str) -> Move | Refill:
        """Parse a move (``"d5 e5 3"``) or a refill (``"refill:CB.G..."``); legality is not checked."""
        text = text.strip()
        if text.startswith("refill:"):
            body = text[len("refill:"):]
            bad = sorted({ch for ch in body if ch != "." and ch.upper() not in LETTERS})
            if bad or not body:
                raise IllegalActionError(f"not a refill: {text!r} (one letter of {LETTERS} or '.' per cell)")
            return Refill(tuple(EMPTY if ch == "." else LETTERS.index(ch.upper()) for ch in body))
        return self.string_to_move(text)

    def render_text(self, viewer: int | None = None, color: bool = False) -> str:
        from puzzles.shelfie.render import state_text

        return state_text(self, viewer, color)

    def to_svg(self, viewer: int | None = None) -> str:
        from puzzles.shelfie.render import state_svg

        return state_svg(self, viewer)

    def picture(self, seat: int | None = None, reveal: bool = False) -> str:
        """What ``seat`` sees: its own personal card only (None: nobody's); every card with ``reveal`` or once the
        game is over, when the rules turn them face up (``docs/rules/my-shelfie.md``)."""
        from puzzles.shelfie.render import PUBLIC

        everything = reveal or self.game_over
        return self.to_svg(viewer=None if everything else PUBLIC if seat is None else seat)

    def _repr_svg_(self) -> str:
        return self.picture()

    def __str__(self) -> str:
        return self.render_text()


def _goal_pair(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, str] | None:
    """``"SIX_PAIRS,DIAGONAL"`` or a pair of keys -> a checked pair of two different common goals."""
    if value is None or value == "":
        return None
    keys = tuple(check_goal_key(k.strip()) for k in (value.split(",") if isinstance(value, str) else value)
                 if k.strip())
    if len(keys) != 2 or keys[0] == keys[1]:
        raise ValueError(f"common_goals needs two different keys, e.g. SIX_PAIRS,DIAGONAL; got {value!r}")
    return (keys[0], keys[1])


def _card_list(value: str | tuple[int, ...] | list[int] | None) -> tuple[int, ...] | None:
    """``"3,7"`` or a sequence of card numbers -> a tuple of ints (checked by the state)."""
    if value is None or value == "":
        return None
    parts = value.split(",") if isinstance(value, str) else list(value)
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"personal_cards needs card numbers 1..12 separated by commas, got {value!r}") from None


def new_game(
    players: int = 2,
    seed: int | None = None,
    common_goals: str | tuple[str, ...] | None = None,
    personal_cards: str | tuple[int, ...] | None = None,
    refill_rule: str = "isolated",
    squares_inside_groups: bool = False,
    squares_same_type: bool = False,
) -> ShelfieState:
    """A fresh game for ``players`` seats, dealt from ``seed``; the board is still empty (a chance node).

    The two common goals and the personal cards (one per seat, in seat order) are dealt at random
    unless given (``"SIX_PAIRS,DIAGONAL"``, ``"3,7"`` or tuples); see :class:`ShelfieState` for the
    rule options.
    """
    goals, cards = deal(players, seed, common_goals, personal_cards)
    return ShelfieState(players, goals, cards, refill_rule=refill_rule,
                        squares_inside_groups=squares_inside_groups, squares_same_type=squares_same_type)


def deal(players: int, seed: int | None, common_goals: str | tuple[str, ...] | None = None,
         personal_cards: str | tuple[int, ...] | None = None) -> tuple[tuple[str, str], tuple[int, ...]]:
    """The common goals and personal cards :func:`new_game` deals from ``seed`` (those given are kept)."""
    rng = random.Random(seed)
    board_mask(players)
    goals = _goal_pair(common_goals) or tuple(rng.sample(COMMON_GOAL_KEYS, 2))
    cards = _card_list(personal_cards) or tuple(rng.sample(range(1, 13), players))
    return (goals[0], goals[1]), cards
