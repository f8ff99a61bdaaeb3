"""Project L completion checker: exact cover of a card's recess with piece *counts*.

A dedicated bitmask search (the recess has ≤ 25 cells, there are 9 shapes):
the empty cells are an ``int`` bitmask, the stock is packed into one ``int``
(5 bits per shape), placements are bucketed by their lowest cell, and the
search always branches on the lowest empty cell — so every filling is found
exactly once.  Results are memoised on ``(empty cells, stock)`` which is an
exact key (no hashing of partial information), so counting all ways and the
minimum number of pieces are dynamic programmes over the reachable states.

Two fillings are *distinct* when some cell is covered by a different piece
shape or piece outline; pieces of one shape are interchangeable, so a filling
is a set of (shape, cells) placements and the first-empty-cell search counts
each exactly once.

Place actions: one piece needs one action whether it is placed by Place or by
Master (Master puts at most one piece on each puzzle), so for one card
``min_place_actions == min_pieces``; across several puzzles Master saves
actions, which :func:`finishable_this_turn` accounts for.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from puzzles.projectl.cards import (
    LEVEL,
    NCELLS,
    NSHAPES,
    SHAPE_NAMES,
    SHAPES_BY_LEVEL,
    Card,
    mask_cells,
    placements,
)
from puzzles.projectl.engine import reward_shape

BITS = 5
FIELD = (1 << BITS) - 1
UNIT = tuple(1 << (BITS * s) for s in range(NSHAPES))
INF = 10**9


@lru_cache(maxsize=1)
def _buckets() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each cell: the (shape, mask) placements whose lowest cell it is, bigger pieces first."""
    buckets: list[list[tuple[int, int]]] = [[] for _ in range(NCELLS)]
    for s in sorted(range(NSHAPES), key=lambda s: -LEVEL[s]):
        for m in placements(s):
            low = (m & -m).bit_length() - 1
            buckets[low].append((s, m))
    return tuple(tuple(b) for b in buckets)


def pack(counts: Sequence[int], area: int = NCELLS) -> int:
    """Counts per shape → one int; counts are capped at what could ever fit in ``area`` cells."""
    code = 0
    for s, n in enumerate(counts):
        if n < 0:
            raise ValueError(f"negative count for {SHAPE_NAMES[s]}")
        code |= min(n, area // LEVEL[s], FIELD) << (BITS * s)
    return code


def unpack(code: int) -> list[int]:
    return [(code >> (BITS * s)) & FIELD for s in range(NSHAPES)]


def stock_area(code: int) -> int:
    return sum(((code >> (BITS * s)) & FIELD) * LEVEL[s] for s in range(NSHAPES))


class Checker:
    """Answers for one empty-cell mask and one stock; every query is memoised."""

    def __init__(self, empty: int, stock: Sequence[int]) -> None:
        self.empty = empty
        self.area = empty.bit_count()
        self.stock = list(stock)
        self.code = pack(stock, self.area)
        buckets = _buckets()
        # only placements inside the empty cells matter
        self.buckets = tuple(tuple((s, m) for s, m in b if m & ~empty == 0) if empty >> i & 1 else () for i, b in enumerate(buckets))
        self._ways: dict[tuple[int, int], int] = {}
        self._min: dict[tuple[int, int], int] = {}
        self._dead: set[tuple[int, int]] = set()

    # -- one answer (depth-first, stops at the first filling) -----------------
    def one_way(self) -> list[tuple[int, int]] | None:
        """One filling as (shape, mask) pairs, or None; plain DFS that stops at the first hit."""
        if stock_area(self.code) < self.area:
            return None
        path: list[tuple[int, int]] = []
        return path if self._dfs(self.empty, self.code, path) else None

    def _dfs(self, rem: int, code: int, path: list[tuple[int, int]]) -> bool:
        if rem == 0:
            return True
        key = (rem, code)
        if key in self._dead:
            return False
        low = (rem & -rem).bit_length() - 1
        for s, m in self.buckets[low]:
            if m & rem == m and (code >> (BITS * s)) & FIELD:
                path.append((s, m))
                if self._dfs(rem ^ m, code - UNIT[s], path):
                    return True
                path.pop()
        self._dead.add(key)
        return False

    def completable(self) -> bool:
        return self.one_way() is not None

    # -- counting ---------------------------------------------------------------
    def count_ways(self) -> int:
        """Number of distinct fillings of the empty cells from the stock."""
        return self._count(self.empty, self.code)

    def _count(self, rem: int, code: int) -> int:
        if rem == 0:
            return 1
        key = (rem, code)
        got = self._ways.get(key)
        if got is not None:
            return got
        total = 0
        low = (rem & -rem).bit_length() - 1
        for s, m in self.buckets[low]:
            if m & rem == m and (code >> (BITS * s)) & FIELD:
                total += self._count(rem ^ m, code - UNIT[s])
        self._ways[key] = total
        return total

    # -- fewest pieces ------------------------------------------------------------
    def min_pieces(self) -> int | None:
        best = self._minp(self.empty, self.code)
        return None if best >= INF else best

    def _minp(self, rem: int, code: int) -> int:
        if rem == 0:
            return 0
        key = (rem, code)
        got = self._min.get(key)
        if got is not None:
            return got
        best = INF
        low = (rem & -rem).bit_length() - 1
        for s, m in self.buckets[low]:
            if m & rem == m and (code >> (BITS * s)) & FIELD:
                sub = self._minp(rem ^ m, code - UNIT[s])
                if sub + 1 < best:
                    best = sub + 1
        self._min[key] = best
        return best

    def min_way(self) -> list[tuple[int, int]] | None:
        """A filling with the fewest pieces."""
        if self.min_pieces() is None:
            return None
        rem, code, path = self.empty, self.code, []
        while rem:
            target = self._minp(rem, code) - 1
            low = (rem & -rem).bit_length() - 1
            for s, m in self.buckets[low]:
                if m & rem == m and (code >> (BITS * s)) & FIELD and self._minp(rem ^ m, code - UNIT[s]) == target:
                    path.append((s, m))
                    rem, code = rem ^ m, code - UNIT[s]
                    break
        return path

    def multisets(self, max_pieces: int = NCELLS) -> list[tuple[int, ...]]:
        """Distinct multisets (counts per shape) that fill the cells, with at most ``max_pieces`` pieces."""
        memo: dict[tuple[int, int, int], frozenset[int]] = {}

        def rec(rem: int, code: int, left: int) -> frozenset[int]:
            if rem == 0:
                return frozenset((0,))
            if left == 0:
                return frozenset()
            key = (rem, code, left)
            if key in memo:
                return memo[key]
            out: set[int] = set()
            low = (rem & -rem).bit_length() - 1
            for s, m in self.buckets[low]:
                if m & rem == m and (code >> (BITS * s)) & FIELD:
                    for used in rec(rem ^ m, code - UNIT[s], left - 1):
                        out.add(used + UNIT[s])
            memo[key] = frozenset(out)
            return memo[key]

        return sorted(tuple(unpack(u)) for u in rec(self.empty, self.code, max_pieces))


def solution_json(way: list[tuple[int, int]] | None) -> list[dict] | None:
    if way is None:
        return None
    return [{"shape": SHAPE_NAMES[s], "cells": [list(c) for c in mask_cells(m)]} for s, m in way]


def check_card(card: Card, stock: Sequence[int], count: bool = True) -> dict:
    """All single-card answers as JSON-ready data (``ways`` only when ``count``)."""
    checker = Checker(card.empty, stock)
    min_pieces = checker.min_pieces()
    return {
        "card": card.id,
        "empty_cells": card.empty.bit_count(),
        "stock": {n: c for n, c in zip(SHAPE_NAMES, stock) if c},
        "completable": min_pieces is not None,
        "min_pieces": min_pieces,
        "min_place_actions": min_pieces,
        "ways": checker.count_ways() if count else None,
        "solution": solution_json(checker.min_way()),
    }


# --------------------------------------------------------------------------
# which puzzles can I finish this turn?
# --------------------------------------------------------------------------


@dataclass
class PuzzleInHand:
    """A player's unfinished puzzle as the turn planner sees it."""

    empty: int  # cells still empty
    placed: list[int]  # counts per shape of the pieces already on it
    reward: int  # reward shape index
    points: int = 0
    name: str = ""


@dataclass
class TurnPlan:
    puzzles: tuple[int, ...]  # indices of the puzzles finished
    points: int
    actions: list[str] = field(default_factory=list)


def upgrade_targets(s: int, revised: bool) -> list[int]:
    """Shapes a piece of shape ``s`` may be upgraded/exchanged into."""
    lvl = LEVEL[s]
    out = [t for t in SHAPES_BY_LEVEL[lvl] if t != s]
    if lvl + 1 in SHAPES_BY_LEVEL:
        out += SHAPES_BY_LEVEL[lvl + 1]
    if revised:
        out += [t for t in range(NSHAPES) if LEVEL[t] < lvl]
    return out


#: (empty cells, actions) -> (the piece multisets that fit, the number of pieces in each)
_MULTISETS: dict[tuple[int, int], tuple[list[tuple[int, ...]], list[int]]] = {}


#: One puzzle in hand as a hashable key: (empty cells, placed counts, reward, points, name).
_PuzzleKey = tuple[int, tuple[int, ...], int, int, str]
#: A turn plan as a hashable value: (puzzles finished, points, actions).
_PlanValue = tuple[tuple[int, ...], int, tuple[str, ...]]


def finishable_this_turn(
    hand: Sequence[PuzzleInHand],
    stock: Sequence[int],
    supply: Sequence[int] | None = None,
    actions: int = 3,
    master_available: bool = True,
    revised: bool = False,
) -> list[TurnPlan]:
    """Every set of puzzles that can all be finished within ``actions`` actions, with one plan each.

    The plan may use Take-a-level-1-piece, Upgrade/exchange, Place and (once) Master;
    finishing a puzzle mid-turn returns its pieces and the reward to the stock, usable
    by later actions.  Only pieces that end up in a finished puzzle are placed.
    Sorted by points, then number of puzzles, descending.  A pure function of its arguments, remembered
    (:func:`_turn_plans`): the bots' playouts ask it again and again for the same turn.
    """
    key = tuple((p.empty, tuple(p.placed), p.reward, p.points, p.name) for p in hand)
    supply_key = tuple(supply) if supply is not None else None
    found = _turn_plans(key, tuple(stock), supply_key, actions, master_available, revised)
    return [TurnPlan(puzzles, points, list(steps)) for puzzles, points, steps in found]


@lru_cache(maxsize=1 << 16)
def _turn_plans(hand_key: tuple[_PuzzleKey, ...], stock: tuple[int, ...], supply_key: tuple[int, ...] | None,
                actions: int, master_available: bool, revised: bool) -> tuple[_PlanValue, ...]:
    """:func:`finishable_this_turn` over hashable arguments, its plans as tuples (the cache keeps no list)."""
    hand = [PuzzleInHand(empty, list(placed), reward, points, name) for empty, placed, reward, points, name in hand_key]
    supply = list(supply_key) if supply_key is not None else [99] * NSHAPES
    options: list[list[tuple[int, ...]]] = []
    sizes: list[list[int]] = []
    for p in hand:
        # at most `actions` pieces can go on one puzzle in a turn (one per action, Master included)
        key = (p.empty, actions)
        if key not in _MULTISETS:
            multisets = Checker(p.empty, [actions] * NSHAPES).multisets(max_pieces=actions)
            _MULTISETS[key] = multisets, [sum(option) for option in multisets]
        options.append(_MULTISETS[key][0])
        sizes.append(_MULTISETS[key][1])
    plans: list[_PlanValue] = []
    n = len(hand)
    for subset_bits in range(1, 1 << n):
        subset = tuple(i for i in range(n) if subset_bits >> i & 1)
        if any(not options[i] for i in subset):
            continue
        found = None
        # lower bound on actions: all pieces placed, Master covering one per puzzle
        budget = actions + (len(subset) - 1 if master_available else 0)
        for choice in _choices_within([options[i] for i in subset], [sizes[i] for i in subset], budget):
            needs = {i: list(c) for i, c in zip(subset, choice)}
            path: list[str] = []
            if _TurnSearch(hand, needs, list(stock), list(supply), revised).plan(actions, master_available, path):
                found = path
                break
        if found is not None:
            plans.append((subset, sum(hand[i].points for i in subset), tuple(found)))
    plans.sort(key=lambda p: (-p[1], -len(p[0]), p[0]))
    return tuple(plans)


def _choices_within(option_lists: list[list[tuple[int, ...]]], sizes: list[list[int]],
                    budget: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """``itertools.product(*option_lists)`` in its order, but only the choices whose pieces (``sizes``: each
    option's count) number at most ``budget``: a prefix already over it is cut, not enumerated (the same
    choices, far fewer tried)."""
    least_after = [0] * (len(option_lists) + 1)  # fewest pieces the lists after k can add
    for k in range(len(option_lists) - 1, -1, -1):
        least_after[k] = least_after[k + 1] + min(sizes[k])
    chosen: list[tuple[int, ...]] = []

    def extend(k: int, left: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if k == len(option_lists):
            yield tuple(chosen)
            return
        for option, size in zip(option_lists[k], sizes[k]):
            if size + least_after[k + 1] <= left:
                chosen.append(option)
                yield from extend(k + 1, left - size)
                chosen.pop()

    if least_after[0] <= budget:
        yield from extend(0, budget)


def _finish(hand, i, full, stock, supply, log) -> None:
    """Puzzle ``i`` is full: its earlier pieces and this turn's pieces return, plus the reward."""
    for s in range(NSHAPES):
        stock[s] += hand[i].placed[s] + full[i][s]
    got = reward_shape(hand[i].reward, supply)
    if got is not None:
        supply[got] -= 1
        stock[got] += 1
    log.append(f"finish {hand[i].name or i} (+{SHAPE_NAMES[got] if got is not None else 'nothing'})")


@dataclass
class _TurnSearch:
    """Depth-first search over one turn's abstract actions; ``needs[i]`` = shapes still to place on puzzle i.

    ``needs``, ``stock`` and ``supply`` are changed in place by each tried action and restored when it
    fails; ``full`` keeps every puzzle's pieces for the turn, which come back when it is finished.
    """

    hand: Sequence[PuzzleInHand]
    needs: dict[int, list[int]]
    stock: list[int]
    supply: list[int]
    revised: bool
    full: dict[int, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.full = {i: v[:] for i, v in self.needs.items()}

    def plan(self, left: int, master: bool, log: list[str]) -> bool:
        """Whether the puzzles in ``needs`` can be finished in ``left`` actions; the actions go to ``log``."""
        if not self.needs:
            return True
        if self._out_of_reach(left, master):
            return False
        if self._place_one(left, master, log) or self._master(left, master, log):
            return True
        if left < 2:
            return False
        # acquire pieces: only useful when something is missing (a failed attempt restored needs and stock)
        needed = [sum(column) for column in zip(*self.needs.values())]
        deficit = [max(0, need - have) for need, have in zip(needed, self.stock)]
        return any(deficit) and (
            self._take(left, master, log) or self._upgrade(left, master, log, deficit)
        )

    def _out_of_reach(self, left: int, master: bool) -> bool:
        """Lower bounds: every piece needs an action (Master saves one per extra puzzle), and the
        first puzzle to be finished gets no returned pieces before it completes, so each of its
        missing pieces needs one acquisition action."""
        needs, stock = self.needs, self.stock
        if left == 0:
            return True
        placing = sum(map(sum, needs.values())) - (len(needs) - 1 if master else 0)
        if placing > left:
            return True
        first_missing = min(sum(need - have for need, have in zip(v, stock) if need > have) for v in needs.values())
        return placing + first_missing > left

    def _attempt(self, left: int, changes: list[tuple[int, int]], next_master: bool, label: str,
                 log: list[str]) -> bool:
        """Place the pieces ``changes`` as one action, finish what they complete, and search on."""
        needs, stock, supply = self.needs, self.stock, self.supply
        s_stock, s_supply, s_needs = stock[:], supply[:], {k: v[:] for k, v in needs.items()}
        step_log = [label]
        for i, s in changes:
            stock[s] -= 1
            needs[i][s] -= 1
        for i in {i for i, _ in changes}:
            if not any(needs[i]):
                del needs[i]
                _finish(self.hand, i, self.full, stock, supply, step_log)
        sub: list[str] = []
        if self.plan(left - 1, next_master, sub):
            log.extend(step_log + sub)
            return True
        stock[:], supply[:] = s_stock, s_supply
        needs.clear()
        needs.update(s_needs)
        return False

    def _place_one(self, left: int, master: bool, log: list[str]) -> bool:
        """Place: one piece on one puzzle."""
        needs, hand = self.needs, self.hand
        for i in list(needs):
            for s in range(NSHAPES):
                if needs[i][s] and self.stock[s] and self._attempt(
                    left, [(i, s)], master, f"place {SHAPE_NAMES[s]} on {hand[i].name or i}", log
                ):
                    return True
        return False

    def _master(self, left: int, master: bool, log: list[str]) -> bool:
        """Master: one piece on each of several puzzles (at least two), once per turn."""
        needs, hand, stock = self.needs, self.hand, self.stock
        if not master or len(needs) < 2:
            return False
        keys = list(needs)
        per = [[None] + [s for s in range(NSHAPES) if needs[i][s]] for i in keys]
        for pick in product(*per):
            chosen = [(i, s) for i, s in zip(keys, pick) if s is not None]
            if len(chosen) < 2:
                continue
            use = [0] * NSHAPES
            for _, s in chosen:
                use[s] += 1
            if any(use[s] > stock[s] for s in range(NSHAPES)):
                continue
            label = "master " + ", ".join(f"{SHAPE_NAMES[s]} on {hand[i].name or i}" for i, s in chosen)
            if self._attempt(left, chosen, False, label, log):
                return True
        return False

    def _take(self, left: int, master: bool, log: list[str]) -> bool:
        """Take a level-1 piece from the supply."""
        stock, supply = self.stock, self.supply
        if supply[0] <= 0:
            return False
        stock[0] += 1
        supply[0] -= 1
        sub: list[str] = []
        if self.plan(left - 1, master, sub):
            log.extend(["take O1"] + sub)
            return True
        stock[0] -= 1
        supply[0] += 1
        return False

    def _upgrade(self, left: int, master: bool, log: list[str], deficit: list[int]) -> bool:
        """Upgrade/exchange one piece for a missing shape, or for a stepping stone toward one."""
        stock, supply, revised = self.stock, self.supply, self.revised
        for s in range(NSHAPES):
            if not stock[s]:
                continue
            for t in upgrade_targets(s, revised):
                if supply[t] <= 0:
                    continue
                if not deficit[t] and (left < 3 or not any(deficit[u] for u in upgrade_targets(t, revised))):
                    continue
                stock[s] -= 1
                supply[s] += 1
                stock[t] += 1
                supply[t] -= 1
                sub: list[str] = []
                if self.plan(left - 1, master, sub):
                    log.extend([f"upgrade {SHAPE_NAMES[s]} -> {SHAPE_NAMES[t]}"] + sub)
                    return True
                stock[s] += 1
                supply[s] -= 1
                stock[t] -= 1
                supply[t] += 1
        return False


_QUICK: dict[tuple[int, int], tuple[tuple[int, int], ...] | None] = {}


def quick_way(empty: int, stock: Sequence[int]) -> tuple[tuple[int, int], ...] | None:
    """One filling (bigger pieces tried first), memoised across calls: the bots' fast question."""
    code = pack(stock, empty.bit_count())
    key = (empty, code)
    if key in _QUICK:
        return _QUICK[key]
    if len(_QUICK) > 200_000:
        _QUICK.clear()
    way = Checker(empty, stock).one_way()
    result = tuple(way) if way is not None else None
    _QUICK[key] = result
    return result
