"""Integer actions and observation tensors of Rainbow Blackjack, for the OpenSpiel and PettingZoo adapters.

Player actions (``num_actions = 453``):

* ``0..5``: :class:`PickLine` ``row1, row2, row3, col1, col2, col3``;
* ``6``, ``7``: :class:`Announce` ``colors``, ``numbers``;
* ``8 + 2 * (6 * stone + tower) + replace``: :class:`Place` of stone code ``stone``
  (0..36, see :mod:`puzzles.towers.stones`; 36 is the joker) on ``tower`` (0..5,
  wheel order), ``replace`` 1 for swapping the joker on top (``R6xO``);
* ``452``: :class:`Pass`.

Chance outcomes (explicit, ``num_chance_outcomes = 37``): the drawn stone's code,
with the engine's own probabilities (``chance_outcomes``).

The observation tensor and both strings are functions of ``observation(player)``
alone, so they hide exactly what the rules hide (the opponent's grids, removed
stones, hand and pool).  Tensor layout (float32, flattened, 1,239 values), seat
``me`` = the observer, ``opp`` = the other seat:

* own grids: 2 grids x 9 cells x 37 codes one-hot (zeros while undealt) — 666;
* own partial deal, removed stones, hand, undealt pool: stone-code counts — 4 x 37;
* towers: per tower the stone-code counts (37), total / 21, owner one-hot
  (none, me, opp), joker on top — 6 x 42;
* stones revealed by me and by opp: code counts — 2 x 37; jokers taken out — 1;
* round one-hot (6), phase one-hot (deal, pick, place, end), step / 24, to move
  one-hot (me, opp, other) — 14;
* per seat (me, opp) and grid: line direction one-hot (free, rows, columns) and
  used lines (6) — 36; current line per seat one-hot (none + 6) — 14;
* this round's announcements per seat: mode one-hot (2), colour counts
  (R O Y G B P grey), number counts (0..6) — 2 x 16; hand sizes / 3 — 2.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from puzzles.codec import action_mask
from puzzles.towers.engine import PASS, Announce, Draw, Pass, PickLine, Place, TowersAction, TowersState
from puzzles.towers.stones import JOKER, LETTERS, NUM_CODES, parse_stone, stone_str

PLACE_BASE = 8
PASS_ID = PLACE_BASE + 2 * 6 * NUM_CODES
NUM_ACTIONS = PASS_ID + 1
PHASES = ("deal", "pick", "place", "end")
_ANNOUNCE = ("colors", "numbers")
_COLOR_SLOTS = {**{letter: i for i, letter in enumerate(LETTERS)}, "grey": 6}


def encode_action(action: TowersAction) -> int:
    """The id of a player action (see the module docstring)."""
    if isinstance(action, PickLine):
        return action.line
    if isinstance(action, Announce):
        return 6 + _ANNOUNCE.index(action.mode)
    if isinstance(action, Place):
        return PLACE_BASE + 2 * (6 * action.stone + action.tower) + int(action.replace)
    if isinstance(action, Pass):
        return PASS_ID
    raise ValueError(f"not a player action of the tower game: {action!r}")


def decode_action(action_id: int) -> TowersAction:
    """The player action of an id; ValueError outside ``0..452``."""
    if 0 <= action_id < 6:
        return PickLine(action_id)
    if action_id in (6, 7):
        return Announce(_ANNOUNCE[action_id - 6])
    if PLACE_BASE <= action_id < PASS_ID:
        k, replace = divmod(action_id - PLACE_BASE, 2)
        stone, tower = divmod(k, 6)
        return Place(stone, tower, bool(replace))
    if action_id == PASS_ID:
        return PASS
    raise ValueError(f"no tower-game action {action_id} (ids are 0..{PASS_ID})")


class TowersCodec:
    """Action ids, chance outcomes and observation tensors of the tower game."""

    num_actions = NUM_ACTIONS
    num_chance_outcomes = NUM_CODES
    max_game_length = 6 * (4 + 6)  # per round: pick, announce, pick, announce, 6 placements
    max_chance_nodes = 24 + 18  # the opening deal, the second grids
    tensor_size = 666 + 4 * 37 + 6 * 42 + 2 * 37 + 1 + 14 + 36 + 14 + 2 * 16 + 2
    observation_shape = (tensor_size,)

    def __init__(self, state: TowersState | None = None) -> None:
        pass

    def opening(self, state: TowersState) -> TowersState:
        """Where OpenSpiel starts instead of the seeded deal: a fresh game whose deal is still to come.

        The deal is then 42 explicit chance nodes, so exact tools see every deal.
        """
        return TowersState()

    # -- actions ----------------------------------------------------------------------------
    def encode(self, state: TowersState, action: TowersAction) -> int:
        return action.stone if isinstance(action, Draw) else encode_action(action)

    def decode(self, state: TowersState, action_id: int) -> TowersAction:
        return Draw(action_id) if state.is_chance_node() else decode_action(action_id)

    def legal_ids(self, state: TowersState) -> list[int]:
        return sorted(self.encode(state, a) for a in state.legal_actions())

    def legal_mask(self, state: TowersState, out: np.ndarray | None = None) -> np.ndarray:
        return action_mask(self.num_actions, [] if state.is_chance_node() else self.legal_ids(state), out)

    def apply_id(self, state: TowersState, action_id: int) -> None:
        state.apply(self.decode(state, action_id))

    # -- chance -------------------------------------------------------------------------------
    def chance_outcomes(self, state: TowersState, pending: list[int]) -> list[tuple[int, float]]:
        """(stone code, probability) of the next draw (``pending`` is unused: every draw is one node)."""
        return [(a.stone, p) for a, p in state.chance_outcomes() if isinstance(a, Draw)]

    def apply_chance(self, state: TowersState, pending: list[int], outcome: int) -> None:
        state.apply(Draw(outcome))

    def chance_text(self, pending: list[int], outcome: int) -> str:
        return f"draw {stone_str(outcome)}"

    # -- observations ------------------------------------------------------------------------
    def observation_tensor(self, state: TowersState, player: int) -> np.ndarray:
        return observation_tensor(state.observation(player))

    def observation_string(self, state: TowersState, player: int) -> str:
        obs = state.observation(player)
        obs["public"] = {k: v for k, v in obs["public"].items() if k != "log"}
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, state: TowersState, player: int, history: list[str] | None = None) -> str:
        """The observation with the public log: everything ``player`` has seen, in order."""
        return json.dumps(state.observation(player), sort_keys=True, separators=(",", ":"))

    def to_string(self, state: TowersState) -> str:
        return str(state)


def _counts(stones: list[str], out: np.ndarray) -> None:
    for text in stones:
        out[parse_stone(text)] += 1


def _private_block(priv: dict[str, Any], t: np.ndarray, i: int) -> int:
    """Own grids one-hot, then partial deal, removed stones, hand and pool as code counts; returns the next index."""
    for grid in priv["grids"]:
        block = t[i : i + 9 * 37].reshape(9, 37)
        if grid is not None:
            for cell, text in enumerate(grid):
                block[cell, parse_stone(text)] = 1
        i += 9 * 37
    for key in ("partial", "removed", "hand", "pool"):
        _counts(priv[key], t[i : i + 37])
        i += 37
    return i


def _towers_block(pub: dict[str, Any], me: int, t: np.ndarray, i: int) -> int:
    """Per tower: code counts, total / 21, owner one-hot (none, me, opp), joker on top; returns the next index."""
    for tower in range(6):
        stones = pub["towers"][tower]
        _counts(stones, t[i : i + 37])
        t[i + 37] = sum(pub["values"][tower]) / 21.0
        placers = pub["placers"][tower]
        owner = placers[-1] if placers else -1
        t[i + 38 + (0 if owner < 0 else 1 if owner == me else 2)] = 1
        t[i + 41] = float(bool(stones) and parse_stone(stones[-1]) == JOKER)
        i += 42
    return i


def _progress_block(obs: dict[str, Any], me: int, t: np.ndarray, i: int) -> int:
    """Round, phase, step and seat to move; returns the next index."""
    pub = obs["public"]
    t[i + min(int(pub["round"]), 5)] = 1
    i += 6
    t[i + PHASES.index(pub["phase"])] = 1
    i += 4
    t[i] = int(pub["step"]) / 24.0
    i += 1
    to_move = int(obs["to_move"])
    t[i + (0 if to_move == me else 1 if to_move == 1 - me else 2)] = 1
    return i + 3


def _lines_block(pub: dict[str, Any], seats: tuple[int, int], t: np.ndarray, i: int) -> int:
    """Line direction and used lines per seat and grid, then each seat's current line; returns the next index."""
    for seat in seats:
        for g in range(2):
            t[i + 1 + int(pub["direction"][seat][g])] = 1
            for line in pub["used_lines"][seat][g]:
                t[i + 3 + int(line)] = 1
            i += 9
    for seat in seats:
        t[i + 1 + int(pub["line"][seat])] = 1
        i += 7
    return i


def _announcements_block(pub: dict[str, Any], seats: tuple[int, int], t: np.ndarray, i: int) -> int:
    """This round's announcement of each seat: mode, colour counts, number counts; returns the next index."""
    current = {a["player"]: a for a in pub["announcements"] if a["round"] == pub["round"]}
    for seat in seats:
        a = current.get(seat)
        if a is not None:
            t[i + _ANNOUNCE.index(a["mode"])] = 1
            for value in a["values"]:
                if a["mode"] == "colors":
                    t[i + 2 + _COLOR_SLOTS[value]] += 1
                else:
                    t[i + 9 + int(value)] += 1
        i += 16
    return i


def observation_tensor(obs: dict[str, Any]) -> np.ndarray:
    """The tensor of an ``observation(player)`` dict (layout in the module docstring)."""
    me = int(obs["player"])
    seats = (me, 1 - me)
    pub, priv = obs["public"], obs["private"]
    t = np.zeros(TowersCodec.tensor_size, dtype=np.float32)
    i = _private_block(priv, t, 0)
    i = _towers_block(pub, me, t, i)
    for seat in seats:
        for stones in pub["revealed"][seat]:
            _counts(stones, t[i : i + 37])
        i += 37
    t[i] = len(pub["out"])
    i = _progress_block(obs, me, t, i + 1)
    i = _lines_block(pub, seats, t, i)
    i = _announcements_block(pub, seats, t, i)
    for seat in seats:
        t[i] = pub["hand_size"][seat] / 3.0
        i += 1
    assert i == TowersCodec.tensor_size
    return t


def codec(state: Any) -> TowersCodec:
    """The registry hook (``GameInfo.codec``)."""
    return TowersCodec(state)
