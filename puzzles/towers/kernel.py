"""Compiled (numba) rules of Rainbow Blackjack: the only implementation of the game's rules.

The rules as implemented are in ``docs/rules/rainbow-blackjack.md``.  A
position is a :class:`Towers` named tuple of int64 arrays, all views of one
flat buffer (so a position crosses from Python into compiled code as one
array and is copied with one ``copy()``):

* ``core`` — what play needs: tower summaries (total, effective top value,
  top-is-joker, owner), both players' *current* grids, line direction and
  used-line mask of the current grid, the hands (three slots, -1 when placed),
  round, phase, step, instant winner, line picked, plus the settings of a
  search (last round, leaf mode, target).  Moves are generated and made on the
  core alone (:func:`gen_moves`, :func:`make_move`, :func:`unmake_move`), so a
  search copies and advances just this array: its offsets are the constants
  below.
* the record a game keeps beside it: whole tower stacks (stone, value,
  placer), both grids, the lines used in order, undealt pools, cells dealt so
  far, removed stones, revealed stones by round, replaced jokers, the result.
  :func:`apply_action` keeps them in step with the core.

Kernel moves (ints, on the core): ``MOVE_PICK + line`` picks a line,
``MOVE_ANNOUNCE + mode`` announces (0 colours, 1 numbers), ``slot*16 +
tower*2 + repl`` places hand slot ``slot`` on ``tower`` (``repl``: replace the
top joker), ``MOVE_PASS`` passes.  Identical stones in one hand give one move
(the first slot).  With ``core[QUIET] = 1`` (a search) a pick skips its
announcement (announcements carry no weight with full information) and play
stops at the round ``core[LAST]`` or at the second deal; otherwise the game
runs to the second deal (phase ``PHASE_DEAL``) and to the end.

Actions (ints, the engine's order and names, see :func:`legal_actions`):
``stone*16 + tower*2 + repl`` places by stone code, ``A_PICK + line``,
``A_PASS``, ``A_ANNOUNCE + mode``, ``A_DRAW + stone`` (a chance draw).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.lib.stride_tricks import as_strided

JOKER = 36
# layout of the core
TOT, TOP, JK, OWN = 0, 6, 12, 18
GRID = 24  # + 9*p + cell: the current grid
DIR = 42  # + p
USED = 44  # + p: bit mask of the lines used in the current grid
HAND = 46  # + 3*p + slot (code or -1)
ROUND, PHASE, STEP, WIN, LAST, LINE = 52, 53, 54, 55, 56, 57  # LINE + p
MODE = 59  # search leaf mode (see solvers.towers.search.evaluate)
TGT, TGT_P = 60, 61
QUIET = 62  # 1 in a search: announcements skipped, play stops at round LAST or at the second deal
TOMOVE = 63  # seat to act, -1 a chance draw, -2 the end (kept by apply_action and refresh, not by a search)
NS = 64
PHASE_PICK, PHASE_PLACE, PHASE_DONE, PHASE_DEAL = 0, 1, 2, 3
MOVE_PASS = 99
MOVE_PICK = 100
MOVE_ANNOUNCE = 120
MAXM = 24

# engine actions as ints
A_PICK, A_PASS, A_ANNOUNCE, A_DRAW = 600, 610, 620, 640
NUM_ACTIONS = A_DRAW + JOKER + 1

STARTERS = np.array([0, 1, 0, 0, 1, 0], dtype=np.int64)
LINE_CELLS = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8]], dtype=np.int64)

HEIGHT = 48  # stones a tower can hold (42 stones in the game)
CELLS = 9  # cells of a grid
REMOVED = 3  # stones of each set taken out of the game by the first deal
# The order of the chance draws, one row per draw: (seat, grid 0 or 1, or -1 for a stone removed
# from the game).  First deal: seat 0's first grid cell by cell, then its removed stones, then seat
# 1's likewise; second deal (before round 4): seat 0's second grid, then seat 1's.
SETUP_DEAL = np.array([(p, 0 if k < CELLS else -1) for p in range(2) for k in range(CELLS + REMOVED)], dtype=np.int64)
GRID2_DEAL = np.array([(p, 1) for p in range(2) for _ in range(CELLS)], dtype=np.int64)
SET = 21  # stones of a player
OUTS = 16  # replaced jokers recorded


class Towers(NamedTuple):
    """A position: named int64 arrays over one flat buffer (see the module docstring)."""

    core: np.ndarray  # (NS,)
    height: np.ndarray  # (6,) stones per tower
    stones: np.ndarray  # (6, HEIGHT) stone codes, bottom first
    values: np.ndarray  # (6, HEIGHT) effective values
    placers: np.ndarray  # (6, HEIGHT) seat that placed each stone
    grids: np.ndarray  # (2, 2, 9) seat, grid, cell; -1 before the grid is dealt
    direction: np.ndarray  # (2, 2) -1 free, 0 rows, 1 columns
    used: np.ndarray  # (2, 2, 3) lines used, in order
    nused: np.ndarray  # (2, 2)
    pools: np.ndarray  # (2, SET) undealt stones, in order
    npool: np.ndarray  # (2,)
    partial: np.ndarray  # (2, 9) cells dealt so far in a deal
    npartial: np.ndarray  # (2,)
    removed: np.ndarray  # (2, 3)
    nremoved: np.ndarray  # (2,)
    revealed: np.ndarray  # (2, 6, SET) stones shown by round (placed, then discarded)
    nrevealed: np.ndarray  # (2, 6)
    out: np.ndarray  # (OUTS, 4) replaced jokers: code, placer, remover, tower
    nout: np.ndarray  # (1,)
    result: np.ndarray  # (2,) winner (-1 none or draw), instant flag


SHAPES: tuple[tuple[int, ...], ...] = (
    (NS,), (6,), (6, HEIGHT), (6, HEIGHT), (6, HEIGHT), (2, 2, 9), (2, 2), (2, 2, 3), (2, 2), (2, SET), (2,),
    (2, 9), (2,), (2, 3), (2,), (2, 6, SET), (2, 6), (OUTS, 4), (1,), (2,),
)
_SIZES = [int(np.prod(s)) for s in SHAPES]
OFFSETS = tuple(int(x) for x in np.cumsum([0, *_SIZES]))
SIZE = OFFSETS[-1]
(O_CORE, O_HEIGHT, O_STONES, O_VALUES, O_PLACERS, O_GRIDS, O_DIR, O_USED, O_NUSED, O_POOLS, O_NPOOL, O_PARTIAL,
 O_NPARTIAL, O_REMOVED, O_NREMOVED, O_REVEALED, O_NREVEALED, O_OUT, O_NOUT, O_RESULT, O_END) = OFFSETS


def arrays(buf: np.ndarray) -> Towers:
    """The named views of a position buffer, in Python."""
    return Towers(*(buf[OFFSETS[i] : OFFSETS[i + 1]].reshape(SHAPES[i]) for i in range(len(SHAPES))))


@njit(cache=True, inline="always")
def _grid2(buf, o, a, b):
    return as_strided(buf[o:], shape=(a, b), strides=(8 * b, 8))


@njit(cache=True, inline="always")
def _grid3(buf, o, a, b, c):
    return as_strided(buf[o:], shape=(a, b, c), strides=(8 * b * c, 8 * c, 8))


@njit(cache=True, inline="always")
def view(buf):
    """The named views of a position buffer, in compiled code (strided views: no reshape calls)."""
    return Towers(
        buf[O_CORE:O_HEIGHT],
        buf[O_HEIGHT:O_STONES],
        _grid2(buf, O_STONES, 6, HEIGHT),
        _grid2(buf, O_VALUES, 6, HEIGHT),
        _grid2(buf, O_PLACERS, 6, HEIGHT),
        _grid3(buf, O_GRIDS, 2, 2, 9),
        _grid2(buf, O_DIR, 2, 2),
        _grid3(buf, O_USED, 2, 2, 3),
        _grid2(buf, O_NUSED, 2, 2),
        _grid2(buf, O_POOLS, 2, SET),
        buf[O_NPOOL:O_PARTIAL],
        _grid2(buf, O_PARTIAL, 2, 9),
        buf[O_NPARTIAL:O_REMOVED],
        _grid2(buf, O_REMOVED, 2, 3),
        buf[O_NREMOVED:O_REVEALED],
        _grid3(buf, O_REVEALED, 2, 6, SET),
        _grid2(buf, O_NREVEALED, 2, 6),
        _grid2(buf, O_OUT, OUTS, 4),
        buf[O_NOUT:O_RESULT],
        buf[O_RESULT:O_END],
    )


def new_buffer() -> np.ndarray:
    """A blank position: nothing dealt, full pools, towers empty (the first chance node)."""
    buf = np.zeros(SIZE, dtype=np.int64)
    st = arrays(buf)
    core = st.core
    core[OWN : OWN + 6] = -1
    core[GRID : GRID + 18] = -1
    core[DIR : DIR + 2] = -1
    core[HAND : HAND + 6] = -1
    core[LINE : LINE + 2] = -1
    core[WIN] = -1
    core[LAST] = 5
    core[PHASE] = PHASE_DEAL
    core[TOMOVE] = -1
    st.grids[:] = -1
    st.direction[:] = -1
    for p in range(2):
        st.pools[p] = player_set_array(p)
        st.npool[p] = SET
    st.result[0] = -1
    return buf


def player_set_array(p: int) -> np.ndarray:
    """The 21 stones of seat ``p`` in the order of :func:`puzzles.towers.stones.player_set`."""
    out = np.empty(SET, dtype=np.int64)
    _player_set(p, out)
    return out


# ---------------------------------------------------------------------------
# moves on the core
# ---------------------------------------------------------------------------


@njit(cache=True)
def mover(S):
    """Seat to act in core ``S`` (a pick or placement phase)."""
    st = STARTERS[S[ROUND]]
    if S[PHASE] == PHASE_PICK:
        return st if S[STEP] < 2 else 1 - st
    return st if S[STEP] % 2 == 0 else 1 - st


@njit(cache=True)
def allowed(code, t):
    """The wheel rule: a coloured stone goes on its own tower or a neighbouring one."""
    c = code // 6
    d = (t - c) % 6
    return d == 0 or d == 1 or d == 5


@njit(cache=True)
def replace_ok(tot, top, v):
    """Joker replacement: strictly closer to 21, and stacking on top would exceed 21."""
    rep = tot - top + v
    return abs(rep - 21) < abs(tot - 21) and tot + v > 21


@njit(cache=True)
def gen_moves(S, out):  # noqa: C901
    """Legal kernel moves of the seat to act into ``out`` (hand-slot order); returns their number."""
    p = mover(S)
    n = 0
    if S[PHASE] == PHASE_PICK:
        if S[STEP] % 2 == 1:
            out[0] = MOVE_ANNOUNCE
            out[1] = MOVE_ANNOUNCE + 1
            return 2
        d = S[DIR + p]
        used = S[USED + p]
        for ln in range(6):
            if d >= 0 and ln // 3 != d:
                continue
            if (used >> ln) & 1:
                continue
            out[n] = MOVE_PICK + ln
            n += 1
        return n
    for slot in range(3):
        code = S[HAND + 3 * p + slot]
        if code < 0:
            continue
        dup = False
        for k in range(slot):
            if S[HAND + 3 * p + k] == code:
                dup = True
        if dup:
            continue
        if code == JOKER:
            for t in range(6):
                if S[OWN + t] >= 0 and S[JK + t] == 0:
                    out[n] = slot * 16 + t * 2
                    n += 1
        else:
            v = code % 6 + 1
            for t in range(6):
                if allowed(code, t):
                    out[n] = slot * 16 + t * 2
                    n += 1
                    if S[JK + t] == 1 and replace_ok(S[TOT + t], S[TOP + t], v):
                        out[n] = slot * 16 + t * 2 + 1
                        n += 1
    if n == 0:
        out[0] = MOVE_PASS
        n = 1
    return n


@njit(cache=True)
def _end_round(S):
    """Discard hands and move on: the next round, the second deal, the end, or (searching) the horizon."""
    for i in range(6):
        S[HAND + i] = -1
    S[LINE] = -1
    S[LINE + 1] = -1
    S[ROUND] += 1
    r = S[ROUND]
    if r == 6:
        S[PHASE] = PHASE_DONE
        return
    S[STEP] = 0
    if S[QUIET] == 1 and (r == 3 or r > S[LAST]):
        S[PHASE] = PHASE_DONE
    elif r == 3:
        S[PHASE] = PHASE_DEAL
    else:
        S[PHASE] = PHASE_PICK


@njit(cache=True)
def make_move(S, m, undo):
    """Apply kernel move ``m`` to core ``S``; ``undo`` (int64[16]) receives what :func:`unmake_move` needs."""
    undo[0] = S[PHASE]
    undo[1] = S[STEP]
    undo[2] = S[ROUND]
    for i in range(6):
        undo[3 + i] = S[HAND + i]
    undo[9] = S[LINE]
    undo[10] = S[LINE + 1]
    p = mover(S)
    if m >= MOVE_ANNOUNCE:
        S[STEP] += 1
        if S[STEP] == 4:
            S[PHASE] = PHASE_PLACE
            S[STEP] = 0
        return
    if m >= MOVE_PICK:
        ln = m - MOVE_PICK
        undo[11] = S[DIR + p]
        undo[12] = S[USED + p]
        if S[DIR + p] < 0:
            S[DIR + p] = ln // 3
        S[USED + p] |= 1 << ln
        S[LINE + p] = ln
        for k in range(3):
            S[HAND + 3 * p + k] = S[GRID + 9 * p + LINE_CELLS[ln, k]]
        S[STEP] += 2 if S[QUIET] == 1 else 1
        if S[STEP] == 4:
            S[PHASE] = PHASE_PLACE
            S[STEP] = 0
        return
    if m != MOVE_PASS:
        slot = m // 16
        t = (m % 16) // 2
        repl = m % 2
        undo[11] = t
        undo[12] = S[TOT + t]
        undo[13] = S[TOP + t]
        undo[14] = S[JK + t]
        undo[15] = S[OWN + t]
        code = S[HAND + 3 * p + slot]
        S[HAND + 3 * p + slot] = -1
        if code == JOKER:
            v = S[TOP + t]
            S[TOT + t] += v
            S[JK + t] = 1
        else:
            v = code % 6 + 1
            if repl == 1:
                S[TOT + t] = S[TOT + t] - S[TOP + t] + v
            else:
                S[TOT + t] += v
            S[TOP + t] = v
            S[JK + t] = 0
        S[OWN + t] = p
        cnt = 0
        for x in range(6):
            if S[OWN + x] == p and S[TOT + x] == 21:
                cnt += 1
        if cnt >= 3:  # instant win
            S[WIN] = p
            S[PHASE] = PHASE_DONE
            return
    S[STEP] += 1
    if S[STEP] == 6:
        _end_round(S)


@njit(cache=True)
def unmake_move(S, m, undo):
    """Take back ``m`` using ``undo`` from :func:`make_move`."""
    S[PHASE] = undo[0]
    S[STEP] = undo[1]
    S[ROUND] = undo[2]
    for i in range(6):
        S[HAND + i] = undo[3 + i]
    S[LINE] = undo[9]
    S[LINE + 1] = undo[10]
    S[WIN] = -1
    if m >= MOVE_ANNOUNCE:
        return
    p = mover(S)
    if m >= MOVE_PICK:
        S[DIR + p] = undo[11]
        S[USED + p] = undo[12]
        return
    if m != MOVE_PASS:
        t = undo[11]
        S[TOT + t] = undo[12]
        S[TOP + t] = undo[13]
        S[JK + t] = undo[14]
        S[OWN + t] = undo[15]


@njit(cache=True)
def towers_owned(S, p):
    """Towers whose top stone seat ``p`` placed."""
    c = 0
    for t in range(6):
        if S[OWN + t] == p:
            c += 1
    return c


# ---------------------------------------------------------------------------
# engine actions on a whole position
# ---------------------------------------------------------------------------


@njit(cache=True)
def _deal_target(S):
    """(seat, grid or -1 for a removed stone) of the chance draw due: row ``step`` of the deal's table."""
    order = SETUP_DEAL if S[ROUND] == 0 else GRID2_DEAL
    return order[S[STEP], 0], order[S[STEP], 1]


@njit(cache=True)
def _deal_length(S):
    """Draws of the deal under way."""
    return SETUP_DEAL.shape[0] if S[ROUND] == 0 else GRID2_DEAL.shape[0]


@njit(cache=True)
def _action_of(S, m, p):
    """Engine action of kernel move ``m`` by seat ``p``."""
    if m >= MOVE_ANNOUNCE:
        return A_ANNOUNCE + m - MOVE_ANNOUNCE
    if m >= MOVE_PICK:
        return A_PICK + m - MOVE_PICK
    if m == MOVE_PASS:
        return A_PASS
    return S[HAND + 3 * p + m // 16] * 16 + m % 16


@njit(cache=True)
def _order_key(a):
    """Engine order of placements: stone code, then the stone's towers in wheel order (c-1, c, c+1), place first."""
    code = a // 16
    t = (a % 16) // 2
    if code == JOKER:
        return a
    return code * 16 + ((t - code // 6 + 1) % 6) * 2 + a % 2


@njit(cache=True)
def legal_actions(st, out):
    """Legal engine actions of position ``st`` into ``out``, in the engine's order; returns their number.

    Chance draws list each distinct stone left in the pool once (ascending).
    """
    S = st.core
    ph = S[PHASE]
    if ph == PHASE_DONE:
        return 0
    if ph == PHASE_DEAL:
        p, _ = _deal_target(S)
        seen = np.zeros(JOKER + 1, dtype=np.bool_)
        for i in range(st.npool[p]):
            seen[st.pools[p, i]] = True
        n = 0
        for code in range(JOKER + 1):
            if seen[code]:
                out[n] = A_DRAW + code
                n += 1
        return n
    moves = np.empty(MAXM, dtype=np.int64)
    n = gen_moves(S, moves)
    p = mover(S)
    for i in range(n):
        out[i] = _action_of(S, moves[i], p)
    if ph == PHASE_PLACE:
        for i in range(1, n):  # insertion sort into the engine's order
            a = out[i]
            k = _order_key(a)
            j = i - 1
            while j >= 0 and _order_key(out[j]) > k:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = a
    return n


@njit(cache=True)
def _move_of(S, a, p):
    """Kernel move of engine action ``a`` by seat ``p`` (placements: the first slot holding the stone)."""
    if a >= A_ANNOUNCE:
        return MOVE_ANNOUNCE + a - A_ANNOUNCE
    if a == A_PASS:
        return MOVE_PASS
    if a >= A_PICK:
        return MOVE_PICK + a - A_PICK
    code = a // 16
    for slot in range(3):
        if S[HAND + 3 * p + slot] == code:
            return slot * 16 + a % 16
    return -1


@njit(cache=True, inline="always")
def _sort_small(row):
    """Sort a short row in place (an insertion sort: ``row.sort()`` would compile numba's quicksort, ~0.5 s)."""
    for i in range(1, row.shape[0]):
        v = row[i]
        j = i - 1
        while j >= 0 and row[j] > v:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = v


@njit(cache=True)
def _apply_draw(st, code):
    S = st.core
    p, g = _deal_target(S)
    n = st.npool[p]
    i = 0
    while st.pools[p, i] != code:
        i += 1
    for k in range(i, n - 1):
        st.pools[p, k] = st.pools[p, k + 1]
    st.pools[p, n - 1] = 0
    st.npool[p] = n - 1
    if g < 0:
        k = st.nremoved[p]
        st.removed[p, k] = code
        st.nremoved[p] = k + 1
        if k + 1 == 3:
            _sort_small(st.removed[p])
    else:
        k = st.npartial[p]
        st.partial[p, k] = code
        st.npartial[p] = k + 1
        if k + 1 == 9:
            for c in range(9):
                st.grids[p, g, c] = st.partial[p, c]
                st.partial[p, c] = 0
            st.npartial[p] = 0
    S[STEP] += 1
    if S[STEP] == _deal_length(S):
        g = 0 if S[ROUND] < 3 else 1
        for q in range(2):
            for c in range(9):
                S[GRID + 9 * q + c] = st.grids[q, g, c]
            S[DIR + q] = st.direction[q, g]
            mask = 0
            for k in range(st.nused[q, g]):
                mask |= 1 << st.used[q, g, k]
            S[USED + q] = mask
        S[PHASE] = PHASE_PICK
        S[STEP] = 0


@njit(cache=True)
def _reveal(st, p, r, code):
    k = st.nrevealed[p, r]
    st.revealed[p, r, k] = code
    st.nrevealed[p, r] = k + 1


@njit(cache=True)
def _record_placement(st, p, a):
    """Stack the placed stone (after removing the replaced joker) and reveal it."""
    code = a // 16
    t = (a % 16) // 2
    h = st.height[t]
    if a % 2 == 1:
        k = st.nout[0]
        st.out[k, 0] = JOKER
        st.out[k, 1] = st.placers[t, h - 1]
        st.out[k, 2] = p
        st.out[k, 3] = t
        st.nout[0] = k + 1
        h -= 1
    st.stones[t, h] = code
    st.values[t, h] = st.values[t, h - 1] if code == JOKER else code % 6 + 1
    st.placers[t, h] = p
    st.height[t] = h + 1
    _reveal(st, p, st.core[ROUND], code)


@njit(cache=True)
def _is_legal(st, a):
    """True when engine action ``a`` is among :func:`legal_actions` (in any order)."""
    S = st.core
    if S[PHASE] == PHASE_DONE:
        return False
    if S[PHASE] == PHASE_DEAL:
        if a < A_DRAW or a > A_DRAW + JOKER:
            return False
        p, _ = _deal_target(S)
        i = 0
        while i < st.npool[p] and st.pools[p, i] != a - A_DRAW:
            i += 1
        return i < st.npool[p]
    moves = np.empty(MAXM, dtype=np.int64)
    n = gen_moves(S, moves)
    p = mover(S)
    i = 0
    while i < n and _action_of(S, moves[i], p) != a:
        i += 1
    return i < n


@njit(cache=True)
def to_move(S):
    """Seat to act in core ``S``, -1 at a chance draw, -2 at the end."""
    if S[PHASE] == PHASE_DONE:
        return -2
    if S[PHASE] == PHASE_DEAL:
        return -1
    return mover(S)


@njit(cache=True)
def apply_action(st, a):
    """Play engine action ``a`` on position ``st`` (core and record).

    Returns 0 if ``a`` is illegal here; 3 + 4 * (stones P1 discarded + 4 * stones
    P2 discarded) when the action ended a round; else 1.
    """
    S = st.core
    if not _is_legal(st, a):
        return 0
    res = _apply(st, a)
    S[TOMOVE] = to_move(S)
    return res


@njit(cache=True)
def _apply(st, a):
    S = st.core
    if S[PHASE] == PHASE_DEAL:
        _apply_draw(st, a - A_DRAW)
        return 1
    p = mover(S)
    r = S[ROUND]
    g = 0 if r < 3 else 1
    m = _move_of(S, a, p)
    hands = S[HAND : HAND + 6].copy()
    if a < A_PICK:
        _record_placement(st, p, a)
        hands[3 * p + m // 16] = -1
    undo = np.empty(16, dtype=np.int64)
    make_move(S, m, undo)
    if A_PICK <= a < A_PASS:
        st.direction[p, g] = S[DIR + p]
        st.used[p, g, st.nused[p, g]] = a - A_PICK
        st.nused[p, g] += 1
        return 1
    if S[WIN] >= 0:
        st.result[0] = S[WIN]
        st.result[1] = 1
        return 1
    if S[ROUND] == r:
        return 1
    discards = np.zeros(2, dtype=np.int64)  # the round ended: what is left in hand is discarded, face up
    for q in range(2):
        for k in range(3):
            if hands[3 * q + k] >= 0:
                _reveal(st, q, r, hands[3 * q + k])
                discards[q] += 1
    if S[ROUND] == 6:
        o0 = towers_owned(S, 0)
        o1 = towers_owned(S, 1)
        st.result[0] = 0 if o0 > o1 else (1 if o1 > o0 else -1)
    return 3 + 4 * (discards[0] + 4 * discards[1])


@njit(cache=True)
def refresh_buf(buf):
    """Set the seat to act of a position written from outside (a loaded file)."""
    S = view(buf).core
    S[TOMOVE] = to_move(S)


@njit(cache=True)
def legal_actions_buf(buf, out):
    """:func:`legal_actions` on a position buffer (one array crosses from Python)."""
    return legal_actions(view(buf), out)


@njit(cache=True)
def apply_action_buf(buf, a):
    """:func:`apply_action` on a position buffer (one array crosses from Python)."""
    return apply_action(view(buf), a)


# ---------------------------------------------------------------------------
# whole random games (deal + uniformly random legal moves), for playout speed
# ---------------------------------------------------------------------------


@njit(cache=True)
def _player_set(p, out):
    k = 0
    for c in range(6):
        if c % 2 == p:  # seat 0: red(0), yellow(2), blue(4); seat 1: orange, green, purple
            for v in range(6):
                out[k] = c * 6 + v
                k += 1
    for _ in range(3):
        out[k] = JOKER
        k += 1


@njit(cache=True)
def random_game(S, grids2, trace, moves, undo):
    """Play one random game from a freshly dealt core ``S`` (grid 1 set, grid 2 in ``grids2``); returns ply count.

    Picks and placements are uniform over the legal kernel moves (= the engine's
    distinct legal actions); the announcement is not drawn (it does not change play).
    ``trace`` receives the moves, the value 200 marking the grid-2 deal.
    """
    n_tr = 0
    while True:
        if S[PHASE] == PHASE_DONE:
            if S[WIN] >= 0 or S[ROUND] >= 6:
                break
            # round 3 boundary: lay grid 2 and continue
            for p in range(2):
                for c in range(9):
                    S[GRID + 9 * p + c] = grids2[p, c]
                S[DIR + p] = -1
                S[USED + p] = 0
            S[PHASE] = PHASE_PICK
            trace[n_tr] = 200
            n_tr += 1
            continue
        n = gen_moves(S, moves)
        m = moves[np.random.randint(n)]
        trace[n_tr] = m
        n_tr += 1
        make_move(S, m, undo)
    return n_tr


@njit(cache=True)
def deal(S, grids1, grids2, removed):
    """Random deal into a fresh core (a search of the whole game: announcements skipped)."""
    pool = np.empty(SET, dtype=np.int64)
    for i in range(NS):
        S[i] = 0
    for t in range(6):
        S[OWN + t] = -1
    for p in range(2):
        _player_set(p, pool)
        np.random.shuffle(pool)
        for c in range(9):
            grids1[p, c] = pool[c]
            S[GRID + 9 * p + c] = pool[c]
        for c in range(3):
            removed[p, c] = pool[9 + c]
        for c in range(9):
            grids2[p, c] = pool[12 + c]
        S[DIR + p] = -1
        S[USED + p] = 0
        S[LINE + p] = -1
    for i in range(6):
        S[HAND + i] = -1
    S[WIN] = -1
    S[LAST] = 5
    S[QUIET] = 1
    S[PHASE] = PHASE_PICK


@njit(cache=True)
def random_playouts(seeds, results):
    """One random game per seed (so a game depends only on its seed, not on the batch);
    ``results[g]`` = (winner or -1, instant flag, towers P1, towers P2)."""
    n_games = seeds.shape[0]
    S = np.empty(NS, dtype=np.int64)
    grids1 = np.empty((2, 9), dtype=np.int64)
    grids2 = np.empty((2, 9), dtype=np.int64)
    removed = np.empty((2, 3), dtype=np.int64)
    trace = np.empty(128, dtype=np.int64)
    moves = np.empty(MAXM, dtype=np.int64)
    undo = np.empty(16, dtype=np.int64)
    for g in range(n_games):
        np.random.seed(seeds[g])
        deal(S, grids1, grids2, removed)
        random_game(S, grids2, trace, moves, undo)
        o0 = towers_owned(S, 0)
        o1 = towers_owned(S, 1)
        w = S[WIN]
        inst = 1 if w >= 0 else 0
        if w < 0:
            w = 0 if o0 > o1 else (1 if o1 > o0 else -1)
        results[g, 0] = w
        results[g, 1] = inst
        results[g, 2] = o0
        results[g, 3] = o1


@njit(cache=True)
def random_game_trace(seed, grids1, grids2, removed, trace):
    """One seeded random game with its deal and move trace (to replay in the Python engine)."""
    np.random.seed(seed)
    S = np.empty(NS, dtype=np.int64)
    moves = np.empty(MAXM, dtype=np.int64)
    undo = np.empty(16, dtype=np.int64)
    deal(S, grids1, grids2, removed)
    return random_game(S, grids2, trace, moves, undo)
