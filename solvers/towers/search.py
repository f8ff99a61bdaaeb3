"""Compiled alpha-beta search of Rainbow Blackjack over the rule kernel's core (:mod:`puzzles.towers.kernel`).

Leaf values, static value bounds, the transposition-table key, move ordering
and the resumable explicit-stack alpha-beta.  Moves are generated, made and
taken back by the rule kernel (``gen_moves``, ``make_move``, ``unmake_move``
on a core with ``QUIET`` set), so the search holds no rules of its own.

Values are from player 1's side: ``WIN_VALUE`` (1000) for an instant win,
``SCALE * (towers P1 - towers P2)`` otherwise, plus — only at a horizon leaf in
heuristic mode — ``4 * (P1's towers at 21 - P2's towers at 21)``.  The leaf
mode is ``core[MODE]``: 0 exact margin, 1 heuristic leaves, 2 target tower
``core[TGT]`` for seat ``core[TGT_P]``, 3 count of that seat's towers at 21.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzles.towers.kernel import (
    DIR,
    HAND,
    JK,
    JOKER,
    LAST,
    LINE,
    MAXM,
    MODE,
    MOVE_PASS,
    MOVE_PICK,
    OWN,
    PHASE,
    PHASE_DONE,
    PHASE_PICK,
    PHASE_PLACE,
    ROUND,
    STARTERS,
    STEP,
    TGT,
    TGT_P,
    TOP,
    TOT,
    USED,
    WIN,
    gen_moves,
    make_move,
    mover,
    unmake_move,
)

WIN_VALUE = 1000
SCALE = 64
EXACT, LOWER, UPPER = 0, 1, 2
MAXD = 64  # search depth bound (a game has at most 48 plies)


@njit(cache=True)
def evaluate(S):  # noqa: C901
    """Value of a leaf (game end, instant win, or end of the searched horizon) from P1's side."""
    mode = S[MODE]
    if mode == 2:  # target tower: 1 if TGT_P owns tower TGT at 21 (or wins instantly), else 0; P1 side
        p = S[TGT_P]
        ok = 0
        if S[WIN] >= 0:
            ok = 1 if S[WIN] == p else 0
        elif S[OWN + S[TGT]] == p and S[TOT + S[TGT]] == 21:
            ok = 1
        return ok if p == 0 else -ok
    if mode == 3:  # number of towers TGT_P owns at 21 (6 for an instant win by TGT_P, 0 if the other wins)
        p = S[TGT_P]
        if S[WIN] >= 0:
            c = 6 if S[WIN] == p else 0
        else:
            c = 0
            for t in range(6):
                if S[OWN + t] == p and S[TOT + t] == 21:
                    c += 1
        return c if p == 0 else -c
    if S[WIN] == 0:
        return WIN_VALUE
    if S[WIN] == 1:
        return -WIN_VALUE
    v = 0
    b = 0
    for t in range(6):
        o = S[OWN + t]
        if o == 0:
            v += 1
            if S[TOT + t] == 21:
                b += 1
        elif o == 1:
            v -= 1
            if S[TOT + t] == 21:
                b -= 1
    v *= SCALE
    if mode == 1 and S[ROUND] < 6:
        v += 4 * b
    return v


@njit(cache=True)
def value_bounds(S):
    """Static (lower, upper) bounds on the exact value (mode 0) of ``S``, from the placements left.

    A placement changes the owner of one tower only: P1's never lower the
    margin, P2's never raise it, each moves it by 2 at most.  A seat can still
    win instantly only if its towers at 21 plus the towers it can still bring
    to 21 (one per placement left; a tower above 21 only by replacing its top
    joker, a tower at 21 only by keeping it) reach 3.
    """
    r = S[ROUND]
    last = S[LAST]
    if r < 3 and last > 2:
        last = 2
    st = STARTERS[r]
    left0 = 3 * (last - r)
    left1 = left0
    if S[PHASE] == PHASE_PICK:
        left0 += 3
        left1 += 3
    else:
        k = S[STEP]
        mine = (6 - k + (1 - k % 2)) // 2  # the starter places at the even steps k..5
        other = 6 - k - mine
        if st == 0:
            left0 += mine
            left1 += other
        else:
            left0 += other
            left1 += mine
    o0 = 0
    o1 = 0
    c0 = 0
    c1 = 0
    open21 = 0  # towers that can still come to exactly 21: below it, or above with a joker on top to replace
    for t in range(6):
        if S[OWN + t] == 0:
            o0 += 1
            if S[TOT + t] == 21:
                c0 += 1
        elif S[OWN + t] == 1:
            o1 += 1
            if S[TOT + t] == 21:
                c1 += 1
        if S[TOT + t] < 21 or (S[TOT + t] > 21 and S[JK + t] == 1):
            open21 += 1
    m = o0 - o1
    hi = min(m + 2 * left0, o0 + left0, 6) * SCALE
    lo = max(m - 2 * left1, -(o1 + left1), -6) * SCALE
    if c0 + min(left0, open21) >= 3:
        hi = WIN_VALUE
    if c1 + min(left1, open21) >= 3:
        lo = -WIN_VALUE
    return lo, hi


@njit(cache=True)
def tt_key(S):
    """Exact 2-word key of the searched position (grids are fixed during one search); both < 2**63."""
    k1 = np.int64(0)
    for t in range(4):
        f = (min(S[TOT + t], 127) << 6) | (S[TOP + t] << 3) | (S[JK + t] << 2) | (S[OWN + t] + 1)
        k1 = (k1 << 13) | f
    k1 = (k1 << 3) | S[ROUND]
    k1 = (k1 << 1) | (S[PHASE] & 1)
    k1 = (k1 << 3) | S[STEP]
    k2 = np.int64(0)
    for t in range(4, 6):
        f = (min(S[TOT + t], 127) << 6) | (S[TOP + t] << 3) | (S[JK + t] << 2) | (S[OWN + t] + 1)
        k2 = (k2 << 13) | f
    for i in range(6):
        k2 = (k2 << 1) | (1 if S[HAND + i] >= 0 else 0)
    for p in range(2):
        k2 = (k2 << 3) | (S[LINE + p] + 1)
        k2 = (k2 << 6) | S[USED + p]  # six lines: a 3-bit field let column masks spill into LINE
        k2 = (k2 << 2) | (S[DIR + p] + 1)
    return k1, k2


@njit(cache=True)
def _slot(k1, k2, mask):
    h = (np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)) ^ (np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit(cache=True)
def _move_order_score(S, m, p):
    """Cheap static ordering: take the opponent's towers first, then empty ones, own towers last; keep jokers.

    (A bonus for making 21 was tried and cost 20-50% more nodes from the round-4 start.)
    """
    if m >= MOVE_PICK or m == MOVE_PASS:
        return 0
    t = (m % 16) // 2
    sc = 0
    if S[OWN + t] == 1 - p:
        sc += 20
    elif S[OWN + t] == p:
        sc -= 10
    if S[HAND + 3 * p + m // 16] == JOKER:
        sc -= 5
    return sc


# -- resumable explicit-stack alpha-beta ----------------------------------------------
# per-depth frame columns: the move list, the undo record, then the node's scalars
F_MOV = 0
F_UNDO = MAXM
F_A, F_B, F_A0, F_B0, F_BEST, F_BESTM, F_I, F_N, F_K1, F_K2, F_BASE, F_P = range(MAXM + 16, MAXM + 28)
FW = MAXM + 28
# control words of a search in progress (see ab_run)
C_D, C_POP, C_VAL, C_DONE, C_NODES, C_BOUND = 0, 1, 2, 3, 4, 5
NC = 8
INF = 10 * WIN_VALUE


@njit(cache=True)
def ab_start(fr, ctl, alpha, beta):
    """Set up a search of the position in ``S`` with window ``(alpha, beta)`` for :func:`ab_run`."""
    ctl[C_D] = 0
    ctl[C_POP] = 0
    ctl[C_VAL] = 0
    ctl[C_DONE] = 0
    fr[0, F_A] = alpha
    fr[0, F_B] = beta


HIST_W = np.int64(1) << 40
NHIST = 640


@njit(cache=True)
def _hist_key(S, m, p):
    """Position-independent key of a move for the history table: stone code and tower, or the line."""
    if m >= MOVE_PICK:
        return 600 + m - MOVE_PICK
    if m == MOVE_PASS:
        return 610
    return S[HAND + 3 * p + m // 16] * 16 + m % 16


@njit(cache=True)
def _last_ply(S, alpha, beta, moves, undo):
    """Value of a node whose every move ends the horizon: evaluate each child in place (fail-soft)."""
    n = gen_moves(S, moves)
    p = mover(S)
    best = -INF if p == 0 else INF
    for i in range(n):
        make_move(S, moves[i], undo)
        v = evaluate(S)
        unmake_move(S, moves[i], undo)
        if p == 0:
            if v > best:
                best = v
            if best >= beta:
                break
        else:
            if v < best:
                best = v
            if best <= alpha:
                break
    return best


@njit(cache=True)
def _bound_cut(S, alpha, beta, ctl):
    """True (and the bound in ``ctl[C_BOUND]``) when :func:`value_bounds` alone settles the window."""
    lo, hi = value_bounds(S)
    if hi <= alpha:
        ctl[C_BOUND] = hi
        return True
    if lo >= beta:
        ctl[C_BOUND] = lo
        return True
    return False


@njit(cache=True)
def _tt_store(S, tt, gen, fr, d, best):
    flag = EXACT
    if best <= fr[d, F_A0]:
        flag = UPPER
    elif best >= fr[d, F_B0]:
        flag = LOWER
    depth = (S[LAST] - S[ROUND]) * 8 + (8 - S[STEP] // 2 if S[PHASE] == PHASE_PICK else 6 - S[STEP])
    if depth < 0:
        depth = 0
    base = fr[d, F_BASE]
    old = tt[base, 2]
    w = base if ((old >> 38) != gen or ((old >> 32) & 63) <= depth) else base + 1
    tt[w, 0] = fr[d, F_K1]
    tt[w, 1] = fr[d, F_K2]
    tt[w, 2] = (gen << 38) | (depth << 32) | (flag << 28) | (fr[d, F_BESTM] << 16) | (best + 32768)


@njit(cache=True)
def ab_run(S, tt, gen, mask, fr, ctl, budget, hist):  # noqa: C901
    """Fail-soft alpha-beta (seat 0 maximises P1 values) with a transposition table, as an explicit stack.

    Runs at most ``budget`` nodes and returns 0 (suspended: call again to go on),
    or 1 when the root is done (its value in ``ctl[C_VAL]``).  ``S`` is changed
    in place during the search and restored when it is done.  No recursion, so
    numba can cache the compiled code.
    """
    d = ctl[C_D]
    pop = ctl[C_POP]
    val = ctl[C_VAL]
    nodes = 0
    scores = np.empty(MAXM, dtype=np.int64)
    while True:
        if pop == 0:
            if nodes >= budget:
                ctl[C_D] = d
                ctl[C_POP] = pop
                ctl[C_VAL] = val
                ctl[C_NODES] += nodes
                return 0
            nodes += 1
            alpha = fr[d, F_A]
            beta = fr[d, F_B]
            if S[PHASE] == PHASE_DONE:
                val = evaluate(S)
                pop = 1
            elif S[MODE] == 0 and (S[ROUND] == S[LAST] or S[ROUND] == 2) and _bound_cut(S, alpha, beta, ctl):
                val = ctl[C_BOUND]
                pop = 1
            elif S[PHASE] == PHASE_PLACE and S[STEP] == 5 and (S[ROUND] == S[LAST] or S[ROUND] == 2):
                val = _last_ply(S, alpha, beta, fr[d, F_MOV : F_MOV + MAXM], fr[d, F_UNDO : F_UNDO + 16])
                pop = 1
            else:
                ttmove = -1
                k1 = np.int64(0)
                k2 = np.int64(0)
                base = np.int64(-1)  # no table near the horizon: two plies are cheaper to search than to store
                meta = np.int64(0)
                idx = np.int64(0)
                if not (S[PHASE] == PHASE_PLACE and S[STEP] >= 3 and (S[ROUND] == S[LAST] or S[ROUND] == 2)):
                    k1, k2 = tt_key(S)
                    base = _slot(k1, k2, mask) & ~np.int64(1)  # two-way bucket: [depth-preferred, always-replace]
                    idx = base
                    if not (tt[base, 0] == k1 and tt[base, 1] == k2 and (tt[base, 2] >> 38) == gen):
                        idx = base + 1
                    meta = tt[idx, 2]
                if base >= 0 and (meta >> 38) == gen and tt[idx, 0] == k1 and tt[idx, 1] == k2:
                    v = (meta & 0xFFFF) - 32768
                    f = (meta >> 28) & 3
                    if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                        val = v
                        pop = 1
                    ttmove = (meta >> 16) & 0xFFF
                if pop == 0:
                    moves = fr[d, F_MOV : F_MOV + MAXM]
                    n = gen_moves(S, moves)
                    p = mover(S)
                    for i in range(n):
                        if moves[i] == ttmove:
                            scores[i] = np.int64(1) << 60
                        else:
                            scores[i] = _move_order_score(S, moves[i], p) * HIST_W + hist[p, _hist_key(S, moves[i], p)]
                    for i in range(1, n):  # insertion sort, best first
                        m, sc = moves[i], scores[i]
                        j = i - 1
                        while j >= 0 and scores[j] < sc:
                            moves[j + 1] = moves[j]
                            scores[j + 1] = scores[j]
                            j -= 1
                        moves[j + 1] = m
                        scores[j + 1] = sc
                    fr[d, F_A0] = alpha
                    fr[d, F_B0] = beta
                    fr[d, F_BEST] = -INF if p == 0 else INF
                    fr[d, F_BESTM] = moves[0]
                    fr[d, F_I] = 0
                    fr[d, F_N] = n
                    fr[d, F_K1] = k1
                    fr[d, F_K2] = k2
                    fr[d, F_BASE] = base
                    fr[d, F_P] = p
                    make_move(S, moves[0], fr[d, F_UNDO : F_UNDO + 16])
                    fr[d + 1, F_A] = alpha
                    fr[d + 1, F_B] = beta
                    d += 1
                    continue
        # pop: ``val`` is the value of the node at depth d
        if d == 0:
            ctl[C_D] = 0
            ctl[C_POP] = 1
            ctl[C_VAL] = val
            ctl[C_DONE] = 1
            ctl[C_NODES] += nodes
            return 1
        d -= 1
        i = fr[d, F_I]
        m = fr[d, F_MOV + i]
        unmake_move(S, m, fr[d, F_UNDO : F_UNDO + 16])
        if fr[d, F_P] == 0:
            if val > fr[d, F_BEST]:
                fr[d, F_BEST] = val
                fr[d, F_BESTM] = m
            if val > fr[d, F_A]:
                fr[d, F_A] = val
        else:
            if val < fr[d, F_BEST]:
                fr[d, F_BEST] = val
                fr[d, F_BESTM] = m
            if val < fr[d, F_B]:
                fr[d, F_B] = val
        i += 1
        if fr[d, F_A] >= fr[d, F_B]:
            rem = (S[LAST] - S[ROUND]) * 8 + (8 - S[STEP] // 2 if S[PHASE] == PHASE_PICK else 6 - S[STEP])
            hk = _hist_key(S, m, fr[d, F_P])
            hist[fr[d, F_P], hk] = min(hist[fr[d, F_P], hk] + (np.int64(1) << min(rem, 20)), HIST_W - 1)
        if fr[d, F_A] < fr[d, F_B] and i < fr[d, F_N]:
            fr[d, F_I] = i
            make_move(S, fr[d, F_MOV + i], fr[d, F_UNDO : F_UNDO + 16])
            fr[d + 1, F_A] = fr[d, F_A]
            fr[d + 1, F_B] = fr[d, F_B]
            d += 1
            pop = 0
        else:
            val = fr[d, F_BEST]
            if fr[d, F_BASE] >= 0:
                _tt_store(S, tt, gen, fr, d, val)
