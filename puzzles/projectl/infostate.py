"""Information states of Project L (``GameInfo.infostate``), functions of ``observation(player)`` alone.

Project L hides one thing from every seat alike: the order of the face-down decks
(``docs/rules/project-l.md``); everything else, every move included, is public.

* The string is the observation as compact JSON with its public move history
  (``history``): perfect recall.
* The tensor (float32, flat) is the observation tensor of
  :mod:`puzzles.projectl.codec` followed by what is known of the decks, per card
  of the box (52, box order): left the face-down decks (face up, taken, done,
  touched, the solo opponent's) and its place in a deck's known bottom (recycled
  rows: position + 1, / 30; 0 when not there) — 2 x 52 values.  Since no seat
  knows anything about the decks that another does not, and a move tells nothing
  about them, the position and these flags are all a seat knows about the hidden
  part; the tensor is that summary, not the move history (it is not perfect
  recall: two move orders that reach one position share it, the strings differ).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from puzzles.projectl.codec import ProjectLCodec
from puzzles.projectl.engine import ProjectLState

DECK_SCALE = 30.0


def information_state_string(obs: dict[str, Any]) -> str:
    """The information-state string of an ``observation(player)`` dict (compact JSON, history included)."""
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


def _cards_out(obs: dict[str, Any], card_index: dict[str, int]) -> set[int]:
    """Indices (box order) of every card that has left the face-down decks, from the observation."""
    out = {card_index[cid] for cid in obs["white_row"] + obs["black_row"] if cid is not None}
    for seat_puzzles in obs["puzzles"]:
        out.update(int(entry[0]) for entry in seat_puzzles)
    for seat_done in obs["done"]:
        out.update(int(c) for c in seat_done)
    for seat_touched in obs["touched"]:
        out.update(int(entry[0]) for entry in seat_touched)
    out.update(int(c) for c in obs["opp_cards"])
    return out


class ProjectLInformationState:
    """The game layer's information-state hook for Project L, for one set-up (player count, box)."""

    def __init__(self, state: ProjectLState) -> None:
        self.codec = ProjectLCodec(state)
        self.num_cards = len(state.cards)
        self.shape = (self.codec.tensor_size + 2 * self.num_cards,)

    def string(self, state: ProjectLState, player: int) -> str:
        return information_state_string(state.observation(player))

    def tensor(self, state: ProjectLState, player: int) -> np.ndarray:
        obs = state.observation(player)
        t = np.zeros(self.shape, dtype=np.float32)
        size = self.codec.tensor_size
        t[:size] = self.codec.tensor_of(obs)
        cards = t[size:].reshape(self.num_cards, 2)
        index = self.codec.card_index
        for c in _cards_out(obs, index):
            cards[c, 0] = 1
        for deck in ("white_deck", "black_deck"):
            for position, cid in enumerate(obs[deck]["bottom"]):
                cards[index[cid], 1] = (position + 1) / DECK_SCALE
        return t


def infostate(state: Any) -> ProjectLInformationState:
    """The registry hook (``GameInfo.infostate``)."""
    return ProjectLInformationState(state)
