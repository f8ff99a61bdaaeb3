"""Information sets: full states that one seat cannot tell apart from the real one.

:func:`resample_hidden` (behind :meth:`TowersState.resample`) redraws the
opponent's hidden stones uniformly from the deals consistent with what the
observer has seen, assuming the deal was uniform (the opponent's *choices* are
not modelled: the usual determinization assumption).  Kept as they are:

* everything public (towers, lines picked, announcements, revealed stones);
* the observer's own grids, hand, removed stones and undealt pool.

Drawn for the opponent: the unrevealed stones of the current hand (they must
match the current announcement, minus the stones of that hand already placed),
the unpicked cells of the current grid, the cells and removed stones dealt so
far during a deal, and which unseen stones are still in the undealt pool.
Spent lines get the stones revealed in their round (the cell order within a
spent line does not matter to the game).

The draw depends only on the observer's observation and the random stream:
the opponent's unseen stones are listed in sorted order before any shuffle, so
two states that differ only in what the observer cannot see give the same draw.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from puzzles.towers.kernel import GRID2_DEAL, LINE_CELLS, SETUP_DEAL
from puzzles.towers.stones import announce_attr, player_set

if TYPE_CHECKING:  # the engine imports this module (resample); this one needs the engine's type only
    from puzzles.towers.engine import TowersState


def unseen_stones(state: TowersState, opp: int) -> list[int]:
    """``opp``'s stones its opponent has not seen (their full 21 minus everything revealed), sorted."""
    left = Counter(player_set(opp))
    left.subtract(c for r in state.revealed[opp] for c in r)
    if any(v < 0 for v in left.values()):
        raise ValueError("the state reveals stones the player does not have")
    return sorted(left.elements())


def hand_requirement(state: TowersState, opp: int) -> tuple[str, list[Any]] | None:
    """(mode, attributes) ``opp``'s unrevealed hand stones must show, or None before they announced."""
    rnd = state.round
    ann = [a for a in state.announcements if a["round"] == rnd and a["player"] == opp]
    if not ann or state.hand_size[opp] == 0:
        return None
    mode = ann[-1]["mode"]
    need = Counter(ann[-1]["values"])
    for code in state.revealed[opp][rnd] if rnd < len(state.revealed[opp]) else []:
        need[announce_attr(code, mode)] -= 1
    return mode, sorted(need.elements(), key=str)


def _deal_progress(state: TowersState, opp: int) -> tuple[int, int, int]:
    """How far ``opp``'s deal has gone: (first-grid cells, removed stones, second-grid cells) dealt.

    The kernel's deal tables give each draw's (seat, grid): 0 or 1 for a grid cell, -1 for a removed stone.
    """
    if state.round == 0 and state.phase == "deal":
        done = [(int(p), int(g)) for p, g in SETUP_DEAL[: state.step]]
        return done.count((opp, 0)), done.count((opp, -1)), 0
    if state.round == 3 and state.phase == "deal":
        done = [(int(p), int(g)) for p, g in GRID2_DEAL[: state.step]]
        return 9, 3, done.count((opp, 1))
    return 9, 3, (9 if state.round >= 3 else 0)


def resample_hidden(state: TowersState, player: int, rng: random.Random) -> TowersState:
    """A copy of ``state`` with everything ``player`` cannot see redrawn with ``rng`` (see module docstring)."""
    if player not in (0, 1):
        raise ValueError(f"no seat {player} in Rainbow Blackjack")
    opp = 1 - player
    unseen = unseen_stones(state, opp)
    rng.shuffle(unseen)
    hand: list[int] = []
    hand_size = state.hand_size[opp]
    req = hand_requirement(state, opp)
    if req is not None:
        mode, need = req
        for attr, k in Counter(need).items():
            cands = [i for i, c in enumerate(unseen) if announce_attr(c, mode) == attr]
            if len(cands) < k:
                raise ValueError("announcement inconsistent with the unseen stones")
            chosen = sorted(rng.sample(cands, k), reverse=True)
            hand.extend(unseen[i] for i in chosen)
            for i in chosen:
                del unseen[i]
        rng.shuffle(hand)
    if len(hand) != hand_size:  # a line picked but not announced yet: any unseen stones
        hand = [unseen.pop() for _ in range(hand_size)]
    g0_cells, removed_count, g1_cells = _deal_progress(state, opp)
    grids: list[list[int] | None] = [None, None]
    for g, dealt in enumerate((g0_cells, g1_cells)):
        if dealt < 9:
            continue
        cells: list[int | None] = [None] * 9
        for i, ln in enumerate(state.used_lines[opp][g]):
            rnd = 3 * g + i
            stones = list(state.revealed[opp][rnd])
            if rnd == state.round and state.line[opp] == ln:
                stones += hand
            rng.shuffle(stones)
            for cell, code in zip(LINE_CELLS[ln].tolist(), stones, strict=True):
                cells[cell] = code
        grids[g] = [unseen.pop() if c is None else c for c in cells]
    partial = [unseen.pop() for _ in range(g0_cells if g0_cells < 9 else g1_cells if 0 < g1_cells < 9 else 0)]
    removed = [unseen.pop() for _ in range(removed_count)]
    if removed_count == 3:
        removed.sort()
    pool = sorted(unseen)
    expected_pool = 9 - g1_cells if g0_cells == 9 and removed_count == 3 else 21 - g0_cells - removed_count
    if len(pool) != expected_pool:
        raise ValueError("the state is inconsistent: wrong number of unseen stones")
    new = state.clone()
    new.set_private(opp, grids, hand, removed, pool, partial)  # drops a hand-set second deal: hidden too
    return new
