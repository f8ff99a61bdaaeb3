"""An independent brute force of Rainbow Blackjack with full information, written from the rules.

It follows ``docs/rules/rainbow-blackjack.md`` directly and shares no code with
``puzzles/towers/kernel.py`` (the rules) or ``solvers/towers/search.py``: towers are whole stacks of stones (value, placer,
joker flag per stone) whose totals are summed on demand, a position is copied
for every child (no make/unmake), and the search is plain minimax without
pruning, ordering or a table.  Values are the solver's: from P1's side, ±1000
for an instant win, else 64 × (towers P1 − towers P2) when the horizon is
reached.  Announcements are skipped (they change nothing with full
information).  The differential tests (``test_towers_differential.py``) and
the challenge tests import it; it defines no tests itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzles.towers.engine import Announce, TowersAction, TowersState
from puzzles.towers.stones import JOKER

WIN = 1000
SCALE = 64
STARTERS_B = np.array([0, 1, 0, 0, 1, 0], dtype=np.int64)
CELLS_B = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8]], dtype=np.int64)
HEIGHT = 24  # a tower takes stones of 3 colours (18) and jokers (6) at most
# layout of a position row: stack entries are value * 4 + placer * 2 + is_joker
LEN = 0  # + tower: number of stones
STACK = 6  # + tower * HEIGHT + k (bottom first)
GRIDB = STACK + 6 * HEIGHT  # + 9 * seat + cell: the current grid
USEDB = GRIDB + 18  # + seat: bit mask of used lines in the current grid
HANDB = USEDB + 2  # + 3 * seat + k: stone code, -1 when placed
RND, PHS, STP, WINNER, LASTR = HANDB + 6, HANDB + 7, HANDB + 8, HANDB + 9, HANDB + 10
NB = HANDB + 11
MAXDEPTH = 40
MAXMOVES = 40


@njit(cache=True)
def _total(b, t):
    s = 0
    for k in range(b[LEN + t]):
        s += b[STACK + t * HEIGHT + k] // 4
    return s


@njit(cache=True)
def _to_move(b):
    starter = STARTERS_B[b[RND]]
    return starter if b[STP] % 2 == 0 else 1 - starter


@njit(cache=True)
def _moves(b, out):  # noqa: C901
    """Legal moves: 100 + line (pick), 1000 + code * 16 + tower * 2 + replace (place), 99 (pass)."""
    p = _to_move(b)
    n = 0
    if b[PHS] == 0:
        used = b[USEDB + p]
        rows = (used & 7) != 0
        cols = (used & 56) != 0
        for ln in range(6):
            if (used >> ln) & 1:
                continue
            if rows and ln >= 3:
                continue
            if cols and ln < 3:
                continue
            out[n] = 100 + ln
            n += 1
        return n
    for k in range(3):
        code = b[HANDB + 3 * p + k]
        if code < 0:
            continue
        seen = False
        for j in range(k):
            if b[HANDB + 3 * p + j] == code:
                seen = True
        if seen:
            continue
        for t in range(6):
            h = b[LEN + t]
            top_joker = h > 0 and b[STACK + t * HEIGHT + h - 1] % 2 == 1
            if code == JOKER:
                if h > 0 and not top_joker:
                    out[n] = 1000 + code * 16 + t * 2
                    n += 1
                continue
            color = code // 6
            if not (t == color or t == (color + 1) % 6 or t == (color + 5) % 6):
                continue
            out[n] = 1000 + code * 16 + t * 2
            n += 1
            if top_joker:
                v = code % 6 + 1
                total = _total(b, t)
                top = b[STACK + t * HEIGHT + h - 1] // 4
                replaced = total - top + v
                if abs(replaced - 21) < abs(total - 21) and total + v > 21:
                    out[n] = 1000 + code * 16 + t * 2 + 1
                    n += 1
    if n == 0:
        out[0] = 99
        n = 1
    return n


@njit(cache=True)
def _apply(b, m):
    p = _to_move(b)
    if m >= 1000:
        code = (m - 1000) // 16
        t = ((m - 1000) % 16) // 2
        replace = m % 2 == 1
        h = b[LEN + t]
        if replace:
            h -= 1
        if code == JOKER:
            v = b[STACK + t * HEIGHT + h - 1] // 4
            b[STACK + t * HEIGHT + h] = v * 4 + p * 2 + 1
        else:
            b[STACK + t * HEIGHT + h] = (code % 6 + 1) * 4 + p * 2
        b[LEN + t] = h + 1
        for k in range(3):
            if b[HANDB + 3 * p + k] == code:
                b[HANDB + 3 * p + k] = -1
                break
        owned21 = 0
        for x in range(6):
            hx = b[LEN + x]
            if hx > 0 and (b[STACK + x * HEIGHT + hx - 1] // 2) % 2 == p and _total(b, x) == 21:
                owned21 += 1
        if owned21 >= 3:
            b[WINNER] = p
            return
    elif m >= 100:
        ln = m - 100
        b[USEDB + p] |= 1 << ln
        for k in range(3):
            b[HANDB + 3 * p + k] = b[GRIDB + 9 * p + CELLS_B[ln, k]]
        if b[STP] == 0:
            b[STP] = 1
        else:
            b[PHS] = 1
            b[STP] = 0
        return
    b[STP] += 1
    if b[STP] == 6:
        for k in range(6):
            b[HANDB + k] = -1
        b[RND] += 1
        b[PHS] = 0
        b[STP] = 0


@njit(cache=True)
def _leaf(b):
    return b[WINNER] >= 0 or b[RND] > b[LASTR]


@njit(cache=True)
def _value(b):
    if b[WINNER] == 0:
        return WIN
    if b[WINNER] == 1:
        return -WIN
    v = 0
    for t in range(6):
        h = b[LEN + t]
        if h > 0:
            v += 1 if (b[STACK + t * HEIGHT + h - 1] // 2) % 2 == 0 else -1
    return SCALE * v


@njit(cache=True)
def minimax(b0):
    """Plain minimax value of position row ``b0`` (explicit stack, a copy of the position per depth)."""
    st = np.empty((MAXDEPTH, NB), dtype=np.int64)
    mv = np.empty((MAXDEPTH, MAXMOVES), dtype=np.int64)
    nm = np.zeros(MAXDEPTH, dtype=np.int64)
    ix = np.zeros(MAXDEPTH, dtype=np.int64)
    best = np.zeros(MAXDEPTH, dtype=np.int64)
    st[0, :] = b0
    d = 0
    enter = True
    val = 0
    while True:
        if enter:
            if _leaf(st[d]):
                val = _value(st[d])
                enter = False
            else:
                nm[d] = _moves(st[d], mv[d])
                ix[d] = 0
                best[d] = -10 * WIN if _to_move(st[d]) == 0 else 10 * WIN
                st[d + 1, :] = st[d, :]
                _apply(st[d + 1], mv[d, 0])
                d += 1
                continue
        if d == 0:
            return val
        d -= 1
        if _to_move(st[d]) == 0:
            if val > best[d]:
                best[d] = val
        elif val < best[d]:
            best[d] = val
        ix[d] += 1
        if ix[d] < nm[d]:
            st[d + 1, :] = st[d, :]
            _apply(st[d + 1], mv[d, ix[d]])
            d += 1
            enter = True
        else:
            val = best[d]


def to_row(state: TowersState, last_round: int) -> np.ndarray:
    """The brute force's position row of an engine state (a pick or placement decision is due)."""
    b = np.zeros(NB, dtype=np.int64)
    for t in range(6):
        b[LEN + t] = len(state.towers[t])
        for k, (code, value, placer) in enumerate(zip(state.towers[t], state.values[t], state.placers[t], strict=True)):
            b[STACK + t * HEIGHT + k] = value * 4 + placer * 2 + (1 if code == JOKER else 0)
    g = state.grid_index()
    for p in (0, 1):
        grid = state.grids[p][g]
        assert grid is not None
        b[GRIDB + 9 * p : GRIDB + 9 * p + 9] = grid
        b[USEDB + p] = sum(1 << ln for ln in state.used_lines[p][g])
        hand = state.hands[p]
        b[HANDB + 3 * p : HANDB + 3 * p + 3] = list(hand) + [-1] * (3 - len(hand))
    b[RND] = state.round
    b[PHS] = 0 if state.phase == "pick" else 1
    b[STP] = state.step // 2 if state.phase == "pick" else state.step
    b[WINNER] = -1
    b[LASTR] = last_round
    return b


def last_round_of(state: TowersState, horizon: str) -> int:
    """Last round a search with ``horizon`` ('round' or 'game') covers (grid 1 ends at round 3: a chance node)."""
    if horizon == "round":
        return state.round
    return 2 if state.round < 3 else 5


def engine_leaf_value(state: TowersState) -> int:
    """Value of a finished (or round-ended) engine position, from the engine's own outcome."""
    if state.instant:
        return WIN if state.winner == 0 else -WIN
    owned = state.towers_owned()
    return SCALE * (owned[0] - owned[1])


def brute_value(state: TowersState, last_round: int) -> int:
    """Minimax value of an engine state to the end of round ``last_round + 1`` (0-based ``last_round``)."""
    if state.phase == "pick" and state.step % 2 == 1:
        state = state.clone()
        state.apply(Announce("colors"))
    if state.phase in ("end", "deal") or state.round > last_round:
        return engine_leaf_value(state)
    return int(minimax(to_row(state, last_round)))


def brute_move_values(state: TowersState, horizon: str) -> tuple[int, dict[str, int]]:
    """Value and the value of every legal engine action (children built by the engine itself)."""
    last = last_round_of(state, horizon)
    values: dict[str, int] = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values[state.action_to_string(action)] = brute_value(child, last)
    mover = state.current_player()
    value = max(values.values()) if mover == 0 else min(values.values())
    return value, values


def winning_actions(state: TowersState, horizon: str) -> list[TowersAction]:
    """Engine actions that keep the brute-force value (the mover's best moves)."""
    value, values = brute_move_values(state, horizon)
    return [a for a in state.legal_actions() if values[state.action_to_string(a)] == value]


def warm_up() -> None:
    """Compile the kernels above (or load them from numba's cache) on a placement in the middle of round 1 (its
    moves are searched by :func:`minimax`; at a round's last placement every child is a leaf and nothing compiles):
    the conftest runs this once, in the background, so that the test workers that use it do not each compile it."""
    from puzzles.towers.subgame import random_play

    state = random_play(0, lambda s: s.phase == "place" and s.step == 3)
    assert state.round == 0
    brute_move_values(state, "round")
