"""The Blokus rule engine: :class:`BlokusState` implements :class:`puzzles.game.GameState`.

The rules as implemented, with every rule decision, are in ``docs/rules/blokus.md``.
In short:

* Colors move in the order blue, yellow, red, green.  By default each color
  starts in its own corner: blue top-left (a20), yellow top-right (t20), red
  bottom-right (t1), green bottom-left (a1) — Pentobi's corners.  With
  ``free_corners`` a first piece may cover any corner cell not yet occupied.
* A color with no legal placement must play the explicit pass move
  (:data:`PASS`, text ``pass``); that color then has no more turns (moves never
  become legal again).  A color that placed all 21 pieces is skipped.  The game
  ends when no color has turns left.  Records (SGF) do not store passes; they
  are re-inserted on loading.
* Variants: ``classic`` (4 seats, one color each); ``two-player`` (seat 0 plays
  blue+red, seat 1 yellow+green, score = sum of own colors); ``teams`` (4 seats,
  one color each, blue+red vs yellow+green: every seat's score is its team's
  sum, and ``returns`` give 1 to both members of the winning team, 0.5 each on a
  tie); ``three-player`` (seats 0..2 play blue, yellow, red; green's k-th move
  (k = pieces green placed so far) is chosen by seat ``k % 3``; green's score
  counts for nobody); ``duo`` (14x14, two colors purple and orange starting at
  e10 and j5, i.e. (5,5) and (10,10) counted 1-based from the top-left);
  ``solitaire-WxH-k`` (:func:`solitaire_variant`: one seat plays ``k`` colors on a
  board of W columns and H rows, each color from its own corner of the rectangle).
* Scores: -1 per square not placed; +15 when all 21 pieces are placed, +5 more
  when the last one was the monomino.
* Undo restores a snapshot of the per-color arrays that a move changes (about
  4 kB on 20x20), so search can push/pop without copying the world.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from puzzles.blokus import kernel as K
from puzzles.blokus.tables import (
    MONOMINO,
    NUM_PIECES,
    PASS,
    PIECE_NAMES,
    BoardTables,
    Move,
    board_tables,
    cell_name,
    check_board_sides,
)
from puzzles.game import TERMINAL, GameState, IllegalActionError, shared_win_returns

Cell = tuple[int, int]


@dataclass(frozen=True)
class Variant:
    """A Blokus variant: board, colors, seats, record names, starting cells.

    The board has ``width`` columns and ``height`` rows (0: ``size``, a square); ``size`` is
    ``max(width, height)``.
    """

    name: str
    size: int
    colors: tuple[str, ...]
    num_players: int
    sgf_game: str
    sgf_props: tuple[str, ...]
    starts: tuple[tuple[Cell, ...], ...]  # per color: cells a first piece may cover
    seat_names: tuple[str, ...]
    width: int = 0
    height: int = 0

    def __post_init__(self) -> None:
        if not self.width:
            object.__setattr__(self, "width", self.size)
        if not self.height:
            object.__setattr__(self, "height", self.size)
        if self.size != max(self.width, self.height):
            raise ValueError(f"variant {self.name}: size {self.size} is not max({self.width}, {self.height})")

    @property
    def num_colors(self) -> int:
        return len(self.colors)

    @property
    def is_solitaire(self) -> bool:
        """One seat plays every color (:func:`solitaire_variant`)."""
        return self.name.startswith("solitaire-")

    @property
    def is_standard_board(self) -> bool:
        """The board and colors of a Pentobi game (SGF records and codecs exist for these only)."""
        return not self.is_solitaire


_CORNERS = ((0, 0), (0, 19), (19, 19), (19, 0))
_FOUR = ("blue", "yellow", "red", "green")

VARIANTS: dict[str, Variant] = {
    "classic": Variant("classic", 20, _FOUR, 4, "Blokus", ("1", "2", "3", "4"), tuple((c,) for c in _CORNERS), _FOUR),
    "two-player": Variant(
        "two-player", 20, _FOUR, 2, "Blokus Two-Player", ("1", "2", "3", "4"), tuple((c,) for c in _CORNERS),
        ("blue+red", "yellow+green"),
    ),
    "teams": Variant("teams", 20, _FOUR, 4, "Blokus", ("1", "2", "3", "4"), tuple((c,) for c in _CORNERS), _FOUR),
    "three-player": Variant(
        "three-player", 20, _FOUR, 3, "Blokus Three-Player", ("1", "2", "3", "4"), tuple((c,) for c in _CORNERS),
        _FOUR[:3],
    ),
    "duo": Variant("duo", 14, ("purple", "orange"), 2, "Blokus Duo", ("B", "W"), (((4, 4),), ((9, 9),)), ("purple", "orange")),
}


#: The colors a k-color solitaire uses; each keeps its classic corner (blue top-left, yellow top-right,
#: red bottom-right, green bottom-left), so two colors start in opposite corners.
SOLITAIRE_COLORS = {1: ("blue",), 2: ("blue", "red"), 3: ("blue", "yellow", "red"), 4: _FOUR}


def solitaire_variant(width: int, height: int, colors: int = 4) -> Variant:
    """The one-seat variant ``solitaire-WxH-k``: ``colors`` colors (1..4, :data:`SOLITAIRE_COLORS`) on a
    board of ``width`` columns and ``height`` rows (3..26 columns, 3..62 rows: :func:`check_board_sides`), each
    color from its own corner of the rectangle under the full rules."""
    if colors not in SOLITAIRE_COLORS:
        raise ValueError(f"a solitaire has 1 to 4 colors, not {colors}")
    check_board_sides(width, height)
    corner = {"blue": (0, 0), "yellow": (0, width - 1), "red": (height - 1, width - 1), "green": (height - 1, 0)}
    names = SOLITAIRE_COLORS[colors]
    return Variant(f"solitaire-{width}x{height}-{colors}", max(width, height), names, 1, "", (),
                   tuple((corner[c],) for c in names), ("solitaire",), width, height)


def get_variant(name: str) -> Variant:
    """A variant by name: one of :data:`VARIANTS`, or ``solitaire-WxH-k`` (:func:`solitaire_variant`)."""
    key = name.lower()
    if key in VARIANTS:
        return VARIANTS[key]
    parts = key.split("-")
    if len(parts) == 3 and parts[0] == "solitaire" and parts[2].isdigit():
        dims = parts[1].split("x")
        if len(dims) == 2 and all(d.isdigit() for d in dims):
            return solitaire_variant(int(dims[0]), int(dims[1]), int(parts[2]))
    raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}, solitaire-WxH-k")


REASONS = {
    1: "piece {piece} was already placed",
    2: "it touches a {color} piece along an edge",
    3: "the first {color} piece must cover a starting cell ({starts})",
    4: "it does not touch a {color} piece at a corner",
}


#: The variant each player count gets when none is named (duo is the other 2-player variant).
DEFAULT_VARIANTS = {4: "classic", 3: "three-player", 2: "two-player"}

#: The arrays a move changes, saved before it by the kernel (``uint8`` and ``int32`` buffers, :func:`K.play_entry`).
Snapshot = tuple[np.ndarray, np.ndarray]


def _seats_of_colors(variant: Variant) -> tuple[int, ...]:
    """The seat that moves each color (-1: the three-player green, whose k-th move seat ``k % 3`` chooses)."""
    colors = range(variant.num_colors)
    if variant.is_solitaire:
        return tuple(0 for _ in colors)
    if variant.name == "two-player":
        return tuple(c % 2 for c in colors)
    if variant.name == "three-player":
        return tuple(-1 if c == 3 else c for c in colors)
    return tuple(colors)


class BlokusState(GameState[Move]):
    """A Blokus position (mutable); ``apply``/``undo`` push and pop moves."""

    game_name: ClassVar[str] = "blokus"

    def __init__(self, variant: str | Variant = "classic", free_corners: bool = False) -> None:
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        if free_corners and (self.variant.name == "duo" or self.variant.is_solitaire):
            raise ValueError("free_corners applies to the 4-color variants only")
        self.free_corners = free_corners
        self.num_players = self.variant.num_players
        self._seat_of = _seats_of_colors(self.variant)
        self.tables: BoardTables = board_tables(self.variant.width, self.variant.height)
        self.ktables: K.KernelTables = K.kernel_tables(self.tables)
        nc, area = self.variant.num_colors, self.tables.area
        forbidden = np.repeat(self.tables.border[None, :], nc, axis=0)
        starts = np.zeros((nc, 4), dtype=np.int32)
        nstarts = np.zeros(nc, dtype=np.int32)
        for c in range(nc):
            cells = _CORNERS if free_corners else self.variant.starts[c]
            for i, (r, col) in enumerate(cells):
                starts[c, i] = self.tables.flat(r, col)
            nstarts[c] = len(cells)
        self.arrays = K.BlokusArrays(
            forbidden=forbidden,
            is_attach=np.zeros((nc, area), dtype=np.uint8),
            attach=np.zeros((nc, area), dtype=np.int32),
            attach_len=np.zeros(nc, dtype=np.int32),
            starts=starts,
            nstarts=nstarts,
            left=np.ones((nc, NUM_PIECES), dtype=np.uint8),
            placed=np.zeros(nc, dtype=np.int32),
            last_piece=np.full(nc, -1, dtype=np.int32),
            done=np.zeros(nc, dtype=np.uint8),
        )
        self.kernel_args = (tuple(self.ktables), tuple(self.arrays))  # what the kernels' *_entry functions take
        self._snapshot_sizes = K.snapshot_sizes(nc, area)
        self.owner = np.full(area, -1, dtype=np.int8)
        self.to_move = 0
        self.history: list[tuple[int, Move, Snapshot]] = []  # (color, move, snapshot before it)
        self._legal: list[Move] | None = None

    # -- small accessors ------------------------------------------------------
    @property
    def num_colors(self) -> int:
        return self.variant.num_colors

    @property
    def color_names(self) -> tuple[str, ...]:
        return self.variant.colors

    def current_color(self) -> int:
        """The color to move (-1 at the end)."""
        return self.to_move

    def player_of_color(self, color: int) -> int:
        """The seat that moves ``color`` now (three-player: green rotates)."""
        seat = self._seat_of[color]
        return seat if seat >= 0 else int(self.arrays.placed[color]) % 3

    def current_player(self) -> int:
        color = self.to_move
        if color < 0:
            return TERMINAL
        seat = self._seat_of[color]
        return seat if seat >= 0 else int(self.arrays.placed[color]) % 3

    def is_terminal(self) -> bool:
        return self.to_move < 0

    def is_chance_node(self) -> bool:
        return False  # Blokus has no chance

    def pieces_left(self, color: int) -> list[str]:
        return [PIECE_NAMES[p] for p in range(NUM_PIECES) if self.arrays.left[color, p]]

    @property
    def moves_played(self) -> list[tuple[int, Move]]:
        """(color, move) of every move so far, passes included."""
        return [(c, m) for c, m, _ in self.history]

    # -- move generation ------------------------------------------------------
    def legal_placements(self, color: int | None = None, ordered: bool = True) -> np.ndarray:
        """Placement numbers legal for ``color`` (default: the color to move), sorted unless ``ordered`` is
        False (then in the move generator's order, for callers that only need the set)."""
        color = self.to_move if color is None else color
        if color < 0:
            return np.zeros(0, dtype=np.int32)
        scratch = self.tables.scratch()
        scratch.stamp += 1
        n = K.gen_moves_entry(color, *self.kernel_args, scratch.marker, scratch.stamp, scratch.out)
        found = scratch.out[:n].copy()
        if ordered:
            found.sort()
        return found

    def legal_actions(self) -> list[Move]:
        if self._legal is None:
            if self.to_move < 0:
                self._legal = []
            else:
                moves = self.tables.moves
                found = self.legal_placements()
                self._legal = [moves[m] for m in found.tolist()] if len(found) else [PASS]
        return list(self._legal)

    def num_legal(self) -> int:
        return len(self.legal_actions())

    def illegal_reason(self, action: Move) -> str | None:
        """None when ``action`` is legal here, else a one-line reason."""
        move = action
        if not isinstance(move, Move):
            return f"not a Blokus move: {move!r} (parse text with string_to_action)"
        color = self.to_move
        if color < 0:
            return "the game is over"
        if move.is_pass:
            if self.legal_actions() != [PASS]:
                return f"{self.color_names[color]} still has legal moves and may not pass"
            return None
        if not self._on_this_board(move):
            return "this move belongs to another board size"
        code = K.check_move_entry(color, move.index, *self.kernel_args)
        if code == 0:
            return None
        if code == 2:
            for r, c in move.cells:
                who = self.owner[self.tables.flat(r, c)]
                if who >= 0:
                    return f"cell {cell_name(r, c, self.tables.rows)} is occupied by {self.color_names[who]}"
        size, cells = self.tables.rows, self.arrays.starts[color, : self.arrays.nstarts[color]]
        starts = ", ".join(cell_name(*self.tables.unflat(int(q)), size) for q in cells)
        return REASONS[code].format(piece=move.piece, color=self.color_names[color], starts=starts)

    def _on_this_board(self, move: Move) -> bool:
        """Whether placement ``move`` is one of this board's (a move of another board size is not)."""
        if not 0 <= move.index < self.tables.num_placements:
            return False
        mine = self.tables.moves[move.index]
        return mine is move or mine.cells == move.cells

    # -- playing --------------------------------------------------------------
    def apply(self, action: Move) -> None:
        """Play ``action`` (a :class:`Move`; text goes through :meth:`string_to_action` first)."""
        if (isinstance(action, Move) and not action.is_pass and self.to_move >= 0 and self._on_this_board(action)
                and self._play(action, True)):
            return  # a legal placement (checked and played by one kernel call)
        reason = self.illegal_reason(action)
        if reason is not None:
            who = self.color_names[self.to_move] if self.to_move >= 0 else "nobody"
            text = action.text if isinstance(action, Move) else repr(action)
            raise IllegalActionError(f"illegal move {text} for {who}: {reason}")
        self._apply_unchecked(action)

    def _apply_unchecked(self, move: Move) -> None:
        self._play(move, False)

    def _play(self, move: Move, check: bool) -> bool:
        """Make ``move`` (with ``check``: only when legal, else change nothing and return False)."""
        color = self.to_move
        n8, n32 = self._snapshot_sizes
        snapshot = (np.empty(n8, dtype=np.uint8), np.empty(n32, dtype=np.int32))
        after = K.play_entry(color, move.index, check, *self.kernel_args, self.owner, *snapshot)
        if after < -1:
            return False
        self.history.append((color, move, snapshot))
        self.to_move = after
        self._legal = None
        return True

    def undo(self) -> None:
        if not self.history:
            raise IndexError("no move to undo")
        color, move, (snap8, snap32) = self.history.pop()
        K.undo_entry(move.index, *self.kernel_args, self.owner, snap8, snap32)
        self.to_move = color
        self._legal = None

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        f, is_attach, attach, attach_len, starts, nstarts, left, placed, last_piece, done = self.arrays
        # starts and nstarts never change after __init__: shared
        arrays = (f.copy(), is_attach.copy(), attach.copy(), attach_len.copy(), starts, nstarts, left.copy(),
                  placed.copy(), last_piece.copy(), done.copy())
        new.arrays = K.BlokusArrays._make(arrays)
        new.kernel_args = (self.kernel_args[0], arrays)
        new.owner = self.owner.copy()
        new.history = list(self.history)
        new._legal = self._legal
        return new

    # -- outcome --------------------------------------------------------------
    def color_scores(self) -> list[int]:
        """Official score of every color (meaningful at the end; partial before)."""
        sizes = self.tables.piece_sizes
        a = self.arrays
        return [int(K.color_score(c, a.left, a.last_piece, sizes, MONOMINO)) for c in range(self.num_colors)]

    def scores(self) -> list[float]:
        return self.seat_scores(self.color_scores())

    def seat_scores(self, cs: list[int]) -> list[float]:
        """Seat scores from per-color scores, as the variant counts them."""
        name = self.variant.name
        if name == "two-player":
            return [float(cs[0] + cs[2]), float(cs[1] + cs[3])]
        if name == "teams":
            team = [cs[0] + cs[2], cs[1] + cs[3]]
            return [float(team[c % 2]) for c in range(4)]
        if name == "three-player":
            return [float(x) for x in cs[:3]]
        if self.variant.is_solitaire:
            return [float(sum(cs))]
        return [float(x) for x in cs]

    def returns(self) -> list[float]:
        return self.seat_returns(self.color_scores())

    def seat_returns(self, cs: list[int]) -> list[float]:
        """Search utilities per seat from per-color scores (teams: both members of the best team get 1)."""
        seats = self.seat_scores(cs)
        if self.variant.name == "teams":
            r = shared_win_returns(seats[:2])
            r = [1.0 if x == 1.0 else (0.5 if x > 0 else 0.0) for x in r]
            return [r[c % 2] for c in range(4)]
        return shared_win_returns(seats)

    # -- views ----------------------------------------------------------------
    def grid(self) -> list[list[int]]:
        """Owner color of every cell (-1 empty), row 0 at the top."""
        t = self.tables
        return self.owner.reshape(t.width, t.width)[1 : t.rows + 1, 1 : t.cols + 1].astype(int).tolist()

    def observation(self, player: int) -> dict[str, Any]:
        return {**self.to_json(), "grid": self.grid(), "to_move": self.to_move, "player": player}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "kibitz-blokus",
            "variant": self.variant.name,
            "free_corners": self.free_corners,
            "moves": [{"color": self.color_names[c], "move": m.text} for c, m, _ in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        free_corners = data.get("free_corners", False)
        if not isinstance(free_corners, bool):
            raise ValueError(f"free_corners: {free_corners!r} is not true or false")
        state = cls(data.get("variant", "classic"), free_corners)
        for i, entry in enumerate(data.get("moves", [])):
            text = entry["move"] if isinstance(entry, dict) else str(entry)
            color = entry.get("color") if isinstance(entry, dict) else None
            if color is not None and state.to_move >= 0 and color != state.color_names[state.to_move]:
                raise ValueError(f"move {i + 1}: recorded for {color} but {state.color_names[state.to_move]} is to move")
            state.apply(state.string_to_action(text))
        return state

    def action_to_string(self, action: Move) -> str:
        return action.text

    def string_to_action(self, text: str) -> Move:
        """The move written as ``text``: cells like ``a20,b20`` in any order and case, or ``pass``.

        Parses only (legality is :meth:`illegal_reason`'s job); ValueError with a
        one-line reason when the text names no placement on this board.
        """
        t = text.strip().lower()
        if t == "pass":
            return PASS
        return self.tables.moves[self.tables.placement_of(self.tables.parse_cells(t))]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlokusState) or type(other) is not type(self):
            return False
        return (self.variant == other.variant and self.free_corners == other.free_corners
                and [(c, m.index) for c, m, _ in self.history] == [(c, m.index) for c, m, _ in other.history])

    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def last_move(self) -> tuple[int, Move] | None:
        for color, move, _ in reversed(self.history):
            if not move.is_pass:
                return color, move
        return None

    def to_text(self, color: bool | None = None) -> str:
        from puzzles.blokus.render import board_text

        return board_text(self, color)

    def __str__(self) -> str:
        return self.to_text(color=False)

    def picture(self, seat: int | None = None, reveal: bool = False) -> str:
        """The whole table (nothing is hidden in Blokus: every seat sees the same picture)."""
        from puzzles.blokus.render import board_svg

        return board_svg(self)

    def _repr_svg_(self) -> str:
        return self.picture()


def new_game(players: int, seed: int = 0, variant: str | None = None, free_corners: bool = False) -> BlokusState:
    """The registry factory: an empty board for ``players`` seats.

    ``variant`` defaults to the one that fits the player count (4: classic,
    3: three-player, 2: two-player); Blokus has no chance, so ``seed`` is unused.
    """
    name = DEFAULT_VARIANTS.get(players) if variant is None else variant
    if name is None:
        raise ValueError(f"Blokus is played by 2 to 4 players, not {players}")
    chosen = get_variant(name)
    if chosen.num_players != players:
        raise ValueError(f"Blokus variant {chosen.name} is played by {chosen.num_players} players, not {players}")
    return BlokusState(chosen, free_corners)


def random_game(variant: str = "classic", seed: int = 0, free_corners: bool = False) -> BlokusState:
    """A finished game with uniformly random moves (Python engine; for tests and examples)."""
    rng = random.Random(seed)
    state = BlokusState(variant, free_corners)
    while not state.is_terminal():
        state._apply_unchecked(rng.choice(state.legal_actions()))
    return state


def perft(state: BlokusState, depth: int) -> int:
    """Number of move sequences of ``depth`` placements from ``state`` (passes are not plies)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    moves = state.legal_actions()
    if moves == [PASS]:
        state._apply_unchecked(PASS)
        try:
            return perft(state, depth)
        finally:
            state.undo()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state._apply_unchecked(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


__all__ = ["BlokusState", "DEFAULT_VARIANTS", "Variant", "VARIANTS", "get_variant", "new_game", "PASS", "Move", "perft",
           "random_game", "solitaire_variant", "SOLITAIRE_COLORS"]
