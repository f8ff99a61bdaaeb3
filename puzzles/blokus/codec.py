"""Integer actions and observation tensors of Blokus, for the OpenSpiel and PettingZoo adapters.

Layout (one codec per board size and variant):

* action ``m`` for ``0 <= m < P`` is placement number ``m`` of the board
  (:class:`puzzles.blokus.tables.BoardTables`: every placement of every piece on
  the variant's board, 30,433 on 20x20, 13,729 on 14x14 (duo)); action ``P`` is the pass;
  ``num_actions = P + 1``.  Which colour a placement is for follows from whose turn it is.
* observation tensor, shape ``(C + 1 + C, N, N)`` flattened, for ``C`` colours:
  planes ``0..C-1`` the cells of each colour, rotated so that plane 0 is the colour
  to move (the observer's point of view does not matter: Blokus has no hidden
  information); plane ``C`` all ones (board mask); planes ``C+1..2C`` the pieces
  each colour has left, piece ``p`` at cell ``(p // N, p % N)`` (21 pieces fit
  every board from 5x5 up), same colour order.
* strings: the observation string is the board text; the information-state
  string is the list of moves so far (perfect information, so it is the history).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES, PASS, Move


class BlokusCodec:
    """Action ids and tensors for one Blokus variant (see the module docstring)."""

    def __init__(self, state: BlokusState) -> None:
        if state.variant.is_solitaire:
            raise ValueError(f"Blokus codecs cover the game variants only, not the solitaire board {state.variant.name}")
        self.tables = state.tables
        self.size = state.tables.size
        self.num_colors = state.num_colors
        self.num_placements = state.tables.num_placements
        self.pass_id = self.num_placements
        self.num_actions = self.num_placements + 1
        self.num_chance_outcomes = 0
        self.max_game_length = self.num_colors * (NUM_PIECES + 1)
        self.max_chance_nodes = 0
        self.observation_shape = (2 * self.num_colors + 1, self.size, self.size)
        n, w, c = self.size, self.tables.width, self.num_colors
        inner = np.zeros((w, w), dtype=bool)
        inner[1 : n + 1, 1 : n + 1] = True
        self._inner = np.flatnonzero(inner.ravel())  # flat (bordered) index of every board cell, row-major
        # the tensor's constant part (the board mask plane), and per color to move the colors in plane order
        self._template = np.zeros(self.observation_shape, dtype=np.float32)
        self._template[c] = 1.0
        self._order = [np.array([(first + k) % c for k in range(c)], dtype=np.intp) for first in range(c)]
        self._order_planes = [order.astype(np.int8).reshape(c, 1, 1) for order in self._order]

    # -- actions ----------------------------------------------------------------------------
    def encode(self, state: BlokusState, action: Move) -> int:
        """The id of ``action``: its placement number, or ``num_placements`` for the pass."""
        return self.pass_id if action.is_pass else action.index

    def decode(self, state: BlokusState, action_id: int) -> Move:
        """The :class:`Move` of an id; ValueError outside ``0..num_actions-1``."""
        if action_id == self.pass_id:
            return PASS
        if not 0 <= action_id < self.num_placements:
            raise ValueError(f"no Blokus action {action_id} on the {self.size}x{self.size} board")
        return self.tables.moves[action_id]

    def legal_ids(self, state: BlokusState) -> list[int]:
        """Sorted ids of the legal actions (straight from the compiled move generator)."""
        if state.to_move < 0:
            return []
        found = state.legal_placements()
        return found.tolist() if len(found) else [self.pass_id]

    def legal_mask(self, state: BlokusState, out: np.ndarray | None = None) -> np.ndarray:
        """0/1 ``int8`` mask over all ids (``out`` is reused when given)."""
        if out is None:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        else:
            mask = out
            mask[:] = 0
        if state.to_move >= 0:
            found = state.legal_placements(ordered=False)
            if len(found):
                mask[found] = 1
            else:
                mask[self.pass_id] = 1
        return mask

    def apply_id(self, state: BlokusState, action_id: int) -> None:
        """Play the action with this id (checked by the engine)."""
        state.apply(self.decode(state, action_id))

    # -- chance (none) ------------------------------------------------------------------------
    def chance_outcomes(self, state: BlokusState, pending: list[int]) -> list[tuple[int, float]]:
        return []

    def apply_chance(self, state: BlokusState, pending: list[int], outcome: int) -> None:
        raise ValueError("Blokus has no chance nodes")

    def chance_text(self, pending: list[int], outcome: int) -> str:
        return f"chance {outcome}"

    def opening(self, state: BlokusState) -> BlokusState:
        return state

    # -- observations ------------------------------------------------------------------------
    def observation_tensor(self, state: BlokusState, player: int) -> np.ndarray:
        """Float32 planes (see the module docstring), flattened."""
        c, n, w = self.num_colors, self.size, self.tables.width
        planes = self._template.copy()
        first = max(state.to_move, 0)
        board = state.owner.reshape(w, w)[1 : n + 1, 1 : n + 1]
        np.equal(board, self._order_planes[first], out=planes[:c])  # plane k: the cells of color first + k
        planes[c + 1 :].reshape(c, n * n)[:, :NUM_PIECES] = state.arrays.left[self._order[first]]
        return planes.reshape(-1)

    def observation_string(self, state: BlokusState, player: int) -> str:
        return state.to_text(color=False)

    def information_state_string(self, state: BlokusState, player: int, history: list[str] | None = None) -> str:
        return " ".join(m.text for _, m in state.moves_played)

    def to_string(self, state: BlokusState) -> str:
        return state.to_text(color=False)

    def rgb_array(self, state: BlokusState, cell: int = 12) -> np.ndarray:
        """The board as an RGB image (``uint8``, ``cell`` pixels per square), in the SVG picture's colours."""
        from puzzles.blokus.render import FILL

        n = self.size
        palette = np.array([_rgb(FILL[name]) for name in state.color_names] + [(238, 238, 238)], dtype=np.uint8)
        image = palette[state.owner[self._inner].reshape(n, n).astype(np.intp)]  # -1 (empty) takes the last colour
        return np.repeat(np.repeat(image, cell, axis=0), cell, axis=1)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def codec(state: Any) -> BlokusCodec:
    """The registry hook (``GameInfo.codec``): the codec of ``state``'s variant."""
    return BlokusCodec(state)
