"""Information states of Rainbow Blackjack: everything one seat has observed, with perfect recall.

Behind :meth:`puzzles.game.GameState.information_state_string` and
``information_state_tensor`` (``GameInfo.infostate``) and the OpenSpiel adapter's
information-state string and tensor.  Both are functions of ``observation(player)``
alone (``docs/rules/rainbow-blackjack.md``: a seat sees its own grids, hand and
removed stones, the towers, every announcement and every placement), so two
states that differ only in the opponent's hidden stones give that seat the same
information state.

* The string is the observation as compact JSON, public log included: the log
  lists every public action in order (lines, announcements, placements, passes,
  discards), so the string has perfect recall.
* The tensor (float32, flat, :data:`TENSOR_SIZE` values) is the observation
  tensor of :mod:`puzzles.towers.codec` (1,239 values: the current position)
  followed by the history it leaves out, seat ``me`` = the observer first:

  - the line each seat picked in each round: 6 rounds x 2 seats x 6 one-hot — 72;
  - each seat's announcement in each round: mode one-hot (2), colour counts (7),
    number counts (7) — 6 x 2 x 16 = 192;
  - every placement in order, 6 per round (slot ``6 * round + k``; the seat is
    fixed by the round's starter): pass, stone code one-hot (37), tower one-hot
    (6), replace — 36 x 45 = 1,620;
  - the stones each seat revealed in each round (placed and discarded): code
    counts — 6 x 2 x 37 = 444;
  - the observer's removed stones and deal in progress in the order drawn:
    3 + 9 positions x 37 codes one-hot — 444.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from puzzles.towers.codec import TowersCodec, observation_tensor
from puzzles.towers.engine import Pass, Place, TowersState, string_to_action
from puzzles.towers.kernel import GRID2_DEAL, SETUP_DEAL
from puzzles.towers.stones import LETTERS, NUM_CODES, parse_stone, stone_str
from puzzles.towers.subgame import Hand, possible_hands, with_hands

ROUNDS = 6
PLACEMENTS_PER_ROUND = 6
_ANNOUNCE = ("colors", "numbers")
_COLOR_SLOTS = {**{letter: i for i, letter in enumerate(LETTERS)}, "grey": 6}
_PLACEMENT_WIDTH = 1 + NUM_CODES + 6 + 1
HISTORY_SIZE = (ROUNDS * 2 * 6 + ROUNDS * 2 * 16 + ROUNDS * PLACEMENTS_PER_ROUND * _PLACEMENT_WIDTH
                + ROUNDS * 2 * NUM_CODES + (3 + 9) * NUM_CODES)
TENSOR_SIZE = TowersCodec.tensor_size + HISTORY_SIZE
TENSOR_SHAPE = (TENSOR_SIZE,)


def information_state_string(obs: dict[str, Any]) -> str:
    """The information-state string of an ``observation(player)`` dict (compact JSON, log included)."""
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


def public_placements(log: list[str]) -> list[Place | Pass]:
    """Every placement and pass of the public log, in order."""
    placed: list[Place | Pass] = []
    for entry in log:
        seat, _, rest = entry.partition(" ")
        if not seat.startswith("P") or ":" in rest or rest.startswith(("discards", "wins")):
            continue
        action = string_to_action(rest)
        if isinstance(action, Place | Pass):
            placed.append(action)
    return placed


def _lines_block(pub: dict[str, Any], seats: tuple[int, int], t: np.ndarray, i: int) -> int:
    for rnd in range(ROUNDS):
        for seat in seats:
            used = pub["used_lines"][seat][rnd // 3]
            if rnd % 3 < len(used):
                t[i + int(used[rnd % 3])] = 1
            i += 6
    return i


def _announcements_block(pub: dict[str, Any], seats: tuple[int, int], t: np.ndarray, i: int) -> int:
    said = {(a["round"], a["player"]): a for a in pub["announcements"]}
    for rnd in range(ROUNDS):
        for seat in seats:
            a = said.get((rnd, seat))
            if a is not None:
                t[i + _ANNOUNCE.index(a["mode"])] = 1
                for value in a["values"]:
                    t[i + (2 + _COLOR_SLOTS[value] if a["mode"] == "colors" else 9 + int(value))] += 1
            i += 16
    return i


def _placements_block(log: list[str], t: np.ndarray, i: int) -> int:
    slots = t[i : i + ROUNDS * PLACEMENTS_PER_ROUND * _PLACEMENT_WIDTH].reshape(-1, _PLACEMENT_WIDTH)
    for slot, action in zip(slots, public_placements(log), strict=False):
        if isinstance(action, Pass):
            slot[0] = 1
        else:
            slot[1 + action.stone] = 1
            slot[1 + NUM_CODES + action.tower] = 1
            slot[-1] = float(action.replace)
    return i + slots.size


def _revealed_block(pub: dict[str, Any], seats: tuple[int, int], t: np.ndarray, i: int) -> int:
    for rnd in range(ROUNDS):
        for seat in seats:
            rounds = pub["revealed"][seat]
            for text in rounds[rnd] if rnd < len(rounds) else []:
                t[i + parse_stone(text)] += 1
            i += NUM_CODES
    return i


def _ordered_block(stones: list[str], positions: int, t: np.ndarray, i: int) -> int:
    """``stones`` in order, one code one-hot per position."""
    for k, text in enumerate(stones[:positions]):
        t[i + k * NUM_CODES + parse_stone(text)] = 1
    return i + positions * NUM_CODES


def information_state_tensor(obs: dict[str, Any]) -> np.ndarray:
    """The information-state tensor of an ``observation(player)`` dict (layout in the module docstring)."""
    me = int(obs["player"])
    seats = (me, 1 - me)
    pub, priv = obs["public"], obs["private"]
    t = np.zeros(TENSOR_SIZE, dtype=np.float32)
    t[: TowersCodec.tensor_size] = observation_tensor(obs)
    i = _lines_block(pub, seats, t, TowersCodec.tensor_size)
    i = _announcements_block(pub, seats, t, i)
    i = _placements_block(pub["log"], t, i)
    i = _revealed_block(pub, seats, t, i)
    i = _ordered_block(priv["removed"], 3, t, i)
    i = _ordered_block(priv["partial"], 9, t, i)
    assert i == TENSOR_SIZE
    return t


class TowersInformationState:
    """The game layer's information-state hook for the tower game (``GameInfo.infostate``)."""

    shape = TENSOR_SHAPE

    def string(self, state: TowersState, player: int) -> str:
        return information_state_string(state.observation(player))

    def tensor(self, state: TowersState, player: int) -> np.ndarray:
        return information_state_tensor(state.observation(player))

    def public_deal(self, state: TowersState) -> list[tuple[list[Hand], list[float]]]:
        """Per seat, the hidden stones it may hold as the public part of ``state`` allows, with prior weights.

        For a subgame that starts from a public state (the OpenSpiel adapter's ``subgame``
        parameter): round 6 only, where a seat's hidden part is its hand
        (:func:`puzzles.towers.subgame.possible_hands`); ValueError elsewhere.
        """
        return [possible_hands(state, seat) for seat in (0, 1)]

    def with_deal(self, state: TowersState, parts: list[Hand]) -> TowersState:
        """``state`` with each seat holding ``parts[seat]`` (one of its :meth:`public_deal` parts), the rest public."""
        return with_hands(state, (parts[0], parts[1]))

    def deal_text(self, seat: int, part: Hand) -> str:
        """``deal P1 R2 Y5 J``: the text of dealing ``part`` to ``seat``."""
        return f"deal P{seat + 1} {' '.join(stone_str(c) for c in part) or '-'}"

    def chance_toward(self, state: TowersState, target: TowersState, player: int, drawn: int) -> int:
        """At a deal draw of ``state``: ``drawn`` (the draw ``player`` saw) if the stone is ``player``'s own,
        else the stone ``target`` holds there, so that replaying a history reaches ``target`` for the opponent
        and keeps every information state of ``player``."""
        seat, grid, done = deal_slot(state)
        return drawn if seat == player else int(_dealt(target, seat, grid)[done])


def _dealt(target: TowersState, seat: int, grid: int) -> list[int]:
    """The stones ``target`` has dealt to ``seat``'s grid ``grid`` (-1: removed stones), in draw order."""
    if grid < 0:
        return target.removed[seat]
    cells = target.grids[seat][grid]
    return cells if cells is not None else target._partial[seat]


def deal_slot(state: TowersState) -> tuple[int, int, int]:
    """Where ``state``'s next deal draw goes: (seat, grid or -1 for a removed stone, draws there so far).

    From the kernel's deal tables (the opening deal in round 1, the second grids in round 4).
    """
    schedule = SETUP_DEAL if state.round == 0 else GRID2_DEAL
    seat, grid = (int(x) for x in schedule[state.step])
    done = sum(1 for p, g in schedule[: state.step] if (int(p), int(g)) == (seat, grid))
    return seat, grid, done


def infostate(state: Any) -> TowersInformationState:
    """The registry hook (``GameInfo.infostate``)."""
    return TowersInformationState()
