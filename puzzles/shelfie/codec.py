"""Integer actions, per-cell chance and observation tensors of My Shelfie, for the adapters.

Player actions: every ordered straight line of 1 to 3 orthogonally adjacent cells of
the 9x9 living room (81 singles, 288 ordered pairs, 756 ordered triples: 1,125
sequences, numbered in that order, each group in reading order of its first cell,
then direction, then ``itertools.permutations`` order), times the shelf column:
``id = 5 * sequence + column``; ``num_actions = 5,625``.  The cell order is the
placement order (the first cell lands lowest), as in :class:`puzzles.shelfie.engine.Move`.

Chance: a refill (one :class:`Refill` naming a tile for each of up to 45 cells) has far
too many outcomes to list, so the adapters split it into one explicit chance node per
usable cell, in row-major order: outcome ``t`` (0..5) puts a tile of type ``t`` there,
outcome ``6`` leaves it empty.  The probabilities are the exact ones of the engine's
refill: with ``n`` tiles left to draw and ``m`` cells left, a cell stays empty with
probability ``max(0, m - n) / m``, else gets type ``t`` in proportion to the tiles of
type ``t`` left; the whole refill is applied to the engine when its last cell is
drawn.  (Same distribution as :meth:`ShelfieState.sample_chance`, which the
PettingZoo adapter uses directly.)  The drawn cells of a refill in progress are
``pending``, a list the adapter keeps beside the state.

Observation tensor (float32, flattened; seats rotated so the observer comes first),
built from ``observation(player)`` only (the other seats' personal cards stay hidden):
the board as 9x9x6 one-hot planes plus the usable-cell mask (567), each shelf as 6x5x6
one-hot (180 per seat), own personal card one-hot (12), the common goals one-hot
(2 x the number of goal cards), the top token of each goal stack / 8 (2), tokens taken
per seat and goal / 8, the end-game token holder one-hot (seats + none), the bag
counts / 22 (6), the seat to move one-hot, refill due, turn / 100.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np

from puzzles.codec import action_mask
from puzzles.shelfie.components import COLS, COMMON_GOAL_KEYS, EMPTY, LETTERS, NUM_TYPES, ROWS
from puzzles.shelfie.engine import BOARD_SIZE, Move, Refill, ShelfieState, usable_cells

Cell = tuple[int, int]


def _sequences() -> list[tuple[Cell, ...]]:
    singles = [((r, c),) for r in range(BOARD_SIZE) for c in range(BOARD_SIZE)]
    out: list[tuple[Cell, ...]] = list(singles)
    for length in (2, 3):
        for r in range(BOARD_SIZE):
            for c in range(BOARD_SIZE):
                for dr, dc in ((0, 1), (1, 0)):
                    line = [(r + dr * k, c + dc * k) for k in range(length)]
                    if all(0 <= y < BOARD_SIZE and 0 <= x < BOARD_SIZE for y, x in line):
                        out.extend(itertools.permutations(line))
    return out


SEQUENCES: tuple[tuple[Cell, ...], ...] = tuple(_sequences())
SEQUENCE_INDEX: dict[tuple[Cell, ...], int] = {s: i for i, s in enumerate(SEQUENCES)}
NUM_ACTIONS = COLS * len(SEQUENCES)
EMPTY_OUTCOME = NUM_TYPES


class ShelfieCodec:
    """Action ids, per-cell chance and tensors for one player count."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = NUM_TYPES + 1

    def __init__(self, state: ShelfieState) -> None:
        n = state.num_players
        self.num_players = n
        self.cells = usable_cells(n)
        self.max_game_length = ROWS * COLS * n + n  # every turn fills at least one shelf cell
        self.max_chance_nodes = len(self.cells) * (self.max_game_length + 1)
        self.mask = state.mask.astype(np.float32)
        self.tensor_size = (9 * 9 * (NUM_TYPES + 1) + n * ROWS * COLS * NUM_TYPES + 12 + 2 * len(COMMON_GOAL_KEYS)
                            + 2 + 2 * n + (n + 1) + NUM_TYPES + n + 2)
        self.observation_shape = (self.tensor_size,)

    # -- actions ----------------------------------------------------------------------------
    def encode(self, state: ShelfieState, action: Move) -> int:
        return COLS * SEQUENCE_INDEX[tuple(action.cells)] + action.column

    def decode(self, state: ShelfieState, action_id: int) -> Move:
        if not 0 <= action_id < NUM_ACTIONS:
            raise ValueError(f"no My Shelfie action {action_id} (ids are 0..{NUM_ACTIONS - 1})")
        sequence, column = divmod(action_id, COLS)
        return Move(SEQUENCES[sequence], column)

    def legal_ids(self, state: ShelfieState) -> list[int]:
        return sorted(self.encode(state, a) for a in state.legal_actions() if isinstance(a, Move))

    def legal_mask(self, state: ShelfieState, out: np.ndarray | None = None) -> np.ndarray:
        return action_mask(self.num_actions, self.legal_ids(state), out)

    def apply_id(self, state: ShelfieState, action_id: int) -> None:
        state.apply(self.decode(state, action_id))

    # -- chance: one node per usable cell of a refill ---------------------------------------------
    def chance_outcomes(self, state: ShelfieState, pending: list[int]) -> list[tuple[int, float]]:
        """(outcome, probability) for the next cell of the refill in progress."""
        left = state.refill_pool()
        for t in pending:
            if t != EMPTY:
                left[t] -= 1
        tiles, cells = sum(left), len(self.cells) - len(pending)
        out: list[tuple[int, float]] = []
        if tiles < cells:
            out.append((EMPTY_OUTCOME, (cells - tiles) / cells))
        scale = float(max(tiles, cells))
        out.extend((t, left[t] / scale) for t in range(NUM_TYPES) if left[t] > 0)
        return sorted(out)

    def apply_chance(self, state: ShelfieState, pending: list[int], outcome: int) -> None:
        """Draw one cell; the last one applies the whole :class:`Refill` to the engine."""
        if outcome not in dict(self.chance_outcomes(state, pending)):
            raise ValueError(f"chance outcome {outcome} is not possible here")
        pending.append(EMPTY if outcome == EMPTY_OUTCOME else outcome)
        if len(pending) == len(self.cells):
            refill = Refill(tuple(pending))
            pending.clear()
            state.apply(refill)

    def chance_text(self, pending: list[int], outcome: int) -> str:
        r, c = self.cells[len(pending)] if len(pending) < len(self.cells) else (-1, -1)
        tile = "." if outcome == EMPTY_OUTCOME else LETTERS[outcome]
        return f"refill {'abcdefghi'[c]}{r + 1}:{tile}"

    # -- observations ------------------------------------------------------------------------
    def observation_tensor(self, state: ShelfieState, player: int) -> np.ndarray:
        return self.tensor_of(state.observation(player))

    def tensor_of(self, obs: dict[str, Any]) -> np.ndarray:
        """The tensor of an ``observation(player)`` dict (layout in the module docstring)."""
        n, me = self.num_players, int(obs["player"])
        seats = [(me + k) % n for k in range(n)]
        t = np.zeros(self.tensor_size, dtype=np.float32)
        board = t[: 81 * NUM_TYPES].reshape(9, 9, NUM_TYPES)
        for r, row in enumerate(obs["board"]):
            for c, ch in enumerate(row):
                if ch in LETTERS:
                    board[r, c, LETTERS.index(ch)] = 1
        i = 81 * NUM_TYPES
        t[i : i + 81] = self.mask.reshape(-1)
        i += 81
        for seat in seats:
            shelf = t[i : i + ROWS * COLS * NUM_TYPES].reshape(ROWS, COLS, NUM_TYPES)
            for r, row in enumerate(obs["shelves"][seat]):
                for c, ch in enumerate(row):
                    if ch in LETTERS:
                        shelf[r, c, LETTERS.index(ch)] = 1
            i += ROWS * COLS * NUM_TYPES
        t[i + int(obs["personal_cards"][me]) - 1] = 1
        i += 12
        for key in obs["common_goals"]:
            t[i + COMMON_GOAL_KEYS.index(key)] = 1
            i += len(COMMON_GOAL_KEYS)
        for stack in obs["token_stacks"]:
            t[i] = stack[0] / 8.0 if stack else 0.0
            i += 1
        for seat in seats:
            for g in range(2):
                t[i] = obs["tokens"][seat][g] / 8.0
                i += 1
        end = obs["end_token"]
        t[i + (n if end is None else seats.index(end))] = 1
        i += n + 1
        for k, ch in enumerate(LETTERS):
            t[i + k] = obs["bag"][ch] / 22.0
        i += NUM_TYPES
        t[i + seats.index(int(obs["to_move"]))] = 1
        i += n
        t[i] = float(obs["needs_refill"])
        t[i + 1] = int(obs["turn"]) / 100.0
        i += 2
        assert i == self.tensor_size
        return t

    def observation_string(self, state: ShelfieState, player: int) -> str:
        return json.dumps(state.observation(player), sort_keys=True, separators=(",", ":"))

    def information_state_string(self, state: ShelfieState, player: int, history: list[str] | None = None) -> str:
        """The observation plus every public action so far (moves and refills are public)."""
        return self.observation_string(state, player) + "|" + " ".join(history or [])

    def opening(self, state: ShelfieState) -> ShelfieState:
        return state

    def to_string(self, state: ShelfieState) -> str:
        return state.render_text()

    def rgb_array(self, state: ShelfieState, cell: int = 12) -> np.ndarray:
        """The living room then every shelf, left to right, as an RGB image (``uint8``), in the SVG picture's colours."""
        from puzzles.shelfie.render import COLOURS

        n = self.num_players
        image = np.zeros((BOARD_SIZE, BOARD_SIZE + n * (COLS + 1), 3), dtype=np.uint8)
        image[:, :] = (74, 47, 23)  # outside the board and the shelves
        tiles = np.array([_rgb(COLOURS[t]) for t in range(NUM_TYPES)], dtype=np.uint8)
        for r in range(BOARD_SIZE):
            for c in range(BOARD_SIZE):
                t = int(state.board[r, c])
                if state.mask[r, c]:
                    image[r, c] = tiles[t] if t != EMPTY else (217, 201, 163)
        for seat in range(n):
            left = BOARD_SIZE + 1 + seat * (COLS + 1)
            for r in range(ROWS):
                for c in range(COLS):
                    t = int(state.shelves[seat, r, c])
                    image[r, left + c] = tiles[t] if t != EMPTY else (139, 90, 43)
        return np.repeat(np.repeat(image, cell, axis=0), cell, axis=1)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def codec(state: Any) -> ShelfieCodec:
    """The registry hook (``GameInfo.codec``)."""
    return ShelfieCodec(state)
