"""Integer actions and observation tensors of Project L, for the OpenSpiel and PettingZoo adapters.

Project L has no chance nodes: the decks are shuffled once from the game's seed,
so a game is deterministic given its seed, and the deck order is the hidden part
(imperfect information).

Action ids (``num_actions = 4,759``), with ``S = 9`` shapes and ``P = 387``
placements of all shapes on the 5x5 card (shape by shape, in
:func:`puzzles.projectl.cards.placements` order):

* ``0..26``: :class:`Take` — row ``W``, ``B``, ``G`` (solo grid) times slot 0..8: ``9 * row + slot``;
* ``27``: :class:`TakePiece`;
* ``28 + S * old + new``: :class:`Upgrade` (``28..108``);
* ``109 + P * (4 * kind + slot) + placement``: kind 0 :class:`Place`, 1
  :class:`MasterPlace`, 2 :class:`Touch`, on puzzle slot 0..3;
* then :class:`Master`, :class:`MasterEnd`, :class:`Recycle` ``W``, ``B``,
  :class:`Pass`, :class:`Done`.

Observation tensor (float32, flattened), built from ``observation(player)`` only, seats
rotated so the observer comes first.  A *card block* is: present, the 25 cells still
to fill, points / 5, reward shape one-hot (9) — 36 values.  Layout: the face-up row
(white row or solo grid: 9 card blocks; black row: 4), then per seat the stock
(9 counts / supply per shape), 4 puzzle card blocks, score / 50, puzzles done / 20;
then the supply (9, / supply per shape), deck sizes / 30 (2), actions left one-hot
(4), Master used, in Master, Master slots used (4), phase one-hot (play, touch,
over), round / max rounds, end triggered, seat to move one-hot.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from puzzles.codec import action_mask
from puzzles.projectl.cards import NCELLS, NSHAPES, SHAPE_INDEX, placements
from puzzles.projectl.engine import (
    DONE,
    MASTER,
    MASTER_END,
    PASS,
    PIECE,
    Action,
    Done,
    Master,
    MasterEnd,
    MasterPlace,
    Pass,
    Place,
    Placement,
    ProjectLState,
    Recycle,
    Take,
    TakePiece,
    Touch,
    Upgrade,
)

ROWS = "WBG"
UPGRADE_BASE = 28
PLACEMENT_BASE = UPGRADE_BASE + NSHAPES * NSHAPES
SHAPE_OFFSETS: tuple[int, ...] = tuple(sum(len(placements(t)) for t in range(s)) for s in range(NSHAPES + 1))
NUM_PLACEMENTS = SHAPE_OFFSETS[-1]
PLACEMENT_INDEX: dict[tuple[int, int], int] = {
    (s, m): SHAPE_OFFSETS[s] + i for s in range(NSHAPES) for i, m in enumerate(placements(s))
}
PLACEMENT_OF: tuple[tuple[int, int], ...] = tuple(sorted(PLACEMENT_INDEX, key=PLACEMENT_INDEX.__getitem__))
KINDS: tuple[type[Placement], ...] = (Place, MasterPlace, Touch)
TAIL_BASE = PLACEMENT_BASE + 3 * 4 * NUM_PLACEMENTS
TAIL: tuple[Action, ...] = (MASTER, MASTER_END, Recycle("W"), Recycle("B"), PASS, DONE)
NUM_ACTIONS = TAIL_BASE + len(TAIL)
CARD_BLOCK = 1 + NCELLS + 1 + NSHAPES
PHASES = ("play", "touch", "over")


def encode_action(action: Action) -> int:
    """The id of an action (layout in the module docstring)."""
    if isinstance(action, Take):
        return 9 * ROWS.index(action.row) + action.slot
    if isinstance(action, TakePiece):
        return 27
    if isinstance(action, Upgrade):
        return UPGRADE_BASE + NSHAPES * action.old + action.new
    if isinstance(action, Placement):
        kind = KINDS.index(type(action))
        return PLACEMENT_BASE + NUM_PLACEMENTS * (4 * kind + action.slot) + PLACEMENT_INDEX[(action.shape, action.mask)]
    if isinstance(action, (Master, MasterEnd, Recycle, Pass, Done)):
        return TAIL_BASE + TAIL.index(action)
    raise ValueError(f"not a Project L action: {action!r}")


def decode_action(action_id: int) -> Action:
    """The action of an id; ValueError outside ``0..num_actions-1``."""
    if 0 <= action_id < 27:
        return Take(ROWS[action_id // 9], action_id % 9)
    if action_id == 27:
        return PIECE
    if UPGRADE_BASE <= action_id < PLACEMENT_BASE:
        old, new = divmod(action_id - UPGRADE_BASE, NSHAPES)
        return Upgrade(old, new)
    if PLACEMENT_BASE <= action_id < TAIL_BASE:
        group, index = divmod(action_id - PLACEMENT_BASE, NUM_PLACEMENTS)
        kind, slot = divmod(group, 4)
        shape, mask = PLACEMENT_OF[index]
        return KINDS[kind](slot, shape, mask)
    if TAIL_BASE <= action_id < NUM_ACTIONS:
        return TAIL[action_id - TAIL_BASE]
    raise ValueError(f"no Project L action {action_id} (ids are 0..{NUM_ACTIONS - 1})")


class ProjectLCodec:
    """Action ids and tensors for one Project L set-up (player count, deck)."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = 0
    max_chance_nodes = 0

    def __init__(self, state: ProjectLState) -> None:
        n = state.num_players
        self.num_players = n
        self.cards = state.cards
        self.card_index = {c.id: i for i, c in enumerate(state.cards)}
        self.per_shape = max(state.per_shape, 1)
        self.max_rounds = state.max_rounds
        # a turn is at most 3 actions, one of them a Master of up to 6 steps; then finishing touches
        self.max_game_length = (state.max_rounds + 1) * n * 8 + n * (NSHAPES * state.per_shape + 1)
        self.tensor_size = (13 * CARD_BLOCK + n * (NSHAPES + 4 * CARD_BLOCK + 2) + NSHAPES + 2 + 4 + 2 + 4 + 3 + 2 + n)
        self.observation_shape = (self.tensor_size,)

    def opening(self, state: ProjectLState) -> ProjectLState:
        return state

    # -- actions ----------------------------------------------------------------------------
    def encode(self, state: ProjectLState, action: Action) -> int:
        return encode_action(action)

    def decode(self, state: ProjectLState, action_id: int) -> Action:
        return decode_action(action_id)

    def legal_ids(self, state: ProjectLState) -> list[int]:
        return sorted(encode_action(a) for a in state.legal_actions())

    def legal_mask(self, state: ProjectLState, out: np.ndarray | None = None) -> np.ndarray:
        return action_mask(self.num_actions, self.legal_ids(state), out)

    def apply_id(self, state: ProjectLState, action_id: int) -> None:
        state.apply(decode_action(action_id))

    # -- chance (none) ------------------------------------------------------------------------
    def chance_outcomes(self, state: ProjectLState, pending: list[int]) -> list[tuple[int, float]]:
        return []

    def apply_chance(self, state: ProjectLState, pending: list[int], outcome: int) -> None:
        raise ValueError("Project L has no chance nodes")

    def chance_text(self, pending: list[int], outcome: int) -> str:
        return f"chance {outcome}"

    # -- observations ------------------------------------------------------------------------
    def _card_block(self, t: np.ndarray, i: int, card: int, empty: int | None = None) -> None:
        c = self.cards[card]
        t[i] = 1
        cells = c.empty if empty is None else empty
        for k in range(NCELLS):
            if cells >> k & 1:
                t[i + 1 + k] = 1
        t[i + 1 + NCELLS] = c.points / 5.0
        t[i + 2 + NCELLS + SHAPE_INDEX[c.reward]] = 1

    def observation_tensor(self, state: ProjectLState, player: int) -> np.ndarray:
        return self.tensor_of(state.observation(player))

    def tensor_of(self, obs: dict[str, Any]) -> np.ndarray:
        """The tensor of an ``observation(player)`` dict (layout in the module docstring)."""
        n, me = self.num_players, int(obs["observer"])
        seats = [(me + k) % n for k in range(n)]
        t = np.zeros(self.tensor_size, dtype=np.float32)
        i = 0
        for row, width in (("white_row", 9), ("black_row", 4)):
            for slot in range(width):
                ids = obs[row]
                if slot < len(ids) and ids[slot] is not None:
                    self._card_block(t, i, self.card_index[ids[slot]])
                i += CARD_BLOCK
        for seat in seats:
            for s in range(NSHAPES):
                t[i + s] = obs["stock"][seat][s] / self.per_shape
            i += NSHAPES
            for slot in range(4):
                puzzles = obs["puzzles"][seat]
                if slot < len(puzzles):
                    card, empty, _ = puzzles[slot]
                    self._card_block(t, i, int(card), int(empty))
                i += CARD_BLOCK
            t[i] = obs["scores"][seat] / 50.0
            t[i + 1] = len(obs["done"][seat]) / 20.0
            i += 2
        for s in range(NSHAPES):
            t[i + s] = obs["supply"][s] / self.per_shape
        i += NSHAPES
        t[i] = obs["white_deck"]["size"] / 30.0
        t[i + 1] = obs["black_deck"]["size"] / 30.0
        i += 2
        t[i + min(max(int(obs["actions_left"]), 0), 3)] = 1
        i += 4
        t[i] = float(obs["master_used"])
        t[i + 1] = float(obs["in_master"])
        i += 2
        for k in range(4):
            t[i + k] = float(int(obs["master_slots"]) >> k & 1)
        i += 4
        t[i + PHASES.index(obs["phase"])] = 1
        i += 3
        t[i] = int(obs["round"]) / max(self.max_rounds, 1)
        t[i + 1] = float(int(obs["trigger_round"]) >= 0)
        i += 2
        t[i + seats.index(int(obs["player"]))] = 1
        i += n
        assert i == self.tensor_size
        return t

    def observation_string(self, state: ProjectLState, player: int) -> str:
        obs = state.observation(player)
        obs.pop("history")
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, state: ProjectLState, player: int, history: list[str] | None = None) -> str:
        """The observation with the public action history: everything ``player`` has seen."""
        return json.dumps(state.observation(player), sort_keys=True, separators=(",", ":"))

    def to_string(self, state: ProjectLState) -> str:
        return state.render_text()


def codec(state: Any) -> ProjectLCodec:
    """The registry hook (``GameInfo.codec``)."""
    return ProjectLCodec(state)
