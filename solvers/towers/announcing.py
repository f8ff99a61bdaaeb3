"""The announcement rule of the heuristic towers bots: say the mode that hides the most.

Shared by ``pimc``, ``ismcts`` (:mod:`solvers.towers.bots`) and the ``equilibrium`` bot's tie-break
(:mod:`solvers.towers.equilibrium`)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from puzzles.towers.engine import ANNOUNCE_MODES, Announce, TowersState
from puzzles.towers.stones import announce_attr, player_set


def choose_announcement(state: TowersState, seat: int) -> Announce:
    """Announce the mode that leaves the opponent the most candidate hands: the product, over the announced
    attributes, of how many of the announcer's not-yet-revealed stones share each attribute."""
    hidden = Counter(player_set(seat))
    for r in state.revealed[seat]:
        hidden.subtract(r)
    best, best_score = ANNOUNCE_MODES[0], -1.0
    for mode in ANNOUNCE_MODES:
        attrs = Counter(announce_attr(c, mode) for c in state.hands[seat])
        pool: Counter[Any] = Counter()
        for c, k in hidden.items():
            if k > 0:
                pool[announce_attr(c, mode)] += k
        score = 1.0
        for a, k in attrs.items():
            score *= math.comb(pool[a], k)
        if score > best_score:
            best, best_score = mode, score
    return Announce(best)
