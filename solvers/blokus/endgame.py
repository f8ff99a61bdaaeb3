"""Exact endgame search for two-seat Blokus (Duo, two-player Classic): alpha-beta on the final margin.

When few placements are left, the game's end can be searched to the last move.  The value of a position is
the final score of the seat to move minus the other seat's, with best play on both sides (a negamax; a colour
that cannot move is skipped, as the engine does).  Maximising the margin also wins whenever a win can be
forced, since a forced win is a margin above 0.

The search runs on the rule engine itself (``BlokusState``: the compiled move generator, play and undo), with a
transposition table keyed by a Zobrist hash of the placements made (positions reached by the same placements in
another order are the same position, but for a colour that placed all its pieces, whose score depends on whether
the monomino came last: that adds a key of its own) and the larger pieces tried first.  It is bounded by a count of nodes and
a CPU deadline; past either it gives up (:class:`EndgameUnsolved`) and the caller searches as before.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import MONOMINO, NUM_PIECES, PASS
from puzzles.game import TERMINAL

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is: the value, a lower bound, an upper bound
POLL_EVERY = 256  # nodes between looks at the clock
PASS_INDEX = -1  # the placement number a pass stands for (a colour to move with no placement must pass)


class EndgameUnsolved(Exception):
    """The search passed its node count or deadline before proving a value."""


class Entry(NamedTuple):
    value: int
    kind: int
    best: int  # the placement that gave the value (-1: none), tried first on the next visit


@dataclass
class EndgameResult:
    """A proved endgame: the placement to play (an index into the board's placements), the margin it secures
    for the seat to move with best play on both sides, and the nodes searched."""

    placement: int  # -1: pass
    margin: int
    nodes: int


_ZOBRIST: dict[tuple[int, int], np.ndarray] = {}


def _zobrist(colors: int, placements: int) -> np.ndarray:
    """Random 64-bit keys, one per (colour, placement); the same for every search on one board."""
    key = (colors, placements)
    if key not in _ZOBRIST:
        rng = random.Random(20261203)
        _ZOBRIST[key] = np.array([[rng.getrandbits(63) for _ in range(placements)] for _ in range(colors)],
                                 dtype=np.int64)
    return _ZOBRIST[key]


def _settles(entry: Entry, alpha: int, beta: int) -> bool:
    """Whether a stored value answers the window (alpha, beta): exact, or a bound already outside it."""
    return entry.kind == EXACT or (entry.kind == LOWER and entry.value >= beta) or (
        entry.kind == UPPER and entry.value <= alpha)


class _Search:
    def __init__(self, state: BlokusState, max_nodes: int, deadline: float | None) -> None:
        if state.num_players != 2:
            raise ValueError("the endgame search is for two seats (Duo, two-player)")
        self.state = state
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[int, int], Entry] = {}
        self.keys = _zobrist(state.num_colors, state.tables.num_placements)
        self.sizes = state.tables.pl_size
        self.moves = state.tables.moves
        # A colour that placed all its pieces scores 5 more if the monomino came last: an order the set of
        # placements does not show, so such a colour adds its own key.
        self.finish_keys = [random.Random(f"finish {c}").getrandbits(63) for c in range(state.num_colors)]
        self.hash = 0
        for color, move, _ in state.history:
            if not move.is_pass:
                self.hash ^= int(self.keys[color, move.index])
        for color in range(state.num_colors):
            if state.arrays.placed[color] == NUM_PIECES and state.arrays.last_piece[color] == MONOMINO:
                self.hash ^= self.finish_keys[color]

    def step_key(self, color: int, m: int) -> int:
        """What placement ``m`` by ``color``, just played, changes in the hash (a pass: nothing)."""
        if m == PASS_INDEX:
            return 0
        key = int(self.keys[color, m])
        if self.sizes[m] == 1 and self.state.arrays.placed[color] == NUM_PIECES:
            key ^= self.finish_keys[color]
        return key

    def margin(self, seat: int) -> int:
        scores = self.state.scores()
        return int(scores[seat] - scores[1 - seat])

    def ordered(self, best: int) -> list[int]:
        """Legal placements, larger pieces first (the table's best move before all)."""
        found = self.state.legal_placements(ordered=False)
        order = np.argsort(-self.sizes[found], kind="stable")
        moves = found[order].tolist()
        if best >= 0 and best in moves:
            moves.remove(best)
            moves.insert(0, best)
        return moves

    def value(self, alpha: int, beta: int) -> tuple[int, int]:
        """(margin for the seat to move, best placement) with the usual fail-soft alpha-beta meaning."""
        self.nodes += 1
        if self.nodes % POLL_EVERY == 0 and (self.nodes > self.max_nodes or
                                             (self.deadline is not None and time.process_time() > self.deadline)):
            raise EndgameUnsolved(f"unsolved after {self.nodes:,} nodes")
        state = self.state
        seat = state.current_player()
        key = (self.hash, state.to_move)
        entry = self.table.get(key)
        if entry is not None and _settles(entry, alpha, beta):
            return entry.value, entry.best
        start_alpha = alpha
        best_value, best_move = -10**9, -1
        for m in self.ordered(entry.best if entry else -1) or [PASS_INDEX]:
            color = state.to_move
            state._apply_unchecked(self.moves[m] if m != PASS_INDEX else PASS)
            step = self.step_key(color, m)
            self.hash ^= step
            try:
                nxt = state.current_player()
                if nxt == TERMINAL:
                    v = self.margin(seat)
                elif nxt == seat:
                    v = self.value(alpha, beta)[0]
                else:
                    v = -self.value(-beta, -alpha)[0]
            finally:
                self.hash ^= step
                state.undo()
            if v > best_value:
                best_value, best_move = v, m
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        kind = UPPER if best_value <= start_alpha else LOWER if best_value >= beta else EXACT
        self.table[key] = Entry(best_value, kind, best_move)
        return best_value, best_move


def solve_endgame(state: BlokusState, max_nodes: int = 100_000, deadline: float | None = None) -> EndgameResult:
    """The best placement for the colour to move and the margin it secures, by an exhaustive search.

    ``deadline``: a ``time.process_time()`` after which the search gives up.  Raises :class:`EndgameUnsolved`
    past ``max_nodes`` or the deadline (the state is left as it was), ValueError at the end of the game or for a
    game of more than two seats."""
    if state.is_terminal():
        raise ValueError("the game is over")
    search = _Search(state, max_nodes, deadline)
    value, best = search.value(-10**9, 10**9)
    return EndgameResult(best, value, search.nodes)
