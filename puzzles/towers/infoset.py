"""Information sets: full states consistent with one player's observation.

:func:`sample_state` draws a full :class:`TowersState` uniformly from the
states a seat cannot tell apart from its observation, assuming the deal was
uniform (the opponent's *choices* are not modelled — the usual determinization
assumption).  What is fixed by the observation:

* everything public (towers, lines picked, announcements, revealed stones);
* the observer's own grids, hand, removed stones and undealt pool.

What is sampled, for the opponent: the unrevealed stones of the current hand
(they must match the current announcement, minus the stones of that hand
already placed), the unpicked cells of the current grid, and — during the first
grid — which 9 unseen stones make the second grid and which 3 were removed.
Spent lines get the stones revealed in their round (cell order within a spent
line does not matter to the game).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from puzzles.towers.engine import LINE_CELLS, TowersState
from puzzles.towers.stones import announce_attr, parse_stone, player_set, stone_str


def unseen_stones(obs: dict[str, Any]) -> list[int]:
    """The opponent's stones the observer has not seen (their full 21 minus everything revealed)."""
    opp = 1 - obs["player"]
    seen = Counter(parse_stone(x) for r in obs["public"]["revealed"][opp] for x in r)
    left = Counter(player_set(opp))
    left.subtract(seen)
    if any(v < 0 for v in left.values()):
        raise ValueError("observation reveals stones the opponent does not have")
    return sorted(left.elements())


def hand_requirement(obs: dict[str, Any]) -> tuple[str, list] | None:
    """(mode, attributes) the opponent's unrevealed hand stones must show, or None before they announced."""
    pub, opp = obs["public"], 1 - obs["player"]
    rnd = pub["round"]
    ann = [a for a in pub["announcements"] if a["round"] == rnd and a["player"] == opp]
    if not ann or pub["phase"] not in ("pick", "place"):
        return None
    mode = ann[-1]["mode"]
    need = Counter(ann[-1]["values"])
    for x in pub["revealed"][opp][rnd]:
        need[announce_attr(parse_stone(x), mode)] -= 1
    return mode, sorted(need.elements(), key=str)


def sample_state(obs: dict[str, Any], rng: random.Random) -> TowersState:
    """A full state drawn uniformly from ``obs``'s information set (see module docstring)."""
    pub, me = obs["public"], obs["player"]
    opp = 1 - me
    if pub["phase"] == "deal":
        raise ValueError("cannot determinize during a deal (no player decision is pending)")
    unseen = unseen_stones(obs)
    rng.shuffle(unseen)
    hand: list[int] = []
    hand_size = pub["hand_size"][opp]
    req = hand_requirement(obs)
    if hand_size:
        if req is None:
            raise ValueError("opponent holds stones but has not announced")
        mode, need = req
        for attr, k in Counter(need).items():
            cands = [i for i, c in enumerate(unseen) if announce_attr(c, mode) == attr]
            if len(cands) < k:
                raise ValueError("announcement inconsistent with the unseen stones")
            hand.extend(unseen[i] for i in rng.sample(cands, k))
            for c in hand[-k:]:
                unseen.remove(c)
        rng.shuffle(hand)
    rnd = min(pub["round"], 5)
    cur_g = 0 if pub["round"] < 3 else 1
    grids: list[list[int] | None] = [None, None]
    for g in (0, 1):
        if g > cur_g or (g == 1 and pub["phase"] == "deal"):
            continue
        cells: list[int | None] = [None] * 9
        for i, ln in enumerate(pub["used_lines"][opp][g]):
            r = 3 * g + i
            stones = [parse_stone(x) for x in pub["revealed"][opp][r]]
            if r == rnd and pub["line"][opp] == ln:
                stones = stones + hand
            stones = stones[:]
            rng.shuffle(stones)
            for c, s in zip(LINE_CELLS[ln], stones):
                cells[c] = s
        for c in range(9):
            if cells[c] is None:
                cells[c] = unseen.pop()
        grids[g] = cells  # type: ignore[assignment]
    if cur_g == 0:
        pool, removed = sorted(unseen[:9]), sorted(unseen[9:])
    else:
        pool, removed = [], sorted(unseen)
    if len(removed) != 3:
        raise ValueError("observation is inconsistent: wrong number of unseen stones")
    priv = [None, None]
    priv[me] = obs["private"]
    priv[opp] = {
        "grids": [None if g is None else [stone_str(c) for c in g] for g in grids],
        "removed": [stone_str(c) for c in removed],
        "hand": [stone_str(c) for c in hand],
        "pool": [stone_str(c) for c in pool],
        "partial": [],
    }
    return TowersState.from_json({"game": "towers", "public": pub, "private": priv})
