"""The My Shelfie rules, compiled with numba: the only implementation of them that kibitz plays.

Everything that decides a game lives here: the legal moves, playing a move, the refill rule and
the refill itself, adjacency groups, personal goals, the twelve common goals, tokens, the end-game
token, the end of the game and the winner (``docs/rules/my-shelfie.md`` has the rules in words).
:class:`puzzles.shelfie.engine.ShelfieState` wraps a :class:`ShelfieArrays` for the game protocol,
the scoring API of :mod:`puzzles.shelfie.rules` calls the shelf functions, and the bots of
:mod:`solvers.shelfie.bots` play whole games on it.

State (:class:`ShelfieArrays`, a ``NamedTuple`` of numpy arrays, so numba compiles it and it copies
cheaply): ``meta`` holds the scalars by the ``M_*`` indices (seats, seat to move, end-token holder,
game over, refill due, turn, the two goal ids, the stack positions and tokens per stack) and the rule
options (refill rule, the two TWO_SQUARES options), set once at the start; ``board`` is the 9x9
living room flattened (row-major, row 0 = top; -1 empty or unusable, 0..5 a tile) and ``usable`` its
mask; ``shelves`` int8[n, 6, 5] (-1 empty); ``bag`` tiles per type; ``tokens`` int64[n, 2] the token
each seat took per goal (0: none); ``stacks`` int64[2, 4] the token values (top first);
``cards`` int8[n, 6, 5] the personal goal grids.

A move is an int64 row ``(L, c0, c1, c2, column)``: L board cells (flat indices) in placement
order (the first lands lowest) and the shelf column.  :func:`gen_moves` lists each distinct result
once: lines of free tiles in reading order of their first cell (the tile alone, then lines to the
right, then down), each line's orders in ``itertools.permutations`` order with orders giving the
same type sequence merged, then the columns with room.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzles.shelfie.components import (
    COMMON_GOAL_KEYS,
    EMPTY,
    SCORING_TOKENS,
    TILES_PER_TYPE,
    board_mask,
    personal_goal_grid,
)

N_CELLS = 81
MAX_MOVES = 4096

# indices of ``ShelfieArrays.meta``
M_N, M_TO_MOVE, M_END, M_OVER, M_REFILL, M_RULE, M_SQIN, M_SQSAME, M_TURN = range(9)
M_G0, M_G1, M_SP0, M_SP1, M_NTOK = range(9, 14)
META_SIZE = 14

#: Refill rules, by their code in ``meta[M_RULE]``: refill when no tile has a neighbour tile, or when
#: 4 or fewer tiles remain.
REFILL_RULES = ("isolated", "four_or_fewer")
RULE_ISOLATED, RULE_FOUR = 0, 1

# common goals, by their id (index in COMMON_GOAL_KEYS)
GOAL_SIX_PAIRS = 0
GOAL_DIAGONAL = 1
GOAL_FOUR_GROUPS_OF_FOUR = 2
GOAL_FOUR_ROWS_MAX3 = 3
GOAL_FOUR_CORNERS = 4
GOAL_TWO_COLUMNS_ALL_DIFFERENT = 5
GOAL_TWO_SQUARES = 6
GOAL_TWO_ROWS_ALL_DIFFERENT = 7
GOAL_THREE_COLUMNS_MAX3 = 8
GOAL_X_SHAPE = 9
GOAL_EIGHT_SAME = 10
GOAL_STAIRCASE = 11

GOAL_IDS = {key: i for i, key in enumerate(COMMON_GOAL_KEYS)}
assert all(GOAL_IDS[key] == globals()[f"GOAL_{key}"] for key in COMMON_GOAL_KEYS)

PERSONAL_PTS = np.array([0, 1, 2, 4, 6, 9, 12], dtype=np.int64)
GROUP_PTS = np.array([0, 0, 0, 2, 3, 5, 8], dtype=np.int64)
PERM2 = np.array([[0, 1], [1, 0]], dtype=np.int64)
PERM3 = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64)


class ShelfieArrays(NamedTuple):
    """The kernel state of one game (field layout in the module docstring)."""

    meta: np.ndarray  # int64[META_SIZE]
    board: np.ndarray  # int8[81]
    usable: np.ndarray  # bool[81]
    shelves: np.ndarray  # int8[n, 6, 5]
    bag: np.ndarray  # int64[6]
    tokens: np.ndarray  # int64[n, 2]
    stacks: np.ndarray  # int64[2, 4]
    cards: np.ndarray  # int8[n, 6, 5]


def _neighbour_table() -> np.ndarray:
    nb = np.full((N_CELLS, 4), -1, dtype=np.int64)
    for r in range(9):
        for c in range(9):
            for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                y, x = r + dr, c + dc
                if 0 <= y < 9 and 0 <= x < 9:
                    nb[r * 9 + c, k] = y * 9 + x
    return nb


NB = _neighbour_table()


# ---------------------------------------------------------------------------------------------
# shelf scoring
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def label_groups(shelf, labels, sizes, boxes):  # noqa: C901
    """Label the same-type groups of ``shelf`` in reading order of their first cell; returns their number.

    ``labels`` int64[30] gets the group of each cell (-1 empty), ``sizes`` int64[30] the sizes and
    ``boxes`` int64[30, 4] the bounding boxes (rmin, rmax, cmin, cmax).
    """
    for i in range(30):
        labels[i] = -1
    stack = np.empty(30, dtype=np.int64)
    n = 0
    for start in range(30):
        r0, c0 = start // 5, start % 5
        t = shelf[r0, c0]
        if t < 0 or labels[start] >= 0:
            continue
        labels[start] = n
        stack[0] = start
        top = 1
        size = 0
        rmin, rmax, cmin, cmax = r0, r0, c0, c0
        while top > 0:
            top -= 1
            i = stack[top]
            r, c = i // 5, i % 5
            size += 1
            rmin = min(rmin, r)
            rmax = max(rmax, r)
            cmin = min(cmin, c)
            cmax = max(cmax, c)
            if r > 0 and labels[i - 5] < 0 and shelf[r - 1, c] == t:
                labels[i - 5] = n
                stack[top] = i - 5
                top += 1
            if r < 5 and labels[i + 5] < 0 and shelf[r + 1, c] == t:
                labels[i + 5] = n
                stack[top] = i + 5
                top += 1
            if c > 0 and labels[i - 1] < 0 and shelf[r, c - 1] == t:
                labels[i - 1] = n
                stack[top] = i - 1
                top += 1
            if c < 4 and labels[i + 1] < 0 and shelf[r, c + 1] == t:
                labels[i + 1] = n
                stack[top] = i + 1
                top += 1
        sizes[n] = size
        boxes[n, 0] = rmin
        boxes[n, 1] = rmax
        boxes[n, 2] = cmin
        boxes[n, 3] = cmax
        n += 1
    return n


#: Shelf cells as bits (bit ``r * 5 + c``): every cell, and every cell but those of column 0 / column 4.
ALL_CELLS = (1 << 30) - 1
NOT_COL0 = ALL_CELLS & ~sum(1 << (r * 5) for r in range(6))
NOT_COL4 = ALL_CELLS & ~sum(1 << (r * 5 + 4) for r in range(6))


@njit(cache=True)
def adjacency(shelf):
    """Adjacency points of a shelf (groups of 3: 2, 4: 3, 5: 5, 6+: 8).

    The groups are grown as bit sets of the cells (no arrays: it runs once per candidate move in the bots).
    """
    pts = 0
    for t in range(6):
        left = 0  # cells of type t not yet in a counted group
        for i in range(30):
            if shelf[i // 5, i % 5] == t:
                left |= 1 << i
        while left:
            group = left & -left
            while True:
                grown = (group | (group << 5) | (group >> 5) | ((group << 1) & NOT_COL0)
                         | ((group >> 1) & NOT_COL4)) & left
                if grown == group:
                    break
                group = grown
            left &= ~group
            size = 0
            while group:
                group &= group - 1
                size += 1
            pts += GROUP_PTS[min(size, 6)]
    return pts


@njit(cache=True)
def personal_matches(card, shelf):
    """How many cells of the personal goal grid ``card`` hold the type it asks for."""
    m = 0
    for r in range(6):
        for c in range(5):
            if card[r, c] >= 0 and shelf[r, c] == card[r, c]:
                m += 1
    return m


@njit(cache=True)
def personal_points(card, shelf):
    return PERSONAL_PTS[personal_matches(card, shelf)]


@njit(cache=True)
def _distinct(line):
    seen = np.zeros(6, dtype=np.int64)
    d = 0
    for v in line:
        if seen[v] == 0:
            seen[v] = 1
            d += 1
    return d


@njit(cache=True, inline="always")
def _is_square(sizes, boxes, g):
    return sizes[g] == 4 and boxes[g, 1] - boxes[g, 0] == 1 and boxes[g, 3] - boxes[g, 2] == 1


@njit(cache=True, inline="always")
def _group_goal(gid, shelf, sq_same):  # noqa: C901
    """SIX_PAIRS, FOUR_GROUPS_OF_FOUR, and TWO_SQUARES as two groups that are exactly 2x2 squares."""
    labels = np.empty(30, dtype=np.int64)
    sizes = np.empty(30, dtype=np.int64)
    boxes = np.empty((30, 4), dtype=np.int64)
    n = label_groups(shelf, labels, sizes, boxes)
    if gid == GOAL_SIX_PAIRS or gid == GOAL_FOUR_GROUPS_OF_FOUR:  # noqa: SIM109 (numba-compiled)
        least, need = (2, 6) if gid == GOAL_SIX_PAIRS else (4, 4)
        k = 0
        for g in range(n):
            if sizes[g] >= least:
                k += 1
        return k >= need
    first = -1
    for g in range(n):
        if _is_square(sizes, boxes, g):
            if not sq_same:
                if first >= 0:
                    return True
                first = g
            else:
                t = shelf[boxes[g, 0], boxes[g, 2]]
                for h in range(g):
                    if _is_square(sizes, boxes, h) and shelf[boxes[h, 0], boxes[h, 2]] == t:
                        return True
    return False


@njit(cache=True, inline="always")
def _squares_anywhere(shelf, sq_same):
    """TWO_SQUARES with ``squares_inside_groups``: two non-overlapping same-type 2x2 squares."""
    sr = np.empty(20, dtype=np.int64)
    sc = np.empty(20, dtype=np.int64)
    st = np.empty(20, dtype=np.int64)
    k = 0
    for r in range(5):
        for c in range(4):
            t = shelf[r, c]
            if t >= 0 and shelf[r, c + 1] == t and shelf[r + 1, c] == t and shelf[r + 1, c + 1] == t:
                for j in range(k):
                    if (abs(sr[j] - r) >= 2 or abs(sc[j] - c) >= 2) and (not sq_same or st[j] == t):
                        return True
                sr[k] = r
                sc[k] = c
                st[k] = t
                k += 1
    return False


@njit(cache=True, inline="always")
def _diagonal(shelf):
    for d in range(4):
        off = d % 2
        t = shelf[off, 0] if d < 2 else shelf[off, 4]
        if t < 0:
            continue
        ok = True
        for i in range(5):
            c = i if d < 2 else 4 - i
            if shelf[i + off, c] != t:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True, inline="always")
def _four_corners(shelf):
    t = shelf[0, 0]
    return t >= 0 and shelf[0, 4] == t and shelf[5, 0] == t and shelf[5, 4] == t


@njit(cache=True, inline="always")
def _eight_same(shelf):
    counts = np.zeros(6, dtype=np.int64)
    for r in range(6):
        for c in range(5):
            if shelf[r, c] >= 0:
                counts[shelf[r, c]] += 1
    return counts.max() >= 8


@njit(cache=True, inline="always")
def _x_shape(shelf):
    for r in range(4):
        for c in range(3):
            t = shelf[r, c]
            if (t >= 0 and shelf[r, c + 2] == t and shelf[r + 1, c + 1] == t and shelf[r + 2, c] == t
                    and shelf[r + 2, c + 2] == t):
                return True
    return False


@njit(cache=True, inline="always")
def _full_rows(shelf, most, need):
    """At least ``need`` full rows with at most ``most`` types (``most`` < 0: all different)."""
    k = 0
    for r in range(6):
        full = True
        for c in range(5):
            if shelf[r, c] < 0:
                full = False
        if full:
            d = _distinct(shelf[r, :])
            if (most >= 0 and d <= most) or (most < 0 and d == 5):
                k += 1
    return k >= need


@njit(cache=True, inline="always")
def _full_columns(shelf, most, need):
    """At least ``need`` full columns with at most ``most`` types (``most`` < 0: all different)."""
    k = 0
    for c in range(5):
        full = True
        for r in range(6):
            if shelf[r, c] < 0:
                full = False
        if full:
            d = _distinct(shelf[:, c])
            if (most >= 0 and d <= most) or (most < 0 and d == 6):
                k += 1
    return k >= need


@njit(cache=True, inline="always")
def _staircase(shelf):
    h = np.empty(5, dtype=np.int64)
    for c in range(5):
        cnt = 0
        for r in range(6):
            if shelf[r, c] >= 0:
                cnt += 1
        for r in range(6):
            if (shelf[r, c] >= 0) != (r >= 6 - cnt):
                return False  # a hole: the column has no height
        h[c] = cnt
    for k0 in range(1, 3):
        up = True
        down = True
        for c in range(5):
            if h[c] != k0 + c:
                up = False
            if h[c] != k0 + 4 - c:
                down = False
        if up or down:
            return True
    return False


@njit(cache=True)
def goal_met(gid, shelf, sq_inside, sq_same):  # noqa: C901
    """Common goal ``gid`` (a ``GOAL_*`` id) on ``shelf``; the TWO_SQUARES options as in the rules."""
    if gid == GOAL_SIX_PAIRS or gid == GOAL_FOUR_GROUPS_OF_FOUR or (gid == GOAL_TWO_SQUARES and not sq_inside):  # noqa: SIM109
        return _group_goal(gid, shelf, sq_same)
    if gid == GOAL_TWO_SQUARES:
        return _squares_anywhere(shelf, sq_same)
    if gid == GOAL_DIAGONAL:
        return _diagonal(shelf)
    if gid == GOAL_FOUR_CORNERS:
        return _four_corners(shelf)
    if gid == GOAL_EIGHT_SAME:
        return _eight_same(shelf)
    if gid == GOAL_X_SHAPE:
        return _x_shape(shelf)
    if gid == GOAL_FOUR_ROWS_MAX3:
        return _full_rows(shelf, 3, 4)
    if gid == GOAL_TWO_ROWS_ALL_DIFFERENT:
        return _full_rows(shelf, -1, 2)
    if gid == GOAL_THREE_COLUMNS_MAX3:
        return _full_columns(shelf, 3, 3)
    if gid == GOAL_TWO_COLUMNS_ALL_DIFFERENT:
        return _full_columns(shelf, -1, 2)
    if gid == GOAL_STAIRCASE:
        return _staircase(shelf)
    return False


# ---------------------------------------------------------------------------------------------
# board and moves
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def is_free(board, i):
    """Whether the tile at ``i`` has a free side (an empty, unusable or off-board neighbour)."""
    for k in range(4):
        j = NB[i, k]
        if j < 0 or board[j] < 0:
            return True
    return False


@njit(cache=True)
def column_free(shelf, c):
    f = 0
    for r in range(6):
        if shelf[r, c] < 0:
            f += 1
    return f


@njit(cache=True)
def _emit(board, cells, L, free, out, n):  # noqa: C901
    types = np.empty(6, dtype=np.int64)  # encoded type sequences of kept orders
    kept = 0
    nperm = 1 if L == 1 else (2 if L == 2 else 6)
    for p in range(nperm):
        if L == 1:
            a, b, c = cells[0], -1, -1
        elif L == 2:
            a, b, c = cells[PERM2[p, 0]], cells[PERM2[p, 1]], -1
        else:
            a, b, c = cells[PERM3[p, 0]], cells[PERM3[p, 1]], cells[PERM3[p, 2]]
        code = board[a] * 49
        if b >= 0:
            code += board[b] * 7
        if c >= 0:
            code += board[c]
        dup = False
        for q in range(kept):
            if types[q] == code:
                dup = True
                break
        if dup:
            continue
        types[kept] = code
        kept += 1
        for col in range(5):
            if free[col] >= L:
                out[n, 0] = L
                out[n, 1] = a
                out[n, 2] = b
                out[n, 3] = c
                out[n, 4] = col
                n += 1
    return n


@njit(cache=True)
def gen_moves(board, shelf, out):  # noqa: C901
    """Fill ``out`` (int64[MAX_MOVES, 5]) with the legal moves for ``shelf``; returns how many."""
    free = np.empty(5, dtype=np.int64)
    maxfree = 0
    for c in range(5):
        free[c] = column_free(shelf, c)
        maxfree = max(maxfree, free[c])
    maxlen = min(3, maxfree)
    ok = np.zeros(N_CELLS, dtype=np.bool_)
    for i in range(N_CELLS):
        ok[i] = board[i] >= 0 and is_free(board, i)
    cells = np.empty(3, dtype=np.int64)
    # int64s, not the literals 0 and 1: numba would compile _emit once more per literal signature
    n = np.int64(0)
    single = np.int64(1)
    if maxlen == 0:
        return 0
    for i in range(N_CELLS):
        if not ok[i]:
            continue
        cells[0] = i
        n = _emit(board, cells, single, free, out, n)
        r, c = i // 9, i % 9
        for d in range(2):  # right, then down
            step = 1 if d == 0 else 9
            for L in range(2, maxlen + 1):
                rr = r + (L - 1) * (0 if d == 0 else 1)
                cc = c + (L - 1) * (1 if d == 0 else 0)
                if rr > 8 or cc > 8:
                    break
                j = i + (L - 1) * step
                if not ok[j]:
                    break
                cells[L - 1] = j
                n = _emit(board, cells, L, free, out, n)
    return n


@njit(cache=True)
def legal_moves(st, out):
    """:func:`gen_moves` for the seat to move; 0 at a chance node or when the game is over."""
    if st.meta[M_OVER] != 0 or st.meta[M_REFILL] != 0:
        return 0
    return gen_moves(st.board, st.shelves[st.meta[M_TO_MOVE]], out)


@njit(cache=True, inline="always")
def place(shelf, board, mv):
    """Move the tiles of ``mv`` from ``board`` into ``shelf`` (no checks)."""
    col = mv[4]
    h = 6 - column_free(shelf, col)
    for k in range(mv[0]):
        cell = mv[1 + k]
        shelf[5 - h, col] = board[cell]
        board[cell] = -1
        h += 1


@njit(cache=True)
def board_needs_refill(board, rule):
    """Whether refill rule ``rule`` (``RULE_*``) fires on ``board``."""
    if rule == RULE_FOUR:
        n = 0
        for i in range(N_CELLS):
            if board[i] >= 0:
                n += 1
        return n <= 4
    for i in range(N_CELLS):
        if board[i] >= 0:
            for k in range(4):
                j = NB[i, k]
                if j >= 0 and board[j] >= 0:
                    return False
    return True


@njit(cache=True)
def refill(st):
    """Return the board's tiles to the bag and refill every usable cell at random (numba's np.random).

    When the bag runs short, which cells get a tile is drawn first.  Clears the refill flag.
    """
    board = st.board
    bag = st.bag
    usable = st.usable
    nu = 0
    for i in range(N_CELLS):
        if usable[i]:
            if board[i] >= 0:
                bag[board[i]] += 1
                board[i] = -1
            nu += 1
    total = bag.sum()
    cells = np.empty(nu, dtype=np.int64)
    k = 0
    for i in range(N_CELLS):
        if usable[i]:
            cells[k] = i
            k += 1
    if total < nu:  # choose which cells get a tile
        for a in range(nu - 1, 0, -1):
            b = np.random.randint(0, a + 1)
            cells[a], cells[b] = cells[b], cells[a]
        nu = total
        # the chosen cells back in increasing order (what sorting them gives, without compiling a sort)
        chosen = np.zeros(N_CELLS, dtype=np.bool_)
        for k in range(nu):
            chosen[cells[k]] = True
        k = 0
        for i in range(N_CELLS):
            if chosen[i]:
                cells[k] = i
                k += 1
    for k in range(nu):
        x = np.random.randint(0, total)
        t = 0
        while x >= bag[t]:
            x -= bag[t]
            t += 1
        bag[t] -= 1
        total -= 1
        board[cells[k]] = t
    st.meta[M_REFILL] = 0


@njit(cache=True)
def apply_refill(st, tiles):
    """Play a drawn refill: the board's tiles go back to the bag, then usable cell k (row-major)
    gets ``tiles[k]`` (-1: left empty).  No checks (the engine checks the outcome first)."""
    board, bag, usable = st.board, st.bag, st.usable
    k = 0
    for i in range(N_CELLS):
        if usable[i]:
            if board[i] >= 0:
                bag[board[i]] += 1
            board[i] = tiles[k]
            if tiles[k] >= 0:
                bag[tiles[k]] -= 1
            k += 1
    st.meta[M_REFILL] = 0


# ---------------------------------------------------------------------------------------------
# whole turns and the outcome
# ---------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def score_goals(st, seat):
    """Give ``seat`` the top token of each common goal it meets now and has not scored."""
    meta = st.meta
    tokens = st.tokens
    shelf = st.shelves[seat]
    for g in range(2):
        open_goal = tokens[seat, g] == 0 and meta[M_SP0 + g] < meta[M_NTOK]
        if open_goal and goal_met(meta[M_G0 + g], shelf, meta[M_SQIN] != 0, meta[M_SQSAME] != 0):
            tokens[seat, g] = st.stacks[g, meta[M_SP0 + g]]
            meta[M_SP0 + g] += 1


@njit(cache=True, inline="always")
def shelf_full(shelf):
    for c in range(5):  # noqa: SIM110 (numba-compiled)
        if shelf[0, c] < 0:
            return False
    return True


@njit(cache=True)
def apply_move(st, mv):
    """Play ``mv`` for the seat to move: place, goals, end token, next seat, refill check."""
    meta = st.meta
    board = st.board
    seat = meta[M_TO_MOVE]
    shelf = st.shelves[seat]
    place(shelf, board, mv)
    meta[M_TURN] += 1
    score_goals(st, seat)
    if meta[M_END] < 0 and shelf_full(shelf):
        meta[M_END] = seat
    if meta[M_END] >= 0 and seat == meta[M_N] - 1:
        meta[M_OVER] = 1
        return
    meta[M_TO_MOVE] = (seat + 1) % meta[M_N]
    if board_needs_refill(board, meta[M_RULE]):
        meta[M_REFILL] = 1


@njit(cache=True)
def seat_score(st, seat):
    """Tokens, end-game token, personal goal and adjacency points of ``seat``."""
    tokens = st.tokens
    shelf = st.shelves[seat]
    s = tokens[seat, 0] + tokens[seat, 1]
    if st.meta[M_END] == seat:
        s += 1
    return s + personal_points(st.cards[seat], shelf) + adjacency(shelf)


@njit(cache=True)
def winner(st):
    """Best score; ties go to the highest seat (furthest from the first player)."""
    best = -1
    win = 0
    for s in range(st.meta[M_N]):
        v = seat_score(st, s)
        if v >= best:
            best = v
            win = s
    return win


@njit(cache=True)
def copy_state(st):
    """An independent copy of ``st``."""
    return ShelfieArrays(st.meta.copy(), st.board.copy(), st.usable.copy(), st.shelves.copy(), st.bag.copy(),
                         st.tokens.copy(), st.stacks.copy(), st.cards.copy())


@njit(cache=True)
def with_cards(st, cards):
    """A copy of ``st`` whose personal goal grids are ``cards`` (a determinization)."""
    return ShelfieArrays(st.meta.copy(), st.board.copy(), st.usable.copy(), st.shelves.copy(), st.bag.copy(),
                         st.tokens.copy(), st.stacks.copy(), cards)


@njit(cache=True)
def seed_numba(seed):
    np.random.seed(seed)


# ---------------------------------------------------------------------------------------------
# building a state, and moves from/to the engine's cells
# ---------------------------------------------------------------------------------------------


def new_state(num_players: int, goal_ids: tuple[int, int], cards: tuple[int, ...], rule: int = RULE_ISOLATED,
              squares_inside_groups: bool = False, squares_same_type: bool = False) -> ShelfieArrays:
    """The kernel state of a fresh game (board empty, refill due, full token stacks)."""
    meta = np.zeros(META_SIZE, dtype=np.int64)
    meta[M_N] = num_players
    meta[M_END] = -1
    meta[M_REFILL] = 1
    meta[M_RULE] = rule
    meta[M_SQIN] = int(squares_inside_groups)
    meta[M_SQSAME] = int(squares_same_type)
    meta[M_G0], meta[M_G1] = goal_ids
    meta[M_NTOK] = len(SCORING_TOKENS[num_players])
    stacks = np.zeros((2, 4), dtype=np.int64)
    stacks[:, : meta[M_NTOK]] = SCORING_TOKENS[num_players]
    usable = board_mask(num_players).ravel().copy()
    return ShelfieArrays(
        meta=meta,
        board=np.full(N_CELLS, EMPTY, dtype=np.int8),
        usable=usable,
        shelves=np.full((num_players, 6, 5), EMPTY, dtype=np.int8),
        bag=np.full(6, TILES_PER_TYPE, dtype=np.int64),
        tokens=np.zeros((num_players, 2), dtype=np.int64),
        stacks=stacks,
        cards=card_grids(cards),
    )


def card_grids(cards: tuple[int, ...]) -> np.ndarray:
    """The personal goal grids of ``cards`` (one per seat) as int8[n, 6, 5]."""
    return np.stack([personal_goal_grid(c) for c in cards]).astype(np.int8)


#: The cells of a move row ``(L, c0, c1, c2)``, by row, filled as rows are met.
_CELLS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}


def row_cells(row: list[int]) -> tuple[tuple[int, int], ...]:
    """The board cells (row, column) of a move row (a list ``[L, c0, c1, c2, column]``)."""
    key = (row[0], row[1], row[2], row[3])
    cells = _CELLS.get(key)
    if cells is None:
        cells = _CELLS[key] = tuple((row[1 + k] // 9, row[1 + k] % 9) for k in range(row[0]))
    return cells


def cells_row(cells: tuple[tuple[int, int], ...], column: int) -> np.ndarray:
    """The move row of taking ``cells`` (in placement order) into ``column``."""
    row = np.full(5, -1, dtype=np.int64)
    row[0] = len(cells)
    for k, (r, c) in enumerate(cells):
        row[1 + k] = r * 9 + c
    row[4] = column
    return row
